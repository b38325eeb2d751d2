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

**Numerics.**  Products of f16 or bf16 inputs are exact (11 x 11 and 8 x 8
significand bits fit an f32, let alone a float64).  The model forms the
16-term k-sum of a wgmma in float64, adds the accumulator C (times
``scale-d``) in float64 and rounds once to the accumulator type (f32 or f16,
round to nearest even).  The hardware's adder tree aligns to the largest
exponent and truncates below it; the model is exact where the float64 sum
is, which the tests state as their tolerance against float64.

**Asynchrony.**  HGMMA computes when it executes, but its result may be read
only after the ``WARPGROUP.DEPBAR`` (``wgmma.wait_group N``) that leaves its
commit group complete (PTX ISA 9.7.15.7.4).  Each result carries its group
number per thread; ``ori.pack`` / ``ori.unpack`` pass it on (the frontend
splits the accumulator right after the HGMMA) and another HGMMA may take it
as its accumulator, but any other instruction that reads it before the wait
is a fault naming the instruction and thread.  The marks follow values
through packs and unpacks, not through block arguments: a read reached
through a branch argument is not checked.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import TYPE_CHECKING, Any

import numpy as np
from xdsl.ir import Operation, SSAValue

from ori_dialect.interpreter.frame import Core, Frame
from ori_dialect.interpreter.memory import Fault
from ori_dialect.ir.instruction import OriInstruction
from ori_dialect.ops.gmma import (
    FenceAsyncOp,
    GmmaCommitOp,
    HgmmaOp,
    WarpgroupArriveOp,
    WarpgroupDepbarOp,
)
from ori_dialect.ops.integer import PackOp, UnpackOp

if TYPE_CHECKING:
    from ori_dialect.interpreter.decoder import Decoder

WARPGROUP = 128
_M14 = 0x3FFF
_SWIZZLE_BYTES = {0: 0, 1: 128, 2: 64, 3: 32}


class GmmaGroups:
    """Per-thread commit-group bookkeeping of one CTA, and each tracked
    value's group number per thread (-1: complete)."""

    def __init__(self) -> None:
        self.reset(0)

    def reset(self, n: int) -> None:
        self.open = np.zeros(n, dtype=np.int64)  # the group the next HGMMA joins
        self.done = np.zeros(n, dtype=np.int64)  # groups below this are complete
        self.marks: dict[tuple[int, int], np.ndarray] = {}

    def mark(self, frame: Frame, slot: int, idx: np.ndarray, gid: np.ndarray) -> None:
        key = (id(frame), slot)
        m = self.marks.get(key)
        if m is None:
            m = self.marks[key] = np.full(len(self.open), -1, dtype=np.int64)
        m[idx] = gid

    def group_of(self, frame: Frame, slot: int, idx: np.ndarray) -> np.ndarray:
        m = self.marks.get((id(frame), slot))
        if m is None:
            return np.full(len(idx), -1, dtype=np.int64)
        g = m[idx]
        return np.where(g >= self.done[idx], g, -1)


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
    nregs = n // 2 if dtype == "f32" else n // 4

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
        prod = a @ b  # (64, n): exact products, the k-sum in float64
        scale = _lanes(p_s, p_c, frame, lanes)
        scale = np.asarray(scale, dtype=bool)
        if p_inv:
            scale = ~scale
        if not (scale == scale[0]).all():
            raise Fault("HGMMA: scale-d differs between the threads of the warpgroup",
                        thread=int(lanes[0]))
        acc = np.zeros((64, n))
        if scale[0] and c_s >= 0:
            cw = np.asarray(frame[c_s][lanes], dtype=np.uint32).reshape(WARPGROUP, nregs)
            if dtype == "f32":
                acc[drow, dcol] = cw.view(np.float32).astype(np.float64)
            else:
                h = np.stack([cw & 0xFFFF, cw >> 16], axis=2).astype(np.uint16)
                acc[drow, dcol] = h.view(np.float16).astype(np.float64)
        res = acc + prod
        if dtype == "f32":
            return res.astype(np.float32)[drow, dcol].view(np.uint32)
        h16 = res.astype(np.float16)[drow, dcol].view(np.uint16).astype(np.uint32)
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
            out[lanes] = run_group(frame, lanes).reshape(out[lanes].shape)
        m.gmma.mark(frame, d, idx, m.gmma.open[idx])

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
    """HGMMA results and what packs and unpacks make of them."""
    tracked: set[SSAValue] = set()
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
    return tracked


def guard_reads(dec: Decoder, op: Operation, core: Core, tracked: set[SSAValue]) -> Core:
    """``core`` checked (or, for packs and unpacks, marking) against
    accumulators still in flight (module docstring)."""
    if isinstance(op, HgmmaOp) or not any(v in tracked for v in op.operands):
        return core
    slots = [dec.slot[v] for v in op.operands if v in tracked]
    m = dec.m
    if isinstance(op, PackOp | UnpackOp):
        outs = [dec.slot[r] for r in op.results]

        def passing(frame: Frame, idx: np.ndarray) -> None:
            core(frame, idx)
            g = np.max([m.gmma.group_of(frame, s, idx) for s in slots], axis=0)
            for o in outs:
                m.gmma.mark(frame, o, idx, g)

        return passing
    text = op.name

    def checked(frame: Frame, idx: np.ndarray) -> None:
        for s in slots:
            g = m.gmma.group_of(frame, s, idx)
            if (g >= 0).any():
                j = int(np.flatnonzero(g >= 0)[0])
                raise Fault(f"{text} reads an HGMMA accumulator of commit group {int(g[j])} "
                            "before the wgmma.wait_group (WARPGROUP.DEPBAR) that completes it",
                            thread=int(idx[j]))
        core(frame, idx)

    return checked


__all__ = ["GMMA_BUILDERS", "WARPGROUP", "GmmaGroups", "descriptor_offsets", "guard_reads",
           "tracked_values"]
