"""Tensor-core and asynchronous-copy instructions of sm_80 (Ampere).

The SASS forms are those ptxas 13.0 prints for sm_80 (``cuobjdump -sass``):

* ``HMMA.16816.F32 R8, R12, R26, R8`` / ``HMMA.16816.F32.BF16`` /
  ``HMMA.16816.F16 R10, R8, R12, R14`` / ``HMMA.1688.F32.BF16 R8, R2, R10, RZ``:
  PTX ``mma.sync.aligned.m16n8k16`` / ``m16n8k8`` ``.row.col``; ``wmma.mma``
  of shape m16n16k16 becomes two m16n8k16 HMMAs (one per 8-column half).
* ``HMMA.1688.F32.TF32 R16, R4, R12, R16`` / ``HMMA.1684.F32.TF32 R12, R8,
  R4, R12``: ``mma.sync.aligned.m16n8k8`` / ``m16n8k4`` ``.row.col.f32.tf32.
  tf32.f32`` (Triton's ``tl.dot`` on float32 inputs emits the first);
  ``wmma.mma`` of shape m16n16k8 (``precision::tf32``) becomes four
  HMMA.1684, two 4-wide k steps per 8-column half, as ptxas lowers it.
* ``IMMA.16832.S8.S8 R8, R8.ROW, R12.COL, R16`` / ``IMMA.16832.U8.S8`` /
  ``IMMA.16832.S8.U8`` / ``IMMA.16832.U8.U8.SAT`` / ``IMMA.16816.S8.S8[.SAT]
  R12, R8.ROW, R4.COL, R12``: ``mma.sync.aligned.m16n8k32`` / ``m16n8k16``
  ``.row.col[.satfinite].s32.{s8,u8}.{s8,u8}.s32`` (Triton's int8 ``tl.dot``
  emits ``m16n8k32 ... .satfinite.s32.s8.s8.s32``); ``wmma.mma`` of shape
  m16n16k16 on ``.s8``/``.u8`` becomes two IMMA.16816 (one per column half).
* ``LDSM.16.M88.4 R8, [R26]`` / ``LDSM.16.MT88.2`` / ``LDSM.16.M88``: PTX
  ``ldmatrix.sync.aligned.m8n8.x{1,2,4}[.trans].shared.b16``.
* ``LDGSTS.E.BYPASS.128 [R2], [R18.64]`` (``cp.async.cg``, 16 bytes),
  ``LDGSTS.E`` / ``LDGSTS.E.64`` / ``LDGSTS.E.128`` (``cp.async.ca``, 4/8/16
  bytes), ``LDGSTS.E.128 [R7], [R2.64], !P0`` (the ``ignore-src`` form: the
  predicate says whether the source is read; false zero-fills) and
  ``LDGSTS.E.BYPASS.128.ZFILL [R13+0x200], [R6.64+0x200], P1`` (the
  ``src-size`` form: ptxas puts the number of bytes to zero-fill,
  ``cp-size - src-size``, into the low bits of the source address, which a
  ``cp-size``-aligned address leaves free, and the predicate ``src-size != 0``).
  PTX's L2 prefetch size (``.L2::64B`` / ``.L2::128B`` / ``.L2::256B``) is
  ``.LTC64B`` / ``.LTC128B`` / ``.LTC256B`` after the cache policy:
  ``LDGSTS.E.BYPASS.LTC128B.128 [R7], [R2.64]``, ``LDGSTS.E.LTC64B.64``.
* ``LDGDEPBAR`` (``cp.async.commit_group``) and ``DEPBAR.LE SB0, N``
  (``cp.async.wait_group N``; ``wait_all`` is ``LDGDEPBAR`` + ``DEPBAR.LE SB0, 0x0``).

Register tuples are typed so the allocator sees width and alignment: an
HMMA's A fragment of m16n8k16 (and of tf32 m16n8k8, and IMMA's of m16n8k32)
is 4 consecutive registers (``!ori.r128``), B 2 (``!ori.r64``), an f32 or
s32 accumulator 4 and an f16 one 2; ``LDSM .x4`` writes an
``!ori.r128``, ``.x2`` an ``!ori.r64``.  No form needs a run wider than 128
bits: ``wmma`` fragments of 8 registers are split by the frontend into the two
4-register halves the two HMMAs read (PTX ISA 9.7.14.5, the wmma fragment
layout is implementation-defined, see :mod:`ori_dialect.ptx.lower.tensor`).
"""

