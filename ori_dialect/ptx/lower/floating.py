"""Floating-point instructions: f32 (FADD/FMUL/FFMA/FMNMX/FSETP/MUFU), f64
(DADD/DMUL/DFMA/DSETP) and f16/bf16 scalars and pairs (HADD2/HMUL2/HFMA2).

Design decisions:

* Sign operations (``neg``, ``abs``, ``copysign``) are LOP3 bit operations:
  PTX defines them on the sign bit for every input, NaN included.
* ``min``/``max`` f32 map to FMNMX (a NaN operand gives the other one).
  f64 and the 16-bit types have no min/max op: they are composed from a
  compare and SELs, with PTX's NaN rules spelled out by extra compares.
* IEEE-exact ``div``/``rcp``/``sqrt`` (``.rn .rz .rm .rp``) in f64 use a
  MUFU seed refined by Newton iterations (DFMA) on operands scaled into
  [1, 2) (or [1, 4) for sqrt), then an *exact rounding step*: the candidate
  is put on the grid of the destination (53-bit or, for results below
  2^-1022, the subnormal grid), corrected with exact remainder signs
  (an FMA's result has the sign of the exact value) and rounded in the
  requested mode by the sign of the remainder at the midpoint.  The result
  is scaled back by two exact multiplications whose only rounding is the
  overflow decision, made in the same mode.  Zeros, infinities and NaNs
  are recognised first and folded into one "special word" that is the
  only thing besides the scaled operands to stay live; it is selected at
  the end (keeping the f64 operands live to the end cost 3 registers).  This is exact on hardware whatever the seed's
  accuracy is above ~8 bits (three Newton steps).
* f32 ``div/rcp/sqrt`` with a rounding mode widen the operands exactly to
  f64 (where every f32, subnormals included, is normal and no quotient or
  root of two f32 values leaves the normal range), compute a nearly
  correctly rounded f64 result with a short Newton sequence and round it
  once to f32 in the requested mode (F2F does the f32 overflow and subnormal
  rounding).  Why that is exact (a gap argument, see :func:`_div32_core`):
  a quotient or root of 24-bit significands that is not itself a 25-bit
  number lies at least 2^-51 (relative) away from every f32 grid point and
  midpoint, and the f64 result is within 2^-52 of it and exact when it is
  representable -- so rounding it to f32 decides like the exact value in
  every mode.  This needs no scaling, no subnormal grid and no exact
  rounding step, which keeps the sequence short and its register pressure
  low (the full f64 routine peaked at ~29 live registers in fp32_ieee; this
  one is in line with ptxas's fast path).  Zeros, infinities and NaNs are
  recognised by the f64 result itself (it is finite and nonzero exactly for
  finite nonzero operands) and taken from a MUFU product.
  ``div.full.f32`` is ptxas's full-range approximation instead
  (:func:`_div_full`: scaled operands, ``MUFU.RCP`` and one multiply; PTX
  allows 2 ulp).
* ``.approx`` functions use MUFU; ``sin``/``cos`` pre-multiply by 1/(2*pi)
  as ptxas does.
"""

from __future__ import annotations

import math
import struct
from typing import TYPE_CHECKING

from xdsl.ir import SSAValue

from ori_dialect.ir.registers import PredType, R32Type, R64Type
from ori_dialect.ops.convert import F2FOp
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
from ori_dialect.ops.integer import IAdd3Op, IMnMxOp, Lop3Op, ShlOp, ShrOp
from ori_dialect.ops.predicate import DSetPOp, FSetPOp, ISetPOp, PLop3Op
from ori_dialect.ptx import ast
from ori_dialect.ptx.lower.arith import sel, sel64
from ori_dialect.ptx.lower.handlers import lowers, lowers_float

if TYPE_CHECKING:
    from ori_dialect.ptx.lower.builder import LoweringBuilder

RZ = R32Type.fixed()
PT = PredType.fixed()
P = PredType.unallocated()
R64 = R64Type.unallocated()
FTYPES = ("f32", "f64", "f16", "bf16", "f16x2", "bf16x2")
RNDS = ("rn", "rz", "rm", "rp")
_LUT_AND, _LUT_OR, _LUT_XOR = 0xC0, 0xFC, 0x3C  # LOP3 tables for a OP b (c unused)


class FMods:
    """The modifiers of a float instruction, by role."""

    def __init__(self, ctx: LoweringBuilder, ins: ast.Instruction, allowed: frozenset[str]) -> None:
        self.type = ""
        self.rnd = ""
        self.flags: set[str] = set()
        self.cmp = ""
        self.bop = ""
        for m in ins.modifiers:
            if m in FTYPES:
                if self.type:
                    ctx.unsupported(ins, f"two types .{self.type} and .{m}")
                self.type = m
            elif m in RNDS and "rnd" in allowed:
                self.rnd = m
            elif m in _CMPS and "cmp" in allowed:
                self.cmp = m
            elif m in ("and", "or", "xor") and "bop" in allowed:
                self.bop = m
            elif m in allowed:
                self.flags.add(m)
            else:
                ctx.unsupported(ins, f"modifier '.{m}'")
        if not self.type:
            ctx.error(f"{ins.opcode} needs a floating-point type", ins)

    def has(self, f: str) -> bool:
        return f in self.flags


_CMPS = ("eq", "ne", "lt", "le", "gt", "ge", "equ", "neu", "ltu", "leu", "gtu", "geu", "num", "nan")


def _ops(ctx: LoweringBuilder, ins: ast.Instruction, n: int) -> None:
    if len(ins.operands) != n:
        ctx.error(f"{ins.opcode} takes {n} operands", ins)


def f64_bits(x: float) -> int:
    return struct.unpack("<Q", struct.pack("<d", x))[0]


def f32_bits(x: float) -> int:
    return struct.unpack("<I", struct.pack("<f", x))[0]


# ----------------------------------------------------------------------
# small emission helpers
# ----------------------------------------------------------------------
def lop(ctx: LoweringBuilder, a: SSAValue, b: SSAValue | int, lut: int) -> SSAValue:
    return ctx.emit1(Lop3Op, [a, b, RZ, lut])


def pand(ctx: LoweringBuilder, a: SSAValue, b: SSAValue, lut: int = 0x80) -> SSAValue:
    """Predicate logic ``LUT(a, b, PT)``: with ``c`` = PT only the odd table bits
    count: bit 1 = !a&!b, 3 = !a&b, 5 = a&!b, 7 = a&b (0x80 = and, 0xF8 = or,
    0x20 = a & !b)."""
    return ctx.emit1(PLop3Op, [a, b, PT, lut])


def isetp(ctx: LoweringBuilder, cmp: str, a: SSAValue, b: SSAValue | int, sign: str = "s32") -> SSAValue:
    return ctx.emit1(ISetPOp, [a, b, PT], P, mods=f"{cmp}.{sign}.and")


