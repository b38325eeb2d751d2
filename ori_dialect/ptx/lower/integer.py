"""Integer and predicate arithmetic: PTX ISA 9.7.1 (integer), 9.7.8 (bit
manipulation, logic), 9.7.7 (comparison and selection), 9.7.2 (extended
precision ``add.cc``/``addc``...).

How the forms map to Ori (the way ptxas lowers them):

* 32-bit ops are one SASS-like op each (IADD3, IMAD, LOP3, SHL/SHR/SHF,
  IMNMX, IABS, POPC, FLO, BREV, BMSK, PRMT, SEL, ISETP).
* 8/16-bit values live zero-extended in 32-bit registers (see
  :mod:`.types`): an op whose low bits depend on upper input bits (compare,
  right shift, min/max, division, ``mul.hi``) zero- or sign-extends its
  inputs first; every narrow result is masked back before it is written.
* 64-bit values are split into 32-bit halves: adds are IADD3 + IADD3.X with
  carry predicates, multiplies IMAD.WIDE.U32 chains, compares ISETP + ISETP.EX,
  shifts SHF/SHL/SHR pairs.
* ``add.cc``/``addc``/``sub.cc``/``subc``/``mad.cc``/``madc``: the carry flag
  ``CC.CF`` is a hidden per-function predicate variable (``%cc``) in the SSA
  builder.  As on the hardware (and in ptxas's IADD3 chains) a subtraction
  ``a - b`` is ``a + ~b + 1`` and its carry-out is "no borrow"; ``subc`` is
  ``a + ~b + CF``.  A ``sub.cc``/``subc`` chain therefore subtracts multi-word
  numbers exactly (PTX writes ``subc`` as ``a - (b + CF)`` with ``CF`` read as
  a borrow; mixing ``add.cc`` with ``subc`` follows the hardware convention).
* Division and remainder are exact.  32-bit: the float-reciprocal sequence
  ptxas emits (I2F.U32.RP, MUFU.RCP, +2^32 scaling minus 2 ulp, F2I, one
  integer Newton step, IMAD.HI quotient, two corrections) -- exact whenever
  the reciprocal is within 1 ulp; 8/16-bit operands are extended and use it.
  64-bit: calls to helper device functions (``__ori_udivmod64``) built once
  per module (see :mod:`.runtime`).
  **Division by zero** gives what NVIDIA GPUs give for ptxas's code: every
  result bit set, for ``div`` *and* ``rem``, signed and unsigned, at every
  width (``x / 0 = x % 0 = 0xffffffff``; ptxas ends both sequences with
  ``@!P LOP3.LUT R, RZ, b, RZ, 0x33`` = ``~b``).  The PTX ISA leaves the
  value unspecified.  ``INT_MIN / -1 = INT_MIN`` and ``INT_MIN % -1 = 0``
  (wrap-around, what the sequence computes).
* Shift amounts >= the width clamp (PTX): SHL/SHR/SHF already clamp.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import TYPE_CHECKING

from xdsl.ir import SSAValue

from ori_dialect.ir.registers import PredType, R32Type, R64Type
from ori_dialect.ops.control import CallOp
from ori_dialect.ops.convert import F2IOp, I2FOp
from ori_dialect.ops.floating import MufuOp
from ori_dialect.ops.integer import (
    BmskOp,
    BrevOp,
    FloOp,
    IAbsOp,
    IAdd3Op,
    IMadOp,
    IMnMxOp,
    Lop3Op,
    PopcOp,
    PrmtOp,
    SelOp,
    ShfOp,
    ShlOp,
    ShrOp,
)
from ori_dialect.ops.predicate import DSetPOp, FSetPOp, ISetPOp, PLop3Op
from ori_dialect.ptx import ast
from ori_dialect.ptx.lower.builder import Var
from ori_dialect.ptx.lower.data import mask, sign_extend
from ori_dialect.ptx.lower.handlers import LOWERINGS, Lowering
from ori_dialect.ptx.lower.runtime import helper
from ori_dialect.ptx.lower.types import is_float, is_signed, type_bits

if TYPE_CHECKING:
    from ori_dialect.ptx.lower.builder import LoweringBuilder

V = SSAValue
Src = SSAValue | int | R32Type  # a register, an immediate or RZ

RZ = R32Type.fixed()
PT = PredType.fixed()

INT_TYPES = ("b16", "u16", "s16", "b32", "u32", "s32", "b64", "u64", "s64")
_ALL_TYPES = frozenset([*INT_TYPES, "b8", "u8", "s8", "f16", "bf16", "f32", "f64", "pred",
                        "f16x2", "bf16x2"])


def lut(f: Callable[[int, int, int], int]) -> int:
    """The LOP3/PLOP3 truth table of ``f(a, b, c)`` (bitwise)."""
    return f(0xF0, 0xCC, 0xAA) & 0xFF


def r32() -> R32Type:
    return R32Type.unallocated()


def r64() -> R64Type:
    return R64Type.unallocated()


# ----------------------------------------------------------------------------
# registration: integer forms of opcodes that other handler modules (floating
# point) may also register are chained by type.


def int_lowers(*opcodes: str) -> Callable[[Lowering], Lowering]:
    """Register an integer lowering; when another module already registered the
    opcode (the float forms), dispatch on the instruction's type modifiers."""

    def register(fn: Lowering) -> Lowering:
        for op in opcodes:
            prev = LOWERINGS.get(op)
            if prev is None:
                LOWERINGS[op] = fn
            else:
                LOWERINGS[op] = _chain(fn, prev)
        return fn

    return register


def _chain(mine: Lowering, other: Lowering) -> Lowering:
    # The choice depends on the opcode and modifiers only: remembered per
    # modifier tuple (a handful of spellings recur thousands of times).
    picks: dict[tuple[str, tuple[str, ...]], Lowering] = {}

    def pick(ins: ast.Instruction) -> Lowering:
        types = [m for m in ins.modifiers if m in _ALL_TYPES]
        if ins.opcode in ("selp", "set", "slct") or not types or not is_float(types[-1]):
            return mine
        return other

    def both(ctx: LoweringBuilder, ins: ast.Instruction) -> None:
        mods = ins.modifiers
        if type(mods) is not tuple:  # hand-built AST nodes may carry lists
            pick(ins)(ctx, ins)
            return
        key = (ins.opcode, mods)
        fn = picks.get(key)
        if fn is None:
            fn = picks[key] = pick(ins)
        fn(ctx, ins)

    return both


