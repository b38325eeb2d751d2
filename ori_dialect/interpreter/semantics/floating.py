"""Semantics of the floating-point ops (``ori_dialect.ops.floating``).

Values are IEEE bit patterns (``np.uint32`` for f32 and packed f16x2/bf16x2,
``np.uint64`` for f64).  Source modifiers act on the sign bit only (``abs``
clears it, then ``neg`` flips it), so they are exact for every input, NaN
included (PTX ISA 9.7.3: ``neg``/``abs`` are sign-bit operations).

Rounding (PTX ISA 9.7.3, "Floating point instructions"; IEEE 754-2008 4.3):

* Exact intermediate values.  An f32 product is exact in float64 (24+24 bits
  <= 53); an f32 (or f16/bf16) sum is represented exactly as the float64 pair
  ``s + e`` given by the error-free TwoSum (Knuth).  The pair is collapsed
  into one float64 *rounded to odd* (``odd64``): the truncation of the exact
  value with its last bit forced to 1 when inexact.  A value rounded to odd
  with at least p+2 bits rounds to any p-bit format, in any rounding mode,
  exactly as the real value would (Boldo & Melquiond, "Emulation of FMA and
  correctly rounded sums: proved algorithms using rounding to odd", 2008), so
  double rounding cannot happen.
* Directed rounding.  numpy only rounds to nearest: ``r = RN32(v)`` is
  computed and, when it lies on the wrong side of ``v`` (an exact float64
  comparison), moved one ulp with ``np.nextafter``.
* An exact zero sum of operands of opposite sign is +0, except -0 under
  ``rm`` (IEEE 754 6.3).
* ``ftz`` flushes denormal inputs and (after rounding) denormal results to a
  zero of the same sign; ``sat`` clamps the result to [+0, 1] with NaN -> +0.
* A NaN result is the canonical NaN (0x7fffffff for f32,
  0x7fffffffffffffff for f64, 0x7fff for f16/bf16), as NVIDIA GPUs produce.

f64 FMA cannot be done in numpy float64 arithmetic; DFMA uses the
Boldo-Melquiond algorithm (Dekker TwoProduct + TwoSum + round-to-odd add)
vectorised where all intermediate values are far from overflow and
underflow, and exact ``fractions.Fraction`` arithmetic per lane elsewhere
and for directed rounding of DMUL/DFMA.
"""

from __future__ import annotations

import math
from collections.abc import Callable, Sequence
from fractions import Fraction
from typing import Any

import numpy as np

from ori_dialect.interpreter.semantics.integer import U32, U64, Arr, Slots, bcast
from ori_dialect.interpreter.semantics.registry import OpFn, compiles
from ori_dialect.ops.floating import (
    DAddOp,
    DFmaOp,
    DMulOp,
    FAddOp,
    FFmaOp,
    FMnMxOp,
    FMulOp,
    HAdd2Op,
    HFma2Op,
    HMul2Op,
    MufuOp,
)

F16 = np.float16
F32 = np.float32
F64 = np.float64
U16 = np.uint16

NAN32 = U32(0x7FFFFFFF)
NAN64 = U64(0x7FFFFFFFFFFFFFFF)
NAN16 = U16(0x7FFF)
SIGN32 = U32(0x80000000)
EXP32 = U32(0x7F800000)
SIGN64 = U64(0x8000000000000000)
EXP64 = U64(0x7FF0000000000000)
_F32_ONE = F32(1.0)
_F32_ZERO = F32(0.0)
_F32_INF = F32(np.inf)
_F64_INF = F64(np.inf)
_F64_MAX = float(np.finfo(np.float64).max)
_ERR = {"all": "ignore"}


# ----------------------------------------------------------------------
# bit-level helpers
# ----------------------------------------------------------------------
def smod_masks(sl: Slots, name: str, width: int = 32, halves: bool = False) -> tuple[int, int]:
    """(and-mask, xor-mask) implementing the ``abs``/``neg`` modifiers of slot
    ``name`` on a bit pattern (``halves``: on both 16-bit halves)."""
    m = sl.smod(name)
    sign = (0x80008000 if halves else 0x80000000) if width == 32 else 0x8000000000000000
    full = (1 << width) - 1
    return (full & ~sign if "abs" in m else full), (sign if "neg" in m else 0)