def fsetp(ctx: LoweringBuilder, cmp: str, a: SSAValue, b: SSAValue | float,
          smods: dict[str, str] | None = None, ftz: bool = False) -> SSAValue:
    return ctx.emit1(FSetPOp, [a, b, PT], P, mods=f"{cmp}.and" + (".ftz" if ftz else ""), smods=smods)


def dsetp(ctx: LoweringBuilder, cmp: str, a: SSAValue, b: SSAValue,
          smods: dict[str, str] | None = None) -> SSAValue:
    return ctx.emit1(DSetPOp, [a, b, PT], P, mods=f"{cmp}.and", smods=smods)


def dconst(ctx: LoweringBuilder, x: float) -> SSAValue:
    return ctx.const(f64_bits(x), 64)


def dfma(ctx: LoweringBuilder, a: SSAValue, b: SSAValue, c: SSAValue, rnd: str = "rn",
         smods: dict[str, str] | None = None) -> SSAValue:
    return ctx.emit1(DFmaOp, [a, b, c], mods=rnd, smods=smods)


def dmul(ctx: LoweringBuilder, a: SSAValue, b: SSAValue, rnd: str = "rn") -> SSAValue:
    return ctx.emit1(DMulOp, [a, b], mods=rnd)


def dadd(ctx: LoweringBuilder, a: SSAValue, b: SSAValue, rnd: str = "rn",
         smods: dict[str, str] | None = None) -> SSAValue:
    return ctx.emit1(DAddOp, [a, b], mods=rnd, smods=smods)


def pow2(ctx: LoweringBuilder, e: SSAValue) -> SSAValue:
    """The f64 ``2^e`` for a register ``e`` in [-1022, 1023] (an s32)."""
    hi = ctx.emit1(ShlOp, [ctx.emit1(IAdd3Op, [e, 1023, RZ]), 20])
    return ctx.pack([ctx.mov_imm(0), hi])


def _with_hi(ctx: LoweringBuilder, v: SSAValue, hi: SSAValue) -> SSAValue:
    return ctx.pack([ctx.parts(v)[0], hi])


# ----------------------------------------------------------------------
# f32 arithmetic
# ----------------------------------------------------------------------
def _fsrc(ctx: LoweringBuilder, o: ast.Operand) -> SSAValue | float:
    return ctx.src(o, "f32")  # type: ignore[return-value]


def _freg(ctx: LoweringBuilder, o: ast.Operand) -> SSAValue:
    return ctx.value(o, "f32")


def _neg_imm(x: SSAValue | float) -> SSAValue | float | None:
    return -x if isinstance(x, float) else None


@lowers_float("add", "sub", "mul", "fma", "mad")
def lower_arith(ctx: LoweringBuilder, ins: ast.Instruction) -> None:
    op = ins.opcode
    fm = FMods(ctx, ins, frozenset({"rnd", "ftz", "sat"}))
    t = fm.type
    nsrc = 3 if op in ("fma", "mad") else 2
    _ops(ctx, ins, nsrc + 1)
    d, srcs = ins.operands[0], ins.operands[1:]
    if op == "fma" and not fm.rnd and t in ("f32", "f64"):
        # mad.f32 without a rounding modifier is the legacy sm_1x form, which
        # ptxas also fuses (FFMA); fma always states its rounding.
        ctx.error(f"{op}.{t} needs a rounding modifier (.rn/.rz/.rm/.rp)", ins)
    rnd = fm.rnd or "rn"
    if t == "f32":
        mods = ".".join([rnd, *(f for f in ("ftz", "sat") if fm.has(f))])
        a = _freg(ctx, srcs[0])
        if op in ("add", "sub"):
            b = _fsrc(ctx, srcs[1])
            sm = None
            if op == "sub":
                nb = _neg_imm(b)
                if nb is None:
                    sm = {"b": "neg"}
                else:
                    b = nb
            r = ctx.emit1(FAddOp, [a, b], mods=mods, smods=sm)
        elif op == "mul":
            r = ctx.emit1(FMulOp, [a, _fsrc(ctx, srcs[1])], mods=mods)
        else:
            r = ctx.emit1(FFmaOp, [a, _fsrc(ctx, srcs[1]), _fsrc(ctx, srcs[2])], mods=mods)
        ctx.set(d, r)
        return
    if t == "f64":
        if fm.has("ftz") or fm.has("sat"):
            ctx.unsupported(ins, ".ftz/.sat do not exist for f64")
        vs = [ctx.value(s, "f64") for s in srcs]
        if op == "add":
            r = dadd(ctx, vs[0], vs[1], rnd)
        elif op == "sub":
            r = dadd(ctx, vs[0], vs[1], rnd, smods={"b": "neg"})
        elif op == "mul":
            r = dmul(ctx, vs[0], vs[1], rnd)
        else:
            r = dfma(ctx, vs[0], vs[1], vs[2], rnd)
        ctx.set(d, r)
        return
    _half_arith(ctx, ins, fm, op, d, srcs)


def _half_arith(ctx: LoweringBuilder, ins: ast.Instruction, fm: FMods, op: str,
                d: ast.Operand, srcs: list[ast.Operand]) -> None:
    t = fm.type
    if fm.rnd not in ("", "rn"):
        ctx.unsupported(ins, f"rounding .{fm.rnd} on .{t} (HADD2/HMUL2/HFMA2 round to nearest)")
    if op == "mad":
        ctx.unsupported(ins, "mad on half types (use fma.rn)")
    bf = t.startswith("bf")
    mods = ".".join(["bf16" if bf else "f16", *(f for f in ("ftz", "sat") if fm.has(f))])
    vs = [ctx.value(s, "b32") for s in srcs]
    if op == "add":
        r = ctx.emit1(HAdd2Op, vs, mods=mods)
    elif op == "sub":
        r = ctx.emit1(HAdd2Op, vs, mods=mods, smods={"b": "neg"})
    elif op == "mul":
        r = ctx.emit1(HMul2Op, vs, mods=mods)
    else:
        r = ctx.emit1(HFma2Op, vs, mods=mods)
    if t in ("f16", "bf16"):
        # Scalars live in the low half; the high lane computed garbage.
        r = lop(ctx, r, 0xFFFF, _LUT_AND)
    ctx.set(d, r)


# ----------------------------------------------------------------------
# sign operations, min/max
# ----------------------------------------------------------------------
def _sign_mask(t: str) -> int:
    return {"f32": 0x80000000, "f16": 0x8000, "bf16": 0x8000, "f16x2": 0x80008000,
            "bf16x2": 0x80008000}[t]


