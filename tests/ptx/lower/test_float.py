"""Floating-point and conversion lowerings of the PTX importer, run in the interpreter.

Every case imports a small PTX kernel, verifies it, runs it on a few hundred
inputs (random bit patterns plus edge cases: +-0, +-inf, NaN, subnormals,
max finite, values at rounding boundaries) and compares bit-exactly with a
reference: numpy for round-to-nearest, exact rational arithmetic
(``fractions.Fraction``) for the directed modes.  NaN results are compared
as "is NaN".  ``.approx`` functions are compared with a tolerance.
"""

from __future__ import annotations

import math
from fractions import Fraction
from pathlib import Path
from typing import Any

import numpy as np
import pytest

from ori_dialect.interpreter import run_kernel
from ori_dialect.ptx.lower import import_ptx
from ori_dialect.ptx.parser import PtxSyntaxError

ROOT = Path(__file__).resolve().parents[3]
RNG = np.random.default_rng(20261122)
MODES = ("rn", "rz", "rm", "rp")

# ----------------------------------------------------------------------
# kernel harness: every operand lives in an 8-byte slot per thread
# ----------------------------------------------------------------------
REGS = {"f32": "%f", "f64": "%fd", "b32": "%r", "u32": "%r", "s32": "%r", "f16": "%h", "bf16": "%h",
        "f16x2": "%r", "bf16x2": "%r", "pred": "%p", "u64": "%rd", "s64": "%rd", "b64": "%rd",
        "u16": "%h", "s16": "%h", "b16": "%h", "u8": "%h", "s8": "%h"}
MEM = {"f16": "b16", "bf16": "b16", "f16x2": "b32", "bf16x2": "b32"}


def kernel(body: str, ins: list[str], outs: list[str]) -> str:
    n = len(ins) + len(outs)
    params = ", ".join(f".param .u64 p{i}" for i in range(n))
    lines = [".version 8.0", ".target sm_80", ".address_size 64",
             f".visible .entry k({params})", "{",
             ".reg .pred %p<16>; .reg .b32 %r<80>; .reg .f32 %f<80>; .reg .f64 %fd<80>;",
             ".reg .b64 %rd<120>; .reg .b16 %h<80>;",
             "mov.u32 %r70, %tid.x; mov.u32 %r71, %ctaid.x; mov.u32 %r72, %ntid.x;",
             "mad.lo.s32 %r73, %r71, %r72, %r70; mul.wide.u32 %rd99, %r73, 8;"]
    for i in range(n):
        lines.append(f"ld.param.u64 %rd{80 + i}, [p{i}]; cvta.to.global.u64 %rd{80 + i}, %rd{80 + i};"
                     f" add.s64 %rd{100 + i}, %rd{80 + i}, %rd99;")
    for i, t in enumerate(ins):
        if t == "pred":
            lines.append(f"ld.global.u32 %r74, [%rd{100 + i}]; setp.ne.u32 %p{i}, %r74, 0;")
        else:
            lines.append(f"ld.global.{MEM.get(t, t)} {REGS[t]}{i}, [%rd{100 + i}];")
    lines.append(body)
    for j, t in enumerate(outs):
        i = len(ins) + j
        if t == "pred":
            lines.append(f"selp.u32 %r75, 1, 0, %p{8 + j}; st.global.u32 [%rd{100 + i}], %r75;")
        else:
            lines.append(f"st.global.{MEM.get(t, t)} [%rd{100 + i}], {REGS[t]}{20 + j};")
    lines += ["ret;", "}"]
    return "\n".join(lines)