from __future__ import annotations

from typing import ClassVar

from xdsl.ir import SSAValue
from xdsl.utils.exceptions import VerifyException

from ori_dialect.ir.instruction import Dst, ModGroup, OperandText, SassForm, Src, flag
from ori_dialect.ir.metadata import LatencyClass, MemEffect, MemSpace, Pipe
from ori_dialect.ir.registers import OriRegisterType, R32Type, R64Type, R128Type
from ori_dialect.ops.base import OriInstruction, addr, ori_op, pred
from ori_dialect.ops.memory import MemoryOp

_W = (R32Type, R64Type, R128Type)

HMMA_SHAPES = ("m16n8k16", "m16n8k8", "m16n8k4")
"""The ``mma.sync`` shapes HMMA models (PTX ISA 9.7.14.5.6-8): m16n8k16 and
m16n8k8 with f16/bf16 inputs, m16n8k8 and m16n8k4 with tf32 inputs."""

IMMA_SHAPES = ("m16n8k32", "m16n8k16")
"""The ``mma.sync`` shapes IMMA models (PTX ISA 9.7.14.5.9/10, s8/u8 inputs)."""

TF32_MASK = 0xFFFFE000
"""The bits of a 32-bit register that carry a tf32 operand: sign, exponent and
the top 10 mantissa bits; the tensor cores ignore the low 13 (see
:class:`HmmaOp`)."""


def fragment_registers(k: int, ebits: int) -> tuple[int, int]:
    """(A registers, B registers) per lane of an ``m16n8kK`` MMA whose inputs
    are ``ebits`` wide: A holds 16*K/32 elements per lane, B 8*K/32."""
    return k * ebits // 64, k * ebits // 128


def _bits(v: SSAValue | object) -> int | None:
    t = v.type if isinstance(v, SSAValue) else v
    return t.BITS if isinstance(t, OriRegisterType) else None