def _flush_bits(ctx: LoweringBuilder, v: SSAValue) -> SSAValue:
    """f32 bits with denormals flushed to a signed zero (for ``.ftz`` sign ops)."""
    is_den = isetp(ctx, "eq", lop(ctx, v, 0x7F800000, _LUT_AND), 0, "u32")
    return sel(ctx, lop(ctx, v, 0x80000000, _LUT_AND), v, is_den)


@lowers_float("abs", "neg")
def lower_abs_neg(ctx: LoweringBuilder, ins: ast.Instruction) -> None:
    fm = FMods(ctx, ins, frozenset({"ftz"}))
    _ops(ctx, ins, 2)
    d, a = ins.operands
    lut = 0x30 if ins.opcode == "abs" else _LUT_XOR  # a & ~b / a ^ b
    if fm.type == "f64":
        lo, hi = ctx.parts(ctx.value(a, "f64"))
        ctx.set(d, ctx.pack([lo, lop(ctx, hi, 0x80000000, lut)]))
        return
    v = ctx.value(a, "b32")
    if fm.has("ftz"):
        if fm.type != "f32":
            ctx.unsupported(ins, f".ftz on .{fm.type}")
        v = _flush_bits(ctx, v)
    ctx.set(d, lop(ctx, v, _sign_mask(fm.type), lut))


@lowers("copysign")
def lower_copysign(ctx: LoweringBuilder, ins: ast.Instruction) -> None:
    """``copysign d, a, b``: magnitude of ``b``, sign of ``a``."""
    fm = FMods(ctx, ins, frozenset())
    _ops(ctx, ins, 3)
    d, a, b = ins.operands
    # LOP3 (a & m) | (b & ~m) with c = the sign mask: lut for (a&c)|(b&~c).
    lut = (0xF0 & 0xAA) | (0xCC & ~0xAA & 0xFF)
    if fm.type == "f64":
        ah = ctx.parts(ctx.value(a, "f64"))[1]
        bl, bh = ctx.parts(ctx.value(b, "f64"))
        m = ctx.mov_imm(0x80000000)
        ctx.set(d, ctx.pack([bl, ctx.emit1(Lop3Op, [ah, bh, m, lut])]))
        return
    if fm.type != "f32":
        ctx.unsupported(ins, f"copysign.{fm.type}")
    m = ctx.mov_imm(0x80000000)
    ctx.set(d, ctx.emit1(Lop3Op, [_freg(ctx, a), _freg(ctx, b), m, lut]))


def _half_lane_minmax(ctx: LoweringBuilder, a: SSAValue, b: SSAValue, is_min: bool,
                      bf: bool, nan_mode: bool) -> SSAValue:
    """min/max of the 16-bit floats in the low halves of ``a``/``b`` (upper bits 0),
    computed in f32 (both formats widen exactly): FMNMX, with NaN rules."""
    fa = _half_to_f32(ctx, a, bf)
    fb = _half_to_f32(ctx, b, bf)
    r32 = ctx.emit1(FMnMxOp, [fa, fb, PT], smods=None if is_min else {"sel": "not"})
    # Select the original operand bits (exact: min/max picks an input).
    pick_a = fsetp(ctx, "eq", r32, fa)
    # -0 vs +0: FMNMX orders them, compare bits too.
    same = isetp(ctx, "eq", r32, fa, "u32")
    r = sel(ctx, a, b, pand(ctx, pick_a, same))
    nan = 0x7FFF  # canonical f16 and bf16 NaN
    both_nan = pand(ctx, fsetp(ctx, "nan", fa, fa), fsetp(ctx, "nan", fb, fb))
    r = sel(ctx, ctx.mov_imm(nan), r, both_nan)
    if nan_mode:
        any_nan = fsetp(ctx, "nan", fa, fb)
        r = sel(ctx, ctx.mov_imm(nan), r, any_nan)
    return r


def _half_to_f32(ctx: LoweringBuilder, h: SSAValue, bf: bool) -> SSAValue:
    if bf:
        return ctx.emit1(ShlOp, [h, 16])
    return ctx.emit1(F2FOp, [h], mods="f32.f16")


@lowers_float("min", "max")
def lower_minmax(ctx: LoweringBuilder, ins: ast.Instruction) -> None:
    fm = FMods(ctx, ins, frozenset({"ftz", "NaN", "xorsign", "abs"}))
    if fm.has("xorsign") or fm.has("abs"):
        ctx.unsupported(ins, ".xorsign.abs min/max")
    _ops(ctx, ins, 3)
    d, a, b = ins.operands
    is_min = ins.opcode == "min"
    sm = None if is_min else {"sel": "not"}
    if fm.type == "f32":
        va = _freg(ctx, a)
        vb = _fsrc(ctx, b)
        r = ctx.emit1(FMnMxOp, [va, vb, PT], mods="ftz" if fm.has("ftz") else "", smods=sm)
        if fm.has("NaN"):
            unordered = fsetp(ctx, "nan", va, vb)
            r = sel(ctx, ctx.mov_imm(0x7FFFFFFF), r, unordered)
        ctx.set(d, r)
        return
    if fm.type == "f64":
        if fm.has("ftz") or fm.has("NaN"):
            ctx.unsupported(ins, f"modifiers on {ins.opcode}.f64")
        va, vb = ctx.value(a, "f64"), ctx.value(b, "f64")
        # a is the result when a < b (min), a is b's equal with the right
        # zero sign, or b is NaN; otherwise b.  -0 < +0 for min/max.
        lt = dsetp(ctx, "lt" if is_min else "gt", va, vb)
        ah = ctx.parts(va)[1]
        eq = dsetp(ctx, "eq", va, vb)
        # On equality (only +-0 can differ): min takes the negative, max the positive.
        a_neg = isetp(ctx, "lt", ah, 0)
        eq_pick_a = pand(ctx, eq, a_neg, 0x80 if is_min else 0x20)
        b_nan = dsetp(ctx, "nan", vb, vb)
        pick_a = ctx.emit1(PLop3Op, [lt, eq_pick_a, b_nan, 0xFE])
        r = sel64(ctx, va, vb, pick_a)
        both = pand(ctx, dsetp(ctx, "nan", va, va), b_nan)
        r = sel64(ctx, ctx.const(0x7FFFFFFFFFFFFFFF, 64), r, both)
        ctx.set(d, r)
        return
    bf = fm.type.startswith("bf")
    if fm.has("ftz"):
        ctx.unsupported(ins, f".ftz on {ins.opcode}.{fm.type}")
    va, vb = ctx.value(a, "b32"), ctx.value(b, "b32")
    if fm.type in ("f16", "bf16"):
        ctx.set(d, _half_lane_minmax(ctx, va, vb, is_min, bf, fm.has("NaN")))
        return
    lo = _half_lane_minmax(ctx, lop(ctx, va, 0xFFFF, _LUT_AND), lop(ctx, vb, 0xFFFF, _LUT_AND),
                           is_min, bf, fm.has("NaN"))
    hi = _half_lane_minmax(ctx, ctx.emit1(ShrOp, [va, 16], mods="u32"),
                           ctx.emit1(ShrOp, [vb, 16], mods="u32"), is_min, bf, fm.has("NaN"))
    ctx.set(d, lop(ctx, ctx.emit1(ShlOp, [hi, 16]), lo, _LUT_OR))


