"""Interpreter semantics of the integer, predicate and integer-conversion ops,
checked lane by lane against scalar Python-int references, plus the 64-bit
cross-checks (add/sub/compare/address split into 32-bit ops vs numpy)."""

from __future__ import annotations

import itertools
from collections.abc import Callable, Sequence
from typing import Any

import numpy as np
import pytest
from xdsl.dialects import test as xtest

from ori_dialect.builder import PT, RZ
from ori_dialect.interpreter.semantics.registry import compile_op
from ori_dialect.ir.registers import OriRegisterType, PredType, R32Type, R64Type
from ori_dialect.ops.convert import I2IOp
from ori_dialect.ops.integer import (
    BmskOp,
    BrevOp,
    FloOp,
    IAbsOp,
    IAdd3Op,
    IMadOp,
    IMnMxOp,
    LeaOp,
    Lop3Op,
    MovOp,
    PopcOp,
    PrmtOp,
    SelOp,
    SgxtOp,
    ShfOp,
    ShlOp,
    ShrOp,
)
from ori_dialect.ops.predicate import ISetPOp, P2ROp, PLop3Op, R2POp

R32 = R32Type.unallocated()
R64 = R64Type.unallocated()
P = PredType.unallocated()
M32 = 0xFFFFFFFF
N = 64  # lanes per random test


class Imm:
    """An integer immediate operand in a test (materialised as np.uint32)."""

    def __init__(self, v: int) -> None:
        self.v = v


def run(
    cls: Any,
    srcs: Sequence[Any],
    results: Sequence[Any],
    *,
    mods: str = "",
    smods: dict[str, str] | None = None,
    n: int | None = None,
) -> tuple[np.ndarray, ...]:
    """Build ``cls`` with register operands for the arrays in ``srcs`` and
    constants for ``Imm``/RZ/PT, then run its compiled semantics."""
    operands: list[Any] = []
    values: list[Any] = []
    for s in srcs:
        if isinstance(s, np.ndarray):
            t = {np.dtype(np.uint32): R32, np.dtype(np.uint64): R64, np.dtype(np.bool_): P}[s.dtype]
            operands.append(xtest.TestOp(result_types=[t]).results[0])
            values.append(s)
        elif isinstance(s, Imm):
            operands.append(s.v)
            values.append(np.uint32(s.v & M32))
        elif isinstance(s, OriRegisterType):
            operands.append(s)
            values.append(np.True_ if s == PT else np.uint32(0))
        else:
            raise TypeError(s)
    op = cls.make(operands, list(results), mods=mods, smods=smods)
    op.verify()
    if n is None:
        n = next(len(v) for v in values if isinstance(v, np.ndarray))
    out = compile_op(op)(values, n)
    assert len(out) == len(results)
    for o in out:
        assert isinstance(o, np.ndarray) and o.shape == (n,)
    return out


EDGE32 = [0, 1, 2, 0x7FFFFFFF, 0x80000000, 0x80000001, 0xFFFFFFFF, 0xFFFFFFFE, 0x10000, 0xFFFF]


