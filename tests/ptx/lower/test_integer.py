"""Integer and predicate PTX lowerings (``ori_dialect/ptx/lower/integer.py``).

Each case is a small PTX kernel: every thread loads its inputs from arrays,
runs the instruction under test and stores the result; the kernel is
imported with ``import_ptx``, verified, run in the interpreter on a few
hundred random inputs plus edge cases (0, 1, -1, INT_MIN, INT_MAX, all ones,
carries across the 32-bit halves, shift amounts 0..255) and compared
bit-exactly with a Python reference on unbounded ints.
"""

from __future__ import annotations

import contextlib
import io
import random
from collections.abc import Callable, Sequence
from copy import copy

import numpy as np
import pytest

from ori_dialect.interpreter import run_kernel
from ori_dialect.ptx import PtxSyntaxError
from ori_dialect.ptx.lower import import_ptx
from ori_dialect.testing.equivalence import apply_pipeline, run_launch

NP = {"u16": np.uint16, "s16": np.uint16, "b16": np.uint16, "u32": np.uint32, "s32": np.uint32,
      "b32": np.uint32, "u64": np.uint64, "s64": np.uint64, "b64": np.uint64, "f32": np.uint32,
      "f64": np.uint64, "pred": np.uint32}
BITS = {"u16": 16, "s16": 16, "b16": 16, "u32": 32, "s32": 32, "b32": 32, "f32": 32, "pred": 32,
        "u64": 64, "s64": 64, "b64": 64, "f64": 64}
N = 256


def build(body: str, in_types: Sequence[str], out_types: Sequence[str]) -> str:
    k = len(in_types) + len(out_types)
    params = ", ".join(f".param .u64 p{i}" for i in range(k))
    lines = [".version 8.0", ".target sm_80", ".address_size 64",
             f".visible .entry k({params})", "{",
             "  .reg .u32 %tid, %t1, %t2, %tmp; .reg .u64 %ad<16>; .reg .pred %g<4>;"]
    lines += [f"  .reg .{t} %a{i};" for i, t in enumerate(in_types)]
    lines += [f"  .reg .{t} %d{i};" for i, t in enumerate(out_types)]
    lines += ["  mov.u32 %t1, %tid.x;", "  mov.u32 %t2, %ctaid.x;", "  mov.u32 %tid, %ntid.x;",
              "  mad.lo.u32 %tid, %t2, %tid, %t1;"]
    for i, t in enumerate([*in_types, *out_types]):
        lines += [f"  ld.param.u64 %ad{i}, [p{i}];", f"  cvta.to.global.u64 %ad{i}, %ad{i};",
                  f"  mul.wide.u32 %ad15, %tid, {max(BITS[t] // 8, 2)};",
                  f"  add.s64 %ad{i}, %ad{i}, %ad15;"]
    # outputs are loaded too: they start with their old value (guarded forms)
    for i, t in enumerate([*in_types, *out_types]):
        r = f"%a{i}" if i < len(in_types) else f"%d{i - len(in_types)}"
        if t == "pred":
            lines += [f"  ld.global.u32 %tmp, [%ad{i}];", f"  setp.ne.u32 {r}, %tmp, 0;"]
        else:
            lines.append(f"  ld.global.{t} {r}, [%ad{i}];")
    lines.append(body)
    for i, t in enumerate(out_types):
        j = len(in_types) + i
        if t == "pred":
            lines += [f"  selp.u32 %tmp, 1, 0, %d{i};", f"  st.global.u32 [%ad{j}], %tmp;"]
        else:
            lines.append(f"  st.global.{t} [%ad{j}], %d{i};")
    lines += ["  ret;", "}"]
    return "\n".join(lines)


