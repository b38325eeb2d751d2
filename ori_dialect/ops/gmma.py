"""Warpgroup matrix multiply-accumulate (sm_90a GMMA) and its fences.

PTX ISA 9.7.15 "Asynchronous Warpgroup Level Matrix Multiply-Accumulate"
(``wgmma.*``) as ptxas 13.0 prints it for sm_90a (``cuobjdump -sass`` of
nvcc inline-PTX kernels and of Triton's ``tl.dot``):

==========================================  ==============================================
PTX                                         ptxas 13.0 SASS
==========================================  ==============================================
``fence.proxy.async.shared::cta``           ``FENCE.VIEW.ASYNC.S``
``wgmma.fence.sync.aligned``                ``WARPGROUP.ARRIVE``
``wgmma.mma_async...m64n32k16.f32.f16.f16`` ``HGMMA.64x32x16.F32 R24, gdesc[UR4].tnspB, R24``
  (``scale-d`` false)                       ``HGMMA.64x64x16.F32 R24, gdesc[UR4].tnspB, RZ, !UPT``
  (``scale-d`` a predicate)                 ``HGMMA.64x8x16.F32 R24, gdesc[UR8], R24, UP0``
  (bf16 inputs; f16 accumulator)            ``HGMMA.64x32x16.F32.BF16 ...``; ``HGMMA.64x16x16.F16 ...``
  (``imm-scale-a/b`` -1, ``imm-trans-a/b``) ``... gdesc[UR8].negA.negB.tnspA.tnspB, R24``
  (A from registers)                        ``HGMMA.64x32x16.F16 R24, -R32, gdesc[UR8], R24``
``wgmma.commit_group.sync.aligned``         no instruction: ``gsb0`` on the group's last HGMMA
``wgmma.wait_group.sync.aligned N``         ``WARPGROUP.DEPBAR.LE gsb0, N``
==========================================  ==============================================

ptxas keeps both descriptors in one uniform-register quad, A's in the low
pair and B's in the high one, and names the quad by its first register
(``gdesc[UR8]``: A in UR8:UR9, B in UR10:UR11); with A from registers the
descriptor is B's alone.  The flags on the ``gdesc`` operand come in the
order ``negA.negB.tnspA.tnspB``; a negated register A prints ``-R32``.

ori keeps the commit as its own op (``ori.gmma_commit``, printed ``GSB0`` in
the ori-asm listing) because the group boundary is what the interpreter and
any later scheduling need; it has no encoding of its own, so the group's last
HGMMA line has no ``gsb0`` operand.  The listing's other deviations, all in
registers: ori keeps the descriptors in R registers (ptxas: UR), so ``gdesc``
names the pair holding A's descriptor, or both pairs (``gdesc[R4, R2]``) when
B's is not in the pair right above it; a ``scale-d`` predicate is a P register
(ptxas: UP).

**Operands of ``ori.hgmma``.**  The accumulator is one register tuple
(``!ori.r64`` .. ``!ori.r4096``: N/2 f32 or N/4 f16x2 registers per thread
of the ``m64nNk16`` shape), a run of consecutive registers as SASS names it
by its first register (``R24``).  Where N/2 or N/4 is not a power of two
the tuple is the next wider one (:func:`acc_type`: ``m64n24k16.f32``, 12
registers, is an ``!ori.r512``) and its top registers are padding that
HGMMA neither reads nor writes (the PTX import fills them with RZ where it
packs an accumulator, one MOV each in the listing's count) -- a deviation
in register count and moves: ptxas 13.0
allocates the shape's own registers only (``HGMMA.64x24x16.F32 R24``,
R24-R35, ``ptxas -v``: 38 registers for a lone accumulator; ``.F16``, 6
registers: 32).  An f32 accumulator of more than 64 registers (N > 128:
``HGMMA.64x256x16.F32 R24``, 128 registers, 154 in all) is an
``!ori.r4096``.  ``a`` is a 64-bit shared-memory
matrix descriptor or, for A from registers, the thread's four f16x2 words
(``!ori.r128``); ``b`` is always a descriptor.  ``c`` is the accumulator
read (RZ when ``scale-d`` is known false), ``scale_d`` the PTX predicate
(PT / !PT for a known value).  ptxas accumulates in place (D and C are one
register run); ori's SSA form has ``d`` and ``c`` as two values, tied by the
op fact ``TIED = (("d", "c"),)``, which the liveness numbering reads like a
guarded op's prior value, so both allocators give them one run.

**Asynchrony.**  HGMMA runs after it issues, until the ``WARPGROUP.DEPBAR``
that completes its commit group (PTX ISA 9.7.15.7): its accumulator may be
neither read nor written by other instructions, nor the registers of A's
fragments written.  The ops declare their part (``ASYNC``: HGMMA issues,
``ori.gmma_commit`` commits, ``ori.warpgroup_depbar`` waits for
``async_pending()`` groups; ``async_results()`` is ``d``'s written
registers, ``async_sources()`` is ``a`` when A is in registers);
``ori_dialect/analysis/inflight.py`` turns that into the registers claimed
at every point, which the allocator keeps (``passes/regalloc/inflight.py``)
and ``ori-check-regalloc`` checks (its rule 7).
"""

