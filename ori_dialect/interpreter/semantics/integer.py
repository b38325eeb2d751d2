"""Semantics of the integer ALU ops (``ori_dialect.ops.integer``).

Every compiler reads the op's modifiers, source modifiers and immediate-only
slots once and returns a closure doing whole-array numpy arithmetic (see
``registry``).  Integer arithmetic uses numpy *ufuncs* (``np.add`` ...) rather
than operators where two scalar constants may meet: ufuncs wrap silently,
numpy scalar operators warn on overflow, and wrap-around is the semantics.

This module also holds the small helpers the other semantics modules share
(``Slots``, ``bcast``).
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

import numpy as np
from xdsl.dialects.builtin import IntegerAttr

from ori_dialect.interpreter.semantics.registry import OpFn, compiles
from ori_dialect.ir.instruction import OriInstruction
from ori_dialect.ops.integer import (
    BmskOp,
    BrevOp,
    FloOp,
    IAbsOp,
    IAdd3Op,
    IMadOp,
    IMnMxOp,
    LeaHiSx32Op,
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

U8 = np.uint8
U32 = np.uint32
U64 = np.uint64
I32 = np.int32
I64 = np.int64
M32 = U64(0xFFFFFFFF)
_U64_32 = U64(32)

Arr = Any
"""A lane array or a numpy scalar constant (registry value representation)."""


# ----------------------------------------------------------------------
# shared helpers
# ----------------------------------------------------------------------
class Slots:
    """Compile-time view of an op's present source slots.

    ``ix[name]`` is the position of slot ``name`` in the ``sources`` sequence a
    compiled function receives (absent slots have none); ``imm(name)`` is an
    integer immediate known at compile time (LUTs, shift amounts, masks).
    """

    def __init__(self, op: OriInstruction) -> None:
        self.names = [s.name for s in op.present_slots()]
        self.ix = {name: i for i, name in enumerate(self.names)}
        self.consts = op.const_map()
        self.smods = op.smod_map()

    def has(self, name: str) -> bool:
        return name in self.ix

    def smod(self, name: str) -> frozenset[str]:
        text = self.smods.get(name, "")
        return frozenset(text.split(".")) if text else frozenset()

    def imm(self, name: str, default: int | None = None) -> int | None:
        """The integer immediate in slot ``name`` as an unsigned 32-bit value."""
        c = self.consts.get(name)
        if isinstance(c, IntegerAttr):
            return c.value.data & 0xFFFFFFFF
        return default


def bcast(x: Arr, n: int, dtype: Any) -> np.ndarray:
    """``x`` as an ``(n,)`` array of ``dtype`` (scalars are broadcast)."""
    a = np.asarray(x, dtype=dtype)
    if a.ndim == 0:
        return np.full(n, a, dtype)
    return a


def bcopy(x: Arr, n: int, dtype: Any) -> np.ndarray:
    """Like ``bcast`` but never the caller's array (results must not alias sources)."""
    a = np.asarray(x, dtype=dtype)
    if a.ndim == 0:
        return np.full(n, a, dtype)
    return a.copy()


def u64(x: Arr) -> Arr:
    return np.asarray(x).astype(U64)


def s32(x: Arr) -> Arr:
    return np.asarray(x, dtype=U32).view(I32)


def nres(op: OriInstruction) -> int:
    return len(op.results)