# ----------------------------------------------------------------------
# comparisons
# ----------------------------------------------------------------------
@lowers_float("setp")
def lower_setp(ctx: LoweringBuilder, ins: ast.Instruction) -> None:
    fm = FMods(ctx, ins, frozenset({"cmp", "bop", "ftz"}))
    if not fm.cmp:
        ctx.error("setp needs a comparison", ins)
    ops = ins.operands
    if len(ops) not in (3, 4):
        ctx.error("setp takes a destination, two sources and an optional predicate", ins)
    d = ops[0]
    two = isinstance(d, ast.Register) and d.pair is not None
    if fm.bop and len(ops) != 4:
        ctx.error(f"setp.{fm.bop} needs a fourth (predicate) operand", ins)
    if len(ops) == 4 and not fm.bop:
        ctx.error("setp with a predicate operand needs .and/.or/.xor", ins)
    c: SSAValue = PT
    csm: dict[str, str] = {}
    if len(ops) == 4:
        co = ops[3]
        if isinstance(co, ast.Register) and co.negated:
            csm["c"] = "not"
            co = ast.Register(co.name)
        c = ctx.value(co, "pred")
    bop = fm.bop or "and"
    types = [P, P] if two else [P]
    t = fm.type
    if t == "f32":
        a, b = _freg(ctx, ops[1]), _fsrc(ctx, ops[2])
        op = ctx.emit(FSetPOp, [a, b, c], types, mods=f"{fm.cmp}.{bop}" + (".ftz" if fm.has("ftz") else ""),
                      smods=csm or None)
    elif t == "f64":
        if fm.has("ftz"):
            ctx.unsupported(ins, ".ftz on setp.f64")
        a64, b64 = ctx.value(ops[1], "f64"), ctx.value(ops[2], "f64")
        op = ctx.emit(DSetPOp, [a64, b64, c], types, mods=f"{fm.cmp}.{bop}", smods=csm or None)
    elif t in ("f16", "bf16"):
        if fm.has("ftz"):
            ctx.unsupported(ins, f".ftz on setp.{t}")
        bf = t == "bf16"
        a = _half_to_f32(ctx, ctx.value(ops[1], "b32"), bf)
        b2 = _half_to_f32(ctx, ctx.value(ops[2], "b32"), bf)
        op = ctx.emit(FSetPOp, [a, b2, c], types, mods=f"{fm.cmp}.{bop}", smods=csm or None)
    else:
        ctx.unsupported(ins, f"setp.{t} (packed compares write two predicate pairs)")
    if not isinstance(d, ast.Register):
        ctx.error("setp's destination must be a predicate register", ins)
    ctx.set(ast.Register(d.name), op.results[0])
    if two:
        assert d.pair is not None
        ctx.set(ast.Register(d.pair), op.results[1])


@lowers("testp")
def lower_testp(ctx: LoweringBuilder, ins: ast.Instruction) -> None:
    fm = FMods(ctx, ins, frozenset({"finite", "infinite", "number", "notanumber", "normal",
                                    "subnormal"}))
    _ops(ctx, ins, 2)
    if len(fm.flags) != 1:
        ctx.error("testp needs exactly one test", ins)
    test = next(iter(fm.flags))
    d, a = ins.operands
    if fm.type == "f64":
        hi = ctx.parts(ctx.value(a, "f64"))[1]
        lo = ctx.parts(ctx.value(a, "f64"))[0]
        expm, mant_hi, expbits = 0x7FF00000, 0x000FFFFF, 20
    elif fm.type == "f32":
        hi, lo = _freg(ctx, a), RZ
        expm, mant_hi, expbits = 0x7F800000, 0x007FFFFF, 23
    else:
        ctx.unsupported(ins, f"testp.{fm.type}")
    _ = expbits
    e = lop(ctx, hi, expm, _LUT_AND)
    mant = lop(ctx, lop(ctx, hi, mant_hi, _LUT_AND), lo, _LUT_OR)
    e_max = isetp(ctx, "eq", e, expm, "u32")
    e_zero = isetp(ctx, "eq", e, 0, "u32")
    m_zero = isetp(ctx, "eq", mant, 0, "u32")
    if test == "finite":
        r = pand(ctx, e_max, PT, 0x0F)  # !e_max
    elif test == "infinite":
        r = pand(ctx, e_max, m_zero)
    elif test == "number":
        r = pand(ctx, e_max, m_zero, 0x8A)  # !e_max | m_zero
    elif test == "notanumber":
        r = pand(ctx, e_max, m_zero, 0x20)  # a & !b
    elif test == "normal":
        r = pand(ctx, e_max, e_zero, 0x03)  # !a & !b
    else:
        r = pand(ctx, e_zero, m_zero, 0x20)
    ctx.set(d, r)


# ----------------------------------------------------------------------
# f32 approximate functions (MUFU)
# ----------------------------------------------------------------------
_INV_2PI = float(struct.unpack("<f", struct.pack("<f", 1.0 / (2.0 * math.pi)))[0])


@lowers("sin", "cos", "ex2", "lg2", "tanh")
def lower_mufu(ctx: LoweringBuilder, ins: ast.Instruction) -> None:
    fm = FMods(ctx, ins, frozenset({"approx", "ftz"}))
    _ops(ctx, ins, 2)
    if not fm.has("approx"):
        ctx.error(f"{ins.opcode} needs .approx", ins)
    if fm.type != "f32":
        ctx.unsupported(ins, f"{ins.opcode}.approx.{fm.type}")
    d, a = ins.operands
    v = _freg(ctx, a)
    ftz = "ftz" if fm.has("ftz") else ""
    func = ins.opcode
    if func in ("sin", "cos"):
        v = ctx.emit1(FMulOp, [v, _INV_2PI], mods=ftz or "")
    ctx.set(d, ctx.emit1(MufuOp, [v], mods=".".join(x for x in (func, ftz) if x)))


@lowers("rsqrt")
def lower_rsqrt(ctx: LoweringBuilder, ins: ast.Instruction) -> None:
    fm = FMods(ctx, ins, frozenset({"approx", "ftz"}))
    _ops(ctx, ins, 2)
    if not fm.has("approx"):
        ctx.error("rsqrt needs .approx", ins)
    d, a = ins.operands
    if fm.type == "f32":
        ctx.set(d, ctx.emit1(MufuOp, [_freg(ctx, a)], mods="rsq.ftz" if fm.has("ftz") else "rsq"))
        return
    if fm.type != "f64":
        ctx.unsupported(ins, f"rsqrt.{fm.type}")
    x = ctx.value(a, "f64")
    ctx.set(d, _rsqrt64_approx(ctx, x))