def apply_masks(x: Arr, masks: tuple[int, int], dtype: Any) -> Arr:
    and_m, xor_m = masks
    x = np.asarray(x, dtype)
    if and_m != (1 << (8 * np.dtype(dtype).itemsize)) - 1:
        x = np.bitwise_and(x, dtype(and_m))
    if xor_m:
        x = np.bitwise_xor(x, dtype(xor_m))
    return x


def flush32(bits: Arr) -> Arr:
    """Denormal f32 bit patterns -> zero of the same sign."""
    return np.where(np.bitwise_and(bits, EXP32) == 0, np.bitwise_and(bits, SIGN32), bits)


def flush64(bits: Arr) -> Arr:
    return np.where(np.bitwise_and(bits, EXP64) == 0, np.bitwise_and(bits, SIGN64), bits)


def as_f32(bits: Arr) -> Arr:
    return np.asarray(bits, U32).view(F32)


def as_f64(bits: Arr) -> Arr:
    return np.asarray(bits, U64).view(F64)


def bits32(x: Arr) -> Arr:
    return np.asarray(x, F32).view(U32)


def bits64(x: Arr) -> Arr:
    return np.asarray(x, F64).view(U64)


def canon32(r: Arr) -> Arr:
    """f32 values -> bit patterns with NaN made canonical."""
    r = np.asarray(r, F32)
    return np.where(np.isnan(r), NAN32, r.view(U32))


def canon64(r: Arr) -> Arr:
    r = np.asarray(r, F64)
    return np.where(np.isnan(r), NAN64, r.view(U64))


def sat32(r: Arr) -> Arr:
    """Clamp to [+0, 1]; NaN and -0 give +0 (PTX ``.sat``)."""
    return np.where(r > 0, np.minimum(r, _F32_ONE), _F32_ZERO)


# ----------------------------------------------------------------------
# exact arithmetic helpers (float64)
# ----------------------------------------------------------------------
def two_sum(a: Arr, b: Arr) -> tuple[Arr, Arr]:
    """Knuth's TwoSum: ``s = RN(a + b)`` and ``e`` with ``s + e == a + b``
    exactly (when ``s`` is finite; ``e`` is 0 where it is not)."""
    s = a + b
    bb = s - a
    e = (a - (s - bb)) + (b - bb)
    return s, np.where(np.isfinite(s), e, 0.0)


_SPLIT = F64(134217729.0)  # 2^27 + 1 (Veltkamp)


def two_prod(a: Arr, b: Arr) -> tuple[Arr, Arr]:
    """Dekker's TwoProduct: ``p = RN(a*b)`` and ``e`` with ``p + e == a*b``
    exactly, provided |a|, |b| < 2^995 and the exponent of ``a*b`` is above
    -969 (callers check)."""
    p = a * b
    t = _SPLIT * a
    ah = t - (t - a)
    al = a - ah
    t = _SPLIT * b
    bh = t - (t - b)
    bl = b - bh
    e = ((ah * bh - p) + ah * bl + al * bh) + al * bl
    return p, e


def odd64(s: Arr, e: Arr) -> Arr:
    """The exact value ``s + e`` (``s`` = its nearest float64) rounded to odd."""
    inexact = e != 0
    toward0 = inexact & ((e < 0) != (s < 0))
    t = np.where(toward0, np.nextafter(s, 0.0), s)
    return np.bitwise_or(np.asarray(t, F64).view(U64), inexact.astype(U64)).view(F64)


def round_to_f32(v: Arr, mode: str) -> Arr:
    """Float64 ``v`` (exact or rounded to odd) rounded to float32 in ``mode``."""
    r = np.asarray(v, F64).astype(F32)
    if mode == "rn":
        return r
    rd = r.astype(F64)
    if mode == "rm":
        return np.where(rd > v, np.nextafter(r, -_F32_INF), r)
    if mode == "rp":
        return np.where(rd < v, np.nextafter(r, _F32_INF), r)
    return np.where(np.abs(rd) > np.abs(v), np.nextafter(r, _F32_ZERO), r)