# ----------------------------------------------------------------------
# IADD3
# ----------------------------------------------------------------------
@compiles(IAdd3Op)
def _iadd3(op: IAdd3Op) -> OpFn:
    """IADD3 (SASS; PTX ``add``/``sub``/``addc``/``subc``, ISA 9.7.1).

    Each source is ``x`` (plain), ``~x`` (``not``) or ``~x + 1`` (``neg``: the
    ``+1`` goes into the sum, so ``-0`` contributes 2^32).  Let ``S`` be the
    unsigned sum of the three contributions plus ``ci0 + ci1`` (``x`` form),
    computed without wrap-around, and ``k = S >> 32`` (0..3).  Then
    ``d = S mod 2^32`` and the carry-outs count ``k`` in unary:
    ``co0 = k >= 1``, ``co1 = k >= 2``, so that ``co0 + co1 = k`` whenever
    ``k <= 2`` (always, unless all three sources are negated).  A 64-bit add
    ``IADD3 lo, P0, P1, ...; IADD3.X hi, ..., P0, P1`` therefore carries
    exactly, and ``a - b`` produces "carry = no borrow", the convention of
    ptxas's ``IADD3 R0, P0, R2, -R4, RZ; IADD3.X R1, R3, ~R5, RZ, P0, !PT``.
    Both source modifiers together mean ``-(~x)``.
    """
    sl = Slots(op)
    mods = [sl.smod(s) for s in ("a", "b", "c")]
    inv = [("not" in m) != ("neg" in m) for m in mods]  # -(~x) = x + 1: no inversion
    bias = sum(1 for m in mods if "neg" in m)
    ia, ib, ic = sl.ix["a"], sl.ix["b"], sl.ix["c"]
    cis = [sl.ix[c] for c in ("ci0", "ci1") if c in sl.ix] if op.has_mod("x") else []
    nr = nres(op)
    ia_inv, ib_inv, ic_inv = inv

    if nr == 1:
        bias32 = U32(bias)

        def fn32(src: Sequence[Arr], n: int) -> tuple[Arr, ...]:
            a, b, c = src[ia], src[ib], src[ic]
            if ia_inv:
                a = np.invert(a)
            if ib_inv:
                b = np.invert(b)
            if ic_inv:
                c = np.invert(c)
            d = np.add(np.add(a, b), c)
            if bias:
                d = np.add(d, bias32)
            for i in cis:
                d = np.add(d, np.asarray(src[i], dtype=U32))
            return (bcast(d, n, U32),)

        return fn32

    bias64 = U64(bias)

    def fn(src: Sequence[Arr], n: int) -> tuple[Arr, ...]:
        a, b, c = src[ia], src[ib], src[ic]
        if ia_inv:
            a = np.invert(a)
        if ib_inv:
            b = np.invert(b)
        if ic_inv:
            c = np.invert(c)
        s = np.add(np.add(u64(a), u64(b)), u64(c))
        if bias:
            s = np.add(s, bias64)
        for i in cis:
            s = np.add(s, u64(src[i]))
        k = np.right_shift(s, _U64_32)
        out: list[Arr] = [bcast(np.bitwise_and(s, M32), n, U32), bcast(k >= 1, n, np.bool_)]
        if nr > 2:
            out.append(bcast(k >= 2, n, np.bool_))
        return tuple(out)

    return fn


# ----------------------------------------------------------------------
# IMAD
# ----------------------------------------------------------------------
@compiles(IMadOp)
def _imad(op: IMadOp) -> OpFn:
    """IMAD (PTX ``mad.lo/.hi/.wide``, ISA 9.7.1.4; ``mad.cc``/``madc``).

    ``V = P + c (+ ci with x)`` where ``P`` is ``lo32(a*b)``, ``hi32(a*b)``
    (signed product for ``s32``, unsigned for ``u32``), or for ``wide`` the
    full 64-bit product (sign- or zero-extended operands) with a 64-bit ``c``.
    ``d = V`` modulo 2^32 (2^64 for ``wide``); ``co`` is the unsigned carry out
    of that addition (bit 32, resp. 64, of ``V`` with ``P`` and ``c`` taken as
    unsigned words).
    """
    sl = Slots(op)
    mode = op.mod("mode")
    signed = op.mod("sign") == "s32"
    ia, ib, ic = sl.ix["a"], sl.ix["b"], sl.ix["c"]
    ici = sl.ix.get("ci") if op.has_mod("x") else None
    want_co = nres(op) > 1

    def product(a: Arr, b: Arr) -> Arr:
        if signed:
            return np.multiply(s32(a).astype(I64), s32(b).astype(I64)).view(U64)
        return np.multiply(u64(a), u64(b))

    if mode == "wide":

        def fnw(src: Sequence[Arr], n: int) -> tuple[Arr, ...]:
            p = product(src[ia], src[ib])
            c = u64(src[ic])
            v = np.add(p, c)
            carry = v < p
            if ici is not None:
                ci = u64(src[ici])
                v2 = np.add(v, ci)
                carry = carry | (v2 < v)
                v = v2
            out: list[Arr] = [bcast(v, n, U64)]
            if want_co:
                out.append(bcast(carry, n, np.bool_))
            return tuple(out)

        return fnw

    hi = mode == "hi"

    def fn(src: Sequence[Arr], n: int) -> tuple[Arr, ...]:
        p = product(src[ia], src[ib])
        p = np.right_shift(p, _U64_32) if hi else np.bitwise_and(p, M32)
        v = np.add(p, u64(src[ic]))
        if ici is not None:
            v = np.add(v, u64(src[ici]))
        out: list[Arr] = [bcast(np.bitwise_and(v, M32), n, U32)]
        if want_co:
            out.append(bcast(np.right_shift(v, _U64_32) != 0, n, np.bool_))
        return tuple(out)

    return fn