def _rsqrt64_approx(ctx: LoweringBuilder, x: SSAValue) -> SSAValue:
    """rsqrt.approx.f64: MUFU.RSQ64H seed and two Newton steps (``y += y*(1/2 - x*y*y/2)``);
    zeros, infinities and NaN come out of the seed (the steps keep them via the select)."""
    lo, hi = ctx.parts(x)
    y = ctx.pack([ctx.mov_imm(0), ctx.emit1(MufuOp, [hi], mods="rsq64h")])
    one = dconst(ctx, 1.0)
    for _ in range(2):
        t = dmul(ctx, x, y)
        e = dfma(ctx, t, y, one, smods={"a": "neg"})  # 1 - x*y*y
        y = dfma(ctx, dmul(ctx, y, dconst(ctx, 0.5)), e, y)  # y + y*e/2
    # Keep the seed's special values (0 -> inf, inf -> 0, negative -> NaN).
    fin = dsetp(ctx, "lt", x, dconst(ctx, math.inf))
    pos = dsetp(ctx, "gt", x, dconst(ctx, 0.0))
    ok = pand(ctx, fin, pos)
    seed = ctx.pack([ctx.mov_imm(0), ctx.emit1(MufuOp, [hi], mods="rsq64h")])
    _ = lo
    return sel64(ctx, y, seed, ok)


# ----------------------------------------------------------------------
# IEEE-exact f64 division and square root
# ----------------------------------------------------------------------
def _imin(ctx: LoweringBuilder, a: SSAValue, b: int) -> SSAValue:
    return ctx.emit1(IMnMxOp, [a, b, PT], mods="s32")


def _imax(ctx: LoweringBuilder, a: SSAValue, b: int) -> SSAValue:
    return ctx.emit1(IMnMxOp, [a, b, PT], mods="s32", smods={"sel": "not"})


def _iadd(ctx: LoweringBuilder, a: SSAValue, b: SSAValue | int, neg_b: bool = False) -> SSAValue:
    return ctx.emit1(IAdd3Op, [a, b, RZ], smods={"b": "neg"} if neg_b else None)


def _normalize(ctx: LoweringBuilder, x: SSAValue) -> tuple[SSAValue, SSAValue]:
    """``|x|`` (finite, nonzero) as ``(m, e)``: ``m`` in [1, 2) (f64) and the
    unbiased exponent ``e`` (s32) with ``|x| = m * 2^e``.  Subnormals are
    first scaled by 2^54 (exact)."""
    lo, hi = ctx.parts(x)
    ahi = lop(ctx, hi, 0x7FFFFFFF, _LUT_AND)
    ax = ctx.pack([lo, ahi])
    sub = isetp(ctx, "lt", ahi, 0x00100000, "u32")
    xs = sel64(ctx, dmul(ctx, ax, dconst(ctx, 2.0**54)), ax, sub)
    slo, shi = ctx.parts(xs)
    biased = ctx.emit1(ShrOp, [shi, 20], mods="u32")
    e = _iadd(ctx, biased, sel(ctx, ctx.mov_imm((-1023 - 54) & 0xFFFFFFFF),
                               ctx.mov_imm(-1023 & 0xFFFFFFFF), sub))
    mhi = ctx.emit1(Lop3Op, [shi, 0x000FFFFF, ctx.mov_imm(0x3FF00000), 0xEA])  # (a & b) | c
    return ctx.pack([slo, mhi]), e


def _hi_pow2(ctx: LoweringBuilder, biased: SSAValue) -> SSAValue:
    """The f64 power of two with biased exponent field ``biased`` (1..2046)."""
    return ctx.pack([ctx.mov_imm(0), ctx.emit1(ShlOp, [biased, 20])])


def _round_on_grid(ctx: LoweringBuilder, q: SSAValue, u: SSAValue, inv_u: SSAValue) -> SSAValue:
    """``floor(q / u) * u`` for ``u`` a power of two (both scalings exact)."""
    n = dmul(ctx, q, inv_u)
    fl = ctx.emit1(F2FOp, [n], R64, mods="f64.f64.rm.int")
    return dmul(ctx, fl, u)


def _rn_odd(ctx: LoweringBuilder, c: SSAValue, inv_u: SSAValue) -> SSAValue:
    """Whether ``c / u`` (an integer <= 2^54) is odd."""
    n = dmul(ctx, c, inv_u)
    h = dmul(ctx, n, dconst(ctx, 0.5))
    fl = ctx.emit1(F2FOp, [h], R64, mods="f64.f64.rm.int")
    return dsetp(ctx, "ne", h, fl)


def _round_up(ctx: LoweringBuilder, rnd: str, mid_pos: SSAValue, mid_zero: SSAValue,
              odd: SSAValue, inexact: SSAValue, neg: SSAValue) -> SSAValue:
    """Whether the magnitude rounds up from the grid point below the exact value."""
    if rnd == "rn":
        tie_up = pand(ctx, mid_zero, odd)
        return pand(ctx, mid_pos, tie_up, 0xFC)  # or
    if rnd == "rz":
        return pand(ctx, PT, PT, 0x00)
    if rnd == "rm":
        return pand(ctx, inexact, neg)
    return pand(ctx, inexact, neg, 0x20)  # inexact & !neg


def _newton_recip(ctx: LoweringBuilder, b: SSAValue, y: SSAValue, steps: int) -> SSAValue:
    """``1 / b`` refined from the seed ``y`` by ``steps`` Newton steps
    ``y += y * (1 - b*y)``."""
    one = dconst(ctx, 1.0)
    for _ in range(steps):
        e = dfma(ctx, b, y, one, smods={"a": "neg"})
        y = dfma(ctx, y, e, y)
    return y


def _newton_div(ctx: LoweringBuilder, a: SSAValue, b: SSAValue, y: SSAValue, steps: int) -> SSAValue:
    """``a / b`` from the reciprocal seed ``y``: :func:`_newton_recip`, then
    ``q = a*y`` and one correction ``q + (a - b*q) * y`` (the remainder by
    FMA)."""
    y = _newton_recip(ctx, b, y, steps)
    q = dmul(ctx, a, y)
    r = dfma(ctx, b, q, a, smods={"a": "neg"})
    return dfma(ctx, r, y, q)