def adjust_f64(s: Arr, e: Arr, mode: str) -> Arr:
    """``s + e`` (``s`` = RN of the exact value, ``e`` its exact error) in ``mode``."""
    if mode == "rn":
        return s
    if mode == "rm":
        return np.where(e < 0, np.nextafter(s, -_F64_INF), s)
    if mode == "rp":
        return np.where(e > 0, np.nextafter(s, _F64_INF), s)
    return np.where((e < 0) & (s > 0) | (e > 0) & (s < 0), np.nextafter(s, 0.0), s)


def overflow_f64(s: Arr, mode: str) -> Arr:
    """Correct ``s`` where a finite exact value rounded to nearest overflowed to
    +-inf (callers mask): directed modes may stop at +-MAX."""
    if mode == "rn":
        return s
    big = np.copysign(_F64_MAX, s)
    if mode == "rz":
        return big
    if mode == "rm":
        return np.where(s > 0, big, s)
    return np.where(s < 0, big, s)


def exact_zero_sign(r: Arr, exact_zero: Arr, x_neg: Arr, y_neg: Arr, mode: str) -> Arr:
    """IEEE 754 6.3: an exact zero sum ``x + y`` is -0 if both addends are
    negative (zeros), else +0, except -0 under ``rm`` unless both are +0."""
    if mode == "rm":
        neg = x_neg | y_neg
    else:
        neg = x_neg & y_neg
    z = np.where(neg, -0.0, 0.0).astype(r.dtype)
    return np.where(exact_zero, z, r)


def frac_to_f64(q: Fraction, mode: str) -> float:
    """Exact rational ``q`` (nonzero) correctly rounded to float64 in ``mode``
    (Python int true division rounds correctly to nearest)."""
    try:
        f = q.numerator / q.denominator
    except OverflowError:
        f = math.inf if q > 0 else -math.inf
    if mode == "rn":
        return f
    if math.isinf(f):
        pos = f > 0
        if mode == "rz" or (mode == "rm" and pos) or (mode == "rp" and not pos):
            return math.copysign(_F64_MAX, f)
        return f
    ff = Fraction(f)
    if ff == q:
        return f
    if mode == "rm":
        return math.nextafter(f, -math.inf) if ff > q else f
    if mode == "rp":
        return math.nextafter(f, math.inf) if ff < q else f
    return math.nextafter(f, 0.0) if abs(ff) > abs(q) else f


def exact_fma64(a: float, b: float, c: float, mode: str) -> float:
    """Correctly rounded ``a*b + c`` of finite float64s, exactly (Fraction)."""
    q = Fraction(a) * Fraction(b) + Fraction(c)
    if q == 0:
        pn = (math.copysign(1.0, a) < 0) != (math.copysign(1.0, b) < 0)
        cn = math.copysign(1.0, c) < 0
        neg = (pn and cn) if mode != "rm" else (pn or cn)
        return -0.0 if neg else 0.0
    return frac_to_f64(q, mode)


# ----------------------------------------------------------------------
# FP32 arithmetic
# ----------------------------------------------------------------------
def _f32_srcs(op: Any, names: Sequence[str]) -> tuple[list[int], list[tuple[int, int]], bool]:
    sl = Slots(op)
    return [sl.ix[n] for n in names], [smod_masks(sl, n) for n in names], op.has_mod("ftz")


def _f32_finish(r: Arr, ftz: bool, sat: bool, n: int) -> Arr:
    if sat:
        r = sat32(r)
    b = canon32(r)
    if ftz:
        b = flush32(b)
    return bcast(b, n, U32)