# ----------------------------------------------------------------------
# LEA
# ----------------------------------------------------------------------
@compiles(LeaOp)
def _lea(op: LeaOp) -> OpFn:
    """LEA: ``V = (a << shift) mod 2^32 + b (+ ci)``; the ``hi`` form shifts the
    64-bit ``c:a`` and keeps the high word, ``((c:a) << shift) >> 32``.  ``d =
    V mod 2^32``, ``co`` = bit 32 of ``V`` (the carry a following
    ``LEA.HI.X`` consumes to form a 64-bit address)."""
    sl = Slots(op)
    sh = U64(sl.imm("shift", 0) or 0)
    ia, ib = sl.ix["a"], sl.ix["b"]
    ic = sl.ix.get("c") if op.has_mod("hi") else None
    ici = sl.ix.get("ci") if op.has_mod("x") else None
    want_co = nres(op) > 1

    def fn(src: Sequence[Arr], n: int) -> tuple[Arr, ...]:
        a = u64(src[ia])
        if ic is not None:
            pair = np.bitwise_or(np.left_shift(u64(src[ic]), _U64_32), a)
            t = np.bitwise_and(np.right_shift(np.left_shift(pair, sh), _U64_32), M32)
        else:
            t = np.bitwise_and(np.left_shift(a, sh), M32)
        v = np.add(t, u64(src[ib]))
        if ici is not None:
            v = np.add(v, u64(src[ici]))
        out: list[Arr] = [bcast(np.bitwise_and(v, M32), n, U32)]
        if want_co:
            out.append(bcast(np.right_shift(v, _U64_32) != 0, n, np.bool_))
        return tuple(out)

    return fn


@compiles(LeaHiSx32Op)
def _lea_hi_sx32(op: LeaHiSx32Op) -> OpFn:
    """LEA.HI.SX32: ``d = ((sext64(a) << shift) >> 32) + b (+ ci)``, mod 2^32."""
    sl = Slots(op)
    sh = U64(sl.imm("shift", 0) or 0)
    ia, ib = sl.ix["a"], sl.ix["b"]
    ici = sl.ix.get("ci") if op.has_mod("x") else None

    def fn(src: Sequence[Arr], n: int) -> tuple[Arr, ...]:
        a = u64(src[ia])
        sign = np.where(np.right_shift(a, U64(31)) != 0, U64(0xFFFFFFFF), U64(0))
        pair = np.bitwise_or(np.left_shift(sign, _U64_32), a)
        t = np.bitwise_and(np.right_shift(np.left_shift(pair, sh), _U64_32), M32)
        v = np.add(t, u64(src[ib]))
        if ici is not None:
            v = np.add(v, u64(src[ici]))
        return (bcast(np.bitwise_and(v, M32), n, U32),)

    return fn


# ----------------------------------------------------------------------
# LOP3
# ----------------------------------------------------------------------
def lut3(lut: int, a: Arr, b: Arr, c: Arr) -> Arr:
    """Bitwise 3-input truth table: output bit = bit ``(a<<2)|(b<<1)|c`` of ``lut``.

    Shannon expansion on ``a`` into two 2-input tables, each evaluated with a
    handful of ufuncs; works for uint32 words and for bool predicates alike.
    """
    return _lut3_fn(lut & 0xFF)(a, b, c)