def run(body: str, ins: list[str], outs: list[str], arrays: list[Any],
        pipeline: str = "") -> list[np.ndarray]:
    """Run ``body`` on bit-pattern inputs (one uint64 array per input);
    output ``j`` is register ``<class>20+j`` (predicates: ``%p8+j``).
    ``pipeline``: passes to run on the imported module first."""
    n = len(arrays[0])
    pad = (-n) % 128
    args = [np.concatenate([np.asarray(a, np.uint64), np.zeros(pad, np.uint64)]) for a in arrays]
    args += [np.zeros(n + pad, np.uint64) for _ in outs]
    m = import_ptx(kernel(body, ins, outs))
    if pipeline:
        from ori_dialect.testing.equivalence import apply_pipeline

        apply_pipeline(m, pipeline)
    m.verify()
    res = run_kernel(m, "k", grid=((n + pad) // 128, 1, 1), block=(128, 1, 1), args=args)
    return [np.asarray(res[len(ins) + j][:n]) for j in range(len(outs))]


# ----------------------------------------------------------------------
# formats and exact rounding
# ----------------------------------------------------------------------
FMT = {  # precision, emin, emax, total bits, exponent bits
    "f64": (53, -1022, 1023, 64, 11),
    "f32": (24, -126, 127, 32, 8),
    "f16": (11, -14, 15, 16, 5),
    "bf16": (8, -126, 127, 16, 8),
}


def to_float(bits: int, fmt: str) -> float:
    if fmt == "f64":
        return float(np.array([bits], np.uint64).view(np.float64)[0])
    if fmt == "f32":
        return float(np.array([bits], np.uint32).view(np.float32)[0])
    if fmt == "f16":
        return float(np.array([bits], np.uint16).view(np.float16)[0])
    return float(np.array([bits << 16], np.uint32).view(np.float32)[0])


def from_float(x: float, fmt: str) -> int:
    """Bits of ``x`` (exactly representable in ``fmt``, or inf/NaN)."""
    if fmt == "f64":
        return int(np.array([x], np.float64).view(np.uint64)[0])
    if fmt == "f32":
        return int(np.array([x], np.float32).view(np.uint32)[0])
    if fmt == "f16":
        return int(np.array([x], np.float16).view(np.uint16)[0])
    b = int(np.array([x], np.float32).view(np.uint32)[0])
    assert math.isnan(x) or b & 0xFFFF == 0
    return b >> 16 if not math.isnan(x) else 0x7FC0


def round_frac(q: Fraction, fmt: str, mode: str) -> float:
    """Exact nonzero rational ``q`` correctly rounded to ``fmt`` in ``mode``."""
    p, emin, emax, _, _ = FMT[fmt]
    neg = q < 0
    a = -q if neg else q
    e = a.numerator.bit_length() - a.denominator.bit_length()
    if Fraction(2) ** e > a:
        e -= 1
    e = max(e, emin)
    ulp = Fraction(2) ** (e - p + 1)
    n = a / ulp
    fl = n.numerator // n.denominator
    rem = n - fl
    if mode == "rn":
        up = rem > Fraction(1, 2) or (rem == Fraction(1, 2) and fl % 2 == 1)
    elif mode == "rz":
        up = False
    elif mode == "rm":
        up = neg and rem > 0
    else:
        up = (not neg) and rem > 0
    r = (fl + up) * ulp
    big = Fraction(2) ** (emax + 1)
    if r >= big:
        maxf = big - Fraction(2) ** (emax - p + 1)
        to_inf = mode == "rn" or (mode == "rm" and neg) or (mode == "rp" and not neg)
        v = math.inf if to_inf else float(maxf)
    else:
        v = float(r)
    return -v if neg else v


def fbits(x: float, fmt: str) -> int:
    return from_float(x, fmt)


def same(got: int, want: int, fmt: str) -> bool:
    """Bit equality, NaN matching any NaN."""
    g, w = to_float(got, fmt), to_float(want, fmt)
    if math.isnan(w):
        return math.isnan(g)
    return got == want


def check(got: np.ndarray, want: list[int], fmt: str, inputs: list[Any], what: str) -> None:
    bad = [i for i in range(len(want)) if not same(int(got[i]), want[i], fmt)]
    if bad:
        i = bad[0]
        ins = [hex(int(a[i])) for a in inputs]
        raise AssertionError(f"{what}: {len(bad)} mismatches; first inputs {ins}: got "
                             f"{hex(int(got[i]))} ({to_float(int(got[i]), fmt)!r}), want {hex(want[i])} "
                             f"({to_float(want[i], fmt)!r})")


def _ordered(bits: int, fmt: str) -> int:
    """The bit pattern as an integer whose order is the floats' order (the
    infinities one step past the largest finite values)."""
    width = 32 if fmt == "f32" else 64
    sign = 1 << (width - 1)
    return -(bits & (sign - 1)) if bits & sign else bits


def check_ulps(got: np.ndarray, want: list[int], fmt: str, inputs: list[Any], what: str,
               ulps: int) -> None:
    """Within ``ulps`` of ``want`` (a NaN matches any NaN, nothing else)."""
    bad = []
    for i, w in enumerate(want):
        g = int(got[i])
        if math.isnan(to_float(w, fmt)) or math.isnan(to_float(g, fmt)):
            ok = math.isnan(to_float(w, fmt)) and math.isnan(to_float(g, fmt))
        else:
            ok = abs(_ordered(g, fmt) - _ordered(w, fmt)) <= ulps
        if not ok:
            bad.append(i)
    if bad:
        i = bad[0]
        ins = [hex(int(a[i])) for a in inputs]
        raise AssertionError(f"{what}: {len(bad)} beyond {ulps} ulp; first inputs {ins}: got "
                             f"{to_float(int(got[i]), fmt)!r}, want {to_float(want[i], fmt)!r}")


def edge_values(fmt: str) -> list[float]:
    p, emin, emax, _, _ = FMT[fmt]
    tiny = 2.0 ** (emin - p + 1)
    mn = 2.0 ** emin
    mx = float((2 - Fraction(2) ** (1 - p)) * Fraction(2) ** emax)
    vals = [0.0, 1.0, 3.0, 0.1, 1.5, 2.0, 7.0, tiny, 3 * tiny, mn, mn - tiny, mx, 2.0 ** emax, 0.5,
            1 + 2.0 ** (1 - p), 1 - 2.0 ** -p, math.inf, math.nan, 10.0, 1 / 3]
    out = []
    for v in vals:
        r = float(round_frac(Fraction(v), fmt, "rn")) if math.isfinite(v) and v else v
        out += [r, -r]
    return out


def random_bits(fmt: str, n: int) -> list[int]:
    bits = FMT[fmt][3]
    return [int(x) for x in RNG.integers(0, 1 << bits, n, dtype=np.uint64)]


def random_normalish(fmt: str, n: int, lo: int = -20, hi: int = 20) -> list[int]:
    """Random values with exponents in [lo, hi] and random signs/mantissas."""
    p = FMT[fmt][0]
    hi = min(hi, FMT[fmt][2])
    out = []
    for _ in range(n):
        m = int(RNG.integers(1 << (p - 1), 1 << p))
        e = int(RNG.integers(lo, hi + 1))
        v = float(Fraction(m) * Fraction(2) ** (e - p + 1)) * (1 if RNG.random() < 0.5 else -1)
        out.append(fbits(v, fmt))
    return out


def pairs(fmt: str, n_random: int) -> tuple[list[int], list[int]]:
    """Operand pairs: all edge x edge combinations, random bit patterns, random normal-range values."""
    edges = [fbits(v, fmt) for v in edge_values(fmt)]
    a = [x for x in edges for _ in edges]
    b = [y for _ in edges for y in edges]
    a += random_bits(fmt, n_random) + random_normalish(fmt, n_random)
    b += random_bits(fmt, n_random) + random_normalish(fmt, n_random)
    return a, b


def ftz_val(x: float, fmt: str) -> float:
    mn = 2.0 ** FMT[fmt][1]
    return math.copysign(0.0, x) if x != 0 and abs(x) < mn else x


# ----------------------------------------------------------------------
# f32 / f64 arithmetic with rounding modes
# ----------------------------------------------------------------------
def _zero_sign(mode: str, signs: list[bool]) -> float:
    """IEEE 754 6.3: sign of an exact zero sum of addends with signs ``signs``."""
    neg = any(signs) if mode == "rm" else all(signs)
    return -0.0 if neg else 0.0


def ref_arith(op: str, xs: list[float], fmt: str, mode: str) -> float:
    if not all(math.isfinite(x) for x in xs):
        with np.errstate(all="ignore"):
            v = [np.float64(x) for x in xs]
            if op == "add":
                return float(v[0] + v[1])
            if op == "sub":
                return float(v[0] - v[1])
            if op == "mul":
                return float(v[0] * v[1])
            return float(v[0] * v[1] + v[2]) if not (math.isinf(xs[2]) and all(
                math.isfinite(x) for x in xs[:2])) else xs[2]
    f = [Fraction(x) for x in xs]
    if op == "mul":
        q = f[0] * f[1]
        if q == 0:
            return -0.0 if (math.copysign(1, xs[0]) < 0) != (math.copysign(1, xs[1]) < 0) else 0.0
        return round_frac(q, fmt, mode)
    if op in ("add", "sub"):
        y = -f[1] if op == "sub" else f[1]
        ys = math.copysign(1, xs[1]) < 0
        if op == "sub":
            ys = not ys
        q = f[0] + y
        if q == 0:
            return _zero_sign(mode, [math.copysign(1, xs[0]) < 0, ys]) if f[0] == 0 and y == 0 else (
                -0.0 if mode == "rm" else 0.0)
        return round_frac(q, fmt, mode)
    q = f[0] * f[1] + f[2]
    if q == 0:
        pneg = (math.copysign(1, xs[0]) < 0) != (math.copysign(1, xs[1]) < 0)
        if f[0] * f[1] == 0 and f[2] == 0:
            return _zero_sign(mode, [pneg, math.copysign(1, xs[2]) < 0])
        return -0.0 if mode == "rm" else 0.0
    return round_frac(q, fmt, mode)


@pytest.mark.parametrize("fmt", ["f32", "f64"])
@pytest.mark.parametrize("op", ["add", "sub", "mul", "fma"])
def test_arith_modes(fmt: str, op: str) -> None:
    a, b = pairs(fmt, 100)
    c = random_bits(fmt, len(a))
    c[: len(a) // 2] = [fbits(v, fmt) for v in (edge_values(fmt) * len(a))[: len(a) // 2]]
    reg = REGS[fmt]
    nsrc = 3 if op == "fma" else 2
    srcs = ", ".join(f"{reg}{i}" for i in range(nsrc))
    body = "\n".join(f"{op}.{m}.{fmt} {reg}{20 + k}, {srcs};" for k, m in enumerate(MODES))
    inputs = [a, b, c][:nsrc]
    outs = run(body, [fmt] * nsrc, [fmt] * 4, inputs)
    for k, m in enumerate(MODES):
        want = [fbits(ref_arith(op, [to_float(x[i], fmt) for x in inputs], fmt, m), fmt)
                for i in range(len(a))]
        check(outs[k], want, fmt, inputs, f"{op}.{m}.{fmt}")


def test_f32_ftz_sat_and_mad() -> None:
    a, b = pairs("f32", 100)
    c = list(reversed(a))
    body = ("add.rn.ftz.f32 %f20, %f0, %f1; mul.rz.sat.f32 %f21, %f0, %f1;"
            "fma.rn.ftz.sat.f32 %f22, %f0, %f1, %f2; mad.rn.f32 %f23, %f0, %f1, %f2;"
            "sub.f32 %f24, %f0, 0f3F800000; mul.f32 %f25, %f0, 0fC0000000;")
    outs = run(body, ["f32"] * 3, ["f32"] * 6, [a, b, c])

    def sat(v: float) -> float:
        return 0.0 if math.isnan(v) or v <= 0 else min(v, 1.0)

    for i in range(len(a)):
        x, y, z = (to_float(v[i], "f32") for v in (a, b, c))
        fx, fy, fz = (ftz_val(v, "f32") for v in (x, y, z))
        exp = [
            ftz_val(ref_arith("add", [fx, fy], "f32", "rn"), "f32"),
            sat(ref_arith("mul", [x, y], "f32", "rz")),
            sat(ftz_val(ref_arith("fma", [fx, fy, fz], "f32", "rn"), "f32")),
            ref_arith("fma", [x, y, z], "f32", "rn"),
            ref_arith("sub", [x, 1.0], "f32", "rn"),
            ref_arith("mul", [x, -2.0], "f32", "rn"),
        ]
        for k, e in enumerate(exp):
            assert same(int(outs[k][i]), fbits(e, "f32"), "f32"), (k, x, y, z, to_float(int(outs[k][i]), "f32"), e)


# ----------------------------------------------------------------------
# division, reciprocal, square root (IEEE-exact)
# ----------------------------------------------------------------------
def ref_div(x: float, y: float, fmt: str, mode: str) -> float:
    if math.isnan(x) or math.isnan(y) or (x == 0 and y == 0) or (math.isinf(x) and math.isinf(y)):
        return math.nan
    neg = (math.copysign(1, x) < 0) != (math.copysign(1, y) < 0)
    if math.isinf(x) or y == 0:
        return -math.inf if neg else math.inf
    if x == 0 or math.isinf(y):
        return -0.0 if neg else 0.0
    return round_frac(Fraction(x) / Fraction(y), fmt, mode)


def div_operands(fmt: str, n: int) -> tuple[list[int], list[int]]:
    a, b = pairs(fmt, n)
    p, emin, emax, _, _ = FMT[fmt]
    tiny = 2.0 ** (emin - p + 1)
    extra_a, extra_b = [], []
    for _ in range(n // 2):
        # exact quotients (small-integer mantissas), subnormal and midpoint results
        m1 = int(RNG.integers(1, 1 << (p // 2)))
        m2 = int(RNG.integers(1, 1 << (p // 2)))
        extra_a.append(fbits(float(m1 * m2), fmt))
        extra_b.append(fbits(float(m2), fmt))
        k = int(RNG.integers(1, 1 << min(p - 1, 20))) * 2 + 1
        extra_a.append(fbits(k * tiny, fmt))
        extra_b.append(fbits(2.0 ** int(RNG.integers(1, 4)), fmt))
        extra_a.append(random_normalish(fmt, 1, emin + 1, emin + 20)[0])
        extra_b.append(random_normalish(fmt, 1, 0, 30)[0])
        extra_a.append(random_normalish(fmt, 1, -5, 5)[0])
        extra_b.append(random_normalish(fmt, 1, emax - 10, emax)[0])
        extra_a.append(random_normalish(fmt, 1, emax - 10, emax)[0])
        extra_b.append(random_normalish(fmt, 1, emin - 10, emin + 5)[0])
    return a + extra_a, b + extra_b


@pytest.mark.parametrize("fmt", ["f32", "f64"])
def test_div_modes(fmt: str) -> None:
    a, b = div_operands(fmt, 40 if fmt == "f32" else 60)
    reg = REGS[fmt]
    body = "\n".join(f"div.{m}.{fmt} {reg}{20 + k}, {reg}0, {reg}1;" for k, m in enumerate(MODES))
    if fmt == "f32":
        body += "\ndiv.full.f32 %f24, %f0, %f1;"
    outs = run(body, [fmt, fmt], [fmt] * (5 if fmt == "f32" else 4), [a, b])
    for k, m in enumerate(MODES):
        want = [fbits(ref_div(to_float(a[i], fmt), to_float(b[i], fmt), fmt, m), fmt) for i in range(len(a))]
        check(outs[k], want, fmt, [a, b], f"div.{m}.{fmt}")
        if m == "rn" and fmt == "f32":
            # ptxas's full-range approximation: PTX allows 2 ulp
            check_ulps(outs[4], want, fmt, [a, b], "div.full.f32", 2)


def test_div_full_ftz_and_scaled_operands() -> None:
    """``div.full(.ftz).f32`` within 2 ulp of the rounded quotient where
    MUFU.RCP alone is not: divisors above 2^126 (their reciprocal is
    subnormal) and subnormal divisors (scaled by 2^24; flushed to zero
    under ``.ftz``, as the result)."""
    fmt = "f32"
    a, b = div_operands(fmt, 40)
    big = [fbits(float(2.0 ** 126 * (1 + k / 7)), fmt) for k in range(6)]
    sub = [fbits(float(2.0 ** -149 * (3 + 5 * k)), fmt) for k in range(6)]
    nums = [fbits(v, fmt) for v in (1.0, 3.0, 2.0 ** 100, 2.0 ** -100, 0.75, 2.0 ** -140)]
    a += nums * 2
    b += big + sub
    outs = run("div.full.f32 %f20, %f0, %f1;\ndiv.full.ftz.f32 %f21, %f0, %f1;",
               [fmt, fmt], [fmt] * 2, [a, b])
    want = [fbits(ref_div(to_float(x, fmt), to_float(y, fmt), fmt, "rn"), fmt) for x, y in zip(a, b)]
    check_ulps(outs[0], want, fmt, [a, b], "div.full.f32", 2)
    want_ftz = [fbits(ftz_val(ref_div(ftz_val(to_float(x, fmt), fmt), ftz_val(to_float(y, fmt), fmt),
                                      fmt, "rn"), fmt), fmt) for x, y in zip(a, b)]
    check_ulps(outs[1], want_ftz, fmt, [a, b], "div.full.ftz.f32", 2)


@pytest.mark.parametrize("fmt", ["f32", "f64"])
def test_rcp_modes(fmt: str) -> None:
    a = [fbits(v, fmt) for v in edge_values(fmt)] + random_bits(fmt, 200) + random_normalish(fmt, 100)
    reg = REGS[fmt]
    body = "\n".join(f"rcp.{m}.{fmt} {reg}{20 + k}, {reg}0;" for k, m in enumerate(MODES))
    outs = run(body, [fmt], [fmt] * 4, [a])
    for k, m in enumerate(MODES):
        want = [fbits(ref_div(1.0, to_float(x, fmt), fmt, m), fmt) for x in a]
        check(outs[k], want, fmt, [a], f"rcp.{m}.{fmt}")


def ref_sqrt(x: float, fmt: str, mode: str) -> float:
    if math.isnan(x) or x < 0:
        return math.nan
    if x == 0 or math.isinf(x):
        return x
    r = float(np.sqrt(np.float32(x))) if fmt == "f32" else math.sqrt(x)
    sq = Fraction(r) ** 2
    fx = Fraction(x)
    if sq == fx:
        return r
    inf = math.inf
    step = (lambda v, d: float(np.nextafter(np.float32(v), np.float32(d)))) if fmt == "f32" else math.nextafter
    if mode == "rn":
        return r
    if mode in ("rz", "rm"):
        return step(r, 0.0) if sq > fx else r
    return step(r, inf) if sq < fx else r


@pytest.mark.parametrize("fmt", ["f32", "f64"])
def test_sqrt_modes(fmt: str) -> None:
    p = FMT[fmt][0]
    sq = [fbits(float(k * k), fmt) for k in RNG.integers(1, 1 << (p // 2), 40)]
    a = [fbits(v, fmt) for v in edge_values(fmt)] + random_bits(fmt, 250) + random_normalish(fmt, 100) + sq
    reg = REGS[fmt]
    body = "\n".join(f"sqrt.{m}.{fmt} {reg}{20 + k}, {reg}0;" for k, m in enumerate(MODES))
    outs = run(body, [fmt], [fmt] * 4, [a])
    for k, m in enumerate(MODES):
        want = [fbits(ref_sqrt(to_float(x, fmt), fmt, m), fmt) for x in a]
        check(outs[k], want, fmt, [a], f"sqrt.{m}.{fmt}")


def hard_f32_div_sqrt_operands(n: int, rng: np.random.Generator) -> tuple[list[int], list[int]]:
    """f32 operands whose quotient (and the root of ``a``) lies on or within
    a few ulps of an f32 grid point or midpoint -- the cases the f64
    "gap" argument of ``_div32``/``_sqrt32`` is about -- plus operand
    pairs whose quotient is near the overflow and subnormal edges."""
    b = rng.integers(1 << 23, 1 << 24, n).astype(np.float64) * 2.0 ** rng.integers(-40, 40, n)
    m = rng.integers(1 << 24, 1 << 25, n).astype(np.float64)  # 25 bits: grid points and midpoints
    scale = 2.0 ** rng.integers(-150, 100, n).astype(np.float64)
    with np.errstate(over="ignore"):  # quotients past FLT_MAX become inf: kept as edge cases
        a = (b * m * 2.0 ** -24 * scale).astype(np.float32)  # rounded: near b * m
    wiggle = rng.integers(-2, 3, n).astype(np.int64)
    a_bits = (a.view(np.uint32).astype(np.int64) + wiggle).clip(0, 0x7F7FFFFF).astype(np.uint32)
    sign = rng.integers(0, 4, n).astype(np.uint32)
    a_bits |= (sign & 1) << 31
    b_bits = b.astype(np.float32).view(np.uint32) | ((sign >> 1) << 31)
    # roots: squares of 25-bit numbers, nudged by up to 2 ulps
    r = rng.integers(1 << 24, 1 << 25, n).astype(np.float64) * 2.0 ** rng.integers(-85, 40, n)
    sq = (r * r).astype(np.float32).view(np.uint32).astype(np.int64) + rng.integers(-2, 3, n)
    roots = sq.clip(1, 0x7F7FFFFF).astype(np.uint32)
    return [int(x) for x in a_bits] + [int(x) for x in roots], [int(x) for x in b_bits] * 2


def _check_div_sqrt_f32(n: int, seed: int) -> None:
    a, b = hard_f32_div_sqrt_operands(n, np.random.default_rng(seed))
    ra, rb = div_operands("f32", 40)
    a, b = a + ra, b + rb
    body = "\n".join(f"div.{m}.f32 %f{20 + k}, %f0, %f1; sqrt.{m}.f32 %f{24 + k}, %f0;"
                     for k, m in enumerate(MODES))
    outs = run(body, ["f32", "f32"], ["f32"] * 8, [a, b])
    for k, m in enumerate(MODES):
        fa = [to_float(x, "f32") for x in a]
        fb = [to_float(y, "f32") for y in b]
        check(outs[k], [fbits(ref_div(x, y, "f32", m), "f32") for x, y in zip(fa, fb)], "f32",
              [a, b], f"div.{m}.f32")
        check(outs[4 + k], [fbits(ref_sqrt(x, "f32", m), "f32") for x in fa], "f32", [a],
              f"sqrt.{m}.f32")


def test_f32_div_sqrt_near_rounding_boundaries() -> None:
    _check_div_sqrt_f32(600, 7)


@pytest.mark.fuzz
@pytest.mark.parametrize("seed", range(4))
def test_f32_div_sqrt_near_rounding_boundaries_fuzz(seed: int) -> None:
    _check_div_sqrt_f32(20000, 100 + seed)


@pytest.mark.parametrize("fmt", ["f32", "f64"])
def test_div_rcp_sqrt_after_general_optimize(fmt: str) -> None:
    """The routines' f64 constants become DFMA/DMUL/DSETP immediates in
    ``ori-general-optimize``; the results stay exact."""
    a, b = div_operands(fmt, 30)
    reg = REGS[fmt]
    body = "\n".join(f"div.{m}.{fmt} {reg}{20 + k}, {reg}0, {reg}1; sqrt.{m}.{fmt} {reg}{24 + k}, {reg}0;"
                     for k, m in enumerate(MODES))
    body += f"\nrcp.rn.{fmt} {reg}28, {reg}1;"
    outs = run(body, [fmt, fmt], [fmt] * 9, [a, b], pipeline="ori-general-optimize,ori-dead-code")
    fa = [to_float(x, fmt) for x in a]
    fb = [to_float(y, fmt) for y in b]
    for k, m in enumerate(MODES):
        check(outs[k], [fbits(ref_div(x, y, fmt, m), fmt) for x, y in zip(fa, fb)], fmt, [a, b],
              f"div.{m}.{fmt}")
        check(outs[4 + k], [fbits(ref_sqrt(x, fmt, m), fmt) for x in fa], fmt, [a], f"sqrt.{m}.{fmt}")
    check(outs[8], [fbits(ref_div(1.0, y, fmt, "rn"), fmt) for y in fb], fmt, [b], f"rcp.rn.{fmt}")


def test_f32_div_rcp_sqrt_ftz() -> None:
    a, b = div_operands("f32", 40)
    body = ("div.rn.ftz.f32 %f20, %f0, %f1; rcp.rn.ftz.f32 %f21, %f0; sqrt.rn.ftz.f32 %f22, %f0;")
    outs = run(body, ["f32", "f32"], ["f32"] * 3, [a, b])
    for i in range(len(a)):
        x, y = ftz_val(to_float(a[i], "f32"), "f32"), ftz_val(to_float(b[i], "f32"), "f32")
        exp = [ref_div(x, y, "f32", "rn"), ref_div(1.0, x, "f32", "rn"), ref_sqrt(x, "f32", "rn")]
        for k, e in enumerate(exp):
            assert same(int(outs[k][i]), fbits(ftz_val(e, "f32"), "f32"), "f32"), (k, x, y)


# ----------------------------------------------------------------------
# approximate functions
# ----------------------------------------------------------------------
def test_approx_f32() -> None:
    x = RNG.uniform(-10, 10, 300).astype(np.float32)
    pos = RNG.uniform(0.01, 100, 300).astype(np.float32)
    xb = x.view(np.uint32).astype(np.uint64)
    pb = pos.view(np.uint32).astype(np.uint64)
    body = ("sin.approx.f32 %f20, %f0; cos.approx.ftz.f32 %f21, %f0; ex2.approx.f32 %f22, %f0;"
            "lg2.approx.f32 %f23, %f1; tanh.approx.f32 %f24, %f0; rsqrt.approx.f32 %f25, %f1;"
            "rcp.approx.f32 %f26, %f1; sqrt.approx.f32 %f27, %f1; div.approx.f32 %f28, %f0, %f1;"
            "rcp.approx.ftz.f32 %f29, %f0;")
    outs = [o.astype(np.uint32).view(np.float32).astype(np.float64) for o in
            run(body, ["f32", "f32"], ["f32"] * 10, [xb, pb])]
    xd, pd = x.astype(np.float64), pos.astype(np.float64)
    refs = [np.sin(xd), np.cos(xd), np.exp2(xd), np.log2(pd), np.tanh(xd), 1 / np.sqrt(pd), 1 / pd,
            np.sqrt(pd), xd / pd, 1 / xd]
    for k, r in enumerate(refs):
        np.testing.assert_allclose(outs[k], r, rtol=2e-6, atol=2e-6, err_msg=f"output {k}")


def test_approx_f64() -> None:
    x = np.concatenate([RNG.uniform(1e-3, 1e3, 200), 10.0 ** RNG.uniform(-300, 300, 100)])
    body = "rsqrt.approx.f64 %fd20, %fd0; rcp.approx.ftz.f64 %fd21, %fd0;"
    o = run(body, ["f64"], ["f64", "f64"], [x.view(np.uint64)])
    np.testing.assert_allclose(o[0].view(np.float64), 1 / np.sqrt(x), rtol=1e-14)
    np.testing.assert_allclose(o[1].view(np.float64), 1 / x, rtol=1e-14)
    sp = np.array([0.0, -0.0, np.inf, -1.0, np.nan])
    o = run(body, ["f64"], ["f64", "f64"], [sp.view(np.uint64)])
    r = o[0].view(np.float64)
    assert r[0] == np.inf and r[2] == 0 and np.isnan(r[3]) and np.isnan(r[4])
    r = o[1].view(np.float64)
    assert r[0] == np.inf and r[1] == -np.inf and r[2] == 0


# ----------------------------------------------------------------------
# sign operations, min/max, comparisons, testp
# ----------------------------------------------------------------------
def ref_minmax(x: float, y: float, is_min: bool, nan_prop: bool = False) -> float:
    if math.isnan(x) and math.isnan(y):
        return math.nan
    if nan_prop and (math.isnan(x) or math.isnan(y)):
        return math.nan
    if math.isnan(x):
        return y
    if math.isnan(y):
        return x
    if x == y:
        xn = math.copysign(1, x) < 0
        return (x if xn else y) if is_min else (y if xn else x)
    return min(x, y) if is_min else max(x, y)


@pytest.mark.parametrize("fmt", ["f32", "f64", "f16", "bf16"])
def test_sign_ops_minmax(fmt: str) -> None:
    a, b = pairs(fmt, 100)
    reg = REGS[fmt]
    body = (f"abs.{fmt} {reg}20, {reg}0; neg.{fmt} {reg}21, {reg}0; min.{fmt} {reg}22, {reg}0, {reg}1;"
            f" max.{fmt} {reg}23, {reg}0, {reg}1;")
    nouts = 4
    if fmt in ("f32", "f16", "bf16"):
        body += f" min.NaN.{fmt} {reg}24, {reg}0, {reg}1; max.NaN.{fmt} {reg}25, {reg}0, {reg}1;"
        nouts = 6
    if fmt in ("f32", "f64"):
        body += f" copysign.{fmt} {reg}{20 + nouts}, {reg}0, {reg}1;"
        nouts += 1
    outs = run(body, [fmt, fmt], [fmt] * nouts, [a, b])
    sign = 1 << (FMT[fmt][3] - 1)
    for i in range(len(a)):
        x, y = to_float(a[i], fmt), to_float(b[i], fmt)
        assert int(outs[0][i]) == a[i] & ~sign
        assert int(outs[1][i]) == a[i] ^ sign
        exp = [ref_minmax(x, y, True), ref_minmax(x, y, False)]
        if nouts >= 6:
            exp += [ref_minmax(x, y, True, True), ref_minmax(x, y, False, True)]
        for k, e in enumerate(exp):
            assert same(int(outs[2 + k][i]), fbits(e, fmt), fmt), (k, x, y, to_float(int(outs[2 + k][i]), fmt))
        if fmt in ("f32", "f64"):
            assert int(outs[-1][i]) == (b[i] & ~sign) | (a[i] & sign)


@pytest.mark.parametrize("fmt", ["f16", "bf16"])
def test_packed_sign_ops_minmax(fmt: str) -> None:
    a, b = pairs(fmt, 60)
    c, d = list(reversed(b)), list(reversed(a))
    x2 = f"{fmt}x2"
    pa = [(x << 16) | y for x, y in zip(a, c)]
    pb = [(x << 16) | y for x, y in zip(b, d)]
    body = (f"abs.{x2} %r20, %r0; neg.{x2} %r21, %r0; min.{x2} %r22, %r0, %r1; max.{x2} %r23, %r0, %r1;"
            f" min.NaN.{x2} %r24, %r0, %r1;")
    outs = run(body, [x2, x2], [x2] * 5, [pa, pb])
    for i in range(len(a)):
        assert int(outs[0][i]) == pa[i] & 0x7FFF7FFF
        assert int(outs[1][i]) == pa[i] ^ 0x80008000
        for k, (is_min, nan) in enumerate([(True, False), (False, False), (True, True)]):
            got = int(outs[2 + k][i])
            for lane, (p, q) in enumerate([(c[i], d[i]), (a[i], b[i])]):
                e = ref_minmax(to_float(p, fmt), to_float(q, fmt), is_min, nan)
                assert same((got >> (16 * lane)) & 0xFFFF, fbits(e, fmt), fmt), (k, lane, p, q)


CMPS = ("eq", "ne", "lt", "le", "gt", "ge", "equ", "neu", "ltu", "leu", "gtu", "geu", "num", "nan")


def ref_cmp(c: str, x: float, y: float) -> bool:
    un = math.isnan(x) or math.isnan(y)
    if c == "num":
        return not un
    if c == "nan":
        return un
    base = {"eq": x == y, "ne": x != y, "lt": x < y, "le": x <= y, "gt": x > y, "ge": x >= y}
    if c.endswith("u"):
        return un or base[c[:-1]]
    return (not un) and base[c]


@pytest.mark.parametrize("fmt", ["f32", "f64", "f16", "bf16"])
def test_setp_all_comparisons(fmt: str) -> None:
    edges = [fbits(v, fmt) for v in edge_values(fmt)[:12] + [math.nan, -0.0, 0.0]]
    a = [x for x in edges for _ in edges] + random_bits(fmt, 80)
    b = [y for _ in edges for y in edges] + random_bits(fmt, 80)
    reg = REGS[fmt]
    body = "\n".join(f"setp.{c}.{fmt} %p{8 + k}, {reg}0, {reg}1;" for k, c in enumerate(CMPS[:7]))
    body2 = "\n".join(f"setp.{c}.{fmt} %p{8 + k}, {reg}0, {reg}1;" for k, c in enumerate(CMPS[7:]))
    o1 = run(body, [fmt, fmt], ["pred"] * 7, [a, b])
    o2 = run(body2, [fmt, fmt], ["pred"] * 7, [a, b])
    for k, c in enumerate(CMPS):
        got = (o1 + o2)[k]
        for i in range(len(a)):
            x, y = to_float(a[i], fmt), to_float(b[i], fmt)
            assert bool(got[i]) == ref_cmp(c, x, y), (c, x, y)


@pytest.mark.parametrize("fmt", ["f32", "f64"])
def test_setp_combining(fmt: str) -> None:
    a, b = pairs(fmt, 60)
    c = [int(v) for v in RNG.integers(0, 2, len(a))]
    reg = REGS[fmt]
    body = (f"setp.lt.and.{fmt} %p8|%p9, {reg}0, {reg}1, %p2; setp.geu.or.{fmt} %p10|%p11, {reg}0, {reg}1, !%p2;"
            f"setp.ne.xor.{fmt} %p12, {reg}0, {reg}1, %p2;")
    outs = run(body, [fmt, fmt, "pred"], ["pred"] * 5, [a, b, c])
    for i in range(len(a)):
        x, y, p = to_float(a[i], fmt), to_float(b[i], fmt), bool(c[i])
        lt, ge = ref_cmp("lt", x, y), ref_cmp("geu", x, y)
        exp = [lt and p, (not lt) and p, ge or not p, (not ge) or not p, ref_cmp("ne", x, y) != p]
        assert [bool(o[i]) for o in outs] == exp, (x, y, p)


@pytest.mark.parametrize("fmt", ["f32", "f64"])
def test_testp(fmt: str) -> None:
    a = [fbits(v, fmt) for v in edge_values(fmt)] + random_bits(fmt, 200)
    reg = REGS[fmt]
    tests = ("finite", "infinite", "number", "notanumber", "normal", "subnormal")
    body = "\n".join(f"testp.{t}.{fmt} %p{8 + k}, {reg}0;" for k, t in enumerate(tests))
    outs = run(body, [fmt], ["pred"] * 6, [a])
    mn = 2.0 ** FMT[fmt][1]
    for i, bits in enumerate(a):
        x = to_float(bits, fmt)
        exp = [math.isfinite(x), math.isinf(x), not math.isnan(x), math.isnan(x),
               math.isfinite(x) and abs(x) >= mn, x != 0 and abs(x) < mn]
        assert [bool(o[i]) for o in outs] == exp, x


# ----------------------------------------------------------------------
# half precision
# ----------------------------------------------------------------------
@pytest.mark.parametrize("fmt", ["f16", "bf16"])
def test_half_arith(fmt: str) -> None:
    a, b = pairs(fmt, 120)
    c = list(reversed(b))
    x2 = f"{fmt}x2"
    packed = [((x << 16) | y) for x, y in zip(a, b)]
    packed2 = [((x << 16) | y) for x, y in zip(c, a)]
    body = (f"add.{fmt} %h20, %h0, %h1; sub.{fmt} %h21, %h0, %h1; mul.{fmt} %h22, %h0, %h1;"
            f" fma.rn.{fmt} %h23, %h0, %h1, %h2;"
            f" add.{x2} %r24, %r3, %r4; fma.rn.{x2} %r25, %r3, %r4, %r3;")
    if fmt == "f16":
        body += " add.sat.f16 %h26, %h0, %h1;"
    outs = run(body, [fmt, fmt, fmt, x2, x2], [fmt] * 4 + [x2, x2] + ([fmt] if fmt == "f16" else []),
               [a, b, c, packed, packed2])
    for i in range(len(a)):
        x, y, z = (to_float(v[i], fmt) for v in (a, b, c))
        exp = [ref_arith(o, s, fmt, "rn") for o, s in
               (("add", [x, y]), ("sub", [x, y]), ("mul", [x, y]), ("fma", [x, y, z]))]
        for k, e in enumerate(exp):
            assert same(int(outs[k][i]), fbits(e, fmt), fmt), (k, x, y, z)
        lo = ref_arith("add", [y, x], fmt, "rn")
        hi = ref_arith("add", [x, z], fmt, "rn")
        got = int(outs[4][i])
        assert same(got & 0xFFFF, fbits(lo, fmt), fmt) and same(got >> 16, fbits(hi, fmt), fmt)
        lo = ref_arith("fma", [y, x, y], fmt, "rn")
        hi = ref_arith("fma", [x, z, x], fmt, "rn")
        got = int(outs[5][i])
        assert same(got & 0xFFFF, fbits(lo, fmt), fmt) and same(got >> 16, fbits(hi, fmt), fmt)
        if fmt == "f16":
            e = ref_arith("add", [x, y], fmt, "rn")
            e = 0.0 if math.isnan(e) or e <= 0 else min(e, 1.0)
            assert int(outs[6][i]) == fbits(e, fmt), (x, y)


# ----------------------------------------------------------------------
# cvt
# ----------------------------------------------------------------------
INTS = ("u8", "s8", "u16", "s16", "u32", "s32", "u64", "s64")


def int_range(t: str) -> tuple[int, int]:
    w = int(t[1:])
    return (-(1 << (w - 1)), (1 << (w - 1)) - 1) if t[0] == "s" else (0, (1 << w) - 1)


def int_of(bits: int, t: str) -> int:
    w = int(t[1:])
    v = bits & ((1 << w) - 1)
    return v - (1 << w) if t[0] == "s" and v >> (w - 1) else v


def int_bits(v: int, t: str) -> int:
    return v & ((1 << int(t[1:])) - 1)


def int_inputs(t: str, n: int) -> list[int]:
    w = int(t[1:])
    lo, hi = int_range(t)
    edges = [lo, hi, 0, 1, -1, lo + 1, hi - 1, 127, 128, 255, 256, -128, -129, 32767, 32768, 65535,
             65536, (1 << 31) - 1, 1 << 31, (1 << 32) - 1, 1 << 32, (1 << 24) + 1, (1 << 53) + 1,
             (1 << 63) - 1]
    vals = [int_bits(v, t) for v in edges if lo <= v <= hi]
    vals += [int(x) & ((1 << w) - 1) for x in RNG.integers(0, 1 << 64, n, dtype=np.uint64)]
    vals += [int_bits(int(x), t) for x in RNG.integers(-(1 << 20), 1 << 20, n // 2)]
    return vals


@pytest.mark.parametrize("st", INTS)
def test_cvt_int_int(st: str) -> None:
    a = int_inputs(st, 150)
    body = "\n".join(f"cvt.{dt}.{st} {REGS[dt]}{20 + k}, {REGS[st]}0;" for k, dt in enumerate(INTS))
    body += "\n" + "\n".join(f"cvt.sat.{dt}.{st} {REGS[dt]}{28 + k}, {REGS[st]}0;" for k, dt in enumerate(INTS))
    outs = run(body, [st], list(INTS) * 2, [a])
    for k, dt in enumerate(INTS):
        lo, hi = int_range(dt)
        w = int(dt[1:])
        for i, bits in enumerate(a):
            v = int_of(bits, st)
            got_plain = int(outs[k][i]) & ((1 << w) - 1)
            got_sat = int(outs[8 + k][i]) & ((1 << w) - 1)
            assert got_plain == int_bits(v, dt), (st, dt, v, got_plain)
            assert got_sat == int_bits(min(max(v, lo), hi), dt), (st, dt, v, got_sat)


def test_cvt_narrow_results_are_zero_extended() -> None:
    """A narrow result in a 32-bit register keeps its upper bits 0 (the register model)."""
    a = [0xFFFFFF80, 0x12345678, 0x8000, 0xFFFF]
    body = ("cvt.s8.s32 %h20, %r0; cvt.u32.u16 %r21, %h20; cvt.sat.s16.s32 %h22, %r0; cvt.u32.u16 %r23, %h22;"
            "cvt.rzi.s16.f32 %h24, %f1; cvt.u32.u16 %r25, %h24;")
    outs = run(body, ["u32", "f32"], ["s8", "u32", "s16", "u32", "s16", "u32"],
               [a, [fbits(-3.5, "f32")] * 4])
    assert [int(x) for x in outs[1]] == [0x80, 0x78, 0x00, 0xFF]
    assert [int(x) for x in outs[3]] == [0xFF80, 0x7FFF, 0x7FFF, 0x7FFF]
    assert [int(x) for x in outs[5]] == [0xFFFD] * 4


def _int_to_frac_mode(v: int, fmt: str, mode: str) -> float:
    return 0.0 if v == 0 else round_frac(Fraction(v), fmt, mode)


@pytest.mark.parametrize("st", INTS)
def test_cvt_int_to_float(st: str) -> None:
    a = int_inputs(st, 100)
    lines, outs_t = [], []
    for ft in ("f16", "bf16", "f32", "f64"):
        for m in MODES:
            lines.append(f"cvt.{m}.{ft}.{st} {REGS[ft]}{20 + len(outs_t)}, {REGS[st]}0;")
            outs_t.append((ft, m))
    outs = run("\n".join(lines), [st], [f for f, _ in outs_t], [a])
    for k, (ft, m) in enumerate(outs_t):
        want = [fbits(_int_to_frac_mode(int_of(x, st), ft, m), ft) for x in a]
        check(outs[k], want, ft, [a], f"cvt.{m}.{ft}.{st}")


def ref_f2i(x: float, dt: str, mode: str) -> int:
    if math.isnan(x):
        return 0
    lo, hi = int_range(dt)
    if math.isinf(x):
        return hi if x > 0 else lo
    f = Fraction(x)
    if mode == "rn":
        v = round(f)
    elif mode == "rz":
        v = math.trunc(f)
    elif mode == "rm":
        v = math.floor(f)
    else:
        v = math.ceil(f)
    return min(max(v, lo), hi)


@pytest.mark.parametrize("ft", ["f16", "bf16", "f32", "f64"])
def test_cvt_float_to_int(ft: str) -> None:
    halves = [fbits(k + 0.5, ft) for k in range(-4, 4)]
    a = [fbits(v, ft) for v in edge_values(ft)] + random_bits(ft, 150) + \
        random_normalish(ft, 100, -2, min(FMT[ft][2], 70)) + halves
    outs_t = [(dt, m) for dt in INTS for m in MODES]
    outs = []
    for chunk in (outs_t[:16], outs_t[16:]):  # output registers 20..35 per kernel
        body = "\n".join(f"cvt.{m}i.{dt}.{ft} {REGS[dt]}{20 + j}, {REGS[ft]}0;"
                         for j, (dt, m) in enumerate(chunk))
        outs += run(body, [ft], [d for d, _ in chunk], [a])
    for k, (dt, m) in enumerate(outs_t):
        w = int(dt[1:])
        for i, bits in enumerate(a):
            x = to_float(bits, ft)
            got = int(outs[k][i]) & ((1 << w) - 1)
            assert got == int_bits(ref_f2i(x, dt, m), dt), (ft, dt, m, x, got)


def ref_f2f(x: float, st: str, dt: str, mode: str) -> float:
    if math.isnan(x) or math.isinf(x) or x == 0:
        return x
    return round_frac(Fraction(x), dt, mode)


@pytest.mark.parametrize("st", ["f16", "bf16", "f32", "f64"])
def test_cvt_float_to_float(st: str) -> None:
    a = [fbits(v, st) for v in edge_values(st)] + random_bits(st, 200) + random_normalish(st, 100, -30, 30)
    lines, outs_t = [], []
    for dt in ("f16", "bf16", "f32", "f64"):
        if dt == st:
            continue
        narrowing = FMT[dt][3] < FMT[st][3] or {dt, st} == {"f16", "bf16"}
        for m in (MODES if narrowing else ("",)):
            lines.append(f"cvt{'.' + m if m else ''}.{dt}.{st} {REGS[dt]}{20 + len(outs_t)}, {REGS[st]}0;")
            outs_t.append((dt, m or "rn"))
    for m in MODES:  # integral rounding in the same type
        lines.append(f"cvt.{m}i.{st}.{st} {REGS[st]}{20 + len(outs_t)}, {REGS[st]}0;")
        outs_t.append((st, m + "i"))
    outs = run("\n".join(lines), [st], [d for d, _ in outs_t], [a])
    for k, (dt, m) in enumerate(outs_t):
        want = []
        for bits in a:
            x = to_float(bits, st)
            if m.endswith("i"):
                e = x if not math.isfinite(x) else float(math.copysign(ref_f2i_float(x, m[:2]), x))
            else:
                e = ref_f2f(x, st, dt, m)
            want.append(fbits(e, dt))
        check(outs[k], want, dt, [a], f"cvt.{m}.{dt}.{st}")


def ref_f2i_float(x: float, mode: str) -> float:
    f = Fraction(x)
    v = {"rn": round(f), "rz": math.trunc(f), "rm": math.floor(f), "rp": math.ceil(f)}[mode]
    return float(abs(v))


def test_cvt_ftz_sat_and_pairs() -> None:
    a = [fbits(v, "f32") for v in edge_values("f32")] + random_bits("f32", 100)
    b = list(reversed(a))
    body = ("cvt.ftz.f32.f32 %f20, %f0; cvt.sat.f32.f32 %f21, %f0; cvt.ftz.f64.f32 %fd22, %f0;"
            "cvt.rn.f16x2.f32 %r23, %f0, %f1; cvt.rz.bf16x2.f32 %r24, %f0, %f1; cvt.rn.sat.f32.s32 %f25, %r2;"
            "cvt.rn.bf16x2.f32 %r26, %f0, %f1;")
    ints = [int_bits(v, "s32") for v in (list(range(-3, 4)) * 100)[: len(a)]]
    outs = run(body, ["f32", "f32", "s32"],
               ["f32", "f32", "f64", "f16x2", "bf16x2", "f32", "bf16x2"], [a, b, ints])
    for i in range(len(a)):
        x, y = to_float(a[i], "f32"), to_float(b[i], "f32")
        fx = ftz_val(x, "f32")
        assert same(int(outs[0][i]), fbits(fx, "f32"), "f32")
        s = 0.0 if math.isnan(x) or x <= 0 else min(x, 1.0)
        assert same(int(outs[1][i]), fbits(s, "f32"), "f32")
        assert same(int(outs[2][i]), fbits(fx, "f64"), "f64")
        got = int(outs[3][i])
        assert same(got >> 16, fbits(ref_f2f(x, "f32", "f16", "rn"), "f16"), "f16")
        assert same(got & 0xFFFF, fbits(ref_f2f(y, "f32", "f16", "rn"), "f16"), "f16")
        got = int(outs[4][i])
        assert same(got >> 16, fbits(ref_f2f(x, "f32", "bf16", "rz"), "bf16"), "bf16")
        assert same(got & 0xFFFF, fbits(ref_f2f(y, "f32", "bf16", "rz"), "bf16"), "bf16")
        v = int_of(ints[i], "s32")
        assert to_float(int(outs[5][i]), "f32") == min(max(v, 0), 1)
        # cvt.rn pairs are one F2FP.PACK_AB (F2FP.BF16.PACK_AB)
        got = int(outs[6][i])
        assert same(got >> 16, fbits(ref_f2f(x, "f32", "bf16", "rn"), "bf16"), "bf16")
        assert same(got & 0xFFFF, fbits(ref_f2f(y, "f32", "bf16", "rn"), "bf16"), "bf16")


def test_guards_immediates_and_legacy_mad() -> None:
    """Guarded float ops keep the old value when the guard is false; immediates
    in every operand kind; ``mad.f32`` without rounding is a fused multiply-add."""
    a, b = pairs("f32", 40)
    c = [int(v) for v in RNG.integers(0, 2, len(a))]
    d64 = [fbits(to_float(x, "f32"), "f64") for x in a]
    body = ("mov.f32 %f20, %f1; @%p2 add.rz.f32 %f20, %f0, 0f3FC00000;"
            "mov.f64 %fd21, %fd3; @!%p2 mul.rn.f64 %fd21, %fd3, 0d4008000000000000;"
            "setp.gt.f32 %p10, %f0, 0f00000000; mov.pred %p10, %p10; @%p2 setp.lt.f32 %p10, %f0, 0f00000000;"
            "mad.f32 %f23, %f0, %f1, 0fBF800000;"
            "min.f32 %f24, %f0, 0f40000000; mov.u32 %r25, 7; @%p2 cvt.rzi.s32.f32 %r25, %f0;")
    outs = run(body, ["f32", "f32", "pred", "f64"], ["f32", "f64", "pred", "f32", "f32", "s32"], [a, b, c, d64])
    for i in range(len(a)):
        x, y, p = to_float(a[i], "f32"), to_float(b[i], "f32"), bool(c[i])
        e0 = ref_arith("add", [x, 1.5], "f32", "rz") if p else y
        assert same(int(outs[0][i]), fbits(e0, "f32"), "f32")
        e1 = x if p else ref_arith("mul", [x, 3.0], "f64", "rn")
        assert same(int(outs[1][i]), fbits(e1, "f64"), "f64")
        assert bool(outs[2][i]) == (ref_cmp("lt", x, 0.0) if p else ref_cmp("gt", x, 0.0))
        assert same(int(outs[3][i]), fbits(ref_arith("fma", [x, y, -1.0], "f32", "rn"), "f32"), "f32")
        assert same(int(outs[4][i]), fbits(ref_minmax(x, 2.0, True), "f32"), "f32")
        if p:
            assert int(outs[5][i]) == int_bits(ref_f2i(x, "s32", "rz"), "s32")
        else:
            assert int(outs[5][i]) == 7


def test_f32_ftz_compare_minmax_sign() -> None:
    a, b = pairs("f32", 40)
    body = ("setp.lt.ftz.f32 %p8, %f0, %f1; min.ftz.f32 %f21, %f0, %f1; abs.ftz.f32 %f22, %f0;"
            "neg.ftz.f32 %f23, %f0; max.ftz.f32 %f24, %f0, %f1;")
    outs = run(body, ["f32", "f32"], ["pred", "f32", "f32", "f32", "f32"], [a, b])
    for i in range(len(a)):
        x, y = (ftz_val(to_float(v[i], "f32"), "f32") for v in (a, b))
        assert bool(outs[0][i]) == ref_cmp("lt", x, y)
        assert same(int(outs[1][i]), fbits(ref_minmax(x, y, True), "f32"), "f32"), (x, y)
        assert same(int(outs[2][i]), fbits(abs(x), "f32"), "f32")
        assert same(int(outs[3][i]), fbits(-x, "f32"), "f32")
        assert same(int(outs[4][i]), fbits(ref_minmax(x, y, False), "f32"), "f32"), (x, y)


# ----------------------------------------------------------------------
# diagnostics and the example kernels
# ----------------------------------------------------------------------
@pytest.mark.parametrize("body, msg", [
    ("fma.f32 %f20, %f0, %f0, %f0;", "needs a rounding modifier"),
    ("cvt.s32.f32 %r20, %f0;", "integer rounding"),
    ("cvt.f32.f64 %f20, %fd0;", "needs a rounding modifier"),
    ("div.f32 %f20, %f0, %f0;", "div.f32 needs"),
    ("add.rz.f16 %h20, %h0, %h0;", "unsupported PTX instruction 'add.rz.f16'"),
    ("sqrt.f64 %fd20, %fd0;", "sqrt.f64 needs"),
    ("min.xorsign.abs.f16 %h20, %h0, %h0;", "unsupported PTX instruction"),
    ("setp.lt.f16x2 %p8|%p9, %r0, %r0;", "unsupported PTX instruction 'setp.lt.f16x2'"),
    ("cvt.rn.relu.f16.f32 %h20, %f0;", "modifier '.relu'"),
    ("testp.normal.f16 %p8, %h0;", "unsupported PTX instruction 'testp.normal.f16'"),
])
def test_diagnostics(body: str, msg: str) -> None:
    with pytest.raises(PtxSyntaxError, match=msg):
        import_ptx(kernel(body, ["f32"], []))


@pytest.mark.parametrize("name", ["float32", "fp64", "half"])
def test_examples_import(name: str) -> None:
    text = (ROOT / "examples" / "ptx" / "sm_80" / f"{name}.ptx").read_text()
    m = import_ptx(text, f"{name}.ptx")
    m.verify()