@ori_op
class HmmaOp(OriInstruction):
    """HMMA: warp-wide matrix multiply-accumulate ``D = A * B + C`` on the
    tensor cores (PTX ``mma.sync.aligned.{shape}.row.col``), A MxK row-major,
    B KxN column-major, M = 16, N = 8; K = 16 or 8 for f16/bf16 inputs, 8
    or 4 for tf32.

    Each lane holds the fragment elements the PTX ISA assigns it (section
    9.7.14.5.8 "Matrix Fragments for mma.m16n8k16 with floating point type",
    9.7.14.5.7 for m16n8k8, 9.7.14.5.6 for m16n8k4): with ``g = lane >> 2``,
    ``t = lane & 3`` and ``e`` elements per 32-bit register (2 for f16/bf16,
    1 for tf32), A register ``i`` holds ``A[g + 8*(i&1)][e*t + 4e*(i>>1) + h]``
    and B register ``i`` holds ``B[e*t + 4e*i + h][g]`` for ``h < e`` (element
    ``h`` in bits ``16h..16h+15`` of an f16 pair); C/D hold the elements
    ``C[g + 8*(j>>1)][2t + (j&1)]`` for j = 0..3 (one f32 per register, or
    two f16 per register for an f16 accumulator).

    Numbers (what the interpreter computes: one rule for f16, bf16 and tf32
    inputs, :func:`ori_dialect.interpreter.tensor.mma_reference`):

    * Operands: f16 and bf16 values as they are; a tf32 operand is the
      register's 32 bits with the low 13 mantissa bits ignored (truncated:
      ``bits & 0xFFFFE000``; the PTX ISA leaves the .tf32 layout to the
      implementation, and ptxas's own ``cvt.rna.tf32.f32`` adds 0x1000
      without clearing them, so the MMA must drop them).  Every product
      ``a_k * b_k`` is exact (two 11-bit significands, or two 8-bit).
    * One MMA instruction sums its C and all K products at once: let ``E`` be
      the largest of ``exponent(c)`` and ``exponent(a_k) + exponent(b_k)``
      over the nonzero terms (unbiased, ``floor(log2|x|)``; a subnormal
      counts with its format's smallest normal exponent: -126 for f32, tf32
      and bf16, -14 for f16); ``c`` and every product are truncated toward
      zero to a multiple of ``2**(E - 25)``, summed exactly, and the sum is
      cut toward zero to f32 (subnormal results included; ``|sum| >=
      2**128`` gives an infinity).  Infinite and NaN terms add as IEEE says
      (0 * inf and inf - inf are NaN) and every NaN result is 0x7FFFFFFF.
      m16n8k16 is one such step over 16 products (not two of 8), m16n8k8 one
      over 8, m16n8k4 one over 4; a chain of MMAs (a K loop, the HMMAs a wmma
      becomes) rounds once per instruction.
    * An f16 accumulator: C's f16 values enter as above, and the f32 result
      is rounded to f16 to nearest, ties to even (an NaN becomes 0x7FFF).

    Evidence (NVIDIA H200, ptxas 13.0): tf32 m16n8k8 and m16n8k4 bit-exact
    on 32768 random outputs and on overflow, infinities, NaNs, subnormals
    and signed zeros (``tests/interpreter/data/mma_h200.npz``).  f16/bf16
    with f32 accumulators, m16n8k16: ptxas's code for four of the examples
    (Triton's matmul and matmul_bf16, wmma_f16_f32, mma_ldmatrix_gemm; K
    loops of m16n8k16 from a zero C, operands in [-2, 2]) gave this rule's
    results on all 3840 outputs compared (commit 9cf8784), where an f32
    k-order sum rounding to nearest after each addition matched 25-82% of
    them (within 4e-6); on those inputs (2816 distinct outputs) a step of 8
    products would have differed on 770 of them, 24 alignment bits on 427
    and 26 on 168 (``tests/interpreter/test_mma_hardware.py``).  Not measured: f16/bf16
    m16n8k8, f16 accumulators, and f16/bf16 operands with widely spread
    exponents, subnormals, infinities or NaNs (their rules above carry the
    tf32 measurements over; the f16 accumulator's final rounding to nearest
    follows Fasi et al., "Numerical behavior of NVIDIA tensor cores", 2021,
    on the T4 and A100).

    All 32 lanes of a warp must execute it."""

    name = "ori.hmma"
    SASS = "HMMA"
    SASS_SPELLING: ClassVar[dict[str, str]] = {
        "m16n8k16": "16816", "m16n8k8": "1688", "m16n8k4": "1684"}
    PIPE = Pipe.MMA
    LATENCY = LatencyClass.STANDARD
    SIDE_EFFECTS = True  # reads other lanes' registers: must not move across divergence
    WARP_COLLECTIVE = True
    DSTS = (Dst("d", (R128Type, R64Type)),)
    SRCS = (
        Src("a", (R128Type, R64Type), fixed=False),
        Src("b", (R64Type, R32Type), fixed=False),
        Src("c", (R128Type, R64Type, R32Type), fixed=True),  # RZ: a zero accumulator
    )
    MODS = (
        ModGroup("shape", HMMA_SHAPES, required=True),
        ModGroup("dtype", ("f32", "f16"), required=True),
        ModGroup("atype", ("f16", "bf16", "tf32"), default="f16"),
    )

    def k(self) -> int:
        return int((self.mod("shape") or "m16n8k16").rsplit("k", 1)[1])

    def fragment_bits(self) -> dict[str, int]:
        """The width each operand must have for the shape and types."""
        ebits = 32 if self.mod("atype") == "tf32" else 16
        na, nb = fragment_registers(self.k(), ebits)
        acc = 128 if self.mod("dtype") == "f32" else 64
        return {"a": 32 * na, "b": 32 * nb, "c": acc, "d": acc}

    def verify_semantics(self) -> None:
        want = self.fragment_bits()
        atype, shape = self.mod("atype"), self.mod("shape")
        if atype in ("bf16", "tf32") and self.mod("dtype") != "f32":
            raise VerifyException(
                f"ori.hmma: {atype} inputs accumulate in f32 (PTX ISA 9.7.14.5)")
        if shape == "m16n8k4" and atype != "tf32":
            raise VerifyException("ori.hmma: shape m16n8k4 takes tf32 inputs")
        if shape == "m16n8k16" and atype == "tf32":
            raise VerifyException("ori.hmma: shape m16n8k16 takes f16/bf16 inputs")
        vals = {slot.name: v for slot, v in self.slot_values()}
        vals["d"] = self.results[0] if self.results else None
        for name, v in vals.items():
            if v is None:
                continue
            b = _bits(v)
            if b is not None and b != want[name] and not (
                name == "c" and not isinstance(v, SSAValue)
            ):
                raise VerifyException(
                    f"ori.hmma: {self.mods.data if self.mods else ''}: operand '{name}' "
                    f"must be {want[name]} bits wide, got {b}"
                )


