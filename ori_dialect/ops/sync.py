"""Barriers, fences and warp-collective instructions."""

from __future__ import annotations

from xdsl.ir import SSAValue
from xdsl.utils.exceptions import VerifyException

from ori_dialect.ir.instruction import Dst, ModGroup, OriInstruction, Src
from ori_dialect.ir.metadata import LatencyClass, MemEffect, Pipe
from ori_dialect.ir.registers import PredType, R32Type, R64Type, UR32Type
from ori_dialect.ops.base import P, R, ori_op, pred, reg, rio


@ori_op
class BarOp(OriInstruction):
    """BAR: CTA barrier ``id`` (0..15).  ``sync`` waits for ``count`` threads
    (default: the whole CTA); ``arv`` arrives without waiting; ``red``
    forms (``popc``/``and``/``or``) are not modelled yet and rejected by the
    verifier rather than accepted silently."""

    name = "ori.bar"
    SASS = "BAR"
    LATENCY = LatencyClass.SCOREBOARD
    PIPE = Pipe.BRA
    SIDE_EFFECTS = True
    IS_BARRIER = True
    # the barrier id and the thread count are separate immediate fields
    # (``BAR.SYNC.DEFER_BLOCKING 0x1, 0x40``)
    CONSTANT_PORTS = 2
    DSTS = ()
    SRCS = (rio("id"), rio("count", optional=True))
    MODS = (ModGroup("mode", ("sync", "arv"), default="sync"),)

    def verify_semantics(self) -> None:
        b = self.src_int("id")
        if b is not None and not 0 <= b <= 15:
            raise VerifyException("ori.bar: barrier id must be in 0..15")


@ori_op
class BarRedOp(OriInstruction):
    """BAR.RED: CTA barrier ``id`` that also reduces a predicate over the
    threads that meet there (PTX ISA 9.7.13.1 "bar, barrier": ``bar.red``;
    CUDA's ``__syncthreads_count/and/or``).  ``popc`` gives every participating
    thread the number of threads whose ``a`` is true (an R32 result), ``and``
    / ``or`` whether all / any of them hold (a predicate result).  ``count``
    is the optional thread count, as for ``ori.bar``.

    ptxas 13.0 emits ``BAR.RED.POPC.DEFER_BLOCKING 0x0, P0`` and reads the
    result from the barrier unit with ``B2R.RESULT R4`` (``popc``) or
    ``B2R.RESULT RZ, P0`` (``and``/``or``); ori has no B2R, so this op stands
    for the pair (as ``ori.redux`` stands for REDUX and its move).

    ::

        %n = ori.bar_red popc 0x0, %p : (!ori.p) -> !ori.r32
        %q = ori.bar_red or 0x0, not %p : (!ori.p) -> !ori.p
    """

    name = "ori.bar_red"
    SASS = "BAR.RED"
    LATENCY = LatencyClass.SCOREBOARD
    PIPE = Pipe.BRA
    CONSTANT_PORTS = 2  # id and count, as for BAR
    SIDE_EFFECTS = True
    IS_BARRIER = True
    DSTS = (Dst("d", (R32Type, PredType)),)
    SRCS = (rio("id"), pred("a"), rio("count", optional=True))
    MODS = (ModGroup("op", ("popc", "and", "or"), required=True),)

    def verify_semantics(self) -> None:
        b = self.src_int("id")
        if b is not None and not 0 <= b <= 15:
            raise VerifyException("ori.bar_red: barrier id must be in 0..15")
        want = R32Type if self.mod("op") == "popc" else PredType
        if not isinstance(self.results[0].type, want):
            raise VerifyException(
                f"ori.bar_red: the {self.mod('op')} reduction gives "
                f"{'a 32-bit register' if want is R32Type else 'a predicate'}, not "
                f"{self.results[0].type}")
        if self.guard is not None:
            raise VerifyException("ori.bar_red: a barrier reduction cannot be guarded")


@ori_op
class MembarOp(OriInstruction):
    """MEMBAR: memory fence at CTA, GPU or system scope."""

    name = "ori.membar"
    SASS = "MEMBAR"
    LATENCY = LatencyClass.SCOREBOARD
    PIPE = Pipe.LSU
    MEM = MemEffect.READ_WRITE
    SIDE_EFFECTS = True
    IS_BARRIER = True
    DSTS = ()
    SRCS = ()
    MODS = (ModGroup("scope", ("cta", "gpu", "sys"), default="gpu"),)


