"""Integer building blocks the PTX lowerings share: 32-bit SASS-like ops
(IADD3, LOP3, ISETP, SEL, PLOP3, IMAD) and 64-bit operations on the two
32-bit halves of a register pair (IADD3 + IADD3.X with a carry predicate,
IMAD.WIDE.U32 chains, ISETP + ISETP.EX, SHF/SHL/SHR pairs, two SELs).

Each takes the :class:`~ori_dialect.ptx.lower.builder.LoweringBuilder` and
emits unguarded ops in its current block; operands are registers, 32-bit
immediates (Python ints) or ``RZ``.  Selection is ``sel(ctx, a, b, p)`` =
``p ? a : b``, the operand order of SEL itself (``sel64`` the same on
pairs); ``pneg`` selects on ``!p``.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import TYPE_CHECKING

from xdsl.ir import SSAValue

from ori_dialect.ir.registers import PredType, R32Type, R64Type
from ori_dialect.ops.integer import IAdd3Op, IMadOp, IMnMxOp, Lop3Op, SelOp, ShfOp, ShlOp, ShrOp
from ori_dialect.ops.predicate import ISetPOp, PLop3Op
from ori_dialect.ptx.lower.builder import PT, RZ

if TYPE_CHECKING:
    from ori_dialect.ptx.lower.builder import LoweringBuilder

V = SSAValue
Src = SSAValue | int | R32Type  # a register, an immediate or RZ


def lut(f: Callable[[int, int, int], int]) -> int:
    """The LOP3/PLOP3 truth table of ``f(a, b, c)`` (bitwise)."""
    return f(0xF0, 0xCC, 0xAA) & 0xFF


def r32() -> R32Type:
    return R32Type.unallocated()


def r64() -> R64Type:
    return R64Type.unallocated()


def reg(ctx: LoweringBuilder, v: Src) -> V:
    return ctx.mov_imm(v) if isinstance(v, int) else v


def halves(ctx: LoweringBuilder, v: V) -> tuple[V, V]:
    lo, hi = ctx.parts(v)
    return lo, hi


def add32(ctx: LoweringBuilder, a: Src, b: Src, c: Src = RZ, smods: dict[str, str] | None = None) -> V:
    a, b = imm_to_b(ctx, a, b)
    return ctx.emit1(IAdd3Op, [a, b, reg(ctx, c)], smods=smods)


def sub32(ctx: LoweringBuilder, a: Src, b: Src) -> V:
    return ctx.emit1(IAdd3Op, [reg(ctx, a), reg(ctx, b), RZ], smods={"b": "neg"})


def imm_to_b(ctx: LoweringBuilder, a: Src, b: Src) -> tuple[V, Src]:
    if isinstance(a, int):
        if not isinstance(b, int):
            return b, a  # type: ignore[return-value]
        return ctx.mov_imm(a), b
    return a, b


def lop(ctx: LoweringBuilder, a: Src, b: Src, c: Src, table: int) -> V:
    return ctx.emit1(Lop3Op, [reg(ctx, a), b, reg(ctx, c), table])


def isetp(ctx: LoweringBuilder, cmp: str, sign: str, a: Src, b: Src, c: V = PT,
          bop: str = "and", cneg: bool = False) -> V:
    smods = {"c": "not"} if cneg else None
    return ctx.emit1(ISetPOp, [reg(ctx, a), b, c], mods=f"{cmp}.{sign}.{bop}", smods=smods)


def sel(ctx: LoweringBuilder, a: Src, b: Src, p: V, pneg: bool = False) -> V:
    if isinstance(a, int) and not isinstance(b, int):
        a, b, pneg = b, a, not pneg
    return ctx.emit1(SelOp, [reg(ctx, a), b, p], smods={"p": "not"} if pneg else None)


def plop(ctx: LoweringBuilder, a: V, b: V, c: V, table: int) -> V:
    return ctx.emit1(PLop3Op, [a, b, c, table])


def imad(ctx: LoweringBuilder, a: Src, b: Src, c: Src, mods: str = "lo.u32") -> V:
    a, b = imm_to_b(ctx, a, b)
    wide = "wide" in mods
    return ctx.emit1(IMadOp, [a, b, c], r64() if wide else r32(), mods=mods)


# ----------------------------------------------------------------------------
# 64-bit values (halves)


def c64(ctx: LoweringBuilder, value: int) -> V:
    return ctx.const(value, 64)


def add64(ctx: LoweringBuilder, a: V, b: V) -> V:
    alo, ahi = halves(ctx, a)
    blo, bhi = halves(ctx, b)
    lo, c = ctx.emit(IAdd3Op, [alo, blo, RZ], [r32(), PredType.unallocated()]).results
    hi = ctx.emit1(IAdd3Op, [ahi, bhi, RZ, c], mods="x")
    return ctx.pack([lo, hi])


def sub64(ctx: LoweringBuilder, a: V, b: V) -> V:
    alo, ahi = halves(ctx, a)
    blo, bhi = halves(ctx, b)
    lo, c = ctx.emit(IAdd3Op, [alo, blo, RZ], [r32(), PredType.unallocated()],
                     smods={"b": "neg"}).results
    hi = ctx.emit1(IAdd3Op, [ahi, bhi, RZ, c], mods="x", smods={"b": "not"})
    return ctx.pack([lo, hi])


def neg64(ctx: LoweringBuilder, a: V) -> V:
    return sub64(ctx, c64(ctx, 0), a)


def mullo64(ctx: LoweringBuilder, a: V, b: V, c: V | None = None) -> V:
    """``a * b (+ c)`` mod 2^64: IMAD.WIDE.U32 of the low words plus the two
    cross products into the high word."""
    alo, ahi = halves(ctx, a)
    blo, bhi = halves(ctx, b)
    p = imad(ctx, alo, blo, c if c is not None else 0, "wide.u32")
    plo, phi = halves(ctx, p)
    hi = imad(ctx, alo, bhi, phi)
    hi = imad(ctx, ahi, blo, hi)
    return ctx.pack([plo, hi])


def mulhi64(ctx: LoweringBuilder, a: V, b: V, signed: bool) -> V:
    """High 64 bits of the 128-bit product."""
    alo, ahi = halves(ctx, a)
    blo, bhi = halves(ctx, b)
    p0 = imad(ctx, alo, blo, 0, "wide.u32")
    t = imad(ctx, alo, bhi, ctx.pack([halves(ctx, p0)[1], 0]), "wide.u32")
    tlo, thi = halves(ctx, t)
    u = imad(ctx, ahi, blo, ctx.pack([tlo, 0]), "wide.u32")
    v = imad(ctx, ahi, bhi, ctx.pack([thi, 0]), "wide.u32")
    h = add64(ctx, v, ctx.pack([halves(ctx, u)[1], 0]))
    if signed:
        # signed high = unsigned high - (a < 0 ? b : 0) - (b < 0 ? a : 0)
        an = isetp(ctx, "lt", "s32", ahi, 0)
        bn = isetp(ctx, "lt", "s32", bhi, 0)
        h = sub64(ctx, h, ctx.pack([sel(ctx, blo, 0, an), sel(ctx, bhi, 0, an)]))
        h = sub64(ctx, h, ctx.pack([sel(ctx, alo, 0, bn), sel(ctx, ahi, 0, bn)]))
    return h


def setp64(ctx: LoweringBuilder, cmp: str, sign: str, a: V, b: V, c: V = PT,
           bop: str = "and", cneg: bool = False, two: bool = False) -> tuple[V, ...]:
    alo, ahi = halves(ctx, a)
    blo, bhi = halves(ctx, b)
    lo = isetp(ctx, cmp, "u32", alo, blo)
    smods = {"c": "not"} if cneg else None
    types = [PredType.unallocated()] * (2 if two else 1)
    op = ctx.emit(ISetPOp, [ahi, bhi, c, lo], types, mods=f"{cmp}.{sign}.{bop}.ex", smods=smods)
    return tuple(op.results)


def sel64(ctx: LoweringBuilder, a: V, b: V, p: V, pneg: bool = False) -> V:
    alo, ahi = halves(ctx, a)
    blo, bhi = halves(ctx, b)
    return ctx.pack([sel(ctx, alo, blo, p, pneg), sel(ctx, ahi, bhi, p, pneg)])


def lop64(ctx: LoweringBuilder, a: V, b: V, c: V | None, table: int) -> V:
    alo, ahi = halves(ctx, a)
    blo, bhi = halves(ctx, b)
    clo, chi = halves(ctx, c) if c is not None else (RZ, RZ)
    return ctx.pack([lop(ctx, alo, blo, clo, table), lop(ctx, ahi, bhi, chi, table)])


def shl64(ctx: LoweringBuilder, a: V, s: Src) -> V:
    lo, hi = halves(ctx, a)
    nlo = ctx.emit1(ShlOp, [lo, s])
    nhi = ctx.emit1(ShfOp, [lo, s, hi], mods="l.u64.hi")
    return ctx.pack([nlo, nhi])


def shr64(ctx: LoweringBuilder, a: V, s: Src, signed: bool) -> V:
    lo, hi = halves(ctx, a)
    nlo = ctx.emit1(ShfOp, [lo, s, hi], mods="r.s64" if signed else "r.u64")
    nhi = ctx.emit1(ShrOp, [hi, s], mods="s32" if signed else "u32")
    return ctx.pack([nlo, nhi])


def smax0(ctx: LoweringBuilder, v: V) -> V:
    """max(v, 0) for a signed 32-bit value."""
    return ctx.emit1(IMnMxOp, [v, 0, PT], mods="s32", smods={"sel": "not"})


__all__ = [
    "Src",
    "V",
    "add32",
    "add64",
    "c64",
    "halves",
    "imad",
    "imm_to_b",
    "isetp",
    "lop",
    "lop64",
    "lut",
    "mulhi64",
    "mullo64",
    "neg64",
    "plop",
    "r32",
    "r64",
    "reg",
    "sel",
    "sel64",
    "setp64",
    "shl64",
    "shr64",
    "smax0",
    "sub32",
    "sub64",
]