def _lut2_fn(t: int) -> Any:
    """f(b, c) for a 4-entry table t (bit (b<<1)|c)."""
    table: dict[int, Any] = {
        0x0: lambda b, c: np.bitwise_and(b, np.invert(b)),
        0xF: lambda b, c: np.bitwise_or(b, np.invert(b)),
        0xC: lambda b, c: b,
        0x3: lambda b, c: np.invert(b),
        0xA: lambda b, c: c,
        0x5: lambda b, c: np.invert(c),
        0x8: np.bitwise_and,
        0xE: np.bitwise_or,
        0x6: np.bitwise_xor,
        0x9: lambda b, c: np.invert(np.bitwise_xor(b, c)),
        0x7: lambda b, c: np.invert(np.bitwise_and(b, c)),
        0x1: lambda b, c: np.invert(np.bitwise_or(b, c)),
        0x4: lambda b, c: np.bitwise_and(b, np.invert(c)),
        0x2: lambda b, c: np.bitwise_and(np.invert(b), c),
        0xD: lambda b, c: np.bitwise_or(b, np.invert(c)),
        0xB: lambda b, c: np.bitwise_or(np.invert(b), c),
    }
    return table[t]


_LUT3_CACHE: dict[int, Any] = {}


def _lut3_fn(lut: int) -> Any:
    f = _LUT3_CACHE.get(lut)
    if f is not None:
        return f
    hi_t, lo_t = lut >> 4, lut & 0xF  # tables for a=1 and a=0
    f1, f0 = _lut2_fn(hi_t), _lut2_fn(lo_t)
    if hi_t == lo_t:

        def f(a: Arr, b: Arr, c: Arr) -> Arr:
            return f1(b, c)  # independent of a (callers broadcast)

    elif lo_t == 0:

        def f(a: Arr, b: Arr, c: Arr) -> Arr:
            return np.bitwise_and(a, f1(b, c))

    elif hi_t == 0xF and lo_t != 0:

        def f(a: Arr, b: Arr, c: Arr) -> Arr:
            return np.bitwise_or(a, f0(b, c))

    elif hi_t == lo_t ^ 0xF:

        def f(a: Arr, b: Arr, c: Arr) -> Arr:
            return np.bitwise_xor(a, f0(b, c))

    else:

        def f(a: Arr, b: Arr, c: Arr) -> Arr:
            return np.bitwise_or(
                np.bitwise_and(a, f1(b, c)), np.bitwise_and(np.invert(a), f0(b, c))
            )

    _LUT3_CACHE[lut] = f
    return f


@compiles(Lop3Op)
def _lop3(op: Lop3Op) -> OpFn:
    """LOP3.LUT (PTX ``lop3.b32``, ISA 9.7.8.6): ``d = LUT(a, b, c)``; the
    optional predicate ``p = d != 0``."""
    sl = Slots(op)
    f = _lut3_fn(sl.imm("lut", 0) or 0)
    ia, ib, ic = sl.ix["a"], sl.ix["b"], sl.ix["c"]
    want_p = nres(op) > 1

    def fn(src: Sequence[Arr], n: int) -> tuple[Arr, ...]:
        d = bcast(f(np.asarray(src[ia], U32), np.asarray(src[ib], U32), np.asarray(src[ic], U32)), n, U32)
        if want_p:
            return d, d != 0
        return (d,)

    return fn


# ----------------------------------------------------------------------
# shifts
# ----------------------------------------------------------------------
@compiles(ShfOp)
def _shf(op: ShfOp) -> OpFn:
    """SHF funnel shift (PTX ``shf``, ISA 9.7.8.8; 64-bit ``shl``/``shr`` lowering).

    ``V = hi:lo`` (64 bits; signed for ``s32``/``s64`` right shifts).  The
    amount is wrapped (``w``: mod 32 for 32-bit types, mod 64 for 64-bit
    types) or clamped (to 32, resp. 64).  ``l``: ``V << s``; ``r``: ``V >> s``
    (arithmetic when signed).  ``d`` is the low word of the shifted value, or
    the high word with ``hi``: PTX ``shf.l`` is ``SHF.L.HI``, ``shf.r`` is
    ``SHF.R``; ptxas splits ``shl.b64`` into ``SHF.L.U64.HI`` + ``SHF.L.U32``
    and ``shr.u64`` into ``SHF.R.U64`` + ``SHF.R.U32.HI``.
    """
    sl = Slots(op)
    left = op.mod("dir") == "l"
    ty = op.mod("type") or "u32"
    wide = ty.endswith("64")
    signed = ty.startswith("s") and not left
    limit = 64 if wide else 32
    wrap = op.has_mod("w")
    take_hi = op.has_mod("hi")
    ilo, ish, ihi = sl.ix["lo"], sl.ix["shift"], sl.ix["hi"]
    mask = U64(limit - 1)
    lim = U64(limit)

    def fn(src: Sequence[Arr], n: int) -> tuple[Arr, ...]:
        v = np.bitwise_or(np.left_shift(u64(src[ihi]), _U64_32), u64(src[ilo]))
        s = u64(src[ish])
        s = np.bitwise_and(s, mask) if wrap else np.minimum(s, lim)
        big = s >= 64
        s63 = np.minimum(s, U64(63))
        if left:
            r = np.where(big, U64(0), np.left_shift(v, s63))
        elif signed:
            r = np.right_shift(v.view(I64), s63.astype(I64)).view(U64)
        else:
            r = np.where(big, U64(0), np.right_shift(v, s63))
        r = np.right_shift(r, _U64_32) if take_hi else np.bitwise_and(r, M32)
        return (bcast(r, n, U32),)

    return fn


