"""Warpgroup MMA in the interpreter: HGMMA, its commit groups and waits.

**Warpgroup.**  ``wgmma.mma_async`` is executed by the 128 threads of a
warpgroup (threads ``128g .. 128g+127`` of the CTA) together (PTX ISA 9.7.15.1);
a warpgroup whose threads do not all execute it, or whose descriptors differ
between threads, is a fault.

**Fragments** (PTX ISA 9.7.15.5.1, "Register Fragments"), for thread ``t`` of
the warpgroup, ``w = t // 32`` its warp and ``l = t % 32`` its lane:

* D / C with f32 accumulators: register ``i`` (``0 <= i < N/2``) holds
  ``D[16w + l//4 + 8((i%4)//2)][8(i//4) + 2(l%4) + i%2]``;
  with f16 accumulators register ``i`` (``0 <= i < N/4``) holds the pair
  ``D[16w + l//4 + 8(i%2)][8(i//2) + 2(l%4) + {0, 1}]`` (low half first).
* the registers of a tuple wider than N/2 (N/4) are padding
  (:func:`ori_dialect.ops.gmma.acc_type`): HGMMA reads and writes only the
  first ones;
* A in registers (four f16x2 / bf16x2 words): word ``q``, half ``h`` holds
  ``A[16w + l//4 + 8(q%2)][8(q//2) + 2(l%4) + h]``.

**Shared-memory matrix descriptors** (PTX ISA 9.7.15.5.1.1, "Matrix
Descriptor Format"): bits 0-13 start address >> 4, 16-29 leading-dimension
byte offset (LBO) >> 4, 32-45 stride-dimension byte offset (SBO) >> 4, 49-51
the matrix base offset, 62-63 the swizzle mode (0 none, 1 128-byte, 2 64-byte,
3 32-byte).  The operand is a 64 x 16 (A) or N x 16 (B, indexed n, k)
matrix of 16-bit elements; with ``r`` its M or N index and ``k`` its K index,
the byte offset of an element from the start address is:

* K-major, no swizzle (8 x 16-byte core matrices):
  ``(r//8)*SBO + (k//8)*LBO + (r%8)*16 + (k%8)*2``;
* K-major, swizzle of S bytes (32/64/128): rows of S bytes, eight per atom,
  atoms ``SBO`` apart: ``(r//8)*SBO + (r%8)*S + 2k`` (one k16 slice lies in a
  row; the LBO is unused);
* MN-major (``tnspa``/``tnspb``), swizzle of S bytes: rows of S bytes along
  MN, one per k, atoms of eight k rows ``SBO`` apart and atoms along MN
  ``LBO`` apart: ``(k//8)*SBO + (k%8)*S + 2(r % (S/2)) + (r // (S/2))*LBO``;

and the swizzle permutes the 16-byte chunks of the shared address ``x``
within each S-byte row as CUTLASS's ``Swizzle<log2(S/16), 4, 3>``:
``x ^ (((x >> 7) & (S/16 - 1)) << 4)``.  MN-major without swizzle and a
nonzero base offset are not modelled (a fault says so).  This is what
Triton 3.9 emits for ``tl.dot`` on sm_90a (64-byte swizzle, A K-major, B
MN-major), and its numpy check is the test of the model.

**Numerics** (measured on an NVIDIA H200: ``tests/interpreter/test_wgmma_hardware.py``
and ``tests/interpreter/data/wgmma_probe.cu``).  One HGMMA rounds as one HMMA
(``mma.sync``) does, its 16 products one step
(:func:`~ori_dialect.interpreter.tensor.mma_reference`; :func:`hgmma_numerics`):
every product ``a_k * b_k`` is exact; ``E`` is the largest of ``exponent(c)`` and
``exponent(a_k) + exponent(b_k)`` over the nonzero terms (a subnormal counting as
its format's smallest normal exponent: -14 for f16, -126 for bf16 and an f32 C);
``c`` and each product are truncated toward zero to a multiple of ``2**(E - 25)``
and summed exactly; the sum is cut toward zero to f32 (``|sum| >= 2**128``: an
infinity) or, with an f16 accumulator, rounded once to nearest-even straight to
f16; a zero result is +0; a NaN result is 0x7FFFFFFF (f32) or 0x7FFF (f16).
``imm-scale-a`` / ``imm-scale-b`` of -1 negate their operand (exactly); scale-d 0
(or an RZ accumulator) is a C of +0 that is not read.  A chain of HGMMAs (a K
loop) rounds once per instruction.  The H200 gave this rule bit for bit on all
1,382,400 outputs of single ``m64nNk16`` instructions (f16 and bf16 inputs, f32
and f16 accumulators, N 8, 16 and 64, A from descriptors and from registers,
scale-d 0 and 1, imm-scale-a -1; random exponents, uniform inputs and special
values: subnormals, infinities, NaNs, overflow, ties, signed zeros,
cancellation), on Triton's ``matmul_m64`` (2,048 outputs) and on the four
``examples/wgmma`` kernels with random inputs (chains of 2-4 HGMMAs, swizzles,
MN-major B; 20,480 outputs).  The near alternatives each disagree with the
H200 on those single instructions: two steps of 8 products on 314,480 outputs,
24 or 26 alignment bits on 255,301 and 142,397, and ori's former model (a
float64 k-sum plus C rounded once to nearest-even) on 395,279 -- and on 22 of
``matmul_m64``'s 2,048.

**Asynchrony.**  HGMMA computes when it executes, but its result may be read
only after the ``WARPGROUP.DEPBAR`` (``wgmma.wait_group N``) that leaves its
commit group complete (PTX ISA 9.7.15.7.4).  Each result carries its group
number per thread, and any instruction other than another HGMMA taking it as
its accumulator that reads it before the wait is a fault naming the
instruction and the thread (:class:`AccumulatorHazards`).  In SSA mode the
marks sit on values and follow them through ``ori.pack`` / ``ori.unpack``
(the frontend splits the accumulator right after the HGMMA) and branch edges
(a block argument takes, per thread taking the edge, the mark of what the
edge passes, or loses it); call arguments, returned values and BRX indices
are reads too.  In physical mode (``run_kernel(..., physical=True)``) they
sit on the R registers the HGMMA writes, as on the GPU: reads and writes of
a marked register fault, and the allocator's moves (pack / unpack parts and
edge arguments not in place) carry the mark to their destination -- or,
with ``strict``, fault as the MOVs before the wait they are on the GPU.
The registers of A's fragments (A in registers), which HGMMA reads until
the same wait, carry a mark of their own: a write of one before the wait
faults (a move too, strict or not), and so does an HGMMA whose D covers a
register of its own A.
HGMMA's descriptor reads of shared memory that a pending ``cp.async``
(LDGSTS) has not written yet fault like every other shared access
(:mod:`.tensor`).
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from typing import TYPE_CHECKING, Any

import numpy as np
from xdsl.ir import Attribute, Block, Operation, SSAValue

from ori_dialect.interpreter.frame import Core, Frame
from ori_dialect.interpreter.memory import Fault
from ori_dialect.interpreter.tensor import mma_reference, to_f16_accumulator
from ori_dialect.ir.instruction import OriInstruction, OriOp
from ori_dialect.ir.registers import r_registers
from ori_dialect.ops.control import BraOp
from ori_dialect.ops.gmma import (
    FenceAsyncOp,
    GmmaCommitOp,
    HgmmaOp,
    WarpgroupArriveOp,
    WarpgroupDepbarOp,
)
from ori_dialect.ops.integer import PackOp, UnpackOp
from ori_dialect.ops.special import UndefOp

if TYPE_CHECKING:
    from ori_dialect.interpreter.decoder import Decoder

WARPGROUP = 128
_M14 = 0x3FFF
_SWIZZLE_BYTES = {0: 0, 1: 128, 2: 64, 3: 32}


class _FrameMarks:
    """The marks of one frame (a kernel or device-function activation); it
    holds the frame so that no later frame can take its ``id``."""

    __slots__ = ("frame", "regs", "slots", "srcs")

    def __init__(self, frame: Frame) -> None:
        self.frame = frame
        self.slots: dict[int, np.ndarray] = {}  # SSA mode: per value slot, per thread
        self.regs: np.ndarray | None = None  # physical mode: (threads, 256) per R register
        self.srcs: np.ndarray | None = None  # physical mode: A fragments HGMMA still reads


class GmmaGroups:
    """Per-thread commit-group bookkeeping of one CTA, and the group number
    per thread of each tracked value (SSA mode) or R register (physical
    mode) -- -1 or a group below ``done``: complete."""

    def __init__(self) -> None:
        self.reset(0)

    def reset(self, n: int) -> None:
        self.open = np.zeros(n, dtype=np.int64)  # the group the next HGMMA joins
        self.done = np.zeros(n, dtype=np.int64)  # groups below this are complete
        self.frames: dict[int, _FrameMarks] = {}

    def frame_marks(self, frame: Frame, create: bool) -> _FrameMarks | None:
        fm = self.frames.get(id(frame))
        if fm is None and create:
            fm = self.frames[id(frame)] = _FrameMarks(frame)
        return fm

    def mark(self, frame: Frame, slot: int, idx: np.ndarray, gid: np.ndarray) -> None:
        """Slot ``slot`` of ``frame`` holds, in threads ``idx``, a result of group ``gid``."""
        fm = self.frame_marks(frame, True)
        assert fm is not None
        m = fm.slots.get(slot)
        if m is None:
            m = fm.slots[slot] = np.full(len(self.open), -1, dtype=np.int64)
        m[idx] = gid

    def group_of(self, frame: Frame, slot: int, idx: np.ndarray) -> np.ndarray:
        """The in-flight group of slot ``slot`` per thread of ``idx`` (-1: none)."""
        fm = self.frame_marks(frame, False)
        m = None if fm is None else fm.slots.get(slot)
        if m is None:
            return np.full(len(idx), -1, dtype=np.int64)
        g = m[idx]
        return np.where(g >= self.done[idx], g, -1)

    def mark_regs(self, frame: Frame, regs: np.ndarray, idx: np.ndarray,
                  gid: np.ndarray) -> None:
        """Physical mode: R registers ``regs`` of threads ``idx`` are written by
        an HGMMA of group ``gid``."""
        fm = self.frame_marks(frame, True)
        assert fm is not None
        if fm.regs is None:
            fm.regs = np.full((len(self.open), 256), -1, dtype=np.int64)
        fm.regs[np.ix_(idx, regs)] = gid[:, None]

    def mark_src_regs(self, frame: Frame, regs: np.ndarray, idx: np.ndarray,
                      gid: np.ndarray) -> None:
        """Physical mode: R registers ``regs`` of threads ``idx`` hold the A
        fragments an HGMMA of group ``gid`` reads until its group completes."""
        fm = self.frame_marks(frame, True)
        assert fm is not None
        if fm.srcs is None:
            fm.srcs = np.full((len(self.open), 256), -1, dtype=np.int64)
        fm.srcs[np.ix_(idx, regs)] = gid[:, None]

    def regs_in_flight(self, frame: Frame, regs: np.ndarray,
                       idx: np.ndarray, sources: bool = False) -> tuple[int, int, int] | None:
        """Physical mode: (thread, register, group) of the first register of
        ``regs`` that an HGMMA still in flight writes (``sources``: reads as
        its A fragments), in a thread of ``idx``."""
        fm = self.frame_marks(frame, False)
        marks = None if fm is None else (fm.srcs if sources else fm.regs)
        if marks is None or not len(regs):
            return None
        g = marks[np.ix_(idx, regs)]
        live = g >= self.done[idx][:, None]
        if not live.any():
            return None
        i, j = (int(x[0]) for x in np.nonzero(live))
        return int(idx[i]), int(regs[j]), int(g[i, j])


# ----------------------------------------------------------------------------- layouts


def _d_layout(n: int, dtype: str) -> tuple[np.ndarray, np.ndarray]:
    """(row, col) of every accumulator element per (thread, register[, half])."""
    t = np.arange(WARPGROUP)[:, None]
    w, lane = t // 32, t % 32
    if dtype == "f32":
        i = np.arange(n // 2)[None, :]
        return 16 * w + lane // 4 + 8 * ((i % 4) // 2), 8 * (i // 4) + 2 * (lane % 4) + i % 2
    i = np.arange(n // 4)[None, :, None]
    h = np.arange(2)[None, None, :]
    w3, l3 = w[:, :, None], lane[:, :, None]
    return (np.broadcast_to(16 * w3 + l3 // 4 + 8 * (i % 2), (WARPGROUP, n // 4, 2)),
            8 * (i // 2) + 2 * (l3 % 4) + h)


def _a_layout() -> tuple[np.ndarray, np.ndarray]:
    t = np.arange(WARPGROUP)[:, None, None]
    w, lane = t // 32, t % 32
    q = np.arange(4)[None, :, None]
    h = np.arange(2)[None, None, :]
    return 16 * w + lane // 4 + 8 * (q % 2), 8 * (q // 2) + 2 * (lane % 4) + h


def _halves_to_float(bits: np.ndarray, itype: str) -> np.ndarray:
    b = bits.astype(np.uint16)
    if itype == "f16":
        return b.view(np.float16).astype(np.float64)
    return (b.astype(np.uint32) << np.uint32(16)).view(np.float32).astype(np.float64)


def hgmma_numerics(a: np.ndarray, b: np.ndarray, c: np.ndarray, itype: str,
                   dtype: str) -> np.ndarray:
    """One HGMMA's D (64 x N) from A (64 x 16) and B (16 x N) holding ``itype``
    (f16 or bf16) values and C (64 x N, zeros where scale-d is 0) holding the
    accumulator's values: the module docstring's "Numerics", i.e.
    :func:`~ori_dialect.interpreter.tensor.mma_reference` with its 16 products
    as one step.  float32 values; with an f16 accumulator, values that f16
    holds (:func:`~ori_dialect.interpreter.tensor.to_f16_accumulator` gives
    their bit patterns)."""
    f32 = np.float32
    with np.errstate(invalid="ignore", over="ignore"):
        return mma_reference(a.astype(f32)[None], b.astype(f32)[None], c.astype(f32)[None],
                             itype, "f16" if dtype == "f16" else "f32")[0]


def descriptor_offsets(desc: int, rows: int, mn_major: bool) -> np.ndarray:
    """Shared addresses (``rows`` x 16) of a descriptor's 16-bit elements
    (module docstring); raises :class:`DescriptorFault` for what is not modelled."""
    start = (desc & _M14) << 4
    lbo = ((desc >> 16) & _M14) << 4
    sbo = ((desc >> 32) & _M14) << 4
    base_off = (desc >> 49) & 7
    s = _SWIZZLE_BYTES[(desc >> 62) & 3]
    if base_off:
        raise DescriptorFault(f"matrix base offset {base_off} (not modelled)")
    r = np.arange(rows)[:, None]
    k = np.arange(16)[None, :]
    if not mn_major:
        if s == 0:
            off = (r // 8) * sbo + (k // 8) * lbo + (r % 8) * 16 + (k % 8) * 2
        else:
            off = (r // 8) * sbo + (r % 8) * s + 2 * k
    else:
        if s == 0:
            raise DescriptorFault("an MN-major operand without swizzling (not modelled)")
        w = s // 2
        off = (k // 8) * sbo + (k % 8) * s + 2 * (r % w) + (r // w) * lbo
    x = start + off
    if s:
        x = x ^ (((x >> 7) & (s // 16 - 1)) << 4)
    return x


class DescriptorFault(Exception):
    pass


# ----------------------------------------------------------------------------- builders


def _uniform64(vals: np.ndarray, lanes: np.ndarray, what: str) -> int:
    v = vals.astype(np.uint64)
    diff = v != v[0]
    if diff.any():
        raise Fault(f"HGMMA: the {what} differs between the threads of the warpgroup",
                    thread=int(lanes[int(np.flatnonzero(diff)[0])]))
    return int(v[0])


def _words(v: np.ndarray) -> np.ndarray:
    """A register value per thread as its 32-bit words, shape (threads, regs)
    (a 64-bit accumulator is stored as one uint64, wider ones by register)."""
    v = np.asarray(v)
    if v.dtype == np.uint64:
        return np.stack([(v & 0xFFFFFFFF).astype(np.uint32), (v >> 32).astype(np.uint32)], 1)
    return v.astype(np.uint32).reshape(len(v), -1)


def _unwords(w: np.ndarray, dtype: np.dtype) -> np.ndarray:
    if dtype == np.uint64:
        return w[:, 0].astype(np.uint64) | (w[:, 1].astype(np.uint64) << np.uint64(32))
    return w


def _lanes(s: int, c: Any, frame: Frame, idx: np.ndarray) -> np.ndarray:
    if s >= 0:
        return frame[s][idx]
    return np.broadcast_to(np.asarray(c), (len(idx), *np.shape(c)))


def _hgmma(dec: Decoder, op: HgmmaOp, k: int) -> Core:
    n = op.n()
    dtype = op.mod("dtype") or "f32"
    itype = op.mod("itype") or "f16"
    nega, negb = op.has_mod("nega"), op.has_mod("negb")
    tnspa, tnspb = op.has_mod("tnspa"), op.has_mod("tnspb")
    a_regs = op.a_in_registers()
    srcs = dec.sources(op)
    a_s, a_c = srcs["a"][:2]
    b_s, b_c = srcs["b"][:2]
    c_s = srcs["c"][0]  # -1: RZ (no accumulator read)
    p_s, p_c, p_inv = srcs["scale_d"]
    d = dec.slot[op.results[0]]
    drow, dcol = _d_layout(n, dtype)
    arow, acol = _a_layout()
    m = dec.m
    nregs = op.acc_regs()  # the tuple's first registers; the rest is padding
    d_regs = np.asarray(hgmma_registers(op), dtype=np.int64) if m.physical else None
    a_frag = np.asarray(a_fragment_registers(op), dtype=np.int64) if m.physical else None

    def read(lanes: np.ndarray, desc: int, rows: int, mn_major: bool) -> np.ndarray:
        try:
            addr = descriptor_offsets(desc, rows, mn_major)
        except DescriptorFault as e:
            raise Fault(f"HGMMA: {e}", thread=int(lanes[0])) from None
        if addr.min() < 0 or addr.max() + 2 > len(m.shared):
            raise Fault(f"HGMMA: descriptor {desc:#x} reads shared bytes up to "
                        f"{int(addr.max()) + 2:#x}, outside the CTA's {len(m.shared)} bytes",
                        thread=int(lanes[0]))
        if addr.min() % 2:
            raise Fault("HGMMA: misaligned descriptor", thread=int(lanes[0]))
        if m.async_copies.pending:  # bytes a cp.async (LDGSTS) has not written yet
            try:
                m.async_copies.check(addr.ravel(), 2, "HGMMA descriptor read")
            except Fault as e:
                e.thread, e.position = int(lanes[0]), None
                raise
        lo = m.shared[addr].astype(np.uint16)
        hi = m.shared[addr + 1].astype(np.uint16)
        return _halves_to_float(lo | (hi << np.uint16(8)), itype)

    def run_group(frame: Frame, lanes: np.ndarray) -> np.ndarray:
        b = read(lanes, _uniform64(_lanes(b_s, b_c, frame, lanes), lanes, "B descriptor"), n,
                 tnspb).T  # (16, n)
        if a_regs:
            words = np.asarray(_lanes(a_s, a_c, frame, lanes), dtype=np.uint32).reshape(
                WARPGROUP, 4)
            halves = np.stack([words & 0xFFFF, words >> 16], axis=2)
            a = np.zeros((64, 16))
            a[arow, acol] = _halves_to_float(halves, itype)
        else:
            a = read(lanes, _uniform64(_lanes(a_s, a_c, frame, lanes), lanes, "A descriptor"),
                     64, tnspa)
        if nega:
            a = -a
        if negb:
            b = -b
        scale = _lanes(p_s, p_c, frame, lanes)
        scale = np.asarray(scale, dtype=bool)
        if p_inv:
            scale = ~scale
        if not (scale == scale[0]).all():
            raise Fault("HGMMA: scale-d differs between the threads of the warpgroup",
                        thread=int(lanes[0]))
        acc = np.zeros((64, n), np.float32)  # scale-d 0 or RZ: C is not read
        if scale[0] and c_s >= 0:
            cw = _words(frame[c_s][lanes])[:, :nregs]
            if dtype == "f32":
                acc[drow, dcol] = cw.view(np.float32)
            else:
                h = np.stack([cw & 0xFFFF, cw >> 16], axis=2).astype(np.uint16)
                acc[drow, dcol] = h.view(np.float16).astype(np.float32)
        res = hgmma_numerics(a, b, acc, itype, dtype)
        if dtype == "f32":
            return res[drow, dcol].view(np.uint32)
        h16 = to_f16_accumulator(res)[drow, dcol].view(np.uint16).astype(np.uint32)
        return h16[:, :, 0] | (h16[:, :, 1] << np.uint32(16))

    def hgmma(frame: Frame, idx: np.ndarray) -> None:
        groups = idx // WARPGROUP
        out = frame[d]
        for g in np.unique(groups):
            lanes = idx[groups == g]
            if len(lanes) != WARPGROUP:
                missing = sorted(set(range(g * WARPGROUP, (g + 1) * WARPGROUP)) - set(
                    lanes.tolist()))
                raise Fault(f"HGMMA: {len(lanes)} of the warpgroup's 128 threads execute it "
                            f"(wgmma is .aligned; thread {missing[0]} does not: a CTA of "
                            f"{m.n} threads)" if missing else "HGMMA: bad warpgroup",
                            thread=int(lanes[0]))
            res = run_group(frame, lanes).reshape(WARPGROUP, nregs)
            full = _words(out[lanes])  # the padding keeps what it held
            full[:, :nregs] = res
            out[lanes] = _unwords(full, out.dtype)
        if d_regs is None:
            m.gmma.mark(frame, d, idx, m.gmma.open[idx])
        else:
            m.gmma.mark_regs(frame, d_regs, idx, m.gmma.open[idx])
            if a_frag is not None and len(a_frag):
                m.gmma.mark_src_regs(frame, a_frag, idx, m.gmma.open[idx])

    return hgmma


def _commit(dec: Decoder, op: GmmaCommitOp, k: int) -> Core:
    m = dec.m

    def commit(frame: Frame, idx: np.ndarray) -> None:
        m.gmma.open[idx] += 1

    return commit


def _depbar(dec: Decoder, op: WarpgroupDepbarOp, k: int) -> Core:
    pending = op.src_int("pending") or 0
    m = dec.m

    def depbar(frame: Frame, idx: np.ndarray) -> None:
        g = m.gmma
        g.done[idx] = np.maximum(g.done[idx], g.open[idx] - pending)

    return depbar


def _nop(dec: Decoder, op: OriInstruction, k: int) -> Core:
    def nop(frame: Frame, idx: np.ndarray) -> None:
        return None

    return nop


GMMA_BUILDERS: dict[type, Callable[[Decoder, Any, int], Core]] = {
    HgmmaOp: _hgmma,
    GmmaCommitOp: _commit,
    WarpgroupDepbarOp: _depbar,
    # Ordering points only: the interpreter's shared memory is sequentially
    # consistent and HGMMA reads it when it executes.
    WarpgroupArriveOp: _nop,
    FenceAsyncOp: _nop,
}


# ----------------------------------------------------------------------------- hazard check


def tracked_values(ops: list[Operation]) -> set[SSAValue]:
    """SSA mode: HGMMA results and what packs, unpacks and branch edges (the
    block arguments they pass them to) make of them."""
    tracked: set[SSAValue] = set()
    edges: list[tuple[SSAValue, SSAValue]] = []
    for op in ops:
        if isinstance(op, BraOp):
            edges += _edge_pairs(op)
    changed = True
    while changed:
        changed = False
        for op in ops:
            if not isinstance(op, HgmmaOp) and not (
                    isinstance(op, PackOp | UnpackOp) and any(v in tracked for v in op.operands)):
                continue
            new = set(op.results)
            if not new <= tracked:
                tracked |= new
                changed = True
        for src, dst in edges:
            if src in tracked and dst not in tracked:
                tracked.add(dst)
                changed = True
    return tracked


def _edge_pairs(op: BraOp) -> list[tuple[SSAValue, SSAValue]]:
    pairs = list(zip(op.taken_args, op.taken.args))
    if op.fallthrough is not None:
        pairs += zip(op.fallthrough_args, op.fallthrough.args)
    return pairs


Move = tuple[int, int]
"""Physical mode: one register copied to another by a move (-1 as the source:
a constant)."""


def part_moves(op: Operation) -> list[Move] | None:
    """Physical mode: the register moves of an ``ori.pack`` / ``ori.unpack`` /
    ``ori.mov`` (its parts not already in place; None for another op): the
    op's own ``register_moves()``."""
    return op.register_moves() if isinstance(op, OriOp) else None