@ori_op
class ShflOp(OriInstruction):
    """SHFL: warp shuffle.  Lane ``j`` reads ``a`` of the source lane computed
    from ``lane`` (``idx``: lane; ``up``: j - lane; ``down``: j + lane; ``bfly``:
    j ^ lane) within the segment described by ``clamp`` (PTX ``c`` operand:
    bits 0-4 clamp value, bits 8-12 segment mask).  If the source lane is out
    of range the lane keeps its own ``a`` and ``p`` is false.

    The optional ``mask`` is PTX's ``membermask`` when it is not known to be
    the full warp (cooperative groups' tiles): as for ``ori.redux``, the lanes
    of a warp with one mask exchange together, a lane must be in its own mask,
    and a source lane outside the reading lane's mask is undefined (PTX ISA
    9.7.8.6 "shfl.sync").  ptxas does not encode it in SHFL (it becomes a
    WARPSYNC); the asm listing shows it as a comment."""

    name = "ori.shfl"
    SASS = "SHFL"
    LATENCY = LatencyClass.STANDARD
    PIPE = Pipe.LSU
    SIDE_EFFECTS = True  # reads other lanes' registers: must not move across divergence
    WARP_COLLECTIVE = True
    # lane and clamp are both immediates in SASS (``SHFL.BFLY PT, R3, R2, 0x10,
    # 0x1f``); the membermask is not encoded in SHFL (ptxas's WARPSYNC takes it)
    CONSTANT_PORTS = 3
    DSTS = (Dst("d", R), Dst("p", P, optional=True))
    SRCS = (reg("a"), Src("lane", R, imm="int"), Src("clamp", R, imm="int"),
            Src("mask", R, imm="int", optional=True))
    MODS = (ModGroup("mode", ("idx", "up", "down", "bfly"), required=True),)


@ori_op
class VoteOp(OriInstruction):
    """VOTE: warp vote over ``a`` among active lanes.  ``d`` receives the ballot
    mask; the optional ``p`` receives the ``all``/``any``/``eq`` reduction."""

    name = "ori.vote"
    SASS = "VOTE"
    LATENCY = LatencyClass.SHORT_ALU
    PIPE = Pipe.ALU
    SIDE_EFFECTS = True
    WARP_COLLECTIVE = True
    DSTS = (Dst("d", R), Dst("p", P, optional=True))
    SRCS = (pred("a"),)
    MODS = (ModGroup("mode", ("all", "any", "eq"), required=True),)


# REDUX writes a uniform register on the hardware (``REDUX.SUM.S32 UR6, R4``,
# ptxas 13.0 for sm_80 and sm_90, then ``MOV``/``IMAD.U32 R7, RZ, RZ, UR6``
# where a GPR needs the value).  Ori has no uniform-datapath pass yet, so the
# PTX frontend gives REDUX a GPR result that stands for that REDUX + move
# pair; a uniform result (``!ori.ur32``) verifies too, for the pass to come.
_REDUX_DST = (R32Type, UR32Type)


@ori_op
class ReduxOp(OriInstruction):
    """REDUX: integer reduction over the lanes of a warp that execute it
    together (PTX ``redux.sync``).  Every such lane receives ``op`` applied to
    all their ``a`` values: ``sum`` (modulo 2^32), ``min``/``max`` (``s32`` or
    ``u32`` order), ``and``/``or``/``xor``.  The type only matters for
    ``min``/``max``; the bitwise ops and ``sum`` are kept as ``u32`` (SASS
    prints ``REDUX.SUM.S32`` for ``redux.sync.add.s32``: the sum is the same
    bits, so ``sum.s32`` is accepted too).  ``and`` is SASS's default
    operation and ``u32`` its default type (``REDUX UR6, R4`` is
    ``redux.sync.and.b32``).

    ``mask`` is PTX's ``membermask``: the lanes of the warp that reduce
    together (cooperative groups' tiles give each part of a warp its own
    mask).  ptxas checks the masks and runs each group apart with
    ``WARPSYNC.EXCLUSIVE`` before the REDUX, which takes no mask; ori keeps
    the mask on the op instead (the asm listing shows it as a comment).  A
    lane's mask must hold the lane itself and every lane of its warp that
    exists in the CTA must execute the instruction with the same mask; the
    PTX ISA leaves anything else undefined and the interpreter stops."""

    name = "ori.redux"
    SASS = "REDUX"
    LATENCY = LatencyClass.STANDARD  # variable latency, waited on through the scoreboard
    PIPE = Pipe.LSU  # as SHFL: the warp-crossing datapath
    SIDE_EFFECTS = True  # reads other lanes' registers: must not move across divergence
    WARP_COLLECTIVE = True
    DSTS = (Dst("d", _REDUX_DST),)
    SRCS = (reg("a"), Src("mask", R, imm="int"))
    MODS = (
        ModGroup("op", ("and", "or", "xor", "sum", "min", "max"), default="and"),
        ModGroup("type", ("u32", "s32"), default="u32"),
    )

    def verify_semantics(self) -> None:
        if self.mod("type") == "s32" and self.mod("op") in (None, "and", "or", "xor"):
            raise VerifyException(
                "ori.redux: a bitwise reduction has no signedness (use the default u32)"
            )


