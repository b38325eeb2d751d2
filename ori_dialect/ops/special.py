"""Special-register reads, NOP and the trap BPT.TRAP."""

from __future__ import annotations

from xdsl.utils.exceptions import VerifyException

from ori_dialect.ir.instruction import Dst, ModGroup, OriInstruction
from ori_dialect.ir.metadata import LatencyClass, MemEffect, Pipe
from ori_dialect.ir.registers import REGISTER_TYPES, R32Type, R64Type
from ori_dialect.ops.base import R, imm, ori_op

# Names as SASS prints them, split at the dot (SR_TID.X -> SR_TID + X).
SPECIAL_REGS = (
    "SR_TID", "SR_CTAID", "SR_LANEID", "SR_WARPID", "SR_NWARPID", "SR_SMID",
    "SR_NSMID", "SR_CLOCKLO", "SR_CLOCKHI", "SR_GLOBALTIMERLO", "SR_GLOBALTIMERHI",
    "SR_EQMASK", "SR_LTMASK", "SR_LEMASK", "SR_GTMASK", "SR_GEMASK",
)
CTA_UNIFORM_REGS = ("SR_CTAID", "SR_SMID", "SR_NSMID")
"""Special registers with one value per CTA."""
_DIMENSIONED = ("SR_TID", "SR_CTAID")


@ori_op
class S2ROp(OriInstruction):
    """S2R: read a special register (``SR_TID.X``, ``SR_LANEID``, ``SR_CLOCKLO`` ...).

    Thread and CTA ids are fixed for a thread, so the read may be recomputed;
    the clock is not (it is volatile)."""

    name = "ori.s2r"
    SASS = "S2R"
    UNIFORM_SASS = "S2UR"
    LATENCY = LatencyClass.UNIFORM_LOAD
    PIPE = Pipe.TEX
    UNIFORM_SOURCE = True
    DSTS = (Dst("d", R),)
    SRCS = ()
    MODS = (ModGroup("sr", SPECIAL_REGS, required=True), ModGroup("dim", ("X", "Y", "Z")))

    def reads_only_uniform_inputs(self) -> bool:
        """The CTA's id and the SM it runs on are the same for all its threads
        (``S2UR`` can read them); thread ids, lane masks and clocks are not."""
        return self.operand_groups()[1] is None and self.mod("sr") in CTA_UNIFORM_REGS

    def has_uniform_form(self) -> bool:
        """``S2UR`` reads the CTA id (the form ptxas 13.0 emits for sm_80 and
        sm_90: ``S2UR UR4, SR_CTAID.X``)."""
        return self.mod("sr") == "SR_CTAID"

    @property
    def is_volatile(self) -> bool:
        return (self.mod("sr") or "").startswith(("SR_CLOCK", "SR_GLOBALTIMER"))

    def verify_semantics(self) -> None:
        sr = self.mod("sr")
        if (sr in _DIMENSIONED) != (self.mod("dim") is not None):
            raise VerifyException(
                f"ori.s2r: {sr} " + ("needs a dimension X, Y or Z" if sr in _DIMENSIONED else "takes no dimension")
            )


@ori_op
class CS2ROp(OriInstruction):
    """CS2R: fast read of ``SR_CLOCKLO`` (64-bit cycle counter into a pair, or
    its low word with ``b32``) or ``SRZ`` (zero, used to clear register pairs)."""

    name = "ori.cs2r"
    SASS = "CS2R"
    LATENCY = LatencyClass.SHORT_ALU
    PIPE = Pipe.ALU
    DSTS = (Dst("d", (R32Type, R64Type)),)
    SRCS = ()
    MODS = (ModGroup("sr", ("SR_CLOCKLO", "SRZ"), required=True), ModGroup("width", ("b32", "b64"), default="b64"))

    @property
    def is_volatile(self) -> bool:
        return self.mod("sr") == "SR_CLOCKLO"

    def verify_semantics(self) -> None:
        want = R64Type if self.mod("width") == "b64" else R32Type
        if not isinstance(self.dsts[0].type, want):
            raise VerifyException(f"ori.cs2r: a {self.mod('width')} read defines {want.name}")


@ori_op
class NopOp(OriInstruction):
    """NOP: does nothing (kept: scheduling may need it)."""

    name = "ori.nop"
    SASS = "NOP"
    LATENCY = LatencyClass.SKIP
    PIPE = Pipe.ALU
    SIDE_EFFECTS = True
    DSTS = ()
    SRCS = ()


@ori_op
class BptOp(OriInstruction):
    """BPT.TRAP: the thread traps (PTX ``trap;``, which ptxas 13.0 emits as
    ``BPT.TRAP 0x1``): the kernel is aborted with an error and nothing after
    it runs.  It is not a block terminator (nvcc's PTX continues after a
    ``trap`` and ptxas keeps that code), but for passes it acts like one: it
    is never removed (side effect), no memory access moves across it (it
    reads and writes memory, and is a barrier), and it is never hoisted or
    speculated.  The interpreter stops with an error naming the thread."""

    name = "ori.bpt"
    SASS = "BPT"
    LATENCY = LatencyClass.SCOREBOARD
    PIPE = Pipe.BRA
    MEM = MemEffect.READ_WRITE
    SIDE_EFFECTS = True
    IS_BARRIER = True
    DSTS = ()
    SRCS = (imm("code"),)
    MODS = (ModGroup("mode", ("trap",), required=True),)

    def verify_semantics(self) -> None:
        code = self.src_int("code")
        if code is not None and not 0 <= code < 1 << 20:
            raise VerifyException("ori.bpt: the trap code must be in 0..0xfffff")


@ori_op
class UndefOp(OriInstruction):
    """UNDEF: a register whose value is unspecified (a PTX register read
    before it was written; SSA construction's "undef").  It emits no
    instruction; the interpreter gives it a deterministic value and its
    ``strict`` mode reports any use of it."""

    name = "ori.undef"
    SASS = "UNDEF"
    LATENCY = LatencyClass.SKIP
    PIPE = Pipe.ALU
    REMATERIALIZABLE = True
    DSTS = (Dst("d", tuple(REGISTER_TYPES)),)
    SRCS = ()


__all__ = ["SPECIAL_REGS", "BptOp", "CS2ROp", "NopOp", "S2ROp", "UndefOp"]