def run(body: str, ins: Sequence[tuple[str, Sequence[int]]], out_types: Sequence[str],
        init: Sequence[Sequence[int]] | None = None) -> list[list[int]]:
    in_types = [t for t, _ in ins]
    mod = import_ptx(build(body, in_types, out_types), "<test>")
    mod.verify()
    n = len(ins[0][1])
    assert n % 64 == 0
    outs = [np.array(init[i] if init else [0] * n, dtype=NP[t]) for i, t in enumerate(out_types)]
    args = [np.array([v & ((1 << BITS[t]) - 1) for v in a], dtype=NP[t]) for t, a in ins] + outs
    res = run_kernel(mod, "k", grid=(n // 64, 1, 1), block=(64, 1, 1), args=args)
    return [[int(x) for x in res[len(ins) + i]] for i in range(len(out_types))]


EDGE32 = [0, 1, 2, 3, 0xFFFFFFFF, 0xFFFFFFFE, 0x80000000, 0x7FFFFFFF, 0x80000001, 0xFFFF,
          0x10000, 0x8000, 0x7FFF, 7, 0xAAAAAAAA, 0x55555555]
EDGE64 = [*EDGE32, 0xFFFFFFFFFFFFFFFF, 0x8000000000000000, 0x7FFFFFFFFFFFFFFF, 0x100000000,
          0xFFFFFFFF00000000, 0x00000001FFFFFFFF, 0x8000000000000001, 0xFFFFFFFF80000000,
          0x0000000080000000]


def gen(t: str, rng: random.Random, n: int = N, edges: Sequence[int] | None = None) -> list[int]:
    bits = BITS[t]
    m = (1 << bits) - 1
    e = [x & m for x in (edges if edges is not None else (EDGE64 if bits == 64 else EDGE32))]
    e = list(dict.fromkeys(e))
    out = []
    for _ in range(n - len(e)):
        k = rng.randrange(4)
        if k == 0:  # small magnitudes (also negative)
            out.append(rng.randrange(-300, 300) & m)
        elif k == 1:  # near the 32-bit boundary (carries between halves)
            out.append((rng.randrange(-5, 5) + (0xFFFFFFFF if rng.random() < 0.5 else 0x80000000)
                        + (rng.getrandbits(32) << 32 if bits == 64 else 0)) & m)
        else:
            out.append(rng.getrandbits(bits))
    v = e + out
    rng.shuffle(v)
    return v


def sx(x: int, bits: int) -> int:
    x &= (1 << bits) - 1
    return x - (1 << bits) if x >> (bits - 1) else x


def val(x: int, t: str) -> int:
    """The value of bit pattern ``x`` as PTX type ``t`` reads it."""
    b = BITS[t]
    return sx(x, b) if t[0] == "s" else x & ((1 << b) - 1)


def check(body: str, in_types: Sequence[str], out_t: str, ref: Callable[..., int], seed: int = 1,
          inputs: Sequence[Sequence[int]] | None = None) -> None:
    rng = random.Random(seed)
    ins = inputs if inputs is not None else [gen(t, rng) for t in in_types]
    (got,) = run(body, list(zip(in_types, ins)), [out_t])
    m = (1 << BITS[out_t]) - 1
    for i, args in enumerate(zip(*ins)):
        want = ref(*args) & m
        assert got[i] == want, f"{body} inputs={[hex(a) for a in args]}: got {got[i]:#x}, want {want:#x}"


SIZED = ["u16", "s16", "u32", "s32", "u64", "s64"]


# --------------------------------------------------------------------------- add/sub/mul/mad
@pytest.mark.parametrize("t", SIZED)
@pytest.mark.parametrize("op", ["add", "sub"])
def test_add_sub(op: str, t: str) -> None:
    f = (lambda a, b: a + b) if op == "add" else (lambda a, b: a - b)
    check(f"{op}.{t} %d0, %a0, %a1;", [t, t], t, f)


@pytest.mark.parametrize("op", ["add", "sub"])
def test_add_sub_immediates(op: str) -> None:
    f = (lambda a, b: a + 0x12345) if op == "add" else (lambda a, b: a - 0x12345)
    check(f"{op}.u32 %d0, %a0, 0x12345;", ["u32", "u32"], "u32", f)
    g = (lambda a, b: 0x10000000F + a) if op == "add" else (lambda a, b: 0x10000000F - a)
    check(f"{op}.s64 %d0, 0x10000000F, %a0;", ["s64", "s64"], "s64", g)


@pytest.mark.parametrize("op", ["add", "sub"])
def test_add_sub_sat(op: str) -> None:
    def f(a: int, b: int) -> int:
        r = sx(a, 32) + sx(b, 32) if op == "add" else sx(a, 32) - sx(b, 32)
        return max(-(2**31), min(2**31 - 1, r))

    check(f"{op}.sat.s32 %d0, %a0, %a1;", ["s32", "s32"], "s32", f)


@pytest.mark.parametrize("mode,t", [(m, t) for m in ("lo", "hi", "wide") for t in SIZED
                                     if not (m == "wide" and t.endswith("64"))])
def test_mul(mode: str, t: str) -> None:
    bits = BITS[t]
    out_t = t if mode != "wide" else t[0] + str(2 * bits)

    def f(a: int, b: int) -> int:
        p = val(a, t) * val(b, t)
        return p >> bits if mode == "hi" else p

    check(f"mul.{mode}.{t} %d0, %a0, %a1;", [t, t], out_t, f)


@pytest.mark.parametrize("mode,t", [(m, t) for m in ("lo", "hi", "wide") for t in SIZED
                                     if not (m == "wide" and t.endswith("64"))])
def test_mad(mode: str, t: str) -> None:
    bits = BITS[t]
    ct = t if mode != "wide" else t[0] + str(2 * bits)

    def f(a: int, b: int, c: int) -> int:
        p = val(a, t) * val(b, t)
        return (p >> bits if mode == "hi" else p) + c

    check(f"mad.{mode}.{t} %d0, %a0, %a1, %a2;", [t, t, ct], ct, f)


def test_mad_hi_sat() -> None:
    def f(a: int, b: int, c: int) -> int:
        r = ((sx(a, 32) * sx(b, 32)) >> 32) + sx(c, 32)
        return max(-(2**31), min(2**31 - 1, r))

    rng = random.Random(3)
    big = [0x7FFFFFFF, 0x80000000, 0x7FFFFFF0, 0x80000010]
    ins = [gen("s32", rng, edges=big), gen("s32", rng, edges=big), gen("s32", rng, edges=big)]
    check("mad.hi.sat.s32 %d0, %a0, %a1, %a2;", ["s32"] * 3, "s32", f, inputs=ins)


@pytest.mark.parametrize("t", ["u32", "s32"])
@pytest.mark.parametrize("mode", ["lo", "hi"])
@pytest.mark.parametrize("op", ["mul24", "mad24"])
def test_mul24(op: str, mode: str, t: str) -> None:
    def f(a: int, b: int, c: int) -> int:
        x = sx(a, 24) if t == "s32" else a & 0xFFFFFF
        y = sx(b, 24) if t == "s32" else b & 0xFFFFFF
        p = x * y
        r = (p >> 16) if mode == "hi" else p
        return r + (c if op == "mad24" else 0)

    extra = ", %a2" if op == "mad24" else ""
    check(f"{op}.{mode}.{t} %d0, %a0, %a1{extra};", [t, t, t], t, f)


# --------------------------------------------------------------------------- carry chains
def test_add_cc_chain_96() -> None:
    """A 96-bit addition: add.cc, addc.cc, addc."""
    rng = random.Random(5)
    xs = [gen("u32", rng) for _ in range(6)]
    body = """
  add.cc.u32 %d0, %a0, %a3;
  addc.cc.u32 %d1, %a1, %a4;
  addc.u32 %d2, %a2, %a5;
"""
    got = run(body, [("u32", x) for x in xs], ["u32"] * 3)
    for i in range(N):
        a = xs[0][i] | xs[1][i] << 32 | xs[2][i] << 64
        b = xs[3][i] | xs[4][i] << 32 | xs[5][i] << 64
        s = (a + b) & ((1 << 96) - 1)
        assert [got[0][i], got[1][i], got[2][i]] == [s & 0xFFFFFFFF, (s >> 32) & 0xFFFFFFFF, s >> 64]


def test_sub_cc_chain_96() -> None:
    rng = random.Random(6)
    xs = [gen("u32", rng) for _ in range(6)]
    body = """
  sub.cc.u32 %d0, %a0, %a3;
  subc.cc.u32 %d1, %a1, %a4;
  subc.u32 %d2, %a2, %a5;
"""
    got = run(body, [("u32", x) for x in xs], ["u32"] * 3)
    for i in range(N):
        a = xs[0][i] | xs[1][i] << 32 | xs[2][i] << 64
        b = xs[3][i] | xs[4][i] << 32 | xs[5][i] << 64
        s = (a - b) & ((1 << 96) - 1)
        assert [got[0][i], got[1][i], got[2][i]] == [s & 0xFFFFFFFF, (s >> 32) & 0xFFFFFFFF, s >> 64]


def test_add_cc_64bit_halves() -> None:
    """add.cc.u64/addc.u64: a 128-bit addition of 64-bit limbs."""
    rng = random.Random(7)
    xs = [gen("u64", rng) for _ in range(4)]
    body = "  add.cc.u64 %d0, %a0, %a2;\n  addc.u64 %d1, %a1, %a3;"
    got = run(body, [("u64", x) for x in xs], ["u64"] * 2)
    for i in range(N):
        s = ((xs[0][i] | xs[1][i] << 64) + (xs[2][i] | xs[3][i] << 64)) & ((1 << 128) - 1)
        assert (got[0][i], got[1][i]) == (s & ((1 << 64) - 1), s >> 64)


def test_mad_cc_chain() -> None:
    """(a*b + c) as 64 bits from mad.lo.cc + madc.hi, with carries."""
    rng = random.Random(8)
    xs = [gen("u32", rng) for _ in range(4)]
    body = "  mad.lo.cc.u32 %d0, %a0, %a1, %a2;\n  madc.hi.u32 %d1, %a0, %a1, %a3;"
    got = run(body, [("u32", x) for x in xs], ["u32"] * 2)
    for i in range(N):
        s = (xs[0][i] * xs[1][i] + (xs[2][i] | xs[3][i] << 32)) & ((1 << 64) - 1)
        assert (got[0][i], got[1][i]) == (s & 0xFFFFFFFF, s >> 32)


# --------------------------------------------------------------------------- division
def _tdiv(a: int, b: int) -> tuple[int, int]:
    q = abs(a) // abs(b)
    q = -q if (a < 0) != (b < 0) else q
    return q, a - q * b


@pytest.mark.parametrize("t", SIZED)
@pytest.mark.parametrize("op", ["div", "rem"])
def test_div_rem(op: str, t: str) -> None:
    bits = BITS[t]

    def f(a: int, b: int) -> int:
        x, y = val(a, t), val(b, t)
        if y == 0:
            return -1  # all ones, div and rem (documented choice)
        q, r = _tdiv(x, y)
        return q if op == "div" else r

    rng = random.Random(11)
    a = gen(t, rng)
    b = gen(t, rng)
    # divisors of every size, so the quotient takes every length
    for i in range(0, N, 3):
        b[i] = rng.getrandbits(rng.randrange(1, bits + 1))
    b[:4] = [0, 0, (1 << bits) - 1, 1]
    a[:4] = [5, 1 << (bits - 1), 1 << (bits - 1), 1 << (bits - 1)]  # INT_MIN / -1
    check(f"{op}.{t} %d0, %a0, %a1;", [t, t], t, f, inputs=[a, b])


def test_div_u32_exhaustive_small_divisors() -> None:
    """The reciprocal sequence near its weak spots: every divisor 1..64 and
    large divisors near powers of two, against dividends near multiples."""
    rng = random.Random(12)
    bs = [*range(1, 65), *((1 << k) + d for k in range(6, 32) for d in (-1, 0, 1))]
    a, b = [], []
    for d in bs:
        for _ in range(3):
            q = rng.getrandbits(32) // d
            a.append(min(q * d + rng.choice([0, d - 1, -1 if q else 0]), 0xFFFFFFFF) & 0xFFFFFFFF)
            b.append(d)
    while len(a) % 64:
        a.append(0xFFFFFFFF)
        b.append(3)
    check("div.u32 %d0, %a0, %a1;", ["u32", "u32"], "u32", lambda x, y: x // y, inputs=[a, b])


# --------------------------------------------------------------------------- min/max/abs/neg
@pytest.mark.parametrize("t", SIZED)
@pytest.mark.parametrize("op", ["min", "max"])
def test_min_max(op: str, t: str) -> None:
    f = min if op == "min" else max
    check(f"{op}.{t} %d0, %a0, %a1;", [t, t], t, lambda a, b: f(val(a, t), val(b, t)))


@pytest.mark.parametrize("op", ["min", "max"])
def test_min_max_relu(op: str) -> None:
    f = min if op == "min" else max
    check(f"{op}.relu.s32 %d0, %a0, %a1;", ["s32", "s32"], "s32",
          lambda a, b: max(f(sx(a, 32), sx(b, 32)), 0))


@pytest.mark.parametrize("t", ["s16", "s32", "s64"])
@pytest.mark.parametrize("op", ["abs", "neg"])
def test_abs_neg(op: str, t: str) -> None:
    f = (lambda a: abs(val(a, t))) if op == "abs" else (lambda a: -val(a, t))
    check(f"{op}.{t} %d0, %a0;", [t], t, f)


# --------------------------------------------------------------------------- logic
@pytest.mark.parametrize("t", ["b16", "b32", "b64"])
@pytest.mark.parametrize("op", ["and", "or", "xor", "not", "cnot"])
def test_logic(op: str, t: str) -> None:
    fs: dict[str, Callable[..., int]] = {
        "and": lambda a, b: a & b, "or": lambda a, b: a | b, "xor": lambda a, b: a ^ b,
        "not": lambda a, b: ~a, "cnot": lambda a, b: int((a & ((1 << BITS[t]) - 1)) == 0),
    }
    src = "%a0" if op in ("not", "cnot") else "%a0, %a1"
    check(f"{op}.{t} %d0, {src};", [t, t], t, fs[op])


def test_logic_immediate() -> None:
    check("xor.b32 %d0, 0xF0F0F0F0, %a0;", ["b32"], "b32", lambda a: a ^ 0xF0F0F0F0)
    check("and.b64 %d0, %a0, 0xFFFF0000FFFF;", ["b64"], "b64", lambda a: a & 0xFFFF0000FFFF)


@pytest.mark.parametrize("op", ["and", "or", "xor"])
def test_pred_logic(op: str) -> None:
    f: Callable[[int, int], int] = {"and": lambda a, b: a & b, "or": lambda a, b: a | b,
                                    "xor": lambda a, b: a ^ b}[op]
    rng = random.Random(13)
    a = [rng.randrange(2) for _ in range(N)]
    b = [rng.randrange(2) for _ in range(N)]
    check(f"{op}.pred %d0, %a0, %a1;", ["pred", "pred"], "pred", f, inputs=[a, b])
    check(f"{op}.pred %d0, !%a0, %a1;", ["pred", "pred"], "pred", lambda x, y: f(1 - x, y),
          inputs=[a, b])
    check("not.pred %d0, %a0;", ["pred"], "pred", lambda x: 1 - x, inputs=[a])


@pytest.mark.parametrize("table", [0x96, 0xE8, 0xCA, 0x1E, 0x80, 0x01, 0xFE, 0x6A])
def test_lop3(table: int) -> None:
    def f(a: int, b: int, c: int) -> int:
        r = 0
        for i in range(32):
            k = ((a >> i) & 1) << 2 | ((b >> i) & 1) << 1 | ((c >> i) & 1)
            r |= ((table >> k) & 1) << i
        return r

    check(f"lop3.b32 %d0, %a0, %a1, %a2, {table:#x};", ["b32"] * 3, "b32", f)


@pytest.mark.parametrize("bop", ["and", "or"])
def test_lop3_predicate_output(bop: str) -> None:
    rng = random.Random(14)
    a, b = gen("b32", rng), gen("b32", rng)
    q = [rng.randrange(2) for _ in range(N)]
    body = f"  lop3.{bop}.b32 %d0|%d1, %a0, %a1, 0, 0xC0, %a2;"  # d = a & b
    got = run(body, [("b32", a), ("b32", b), ("pred", q)], ["b32", "pred"])
    for i in range(N):
        d = a[i] & b[i]
        p = (d != 0) and q[i] if bop == "and" else (d != 0) or q[i]
        assert (got[0][i], got[1][i]) == (d, int(p))


# --------------------------------------------------------------------------- shifts
SHIFTS = [0, 1, 15, 16, 17, 31, 32, 33, 63, 64, 65, 255, 256, 0xFFFFFFFF, 0x80000000]


@pytest.mark.parametrize("t", ["b16", "u16", "s16", "b32", "u32", "s32", "b64", "u64", "s64"])
@pytest.mark.parametrize("op", ["shl", "shr"])
def test_shift(op: str, t: str) -> None:
    bits = BITS[t]

    def f(a: int, s: int) -> int:
        x = val(a, t) if op == "shr" else a
        s = min(s, bits)
        return x << s if op == "shl" else x >> s  # Python >> on negatives = sign fill

    rng = random.Random(15)
    sh = [rng.randrange(0, 70) for _ in range(N)]
    sh[:len(SHIFTS)] = SHIFTS
    check(f"{op}.{t} %d0, %a0, %a1;", [t, "u32"], t, f, inputs=[gen(t, rng), sh])


def test_shift_immediates() -> None:
    check("shr.s64 %d0, %a0, 40;", ["s64"], "s64", lambda a: sx(a, 64) >> 40)
    check("shl.b64 %d0, %a0, 64;", ["b64"], "b64", lambda a: 0)
    check("shr.u32 %d0, %a0, 300;", ["u32"], "u32", lambda a: 0)


@pytest.mark.parametrize("d", ["l", "r"])
@pytest.mark.parametrize("mode", ["wrap", "clamp"])
def test_shf(d: str, mode: str) -> None:
    def f(lo: int, hi: int, s: int) -> int:
        n = s & 31 if mode == "wrap" else min(s, 32)
        v = hi << 32 | lo
        return (v << n) >> 32 if d == "l" else v >> n

    rng = random.Random(16)
    sh = [rng.randrange(0, 70) for _ in range(N)]
    sh[:len(SHIFTS)] = SHIFTS
    check(f"shf.{d}.{mode}.b32 %d0, %a0, %a1, %a2;", ["b32", "b32", "u32"], "b32", f,
          inputs=[gen("b32", rng), gen("b32", rng), sh])


# --------------------------------------------------------------------------- bit fields
def _bfe_ref(a: int, pos: int, ln: int, t: str) -> int:
    msb = BITS[t] - 1
    pos, ln = pos & 0xFF, ln & 0xFF
    sbit = 0 if t[0] == "u" or ln == 0 else (a >> min(pos + ln - 1, msb)) & 1
    d = 0
    for i in range(msb + 1):
        bit = (a >> (pos + i)) & 1 if i < ln and pos + i <= msb else sbit
        d |= bit << i
    return d


@pytest.mark.parametrize("t", ["u32", "s32", "u64", "s64"])
def test_bfe(t: str) -> None:
    rng = random.Random(17)
    pos = [rng.randrange(0, 80) | (rng.randrange(4) << 8 if rng.random() < 0.1 else 0)
           for _ in range(N)]
    ln = [rng.randrange(0, 80) for _ in range(N)]
    pos[:6], ln[:6] = [0, 0, 31, 63, 5, 255], [0, 64, 1, 1, 255, 3]
    check(f"bfe.{t} %d0, %a0, %a1, %a2;", [t, "u32", "u32"], t,
          lambda a, p, n: _bfe_ref(a, p, n, t), inputs=[gen(t, rng), pos, ln])


@pytest.mark.parametrize(("pos", "ln"), [(0, 1), (2, 1), (6, 1), (5, 2), (30, 5), (0, 31),
                                         (3, 31), (31, 1), (0, 32), (4, 0), (40, 3)])
def test_bfe_s32_immediates(pos: int, ln: int) -> None:
    """Immediate fields are SHR + SGXT (ptxas's SHF.R.S32.HI + SGXT) for a
    length in 1..31; past bit 31 the field extends a[31]."""
    body = f"bfe.s32 %d0, %a0, {pos}, {ln};"
    check(body, ["s32"], "s32", lambda a: _bfe_ref(a, pos, ln, "s32"), seed=pos * 64 + ln)
    names = [op.name for op in import_ptx(build(body, ["s32"], ["s32"]), "<test>").walk()]
    assert names.count("ori.sgxt") == (1 if 0 < ln < 32 else 0)
    if 0 < ln < 32:  # no shift pair: one SHR at most (none for pos 0)
        assert names.count("ori.shl") == 0
        assert names.count("ori.shr") == (1 if pos else 0)


@pytest.mark.parametrize("t", ["b32", "b64"])
def test_bfi(t: str) -> None:
    msb = BITS[t] - 1

    def f(fv: int, b: int, pos: int, ln: int) -> int:
        pos, ln = pos & 0xFF, ln & 0xFF
        d = b
        i = 0
        while i < ln and pos + i <= msb:
            d = (d & ~(1 << (pos + i))) | (((fv >> i) & 1) << (pos + i))
            i += 1
        return d

    rng = random.Random(18)
    pos = [rng.randrange(0, 80) for _ in range(N)]
    ln = [rng.randrange(0, 80) for _ in range(N)]
    pos[:5], ln[:5] = [0, 0, 31, 63, 300], [0, 255, 5, 7, 3]
    check(f"bfi.{t} %d0, %a0, %a1, %a2, %a3;", [t, t, "u32", "u32"], t, f,
          inputs=[gen(t, rng), gen(t, rng), pos, ln])


@pytest.mark.parametrize("mode", ["clamp", "wrap"])
def test_bmsk(mode: str) -> None:
    """PTX ISA 9.7.8.9: ``b`` ones from bit ``a``; positions and widths clamp
    at 32 or wrap mod 32 (CUB's radix-sort digit masks)."""

    def f(a: int, b: int) -> int:
        a, b = (a & 31, b & 31) if mode == "wrap" else (min(a, 32), min(b, 32))
        return ((1 << b) - 1) << a

    rng = random.Random(19)
    a = [rng.randrange(0, 70) for _ in range(N)]
    b = [rng.randrange(0, 70) for _ in range(N)]
    a[:6], b[:6] = [0, 31, 32, 33, 0, 0xFFFFFFFF], [32, 1, 1, 0, 0, 3]
    check(f"bmsk.{mode}.b32 %d0, %a0, %a1;", ["b32", "b32"], "b32", f, inputs=[a, b])


def test_bmsk_needs_a_mode() -> None:
    with pytest.raises(PtxSyntaxError, match="bmsk needs exactly one of"):
        run("bmsk.b32 %d0, %a0, %a1;", [("b32", [1]), ("b32", [2])], ["b32"])


_MODES = {
    "f4e": ((0, 1, 2, 3), (1, 2, 3, 4), (2, 3, 4, 5), (3, 4, 5, 6)),
    "b4e": ((0, 7, 6, 5), (1, 0, 7, 6), (2, 1, 0, 7), (3, 2, 1, 0)),
    "rc8": ((0, 0, 0, 0), (1, 1, 1, 1), (2, 2, 2, 2), (3, 3, 3, 3)),
    "ecl": ((0, 1, 2, 3), (1, 1, 2, 3), (2, 2, 2, 3), (3, 3, 3, 3)),
    "ecr": ((0, 0, 0, 0), (0, 1, 1, 1), (0, 1, 2, 2), (0, 1, 2, 3)),
    "rc16": ((0, 1, 0, 1), (2, 3, 2, 3), (0, 1, 0, 1), (2, 3, 2, 3)),
}


@pytest.mark.parametrize("mode", ["", *_MODES])
def test_prmt(mode: str) -> None:
    def f(a: int, b: int, c: int) -> int:
        src = (b << 32 | a).to_bytes(8, "little")
        r = 0
        for i in range(4):
            if mode:
                sel = _MODES[mode][c & 3][i]
                byte = src[sel]
            else:
                nib = (c >> (4 * i)) & 0xF
                byte = src[nib & 7]
                if nib & 8:
                    byte = 0xFF if byte & 0x80 else 0
            r |= byte << (8 * i)
        return r

    m = f".{mode}" if mode else ""
    check(f"prmt.b32{m} %d0, %a0, %a1, %a2;", ["b32"] * 3, "b32", f)


# --------------------------------------------------------------------------- bit counting
@pytest.mark.parametrize("t", ["b32", "b64"])
def test_popc_clz_brev(t: str) -> None:
    bits = BITS[t]
    check(f"popc.{t} %tmp, %a0; cvt.u64.u32 %ad14, %tmp; mov.b64 %d0, %ad14;" if bits == 64 else
          f"popc.{t} %d0, %a0;", [t], t, lambda a: a.bit_count())
    check(f"clz.{t} %tmp, %a0; cvt.u64.u32 %ad14, %tmp; mov.b64 %d0, %ad14;" if bits == 64 else
          f"clz.{t} %d0, %a0;", [t], t, lambda a: bits - a.bit_length())
    check(f"brev.{t} %d0, %a0;", [t], t, lambda a: int(f"{a:0{bits}b}"[::-1], 2))


@pytest.mark.parametrize("t", ["u32", "s32", "u64", "s64"])
@pytest.mark.parametrize("shiftamt", [False, True])
def test_bfind(t: str, shiftamt: bool) -> None:
    bits = BITS[t]

    def f(a: int) -> int:
        x = val(a, t)
        if x < 0:
            x = ~x
        if x == 0:
            return 0xFFFFFFFF
        p = x.bit_length() - 1
        return bits - 1 - p if shiftamt else p

    s = ".shiftamt" if shiftamt else ""
    check(f"bfind{s}.{t} %d0, %a0;", [t], "u32", f)


# --------------------------------------------------------------------------- compares
INT_CMPS = {"eq": lambda a, b: a == b, "ne": lambda a, b: a != b, "lt": lambda a, b: a < b,
            "le": lambda a, b: a <= b, "gt": lambda a, b: a > b, "ge": lambda a, b: a >= b}
UNS_CMPS = {"lo": "lt", "ls": "le", "hi": "gt", "hs": "ge"}


def _close_pairs(t: str, rng: random.Random) -> tuple[list[int], list[int]]:
    """Inputs where a and b are often equal or equal in one half."""
    a, b = gen(t, rng), gen(t, rng)
    bits = BITS[t]
    for i in range(0, N, 4):
        b[i] = a[i]
        if bits == 64:
            b[i + 1] = (a[i + 1] & 0xFFFFFFFF00000000) | (b[i + 1] & 0xFFFFFFFF)
            b[i + 2] = (a[i + 2] & 0xFFFFFFFF) | (b[i + 2] & 0xFFFFFFFF00000000)
    return a, b


@pytest.mark.parametrize("t", ["u16", "s16", "b32", "u32", "s32", "u64", "s64"])
def test_setp_all_compares(t: str) -> None:
    rng = random.Random(19)
    a, b = _close_pairs(t, rng)
    names = list(INT_CMPS) + (list(UNS_CMPS) if t[0] != "b" else [])
    if t[0] == "b":
        names = ["eq", "ne"]
    body = "\n".join(
        f"  setp.{c}.{t} %g0, %a0, %a1; selp.u32 %tmp, {1 << k}, 0, %g0; or.b32 %d0, %d0, %tmp;"
        for k, c in enumerate(names))
    (got,) = run(body, [(t, a), (t, b)], ["u32"])
    for i in range(N):
        want = 0
        for k, c in enumerate(names):
            if c in UNS_CMPS:
                r = INT_CMPS[UNS_CMPS[c]](a[i], b[i])
            else:
                r = INT_CMPS[c](val(a[i], t), val(b[i], t))
            want |= int(r) << k
        assert got[i] == want, (c, hex(a[i]), hex(b[i]))


@pytest.mark.parametrize("t", ["s32", "u64", "s64"])
@pytest.mark.parametrize("bop", ["and", "or", "xor"])
@pytest.mark.parametrize("neg", [False, True])
def test_setp_combining(t: str, bop: str, neg: bool) -> None:
    rng = random.Random(20)
    a, b = _close_pairs(t, rng)
    c = [rng.randrange(2) for _ in range(N)]
    n = "!" if neg else ""
    body = f"  setp.lt.{bop}.{t} %d0|%d1, %a0, %a1, {n}%a2;"
    got = run(body, [(t, a), (t, b), ("pred", c)], ["pred", "pred"])
    f: Callable[[int, int], int] = {"and": lambda x, y: x & y, "or": lambda x, y: x | y,
                                    "xor": lambda x, y: x ^ y}[bop]
    for i in range(N):
        r = int(val(a[i], t) < val(b[i], t))
        cv = c[i] ^ int(neg)
        assert (got[0][i], got[1][i]) == (f(r, cv), f(1 - r, cv))


def test_setp_immediate_and_narrow_register() -> None:
    # a .b32 register read as .s16: only its low 16 bits count
    check("setp.lt.s16 %g0, %a0, -5; selp.u32 %d0, 1, 0, %g0;", ["b32"], "u32",
          lambda a: int(sx(a, 16) < -5))


# --------------------------------------------------------------------------- selection
@pytest.mark.parametrize("t", ["u16", "b32", "s64", "f32", "f64"])
def test_selp(t: str) -> None:
    rng = random.Random(21)
    p = [rng.randrange(2) for _ in range(N)]
    check(f"selp.{t} %d0, %a0, %a1, %a2;", [t, t, "pred"], t, lambda a, b, c: a if c else b,
          inputs=[gen(t, rng), gen(t, rng), p])


def test_selp_immediates() -> None:
    check("selp.f32 %d0, 0f3F800000, %a0, %a1;", ["f32", "pred"], "f32",
          lambda a, c: 0x3F800000 if c else a,
          inputs=[gen("f32", random.Random(1)), [i & 1 for i in range(N)]])


@pytest.mark.parametrize("dt", ["u32", "s32", "f32"])
@pytest.mark.parametrize("st", ["s32", "u64", "u16"])
def test_set(dt: str, st: str) -> None:
    true = 0x3F800000 if dt == "f32" else 0xFFFFFFFF
    rng = random.Random(22)
    a, b = _close_pairs(st, rng)
    check(f"set.le.{dt}.{st} %d0, %a0, %a1;", [st, st], dt,
          lambda x, y: true if val(x, st) <= val(y, st) else 0, inputs=[a, b])


def test_set_combining() -> None:
    rng = random.Random(23)
    c = [rng.randrange(2) for _ in range(N)]
    check("set.gt.or.u32.s32 %d0, %a0, %a1, !%a2;", ["s32", "s32", "pred"], "u32",
          lambda x, y, z: 0xFFFFFFFF if (sx(x, 32) > sx(y, 32)) or not z else 0,
          inputs=[gen("s32", rng), gen("s32", rng), c])


def test_set_f32_source() -> None:
    xs = [0x3F800000, 0xBF800000, 0x7FC00000, 0x00000000, 0x80000000, 0x7F800000] * 43
    ys = [0x00000000, 0x80000000, 0x3F800000, 0x80000000, 0x00000000, 0x7F800000] * 43
    xs, ys = xs[:N], ys[:N]

    def f(a: int, b: int) -> int:
        x, y = (np.array([a, b], np.uint32).view(np.float32)).tolist()
        return 0xFFFFFFFF if x >= y else 0

    check("set.ge.u32.f32 %d0, %a0, %a1;", ["f32", "f32"], "u32", f, inputs=[xs, ys])


@pytest.mark.parametrize("dt", ["u32", "s64", "u16"])
def test_slct_s32(dt: str) -> None:
    check(f"slct.{dt}.s32 %d0, %a0, %a1, %a2;", [dt, dt, "s32"], dt,
          lambda a, b, c: a if sx(c, 32) >= 0 else b)


def test_slct_f32() -> None:
    cs = [0x00000000, 0x80000000, 0x3F800000, 0xBF800000, 0x7FC00000, 0x00000001] * 43
    cs = cs[:N]

    def f(a: int, b: int, c: int) -> int:
        x = float(np.array([c], np.uint32).view(np.float32)[0])
        return a if x >= 0 else b

    rng = random.Random(24)
    check("slct.u32.f32 %d0, %a0, %a1, %a2;", ["u32", "u32", "f32"], "u32", f,
          inputs=[gen("u32", rng), gen("u32", rng), cs])


@pytest.mark.parametrize("t", ["u16", "s16", "u32", "s32", "u64", "s64"])
def test_sad(t: str) -> None:
    check(f"sad.{t} %d0, %a0, %a1, %a2;", [t, t, t], t,
          lambda a, b, c: abs(val(a, t) - val(b, t)) + c)


# --------------------------------------------------------------------------- guards, operands
@pytest.mark.parametrize("t", ["u32", "u64", "s16"])
def test_guarded_keeps_old_value(t: str) -> None:
    rng = random.Random(25)
    a, b, old = gen(t, rng), gen(t, rng), gen(t, rng)
    p = [rng.randrange(2) for _ in range(N)]
    body = f"  @%a2 add.{t} %d0, %a0, %a1;\n  @!%a2 mul.lo.{t} %d1, %a0, %a1;"
    got = run(body, [(t, a), (t, b), ("pred", p)], [t, t], init=[old, old])
    m = (1 << BITS[t]) - 1
    for i in range(N):
        assert got[0][i] == ((a[i] + b[i]) & m if p[i] else old[i])
        assert got[1][i] == (old[i] if p[i] else (a[i] * b[i]) & m)


def test_guarded_carry_and_division() -> None:
    rng = random.Random(26)
    a, b, old = gen("u64", rng), gen("u64", rng), gen("u64", rng)
    p = [rng.randrange(2) for _ in range(N)]
    body = "  @%a2 div.u64 %d0, %a0, %a1;"
    got = run(body, [("u64", a), ("u64", b), ("pred", p)], ["u64"], init=[old])
    for i in range(N):
        want = (a[i] // b[i] if b[i] else (1 << 64) - 1) if p[i] else old[i]
        assert got[0][i] == want


def test_narrow_ops_read_low_bits_of_wide_registers() -> None:
    """PTX's operand-size rule: a .b32 register used as .u16 contributes its low 16 bits."""
    check("mul.hi.u16 %tmp, %a0, %a1; mov.u32 %d0, %tmp;", ["b32", "b32"], "u32",
          lambda a, b: ((a & 0xFFFF) * (b & 0xFFFF)) >> 16)
    check("div.s16 %tmp, %a0, %a1; mov.u32 %d0, %tmp;", ["b32", "b32"], "u32",
          lambda a, b: (_tdiv(sx(a, 16), sx(b, 16))[0] if b & 0xFFFF else -1) & 0xFFFF)


# --------------------------------------------------------------------------- diagnostics
@pytest.mark.parametrize("line,msg", [
    ("add.sat.u32 %d0, %a0, %a0;", ".sat is defined for .s32 only"),
    ("mul.wide.u64 %d0, %a0, %a0;", ".wide takes 16/32-bit types"),
    ("cnot.pred %g0, %g1;", "cnot takes"),
    ("mul.u32 %d0, %a0, %a0;", "needs .lo, .hi or .wide"),
])
def test_diagnostics(line: str, msg: str) -> None:
    t = "u64" if "u64" in line else "u32"
    with pytest.raises(PtxSyntaxError, match=msg.replace(".", r"\.")):
        import_ptx(build(line, [t], [t]), "<test>")


# --------------------------------------------------------------------------- real kernels
@pytest.mark.parametrize("name", ["int64", "intdiv", "bits"])
def test_example_kernels(name: str) -> None:
    from examples.cuda.launches import LAUNCHES

    launches = [lc for lc in LAUNCHES if lc.file.split(".")[0] == name]
    assert launches
    for lc in launches:
        path = lc.ptx_path("sm_80")
        mod = import_ptx(path.read_text(), str(path))
        mod.verify()
        args = lc.make_args(np.random.default_rng(lc.seed))
        want = lc.expected([copy(a) for a in args])
        got = run_kernel(mod, lc.kernel, lc.grid, lc.block, args, shared_bytes=lc.shared_bytes)
        for g, w in zip(got, want):
            if w is not None:
                lc.check(g, w)


def test_udivmod64_helper_every_edge_pair_before_and_after_ori_ptxas() -> None:
    """``__ori_udivmod64`` (ori_dialect/ptx/lower/runtime.py) on every pair of
    64-bit edge values (zero divisor, divisors >= 2^63, where an earlier
    version needed a 65th remainder bit), on dividends of every leading-zero
    count (2^k and 2^k - 1, k = 0..64, each against small, 32-bit-boundary
    and top-bit divisors) and on random pairs: as imported, and after
    ``ori-ptxas`` in the physical interpreter, where the caller's registers
    live across the call and the helper's own allocation meet."""
    rng = random.Random(27)
    edges = list(dict.fromkeys([*EDGE64, 0xFFFFFFFFFFFFFFFE, 0x8000000000000002,
                                0x0000000100000001, 0x00000000FFFFFFFF]))
    a = [x for x in edges for _ in edges] + [rng.getrandbits(64) for _ in range(64)]
    b = [y for _ in edges for y in edges] + [rng.getrandbits(rng.randrange(1, 65))
                                             for _ in range(64)]
    widths = [(1 << k) - d for k in range(65) for d in (0, 1) if (1 << k) - d < 1 << 64]
    divisors = [3, 0xFFFFFFFF, 0x100000001, 0x8000000000000001]
    a += [x for x in widths for _ in divisors]
    b += [y for _ in widths for y in divisors]
    while len(a) % 64:
        a.append(rng.getrandbits(64))
        b.append(rng.getrandbits(33))
    body = "  div.u64 %d0, %a0, %a1;\n  rem.u64 %d1, %a0, %a1;"
    mod = import_ptx(build(body, ["u64", "u64"], ["u64", "u64"]), "<test>")
    allones = (1 << 64) - 1
    want_q = [x // y if y else allones for x, y in zip(a, b)]
    want_r = [x % y if y else allones for x, y in zip(a, b)]
    args = [np.array(a, dtype=np.uint64), np.array(b, dtype=np.uint64),
            np.zeros(len(a), dtype=np.uint64), np.zeros(len(a), dtype=np.uint64)]
    for pipeline in ("", "ori-ptxas"):
        if pipeline:
            with contextlib.redirect_stderr(io.StringIO()):
                apply_pipeline(mod, pipeline)
        out = run_launch(mod, "k", args, (len(a) // 64, 1, 1), (64, 1, 1), strict=True,
                         physical=bool(pipeline))
        assert out.results is not None, out.error
        got_q = [int(x) for x in out.results[2]]
        got_r = [int(x) for x in out.results[3]]
        bad = [(hex(x), hex(y)) for x, y, q, r, wq, wr in
               zip(a, b, got_q, got_r, want_q, want_r) if (q, r) != (wq, wr)]
        assert not bad, f"after {pipeline or 'import'}: {bad[:5]}"