@ori_op
class ImmaOp(OriInstruction):
    """IMMA: warp-wide integer matrix multiply-accumulate ``D = A * B + C``
    on the tensor cores (PTX ``mma.sync.aligned.{m16n8k32,m16n8k16}.row.col
    [.satfinite].s32.{s8,u8}.{s8,u8}.s32``), A 16xK row-major of 8-bit
    integers (``atype``), B Kx8 column-major (``btype``, signedness chosen
    independently), C and D 16x8 of s32.

    Fragments (PTX ISA 9.7.14.5.9 / 9.7.14.5.10): each 32-bit register packs
    four consecutive k elements, lowest byte first; with ``g = lane >> 2``
    and ``t = lane & 3``, A register ``i`` holds ``A[g + 8*(i&1)][4t +
    16*(i>>1) + h]`` and B register ``i`` holds ``B[4t + 16i + h][g]`` for
    h = 0..3; C/D register ``j`` holds ``C[g + 8*(j>>1)][2t + (j&1)]``.

    Numbers: exact.  The products and their sum with C are formed without
    loss; without ``sat`` the s32 result wraps modulo 2**32, with ``sat``
    (PTX ``.satfinite``) it is clamped to [-2**31, 2**31 - 1] (both measured
    on an H200's mma.sync, every s8/u8 mix).  All 32 lanes of a warp must
    execute it."""

    name = "ori.imma"
    SASS = "IMMA"
    SASS_SPELLING: ClassVar[dict[str, str]] = {"m16n8k32": "16832", "m16n8k16": "16816"}
    PIPE = Pipe.MMA
    LATENCY = LatencyClass.STANDARD
    SIDE_EFFECTS = True  # reads other lanes' registers: must not move across divergence
    WARP_COLLECTIVE = True
    DSTS = (Dst("d", (R128Type,)),)
    SRCS = (
        Src("a", (R128Type, R64Type), fixed=False),
        Src("b", (R64Type, R32Type), fixed=False),
        Src("c", (R128Type, R32Type), fixed=True),  # RZ: a zero accumulator
    )
    MODS = (
        ModGroup("shape", IMMA_SHAPES, required=True),
        ModGroup("atype", ("s8", "u8"), required=True),
        ModGroup("btype", ("s8", "u8"), required=True),
        flag("sat"),
    )

    def k(self) -> int:
        return int((self.mod("shape") or "m16n8k32").rsplit("k", 1)[1])

    def fragment_bits(self) -> dict[str, int]:
        """The width each operand must have for the shape."""
        na, nb = fragment_registers(self.k(), 8)
        return {"a": 32 * na, "b": 32 * nb, "c": 128, "d": 128}

    def sass_form(self, operand: OperandText) -> SassForm:
        """``IMMA.16832.S8.S8[.SAT] d, a.ROW, b.COL, c`` as ptxas prints it."""
        mnemonic = ".".join([
            "IMMA", self.SASS_SPELLING[self.mod("shape") or "m16n8k32"],
            (self.mod("atype") or "s8").upper(), (self.mod("btype") or "s8").upper(),
            *(["SAT"] if self.has_mod("sat") else [])])
        a, b, c = self.src("a"), self.src("b"), self.src("c")
        assert a is not None and b is not None and c is not None
        return SassForm(mnemonic, (operand(self.dsts[0], None), operand(a, None) + ".ROW",
                                   operand(b, None) + ".COL", operand(c, None)))

    def verify_semantics(self) -> None:
        want = self.fragment_bits()
        vals = {slot.name: v for slot, v in self.slot_values()}
        vals["d"] = self.results[0] if self.results else None
        for name, v in vals.items():
            if not isinstance(v, SSAValue):
                continue
            b = _bits(v)
            if b is not None and b != want[name]:
                raise VerifyException(
                    f"ori.imma: {self.mods.data if self.mods else ''}: operand '{name}' "
                    f"must be {want[name]} bits wide, got {b}"
                )