# ----------------------------------------------------------------------------
# operands


def itype(ctx: LoweringBuilder, ins: ast.Instruction, allowed: tuple[str, ...] = INT_TYPES) -> str:
    mods = ins.modifiers
    key = (mods, allowed)
    t = _ITYPES.get(key) if type(mods) is tuple else None
    if t is None:
        t = _itype(ctx, ins, allowed)
        if type(mods) is tuple:
            _ITYPES[key] = t  # only successes: errors are raised every time
    return t


# itype() results by (modifiers, allowed types): a few spellings recur thousands of times.
_ITYPES: dict[tuple[tuple[str, ...], tuple[str, ...]], str] = {}


def _itype(ctx: LoweringBuilder, ins: ast.Instruction, allowed: tuple[str, ...]) -> str:
    types = [m for m in ins.modifiers if m in _ALL_TYPES]
    if not types:
        ctx.error(f"'{ins.opcode}' needs a type", ins)
    t = types[-1]
    if t not in allowed:
        ctx.unsupported(ins, f"type .{t} (expected one of {', '.join('.' + a for a in allowed)})")
    return t


def nops(ctx: LoweringBuilder, ins: ast.Instruction, n: int) -> list[ast.Operand]:
    if len(ins.operands) != n:
        ctx.error(f"'{ins.opcode}' takes {n} operands, got {len(ins.operands)}", ins)
    return list(ins.operands)


def _canonical_reg(ctx: LoweringBuilder, op: ast.Operand, bits: int) -> bool:
    """True when register ``op`` is known zero-extended from ``bits`` (it is
    declared with a type of at most that many bits)."""
    if not isinstance(op, ast.Register) or ctx.is_special(op.name):
        return False
    var = ctx.lookup(op.name, op)
    return var.type != "pred" and type_bits(var.type) <= bits


def val(ctx: LoweringBuilder, op: ast.Operand, t: str, ext: str = "none",
        imm: bool = False) -> Src:
    """Operand ``op`` of type ``t``.  For narrow types ``ext`` says what the
    upper 16+ bits must hold: ``none`` (anything), ``zero`` or ``sign``.
    With ``imm`` a 32-bit immediate stays a Python int."""
    bits = type_bits(t)
    if isinstance(op, ast.Immediate) and bits <= 32:
        v = ctx.imm_bits(op, t)
        if ext == "sign" and bits < 32 and (v >> (bits - 1)) & 1:
            v |= 0xFFFFFFFF ^ ((1 << bits) - 1)
        return v if imm else ctx.mov_imm(v)
    v = ctx.value(op, t)
    if bits < 32:
        if ext == "zero" and not _canonical_reg(ctx, op, bits):
            v = mask(ctx, v, bits)
        elif ext == "sign":
            v = sign_extend(ctx, v, bits)
    return v


def reg(ctx: LoweringBuilder, v: Src) -> V:
    return ctx.mov_imm(v) if isinstance(v, int) else v


def out(ctx: LoweringBuilder, d: ast.Operand, v: V, bits: int) -> None:
    if bits < 32:
        v = mask(ctx, v, bits)
    ctx.set(d, v)


def halves(ctx: LoweringBuilder, v: V) -> tuple[V, V]:
    lo, hi = ctx.parts(v)
    return lo, hi


# ----------------------------------------------------------------------------
# 32-bit building blocks


def add32(ctx: LoweringBuilder, a: Src, b: Src, c: Src = RZ, smods: dict[str, str] | None = None) -> V:
    a, b = _imm_to_b(ctx, a, b)
    return ctx.emit1(IAdd3Op, [a, b, reg(ctx, c)], smods=smods)


def sub32(ctx: LoweringBuilder, a: Src, b: Src) -> V:
    return ctx.emit1(IAdd3Op, [reg(ctx, a), reg(ctx, b), RZ], smods={"b": "neg"})


def _imm_to_b(ctx: LoweringBuilder, a: Src, b: Src) -> tuple[V, Src]:
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
    a, b = _imm_to_b(ctx, a, b)
    wide = "wide" in mods
    return ctx.emit1(IMadOp, [a, b, c], r64() if wide else r32(), mods=mods)


def udivmod32(ctx: LoweringBuilder, a: V, b: V) -> tuple[V, V]:
    """Exact unsigned 32-bit ``(a / b, a % b)`` by ptxas's reciprocal sequence;
    ``b == 0`` gives ``(0xffffffff, 0xffffffff)``."""
    bf = ctx.emit1(I2FOp, [b], r32(), mods="f32.u32.rp")
    rc = ctx.emit1(MufuOp, [bf], r32(), mods="rcp")
    # +0x0ffffffe on the float's bits: times 2^32, minus 2 ulp (an underestimate)
    sc = ctx.emit1(IAdd3Op, [rc, 0x0FFFFFFE, RZ])
    x0 = ctx.emit1(F2IOp, [sc], r32(), mods="u32.f32.rz.ftz")
    nb = sub32(ctx, RZ, b)
    e = imad(ctx, x0, nb, RZ)  # -x0*b mod 2^32: the error of x0 scaled by 2^32
    x1 = imad(ctx, x0, e, x0, "hi.u32")
    q = imad(ctx, x1, a, RZ, "hi.u32")
    r = imad(ctx, q, nb, a)  # a - q*b
    for _ in range(2):  # q is low by at most 2
        ge = isetp(ctx, "ge", "u32", r, b)
        r = sel(ctx, sub32(ctx, r, b), r, ge)
        q = sel(ctx, add32(ctx, q, 1), q, ge)
    nz = isetp(ctx, "ne", "u32", b, 0)
    q = sel(ctx, q, 0xFFFFFFFF, nz)
    r = sel(ctx, r, 0xFFFFFFFF, nz)
    return q, r


