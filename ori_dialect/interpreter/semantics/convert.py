"""Semantics of conversions (``ori_dialect.ops.convert``; PTX ``cvt``, ISA 9.7.9.21).

Every source value is first made an exact float64 (floats: all narrower
formats embed exactly) or an exact integer; 64-bit integers become the exact
float64 pair ``hi*2^32 + lo`` via TwoSum.  Rounding to the destination then
uses the round-to-odd scheme of ``floating`` (correct in every mode).

Registers: f16/bf16 values live in the low 16 bits of a 32-bit register
(high bits 0); 8/16-bit integer results are sign-extended (signed types) or
zero-extended (unsigned) to 32 bits; 64-bit types use ``np.uint64``.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

import numpy as np

from ori_dialect.interpreter.semantics.floating import (
    F32,
    F64,
    adjust_f64,
    as_f32,
    as_f64,
    canon32,
    canon64,
    f64_to_half,
    flush32,
    half_to_f64,
    odd64,
    round_to_f32,
    two_sum,
)
from ori_dialect.interpreter.semantics.integer import U32, U64, Arr, Slots, bcast
from ori_dialect.interpreter.semantics.registry import OpFn, compiles
from ori_dialect.ops.convert import F2FOp, F2FPOp, F2IOp, I2FOp, I2IOp

I64 = np.int64
_ERR = {"all": "ignore"}
_WIDTH = {"u8": 8, "s8": 8, "u16": 16, "s16": 16, "u32": 32, "s32": 32, "u64": 64, "s64": 64}


def int_value(a: Arr, ty: str) -> Arr:
    """The integer of type ``ty`` in register value ``a``: int64 (uint64 for u64)."""
    w = _WIDTH[ty]
    if w == 64:
        v = np.asarray(a, U64)
        return v.view(I64) if ty == "s64" else v
    v = np.asarray(a).astype(I64) & I64((1 << w) - 1)
    if ty.startswith("s"):
        v = np.where(v >= (1 << (w - 1)), v - (1 << w), v)
    return v


def int_range(ty: str) -> tuple[int, int]:
    w = _WIDTH[ty]
    return (-(1 << (w - 1)), (1 << (w - 1)) - 1) if ty.startswith("s") else (0, (1 << w) - 1)


def int_to_reg(v: Arr, ty: str, n: int) -> Arr:
    """int64/uint64 value (already in ``ty``'s range, or to be truncated) as a
    register: 64-bit types whole, narrower ones extended to 32 bits."""
    w = _WIDTH[ty]
    bits = np.asarray(v).astype(I64).view(U64) if np.asarray(v).dtype != U64 else np.asarray(v)
    if w == 64:
        return bcast(bits, n, U64)
    bits = bits & U64((1 << w) - 1)
    if ty.startswith("s") and w < 32:
        bits = np.where(bits >= U64(1 << (w - 1)), bits | U64(((1 << 32) - 1) ^ ((1 << w) - 1)), bits)
    return bcast((bits & U64(0xFFFFFFFF)).astype(U32), n, U32)


def float_value(a: Arr, ty: str, ftz: bool) -> Arr:
    """The float of type ``ty`` in register value ``a``, exactly as float64
    (``ftz`` flushes denormal f32 sources)."""
    if ty == "f64":
        return as_f64(a).astype(F64)
    if ty == "f32":
        b = np.asarray(a, U32)
        return as_f32(flush32(b) if ftz else b).astype(F64)
    return half_to_f64(np.asarray(a, U32) & U32(0xFFFF), ty == "bf16")


def _step16(h: Arr, direction: str) -> Arr:
    """Neighbour of 16-bit float pattern ``h`` toward -inf ("down"), +inf
    ("up") or zero ("zero")."""
    neg = (h & U32(0x8000)) != 0
    mag = h & U32(0x7FFF)
    if direction == "zero":
        return np.where(mag == 0, h, h - U32(1))
    if direction == "up":
        return np.where(h == U32(0x8000), U32(1), np.where(neg, h - U32(1), h + U32(1)))
    return np.where(h == U32(0), U32(0x8001), np.where(neg, h + U32(1), h - U32(1)))


def round_float(s: Arr, e: Arr, ty: str, mode: str) -> Arr:
    """Exact value ``s + e`` rounded to float type ``ty`` in ``mode``: bit
    patterns (uint64 for f64, uint32 otherwise; NaN canonical)."""
    if ty == "f64":
        return canon64(adjust_f64(s, e, mode))
    v = odd64(s, e)
    if ty == "f32":
        return canon32(round_to_f32(v, mode))
    bf16 = ty == "bf16"
    h = f64_to_half(v, bf16)
    if mode != "rn":
        hv = half_to_f64(h, bf16)
        fin = ~np.isnan(v)
        if mode == "rm":
            h = np.where(fin & (hv > v), _step16(h, "down"), h)
        elif mode == "rp":
            h = np.where(fin & (hv < v), _step16(h, "up"), h)
        else:
            h = np.where(fin & (np.abs(hv) > np.abs(v)), _step16(h, "zero"), h)
    return h


def _round_integral(x: Arr, mode: str) -> Arr:
    if mode == "rn":
        return np.rint(x)
    if mode == "rm":
        return np.floor(x)
    if mode == "rp":
        return np.ceil(x)
    return np.trunc(x)


@compiles(I2FOp)
def _i2f(op: I2FOp) -> OpFn:
    """I2F (PTX ``cvt.rn/rz/rm/rp.f*.s*/u*``): integer to float, correctly
    rounded in ``rnd`` (exact float64 pair, round to odd, final rounding)."""
    src_t, dst_t = op.mod("src") or "s32", op.mod("dst") or "f32"
    mode = op.mod("rnd") or "rn"
    ia = Slots(op).ix["a"]
    wide = _WIDTH[src_t] == 64
    signed = src_t == "s64"

    def fn(src: Sequence[Arr], n: int) -> tuple[Arr, ...]:
        with np.errstate(**_ERR):
            a = src[ia]
            if wide:
                b = bcast(a, n, U64)
                hi = (b >> U64(32)).astype(U32)
                hif = hi.view(np.int32).astype(F64) if signed else hi.astype(F64)
                s, e = two_sum(hif * 4294967296.0, (b & U64(0xFFFFFFFF)).astype(F64))
            else:
                s = bcast(int_value(a, src_t), n, I64).astype(F64)
                e = np.zeros(n, F64)
            return (round_float(s, e, dst_t, mode),)

    return fn


@compiles(F2IOp)
def _f2i(op: F2IOp) -> OpFn:
    """F2I (PTX ``cvt.rni/rzi/rmi/rpi.s*/u*.f*``): round to an integer in
    ``rnd`` (``rn`` = nearest even, ``rz`` = truncate), saturate to the
    destination range (always, as PTX float-to-int ``cvt``), NaN -> 0."""
    src_t, dst_t = op.mod("src") or "f32", op.mod("dst") or "s32"
    mode = op.mod("rnd") or "rn"
    ftz = op.has_mod("ftz")
    ia = Slots(op).ix["a"]
    lo, hi = int_range(dst_t)
    w = _WIDTH[dst_t]

    def fn(src: Sequence[Arr], n: int) -> tuple[Arr, ...]:
        with np.errstate(**_ERR):
            x = _round_integral(bcast(float_value(src[ia], src_t, ftz), n, F64), mode)
            x = np.where(np.isnan(x), 0.0, x)
            if w == 64 and dst_t == "u64":
                big = x >= 2.0**64
                v = np.where(big | (x < 0), 0.0, x).astype(U64)
                v = np.where(big, U64((1 << 64) - 1), v)
            elif w == 64:
                big = x >= 2.0**63
                v = np.where(big, 0.0, np.maximum(x, -(2.0**63))).astype(I64)
                v = np.where(big, I64((1 << 63) - 1), v)
            else:
                v = np.clip(x, lo, hi).astype(I64)
            return (int_to_reg(v, dst_t, n),)

    return fn


@compiles(F2FOp)
def _f2f(op: F2FOp) -> OpFn:
    """F2F (PTX ``cvt.f*.f*``): float to float, rounded in ``rnd``.  ``int``
    first rounds to an integral value in ``rnd`` (PTX ``cvt.rni``/``rzi``...
    ``.f32.f32``); a narrowing conversion then rounds that value in ``rnd``
    too.  ``ftz`` flushes denormal f32 sources and results; ``sat`` clamps
    to [+0, 1] with NaN -> +0."""
    src_t, dst_t = op.mod("src") or "f32", op.mod("dst") or "f32"
    mode = op.mod("rnd") or "rn"
    ftz, sat, integral = op.has_mod("ftz"), op.has_mod("sat"), op.has_mod("int")
    ia = Slots(op).ix["a"]

    def fn(src: Sequence[Arr], n: int) -> tuple[Arr, ...]:
        with np.errstate(**_ERR):
            x = bcast(float_value(src[ia], src_t, ftz), n, F64)
            if integral:
                x = _round_integral(x, mode)
            if sat:
                x = np.where(x > 0, np.minimum(x, 1.0), 0.0)
            r = round_float(x, np.zeros(n, F64), dst_t, mode)
            if ftz and dst_t == "f32":
                r = flush32(r)
            return (r,)

    return fn


@compiles(F2FPOp)
def _f2fp(op: F2FPOp) -> OpFn:
    """F2FP.PACK_AB (PTX ``cvt.rn.f16x2.f32 d, a, b``): ``a`` and ``b``
    rounded to nearest even to f16 (``bf16``: bf16), ``a`` in the upper 16
    bits, ``b`` in the lower."""
    dst_t = op.mod("dst") or "f16"
    sl = Slots(op)
    ia, ib = sl.ix["a"], sl.ix["b"]

    def fn(src: Sequence[Arr], n: int) -> tuple[Arr, ...]:
        with np.errstate(**_ERR):
            hi, lo = (round_float(bcast(float_value(src[i], "f32", False), n, F64),
                                  np.zeros(n, F64), dst_t, "rn").astype(U32) for i in (ia, ib))
            return (((hi & U32(0xFFFF)) << U32(16)) | (lo & U32(0xFFFF)),)

    return fn


@compiles(I2IOp)
def _i2i(op: I2IOp) -> OpFn:
    """I2I (PTX ``cvt.s*/u*.s*/u*``): the source integer of type ``src``
    (narrow types read from the low bits) converted to ``dst``.  Without
    ``sat`` it is truncated to the destination width; with ``sat`` clamped
    to the destination range.  The result is sign/zero-extended to 32 bits
    for types narrower than 32."""
    src_t, dst_t = op.mod("src") or "s32", op.mod("dst") or "s32"
    sat = op.has_mod("sat")
    ia = Slots(op).ix["a"]
    lo, hi = int_range(dst_t)

    def fn(src: Sequence[Arr], n: int) -> tuple[Arr, ...]:
        v: Any = int_value(src[ia], src_t)
        if sat:
            if v.dtype == U64:
                v = np.minimum(v, U64(hi))
                if dst_t != "u64":
                    v = v.astype(I64)
            else:
                v = np.clip(v, max(lo, -(1 << 63)), min(hi, (1 << 63) - 1))
        return (int_to_reg(v, dst_t, n),)

    return fn


__all__ = ["int_range", "int_value", "round_float"]
_ = F32