@ori_op
class CReduxOp(OriInstruction):
    """CREDUX: floating-point reduction over the lanes of a warp that execute
    it together (PTX ``redux.sync.{min,max}{.abs}{.NaN}.f32``, sm_100a and
    its family only; ptxas 13.0 prints ``CREDUX.MIN.F32 UR6, R0`` and
    ``CREDUX.MAXABS.F32.NAN UR9, R0``).  ``minabs``/``maxabs`` reduce the
    absolute values.  Without ``nan`` a NaN input is ignored (the result is
    NaN only when every input is NaN); with ``nan`` any NaN input makes the
    result the canonical NaN ``0x7fffffff``.  -0.0 orders below +0.0, as for
    PTX ``min``/``max``.  The destination and ``mask`` are as for REDUX."""

    name = "ori.credux"
    SASS = "CREDUX"
    LATENCY = LatencyClass.STANDARD
    PIPE = Pipe.LSU
    SIDE_EFFECTS = True
    WARP_COLLECTIVE = True
    DSTS = (Dst("d", _REDUX_DST),)
    SRCS = (reg("a"), Src("mask", R, imm="int"))
    MODS = (
        ModGroup("op", ("min", "max", "minabs", "maxabs"), required=True),
        ModGroup("type", ("f32",), required=True),
        ModGroup("nan", ("nan",)),
    )


@ori_op
class MatchOp(OriInstruction):
    """MATCH: each lane finds the lanes of its warp, among those executing the
    instruction with it, whose ``a`` equals its own (PTX ``match.sync``).
    ``any``: ``d`` is the mask of those lanes.  ``all``: if every executing
    lane holds the same value, ``d`` is the mask of the executing lanes and
    ``p`` is true; otherwise ``d`` is 0 and ``p`` false.  ``u64`` compares a
    64-bit ``a``.  ``mask`` is the member mask, as for REDUX: the lanes
    compared are those of the lane's own mask.  SASS prints the predicate
    first: ``MATCH.ALL P0, R8, R2``."""

    name = "ori.match"
    SASS = "MATCH"
    LATENCY = LatencyClass.STANDARD
    PIPE = Pipe.LSU
    SIDE_EFFECTS = True
    WARP_COLLECTIVE = True
    DSTS = (Dst("d", R), Dst("p", P, optional=True))
    SRCS = (Src("a", (R32Type, R64Type)), Src("mask", R, imm="int"))
    MODS = (
        ModGroup("mode", ("any", "all"), required=True),
        ModGroup("type", ("u32", "u64"), default="u32"),
    )

    def verify_semantics(self) -> None:
        wide = (self.mod("type") or "u32") == "u64"
        a = next((v for slot, v in self.slot_values() if slot.name == "a"), None)
        a_type = a.type if isinstance(a, SSAValue) else a
        if a_type is not None and isinstance(a_type, R64Type) != wide:
            raise VerifyException("ori.match: u64 compares a 64-bit register, u32 a 32-bit one")
        if len(self.results) == 2 and self.mod("mode") != "all":
            raise VerifyException("ori.match: only match all has a predicate result")


@ori_op
class AcqBulkOp(OriInstruction):
    """ACQBULK: PTX ``griddepcontrol.wait`` (sm_90+; ptxas 13.0 prints
    ``ACQBULK``): wait until the prerequisite grids of a programmatic
    dependent launch have completed and their memory operations are visible.
    The interpreter runs one grid at a time, so every prerequisite grid has
    completed before this one starts and the op is only an ordering point:
    no memory access may move across it (a load after it may read what the
    previous grid wrote)."""

    name = "ori.acqbulk"
    SASS = "ACQBULK"
    LATENCY = LatencyClass.SCOREBOARD
    PIPE = Pipe.BRA
    MEM = MemEffect.READ_WRITE
    SIDE_EFFECTS = True
    IS_BARRIER = True
    DSTS = ()
    SRCS = ()
    MODS = ()


@ori_op
class PreExitOp(OriInstruction):
    """PREEXIT: PTX ``griddepcontrol.launch_dependents`` (sm_90+; ptxas 13.0
    prints ``PREEXIT``): signals that dependent grids may be scheduled before
    this one completes.  It makes no memory visible (the dependents'
    ``griddepcontrol.wait`` waits for full completion), so for the
    single-grid interpreter it is an ordering point with no effect on values;
    it is kept in place and never removed."""

    name = "ori.preexit"
    SASS = "PREEXIT"
    LATENCY = LatencyClass.SCOREBOARD
    PIPE = Pipe.BRA
    SIDE_EFFECTS = True
    DSTS = ()
    SRCS = ()
    MODS = ()


__all__ = [
    "AcqBulkOp", "BarOp", "BarRedOp", "CReduxOp", "MatchOp", "MembarOp", "PreExitOp", "ReduxOp", "ShflOp",
    "VoteOp",
]
