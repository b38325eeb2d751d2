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

from ori_dialect.ir.registers import PredType
from ori_dialect.ops.control import CallOp
from ori_dialect.ops.convert import F2IOp, I2FOp
from ori_dialect.ops.floating import MufuOp
from ori_dialect.ops.integer import IAbsOp, IAdd3Op, IMadOp, IMnMxOp, ShfOp, ShlOp, ShrOp
from ori_dialect.ops.predicate import PLop3Op
from ori_dialect.ptx import ast
from ori_dialect.ptx.lower.arith import (
    Src,
    V,
    add32,
    add64,
    c64,
    halves,
    imad,
    imm_to_b,
    isetp,
    lop,
    lut,
    mulhi64,
    mullo64,
    neg64,
    plop,
    r32,
    r64,
    reg,
    sel,
    sel64,
    setp64,
    smax0,
    sub32,
    sub64,
)
from ori_dialect.ptx.lower.builder import PT, RZ, Var
from ori_dialect.ptx.lower.data import mask, sign_extend
from ori_dialect.ptx.lower.handlers import LOWERINGS, Lowering
from ori_dialect.ptx.lower.runtime import helper
from ori_dialect.ptx.lower.types import is_float, is_signed, type_bits

if TYPE_CHECKING:
    from ori_dialect.ptx.lower.builder import LoweringBuilder

INT_TYPES = ("b16", "u16", "s16", "b32", "u32", "s32", "b64", "u64", "s64")
# Every type modifier an integer instruction may carry (set/slct name two).
ALL_TYPES = frozenset([*INT_TYPES, "b8", "u8", "s8", "f16", "bf16", "f32", "f64", "pred",
                       "f16x2", "bf16x2"])


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
        types = [m for m in ins.modifiers if m in ALL_TYPES]
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
    types = [m for m in ins.modifiers if m in ALL_TYPES]
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


def out(ctx: LoweringBuilder, d: ast.Operand, v: V, bits: int) -> None:
    if bits < 32:
        v = mask(ctx, v, bits)
    ctx.set(d, v)


# ----------------------------------------------------------------------------
# division sequences


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

def udivmod64(ctx: LoweringBuilder, a: V, b: V) -> tuple[V, V]:
    name = helper(ctx, "__ori_udivmod64")
    op = CallOp(name, [a, b], [r64(), r64()])
    ctx.add(op)
    # x / 0 and x % 0 are all ones: the helper returns them (runtime.py)
    q, r = op.results
    return q, r


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


def flags(ins: ast.Instruction) -> set[str]:
    return set(ins.modifiers)


@int_lowers("add", "sub")
def lower_add_sub(ctx: LoweringBuilder, ins: ast.Instruction) -> None:
    t = itype(ctx, ins)
    d, a, b = nops(ctx, ins, 3)
    bits = type_bits(t)
    fl = flags(ins)
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
    _carry_add(ctx, ins, t, ins.opcode == "subc", cin=True, cout="cc" in flags(ins))


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
    fl = flags(ins)
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
    cout = "cc" in flags(ins)
    types = [r32(), PredType.unallocated()] if cout else [r32()]
    op = ctx.emit(IMadOp, srcs, types, mods=f"{mode}.{sign}" + (".x" if cin else ""))
    if cout:
        write_cc(ctx, op.results[1])
    ctx.set(d, op.results[0])


@int_lowers("madc")
def lower_madc(ctx: LoweringBuilder, ins: ast.Instruction) -> None:
    t = itype(ctx, ins, ("u32", "s32"))
    fl = flags(ins)
    mode = "hi" if "hi" in fl else "lo"
    _mad_carry(ctx, ins, t, mode, cin=True)


@int_lowers("mul24", "mad24")
def lower_mul24(ctx: LoweringBuilder, ins: ast.Instruction) -> None:
    t = itype(ctx, ins, ("u32", "s32"))
    mad = ins.opcode == "mad24"
    ops = nops(ctx, ins, 4 if mad else 3)
    fl = flags(ins)
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
    fl = flags(ins)
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
    x, y = imm_to_b(ctx, x, y)
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


__all__ = ["ALL_TYPES", "INT_TYPES", "flags", "int_lowers", "itype", "nops", "out", "read_cc",
           "sat_add32", "sdivmod32", "sdivmod64", "udivmod32", "udivmod64", "val", "write_cc"]
