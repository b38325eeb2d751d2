"""Interpreter closures for the sm_80 tensor-core and async-copy ops
(:mod:`ori_dialect.ops.tensor`) and the state of the asynchronous copies.

* HMMA and LDSM are warp-collective: every warp that executes one must do so
  with all 32 lanes (PTX ``.sync.aligned``: "all threads in the warp must
  execute the same instruction"); anything else stops with an error naming a
  missing lane.  Fragment ownership follows the PTX ISA (section 9.7.14.5.8
  for mma.m16n8k16, 9.7.14.5.7 for m16n8k8, 9.7.14.5.6 for m16n8k4,
  9.7.14.5.9/10 for the integer m16n8k16/m16n8k32, 9.7.14.5.15 for
  ldmatrix); the numeric models are stated on
  :class:`~ori_dialect.ops.tensor.HmmaOp` (:func:`mma_reference`) and
  :class:`~ori_dialect.ops.tensor.ImmaOp` (:func:`imma_reference`), which
  the tests reuse.
* HMMA (f16, bf16 and tf32 inputs alike) rounds as the hardware does, once
  per instruction: the products are exact; ``E`` is the largest of
  ``exponent(c)`` and ``exponent(a_k) + exponent(b_k)`` over the nonzero
  terms (a subnormal counting with its format's smallest normal exponent);
  ``c`` and each product are truncated toward zero to a multiple of
  ``2**(E - 25)``, summed exactly, and the sum is cut toward zero to f32
  (``|sum| >= 2**128``: infinity; any NaN: 0x7FFFFFFF).  An m16n8k16 is one
  such step over its 16 products, an m16n8k8 one over 8; an f16
  accumulator rounds the f32 result to nearest-even f16.  Measured on an
  H200: tf32 (bit-exact on ``data/mma_h200.npz``) and f16/bf16 m16n8k16
  with f32 accumulators (four example kernels, every output compared);
  carried over without a measurement: f16/bf16 m16n8k8, f16 accumulators,
  f16/bf16 subnormals, infinities and NaNs (HmmaOp says what was measured
  and what was not).
* IMMA (s8/u8) is integer-exact: the s32 result wraps, or saturates with
  ``.satfinite``.
* LDGSTS copies are modelled as completing at the covering DEPBAR
  (:class:`AsyncCopies`): the source is read when the copy is issued, the
  destination bytes are written when a ``DEPBAR.LE SB0, N`` of the issuing
  thread retires the copy's group.  Between the two, any shared-memory
  access to those bytes (by any thread) is a race whose result the hardware
  leaves undefined: the machine reports it as a fault naming the
  instruction, the accessing thread and the thread whose copy is pending.
  That covers every shared access: loads, stores and atomics (through
  ``Machine.resolve``), LDSM and an HGMMA's descriptor reads (:mod:`.gmma`).
  Two copies in flight to the same bytes (unordered, PTX ISA 9.7.9.25.3) are
  not reported: they complete in issue order (``examples/tensor``'s
  ``cp_async_sizes`` has such an overlap, ``s[128..191]`` written by threads
  32-63's 8-byte copies and threads 0-15's 16-byte copies, and its expected
  output relies on that order).
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass
from typing import TYPE_CHECKING, Any

import numpy as np

from ori_dialect.interpreter import memory as mem
from ori_dialect.interpreter.frame import Core, Frame
from ori_dialect.interpreter.memory import Fault
from ori_dialect.interpreter.semantics.registry import InterpreterError
from ori_dialect.ir.metadata import MemSpace
from ori_dialect.ops.tensor import (
    TF32_MASK,
    DepBarOp,
    HmmaOp,
    ImmaOp,
    LdgDepBarOp,
    LdgstsOp,
    LdsmOp,
)

if TYPE_CHECKING:
    from ori_dialect.interpreter.decoder import Decoder

_M32 = np.int64(0xFFFFFFFF)
_M64 = (1 << 64) - 1


# ----------------------------------------------------------------------
# fragment layouts (PTX ISA 9.7.14.5.6 - 9.7.14.5.10)
# ----------------------------------------------------------------------
def _lanes() -> tuple[np.ndarray, np.ndarray]:
    lane = np.arange(32)
    return lane >> 2, lane & 3


def a_positions(k: int, per: int = 2) -> tuple[np.ndarray, np.ndarray]:
    """(row, col) of A's elements per lane, register and element: shape
    (32, k // (2*per), per) for ``per`` elements per 32-bit register (2 for
    f16/bf16, 1 for tf32, 4 for s8/u8).  Register i holds
    ``A[g + 8*(i&1)][per*t + 4*per*(i>>1) + h]``."""
    g, t = _lanes()
    regs = np.arange(k // (2 * per))
    h = np.arange(per)
    row = g[:, None, None] + 8 * (regs[None, :, None] & 1) + 0 * h
    col = per * t[:, None, None] + 4 * per * (regs[None, :, None] >> 1) + h[None, None, :]
    return np.broadcast_to(row, col.shape), col


def b_positions(k: int, per: int = 2) -> tuple[np.ndarray, np.ndarray]:
    """(k, n) of B's elements per lane, register and element: shape
    (32, k // (4*per), per).  Register i holds ``B[per*t + 4*per*i + h][g]``."""
    g, t = _lanes()
    regs = np.arange(k // (4 * per))
    h = np.arange(per)
    row = per * t[:, None, None] + 4 * per * regs[None, :, None] + h[None, None, :]
    col = np.broadcast_to(g[:, None, None], row.shape)
    return row, col


def c_positions() -> tuple[np.ndarray, np.ndarray]:
    """(row, col) of the accumulator's elements j = 0..3 per lane: shape (32, 4).
    Element j is ``C[g + 8*(j>>1)][2t + (j&1)]``; an f32 or s32 accumulator
    keeps one per register, an f16 one packs elements 2r and 2r+1 into
    register r."""
    g, t = _lanes()
    j = np.arange(4)
    return g[:, None] + 8 * (j[None, :] >> 1), 2 * t[:, None] + (j[None, :] & 1)


def half_to_f32(bits: np.ndarray, bf16: bool) -> np.ndarray:
    """16-bit patterns (any integer dtype) -> float32 values."""
    b16 = (np.asarray(bits) & 0xFFFF).astype(np.uint32)
    if bf16:
        return (b16 << 16).view(np.float32)
    return b16.astype(np.uint16).view(np.float16).astype(np.float32)


def tf32_value(bits: np.ndarray) -> np.ndarray:
    """32-bit register patterns -> the float32 values of the tf32 operands the
    tensor cores read: the low 13 mantissa bits are ignored (truncated)."""
    return (np.asarray(bits).astype(np.uint32) & np.uint32(TF32_MASK)).view(np.float32)


def _exponent(x: np.ndarray, emin: int = -126) -> np.ndarray:
    """The exponent of finite nonzero values as the tensor cores see it:
    ``floor(log2|x|)``, and ``emin`` for a subnormal of the operand's format
    (its exponent field reads as the smallest normal's: -126 for f32, tf32
    and bf16, -14 for f16); any other value: a very small number."""
    ok = np.isfinite(x) & (x != 0)
    _, e = np.frexp(np.where(ok, x, 1.0))
    return np.where(ok, np.maximum(e - 1, emin), -(1 << 20))


def _toward_zero_f32(x: np.ndarray) -> np.ndarray:
    """float64 values cut toward zero to float32 (24 significant bits, the
    subnormals' fixed 2**-149 step); a magnitude of 2**128 or more becomes an
    infinity of its sign, as the tensor cores give it (not IEEE's largest
    finite value)."""
    with np.errstate(over="ignore"):
        t = x.astype(np.float32)
    over = np.abs(t.astype(np.float64)) > np.abs(x)
    t = np.where(over, np.nextafter(t, np.float32(0)), t)
    return np.where(np.abs(x) >= 2.0**128, np.copysign(np.inf, x), t).astype(np.float32)


CANONICAL_NAN = 0x7FFFFFFF
"""The NaN an MMA writes to an f32 accumulator (measured on an H200 for NaN,
inf - inf and 0 * inf with tf32 inputs)."""

MMA_ALIGN_BITS = 25
"""The terms of one MMA are truncated to ``2**(E - MMA_ALIGN_BITS)`` (see
:func:`mma_reference`): measured for tf32 (m16n8k8, m16n8k4) and f16/bf16
(m16n8k16) on an H200."""

OPERAND_EMIN = {"f16": -14, "bf16": -126, "tf32": -126, "f32": -126}
"""The exponent a subnormal of each format counts with in :func:`mma_reference`
(its smallest normal exponent)."""


def mma_reference(a: np.ndarray, b: np.ndarray, c: np.ndarray, atype: str = "tf32",
                  ctype: str = "f32") -> np.ndarray:
    """HMMA's numeric model, one MMA instruction (all of its K at once) on
    whole matrices: ``a`` (W, M, K) and ``b`` (W, K, N) float32 holding the
    ``atype`` operands' values (f16, bf16, or tf32 from :func:`tf32_value`),
    ``c`` (W, M, N) float32 holding the accumulator's values (f32, or f16
    with ``ctype="f16"``).  The f32 result; with an f16 accumulator the
    aligned sum below is rounded once, to nearest-even, straight to f16 (no
    cut to f32 first: on the H200 ``1 + 2**-11 + 2**-25`` gives 0x3C01, not
    the tie's 0x3C00), returned as float32 values that
    :func:`to_f16_accumulator` converts exactly.

    Every product ``a_k * b_k`` is exact (in float64); ``E`` is the largest
    of ``exponent(c)`` and ``exponent(a_k) + exponent(b_k)`` over the
    nonzero terms (a subnormal's exponent counting as its format's smallest
    normal exponent, :data:`OPERAND_EMIN`); ``c`` and each product are
    truncated toward zero to a multiple of ``2**(E - 25)`` and summed exactly
    (float64 holds every such sum: at most K + 1 terms below ``2**(E + 2)``),
    and the sum is cut toward zero to float32, subnormals included; a zero
    result (an exact zero, or a sum below the smallest subnormal) is +0
    whatever the signs of the terms (the H200 never returns -0: none of the
    fixture's f16/bf16/tf32 outputs, signed-zero cases included); a sum of
    magnitude ``2**128`` or more is an infinity.  Where a term is infinite or
    NaN the result is their IEEE sum (NaN for inf - inf or 0 * inf), and
    every NaN result is ``0x7FFFFFFF``.  A chain of MMAs (a K loop, the k
    steps of a wmma) applies this once per instruction, each rounding its
    result."""
    a64 = a.astype(np.float64)
    b64 = b.astype(np.float64)
    c64 = c.astype(np.float64)
    emin = OPERAND_EMIN[atype]
    with np.errstate(invalid="ignore", over="ignore"):
        prods = a64[:, :, None, :] * np.swapaxes(b64, 1, 2)[:, None, :, :]  # (W, M, N, K)
        naive = c64 + prods.sum(axis=-1)
    pexp = (_exponent(a64, emin)[:, :, None, :]
            + np.swapaxes(_exponent(b64, emin), 1, 2)[:, None, :, :])
    pexp = np.where((prods != 0) & np.isfinite(prods), pexp, -(1 << 20))
    big = np.maximum(pexp.max(axis=-1), _exponent(c64, OPERAND_EMIN[ctype]))
    q = np.ldexp(1.0, np.clip(big - MMA_ALIGN_BITS, -1074, 1023))[..., None]
    with np.errstate(invalid="ignore"):
        terms = np.concatenate([c64[..., None], prods], axis=-1)
        exact = (np.trunc(terms / q) * q).sum(axis=-1)
    if ctype == "f16":
        # one rounding of the aligned sum, nearest-even, straight to f16
        with np.errstate(over="ignore"):
            out = np.where(np.isfinite(naive), exact, 0.0).astype(np.float16).astype(np.float32)
    else:
        out = _toward_zero_f32(np.where(np.isfinite(naive), exact, 0.0))
    out = np.where(out == 0, np.float32(0.0), out)  # a zero result is +0, whatever the signs
    special = ~np.isfinite(naive)
    if special.any():
        with np.errstate(over="ignore", invalid="ignore"):
            out = np.where(special, naive.astype(np.float32), out)
        out = np.where(np.isnan(out), np.uint32(CANONICAL_NAN).view(np.float32), out)
    return out.astype(np.float32)


def tf32_mma_reference(a: np.ndarray, b: np.ndarray, c: np.ndarray) -> np.ndarray:
    """:func:`mma_reference` for tf32 operands (:func:`tf32_value`) and an f32
    accumulator."""
    return mma_reference(a, b, c, "tf32")


def to_f16_accumulator(d: np.ndarray) -> np.ndarray:
    """An MMA's f32 result as an f16 accumulator holds it: rounded to nearest,
    ties to even (an f32 magnitude of 65520 or more is an infinity; the NaN
    0x7FFFFFFF becomes 0x7FFF; a value that rounds to zero is +0, measured
    on the H200)."""
    with np.errstate(over="ignore"):
        h = np.asarray(d, np.float32).astype(np.float16)
    return np.where(h == 0, np.float16(0.0), h)  # +0, as the f32 result


def imma_reference(a: np.ndarray, b: np.ndarray, c: np.ndarray, sat: bool) -> np.ndarray:
    """IMMA's numeric model on whole matrices: ``a`` (W, M, K) and ``b``
    (W, K, N) integer values (s8 or u8), ``c`` (W, M, N) int32.  The sum
    ``c + a @ b`` is exact (int64); the int32 result wraps modulo 2**32, or
    with ``sat`` (PTX ``.satfinite``) is clamped to the int32 range."""
    acc = c.astype(np.int64) + np.einsum("wmk,wkn->wmn", a.astype(np.int64), b.astype(np.int64))
    if sat:
        return np.clip(acc, -(2**31), 2**31 - 1).astype(np.int32)
    return ((acc + 2**31) % 2**32 - 2**31).astype(np.int32)


# ----------------------------------------------------------------------
# helpers
# ----------------------------------------------------------------------
def words(v: np.ndarray, n: int) -> np.ndarray:
    """A register value (per lane) as its n 32-bit words, shape (lanes, n)."""
    v = np.asarray(v)
    if v.ndim == 2:
        return v.astype(np.uint32, copy=False)
    if v.dtype == np.uint64:
        return np.stack([(v & 0xFFFFFFFF).astype(np.uint32), (v >> 32).astype(np.uint32)], 1)
    return v.astype(np.uint32, copy=False).reshape(-1, 1)[:, :n]


def from_words(w: np.ndarray) -> np.ndarray:
    """Inverse of :func:`words`: (lanes, 1|2|4) words -> the value storage."""
    if w.shape[1] == 1:
        return w[:, 0].astype(np.uint32)
    if w.shape[1] == 2:
        return w[:, 0].astype(np.uint64) | (w[:, 1].astype(np.uint64) << np.uint64(32))
    return w.astype(np.uint32)


def check_full_warps(idx: np.ndarray, what: str) -> int:
    """The number of warps in ``idx``; every one must run with all 32 lanes."""
    lanes = idx & 31
    warp = idx >> 5
    ok = len(idx) % 32 == 0
    if ok:
        ok = bool((lanes == np.tile(np.arange(32), len(idx) // 32)).all()) and bool(
            (warp.reshape(-1, 32) == warp[::32, None]).all())
    if not ok:
        for w in np.unique(warp):
            have = set((idx[warp == w] & 31).tolist())
            missing = sorted(set(range(32)) - have)
            if missing:
                raise Fault(
                    f"{what} needs all 32 lanes of warp {int(w)} to execute it together "
                    f"(.sync.aligned); lane {missing[0]} does not",
                    thread=int(idx[warp == w][0]),
                )
    return len(idx) // 32


def _source(dec: Decoder, op: Any, name: str) -> tuple[int, Any]:
    s, c, _ = dec.sources(op)[name]
    return s, c


def _value(s: int, c: Any, frame: Frame, idx: np.ndarray) -> np.ndarray:
    if s >= 0:
        return frame[s][idx]
    return np.broadcast_to(np.asarray(c), (len(idx), *np.shape(c)))


def _shared_address(dec: Decoder, op: Any, base: str, off: int) -> Callable[
        [Frame, np.ndarray], np.ndarray]:
    s, c = _source(dec, op, base)

    def address(frame: Frame, idx: np.ndarray) -> np.ndarray:
        v = _value(s, c, frame, idx)
        return (v.astype(np.int64) + off) & _M32

    return address


# ----------------------------------------------------------------------
# HMMA / IMMA
# ----------------------------------------------------------------------
def _accumulator(frame: Frame, sc: int, idx: np.ndarray, w: int, nc: int) -> np.ndarray:
    if sc >= 0:
        return words(frame[sc][idx], nc).reshape(w, 32, nc)
    return np.zeros((w, 32, nc), dtype=np.uint32)  # RZ: a zero accumulator


def _hmma(dec: Decoder, op: HmmaOp, k_: int) -> Core:
    k = op.k()
    f16_acc = op.mod("dtype") == "f16"
    atype = op.mod("atype")
    bf16, tf32 = atype == "bf16", atype == "tf32"
    per = 1 if tf32 else 2
    sa, ca = _source(dec, op, "a")
    sb, cb = _source(dec, op, "b")
    sc, _ = _source(dec, op, "c")  # a constant is RZ: zeros
    d = dec.slot[op.results[0]]
    ar, ac = a_positions(k, per)
    br, bc = b_positions(k, per)
    cr, ccol = c_positions()
    na, nb, nc = k // (2 * per), k // (4 * per), 2 if f16_acc else 4

    def hmma(frame: Frame, idx: np.ndarray) -> None:
        w = check_full_warps(idx, "HMMA (mma.sync)")
        aw = words(_value(sa, ca, frame, idx), na).reshape(w, 32, na)
        bw = words(_value(sb, cb, frame, idx), nb).reshape(w, 32, nb)
        cw = _accumulator(frame, sc, idx, w, nc)
        if tf32:
            av, bv = tf32_value(aw)[..., None], tf32_value(bw)[..., None]
        else:
            halves = np.arange(2) * 16
            av = half_to_f32(aw[..., None] >> halves, bf16)  # (w, 32, na, 2)
            bv = half_to_f32(bw[..., None] >> halves, bf16)
        a = np.zeros((w, 16, k), np.float32)
        b = np.zeros((w, k, 8), np.float32)
        c = np.zeros((w, 16, 8), np.float32)
        a[:, ar, ac] = av
        b[:, br, bc] = bv
        if f16_acc:
            halves = np.arange(2) * 16
            c[:, cr, ccol] = half_to_f32(cw[..., None] >> halves, False).reshape(w, 32, 4)
        else:
            c[:, cr, ccol] = cw.view(np.float32)
        acc = mma_reference(a, b, c, atype, "f16" if f16_acc else "f32")[:, cr, ccol]
        if f16_acc:
            h = to_f16_accumulator(acc).view(np.uint16).astype(np.uint32).reshape(w, 32, 2, 2)
            out = h[..., 0] | (h[..., 1] << 16)
        else:
            out = acc.view(np.uint32)
        frame[d][idx] = from_words(out.reshape(w * 32, nc))

    return hmma


def _bytes(w: np.ndarray, signed: bool) -> np.ndarray:
    """(..., n) words -> (..., n, 4) their bytes, lowest first, as s8 or u8 values."""
    v = (w[..., None] >> (np.arange(4, dtype=np.uint32) * 8)) & 0xFF
    v = v.astype(np.int64)
    return np.where(v >= 128, v - 256, v) if signed else v


def _imma(dec: Decoder, op: ImmaOp, k_: int) -> Core:
    k = op.k()
    sa_signed, sb_signed = op.mod("atype") == "s8", op.mod("btype") == "s8"
    sat = op.has_mod("sat")
    sa, ca = _source(dec, op, "a")
    sb, cb = _source(dec, op, "b")
    sc, _ = _source(dec, op, "c")
    d = dec.slot[op.results[0]]
    ar, ac = a_positions(k, 4)
    br, bc = b_positions(k, 4)
    cr, ccol = c_positions()
    na, nb = k // 8, k // 16

    def imma(frame: Frame, idx: np.ndarray) -> None:
        w = check_full_warps(idx, "IMMA (mma.sync)")
        aw = words(_value(sa, ca, frame, idx), na).reshape(w, 32, na)
        bw = words(_value(sb, cb, frame, idx), nb).reshape(w, 32, nb)
        cw = _accumulator(frame, sc, idx, w, 4)
        a = np.zeros((w, 16, k), np.int64)
        b = np.zeros((w, k, 8), np.int64)
        c = np.zeros((w, 16, 8), np.int32)
        a[:, ar, ac] = _bytes(aw, sa_signed)
        b[:, br, bc] = _bytes(bw, sb_signed)
        c[:, cr, ccol] = cw.view(np.int32)
        acc = imma_reference(a, b, c, sat)[:, cr, ccol]  # (w, 32, 4)
        frame[d][idx] = from_words(acc.view(np.uint32).reshape(w * 32, 4))

    return imma


# ----------------------------------------------------------------------
# LDSM
# ----------------------------------------------------------------------
def _ldsm(dec: Decoder, op: LdsmOp, k_: int) -> Core:
    count = op.count()
    trans = op.mod("layout") == "mt88"
    address = _shared_address(dec, op, "addr", op.offset())
    d = dec.slot[op.results[0]]
    m = dec.m
    lane = np.arange(32)
    if trans:  # rows 2(l&3), 2(l&3)+1 of column l>>2
        rows = np.stack([2 * (lane & 3), 2 * (lane & 3) + 1], 1)
        cols = np.stack([lane >> 2, lane >> 2], 1)
    else:  # row l>>2, columns 2(l&3), 2(l&3)+1
        rows = np.stack([lane >> 2, lane >> 2], 1)
        cols = np.stack([2 * (lane & 3), 2 * (lane & 3) + 1], 1)

    def ldsm(frame: Frame, idx: np.ndarray) -> None:
        w = check_full_warps(idx, "LDSM (ldmatrix)")
        a = address(frame, idx).reshape(w, 32)[:, : 8 * count]  # row addresses
        lanes = idx.reshape(w, 32)[:, : 8 * count].ravel()
        flat = a.ravel()
        groups = m.resolve(MemSpace.SHARED, flat, lanes, 16, "ldmatrix load")
        buf = groups[0][1]
        raw = buf[(flat[:, None] + np.arange(16)).ravel()].view(np.uint16)
        mat = raw.reshape(w, count, 8, 8).astype(np.uint32)  # [warp, matrix, row, col]
        lo = mat[:, :, rows[:, 0], cols[:, 0]]  # (w, count, 32)
        hi = mat[:, :, rows[:, 1], cols[:, 1]]
        out = (lo | (hi << 16)).transpose(0, 2, 1).reshape(w * 32, count)
        frame[d][idx] = from_words(out)

    return ldsm


# ----------------------------------------------------------------------
# asynchronous copies
# ----------------------------------------------------------------------
@dataclass
class _Copies:
    """One LDGSTS executed by some lanes: per lane its group, destination and bytes."""

    lanes: np.ndarray
    group: np.ndarray
    dst: np.ndarray
    data: np.ndarray  # (lanes, size) uint8
    done: np.ndarray


class AsyncCopies:
    """The LDGSTS copies of one CTA that have not completed yet.

    Each thread numbers its groups: copies join the thread's open group
    ``opened[t]``; LDGDEPBAR commits it (``opened[t] += 1``); ``DEPBAR.LE SB0,
    N`` completes every copy of a group ``< opened[t] - N``.  ``cover`` counts,
    per shared-memory byte, the pending copies that will write it."""

    def __init__(self) -> None:
        self.reset(0)

    def reset(self, threads: int) -> None:
        self.records: list[_Copies] = []
        self.opened = np.zeros(threads, dtype=np.int64)
        self.cover: np.ndarray | None = None
        self.pending = 0

    def issue(self, shared_bytes: int, rec: _Copies) -> None:
        if self.cover is None or len(self.cover) < shared_bytes:
            self.cover = np.zeros(max(shared_bytes, 16), dtype=np.int32)
        size = rec.data.shape[1]
        np.add.at(self.cover, (rec.dst[:, None] + np.arange(size)).ravel(), 1)
        self.records.append(rec)
        self.pending += len(rec.lanes)

    def commit(self, idx: np.ndarray) -> None:
        self.opened[idx] += 1

    def wait(self, idx: np.ndarray, n: int, shared: np.ndarray) -> None:
        if not self.pending:
            return
        limit = np.full(len(self.opened), -1, dtype=np.int64)
        limit[idx] = self.opened[idx] - n
        keep: list[_Copies] = []
        for rec in self.records:
            now = ~rec.done & (rec.group < limit[rec.lanes])
            if now.any():
                size = rec.data.shape[1]
                offs = (rec.dst[now][:, None] + np.arange(size)).ravel()
                shared[offs] = rec.data[now].ravel()
                assert self.cover is not None
                np.add.at(self.cover, offs, -1)
                rec.done |= now
                self.pending -= int(now.sum())
            if not rec.done.all():
                keep.append(rec)
        self.records = keep

    def check(self, a: np.ndarray, nbytes: int, what: str) -> None:
        """Fault if a shared access of ``nbytes`` at ``a`` touches a pending copy."""
        if not self.pending or self.cover is None:
            return
        offs = np.clip(a[:, None] + np.arange(nbytes), 0, len(self.cover) - 1)
        hit = self.cover[offs].any(axis=1)
        if not hit.any():
            return
        pos = int(np.flatnonzero(hit)[0])
        start = int(a[pos])
        owner = "another thread"
        for rec in self.records:
            size = rec.data.shape[1]
            over = ~rec.done & (rec.dst < start + nbytes) & (rec.dst + size > start)
            if over.any():
                owner = f"thread {int(rec.lanes[np.flatnonzero(over)[0]])} (CTA-linear)"
                break
        raise Fault(
            f"shared {what} of {nbytes} bytes at {start:#x} touches the destination of an "
            f"asynchronous copy (cp.async / LDGSTS) by {owner} that has not completed: "
            "the data are defined only after its cp.async.wait_group / wait_all "
            "(DEPBAR) retires the copy's group",
            position=pos,
        )


def _ldgsts(dec: Decoder, op: LdgstsOp, k_: int) -> Core:
    size = op.access_bytes()
    zfill = op.mod("zfill") is not None
    dst_addr = _shared_address(dec, op, "addr", op.offset())
    ss, sc = _source(dec, op, "src")
    soff = np.uint64((op.src_int("src_offset") or 0) & _M64)
    srcs = dec.sources(op)
    vs, vc, vinv = srcs.get("valid", (-1, np.True_, False))
    m = dec.m
    steps = np.arange(size)

    def ldgsts(frame: Frame, idx: np.ndarray) -> None:
        n = len(idx)
        dst = dst_addr(frame, idx)
        src = (_value(ss, sc, frame, idx).astype(np.uint64) + soff).view(np.int64)
        valid = np.asarray(frame[vs][idx] if vs >= 0 else np.full(n, bool(vc)))
        if vinv:
            valid = ~valid
        fill = np.zeros(n, dtype=np.int64)
        if zfill:  # ptxas: bytes to zero-fill in the address bits below the size
            fill = src & (size - 1)
            src = src - fill
        try:
            mem.check_align(dst, size, "shared cp.async destination")
            mem.check_window(dst, size, m.shared_bytes, "shared cp.async destination", "shared")
            mem.check_align(np.where(valid, src, 0), size, "global cp.async source")
        except Fault as e:
            if e.position is not None:
                e.thread = int(idx[e.position])
            raise
        data = np.zeros((n, size), dtype=np.uint8)
        take = valid[:, None] & (steps[None, :] < (size - fill)[:, None])
        rows, cols = np.nonzero(take)
        if len(rows):
            byte_addr = src[rows] + cols
            groups = m.resolve(MemSpace.GLOBAL, byte_addr, idx[rows], 1, "cp.async read")
            vals = np.zeros(len(rows), dtype=np.uint8)
            for pos, buf, offs in groups:
                if pos is None:
                    vals[:] = buf[offs]
                else:
                    vals[pos] = buf[offs]
            data[rows, cols] = vals
        ac = m.async_copies
        ac.issue(m.shared_bytes, _Copies(idx.copy(), ac.opened[idx].copy(), dst, data,
                                         np.zeros(n, dtype=bool)))

    return ldgsts


def _ldgdepbar(dec: Decoder, op: LdgDepBarOp, k_: int) -> Core:
    m = dec.m

    def commit(frame: Frame, idx: np.ndarray) -> None:
        m.async_copies.commit(idx)

    return commit


def _depbar(dec: Decoder, op: DepBarOp, k_: int) -> Core:
    n = op.src_int("count")
    if n is None:
        raise InterpreterError("ori.depbar: the group count must be an immediate")
    m = dec.m

    def wait(frame: Frame, idx: np.ndarray) -> None:
        m.async_copies.wait(idx, n, m.shared)

    return wait


TENSOR_BUILDERS: dict[type, Callable[[Decoder, Any, int], Core]] = {
    HmmaOp: _hmma,
    ImmaOp: _imma,
    LdsmOp: _ldsm,
    LdgstsOp: _ldgsts,
    LdgDepBarOp: _ldgdepbar,
    DepBarOp: _depbar,
}

__all__ = [
    "TENSOR_BUILDERS",
    "AsyncCopies",
    "a_positions",
    "b_positions",
    "c_positions",
    "check_full_warps",
    "from_words",
    "half_to_f32",
    "imma_reference",
    "mma_reference",
    "tf32_mma_reference",
    "tf32_value",
    "to_f16_accumulator",
    "words",
]