def sdivmod32(ctx: LoweringBuilder, a: V, b: V) -> tuple[V, V]:
    """Signed 32-bit truncating division; ``b == 0`` gives all ones for both."""
    aa = ctx.emit1(IAbsOp, [a])
    ab = ctx.emit1(IAbsOp, [b])
    q, r = udivmod32(ctx, aa, ab)
    qneg = isetp(ctx, "lt", "s32", lop(ctx, a, b, RZ, lut(lambda x, y, z: x ^ y)), 0)
    q = sel(ctx, sub32(ctx, RZ, q), q, qneg)
    aneg = isetp(ctx, "lt", "s32", a, 0)
    r = sel(ctx, sub32(ctx, RZ, r), r, aneg)
    nz = isetp(ctx, "ne", "u32", b, 0)
    return sel(ctx, q, 0xFFFFFFFF, nz), sel(ctx, r, 0xFFFFFFFF, nz)


# ----------------------------------------------------------------------------
# 64-bit building blocks (halves)


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


def udivmod64(ctx: LoweringBuilder, a: V, b: V) -> tuple[V, V]:
    name = helper(ctx, "__ori_udivmod64")
    op = CallOp(name, [a, b], [r64(), r64()])
    ctx.add(op)
    q, r = op.results
    # x / 0 and x % 0: all ones (the helper's loop leaves r = a and q = the
    # low clz-skipped ones)
    bl, bh = halves(ctx, b)
    nz = isetp(ctx, "ne", "u32", lop(ctx, bl, bh, RZ, lut(lambda x, y, z: x | y)), 0)
    ones = c64(ctx, -1)
    return sel64(ctx, q, ones, nz), sel64(ctx, r, ones, nz)


def sdivmod64(ctx: LoweringBuilder, a: V, b: V) -> tuple[V, V]:
    an = isetp(ctx, "lt", "s32", halves(ctx, a)[1], 0)
    bn = isetp(ctx, "lt", "s32", halves(ctx, b)[1], 0)
    aa = sel64(ctx, neg64(ctx, a), a, an)
    ab = sel64(ctx, neg64(ctx, b), b, bn)
    q, r = udivmod64(ctx, aa, ab)
    qn = plop(ctx, an, bn, PT, lut(lambda x, y, z: x ^ y))
    bl, bh = halves(ctx, b)
    nz = isetp(ctx, "ne", "u32", lop(ctx, bl, bh, RZ, lut(lambda x, y, z: x | y)), 0)
    q = sel64(ctx, neg64(ctx, q), q, qn)
    r = sel64(ctx, neg64(ctx, r), r, an)
    ones = c64(ctx, -1)
    return sel64(ctx, q, ones, nz), sel64(ctx, r, ones, nz)


# ----------------------------------------------------------------------------
# carry flag


def _cc_var(ctx: LoweringBuilder) -> Var:
    v = ctx.carry
    if v is None:
        v = ctx.carry = Var("%cc", "pred")
    return v


def read_cc(ctx: LoweringBuilder) -> V:
    return ctx.read_var(_cc_var(ctx))


def write_cc(ctx: LoweringBuilder, p: V) -> None:
    var = _cc_var(ctx)
    if ctx.guard is not None:
        g, neg = ctx.guard
        op = PLop3Op.make([p, PT, PT, 0xF0], guard=g, guard_neg=neg, prior=[ctx.read_var(var)])
        ctx.add(op)
        p = op.results[0]
    ctx.write_var(var, p)


# ----------------------------------------------------------------------------
# add / sub


def _flags(ins: ast.Instruction) -> set[str]:
    return set(ins.modifiers)


@int_lowers("add", "sub")
def lower_add_sub(ctx: LoweringBuilder, ins: ast.Instruction) -> None:
    t = itype(ctx, ins)
    d, a, b = nops(ctx, ins, 3)
    bits = type_bits(t)
    fl = _flags(ins)
    sub = ins.opcode == "sub"
    cc = "cc" in fl
    if "sat" in fl:
        if t != "s32" or cc:
            ctx.unsupported(ins, ".sat is defined for .s32 only")
        x, y = reg(ctx, val(ctx, a, t)), reg(ctx, val(ctx, b, t))
        ctx.set(d, sat_add32(ctx, x, y, sub))
        return
    if cc:
        if bits < 32:
            ctx.unsupported(ins, f"{ins.opcode}.cc takes .u32/.s32/.u64/.s64")
        _carry_add(ctx, ins, t, sub, cin=False, cout=True)
        return
    if bits == 64:
        x, y = ctx.value(a, t), ctx.value(b, t)
        ctx.set(d, sub64(ctx, x, y) if sub else add64(ctx, x, y))
        return
    x, y = val(ctx, a, t, imm=True), val(ctx, b, t, imm=True)
    if sub:
        if not isinstance(y, SSAValue):
            r = add32(ctx, reg(ctx, x), (-y) & 0xFFFFFFFF)
        else:
            r = sub32(ctx, x, y)
    else:
        r = add32(ctx, x, y)
    out(ctx, d, r, bits)


def sat_add32(ctx: LoweringBuilder, x: V, y: V, sub: bool) -> V:
    s = sub32(ctx, x, y) if sub else add32(ctx, x, y)
    if sub:  # overflow iff x, y differ in sign and s differs from x
        ov = lop(ctx, s, x, y, lut(lambda s_, a, b: (a ^ b) & (a ^ s_)))
    else:  # overflow iff x, y agree in sign and s differs
        ov = lop(ctx, s, x, y, lut(lambda s_, a, b: (s_ ^ a) & (s_ ^ b)))
    p = isetp(ctx, "lt", "s32", ov, 0)
    sat = lop(ctx, ctx.emit1(ShrOp, [x, 31], mods="s32"), 0x7FFFFFFF, RZ,
              lut(lambda a, b, c: a ^ b))
    return sel(ctx, sat, s, p)


@int_lowers("addc", "subc")
def lower_addc(ctx: LoweringBuilder, ins: ast.Instruction) -> None:
    t = itype(ctx, ins, ("u32", "s32", "u64", "s64"))
    _carry_add(ctx, ins, t, ins.opcode == "subc", cin=True, cout="cc" in _flags(ins))