def _newton_sqrt(ctx: LoweringBuilder, x: SSAValue, steps: int) -> SSAValue:
    """``sqrt(x)`` from the MUFU.RSQ64H seed: ``steps`` Newton steps on
    ``y ~ 1/sqrt(x)``, then ``s = x*y`` and one correction ``s + (x - s^2) *
    y/2``."""
    one, half = dconst(ctx, 1.0), dconst(ctx, 0.5)
    y = ctx.pack([ctx.mov_imm(0), ctx.emit1(MufuOp, [ctx.parts(x)[1]], mods="rsq64h")])
    for _ in range(steps):
        t = dmul(ctx, x, y)
        e = dfma(ctx, t, y, one, smods={"a": "neg"})
        y = dfma(ctx, dmul(ctx, y, half), e, y)
    s = dmul(ctx, x, y)
    r = dfma(ctx, s, s, x, smods={"a": "neg"})
    return dfma(ctx, r, dmul(ctx, y, half), s)


_NOT_SPECIAL = 1
"""The "special word" of an ordinary operand: never the high word of a zero,
an infinity or the canonical NaN."""


def _select_special(ctx: LoweringBuilder, spec: SSAValue, res: SSAValue) -> SSAValue:
    """``res``, or the special result whose high word is ``spec`` (computed
    first by div64/sqrt64 so that only this one register, not the f64
    operands, stays live through the routine -- it cut the routines' peak
    register pressure by 3).  The low word is 0 except for the canonical
    NaN (high word 0x7FFFFFFF, low word all ones)."""
    is_spec = isetp(ctx, "ne", spec, _NOT_SPECIAL, "u32")
    is_nan = isetp(ctx, "eq", spec, 0x7FFFFFFF, "u32")
    lo = sel(ctx, ctx.mov_imm(0xFFFFFFFF), ctx.mov_imm(0), is_nan)
    return sel64(ctx, ctx.pack([lo, spec]), res, is_spec)


def div64(ctx: LoweringBuilder, a: SSAValue, b: SSAValue, rnd: str) -> SSAValue:
    """IEEE ``a / b`` in float64, correctly rounded in ``rnd`` (see the module docstring)."""
    ah, bh = ctx.parts(a)[1], ctx.parts(b)[1]
    sign = lop(ctx, lop(ctx, ah, bh, _LUT_XOR), 0x80000000, _LUT_AND)
    # Special operands first, folded into one word (see _special_hi), so that
    # ``a`` and ``b`` die at the normalisation instead of living to the end.
    abs_ = {"a": "abs", "b": "abs"}
    inf, zero = dconst(ctx, math.inf), dconst(ctx, 0.0)
    a_nan, b_nan = dsetp(ctx, "nan", a, a), dsetp(ctx, "nan", b, b)
    a_inf = dsetp(ctx, "eq", a, inf, smods={"a": "abs"})
    b_inf = dsetp(ctx, "eq", b, inf, smods={"a": "abs"})
    a_zero = dsetp(ctx, "eq", a, zero, smods=abs_)
    b_zero = dsetp(ctx, "eq", b, zero, smods=abs_)
    nan = ctx.emit1(PLop3Op, [a_nan, b_nan, pand(ctx, a_zero, b_zero), 0xFE])
    nan = ctx.emit1(PLop3Op, [nan, a_inf, b_inf, 0xF8])  # nan | (a_inf & b_inf)
    spec = sel(ctx, sign, _NOT_SPECIAL, pand(ctx, a_zero, b_inf, 0xFC))  # to zero
    to_inf = pand(ctx, a_inf, b_zero, 0xFC)
    spec = sel(ctx, lop(ctx, sign, 0x7FF00000, _LUT_OR), spec, to_inf)
    spec = sel(ctx, ctx.mov_imm(0x7FFFFFFF), spec, nan)
    am, ea = _normalize(ctx, a)
    bm, eb = _normalize(ctx, b)
    # Clamping k keeps every power of two representable and changes no
    # result: below 2^-1078 everything rounds like a tiny positive value,
    # above 2^1100 everything overflows.
    k = _imax(ctx, _imin(ctx, _iadd(ctx, ea, eb, neg_b=True), 1100), -1080)
    # Reciprocal of bm in [1, 2): MUFU seed + three Newton steps.
    y = ctx.pack([ctx.mov_imm(0), ctx.emit1(MufuOp, [ctx.parts(bm)[1]], mods="rcp64h")])
    q = _newton_div(ctx, am, bm, y, 3)
    # Grid of the destination: 2^-52 (Q >= 1) or 2^-53 (Q < 1), or the
    # subnormal grid 2^(-1074-k) when coarser.
    ge1 = dsetp(ctx, "ge", am, bm)
    u53_hi = sel(ctx, ctx.mov_imm((1023 - 52) << 20), ctx.mov_imm((1023 - 53) << 20), ge1)
    sub_field = _imax(ctx, _iadd(ctx, ctx.mov_imm(-51 & 0xFFFFFFFF), k, neg_b=True), 1)
    sub_hi = ctx.emit1(ShlOp, [sub_field, 20])
    use_sub = isetp(ctx, "gt", sub_hi, u53_hi, "u32")
    u_hi = sel(ctx, sub_hi, u53_hi, use_sub)
    u = ctx.pack([ctx.mov_imm(0), u_hi])
    inv_u = ctx.pack([ctx.mov_imm(0), _iadd(ctx, ctx.mov_imm(0x7FE00000), u_hi, neg_b=True)])
    c = _round_on_grid(ctx, q, u, inv_u)
    # Exact corrections: an FMA result has the sign of the exact remainder.
    r0 = dfma(ctx, bm, c, am, smods={"a": "neg"})
    below = dsetp(ctx, "lt", r0, dconst(ctx, 0.0))
    c = sel64(ctx, dadd(ctx, c, u, smods={"b": "neg"}), c, below)
    cu = dadd(ctx, c, u)
    r1 = dfma(ctx, bm, cu, am, smods={"a": "neg"})
    c = sel64(ctx, cu, c, dsetp(ctx, "ge", r1, dconst(ctx, 0.0)))
    rc = dfma(ctx, bm, c, am, smods={"a": "neg"})  # exact on the 53-bit grid
    zero = dconst(ctx, 0.0)
    hu = dmul(ctx, u, dconst(ctx, 0.5))
    neg = isetp(ctx, "ne", sign, 0, "u32")
    inexact = dsetp(ctx, "ne", rc, zero)
    mid_n = dfma(ctx, bm, hu, rc, smods={"a": "neg"})
    mid_s = dfma(ctx, bm, dadd(ctx, c, hu), am, smods={"a": "neg"})  # c + u/2 exact there
    mid = sel64(ctx, mid_s, mid_n, use_sub)
    up = _round_up(ctx, rnd, dsetp(ctx, "gt", mid, zero), dsetp(ctx, "eq", mid, zero),
                   _rn_odd(ctx, c, inv_u), inexact, neg)
    rmag = sel64(ctx, dadd(ctx, c, u), c, up)
    rl, rh = ctx.parts(rmag)
    rs = ctx.pack([rl, lop(ctx, rh, sign, _LUT_OR)])
    k1 = ctx.emit1(ShrOp, [k, 1], mods="s32")
    k2 = _iadd(ctx, k, k1, neg_b=True)
    res = dmul(ctx, dmul(ctx, rs, pow2(ctx, k1), rnd), pow2(ctx, k2), rnd)
    return _select_special(ctx, spec, res)