def _compile_f32(op: Any, names: Sequence[str], kind: str) -> OpFn:
    ix, masks, ftz = _f32_srcs(op, names)
    mode = op.mod("rnd") or "rn"
    sat = op.has_mod("sat")

    def load(src: Sequence[Arr]) -> list[Arr]:
        out = []
        for i, m in zip(ix, masks):
            b = apply_masks(src[i], m, U32)
            if ftz:
                b = flush32(b)
            out.append(as_f32(b))
        return out

    if mode == "rn" and kind != "fma":
        ufunc = np.add if kind == "add" else np.multiply

        def fast(src: Sequence[Arr], n: int) -> tuple[Arr, ...]:
            with np.errstate(**_ERR):
                a, b = load(src)
                return (_f32_finish(ufunc(a, b), ftz, sat, n),)

        return fast

    def fn(src: Sequence[Arr], n: int) -> tuple[Arr, ...]:
        with np.errstate(**_ERR):
            vals = load(src)
            v64 = [np.asarray(v).astype(F64) for v in vals]
            if kind == "mul":
                r = round_to_f32(v64[0] * v64[1], mode)
                return (_f32_finish(r, ftz, sat, n),)
            if kind == "add":
                x, y = v64
            else:
                x, y = v64[0] * v64[1], v64[2]  # exact product
            s, e = two_sum(x, y)
            r = round_to_f32(odd64(s, e), mode)
            if mode == "rm":
                r = exact_zero_sign(r, (s == 0) & (e == 0), np.signbit(x), np.signbit(y), mode)
            return (_f32_finish(r, ftz, sat, n),)

    return fn


@compiles(FAddOp)
def _fadd(op: FAddOp) -> OpFn:
    """FADD (PTX ``add.f32``, ISA 9.7.3.1): correctly rounded in ``rnd``."""
    return _compile_f32(op, ("a", "b"), "add")


@compiles(FMulOp)
def _fmul(op: FMulOp) -> OpFn:
    """FMUL (PTX ``mul.f32``, ISA 9.7.3.3): the float64 product is exact, so
    one rounding to float32 in ``rnd`` is correct."""
    return _compile_f32(op, ("a", "b"), "mul")


@compiles(FFmaOp)
def _ffma(op: FFmaOp) -> OpFn:
    """FFMA (PTX ``fma.f32``, ISA 9.7.3.5): ``a*b`` exactly in float64, TwoSum
    with ``c`` for the exact sum ``s + e``, rounded to odd in float64, then one
    rounding to float32 in ``rnd`` (correct by the round-to-odd theorem)."""
    return _compile_f32(op, ("a", "b", "c"), "fma")


@compiles(FMnMxOp)
def _fmnmx(op: FMnMxOp) -> OpFn:
    """FMNMX (PTX ``min``/``max.f32``, ISA 9.7.3.10/11): ``sel ? min : max``.
    A NaN operand yields the other operand, two NaNs the canonical NaN; -0 is
    below +0."""
    sl = Slots(op)
    ia, ib, isel = sl.ix["a"], sl.ix["b"], sl.ix["sel"]
    ma, mb = smod_masks(sl, "a"), smod_masks(sl, "b")
    ftz = op.has_mod("ftz")

    def fn(src: Sequence[Arr], n: int) -> tuple[Arr, ...]:
        ab, bb = apply_masks(src[ia], ma, U32), apply_masks(src[ib], mb, U32)
        if ftz:
            ab, bb = flush32(ab), flush32(bb)
        a, b = as_f32(ab), as_f32(bb)
        lt, gt = a < b, a > b
        mn = np.where(lt, ab, np.where(gt, bb, np.bitwise_or(ab, bb)))
        mx = np.where(gt, ab, np.where(lt, bb, np.bitwise_and(ab, bb)))
        r = np.where(src[isel], mn, mx)
        an, bn = np.isnan(a), np.isnan(b)
        r = np.where(an, np.where(bn, NAN32, bb), np.where(bn, ab, r))
        return (bcast(r, n, U32),)

    return fn


# ----------------------------------------------------------------------
# MUFU
# ----------------------------------------------------------------------
def _sin2pi(x: Arr) -> Arr:
    """sin(2*pi*x) with exact argument reduction: x - rint(x) is exact, and
    halving symmetry maps it into [-1/4, 1/4] turns so that multiples of 1/4
    turn give exact 0 and +-1."""
    f = x - np.rint(x)  # [-0.5, 0.5], exact
    g = np.where(f > 0.25, 0.5 - f, np.where(f < -0.25, -0.5 - f, f))  # exact
    return np.where(x == 0, x, np.sin((2 * np.pi) * g))