from __future__ import annotations

from typing import ClassVar

from xdsl.ir import SSAValue
from xdsl.utils.exceptions import VerifyException

from ori_dialect.ir.instruction import (
    Dst,
    ModGroup,
    OperandText,
    OriInstruction,
    SassForm,
    Src,
    flag,
    registers_follow,
)
from ori_dialect.ir.metadata import AsyncRole, LatencyClass, MemEffect, MemSpace, Pipe
from ori_dialect.ir.registers import TUPLE_TYPES, OriRegisterType, R64Type, R128Type
from ori_dialect.ops.base import ori_op, pred

GMMA_N: tuple[int, ...] = tuple(range(8, 257, 8))
"""The N of ``m64nNk16`` (PTX ISA 9.7.15.5: multiples of 8 up to 256)."""
ACC_TYPES = (R64Type, R128Type, *TUPLE_TYPES)


def acc_regs(n: int, dtype: str) -> int:
    """Registers per thread of an ``m64nNk16`` accumulator: 64*N elements
    over 128 threads, one f32 or half an f16x2 register each."""
    return n // 2 if dtype == "f32" else n // 4


def acc_type(n: int, dtype: str) -> type[OriRegisterType] | None:
    """The register type of an ``m64nNk16`` accumulator: the narrowest of
    :data:`ACC_TYPES` holding its :func:`acc_regs` registers (the shape's
    own registers first, padding above them: module docstring), or None
    when none is wide enough (never for the PTX ISA's shapes: at most 128
    registers, f32 with N = 256)."""
    need = acc_regs(n, dtype)
    return next((t for t in ACC_TYPES if t.num_regs() >= need), None)