def _carry_add(ctx: LoweringBuilder, ins: ast.Instruction, t: str, sub: bool, cin: bool,
               cout: bool) -> None:
    d, a, b = nops(ctx, ins, 3)
    x, y = ctx.value(a, t), ctx.value(b, t)
    parts_x = [x] if type_bits(t) == 32 else list(halves(ctx, x))
    parts_y = [y] if type_bits(t) == 32 else list(halves(ctx, y))
    c: V | None = read_cc(ctx) if cin else None
    res = []
    for i, (px, py) in enumerate(zip(parts_x, parts_y)):
        srcs: list[Src] = [px, py, RZ]
        if c is not None:
            srcs.append(c)
        smods = {"b": ("not" if c is not None else "neg")} if sub else None
        last = i == len(parts_x) - 1
        types = [r32(), PredType.unallocated()] if (cout or not last) else [r32()]
        op = ctx.emit(IAdd3Op, srcs, types, mods="x" if c is not None else "", smods=smods)
        res.append(op.results[0])
        c = op.results[1] if len(op.results) > 1 else None
    if cout:
        assert c is not None
        write_cc(ctx, c)
    ctx.set(d, res[0] if len(res) == 1 else ctx.pack(res))


# ----------------------------------------------------------------------------
# multiply


@int_lowers("mul", "mad")
def lower_mul_mad(ctx: LoweringBuilder, ins: ast.Instruction) -> None:
    t = itype(ctx, ins)
    mad = ins.opcode == "mad"
    ops = nops(ctx, ins, 4 if mad else 3)
    d, a, b = ops[:3]
    fl = _flags(ins)
    mode = "lo" if "lo" in fl else "hi" if "hi" in fl else "wide" if "wide" in fl else None
    if mode is None:
        ctx.error(f"{ins.opcode} needs .lo, .hi or .wide for integer types", ins)
    bits = type_bits(t)
    signed = is_signed(t)
    cc = "cc" in fl
    if mad and cc:
        if mode == "wide" or bits != 32:
            ctx.unsupported(ins, "mad.cc takes .lo/.hi with .u32/.s32")
        _mad_carry(ctx, ins, t, mode, cin=False)
        return
    if "sat" in fl:
        if not (mad and mode == "hi" and t == "s32"):
            ctx.unsupported(ins, ".sat is defined for mad.hi.s32 only")
        x, y = reg(ctx, val(ctx, a, t)), val(ctx, b, t, imm=True)
        h = imad(ctx, x, y, RZ, "hi.s32")
        ctx.set(d, sat_add32(ctx, h, reg(ctx, val(ctx, ops[3], t)), False))
        return
    if bits == 64:
        if mode == "wide":
            ctx.unsupported(ins, ".wide takes 16/32-bit types")
        x, y = ctx.value(a, t), ctx.value(b, t)
        cv = ctx.value(ops[3], t) if mad else None
        if mode == "lo":
            r = mullo64(ctx, x, y, cv)
        else:
            r = mulhi64(ctx, x, y, signed)
            if cv is not None:
                r = add64(ctx, r, cv)
        ctx.set(d, r)
        return
    sign = "s32" if signed else "u32"
    if bits == 32:
        x, y = val(ctx, a, t, imm=True), val(ctx, b, t, imm=True)
        if mode == "wide":
            cv = ctx.value(ops[3], "s64" if signed else "u64") if mad else 0
            ctx.set(d, imad(ctx, x, y, cv, f"wide.{sign}"))
            return
        cv = val(ctx, ops[3], t, imm=True) if mad else RZ
        ctx.set(d, imad(ctx, x, y, cv, f"{mode}.{sign}"))
        return
    # 16-bit: exact 32-bit products of the extended operands
    ext = "sign" if signed else "zero"
    x, y = val(ctx, a, t, ext, imm=True), val(ctx, b, t, ext, imm=True)
    if mode == "wide":
        cv = val(ctx, ops[3], "s32" if signed else "u32", imm=True) if mad else RZ
        ctx.set(d, imad(ctx, x, y, cv))
        return
    p = imad(ctx, x, y, RZ)
    if mode == "hi":
        p = ctx.emit1(ShrOp, [p, 16], mods=sign)
    if mad:
        p = add32(ctx, p, val(ctx, ops[3], t, imm=True))
    out(ctx, d, p, 16)


def _mad_carry(ctx: LoweringBuilder, ins: ast.Instruction, t: str, mode: str, cin: bool) -> None:
    d, a, b, c = nops(ctx, ins, 4)
    sign = "s32" if is_signed(t) else "u32"
    srcs: list[Src] = [reg(ctx, val(ctx, a, t)), val(ctx, b, t, imm=True), val(ctx, c, t, imm=True)]
    if cin:
        srcs.append(read_cc(ctx))
    cout = "cc" in _flags(ins)
    types = [r32(), PredType.unallocated()] if cout else [r32()]
    op = ctx.emit(IMadOp, srcs, types, mods=f"{mode}.{sign}" + (".x" if cin else ""))
    if cout:
        write_cc(ctx, op.results[1])
    ctx.set(d, op.results[0])


@int_lowers("madc")
def lower_madc(ctx: LoweringBuilder, ins: ast.Instruction) -> None:
    t = itype(ctx, ins, ("u32", "s32"))
    fl = _flags(ins)
    mode = "hi" if "hi" in fl else "lo"
    _mad_carry(ctx, ins, t, mode, cin=True)


@int_lowers("mul24", "mad24")
def lower_mul24(ctx: LoweringBuilder, ins: ast.Instruction) -> None:
    t = itype(ctx, ins, ("u32", "s32"))
    mad = ins.opcode == "mad24"
    ops = nops(ctx, ins, 4 if mad else 3)
    fl = _flags(ins)
    if "sat" in fl:
        ctx.unsupported(ins, "mad24.hi.sat")
    hi = "hi" in fl
    signed = is_signed(t)

    def ext24(op: ast.Operand) -> V:
        v = reg(ctx, val(ctx, op, t))
        if signed:
            return ctx.emit1(ShrOp, [ctx.emit1(ShlOp, [v, 8]), 8], mods="s32")
        return lop(ctx, v, 0xFFFFFF, RZ, lut(lambda a, b, c: a & b))

    x, y = ext24(ops[1]), ext24(ops[2])
    sign = "s32" if signed else "u32"
    if hi:
        p = imad(ctx, x, y, 0, f"wide.{sign}")
        lo, h = halves(ctx, p)
        r = ctx.emit1(ShfOp, [lo, 16, h], mods="r.u32")  # bits 47..16
    else:
        r = imad(ctx, x, y, RZ)
    if mad:
        r = add32(ctx, r, val(ctx, ops[3], t, imm=True))
    ctx.set(ops[0], r)