@compiles(ShlOp)
def _shl(op: ShlOp) -> OpFn:
    """SHL: ``d = a << b``; amounts >= 32 give 0 (``w``: amount mod 32)."""
    sl = Slots(op)
    wrap = op.has_mod("w")
    ia, ib = sl.ix["a"], sl.ix["b"]

    def fn(src: Sequence[Arr], n: int) -> tuple[Arr, ...]:
        s = np.asarray(src[ib], U32)
        a = np.asarray(src[ia], U32)
        if wrap:
            r = np.left_shift(a, np.bitwise_and(s, U32(31)))
        else:
            r = np.where(s >= 32, U32(0), np.left_shift(a, np.minimum(s, U32(31))))
        return (bcast(r, n, U32),)

    return fn


@compiles(ShrOp)
def _shr(op: ShrOp) -> OpFn:
    """SHR: ``d = a >> b``, arithmetic for ``s32``, logical for ``u32``; amounts
    >= 32 clamp (sign fill / 0), ``w`` takes the amount mod 32."""
    sl = Slots(op)
    wrap = op.has_mod("w")
    signed = op.mod("sign") == "s32"
    ia, ib = sl.ix["a"], sl.ix["b"]

    def fn(src: Sequence[Arr], n: int) -> tuple[Arr, ...]:
        s = np.asarray(src[ib], U32)
        a = np.asarray(src[ia], U32)
        s = np.bitwise_and(s, U32(31)) if wrap else np.minimum(s, U32(32))
        if signed:
            r = np.right_shift(a.view(I32), np.minimum(s, U32(31)).astype(I32)).view(U32)
        else:
            r = np.where(s >= 32, U32(0), np.right_shift(a, np.minimum(s, U32(31))))
        return (bcast(r, n, U32),)

    return fn


# ----------------------------------------------------------------------
# min/max, abs, bit counting
# ----------------------------------------------------------------------
@compiles(IMnMxOp)
def _imnmx(op: IMnMxOp) -> OpFn:
    """IMNMX (PTX ``min``/``max``): ``d = sel ? min(a, b) : max(a, b)``."""
    sl = Slots(op)
    signed = op.mod("sign") == "s32"
    ia, ib, isel = sl.ix["a"], sl.ix["b"], sl.ix["sel"]

    def fn(src: Sequence[Arr], n: int) -> tuple[Arr, ...]:
        a, b = np.asarray(src[ia], U32), np.asarray(src[ib], U32)
        if signed:
            a, b = a.view(I32), b.view(I32)
        r = np.where(src[isel], np.minimum(a, b), np.maximum(a, b))
        return (bcast(np.asarray(r).view(U32) if signed else r, n, U32),)

    return fn


@compiles(IAbsOp)
def _iabs(op: IAbsOp) -> OpFn:
    """IABS (PTX ``abs.s32``): ``|a|`` with ``|INT_MIN| = INT_MIN``."""
    ia = Slots(op).ix["a"]

    def fn(src: Sequence[Arr], n: int) -> tuple[Arr, ...]:
        a = np.asarray(src[ia], U32)
        neg = a >= U32(0x80000000)
        return (bcast(np.where(neg, np.negative(a), a), n, U32),)

    return fn