@ori_op
class LdsmOp(MemoryOp):
    """LDSM: load 8x8 matrices of 16-bit elements from shared memory into
    the fragments of a warp (PTX ``ldmatrix.sync.aligned.m8n8.x{1,2,4}
    [.trans].shared.b16``, ISA section 9.7.14.5.15).  Lane ``8*i + r``
    (i < count) gives the address of row ``r`` of matrix ``i`` (16 bytes,
    16-byte aligned); the other lanes' addresses are not read.  Result
    register ``i`` of lane ``l`` holds elements ``2*(l&3)`` and ``2*(l&3)+1``
    of row ``l >> 2`` of matrix ``i`` (``mt88``, the ``.trans`` form: of
    column ``l >> 2``, i.e. rows ``2*(l&3)`` and ``2*(l&3)+1`` at column
    ``l >> 2``).  One matrix is ``!ori.r32``, two ``!ori.r64``, four
    ``!ori.r128``."""

    name = "ori.ldsm"
    SASS = "LDSM"
    SASS_SPELLING: ClassVar[dict[str, str]] = {"b16": "16", "x2": "2", "x4": "4"}
    MEM = MemEffect.READ
    SPACE = MemSpace.SHARED
    SIDE_EFFECTS = True  # reads other lanes' addresses: must not move across divergence
    WARP_COLLECTIVE = True
    DSTS = (Dst("d", _W),)
    SRCS = addr(32)
    MODS = (
        ModGroup("size", ("b16",), required=True),
        ModGroup("layout", ("m88", "mt88"), required=True),
        ModGroup("num", ("x2", "x4")),
    )

    def count(self) -> int:
        """How many 8x8 matrices: 1, 2 or 4."""
        return {None: 1, "x2": 2, "x4": 4}[self.mod("num")]

    def access_bytes(self) -> int:
        return 16

    def verify_semantics(self) -> None:
        want = 32 * self.count()
        if self.results and _bits(self.results[0]) != want:
            raise VerifyException(
                f"ori.ldsm: {self.count()} matrices fill {want} bits, got {self.results[0].type}"
            )
        o = self.offset()
        if not -(2**23) <= o < 2**24:
            raise VerifyException(f"ori.ldsm: address offset {o} out of the 24-bit range")