# ----------------------------------------------------------------------------
# division


@int_lowers("div", "rem")
def lower_div_rem(ctx: LoweringBuilder, ins: ast.Instruction) -> None:
    t = itype(ctx, ins)
    d, a, b = nops(ctx, ins, 3)
    bits = type_bits(t)
    signed = is_signed(t)
    want_q = ins.opcode == "div"
    if bits == 64:
        x, y = ctx.value(a, t), ctx.value(b, t)
        q, r = sdivmod64(ctx, x, y) if signed else udivmod64(ctx, x, y)
        ctx.set(d, q if want_q else r)
        return
    ext = "sign" if signed else "zero"
    x, y = reg(ctx, val(ctx, a, t, ext)), reg(ctx, val(ctx, b, t, ext))
    q, r = sdivmod32(ctx, x, y) if signed else udivmod32(ctx, x, y)
    out(ctx, d, q if want_q else r, bits)


# ----------------------------------------------------------------------------
# min / max / abs / neg


@int_lowers("min", "max")
def lower_min_max(ctx: LoweringBuilder, ins: ast.Instruction) -> None:
    t = itype(ctx, ins)
    d, a, b = nops(ctx, ins, 3)
    bits = type_bits(t)
    signed = is_signed(t)
    fl = _flags(ins)
    relu = "relu" in fl
    if relu and t not in ("s16", "s32"):
        ctx.unsupported(ins, ".relu takes .s16/.s32")
    is_min = ins.opcode == "min"
    if bits == 64:
        x, y = ctx.value(a, t), ctx.value(b, t)
        (p,) = setp64(ctx, "lt", "s32" if signed else "u32", x, y)
        ctx.set(d, sel64(ctx, x, y, p, pneg=not is_min))
        return
    ext = "sign" if signed else "zero"
    x, y = val(ctx, a, t, ext, imm=True), val(ctx, b, t, ext, imm=True)
    x, y = _imm_to_b(ctx, x, y)
    r = ctx.emit1(IMnMxOp, [x, y, PT], mods="s32" if signed else "u32",
                  smods=None if is_min else {"sel": "not"})
    if relu:
        r = smax0(ctx, r)
    out(ctx, d, r, bits)


@int_lowers("abs", "neg")
def lower_abs_neg(ctx: LoweringBuilder, ins: ast.Instruction) -> None:
    t = itype(ctx, ins, ("s16", "s32", "s64"))
    d, a = nops(ctx, ins, 2)
    bits = type_bits(t)
    if bits == 64:
        x = ctx.value(a, t)
        if ins.opcode == "neg":
            ctx.set(d, neg64(ctx, x))
            return
        p = isetp(ctx, "lt", "s32", halves(ctx, x)[1], 0)
        ctx.set(d, sel64(ctx, neg64(ctx, x), x, p))
        return
    if ins.opcode == "neg":
        out(ctx, d, sub32(ctx, RZ, reg(ctx, val(ctx, a, t))), bits)
        return
    out(ctx, d, ctx.emit1(IAbsOp, [reg(ctx, val(ctx, a, t, "sign"))]), bits)


# ----------------------------------------------------------------------------
# logic


def _pred_src(ctx: LoweringBuilder, op: ast.Operand) -> tuple[V, bool]:
    if isinstance(op, ast.Register) and op.negated:
        return ctx.read_var(ctx.lookup(op.name, op)), True
    if isinstance(op, ast.Immediate):
        return PT, not bool(int(op.value))
    return ctx.value(op, "pred"), False


_LOGIC = {
    "and": lambda a, b: a & b,
    "or": lambda a, b: a | b,
    "xor": lambda a, b: a ^ b,
}


@int_lowers("and", "or", "xor", "not", "cnot")
def lower_logic(ctx: LoweringBuilder, ins: ast.Instruction) -> None:
    t = itype(ctx, ins, ("pred", "b16", "b32", "b64"))
    unary = ins.opcode in ("not", "cnot")
    ops = nops(ctx, ins, 2 if unary else 3)
    d = ops[0]
    if t == "pred":
        if ins.opcode == "cnot":
            ctx.unsupported(ins, "cnot takes .b16/.b32/.b64")
        srcs = [_pred_src(ctx, o) for o in ops[1:]]
        fa = (lambda a, b, c: ~a) if unary else _LOGIC[ins.opcode]
        inv = [s[1] for s in srcs]

        def f(a: int, b: int, c: int) -> int:
            a = ~a if inv[0] else a
            if unary:
                return fa(a, b, c)  # type: ignore[call-arg]
            b = ~b if inv[1] else b
            return _LOGIC[ins.opcode](a, b)

        vals = [s[0] for s in srcs] + [PT] * (3 - len(srcs))
        ctx.set(d, plop(ctx, vals[0], vals[1], vals[2], lut(f)))
        return
    bits = type_bits(t)
    if ins.opcode == "cnot":
        x = ctx.value(ops[1], t)
        if bits == 64:
            lo, hi = halves(ctx, x)
            x = lop(ctx, lo, hi, RZ, lut(lambda a, b, c: a | b))
        elif bits < 32:
            x = reg(ctx, val(ctx, ops[1], t, "zero"))
        z = isetp(ctx, "eq", "u32", x, 0)
        r = sel(ctx, 1, 0, z)
        ctx.set(d, ctx.pack([r, 0]) if bits == 64 else r)
        return
    if bits == 64:
        x = ctx.value(ops[1], t)
        if unary:
            ctx.set(d, lop64(ctx, x, x, None, lut(lambda a, b, c: ~a)))
            return
        y = ctx.value(ops[2], t)
        ctx.set(d, lop64(ctx, x, y, None, lut(lambda a, b, c: _LOGIC[ins.opcode](a, b))))
        return
    x = val(ctx, ops[1], t, imm=True)
    if unary:
        out(ctx, d, lop(ctx, x, RZ, RZ, lut(lambda a, b, c: ~a)), bits)
        return
    y = val(ctx, ops[2], t, imm=True)
    x, y = _imm_to_b(ctx, x, y)
    out(ctx, d, lop(ctx, x, y, RZ, lut(lambda a, b, c: _LOGIC[ins.opcode](a, b))), bits)


