"""Interpreter semantics of the floating-point ops, compares and conversions,
checked against an independent exact reference: ``fractions.Fraction``
arithmetic rounded by integer arithmetic to the target format in each IEEE
rounding mode (no float arithmetic in the reference)."""

from __future__ import annotations

import itertools
import math
import struct
from collections.abc import Sequence
from fractions import Fraction
from typing import Any

import numpy as np
import pytest

from ori_dialect.interpreter.semantics.floating import NAN32
from ori_dialect.ops.convert import F2FOp, F2IOp, I2FOp
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
from ori_dialect.ops.predicate import DSetPOp, FSetPOp
from tests.interpreter.test_semantics_int import R32, R64, P, rand32, run

MODES = ["rn", "rm", "rp", "rz"]
# (mantissa bits incl. hidden, min normal exponent, max exponent)
FMT = {"f64": (53, -1022, 1023), "f32": (24, -126, 127), "f16": (11, -14, 15), "bf16": (8, -126, 127)}


# ----------------------------------------------------------------------
# the reference
# ----------------------------------------------------------------------
def ref_round(q: Fraction, mode: str, fmt: str) -> float:
    """Nonzero exact ``q`` rounded to ``fmt`` in ``mode`` (returned as a Python
    float, which holds every value of every format exactly)."""
    p, emin, emax = FMT[fmt]
    neg = q < 0
    x = -q if neg else q
    e = x.numerator.bit_length() - x.denominator.bit_length()
    if Fraction(2) ** e > x:
        e -= 1
    e = max(e, emin)
    ulp = Fraction(2) ** (e - p + 1)
    m = x / ulp
    k = m.numerator // m.denominator
    rem = m - k
    if rem:
        up = {
            "rn": rem > Fraction(1, 2) or (rem == Fraction(1, 2) and k % 2 == 1),
            "rz": False,
            "rp": not neg,
            "rm": neg,
        }[mode]
        k += up
    v = k * ulp
    vmax = (2 - Fraction(2) ** (1 - p)) * Fraction(2) ** emax
    if v > vmax:
        to_inf = mode == "rn" or (mode == "rp" and not neg) or (mode == "rm" and neg)
        r = math.inf if to_inf else float(vmax)
    else:
        r = float(v)
    return -r if neg else r


def ref_sum_zero(x_neg: bool, y_neg: bool, mode: str) -> float:
    neg = (x_neg or y_neg) if mode == "rm" else (x_neg and y_neg)
    return -0.0 if neg else 0.0


def f2b(v: float, fmt: str) -> int:
    if math.isnan(v):
        return {"f64": 0x7FFFFFFFFFFFFFFF, "f32": 0x7FFFFFFF}.get(fmt, 0x7FFF)
    if fmt == "f64":
        return struct.unpack("<Q", struct.pack("<d", v))[0]
    if fmt == "f32":
        return struct.unpack("<I", struct.pack("<f", v))[0]
    if fmt == "f16":
        return struct.unpack("<H", struct.pack("<e", v))[0]
    return struct.unpack("<I", struct.pack("<f", v))[0] >> 16


def b2f(b: int, fmt: str) -> float:
    if fmt == "f64":
        return struct.unpack("<d", struct.pack("<Q", b))[0]
    if fmt == "f32":
        return struct.unpack("<f", struct.pack("<I", b))[0]
    if fmt == "f16":
        return struct.unpack("<e", struct.pack("<H", b))[0]
    return struct.unpack("<f", struct.pack("<I", b << 16))[0]


def is_denormal(v: float, fmt: str) -> bool:
    return v != 0 and math.isfinite(v) and abs(v) < 2.0 ** FMT[fmt][1]


def ftz(v: float, fmt: str) -> float:
    return math.copysign(0.0, v) if is_denormal(v, fmt) else v