@ori_op
class HgmmaOp(OriInstruction):
    """HGMMA: ``d = a * b + (scale_d ? c : 0)`` over the warpgroup's 128
    threads (PTX ``wgmma.mma_async.sync.aligned.m64nNk16.{f32,f16}.{f16,bf16}``).
    ``nega`` / ``negb`` are PTX's ``imm-scale-a/b`` = -1, ``tnspa`` /
    ``tnspb`` its ``imm-trans-a/b`` = 1 (the operand is MN-major).  The op
    is asynchronous: ``d`` may be read only after the ``WARPGROUP.DEPBAR``
    that covers its commit group, and A's registers (A in registers) not
    written before it (interpreter/gmma.py enforces both; the allocator
    keeps them: module docstring, "Asynchrony")."""

    name = "ori.hgmma"
    SASS = "HGMMA"
    PIPE = Pipe.MMA
    LATENCY = LatencyClass.SCOREBOARD
    MEM = MemEffect.READ  # the descriptors' operands are in shared memory
    SPACE = MemSpace.SHARED
    MAY_FAULT = True  # a descriptor may point outside shared memory
    SIDE_EFFECTS = True  # warpgroup-collective and asynchronous
    WARP_COLLECTIVE = True
    ASYNC = AsyncRole.ISSUE
    TIED = (("d", "c"),)
    """D is written into C's registers: one register run, as ptxas encodes it."""
    DSTS = (Dst("d", ACC_TYPES),)
    SRCS = (
        Src("a", (R64Type, R128Type), fixed=False),
        Src("b", (R64Type,), fixed=False),
        Src("c", ACC_TYPES, fixed=True),
        pred("scale_d"),
    )
    MODS = (
        ModGroup("shape", tuple(f"m64n{n}k16" for n in GMMA_N), required=True),
        ModGroup("dtype", ("f32", "f16"), default="f32"),
        ModGroup("itype", ("f16", "bf16"), default="f16"),
        flag("nega"),
        flag("negb"),
        flag("tnspa"),
        flag("tnspb"),
    )

    SASS_SPELLING: ClassVar[dict[str, str]] = {
        "nega": "negA", "negb": "negB", "tnspa": "tnspA", "tnspb": "tnspB",
    }
    """The flags as ptxas writes them on the ``gdesc`` operand."""

    def n(self) -> int:
        return int((self.mod("shape") or "m64n8k16")[4:-3])

    def sass_form(self, operand: OperandText) -> SassForm:
        """``HGMMA.64xNx16.{F32,F16}[.BF16] d, [a,] gdesc[..].flags, c[, scale_d]``
        as ptxas prints it (module docstring); ``scale_d`` is left out when
        it is PT, ``!PT`` prints ``!UPT``."""
        mnemonic = f"HGMMA.64x{self.n()}x16.{(self.mod('dtype') or 'f32').upper()}"
        if self.mod("itype") == "bf16":
            mnemonic += ".BF16"
        a, b = self.src("a"), self.src("b")
        assert a is not None and b is not None
        ops = [operand(self.dsts[0], None)]
        if self.a_in_registers():
            ops.append(("-" if self.has_mod("nega") else "") + operand(a, None))
            desc = operand(b, None)
            flags = ("negb", "tnspb")
        else:
            desc = operand(a, None)
            if not registers_follow(a, b, 2):
                desc += ", " + operand(b, None)
            flags = ("nega", "negb", "tnspa", "tnspb")
        ops.append(f"gdesc[{desc}]" + "".join(
            "." + self.SASS_SPELLING[f] for f in flags if self.has_mod(f)))
        c = self.src("c")
        assert c is not None
        ops.append(operand(c, None))
        scale = self.src("scale_d")
        negated = "not" in (self.smod_map().get("scale_d") or "")
        if isinstance(scale, OriRegisterType) and scale.is_fixed:
            if negated:
                ops.append("!UPT")
        elif scale is not None:
            ops.append(operand(scale, "not" if negated else None))
        return SassForm(mnemonic, tuple(ops))

    def async_results(self) -> list[tuple[SSAValue, int]]:
        """``d``: the shape's registers of the tuple (not its padding) are
        written when the group completes."""
        return [(self.results[0], self.acc_regs())]

    def async_sources(self) -> list[SSAValue]:
        """``a`` when A is in registers: its fragments are read until the
        group completes (a descriptor is read when HGMMA issues)."""
        a = self.src("a")
        return [a] if isinstance(a, SSAValue) and self.a_in_registers() else []

    def a_in_registers(self) -> bool:
        a = self.src("a")
        return isinstance(a, SSAValue) and isinstance(a.type, R128Type)

    def acc_regs(self) -> int:
        """The registers of ``d`` the shape writes (the first ones of the tuple)."""
        return acc_regs(self.n(), self.mod("dtype") or "f32")

    def verify_semantics(self) -> None:
        dtype = self.mod("dtype") or "f32"
        want = acc_type(self.n(), dtype)
        d = self.dsts[0].type
        if want is None or type(d) is not want:
            raise VerifyException(
                f"ori.hgmma: a {self.mod('shape')}.{dtype} accumulator is "
                f"{acc_regs(self.n(), dtype)} registers per thread"
                + (f" (an !{want.name} tuple), got {d}" if want is not None else
                   ", more than the widest register tuple (!ori.r4096, 128 registers)"))
        c = self.src("c")
        if isinstance(c, SSAValue) and type(c.type) is not type(d):
            raise VerifyException("ori.hgmma: 'c' must have the accumulator's type")
        if dtype == "f16" and self.mod("itype") == "bf16":
            raise VerifyException("ori.hgmma: bf16 inputs accumulate in f32 only")
        if self.a_in_registers() and self.has_mod("tnspa"):
            raise VerifyException("ori.hgmma: an A operand in registers cannot be transposed")