def edge_moves(args: Sequence[SSAValue], dest: Block) -> list[Move]:
    """Physical mode: the register moves of a branch edge (an argument in
    another register than its block argument)."""
    out: list[Move] = []
    for s, d in zip(args, dest.args):
        sr, dr = r_registers(s), r_registers(d)
        if sr != dr:
            out += [(sr[i] if i < len(sr) else -1, r) for i, r in enumerate(dr)]
    return out


def hgmma_registers(op: HgmmaOp) -> tuple[int, ...]:
    """Physical mode: the R registers an HGMMA writes (its tuple's padding
    excluded)."""
    return r_registers(op.results[0])[: op.acc_regs()]


def a_fragment_registers(op: HgmmaOp) -> tuple[int, ...]:
    """Physical mode: the R registers of an HGMMA's A fragments (A in
    registers; none for a descriptor, which HGMMA reads when it issues)."""
    return r_registers(op.src("a")) if op.a_in_registers() else ()


def accumulator_registers(ops: list[Operation]) -> frozenset[int]:
    """Physical mode: the R registers an HGMMA of the function writes and
    those that moves (:func:`part_moves`, :func:`edge_moves`) may copy them to."""
    regs: set[int] = set()
    moves: list[Move] = []
    for op in ops:
        if isinstance(op, HgmmaOp):
            regs.update(hgmma_registers(op))
        elif isinstance(op, BraOp):
            moves += edge_moves(op.taken_args, op.taken)
            if op.fallthrough is not None:
                moves += edge_moves(op.fallthrough_args, op.fallthrough)
        else:
            moves += part_moves(op) or []
    changed = bool(regs)
    while changed:
        changed = False
        for src, dst in moves:
            if src in regs and dst not in regs:
                regs.add(dst)
                changed = True
    return frozenset(regs)