def ref_fma(x: float, y: float, z: float, mode: str, fmt: str) -> float:
    """Correctly rounded x*y + z (IEEE special cases via float semantics)."""
    if not (math.isfinite(x) and math.isfinite(y) and math.isfinite(z)):
        if math.isnan(x) or math.isnan(y) or math.isnan(z):
            return math.nan
        if (math.isinf(x) and y == 0) or (math.isinf(y) and x == 0):
            return math.nan
        prod_inf = math.isinf(x) or math.isinf(y)
        if prod_inf:
            s = math.copysign(1.0, x) * math.copysign(1.0, y)
            if math.isinf(z) and math.copysign(1.0, z) != s:
                return math.nan
            return s * math.inf
        return z
    q = Fraction(x) * Fraction(y) + Fraction(z)
    if q == 0:
        pneg = (math.copysign(1.0, x) < 0) != (math.copysign(1.0, y) < 0)
        return ref_sum_zero(pneg, math.copysign(1.0, z) < 0, mode)
    return ref_round(q, mode, fmt)


def ref_add(x: float, y: float, mode: str, fmt: str) -> float:
    return ref_fma(x, 1.0, y, mode, fmt)


def ref_mul(x: float, y: float, mode: str, fmt: str) -> float:
    if math.isfinite(x) and math.isfinite(y) and x != 0 and y != 0:
        return ref_round(Fraction(x) * Fraction(y), mode, fmt)
    return x * y  # exact for zeros and IEEE for inf/NaN


# ----------------------------------------------------------------------
# inputs
# ----------------------------------------------------------------------
EDGE_F32 = [
    0.0, -0.0, 1.0, -1.0, 0.5, 1.5, 2.5, math.inf, -math.inf, math.nan,
    3.4028234663852886e38, -3.4028234663852886e38, 1.1754943508222875e-38,
    1.401298464324817e-45, -1.401298464324817e-45, 5.877471754111438e-39,
    1.0000001192092896, 0.9999999403953552, 16777216.0, 16777217.0,
]