@int_lowers("lop3")
def lower_lop3(ctx: LoweringBuilder, ins: ast.Instruction) -> None:
    itype(ctx, ins, ("b32",))
    fl = _flags(ins) - {"b32"}
    boolop = next(iter(fl & {"and", "or"}), None)
    if fl - {"and", "or"}:
        ctx.unsupported(ins, f"modifier(s) {sorted(fl - {'and', 'or'})}")
    ops = nops(ctx, ins, 6 if boolop else 5)
    d, a, b, c, tab = ops[:5]
    if not isinstance(tab, ast.Immediate):
        ctx.error("lop3's truth table must be an immediate", tab)
    table = int(tab.value) & 0xFF
    x = reg(ctx, val(ctx, a, "b32"))
    y = val(ctx, b, "b32", imm=True)
    z = reg(ctx, val(ctx, c, "b32"))
    if boolop is None:
        if not isinstance(d, ast.Register) or d.pair is not None:
            ctx.error("lop3 without .and/.or has no predicate result", d)
        ctx.set(d, lop(ctx, x, y, z, table))
        return
    if not isinstance(d, ast.Register) or d.pair is None:
        ctx.error(f"lop3.{boolop} needs a destination pair 'd|p'", d)
    r, p = ctx.emit(Lop3Op, [x, y, z, table], [r32(), PredType.unallocated()]).results
    q, qneg = _pred_src(ctx, ops[5])
    f = _LOGIC[boolop]
    pr = plop(ctx, p, q, PT, lut(lambda a_, b_, c_: f(a_, ~b_ if qneg else b_)))
    ctx.set(ast.Register(d.name), r)
    ctx.set(ast.Register(d.pair), pr)


# ----------------------------------------------------------------------------
# shifts and bit fields


@int_lowers("shl", "shr")
def lower_shift(ctx: LoweringBuilder, ins: ast.Instruction) -> None:
    t = itype(ctx, ins)
    d, a, b = nops(ctx, ins, 3)
    bits = type_bits(t)
    s = val(ctx, b, "u32", imm=True)
    if isinstance(s, int):
        s = min(s, 255)  # clamps anyway; keeps the immediate small
    signed = is_signed(t) and ins.opcode == "shr"
    if bits == 64:
        x = ctx.value(a, t)
        ctx.set(d, shl64(ctx, x, s) if ins.opcode == "shl" else shr64(ctx, x, s, signed))
        return
    if ins.opcode == "shl":
        out(ctx, d, ctx.emit1(ShlOp, [reg(ctx, val(ctx, a, t)), s]), bits)
        return
    x = reg(ctx, val(ctx, a, t, "sign" if signed else "zero"))
    out(ctx, d, ctx.emit1(ShrOp, [x, s], mods="s32" if signed else "u32"), bits)


@int_lowers("shf")
def lower_shf(ctx: LoweringBuilder, ins: ast.Instruction) -> None:
    itype(ctx, ins, ("b32",))
    fl = _flags(ins)
    if ("l" in fl) == ("r" in fl) or ("wrap" in fl) == ("clamp" in fl):
        ctx.error("shf needs .l or .r and .wrap or .clamp", ins)
    d, a, b, c = nops(ctx, ins, 4)
    lo, hi = reg(ctx, val(ctx, a, "b32")), reg(ctx, val(ctx, b, "b32"))
    s = val(ctx, c, "u32", imm=True)
    mods = ("l.hi" if "l" in fl else "r") + (".w" if "wrap" in fl else "")
    if isinstance(s, int) and "wrap" not in fl:
        s = min(s, 32)
    elif isinstance(s, int):
        s &= 31
    ctx.set(d, ctx.emit1(ShfOp, [lo, s, hi], mods=mods))


def _byte(ctx: LoweringBuilder, op: ast.Operand) -> Src:
    """``op & 0xff`` (bfe/bfi position and length operands)."""
    v = val(ctx, op, "u32", imm=True)
    if isinstance(v, int):
        return v & 0xFF
    return lop(ctx, v, 0xFF, RZ, lut(lambda a, b, c: a & b))


@int_lowers("bfe")
def lower_bfe(ctx: LoweringBuilder, ins: ast.Instruction) -> None:
    t = itype(ctx, ins, ("u32", "s32", "u64", "s64"))
    d, a, b, c = nops(ctx, ins, 4)
    pos, ln = _byte(ctx, b), _byte(ctx, c)
    signed = is_signed(t)
    if type_bits(t) == 64:
        x = ctx.value(a, t)
        sh = shr64(ctx, x, pos, signed)
        k = smax0(ctx, sub32(ctx, 64, ln) if isinstance(ln, SSAValue) else ctx.mov_imm(64 - ln))
        if signed:
            ctx.set(d, shr64(ctx, shl64(ctx, sh, k), k, True))
        else:
            m = shr64(ctx, c64(ctx, -1), k, False)
            ctx.set(d, lop64(ctx, sh, m, None, lut(lambda p, q, r: p & q)))
        return
    x = reg(ctx, val(ctx, a, t))
    if signed:
        sh = ctx.emit1(ShrOp, [x, pos], mods="s32")
        k = smax0(ctx, sub32(ctx, 32, ln) if isinstance(ln, SSAValue) else ctx.mov_imm(32 - ln))
        ctx.set(d, ctx.emit1(ShrOp, [ctx.emit1(ShlOp, [sh, k]), k], mods="s32"))
        return
    sh = ctx.emit1(ShrOp, [x, pos], mods="u32")
    m = ctx.emit1(BmskOp, [RZ, ln])
    ctx.set(d, lop(ctx, sh, m, RZ, lut(lambda p, q, r: p & q)))