def rand32(rng: np.random.Generator, n: int = N) -> np.ndarray:
    """Random words with the edge values mixed in."""
    v = rng.integers(0, 1 << 32, n, dtype=np.uint64).astype(np.uint32)
    k = min(len(EDGE32), n // 2)
    v[:k] = rng.choice(np.array(EDGE32, np.uint32), k)
    rng.shuffle(v)
    return v


def s32(x: int) -> int:
    x &= M32
    return x - (1 << 32) if x >> 31 else x


def lanes(*arrs: np.ndarray) -> list[tuple[int, ...]]:
    return list(zip(*(a.tolist() for a in arrs)))


@pytest.fixture
def rng() -> np.random.Generator:
    return np.random.default_rng(1234)


# ----------------------------------------------------------------------
# IADD3
# ----------------------------------------------------------------------
_SM = ["", "neg", "not"]


def _contrib(x: int, m: str) -> int:
    if m == "neg":
        return (~x & M32) + 1
    if m == "not":
        return ~x & M32
    return x


@pytest.mark.parametrize("ma,mb,mc", list(itertools.product(_SM, _SM, _SM)))
def test_iadd3_modifiers_and_carries(rng: np.random.Generator, ma: str, mb: str, mc: str) -> None:
    a, b, c = rand32(rng), rand32(rng), rand32(rng)
    smods = {k: m for k, m in zip("abc", (ma, mb, mc)) if m}
    d, co0, co1 = run(IAdd3Op, [a, b, c], [R32, P, P], smods=smods)
    (d1,) = run(IAdd3Op, [a, b, c], [R32], smods=smods)
    for i, (x, y, z) in enumerate(lanes(a, b, c)):
        s = _contrib(x, ma) + _contrib(y, mb) + _contrib(z, mc)
        k = s >> 32
        assert d[i] == s & M32 == d1[i]
        assert (co0[i], co1[i]) == (k >= 1, k >= 2)


def test_iadd3_x_carry_in(rng: np.random.Generator) -> None:
    a, b, c = rand32(rng), rand32(rng), rand32(rng)
    p, q = rng.integers(0, 2, N).astype(bool), rng.integers(0, 2, N).astype(bool)
    d, co0, co1 = run(IAdd3Op, [a, b, c, p, q], [R32, P, P], mods="x")
    for i, (x, y, z, u, v) in enumerate(lanes(a, b, c, p, q)):
        s = x + y + z + u + v
        assert d[i] == s & M32 and co0[i] == (s >> 32 >= 1) and co1[i] == (s >> 32 >= 2)


def _split(v: np.ndarray) -> tuple[np.ndarray, np.ndarray]:
    return (v & np.uint64(M32)).astype(np.uint32), (v >> np.uint64(32)).astype(np.uint32)


def _join(lo: np.ndarray, hi: np.ndarray) -> np.ndarray:
    return (hi.astype(np.uint64) << np.uint64(32)) | lo.astype(np.uint64)


def _rand64(rng: np.random.Generator, n: int = 256) -> np.ndarray:
    v = rng.integers(0, 1 << 64, n, dtype=np.uint64)
    edges = np.array([0, 1, M32, 1 << 32, (1 << 64) - 1, 1 << 63, (1 << 63) - 1], np.uint64)
    v[: len(edges)] = edges
    return v


def test_iadd3_64bit_add_sub_match_numpy(rng: np.random.Generator) -> None:
    A, B, C = _rand64(rng), rng.permutation(_rand64(rng)), _rand64(rng)[::-1].copy()
    (al, ah), (bl, bh), (cl, ch) = _split(A), _split(B), _split(C)
    F = np.zeros(len(A), bool)
    # a + b
    lo, c0 = run(IAdd3Op, [al, bl, RZ], [R32, P])
    (hi,) = run(IAdd3Op, [ah, bh, RZ, c0, F], [R32], mods="x")
    assert (_join(lo, hi) == A + B).all()
    # a - b as ptxas writes it: IADD3 lo, P0, a, -b, RZ; IADD3.X hi, a, ~b, RZ, P0, !PT
    lo, c0 = run(IAdd3Op, [al, bl, RZ], [R32, P], smods={"b": "neg"})
    (hi,) = run(IAdd3Op, [ah, bh, RZ, c0, F], [R32], mods="x", smods={"b": "not"})
    assert (_join(lo, hi) == A - B).all()
    # a + b + c with two carries
    lo, c0, c1 = run(IAdd3Op, [al, bl, cl], [R32, P, P])
    (hi,) = run(IAdd3Op, [ah, bh, ch, c0, c1], [R32], mods="x")
    assert (_join(lo, hi) == A + B + C).all()
    # -a - b + c
    lo, c0, c1 = run(IAdd3Op, [al, bl, cl], [R32, P, P], smods={"a": "neg", "b": "neg"})
    (hi,) = run(IAdd3Op, [ah, bh, ch, c0, c1], [R32], mods="x", smods={"a": "not", "b": "not"})
    assert (_join(lo, hi) == C - A - B).all()


# ----------------------------------------------------------------------
# IMAD / LEA
# ----------------------------------------------------------------------
@pytest.mark.parametrize("mode", ["lo", "hi", "wide"])
@pytest.mark.parametrize("sign", ["s32", "u32"])
@pytest.mark.parametrize("x", [False, True])
def test_imad(rng: np.random.Generator, mode: str, sign: str, x: bool) -> None:
    a, b = rand32(rng), rand32(rng)
    c = _rand64(rng, N) if mode == "wide" else rand32(rng)
    ci = rng.integers(0, 2, N).astype(bool)
    srcs: list[Any] = [a, b, c] + ([ci] if x else [])
    mods = ".".join(m for m in (mode, sign, "x" if x else "") if m)
    d, co = run(IMadOp, srcs, [R64 if mode == "wide" else R32, P], mods=mods)
    conv: Callable[[int], int] = s32 if sign == "s32" else (lambda v: v)
    for i, (u, v, w, k) in enumerate(lanes(a, b, c, ci)):
        prod = conv(u) * conv(v)
        k = k if x else 0
        if mode == "wide":
            tot = (prod & ((1 << 64) - 1)) + w + k
            assert d[i] == tot & ((1 << 64) - 1) and co[i] == (tot >> 64 != 0)
        else:
            part = (prod & M32) if mode == "lo" else ((prod >> 32) & M32)
            tot = part + w + k
            assert d[i] == tot & M32 and co[i] == (tot >> 32 != 0)


def test_imad_immediate_and_single_result(rng: np.random.Generator) -> None:
    a = rand32(rng)
    (d,) = run(IMadOp, [a, Imm(-3), RZ], [R32])
    assert (d == (a.astype(np.uint64) * np.uint64(M32 - 2) & np.uint64(M32)).astype(np.uint32)).all()


@pytest.mark.parametrize("shift", [0, 1, 2, 3, 17, 31])
def test_lea_64bit_address(rng: np.random.Generator, shift: int) -> None:
    idx, base = _rand64(rng, N), _rand64(rng, N)[::-1].copy()
    (il, ih), (bl, bh) = _split(idx), _split(base)
    lo, co = run(LeaOp, [il, bl, Imm(shift)], [R32, P])
    (hi,) = run(LeaOp, [il, bh, Imm(shift), ih, co], [R32], mods="hi.x")
    assert (_join(lo, hi) == (idx << np.uint64(shift)) + base).all()
    for i, (u, v) in enumerate(lanes(il, bl)):
        t = ((u << shift) & M32) + v
        assert lo[i] == t & M32 and co[i] == (t >> 32 == 1)


# ----------------------------------------------------------------------
# logic and shifts
# ----------------------------------------------------------------------
def test_lop3_all_tables(rng: np.random.Generator) -> None:
    a, b, c = rand32(rng, 8), rand32(rng, 8), rand32(rng, 8)
    for lut in range(256):
        d, p = run(Lop3Op, [a, b, c, Imm(lut)], [R32, P])
        for i, (x, y, z) in enumerate(lanes(a, b, c)):
            want = 0
            for bit in range(32):
                idx = ((x >> bit & 1) << 2) | ((y >> bit & 1) << 1) | (z >> bit & 1)
                want |= ((lut >> idx) & 1) << bit
            assert d[i] == want, (hex(lut), i)
            assert p[i] == (want != 0)


def test_lop3_immediate_b(rng: np.random.Generator) -> None:
    a = rand32(rng)
    (d,) = run(Lop3Op, [a, Imm(0xFF), RZ, Imm(0xC0)], [R32])
    assert (d == a & np.uint32(0xFF)).all()


def _shf_ref(lo: int, s: int, hi: int, left: bool, ty: str, wrap: bool, take_hi: bool) -> int:
    limit = 64 if ty.endswith("64") else 32
    s = s % limit if wrap else min(s, limit)
    v = (hi << 32) | lo
    if left:
        r = (v << s) & ((1 << 64) - 1)
    else:
        if ty.startswith("s") and hi >> 31:
            v -= 1 << 64
        r = (v >> s) & ((1 << 64) - 1)
    return (r >> 32) if take_hi else r & M32


@pytest.mark.parametrize("left", [True, False])
@pytest.mark.parametrize("ty", ["u32", "s32", "u64", "s64"])
@pytest.mark.parametrize("wrap", [False, True])
@pytest.mark.parametrize("take_hi", [False, True])
def test_shf(rng: np.random.Generator, left: bool, ty: str, wrap: bool, take_hi: bool) -> None:
    lo, hi = rand32(rng), rand32(rng)
    sh = rng.integers(0, 80, N).astype(np.uint32)
    sh[:4] = [0, 32, 63, 64]
    mods = ".".join(m for m in ("l" if left else "r", "w" if wrap else "", ty, "hi" if take_hi else "") if m)
    (d,) = run(ShfOp, [lo, sh, hi], [R32], mods=mods)
    for i, (x, s, y) in enumerate(lanes(lo, sh, hi)):
        assert d[i] == _shf_ref(x, s, y, left, ty, wrap, take_hi), (mods, x, s, y)


def test_shf_64bit_shift_sequences(rng: np.random.Generator) -> None:
    V = _rand64(rng, N)
    lo, hi = _split(V)
    sh = rng.integers(0, 64, N).astype(np.uint32)
    # shl.b64: SHF.L.U64.HI hi, lo, s, hi ; SHF.L.U32 lo, lo, s, RZ
    (h,) = run(ShfOp, [lo, sh, hi], [R32], mods="l.u64.hi")
    (l,) = run(ShfOp, [lo, sh, RZ], [R32], mods="l.u32")
    # With u32 clamping, amounts >= 32 give a zero low word as required.
    assert (_join(l, h) == V << sh.astype(np.uint64)).all()
    # shr.s64: SHF.R.S64 lo, lo, s, hi ; SHF.R.S32.HI hi, RZ, s, hi
    (l,) = run(ShfOp, [lo, sh, hi], [R32], mods="r.s64")
    (h,) = run(ShfOp, [RZ, sh, hi], [R32], mods="r.s32.hi")
    assert (_join(l, h).view(np.int64) == V.view(np.int64) >> sh.astype(np.int64)).all()


@pytest.mark.parametrize("wrap", [False, True])
def test_shl_shr(rng: np.random.Generator, wrap: bool) -> None:
    a = rand32(rng)
    s = rng.integers(0, 70, N).astype(np.uint32)
    s[:3] = [0, 31, 32]
    w = "w" if wrap else ""
    (l,) = run(ShlOp, [a, s], [R32], mods=w)
    (ru,) = run(ShrOp, [a, s], [R32], mods=".".join(x for x in ("u32", w) if x))
    (rs,) = run(ShrOp, [a, s], [R32], mods=w)
    for i, (x, k) in enumerate(lanes(a, s)):
        k2 = k % 32 if wrap else k
        assert l[i] == ((x << k2) & M32 if k2 < 32 else 0)
        assert ru[i] == (x >> k2 if k2 < 32 else 0)
        assert rs[i] == (s32(x) >> min(k2, 31)) & M32


# ----------------------------------------------------------------------
# other integer ops
# ----------------------------------------------------------------------
def test_imnmx_iabs_popc_brev_sel_mov(rng: np.random.Generator) -> None:
    a, b = rand32(rng), rand32(rng)
    sel = rng.integers(0, 2, N).astype(bool)
    (mn_s,) = run(IMnMxOp, [a, b, sel], [R32])
    (mn_u,) = run(IMnMxOp, [a, b, sel], [R32], mods="u32")
    (ab,) = run(IAbsOp, [a], [R32])
    (pc,) = run(PopcOp, [a], [R32])
    (br,) = run(BrevOp, [a], [R32])
    (se,) = run(SelOp, [a, b, sel], [R32])
    (mv,) = run(MovOp, [a], [R32])
    assert mv is not a and (mv == a).all()
    for i, (x, y, p) in enumerate(lanes(a, b, sel)):
        f = min if p else max
        assert mn_s[i] == f(s32(x), s32(y)) & M32
        assert mn_u[i] == f(x, y)
        assert ab[i] == abs(s32(x)) & M32
        assert pc[i] == x.bit_count()
        assert br[i] == int(f"{x:032b}"[::-1], 2)
        assert se[i] == (x if p else y)
    (m,) = run(MovOp, [Imm(-1)], [R32], n=5)
    assert (m == M32).all() and m.shape == (5,)


@pytest.mark.parametrize("sign", ["u32", "s32"])
@pytest.mark.parametrize("sh", [False, True])
def test_flo(rng: np.random.Generator, sign: str, sh: bool) -> None:
    a = rand32(rng)
    (d,) = run(FloOp, [a], [R32], mods=".".join(x for x in (sign, "sh" if sh else "") if x))
    for i, (x,) in enumerate(lanes(a)):
        y = (~x & M32) if sign == "s32" and x >> 31 else x
        pos = y.bit_length() - 1
        want = M32 if pos < 0 else (31 - pos if sh else pos)
        assert d[i] == want


@pytest.mark.parametrize("wrap", [False, True])
def test_bmsk(rng: np.random.Generator, wrap: bool) -> None:
    a = rng.integers(0, 40, N).astype(np.uint32)
    b = rng.integers(0, 40, N).astype(np.uint32)
    (d,) = run(BmskOp, [a, b], [R32], mods="w" if wrap else "")
    for i, (x, y) in enumerate(lanes(a, b)):
        x, y = (x % 32, y % 32) if wrap else (min(x, 32), min(y, 32))
        assert d[i] == (((1 << y) - 1) << x) & M32


@pytest.mark.parametrize("sign", ["s32", "u32"])
def test_sgxt(rng: np.random.Generator, sign: str) -> None:
    a = rng.integers(0, 1 << 32, N, dtype=np.uint64).astype(np.uint32)
    b = rng.integers(0, 40, N).astype(np.uint32)
    (d,) = run(SgxtOp, [a, b], [R32], mods="u32" if sign == "u32" else "")
    for i, (x, y) in enumerate(lanes(a, b)):
        y = min(y, 32)
        low = x & ((1 << y) - 1)
        if sign == "s32" and y and low >> (y - 1) & 1:
            low -= 1 << y
        assert d[i] == low & M32


_PTX_PRMT = {  # PTX ISA prmt table: d.b3 d.b2 d.b1 d.b0 for selector 0..3
    "f4e": ["3210", "4321", "5432", "6543"],
    "b4e": ["5670", "6701", "7012", "0123"],
    "rc8": ["0000", "1111", "2222", "3333"],
    "ecl": ["3210", "3211", "3222", "3333"],
    "ecr": ["0000", "1110", "2210", "3210"],
    "rc16": ["1010", "3232", "1010", "3232"],
}


@pytest.mark.parametrize("mode", ["", *_PTX_PRMT])
def test_prmt(rng: np.random.Generator, mode: str) -> None:
    a, c = rand32(rng), rand32(rng)
    sel = rand32(rng) & np.uint32(0xFFFF)
    (d,) = run(PrmtOp, [a, sel, c], [R32], mods=mode)
    for i, (x, s, y) in enumerate(lanes(a, sel, c)):
        src = ((y << 32) | x).to_bytes(8, "little")
        out = 0
        for k in range(4):
            if mode:
                byte = src[int(_PTX_PRMT[mode][s & 3][3 - k])]
            else:
                nib = (s >> (4 * k)) & 0xF
                byte = src[nib & 7]
                if nib & 8:
                    byte = 0xFF if byte & 0x80 else 0
            out |= byte << (8 * k)
        assert d[i] == out, (mode, hex(s))


# ----------------------------------------------------------------------
# predicates
# ----------------------------------------------------------------------
_ICMP = {
    "f": lambda x, y: False,
    "lt": lambda x, y: x < y,
    "eq": lambda x, y: x == y,
    "le": lambda x, y: x <= y,
    "gt": lambda x, y: x > y,
    "ne": lambda x, y: x != y,
    "ge": lambda x, y: x >= y,
    "t": lambda x, y: True,
}
_BOP = {"and": lambda r, c: r and c, "or": lambda r, c: r or c, "xor": lambda r, c: r != c}


@pytest.mark.parametrize("cmp", list(_ICMP))
@pytest.mark.parametrize("sign", ["s32", "u32"])
def test_isetp(rng: np.random.Generator, cmp: str, sign: str) -> None:
    a, b = rand32(rng), rand32(rng)
    b[:8] = a[:8]
    c = rng.integers(0, 2, N).astype(bool)
    conv: Callable[[int], int] = s32 if sign == "s32" else (lambda v: v)
    for bop, f in _BOP.items():
        p, q = run(ISetPOp, [a, b, c], [P, P], mods=f"{cmp}.{sign}.{bop}")
        for i, (x, y, z) in enumerate(lanes(a, b, c)):
            r = _ICMP[cmp](conv(x), conv(y))
            assert p[i] == f(r, z) and q[i] == f(not r, z)


@pytest.mark.parametrize("cmp", list(_ICMP))
@pytest.mark.parametrize("sign", ["s32", "u32"])
def test_isetp_ex_64bit_compare_matches_numpy(rng: np.random.Generator, cmp: str, sign: str) -> None:
    A, B = _rand64(rng), _rand64(rng)
    B[:64] = A[:64] ^ rng.integers(0, 1 << 32, 64, dtype=np.uint64)  # equal high words
    B[64:80] = A[64:80]
    (al, ah), (bl, bh) = _split(A), _split(B)
    (p0,) = run(ISetPOp, [al, bl, PT], [P], mods=f"{cmp}.u32")
    (p1,) = run(ISetPOp, [ah, bh, PT, p0], [P], mods=f"{cmp}.{sign}.and.ex")
    x, y = (A.view(np.int64), B.view(np.int64)) if sign == "s32" else (A, B)
    want = {"f": np.zeros(len(A), bool), "t": np.ones(len(A), bool)}.get(cmp)
    if want is None:
        want = getattr(np, {"lt": "less", "eq": "equal", "le": "less_equal", "gt": "greater",
                            "ne": "not_equal", "ge": "greater_equal"}[cmp])(x, y)
    assert (p1 == want).all()


def test_plop3(rng: np.random.Generator) -> None:
    a, b, c = (np.array(v, bool) for v in zip(*itertools.product([0, 1], repeat=3)))
    for lut in [0x00, 0x80, 0xFE, 0x96, 0xC0, 0xF0, 0x0F, 0x3C, 0xA8, 0xFF]:
        lut2 = (lut * 7 + 3) & 0xFF
        p, q = run(PLop3Op, [a, b, c, Imm(lut), Imm(lut2)], [P, P])
        for i, (x, y, z) in enumerate(lanes(a, b, c)):
            k = (x << 2) | (y << 1) | z
            assert p[i] == bool(lut >> k & 1) and q[i] == bool(lut2 >> k & 1)
    (p,) = run(PLop3Op, [PT, a, PT, Imm(0x80)], [P])
    assert (p == a).all()


def test_p2r_r2p(rng: np.random.Generator) -> None:
    a = rand32(rng)
    ps = [rng.integers(0, 2, N).astype(bool) for _ in range(3)]
    (d,) = run(P2ROp, [a, Imm(0x0B), *ps], [R32])
    for i, (x, u, v, w) in enumerate(lanes(a, *ps)):
        bits = u | (v << 1) | (w << 2)
        assert d[i] == (x & ~0x0B & M32) | (bits & 0x0B)
    # one result per bit the mask writes, lowest first (P0, P2, P3, P4, P6);
    # results beyond them are false
    outs = run(R2POp, [a, Imm(0x5D)], [P] * 7)
    written = [0, 2, 3, 4, 6]
    for k, o in enumerate(outs):
        want = ((a >> np.uint32(written[k])) & np.uint32(1)).astype(bool) if k < 5 else False
        assert (o == want).all()
    (p2,) = run(R2POp, [a, Imm(0x4)], [P])  # a packed predicate home's reload of bit 2
    assert (p2 == ((a >> np.uint32(2)) & np.uint32(1)).astype(bool)).all()


# ----------------------------------------------------------------------
# I2I
# ----------------------------------------------------------------------
_ITYPES = ["u8", "s8", "u16", "s16", "u32", "s32", "u64", "s64"]


def _ival(bits: int, ty: str) -> int:
    w = int(ty[1:])
    v = bits & ((1 << w) - 1)
    return v - (1 << w) if ty[0] == "s" and v >> (w - 1) else v


@pytest.mark.parametrize("dst,src", list(itertools.product(_ITYPES, _ITYPES)))
def test_i2i(rng: np.random.Generator, dst: str, src: str) -> None:
    a = _rand64(rng, 24) if src.endswith("64") else rand32(rng, 24)
    for sat in (False, True):
        mods = f"{dst}.{src}" + (".sat" if sat else "")
        (d,) = run(I2IOp, [a], [R64 if dst.endswith("64") else R32], mods=mods)
        w = int(dst[1:])
        lo, hi = (-(1 << (w - 1)), (1 << (w - 1)) - 1) if dst[0] == "s" else (0, (1 << w) - 1)
        for i, (x,) in enumerate(lanes(a)):
            v = _ival(x, src)
            v = min(max(v, lo), hi) if sat else _ival(v, dst)
            reg = 64 if w == 64 else 32
            assert d[i] == v & ((1 << reg) - 1), (mods, hex(x))