def _mufu_fn(func: str) -> Callable[[Arr], Arr]:
    if func == "rcp":
        return lambda x: 1.0 / x
    if func == "rsq":
        return lambda x: 1.0 / np.sqrt(x)
    if func == "sqrt":
        return np.sqrt
    if func == "sin":
        return _sin2pi
    if func == "cos":
        return lambda x: _sin2pi(x - np.rint(x) + 0.25)
    if func == "ex2":
        return np.exp2
    if func == "lg2":
        return np.log2
    if func == "tanh":
        return np.tanh
    raise AssertionError(func)


@compiles(MufuOp)
def _mufu(op: MufuOp) -> OpFn:
    """MUFU (PTX ``rcp/rsqrt/sqrt/sin/cos/ex2/lg2/tanh.approx``, ISA 9.7.3.x).

    Hardware MUFU is approximate (about 1-2 ulp, PTX documents the maximum
    errors); ori models each function as its exact value rounded to nearest
    float32 (computed in float64 and rounded once, which is correctly rounded
    except for values within ~2^-29 relative of a rounding boundary), so
    results may differ from a GPU in the last bits.  ``sin``/``cos`` take the
    argument in turns: ``sin(2*pi*a)`` (ptxas multiplies by 1/(2*pi) first).
    Special values follow IEEE/PTX: rcp(+-0) = +-inf, rcp(+-inf) = +-0,
    rsq(+-0) = +-inf, rsq(x<0) = NaN, sqrt(-0) = -0, lg2(+-0) = -inf,
    lg2(x<0) = NaN, ex2(-inf) = +0, sin/cos(+-inf) = NaN.
    ``rcp64h``/``rsq64h`` read ``a`` as the high word of a float64 whose low
    word is 0 and return the high word of the float64 reciprocal (square-root
    reciprocal), truncated -- the seed FP64 division/sqrt sequences refine.
    """
    sl = Slots(op)
    ia = sl.ix["a"]
    m = smod_masks(sl, "a")
    func = op.mod("func") or "rcp"
    ftz = op.has_mod("ftz")

    if func in ("rcp64h", "rsq64h"):
        f64fn = (lambda x: 1.0 / x) if func == "rcp64h" else (lambda x: 1.0 / np.sqrt(x))

        def fn64(src: Sequence[Arr], n: int) -> tuple[Arr, ...]:
            with np.errstate(**_ERR):
                hi = apply_masks(src[ia], m, U32).astype(U64) << U64(32)
                r = canon64(f64fn(as_f64(hi)))
                return (bcast((r >> U64(32)).astype(U32), n, U32),)

        return fn64

    f = _mufu_fn(func)

    def fn(src: Sequence[Arr], n: int) -> tuple[Arr, ...]:
        with np.errstate(**_ERR):
            b = apply_masks(src[ia], m, U32)
            if ftz:
                b = flush32(b)
            r = np.asarray(f(as_f32(b).astype(F64))).astype(F32)
            return (_f32_finish(r, ftz, False, n),)

    return fn


# ----------------------------------------------------------------------
# FP64 arithmetic
# ----------------------------------------------------------------------
def _f64_load(op: Any, names: Sequence[str]) -> tuple[list[int], list[tuple[int, int]]]:
    sl = Slots(op)
    return [sl.ix[n] for n in names], [smod_masks(sl, n, 64) for n in names]


def _load64(src: Sequence[Arr], ix: list[int], masks: list[tuple[int, int]], n: int) -> list[Arr]:
    return [as_f64(bcast(apply_masks(src[i], m, U64), n, U64)) for i, m in zip(ix, masks)]


@compiles(DAddOp)
def _dadd(op: DAddOp) -> OpFn:
    """DADD (PTX ``add.f64``): RN is numpy's float64 add; directed modes move
    the RN sum one ulp by the sign of its exact TwoSum error; an overflow to
    +-inf becomes +-MAX where the mode rounds toward zero."""
    ix, masks = _f64_load(op, ("a", "b"))
    mode = op.mod("rnd") or "rn"

    def fn(src: Sequence[Arr], n: int) -> tuple[Arr, ...]:
        with np.errstate(**_ERR):
            a, b = _load64(src, ix, masks, n)
            if mode == "rn":
                return (canon64(a + b),)
            s, e = two_sum(a, b)
            r = adjust_f64(s, e, mode)
            ovf = np.isinf(s) & np.isfinite(a) & np.isfinite(b)
            r = np.where(ovf, overflow_f64(s, mode), r)
            r = exact_zero_sign(r, (s == 0) & (e == 0), np.signbit(a), np.signbit(b), mode)
            return (canon64(r),)

    return fn