@int_lowers("bfi")
def lower_bfi(ctx: LoweringBuilder, ins: ast.Instruction) -> None:
    t = itype(ctx, ins, ("b32", "b64"))
    d, f, b, c, e = nops(ctx, ins, 5)
    pos, ln = _byte(ctx, c), _byte(ctx, e)
    choose = lut(lambda m, x, y: (m & x) | (~m & y))
    if type_bits(t) == 64:
        fv, bv = ctx.value(f, t), ctx.value(b, t)
        k = smax0(ctx, sub32(ctx, 64, ln) if isinstance(ln, SSAValue) else ctx.mov_imm(64 - ln))
        m = shl64(ctx, shr64(ctx, c64(ctx, -1), k, False), pos)
        ctx.set(d, lop64(ctx, m, shl64(ctx, fv, pos), bv, choose))
        return
    fv, bv = reg(ctx, val(ctx, f, t)), reg(ctx, val(ctx, b, t))
    m = ctx.emit1(BmskOp, [reg(ctx, pos), ln])
    fs = ctx.emit1(ShlOp, [fv, pos])
    ctx.set(d, lop(ctx, m, fs, bv, choose))


@int_lowers("prmt")
def lower_prmt(ctx: LoweringBuilder, ins: ast.Instruction) -> None:
    itype(ctx, ins, ("b32",))
    modes = _flags(ins) & {"f4e", "b4e", "rc8", "ecl", "ecr", "rc16"}
    if len(_flags(ins) - {"b32"} - modes) or len(modes) > 1:
        ctx.unsupported(ins, "unknown prmt mode")
    d, a, b, c = nops(ctx, ins, 4)
    x, y = reg(ctx, val(ctx, a, "b32")), reg(ctx, val(ctx, b, "b32"))
    s = val(ctx, c, "b32", imm=True)
    ctx.set(d, ctx.emit1(PrmtOp, [x, s, y], mods=next(iter(modes), "")))


# ----------------------------------------------------------------------------
# bit counting


@int_lowers("popc", "clz", "brev", "bfind")
def lower_bits(ctx: LoweringBuilder, ins: ast.Instruction) -> None:
    op = ins.opcode
    if op == "bfind":
        t = itype(ctx, ins, ("u32", "s32", "u64", "s64"))
    else:
        t = itype(ctx, ins, ("b32", "b64"))
    d, a = nops(ctx, ins, 2)
    x = ctx.value(a, t)
    if type_bits(t) == 32:
        if op == "popc":
            r = ctx.emit1(PopcOp, [x])
        elif op == "brev":
            r = ctx.emit1(BrevOp, [x])
        elif op == "clz":
            r = clz32(ctx, x)
        else:
            sh = ".sh" if "shiftamt" in _flags(ins) else ""
            r = ctx.emit1(FloOp, [x], mods=("s32" if is_signed(t) else "u32") + sh)
        ctx.set(d, r)
        return
    lo, hi = halves(ctx, x)
    if op == "popc":
        ctx.set(d, add32(ctx, ctx.emit1(PopcOp, [lo]), ctx.emit1(PopcOp, [hi])))
    elif op == "brev":
        ctx.set(d, ctx.pack([ctx.emit1(BrevOp, [hi]), ctx.emit1(BrevOp, [lo])]))
    elif op == "clz":
        nz = isetp(ctx, "ne", "u32", hi, 0)
        ctx.set(d, sel(ctx, clz32(ctx, hi), add32(ctx, clz32(ctx, lo), 32), nz))
    else:
        if is_signed(t):
            s = ctx.emit1(ShrOp, [hi, 31], mods="s32")
            xor = lut(lambda p, q, r: p ^ q)
            lo, hi = lop(ctx, lo, s, RZ, xor), lop(ctx, hi, s, RZ, xor)
        flo_hi = ctx.emit1(FloOp, [hi], mods="u32")
        flo_lo = ctx.emit1(FloOp, [lo], mods="u32")  # 0xffffffff when lo == 0
        nz = isetp(ctx, "ne", "u32", hi, 0)
        pos = sel(ctx, add32(ctx, flo_hi, 32), flo_lo, nz)
        if "shiftamt" in _flags(ins):
            none = isetp(ctx, "eq", "u32", pos, 0xFFFFFFFF)
            pos = sel(ctx, pos, sub32(ctx, 63, pos), none)
        ctx.set(d, pos)


def clz32(ctx: LoweringBuilder, x: V) -> V:
    f = ctx.emit1(FloOp, [x], mods="u32.sh")  # 31 - msb, 0xffffffff for 0
    nz = isetp(ctx, "ne", "u32", x, 0)
    return sel(ctx, f, 32, nz)


# ----------------------------------------------------------------------------
# comparisons and selection

_CMP = {"eq": ("eq", None), "ne": ("ne", None), "lt": ("lt", None), "le": ("le", None),
        "gt": ("gt", None), "ge": ("ge", None), "lo": ("lt", "u32"), "ls": ("le", "u32"),
        "hi": ("gt", "u32"), "hs": ("ge", "u32")}
_FCMPS = frozenset(["eq", "ne", "lt", "le", "gt", "ge", "equ", "neu", "ltu", "leu", "gtu", "geu",
                    "num", "nan"])