class _WarpgroupSync(OriInstruction):
    PIPE = Pipe.MMA
    LATENCY = LatencyClass.SCOREBOARD
    MEM = MemEffect.READ_WRITE
    SIDE_EFFECTS = True
    IS_BARRIER = True
    DSTS = ()
    SRCS = ()
    MODS: ClassVar[tuple[ModGroup, ...]] = ()


@ori_op
class WarpgroupArriveOp(_WarpgroupSync):
    """WARPGROUP.ARRIVE: PTX ``wgmma.fence.sync.aligned``, orders the
    warpgroup's register and shared-memory accesses before the following
    HGMMAs (PTX ISA 9.7.15.7.1)."""

    name = "ori.warpgroup_arrive"
    SASS = "WARPGROUP.ARRIVE"


@ori_op
class GmmaCommitOp(_WarpgroupSync):
    """PTX ``wgmma.commit_group.sync.aligned``: the HGMMAs since the previous
    commit form one group.  ptxas encodes it as the ``gsb0`` flag of the
    group's last HGMMA; ori keeps it as an op (listed ``GSB0``)."""

    name = "ori.gmma_commit"
    SASS = "GSB0"
    ASYNC = AsyncRole.COMMIT


@ori_op
class WarpgroupDepbarOp(_WarpgroupSync):
    """WARPGROUP.DEPBAR.LE gsb0, ``pending``: PTX ``wgmma.wait_group N``,
    waits until at most ``pending`` commit groups are still in flight; the
    accumulators of the others may then be read."""

    name = "ori.warpgroup_depbar"
    SASS = "WARPGROUP.DEPBAR.LE"
    ASYNC = AsyncRole.WAIT
    SRCS = (Src("pending", (), imm="int", fixed=False),)

    def async_pending(self) -> int | None:
        return self.src_int("pending") or 0

    def sass_form(self, operand: OperandText) -> SassForm:
        """``WARPGROUP.DEPBAR.LE gsb0, N``: ptxas names the scoreboard."""
        pending = self.src("pending")
        assert pending is not None
        return SassForm(self.SASS, ("gsb0", operand(pending, None)))

    def verify_semantics(self) -> None:
        k = self.src_int("pending")
        if k is not None and not 0 <= k <= 7:
            raise VerifyException("ori.warpgroup_depbar: pending groups must be in 0..7")


@ori_op
class FenceAsyncOp(_WarpgroupSync):
    """FENCE.VIEW.ASYNC.S: PTX ``fence.proxy.async.shared::cta``, makes the
    generic proxy's shared-memory writes visible to the async proxy (the
    HGMMA descriptor reads)."""

    name = "ori.fence_async"
    SASS = "FENCE.VIEW.ASYNC.S"


__all__ = [
    "ACC_TYPES", "GMMA_N", "FenceAsyncOp", "GmmaCommitOp", "HgmmaOp", "WarpgroupArriveOp",
    "WarpgroupDepbarOp", "acc_regs", "acc_type",
]