def _per_lane(
    a: Arr, b: Arr, c: Arr, lanes: Arr, r: Arr, mode: str
) -> Arr:
    """Exact per-lane ``a*b + c`` for the lanes in mask ``lanes``."""
    idx = np.nonzero(lanes)[0]
    if idx.size:
        r = r.copy()
        al, bl, cl = a[idx].tolist(), b[idx].tolist(), c[idx].tolist()
        r[idx] = [exact_fma64(x, y, z, mode) for x, y, z in zip(al, bl, cl)]
    return r


@compiles(DMulOp)
def _dmul(op: DMulOp) -> OpFn:
    """DMUL (PTX ``mul.f64``): RN is numpy's float64 multiply; directed modes
    are computed exactly per lane (``Fraction``) for finite operands."""
    ix, masks = _f64_load(op, ("a", "b"))
    mode = op.mod("rnd") or "rn"

    def fn(src: Sequence[Arr], n: int) -> tuple[Arr, ...]:
        with np.errstate(**_ERR):
            a, b = _load64(src, ix, masks, n)
            r = a * b
            if mode != "rn":
                fin = np.isfinite(a) & np.isfinite(b)
                zero = np.zeros_like(a)
                r = _per_lane(a, b, zero, fin & (a != 0) & (b != 0), r, mode)
            return (canon64(r),)

    return fn


_LIM_HI = 2.0**995
_LIM_LO = 2.0**-900


@compiles(DFmaOp)
def _dfma(op: DFmaOp) -> OpFn:
    """DFMA (PTX ``fma.f64``, ISA 9.7.3.5), one rounding.

    RN: Boldo-Melquiond: ``(uh, ul) = TwoProduct(a, b)``, ``(th, tl) =
    TwoSum(c, uh)``, ``d = RN(th + RO(tl + ul))`` (RO = round to odd), which
    equals RN(a*b + c) when nothing overflows or underflows; lanes outside a
    conservative safe range (|a|, |b|, |c|, |a*b| within [2^-900, 2^995], or a
    zero result) and all lanes of directed modes are computed exactly with
    ``Fraction``.  Non-finite operands follow IEEE through float64 arithmetic.
    """
    ix, masks = _f64_load(op, ("a", "b", "c"))
    mode = op.mod("rnd") or "rn"

    def fn(src: Sequence[Arr], n: int) -> tuple[Arr, ...]:
        with np.errstate(**_ERR):
            a, b, c = _load64(src, ix, masks, n)
            finab = np.isfinite(a) & np.isfinite(b)
            fin = finab & np.isfinite(c)
            # finite a*b may overflow float64; exactly it is finite, so an
            # infinite c decides the result.
            special = np.where(finab & np.isinf(c), c, a * b + c)
            if mode != "rn":
                r = special
                return (canon64(_per_lane(a, b, c, fin, r, mode)),)
            uh, ul = two_prod(a, b)
            th, tl = two_sum(c, uh)
            w, we = two_sum(tl, ul)
            r = th + odd64(w, we)
            aa, ab, ac, ap = np.abs(a), np.abs(b), np.abs(c), np.abs(uh)
            safe = (
                fin
                & (aa < _LIM_HI) & (ab < _LIM_HI) & (ac < _LIM_HI) & (ap < _LIM_HI)
                & (aa > _LIM_LO) & (ab > _LIM_LO) & (ap > _LIM_LO)
                & ((ac > _LIM_LO) | (c == 0))
                & (np.abs(r) > _LIM_LO)
            )
            r = np.where(fin, r, special)
            return (canon64(_per_lane(a, b, c, fin & ~safe, r, mode)),)

    return fn


# ----------------------------------------------------------------------
# packed half precision
# ----------------------------------------------------------------------
def half_to_f64(h: Arr, bf16: bool) -> Arr:
    """16-bit patterns (uint32 holding 0..0xffff) -> exact float64 values."""
    if bf16:
        return (np.asarray(h, U32) << U32(16)).view(F32).astype(F64)
    return np.asarray(h, U32).astype(U16).view(F16).astype(F64)