@ori_op
class LdgstsOp(MemoryOp):
    """LDGSTS: asynchronous copy of 4, 8 or 16 bytes from global memory
    ``[src + src_offset]`` to shared memory ``[addr + offset]`` (PTX
    ``cp.async.{ca,cg}.shared.global``, ISA section 9.7.9.25.3).  ``bypass``
    is the ``.cg`` cache policy (L2 only), ``ltc64b`` / ``ltc128b`` /
    ``ltc256b`` the ``.L2::{64,128,256}B`` prefetch size; neither changes values.

    The copy belongs to the thread's current (uncommitted) group; the data
    become visible in shared memory only when a ``DEPBAR`` covering the
    group completes it, and reading (or writing) the destination bytes before
    that is a race the interpreter reports.  ``valid`` false (PTX
    ``ignore-src``, or ``src-size`` 0) writes zeros instead of reading the
    source.  With ``zfill`` (PTX ``src-size``) the low bits of the source
    address below the copy size give the number of trailing bytes to
    zero-fill, as ptxas encodes it; the read starts at the address with
    those bits cleared."""

    name = "ori.ldgsts"
    SASS = "LDGSTS.E"
    MEM = MemEffect.READ_WRITE
    SPACE = MemSpace.SHARED  # the written space; the source is global
    SIDE_EFFECTS = True  # completes at a later DEPBAR: never removed or moved
    LATENCY = LatencyClass.GLOBAL_LOAD
    DSTS = ()
    SRCS = (
        *addr(32),
        Src("src", (R64Type,), address=True, fixed=True),
        Src("src_offset", (), imm="int", fixed=False),
        pred("valid", optional=True),
    )
    MODS = (
        ModGroup("cache", ("bypass",)),
        ModGroup("l2", ("ltc64b", "ltc128b", "ltc256b")),
        ModGroup("width", ("b32", "b64", "b128"), default="b32"),
        ModGroup("zfill", ("zfill",)),
    )
    DATA_SLOT: ClassVar[str | None] = None

    def access_bytes(self) -> int:
        return {"b32": 4, "b64": 8, "b128": 16}[self.mod("width") or "b32"]

    def verify_semantics(self) -> None:
        o = self.offset()
        so = self.src_int("src_offset") or 0
        for v in (o, so):
            if not -(2**23) <= v < 2**24:
                raise VerifyException(f"ori.ldgsts: address offset {v} out of the 24-bit range")
        if self.mod("cache") == "bypass" and self.access_bytes() != 16:
            raise VerifyException("ori.ldgsts: the bypass (.cg) form copies 16 bytes")
        if self.mod("zfill") and self.src("valid") is None:
            raise VerifyException("ori.ldgsts: zfill takes the 'source size is not 0' predicate")


@ori_op
class LdgDepBarOp(OriInstruction):
    """LDGDEPBAR: close the thread's current group of LDGSTS copies (PTX
    ``cp.async.commit_group``, ISA 9.7.9.25.4); an empty group is allowed."""

    name = "ori.ldgdepbar"
    SASS = "LDGDEPBAR"
    LATENCY = LatencyClass.SCOREBOARD
    PIPE = Pipe.LSU
    MEM = MemEffect.READ_WRITE
    SIDE_EFFECTS = True
    DSTS = ()
    SRCS = ()
    MODS = ()


@ori_op
class DepBarOp(OriInstruction):
    """DEPBAR.LE SB0, N: wait until at most ``count`` of the thread's
    committed LDGSTS groups are still pending, i.e. complete all but the
    ``count`` most recent ones (PTX ``cp.async.wait_group N``, ISA
    9.7.9.25.5); their data become visible in shared memory here.  Groups
    complete in commit order."""

    name = "ori.depbar"
    SASS = "DEPBAR"
    LATENCY = LatencyClass.SCOREBOARD
    PIPE = Pipe.LSU
    MEM = MemEffect.READ_WRITE
    SIDE_EFFECTS = True
    IS_BARRIER = True  # shared-memory accesses must not move across it
    DSTS = ()
    SRCS = (Src("count", (), imm="int", fixed=False),)
    MODS = (
        ModGroup("cmp", ("le",), required=True),
        ModGroup("sb", ("SB0",), required=True),
    )

    def verify_semantics(self) -> None:
        n = self.src_int("count")
        if n is not None and not 0 <= n <= 63:
            raise VerifyException("ori.depbar: the group count must be in 0..63")


__all__ = [
    "HMMA_SHAPES", "IMMA_SHAPES", "TF32_MASK", "DepBarOp", "HmmaOp", "ImmaOp", "LdgDepBarOp",
    "LdgstsOp", "LdsmOp", "fragment_registers",
]