def sqrt64(ctx: LoweringBuilder, x: SSAValue, rnd: str) -> SSAValue:
    """IEEE ``sqrt(x)`` in float64, correctly rounded in ``rnd``."""
    # Specials first (see _special_hi): +-0 and +inf give themselves (their
    # low word is 0), NaN and x < 0 give NaN (-0 is not < 0).
    zero = dconst(ctx, 0.0)
    keep = ctx.emit1(PLop3Op, [dsetp(ctx, "eq", x, zero), dsetp(ctx, "eq", x, dconst(ctx, math.inf)),
                               PT, 0xF0 | 0xCC])
    spec = sel(ctx, ctx.parts(x)[1], _NOT_SPECIAL, keep)
    negative = dsetp(ctx, "ltu", x, zero)
    spec = sel(ctx, ctx.mov_imm(0x7FFFFFFF), spec, negative)
    xm, ex = _normalize(ctx, x)
    # x = xm * 2^ex; make the exponent even: x' in [1, 4), k = floor(ex / 2).
    par = lop(ctx, ex, 1, _LUT_AND)
    k = ctx.emit1(ShrOp, [ex, 1], mods="s32")
    xl, xh = ctx.parts(xm)
    xp = ctx.pack([xl, _iadd(ctx, xh, ctx.emit1(ShlOp, [par, 20]))])
    s = _newton_sqrt(ctx, xp, 3)
    u = dconst(ctx, 2.0**-52)
    inv_u = dconst(ctx, 2.0**52)
    c = _round_on_grid(ctx, s, u, inv_u)
    r0 = dfma(ctx, c, c, xp, smods={"a": "neg"})
    below = dsetp(ctx, "lt", r0, zero)
    c = sel64(ctx, dadd(ctx, c, u, smods={"b": "neg"}), c, below)
    cu = dadd(ctx, c, u)
    r1 = dfma(ctx, cu, cu, xp, smods={"a": "neg"})
    c = sel64(ctx, cu, c, dsetp(ctx, "ge", r1, zero))
    cu = dadd(ctx, c, u)
    inexact = dsetp(ctx, "ne", dfma(ctx, c, c, xp, smods={"a": "neg"}), zero)
    # x' - (c + u/2)^2 = (x' - c*(c+u)) - u^2/4 and x' - c*(c+u) is a multiple
    # of 2^-104, so the midpoint is exceeded iff that FMA is > 0 (no ties).
    mid_pos = dsetp(ctx, "gt", dfma(ctx, c, cu, xp, smods={"a": "neg"}), zero)
    never = pand(ctx, PT, PT, 0x00)
    up = _round_up(ctx, rnd, mid_pos, never, never, inexact, never)
    res = dmul(ctx, sel64(ctx, cu, c, up), pow2(ctx, k))
    return _select_special(ctx, spec, res)


def _to_f64(ctx: LoweringBuilder, v: SSAValue, ftz: bool) -> SSAValue:
    return ctx.emit1(F2FOp, [v], R64, mods="f64.f32" + (".ftz" if ftz else ""))


def _to_f32(ctx: LoweringBuilder, v: SSAValue, rnd: str, ftz: bool) -> SSAValue:
    return ctx.emit1(F2FOp, [v], R32Type.unallocated(), mods=f"f32.f64.{rnd}" + (".ftz" if ftz else ""))


def _div32(ctx: LoweringBuilder, a: SSAValue, b: SSAValue, rnd: str, ftz: bool) -> SSAValue:
    """``a / b`` rounded to f32 in ``rnd`` for f64 operands that are exactly
    f32 values (possibly flushed).  Why this is exact:

    * Gap: with ``a``, ``b`` of 24-bit significands and ``m`` any 25-bit
      number (an f32 grid point or midpoint, subnormal ones included),
      ``a - b*m`` is a multiple of ulp(b)*ulp(m), so ``a/b`` is either
      ``m`` or at least 2^-51 (relative) away from it.
    * Accuracy: two Newton steps from the MUFU.RCP64H seed (>= 8 bits) give
      ``y`` within eps <= 2^-32 of 1/b; then ``q0 = a*y``, ``r = a - b*q0``
      (one rounding, tiny) and ``q1 = q0 + r*y`` is within (1/2 ulp + eps^2)
      of ``a/b`` -- below 2^-52 relative, and exactly ``a/b`` when that is
      an f64 value (the error term is far below half an ulp).
    * So ``F2F.f32.f64.rnd(q1)`` rounds like the exact quotient in all four
      modes (F2F handles f32 overflow and the subnormal grid).
    * Specials: ``q1`` is finite and nonzero exactly when both operands are
      (their f64 quotient never overflows or underflows); otherwise the
      result is ``a * rcp64h(b)``, whose IEEE products give NaN, +-inf and
      signed zeros as division does (``b`` is never subnormal in f64, so the
      seed of a nonzero finite ``b`` is finite and nonzero).
    """
    _, bh = ctx.parts(b)
    y0 = ctx.pack([ctx.mov_imm(0), ctx.emit1(MufuOp, [bh], mods="rcp64h")])
    special = _to_f32(ctx, dmul(ctx, a, y0), "rn", ftz)  # exact for 0/inf/NaN
    q1 = _newton_div(ctx, a, b, y0, 2)
    ok = dsetp(ctx, "gt", q1, dconst(ctx, 0.0), smods={"a": "abs"})
    return sel(ctx, _to_f32(ctx, q1, rnd, ftz), special, ok)


def _sqrt32(ctx: LoweringBuilder, v: SSAValue, rnd: str, ftz: bool) -> SSAValue:
    """``sqrt(v)`` for an f32 register, rounded to f32 in ``rnd``; the same
    argument as :func:`_div32`: for ``x`` of a 24-bit significand and a
    25-bit ``m``, ``x - m^2`` is a multiple of ulp(m)^2, so ``sqrt(x)`` is
    ``m`` or at least 2^-51 (relative) away.  ``y`` ~ 1/sqrt(x) after two
    Newton steps (eps <= 2^-32), ``s = x*y``, ``r = x - s^2`` and
    ``s + r*y/2`` is within 1/2 ulp + O(eps^2) of ``sqrt(x)`` and exact when
    that is an f64 value.  ``s`` is NaN exactly for +-0, +inf, negative and
    NaN inputs (rsq64h of 0 is inf, of inf 0, of x < 0 NaN); those take
    MUFU.SQRT's IEEE special results."""
    s = _newton_sqrt(ctx, _to_f64(ctx, v, ftz), 2)
    ok = dsetp(ctx, "num", s, s)
    special = ctx.emit1(MufuOp, [v], mods="sqrt.ftz" if ftz else "sqrt")
    return sel(ctx, _to_f32(ctx, s, rnd, ftz), special, ok)