@compiles(PopcOp)
def _popc(op: PopcOp) -> OpFn:
    """POPC (PTX ``popc.b32``): number of set bits."""
    ia = Slots(op).ix["a"]

    def fn(src: Sequence[Arr], n: int) -> tuple[Arr, ...]:
        return (bcast(np.bitwise_count(np.asarray(src[ia], U32)), n, U32),)

    return fn


def msb_pos(a: Arr) -> Arr:
    """Bit position of the most significant 1 of uint32 ``a``; -1 for 0 (int64)."""
    _, e = np.frexp(np.asarray(a, U32).astype(np.float64))  # exact for 32-bit ints
    return e.astype(I64) - 1


@compiles(FloOp)
def _flo(op: FloOp) -> OpFn:
    """FLO (PTX ``bfind``, ISA 9.7.1.16): position of the most significant 1
    (``u32``) or of the most significant bit differing from the sign bit
    (``s32``); 0xffffffff if there is none.  ``sh`` gives ``31 - position``
    (PTX ``bfind.shiftamt``), still 0xffffffff when there is none."""
    ia = Slots(op).ix["a"]
    signed = op.mod("sign") == "s32"
    sh = op.has_mod("sh")

    def fn(src: Sequence[Arr], n: int) -> tuple[Arr, ...]:
        a = np.asarray(src[ia], U32)
        if signed:
            a = np.where(a >= U32(0x80000000), np.invert(a), a)
        p = msb_pos(a)
        if sh:
            p = np.where(p < 0, p, 31 - p)
        return (bcast(p.astype(U32), n, U32),)

    return fn


_REV8 = np.array([int(f"{i:08b}"[::-1], 2) for i in range(256)], dtype=U32)


@compiles(BrevOp)
def _brev(op: BrevOp) -> OpFn:
    """BREV (PTX ``brev.b32``): bit ``i`` of ``d`` is bit ``31 - i`` of ``a``."""
    ia = Slots(op).ix["a"]

    def fn(src: Sequence[Arr], n: int) -> tuple[Arr, ...]:
        a = np.asarray(src[ia], U32)
        r = (
            (_REV8[a & U32(0xFF)] << U32(24))
            | (_REV8[(a >> U32(8)) & U32(0xFF)] << U32(16))
            | (_REV8[(a >> U32(16)) & U32(0xFF)] << U32(8))
            | _REV8[a >> U32(24)]
        )
        return (bcast(r, n, U32),)

    return fn


@compiles(BmskOp)
def _bmsk(op: BmskOp) -> OpFn:
    """BMSK (PTX ``bmsk``, ISA 9.7.8.9): ``d = ((1 << b) - 1) << a`` truncated to
    32 bits; ``a`` (position) and ``b`` (width) clamp to 32, or wrap mod 32
    with ``w``."""
    sl = Slots(op)
    wrap = op.has_mod("w")
    ia, ib = sl.ix["a"], sl.ix["b"]

    def fn(src: Sequence[Arr], n: int) -> tuple[Arr, ...]:
        a, b = u64(src[ia]), u64(src[ib])
        if wrap:
            a, b = np.bitwise_and(a, U64(31)), np.bitwise_and(b, U64(31))
        else:
            a, b = np.minimum(a, U64(32)), np.minimum(b, U64(32))
        m = np.left_shift(np.subtract(np.left_shift(U64(1), b), U64(1)), a)
        return (bcast(np.bitwise_and(m, M32), n, U32),)

    return fn


@compiles(SgxtOp)
def _sgxt(op: SgxtOp) -> OpFn:
    """SGXT: the low ``b`` bits of ``a``, sign-extended (``u32``: zero-extended);
    ``b`` clamps at 32; ``b`` = 0 gives 0 (the op's docstring)."""
    sl = Slots(op)
    signed = op.mod("sign") == "s32"
    ia, ib = sl.ix["a"], sl.ix["b"]

    def fn(src: Sequence[Arr], n: int) -> tuple[Arr, ...]:
        a, b = u64(src[ia]), np.minimum(u64(src[ib]), U64(32))
        low = np.bitwise_and(a, np.subtract(np.left_shift(U64(1), b), U64(1)))
        if signed:
            top = np.left_shift(U64(1), np.maximum(b, U64(1)) - U64(1))
            neg = (b > 0) & (np.bitwise_and(low, top) != 0)
            low = np.where(neg, np.bitwise_or(low, np.bitwise_and(~np.subtract(top, U64(1)), M32)),
                           low)
        return (bcast(np.bitwise_and(low, M32), n, U32),)

    return fn