def _compare(ctx: LoweringBuilder, ins: ast.Instruction, t: str, a: ast.Operand, b: ast.Operand,
             c: tuple[V, bool] | None, bop: str, two: bool) -> tuple[V, ...]:
    """``a CMP b`` combined with ``c`` (ISETP/FSETP/DSETP); two results when ``two``."""
    fl = _flags(ins)
    cmps = [m for m in ins.modifiers if m in _CMP or m in _FCMPS]
    if len(cmps) != 1:
        ctx.error(f"'{ins.opcode}' needs one comparison operator", ins)
    cmpname = cmps[0]
    cv, cneg = c if c is not None else (PT, False)
    nres = [PredType.unallocated()] * (2 if two else 1)
    smods = {"c": "not"} if cneg else None
    if is_float(t):
        if t not in ("f32", "f64"):
            ctx.unsupported(ins, f"comparisons of .{t}")
        ftz = ".ftz" if "ftz" in fl and t == "f32" else ""
        cls = FSetPOp if t == "f32" else DSetPOp
        x, y = ctx.value(a, t), ctx.src(b, t)
        op = ctx.emit(cls, [x, y, cv], nres, mods=f"{cmpname}.{bop}{ftz}", smods=smods)
        return tuple(op.results)
    if cmpname not in _CMP:
        ctx.error(f"comparison '.{cmpname}' is for floating-point types", ins)
    cmp, force = _CMP[cmpname]
    sign = force or ("s32" if is_signed(t) else "u32")
    bits = type_bits(t)
    if bits == 64:
        return setp64(ctx, cmp, sign, ctx.value(a, t), ctx.value(b, t), cv, bop, cneg, two)
    ext = "sign" if sign == "s32" else "zero"
    x, y = val(ctx, a, t, ext, imm=True), val(ctx, b, t, ext, imm=True)
    if not isinstance(x, SSAValue):
        x = ctx.mov_imm(x)
    op = ctx.emit(ISetPOp, [x, y, cv], nres, mods=f"{cmp}.{sign}.{bop}", smods=smods)
    return tuple(op.results)


@int_lowers("setp")
def lower_setp(ctx: LoweringBuilder, ins: ast.Instruction) -> None:
    t = itype(ctx, ins, (*INT_TYPES, "f32", "f64"))
    bop = next((m for m in ins.modifiers if m in ("and", "or", "xor")), None)
    ops = nops(ctx, ins, 4 if bop else 3)
    d = ops[0]
    if not isinstance(d, ast.Register):
        ctx.error("setp's destination must be a predicate register", d)
    c = _pred_src(ctx, ops[3]) if bop else None
    two = d.pair is not None
    res = _compare(ctx, ins, t, ops[1], ops[2], c, bop or "and", two)
    ctx.set(ast.Register(d.name), res[0])
    if two:
        ctx.set(ast.Register(d.pair), res[1])  # type: ignore[arg-type]


@int_lowers("set")
def lower_set(ctx: LoweringBuilder, ins: ast.Instruction) -> None:
    types = [m for m in ins.modifiers if m in _ALL_TYPES]
    if len(types) != 2:
        ctx.error("set needs a destination and a source type", ins)
    dt, st = types
    if dt not in ("u32", "s32", "f32"):
        ctx.unsupported(ins, f"destination type .{dt}")
    if st not in (*INT_TYPES, "f32", "f64"):
        ctx.unsupported(ins, f"source type .{st}")
    bop = next((m for m in ins.modifiers if m in ("and", "or", "xor")), None)
    ops = nops(ctx, ins, 4 if bop else 3)
    c = _pred_src(ctx, ops[3]) if bop else None
    (p,) = _compare(ctx, ins, st, ops[1], ops[2], c, bop or "and", False)
    ctx.set(ops[0], sel(ctx, 0x3F800000 if dt == "f32" else 0xFFFFFFFF, 0, p))


@int_lowers("selp")
def lower_selp(ctx: LoweringBuilder, ins: ast.Instruction) -> None:
    t = itype(ctx, ins, (*INT_TYPES, "f16", "bf16", "f32", "f64"))
    d, a, b, c = nops(ctx, ins, 4)
    p = ctx.value(c, "pred")
    _select(ctx, d, a, b, t, p, False)


def _select(ctx: LoweringBuilder, d: ast.Operand, a: ast.Operand, b: ast.Operand, t: str,
            p: V, pneg: bool) -> None:
    bits = type_bits(t)
    if bits == 64:
        ctx.set(d, sel64(ctx, ctx.value(a, t), ctx.value(b, t), p, pneg))
        return
    ext = "zero" if bits < 32 else "none"
    x = val(ctx, a, t, ext, imm=True)
    y = val(ctx, b, t, ext, imm=True)
    ctx.set(d, sel(ctx, x, y, p, pneg))


@int_lowers("slct")
def lower_slct(ctx: LoweringBuilder, ins: ast.Instruction) -> None:
    types = [m for m in ins.modifiers if m in _ALL_TYPES]
    if len(types) != 2 or types[1] not in ("s32", "f32"):
        ctx.error("slct needs a destination type and .s32 or .f32", ins)
    dt, ct = types
    if dt not in (*INT_TYPES, "f32", "f64"):
        ctx.unsupported(ins, f"type .{dt}")
    d, a, b, c = nops(ctx, ins, 4)
    cv = ctx.value(c, ct)
    if ct == "s32":
        p = isetp(ctx, "ge", "s32", cv, 0)
    else:
        ftz = ".ftz" if "ftz" in _flags(ins) else ""
        p = ctx.emit1(FSetPOp, [cv, 0.0, PT], mods=f"ge.and{ftz}")
    _select(ctx, d, a, b, dt, p, False)


@int_lowers("sad")
def lower_sad(ctx: LoweringBuilder, ins: ast.Instruction) -> None:
    t = itype(ctx, ins)
    d, a, b, c = nops(ctx, ins, 4)
    bits = type_bits(t)
    sign = "s32" if is_signed(t) else "u32"
    if bits == 64:
        x, y, z = ctx.value(a, t), ctx.value(b, t), ctx.value(c, t)
        (gt,) = setp64(ctx, "gt", sign, x, y)
        diff = sel64(ctx, sub64(ctx, x, y), sub64(ctx, y, x), gt)
        ctx.set(d, add64(ctx, diff, z))
        return
    ext = "sign" if sign == "s32" else "zero"
    x, y = reg(ctx, val(ctx, a, t, ext)), reg(ctx, val(ctx, b, t, ext))
    gt = isetp(ctx, "gt", sign, x, y)
    diff = sel(ctx, sub32(ctx, x, y), sub32(ctx, y, x), gt)
    out(ctx, d, add32(ctx, diff, val(ctx, c, t, imm=True)), bits)


__all__ = ["INT_TYPES", "add64", "int_lowers", "lut", "mulhi64", "mullo64", "sdivmod32",
           "setp64", "shl64", "shr64", "sub64", "udivmod32"]