_READ = ("reads an HGMMA accumulator of commit group {g} before the wgmma.wait_group "
         "(WARPGROUP.DEPBAR) that completes it")
_WRITE = ("writes R{r}, a register of the HGMMA accumulator of commit group {g}, before the "
          "wgmma.wait_group (WARPGROUP.DEPBAR) that completes it: the HGMMA may still write "
          "the register")
_WRITE_A = ("writes R{r}, a register of the A fragments an HGMMA of commit group {g} reads, "
            "before the wgmma.wait_group (WARPGROUP.DEPBAR) that completes it: the HGMMA may "
            "still read the register")


class AccumulatorHazards:
    """The check that no instruction touches an HGMMA accumulator still in
    flight (module docstring, "Asynchrony"), for one decoded function.

    *SSA mode* (values by SSA value): the tracked values (:func:`tracked_values`)
    carry their group per thread; HGMMA marks its result, ``ori.pack`` /
    ``ori.unpack`` and branch edges pass the mark on (an edge passing an
    untracked value to a tracked block argument clears it), another HGMMA may
    take a marked value as its accumulator, and any other use -- an
    instruction operand, a call argument, a returned value, a BRX index --
    is a fault.

    *Physical mode* (values by register, :mod:`.physical`): the marks sit on
    the R registers, as on the GPU, where the accumulator registers belong
    to the asynchronous HGMMA until the wait.  HGMMA marks the registers it
    writes; an instruction that reads a marked register before the wait, or
    writes one, is a fault, except an HGMMA taking it as its accumulator.
    A move -- an ``ori.pack`` / ``ori.unpack`` / ``ori.mov`` part or a
    branch-edge argument in another register than its destination; one
    already in place is no instruction and the mark simply stays -- stands
    for the SSA renaming it implements: it carries the source register's
    mark to the destination register (a constant or an unmarked source
    clears it, and then writing over a marked register is a fault).  On the
    GPU such a move is a MOV that reads the accumulator register before the
    wait, which returns a stale value; with ``strict`` the move is checked as
    that instruction (reads and writes of marked registers fault) instead of
    carrying the mark.  HGMMA also marks the registers of its A fragments
    (A in registers) until the wait: any write of one, a move's included,
    faults, as does an HGMMA whose D covers its own A."""

    def __init__(self, dec: Decoder, ops: list[Operation]) -> None:
        self.dec = dec
        self.m = dec.m
        self.physical = bool(dec.m.physical)
        self.strict = bool(dec.m.strict)
        self.tracked: set[SSAValue] = set() if self.physical else tracked_values(ops)
        self.regs = accumulator_registers(ops) if self.physical else frozenset()
        self.aregs = frozenset(r for op in ops if isinstance(op, HgmmaOp)
                               for r in a_fragment_registers(op)) if self.physical else frozenset()
        self.active = bool(self.tracked or self.regs)

    # ---- SSA mode -----------------------------------------------------------
    def _read_fault(self, text: str, slots: list[int]) -> Core:
        m = self.m

        def check(frame: Frame, idx: np.ndarray) -> None:
            for s in slots:
                g = m.gmma.group_of(frame, s, idx)
                if (g >= 0).any():
                    j = int(np.flatnonzero(g >= 0)[0])
                    raise Fault(f"{text} " + _READ.format(g=int(g[j])), thread=int(idx[j]))

        return check

    # ---- physical mode ------------------------------------------------------
    def _regs(self, vals: Sequence[SSAValue | Attribute | None]) -> np.ndarray:
        """The registers of ``vals`` that may carry a mark."""
        out = sorted({r for v in vals for r in r_registers(v) if r in self.regs})
        return np.asarray(out, dtype=np.int64)

    def _aregs(self, regs: Sequence[int] | Sequence[SSAValue | Attribute | None]) -> np.ndarray:
        """The registers (or the registers of the values) that may hold A
        fragments in flight."""
        flat = [r for x in regs for r in (r_registers(x) if not isinstance(x, int) else (x,))]
        return np.asarray(sorted({r for r in flat if r in self.aregs}), dtype=np.int64)

    def _access_fault(self, text: str, reads: np.ndarray, writes: np.ndarray,
                      a_writes: np.ndarray | None = None) -> Core | None:
        """Reads of accumulators in flight, writes of accumulators (``writes``)
        and of A fragments (``a_writes``) in flight, as faults."""
        if a_writes is None:
            a_writes = np.zeros(0, dtype=np.int64)
        if not len(reads) and not len(writes) and not len(a_writes):
            return None
        g = self.m.gmma

        def check(frame: Frame, idx: np.ndarray) -> None:
            hit = g.regs_in_flight(frame, reads, idx)
            if hit is not None:
                t, r, grp = hit
                raise Fault(f"{text} " + _READ.format(g=grp) + f" (register R{r})", thread=t)
            hit = g.regs_in_flight(frame, writes, idx)
            if hit is not None:
                t, r, grp = hit
                raise Fault(f"{text} " + _WRITE.format(r=r, g=grp), thread=t)
            hit = g.regs_in_flight(frame, a_writes, idx, sources=True)
            if hit is not None:
                t, r, grp = hit
                raise Fault(f"{text} " + _WRITE_A.format(r=r, g=grp), thread=t)

        return check

    def _move(self, text: str, moves: list[Move]) -> Core | None:
        """The marks of a parallel copy ``moves`` (class docstring)."""
        a_check = self._access_fault(text, np.zeros(0, dtype=np.int64),
                                     np.zeros(0, dtype=np.int64),
                                     self._aregs([d for _, d in moves]))
        moves = [(s, d) for s, d in moves if s in self.regs or d in self.regs]
        if not moves:
            return a_check
        if self.strict:
            reads = np.asarray(sorted({s for s, _ in moves if s >= 0}), dtype=np.int64)
            writes = np.asarray(sorted({d for _, d in moves}), dtype=np.int64)
            return self._access_fault(text, reads, writes,
                                      self._aregs([d for _, d in moves]))
        carry = self._carry(text, moves)
        return carry if a_check is None else _before(a_check, carry)

    def _carry(self, text: str, moves: list[Move]) -> Core:
        """Non-strict moves: the marks travel with the values (class docstring)."""
        g = self.m.gmma
        src = np.asarray([s for s, _ in moves], dtype=np.int64)
        dst = np.asarray([d for _, d in moves], dtype=np.int64)
        const = src < 0

        def move(frame: Frame, idx: np.ndarray) -> None:
            fm = g.frame_marks(frame, False)
            if fm is None or fm.regs is None:
                return
            done = g.done[idx][:, None]
            sg = fm.regs[np.ix_(idx, np.where(const, 0, src))]
            sg = np.where((sg >= done) & ~const[None, :], sg, -1)
            dg = fm.regs[np.ix_(idx, dst)]
            over = (sg < 0) & (dg >= done)
            if over.any():
                i, j = (int(x[0]) for x in np.nonzero(over))
                raise Fault(f"{text} " + _WRITE.format(r=int(dst[j]), g=int(dg[i, j])),
                            thread=int(idx[i]))
            fm.regs[np.ix_(idx, dst)] = sg

        return move

    # ---- the wrappers the decoder calls -----------------------------------------
    def op(self, op: OriInstruction, core: Core) -> Core:
        """``core`` checked against accumulators in flight (and, for packs and
        unpacks, passing their marks on)."""
        if not self.active:
            return core
        text = op.name
        if self.physical:
            moves = part_moves(op)
            if isinstance(op, HgmmaOp):  # a, b read; c may be in flight; d must not be
                c = set(r_registers(op.src("c")))
                d = [r for r in hgmma_registers(op) if r in self.regs and r not in c]
                own = sorted(set(hgmma_registers(op)) & set(a_fragment_registers(op)))
                if own:
                    return _before(_always(f"{text} writes its accumulator over R{own[0]}, a "
                                           "register of its own A fragments, which it reads "
                                           "until the wgmma.wait_group that completes it"),
                                   core)
                check = self._access_fault(text, self._regs([op.src("a"), op.src("b")]),
                                           np.asarray(d, dtype=np.int64),
                                           self._aregs(list(hgmma_registers(op))))
            elif moves is not None:
                mv = self._move(text, moves)
                return core if mv is None else _after(core, mv)
            elif isinstance(op, UndefOp):  # no instruction
                check = None
            else:
                srcs = op.operand_groups()[0]  # tied priors are no reads
                check = self._access_fault(text, self._regs(list(srcs)),
                                           self._regs(list(op.results)),
                                           self._aregs(list(op.results)))
            return core if check is None else _before(check, core)
        if isinstance(op, HgmmaOp) or not any(v in self.tracked for v in op.operands):
            return core
        slots = [self.dec.slot[v] for v in op.operands if v in self.tracked]
        m = self.m
        if isinstance(op, PackOp | UnpackOp):
            outs = [self.dec.slot[r] for r in op.results]

            def passing(frame: Frame, idx: np.ndarray) -> None:
                core(frame, idx)
                g = np.max([m.gmma.group_of(frame, s, idx) for s in slots], axis=0)
                for o in outs:
                    m.gmma.mark(frame, o, idx, g)

            return passing
        return _before(self._read_fault(text, slots), core)

    def uses(self, text: str, reads: Sequence[SSAValue], writes: Sequence[SSAValue],
             core: Core) -> Core:
        """``core`` of a call, a return or a BRX: ``reads`` are read, ``writes`` written."""
        if not self.active:
            return core
        if self.physical:
            check = self._access_fault(text, self._regs(list(reads)), self._regs(list(writes)),
                                       self._aregs(list(writes)))
        else:
            slots = [self.dec.slot[v] for v in reads if v in self.tracked]
            check = self._read_fault(text, slots) if slots else None
        return core if check is None else _before(check, core)

    def edge(self, branch: Operation, args: Sequence[SSAValue], dest: Block,
             copy: Core | None) -> Core | None:
        """The edge copy ``copy`` of ``branch`` to ``dest``, for the threads
        taking the edge: in SSA mode it passes the marks of ``args`` to the
        block arguments of ``dest`` (clearing the marks of those that get an
        untracked value); in physical mode its moves are those of a parallel
        copy (class docstring)."""
        if not self.active:
            return copy
        if self.physical:
            mv = self._move(branch.name, edge_moves(args, dest))
            if mv is None:
                return copy
            return mv if copy is None else _before(mv, copy)
        pairs = [(self.dec.slot[s] if s in self.tracked else -1, self.dec.slot[d])
                 for s, d in zip(args, dest.args) if d in self.tracked]
        if not pairs:
            return copy
        m = self.m

        def passing(frame: Frame, idx: np.ndarray) -> None:
            # a parallel copy: every source's group before any argument's
            gs = [m.gmma.group_of(frame, s, idx) if s >= 0 else None for s, _ in pairs]
            if copy is not None:
                copy(frame, idx)
            none = np.full(len(idx), -1, dtype=np.int64)
            for (_, d), g in zip(pairs, gs):
                m.gmma.mark(frame, d, idx, none if g is None else g)

        return passing


def _always(message: str) -> Core:
    def fault(frame: Frame, idx: np.ndarray) -> None:
        raise Fault(message, thread=int(idx[0]))

    return fault


def _after(core: Core, then: Core) -> Core:
    def both(frame: Frame, idx: np.ndarray) -> None:
        core(frame, idx)
        then(frame, idx)

    return both


def _before(check: Core, core: Core) -> Core:
    def checked(frame: Frame, idx: np.ndarray) -> None:
        check(frame, idx)
        core(frame, idx)

    return checked


__all__ = ["GMMA_BUILDERS", "WARPGROUP", "AccumulatorHazards", "GmmaGroups",
           "a_fragment_registers", "accumulator_registers", "descriptor_offsets", "edge_moves", "hgmma_numerics",
           "hgmma_registers", "part_moves",
           "r_registers", "tracked_values"]