@lowers_float("div")
def lower_div(ctx: LoweringBuilder, ins: ast.Instruction) -> None:
    fm = FMods(ctx, ins, frozenset({"rnd", "ftz", "approx", "full"}))
    _ops(ctx, ins, 3)
    d, a, b = ins.operands
    ftz = fm.has("ftz")
    if fm.type == "f64":
        if not fm.rnd or ftz or fm.has("approx") or fm.has("full"):
            ctx.error("div.f64 needs .rn/.rz/.rm/.rp (and no .ftz/.approx/.full)", ins)
        ctx.set(d, div64(ctx, ctx.value(a, "f64"), ctx.value(b, "f64"), fm.rnd))
        return
    if fm.type != "f32":
        ctx.unsupported(ins, f"div.{fm.type}")
    va, vb = _freg(ctx, a), _freg(ctx, b)
    if fm.has("approx"):
        rcp = ctx.emit1(MufuOp, [vb], mods="rcp.ftz" if ftz else "rcp")
        ctx.set(d, ctx.emit1(FMulOp, [va, rcp], mods="ftz" if ftz else ""))
        return
    if not fm.rnd and not fm.has("full"):
        ctx.error("div.f32 needs .approx, .full or a rounding modifier", ins)
    if fm.has("full") and not fm.rnd:
        ctx.set(d, _div_full(ctx, va, vb, ftz))
        return
    ctx.set(d, _div32(ctx, _to_f64(ctx, va, ftz), _to_f64(ctx, vb, ftz), fm.rnd, ftz))


_TWO_126 = 2.0 ** 126
_TWO_M126 = 2.0 ** -126
_TWO_24 = 2.0 ** 24


def _div_full(ctx: LoweringBuilder, a: SSAValue, b: SSAValue, ftz: bool) -> SSAValue:
    """``div.full.f32``: ``a * rcp(b)`` with both operands scaled into the
    range where MUFU.RCP is accurate -- by 1/4 when ``|b| > 2^126`` (its
    reciprocal would be subnormal), by 2^24 when ``b`` is subnormal (not
    under ``.ftz``, which flushes it) -- the sequence ptxas 13.0 emits
    (``FSETP.GT |b|, 8.5e37``; ``FSETP.GEU |b|, 1.18e-38``; ``FSEL`` of the
    quarter; ``@!P FMUL x, 16777216``; ``MUFU.RCP``; ``FMUL``): within the
    2 ulp PTX allows, six to ten instructions where the correctly rounded
    path takes sixteen."""
    fz = "ftz" if ftz else ""
    big = fsetp(ctx, "gt", b, _TWO_126, smods={"a": "abs"}, ftz=ftz)
    b1 = sel(ctx, ctx.emit1(FMulOp, [b, 0.25], mods=fz), b, big)
    a1 = sel(ctx, ctx.emit1(FMulOp, [a, 0.25], mods=fz), a, big)
    if not ftz:
        normal = fsetp(ctx, "geu", b, _TWO_M126, smods={"a": "abs"})
        b1, a1 = (ctx.add(FMulOp.make([x, _TWO_24], guard=normal, guard_neg=True,
                                      prior=[x])).results[0] for x in (b1, a1))
    # the hardware's MUFU flushes a subnormal input (hence the 2^24 scaling);
    # ori's MUFU.RCP models it only with .ftz
    rcp = ctx.emit1(MufuOp, [b1], mods="rcp.ftz" if ftz else "rcp")
    return ctx.emit1(FMulOp, [rcp, a1], mods=fz)


@lowers("rcp")
def lower_rcp(ctx: LoweringBuilder, ins: ast.Instruction) -> None:
    fm = FMods(ctx, ins, frozenset({"rnd", "ftz", "approx"}))
    _ops(ctx, ins, 2)
    d, a = ins.operands
    ftz = fm.has("ftz")
    if fm.type == "f64":
        x = ctx.value(a, "f64")
        if fm.has("approx"):
            # rcp.approx.ftz.f64: the seed refined twice (about 50 bits).
            hi = ctx.parts(x)[1]
            y = ctx.pack([ctx.mov_imm(0), ctx.emit1(MufuOp, [hi], mods="rcp64h")])
            y = _newton_recip(ctx, x, y, 2)
            fin = dsetp(ctx, "num", y, y)
            seed = ctx.pack([ctx.mov_imm(0), ctx.emit1(MufuOp, [hi], mods="rcp64h")])
            ctx.set(d, sel64(ctx, y, seed, fin))
            return
        if not fm.rnd:
            ctx.error("rcp.f64 needs .rn/.rz/.rm/.rp or .approx.ftz", ins)
        ctx.set(d, div64(ctx, dconst(ctx, 1.0), x, fm.rnd))
        return
    if fm.type != "f32":
        ctx.unsupported(ins, f"rcp.{fm.type}")
    v = _freg(ctx, a)
    if fm.has("approx"):
        ctx.set(d, ctx.emit1(MufuOp, [v], mods="rcp.ftz" if ftz else "rcp"))
        return
    if not fm.rnd:
        ctx.error("rcp.f32 needs .approx or a rounding modifier", ins)
    ctx.set(d, _div32(ctx, dconst(ctx, 1.0), _to_f64(ctx, v, ftz), fm.rnd, ftz))


@lowers("sqrt")
def lower_sqrt(ctx: LoweringBuilder, ins: ast.Instruction) -> None:
    fm = FMods(ctx, ins, frozenset({"rnd", "ftz", "approx"}))
    _ops(ctx, ins, 2)
    d, a = ins.operands
    ftz = fm.has("ftz")
    if fm.type == "f64":
        if not fm.rnd or ftz:
            ctx.error("sqrt.f64 needs .rn/.rz/.rm/.rp", ins)
        ctx.set(d, sqrt64(ctx, ctx.value(a, "f64"), fm.rnd))
        return
    if fm.type != "f32":
        ctx.unsupported(ins, f"sqrt.{fm.type}")
    v = _freg(ctx, a)
    if fm.has("approx"):
        ctx.set(d, ctx.emit1(MufuOp, [v], mods="sqrt.ftz" if ftz else "sqrt"))
        return
    if not fm.rnd:
        ctx.error("sqrt.f32 needs .approx or a rounding modifier", ins)
    ctx.set(d, _sqrt32(ctx, v, fm.rnd, ftz))