def rand_f32(rng: np.random.Generator, n: int, near: bool = True) -> np.ndarray:
    """Float32 bit patterns: random bits, values of similar magnitude (so sums
    cancel and round), and edge values."""
    bits = rand32(rng, n)
    if near:
        k = n // 3
        e = rng.integers(120, 135, k).astype(np.uint32)
        bits[:k] = (bits[:k] & np.uint32(0x807FFFFF)) | (e << np.uint32(23))
    k = min(len(EDGE_F32), n // 3)
    bits[-k:] = np.array(EDGE_F32[:k], np.float32).view(np.uint32)
    rng.shuffle(bits)
    return bits


def f32s(bits: np.ndarray) -> list[float]:
    with np.errstate(all="ignore"):  # signalling NaN patterns
        return bits.view(np.float32).astype(np.float64).tolist()


def f64s(bits: np.ndarray) -> list[float]:
    return bits.view(np.float64).tolist()


def check(got: np.ndarray, want: Sequence[float], fmt: str, ctx: Any = "") -> None:
    for i, w in enumerate(want):
        assert int(got[i]) == f2b(w, fmt), (ctx, i, hex(int(got[i])), w)


# ----------------------------------------------------------------------
# FP32 arithmetic
# ----------------------------------------------------------------------
@pytest.mark.parametrize("mode", MODES)
@pytest.mark.parametrize("flags", ["", "ftz", "sat", "ftz.sat"])
def test_fadd_fmul(mode: str, flags: str) -> None:
    rng = np.random.default_rng(7)
    n = 300
    a, b = rand_f32(rng, n), rand_f32(rng, n)
    mods = ".".join(x for x in (mode, flags) if x)
    fz, sat = "ftz" in flags, "sat" in flags
    for cls, ref in ((FAddOp, ref_add), (FMulOp, ref_mul)):
        (d,) = run(cls, [a, b], [R32], mods=mods)
        want = []
        for x, y in zip(f32s(a), f32s(b)):
            if fz:
                x, y = ftz(x, "f32"), ftz(y, "f32")
            r = ref(x, y, mode, "f32")
            if sat:
                r = 0.0 if math.isnan(r) or r <= 0 else min(r, 1.0)
            want.append(ftz(r, "f32") if fz else r)
        check(d, want, "f32", (cls.name, mods))


def _ffma_inputs(rng: np.random.Generator, n: int) -> tuple[np.ndarray, np.ndarray, np.ndarray]:
    a, b, c = rand_f32(rng, n), rand_f32(rng, n), rand_f32(rng, n)
    # Adversarial: c = -(a*b rounded to float32) +- tiny, so the exact result
    # is the product's rounding error (cancellation), and c chosen so that
    # a*b + c lies at or next to a float32 midpoint.
    af, bf = a.view(np.float32), b.view(np.float32)
    k = n // 3
    with np.errstate(all="ignore"):
        c[:k] = (-(af[:k] * bf[:k])).view(np.uint32)
        prod = af[k : 2 * k].astype(np.float64) * bf[k : 2 * k].astype(np.float64)
        c[k : 2 * k] = (np.float32(1.0) + np.float32(2.0**-23) * rng.integers(0, 4, k).astype(np.float32)).view(np.uint32)
        a[k : 2 * k] = np.float32(1.0 + 2.0**-12).view(np.uint32)
        b[k : 2 * k] = (np.float32(2.0**-12) + np.float32(2.0**-24) * rng.integers(-2, 3, k).astype(np.float32)).view(np.uint32)
        _ = prod
    return a, b, c


@pytest.mark.parametrize("mode", MODES)
@pytest.mark.parametrize("flags", ["", "ftz"])
def test_ffma_exact(mode: str, flags: str) -> None:
    rng = np.random.default_rng(11)
    a, b, c = _ffma_inputs(rng, 360)
    mods = ".".join(x for x in (mode, flags) if x)
    (d,) = run(FFmaOp, [a, b, c], [R32], mods=mods)
    want = []
    for x, y, z in zip(f32s(a), f32s(b), f32s(c)):
        if flags:
            x, y, z = ftz(x, "f32"), ftz(y, "f32"), ftz(z, "f32")
        r = ref_fma(x, y, z, mode, "f32")
        want.append(ftz(r, "f32") if flags else r)
    check(d, want, "f32", mods)


def test_fma_double_rounding_cases() -> None:
    """Exact results just off a rounding midpoint whose float64 rounding lands
    exactly on it: a naive "fma in float64, then round" double-rounds."""
    # f32: a*b = 2^-24 - 2^-60, c = 1 + 2^-23: exact = midpoint - 2^-60 -> 1 + 2^-23
    a = np.array([2.0**-24 * (1 + 2.0**-18), -(2.0**-24) * (1 + 2.0**-18)], np.float32).view(np.uint32)
    b = np.array([1 - 2.0**-18] * 2, np.float32).view(np.uint32)
    c = np.array([1 + 2.0**-23, -(1 + 2.0**-23)], np.float32).view(np.uint32)
    (d,) = run(FFmaOp, [a, b, c], [R32])
    assert d.tolist() == [0x3F800001, 0xBF800001]
    # f64: (1 + 2^-30)^2 - (2^-29 - 2^-53) = 1 + 2^-53 + 2^-60 -> 1 + 2^-52
    x = np.array([1 + 2.0**-30], np.float64).view(np.uint64)
    z = np.array([-(2.0**-29 - 2.0**-53)], np.float64).view(np.uint64)
    (d,) = run(DFmaOp, [x, x, z], [R64])
    assert d.view(np.float64)[0] == 1 + 2.0**-52


def test_fp32_source_modifiers_and_nan() -> None:
    a = np.array([1.5, -2.0, np.nan, 0.0], np.float32).view(np.uint32)
    b = np.array([0.25, 0.25, 1.0, -0.0], np.float32).view(np.uint32)
    (d,) = run(FAddOp, [a, b], [R32], smods={"a": "neg.abs", "b": "neg"})
    assert d.tolist() == [f2b(-1.75, "f32"), f2b(-2.25, "f32"), int(NAN32), f2b(0.0, "f32")]


def test_fmnmx() -> None:
    vals = [0.0, -0.0, 1.0, -1.0, math.nan, math.inf, -math.inf, 1.1754943508222875e-38 / 4]
    pairs = list(itertools.product(vals, vals))
    a = np.array([p[0] for p in pairs], np.float32).view(np.uint32)
    b = np.array([p[1] for p in pairs], np.float32).view(np.uint32)
    for sel, fz in itertools.product((True, False), (False, True)):
        s = np.full(len(pairs), sel)
        (d,) = run(FMnMxOp, [a, b, s], [R32], mods="ftz" if fz else "")
        for i, (x, y) in enumerate(pairs):
            if fz:
                x, y = ftz(x, "f32"), ftz(y, "f32")
            if math.isnan(x) and math.isnan(y):
                w = math.nan
            elif math.isnan(x) or math.isnan(y):
                w = y if math.isnan(x) else x
            elif x == y:  # signed zeros: -0 < +0
                w = (x if math.copysign(1, x) < 0 else y) if sel else (x if math.copysign(1, x) > 0 else y)
            else:
                w = min(x, y) if sel else max(x, y)
            assert int(d[i]) == f2b(w, "f32"), (x, y, sel)


# ----------------------------------------------------------------------
# MUFU
# ----------------------------------------------------------------------
_MUFU_CASES: dict[str, list[tuple[float, float]]] = {
    "rcp": [(2.0, 0.5), (0.0, math.inf), (-0.0, -math.inf), (math.inf, 0.0), (-4.0, -0.25), (math.nan, math.nan)],
    "rsq": [(4.0, 0.5), (0.0, math.inf), (-0.0, -math.inf), (-1.0, math.nan), (math.inf, 0.0)],
    "sqrt": [(4.0, 2.0), (-0.0, -0.0), (-1.0, math.nan), (math.inf, math.inf), (2.0, float(np.float32(math.sqrt(2))))],
    "sin": [(0.25, 1.0), (0.5, 0.0), (-0.25, -1.0), (-0.0, -0.0), (math.inf, math.nan), (3.0, 0.0), (0.75, -1.0)],
    "cos": [(0.0, 1.0), (0.5, -1.0), (0.25, 0.0), (1.0, 1.0), (-math.inf, math.nan)],
    "ex2": [(3.0, 8.0), (-1.0, 0.5), (-math.inf, 0.0), (math.inf, math.inf), (200.0, math.inf), (-200.0, 0.0)],
    "lg2": [(8.0, 3.0), (0.0, -math.inf), (-0.0, -math.inf), (-1.0, math.nan), (math.inf, math.inf)],
    "tanh": [(0.0, 0.0), (-0.0, -0.0), (100.0, 1.0), (-math.inf, -1.0)],
}


@pytest.mark.parametrize("func", list(_MUFU_CASES))
def test_mufu_values(func: str) -> None:
    cases = _MUFU_CASES[func]
    a = np.array([c[0] for c in cases], np.float32).view(np.uint32)
    (d,) = run(MufuOp, [a], [R32], mods=func)
    check(d, [c[1] for c in cases], "f32", func)


def test_mufu_correctly_rounded_and_seeds() -> None:
    rng = np.random.default_rng(3)
    a = (rng.random(50) * 10 + 0.1).astype(np.float32)
    (d,) = run(MufuOp, [a.view(np.uint32)], [R32], mods="rcp")
    for i, x in enumerate(a.tolist()):
        assert int(d[i]) == f2b(ref_round(1 / Fraction(x), "rn", "f32"), "f32")
    hi = np.array([0x40000000, 0x3FF00000, 0x40100000], np.uint32)  # 2.0, 1.0, 4.0
    (r,) = run(MufuOp, [hi], [R32], mods="rcp64h")
    assert r.tolist() == [0x3FE00000, 0x3FF00000, 0x3FD00000]
    (r,) = run(MufuOp, [hi], [R32], mods="rsq64h")
    assert r.tolist()[1:] == [0x3FF00000, 0x3FE00000]
    den = np.array([1e-40, -1e-40], np.float32).view(np.uint32)
    (r,) = run(MufuOp, [den], [R32], mods="rcp.ftz")
    assert r.tolist() == [f2b(math.inf, "f32"), f2b(-math.inf, "f32")]


# ----------------------------------------------------------------------
# FP64
# ----------------------------------------------------------------------
EDGE_F64 = [0.0, -0.0, 1.0, -1.0, math.inf, -math.inf, math.nan, 1.7976931348623157e308,
            -1.7976931348623157e308, 5e-324, -5e-324, 2.2250738585072014e-308, 1 + 2.0**-52]


def rand_f64(rng: np.random.Generator, n: int) -> np.ndarray:
    bits = rng.integers(0, 1 << 64, n, dtype=np.uint64)
    k = n // 2
    e = rng.integers(1013, 1033, k).astype(np.uint64)
    bits[:k] = (bits[:k] & np.uint64(0x800FFFFFFFFFFFFF)) | (e << np.uint64(52))
    bits[-len(EDGE_F64):] = np.array(EDGE_F64, np.float64).view(np.uint64)
    rng.shuffle(bits)
    return bits


@pytest.mark.parametrize("mode", MODES)
def test_dadd_dmul(mode: str) -> None:
    rng = np.random.default_rng(5)
    a, b = rand_f64(rng, 200), rand_f64(rng, 200)
    # exact cancellation and overflow cases
    b[:10] = (-a.view(np.float64)[:10]).view(np.uint64)
    a[10:14] = np.float64(1.7976931348623157e308).view(np.uint64)
    b[10:14] = np.float64(1.7976931348623157e308 / 2**52).view(np.uint64)
    for cls, ref in ((DAddOp, ref_add), (DMulOp, ref_mul)):
        (d,) = run(cls, [a, b], [R64], mods=mode)
        check(d, [ref(x, y, mode, "f64") for x, y in zip(f64s(a), f64s(b))], "f64", (cls.name, mode))


@pytest.mark.parametrize("mode", MODES)
def test_dfma_exact(mode: str) -> None:
    rng = np.random.default_rng(9)
    n = 240
    a, b, c = rand_f64(rng, n), rand_f64(rng, n), rand_f64(rng, n)
    af, bf = a.view(np.float64), b.view(np.float64)
    with np.errstate(all="ignore"):
        c[:60] = (-(af[:60] * bf[:60])).view(np.uint64)  # result = product's rounding error
        # midpoint neighbourhood: (1+2^-27)^2 = 1 + 2^-26 + 2^-54 (midpoint-adjacent)
        a[60:90] = np.float64(1 + 2.0**-27).view(np.uint64)
        b[60:90] = (np.float64(1 + 2.0**-27) + rng.integers(-3, 4, 30) * 2.0**-52).view(np.uint64)
        c[60:90] = (np.float64(-(2.0**-26)) * rng.integers(0, 2, 30)).view(np.uint64)
        # tiny results (underflow) and huge products
        a[90:100] = np.float64(2.0**-540).view(np.uint64)
        b[90:100] = (np.float64(2.0**-530) * (1 + rng.random(10))).view(np.uint64)
        a[100:105] = np.float64(2.0**600).view(np.uint64)
        b[100:105] = np.float64(2.0**430).view(np.uint64)
        c[100:105] = np.float64(-1.7976931348623157e308).view(np.uint64)
    (d,) = run(DFmaOp, [a, b, c], [R64], mods=mode)
    want = [ref_fma(x, y, z, mode, "f64") for x, y, z in zip(f64s(a), f64s(b), f64s(c))]
    check(d, want, "f64", mode)


def test_dfma_source_modifiers() -> None:
    a = np.array([2.0, 3.0], np.float64).view(np.uint64)
    (d,) = run(DFmaOp, [a, a, a], [R64], smods={"a": "neg", "c": "abs"})
    assert d.view(np.float64).tolist() == [-2.0, -6.0]


# ----------------------------------------------------------------------
# packed halves
# ----------------------------------------------------------------------
def _halves(rng: np.random.Generator, n: int, bf16: bool) -> np.ndarray:
    h = rng.integers(0, 1 << 16, (n, 2), dtype=np.uint32)
    k = n // 2
    e = rng.integers(12, 18, (k, 2)).astype(np.uint32) if not bf16 else rng.integers(122, 132, (k, 2)).astype(np.uint32)
    h[:k] = (h[:k] & np.uint32(0x83FF if not bf16 else 0x807F)) | (e << np.uint32(10 if not bf16 else 7))
    edges = [0x0000, 0x8000, 0x0001, 0x7C00 if not bf16 else 0x7F80, 0x3C00 if not bf16 else 0x3F80]
    h[-len(edges):, 0] = edges
    return h[:, 0] | (h[:, 1] << np.uint32(16))


@pytest.mark.parametrize("fmt", ["f16", "bf16"])
@pytest.mark.parametrize("kind", ["add", "mul", "fma"])
@pytest.mark.parametrize("flags", ["", "ftz.sat", "f32"])
def test_half2(fmt: str, kind: str, flags: str) -> None:
    rng = np.random.default_rng(13)
    n = 120
    cls = {"add": HAdd2Op, "mul": HMul2Op, "fma": HFma2Op}[kind]
    srcs = [_halves(rng, n, fmt == "bf16") for _ in range(3 if kind == "fma" else 2)]
    smods = {"a": "neg"} if kind == "add" else {"b": "abs"}
    mods = ".".join(x for x in ("bf16" if fmt == "bf16" else "", flags) if x)
    (d,) = run(cls, srcs, [R32], mods=mods, smods=smods)
    fz, sat, to32 = "ftz" in flags, "sat" in flags, "f32" in flags
    for i in range(n):
        out = 0
        for lane in (0, 1):
            vals = []
            for name, w in zip("abc", srcs):
                h = (int(w[i]) >> (16 * lane)) & 0xFFFF
                m = smods.get(name, "")
                if "abs" in m:
                    h &= 0x7FFF
                if "neg" in m:
                    h ^= 0x8000
                v = b2f(h, fmt)
                vals.append(ftz(v, fmt) if fz else v)
            tfmt = "f32" if to32 else fmt
            if kind == "add":
                r = ref_add(vals[0], vals[1], "rn", tfmt)
            elif kind == "mul":
                r = ref_mul(vals[0], vals[1], "rn", tfmt)
            else:
                r = ref_fma(vals[0], vals[1], vals[2], "rn", tfmt)
            if sat:
                r = 0.0 if math.isnan(r) or r <= 0 else min(r, 1.0)
            if fz:
                r = ftz(r, tfmt)
            if to32:
                out = f2b(r, "f32")
                break
            out |= f2b(r, fmt) << (16 * lane)
        assert int(d[i]) == out, (cls.name, mods, i, hex(int(srcs[0][i])), hex(int(d[i])), hex(out))


# ----------------------------------------------------------------------
# compares
# ----------------------------------------------------------------------
def _fcmp(cmp: str, x: float, y: float) -> bool:
    unord = math.isnan(x) or math.isnan(y)
    if cmp in ("f", "t"):
        return cmp == "t"
    if cmp == "num":
        return not unord
    if cmp == "nan":
        return unord
    base = cmp[:2]
    if unord:
        return cmp.endswith("u")
    return {"lt": x < y, "eq": x == y, "le": x <= y, "gt": x > y, "ne": x != y, "ge": x >= y}[base]


FCMPS = ["f", "lt", "eq", "le", "gt", "ne", "ge", "num", "nan", "ltu", "equ", "leu", "gtu", "neu", "geu", "t"]


@pytest.mark.parametrize("cmp", FCMPS)
def test_fsetp_dsetp(cmp: str) -> None:
    vals = [0.0, -0.0, 1.0, -1.0, math.nan, math.inf, -math.inf, 1e-40, 2.5]
    pairs = list(itertools.product(vals, vals))
    xs, ys = [p[0] for p in pairs], [p[1] for p in pairs]
    c = np.array([i % 3 != 0 for i in range(len(pairs))])
    a32, b32 = np.array(xs, np.float32).view(np.uint32), np.array(ys, np.float32).view(np.uint32)
    a64, b64 = np.array(xs, np.float64).view(np.uint64), np.array(ys, np.float64).view(np.uint64)
    for bop, f in (("and", lambda r, z: r and z), ("or", lambda r, z: r or z), ("xor", lambda r, z: r != z)):
        p, q = run(FSetPOp, [a32, b32, c], [P, P], mods=f"{cmp}.{bop}")
        pz, _ = run(FSetPOp, [a32, b32, c], [P, P], mods=f"{cmp}.{bop}.ftz")
        pd, qd = run(DSetPOp, [a64, b64, c], [P, P], mods=f"{cmp}.{bop}")
        for i, (x, y) in enumerate(pairs):
            x32, y32 = float(np.float32(x)), float(np.float32(y))
            r = _fcmp(cmp, x32, y32)
            assert p[i] == f(r, c[i]) and q[i] == f(not r, c[i])
            assert pz[i] == f(_fcmp(cmp, ftz(x32, "f32"), ftz(y32, "f32")), c[i])
            rd = _fcmp(cmp, x, y)
            assert pd[i] == f(rd, c[i]) and qd[i] == f(not rd, c[i])
    (p,) = run(FSetPOp, [a32, b32, c], [P], mods=f"{cmp}.and", smods={"a": "neg.abs"})
    for i, (x, _y) in enumerate(pairs):
        assert p[i] == (_fcmp(cmp, -abs(float(np.float32(x))), float(np.float32(ys[i]))) and c[i])


# ----------------------------------------------------------------------
# conversions
# ----------------------------------------------------------------------
_ITYPES = ["u8", "s8", "u16", "s16", "u32", "s32", "u64", "s64"]


def _ival(bits: int, ty: str) -> int:
    w = int(ty[1:])
    v = bits & ((1 << w) - 1)
    return v - (1 << w) if ty[0] == "s" and v >> (w - 1) else v


@pytest.mark.parametrize("dst", ["f16", "bf16", "f32", "f64"])
@pytest.mark.parametrize("src", _ITYPES)
def test_i2f(dst: str, src: str) -> None:
    rng = np.random.default_rng(17)
    wide = src.endswith("64")
    if wide:
        a = rng.integers(0, 1 << 64, 40, dtype=np.uint64)
        a[:6] = [0, 1, (1 << 64) - 1, 1 << 63, (1 << 53) + 1, (1 << 63) - 1]
        a[6:20] >>= rng.integers(0, 64, 14).astype(np.uint64)
    else:
        a = rand32(rng, 40)
    for mode in MODES:
        (d,) = run(I2FOp, [a], [R64 if dst == "f64" else R32], mods=f"{dst}.{src}.{mode}")
        want = []
        for x in a.tolist():
            v = _ival(x, src)
            want.append(ref_round(Fraction(v), mode, dst) if v else 0.0)
        check(d, want, dst, (src, dst, mode))


def _f2i_ref(x: float, mode: str, ty: str) -> int:
    if math.isnan(x):
        return 0
    w = int(ty[1:])
    lo, hi = (-(1 << (w - 1)), (1 << (w - 1)) - 1) if ty[0] == "s" else (0, (1 << w) - 1)
    if math.isinf(x):
        v = hi if x > 0 else lo
    else:
        q = Fraction(x)
        fl = math.floor(q)
        v = {"rm": fl, "rp": math.ceil(q), "rz": math.trunc(q)}.get(mode)
        if v is None:
            rem = q - fl
            v = fl + (rem > Fraction(1, 2) or (rem == Fraction(1, 2) and fl % 2 == 1))
        v = min(max(v, lo), hi)
    return v & ((1 << (64 if w == 64 else 32)) - 1)


@pytest.mark.parametrize("dst", _ITYPES)
@pytest.mark.parametrize("src", ["f16", "bf16", "f32", "f64"])
def test_f2i(dst: str, src: str) -> None:
    rng = np.random.default_rng(19)
    n = 60
    specials = [0.5, 1.5, 2.5, -0.5, -1.5, -2.5, 255.5, -128.5, 65535.7, math.nan, math.inf, -math.inf,
                2.0**63, -(2.0**63), 2.0**64, 4294967295.5, -1e-40, 1e-40]
    vals = np.concatenate([rng.standard_normal(n - len(specials)) * 10.0 ** rng.integers(0, 20, n - len(specials)),
                           np.array(specials)])
    if src == "f64":
        a: np.ndarray = vals.view(np.uint64)
    elif src == "f32":
        a = vals.astype(np.float32).view(np.uint32)
    elif src == "f16":
        with np.errstate(all="ignore"):
            a = vals.astype(np.float16).view(np.uint16).astype(np.uint32)
    else:
        a = (vals.astype(np.float32).view(np.uint32) >> np.uint32(16)).astype(np.uint32)
    xs = [b2f(int(b), src) for b in a.tolist()]
    for mode in MODES:
        for fz in (False, True):
            mods = f"{dst}.{src}.{mode}" + (".ftz" if fz else "")
            (d,) = run(F2IOp, [a], [R64 if dst.endswith("64") else R32], mods=mods)
            for i, x in enumerate(xs):
                if fz and src == "f32":
                    x = ftz(x, "f32")
                assert int(d[i]) == _f2i_ref(x, mode, dst), (mods, x)


FTYPES = ["f16", "bf16", "f32", "f64"]


@pytest.mark.parametrize("dst,src", list(itertools.product(FTYPES, FTYPES)))
def test_f2f(dst: str, src: str) -> None:
    rng = np.random.default_rng(23)
    vals = np.concatenate([rng.standard_normal(30) * 10.0 ** rng.integers(-45, 45, 30),
                           np.array([0.0, -0.0, 0.5, 2.5, -3.5, 1e-40, 70000.0, math.inf, math.nan, 1 / 3])])
    with np.errstate(all="ignore"):
        if src == "f64":
            a: np.ndarray = vals.view(np.uint64)
        elif src == "f32":
            a = vals.astype(np.float32).view(np.uint32)
        elif src == "f16":
            a = vals.astype(np.float16).view(np.uint16).astype(np.uint32)
        else:
            a = (vals.astype(np.float32).view(np.uint32) >> np.uint32(16)).astype(np.uint32)
    xs = [b2f(int(b), src) for b in a.tolist()]
    for mode, integral, sat in itertools.product(MODES, (False, True), (False, True)):
        mods = f"{dst}.{src}.{mode}" + (".int" if integral else "") + (".sat" if sat else "")
        (d,) = run(F2FOp, [a], [R64 if dst == "f64" else R32], mods=mods)
        for i, x in enumerate(xs):
            r = x
            if integral and math.isfinite(r):
                q = Fraction(r)
                fl = math.floor(q)
                k = {"rm": fl, "rp": math.ceil(q), "rz": math.trunc(q)}.get(mode)
                if k is None:
                    rem = q - fl
                    k = fl + (rem > Fraction(1, 2) or (rem == Fraction(1, 2) and fl % 2 == 1))
                r = math.copysign(float(k), r) if k == 0 else float(k)
            if sat:
                r = 0.0 if math.isnan(r) or r <= 0 else min(r, 1.0)
            if math.isfinite(r) and r != 0:
                r = ref_round(Fraction(r), mode, dst)
            assert int(d[i]) == f2b(r, dst), (mods, x, hex(int(d[i])))


def test_f2f_ftz() -> None:
    a = np.array([1e-40, -1e-40, 1.0], np.float32).view(np.uint32)
    (d,) = run(F2FOp, [a], [R32], mods="f32.f32.ftz")
    assert d.tolist() == [0, 0x80000000, 0x3F800000]