def f64_to_half(v: Arr, bf16: bool) -> Arr:
    """Float64 ``v`` (exact or rounded to odd) -> 16-bit pattern (uint32),
    rounded to nearest even; NaN canonical."""
    v = np.asarray(v, F64)
    if bf16:
        r = v.astype(F32)  # round to odd at f32 (24 >= 8 + 2 bits), then RNE to bf16
        rd = r.astype(F64)
        inexact = rd != v
        r = np.where(np.abs(rd) > np.abs(v), np.nextafter(r, _F32_ZERO), r)
        b = r.view(U32) | inexact.astype(U32)
        h = (b + U32(0x7FFF) + ((b >> U32(16)) & U32(1))) >> U32(16)
    else:
        h = v.astype(F16).view(U16).astype(U32)
    return np.where(np.isnan(v), U32(0x7FFF), h)


def _flush16(h: Arr, bf16: bool) -> Arr:
    exp = U32(0x7F80 if bf16 else 0x7C00)
    return np.where((h & exp) == 0, h & U32(0x8000), h)


def _compile_half2(op: Any, names: Sequence[str], kind: str) -> OpFn:
    sl = Slots(op)
    ix = [sl.ix[n] for n in names]
    masks = [smod_masks(sl, n, halves=True) for n in names]
    bf16 = op.mod("fmt") == "bf16"
    to_f32 = op.has_mod("f32")
    ftz, sat = op.has_mod("ftz"), op.has_mod("sat")

    def lane(words: list[Arr], shift: int) -> Arr:
        vals = []
        for w in words:
            h = (w >> U32(shift)) & U32(0xFFFF)
            if ftz:
                h = _flush16(h, bf16)
            vals.append(half_to_f64(h, bf16))
        if kind == "mul":
            return vals[0] * vals[1]  # exact
        x, y = (vals[0], vals[1]) if kind == "add" else (vals[0] * vals[1], vals[2])
        s, e = two_sum(x, y)
        return odd64(s, e)

    def finish16(v: Arr) -> Arr:
        if sat:
            v = np.where(v > 0, np.minimum(v, 1.0), 0.0)
        h = f64_to_half(v, bf16)
        return _flush16(h, bf16) if ftz else h

    def fn(src: Sequence[Arr], n: int) -> tuple[Arr, ...]:
        with np.errstate(**_ERR):
            words = [apply_masks(src[i], m, U32) for i, m in zip(ix, masks)]
            if to_f32:
                return (_f32_finish(round_to_f32(lane(words, 0), "rn"), ftz, sat, n),)
            lo = finish16(lane(words, 0))
            hi = finish16(lane(words, 16))
            return (bcast(lo | (hi << U32(16)), n, U32),)

    return fn


@compiles(HAdd2Op)
def _hadd2(op: HAdd2Op) -> OpFn:
    """HADD2 (PTX ``add.f16x2``/``add.bf16x2``, ISA 9.7.4): per half, exact
    sum (TwoSum, round to odd) rounded to nearest even; ``neg``/``abs`` act on
    both halves' sign bits; ``f32`` returns element 0 as a float32."""
    return _compile_half2(op, ("a", "b"), "add")


@compiles(HMul2Op)
def _hmul2(op: HMul2Op) -> OpFn:
    """HMUL2 (PTX ``mul.f16x2``/``mul.bf16x2``): exact float64 product, one rounding."""
    return _compile_half2(op, ("a", "b"), "mul")


@compiles(HFma2Op)
def _hfma2(op: HFma2Op) -> OpFn:
    """HFMA2 (PTX ``fma.rn.f16x2``/``bf16x2``): fused, one rounding per half."""
    return _compile_half2(op, ("a", "b", "c"), "fma")


__all__ = [
    "apply_masks",
    "as_f32",
    "as_f64",
    "bits32",
    "bits64",
    "canon32",
    "canon64",
    "f64_to_half",
    "flush32",
    "flush64",
    "frac_to_f64",
    "half_to_f64",
    "odd64",
    "round_to_f32",
    "smod_masks",
    "two_sum",
]