# ----------------------------------------------------------------------
# PRMT
# ----------------------------------------------------------------------
# PTX prmt modes (ISA 9.7.8.7): result bytes (b0, b1, b2, b3) for selector 0..3.
_PRMT_MODES: dict[str, tuple[tuple[int, int, int, int], ...]] = {
    "f4e": ((0, 1, 2, 3), (1, 2, 3, 4), (2, 3, 4, 5), (3, 4, 5, 6)),
    "b4e": ((0, 7, 6, 5), (1, 0, 7, 6), (2, 1, 0, 7), (3, 2, 1, 0)),
    "rc8": ((0, 0, 0, 0), (1, 1, 1, 1), (2, 2, 2, 2), (3, 3, 3, 3)),
    "ecl": ((0, 1, 2, 3), (1, 1, 2, 3), (2, 2, 2, 3), (3, 3, 3, 3)),
    "ecr": ((0, 0, 0, 0), (0, 1, 1, 1), (0, 1, 2, 2), (0, 1, 2, 3)),
    "rc16": ((0, 1, 0, 1), (2, 3, 2, 3), (0, 1, 0, 1), (2, 3, 2, 3)),
}
# The same modes as ordinary 16-bit selectors (no sign replication).
_PRMT_SEL = {
    m: np.array([sum(b << (4 * i) for i, b in enumerate(t)) for t in rows], dtype=U32)
    for m, rows in _PRMT_MODES.items()
}


@compiles(PrmtOp)
def _prmt(op: PrmtOp) -> OpFn:
    """PRMT (PTX ``prmt.b32``, ISA 9.7.8.7).  Bytes 0-3 of ``a`` and 4-7 of
    ``c`` form the source.  Default mode: result byte ``i`` is the source byte
    selected by bits 0-2 of nibble ``i`` of ``sel``; with bit 3 of the nibble
    set, the selected byte's bit 7 is replicated into all 8 bits.  The named
    modes use only ``sel & 3`` and the PTX byte tables (no sign replication)."""
    sl = Slots(op)
    mode = op.mod("mode")
    ia, isel, ic = sl.ix["a"], sl.ix["sel"], sl.ix["c"]
    table = _PRMT_SEL.get(mode) if mode else None

    def fn(src: Sequence[Arr], n: int) -> tuple[Arr, ...]:
        v = np.bitwise_or(np.left_shift(u64(src[ic]), _U64_32), u64(src[ia]))
        sel = np.asarray(src[isel], U32)
        if table is not None:
            sel = table[sel & U32(3)]
        r = np.zeros(np.broadcast(v, sel).shape, U32)
        for i in range(4):
            nib = (sel >> U32(4 * i)) & U32(0xF)
            byte = np.bitwise_and(np.right_shift(v, (nib & U32(7)).astype(U64) * U64(8)), U64(0xFF))
            byte = byte.astype(U32)
            if table is None:
                sign = (nib & U32(8)) != 0
                byte = np.where(sign, np.where(byte & U32(0x80), U32(0xFF), U32(0)), byte)
            r = r | (byte << U32(8 * i))
        return (bcast(r, n, U32),)

    return fn


@compiles(SelOp)
def _sel(op: SelOp) -> OpFn:
    """SEL (PTX ``selp``): ``d = p ? a : b``."""
    sl = Slots(op)
    ia, ib, ip = sl.ix["a"], sl.ix["b"], sl.ix["p"]

    def fn(src: Sequence[Arr], n: int) -> tuple[Arr, ...]:
        return (bcast(np.where(src[ip], src[ia], src[ib]), n, U32),)

    return fn


@compiles(MovOp)
def _mov(op: MovOp) -> OpFn:
    """MOV / UMOV: ``d = a`` (a fresh array, never the source's)."""
    ia = Slots(op).ix["a"]

    def fn(src: Sequence[Arr], n: int) -> tuple[Arr, ...]:
        return (bcopy(src[ia], n, U32),)

    return fn


__all__ = ["M32", "U32", "U64", "Arr", "Slots", "bcast", "bcopy", "lut3", "msb_pos", "nres", "u64"]
