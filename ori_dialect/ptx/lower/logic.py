"""Integer logic, shifts, bit fields, bit counting, comparison and selection
(``and or xor not cnot lop3 shl shr shf bfe bfi prmt popc clz brev bfind
setp set selp slct``): the PTX ISA's logic and bit-manipulation instructions
and its integer comparison and selection.

These share :mod:`.integer`'s registration and operand rules (narrow values
zero-extended in 32-bit registers, 64-bit values as halves; see its
docstring) and build on :mod:`.arith`.  A predicate result is ISETP/PLOP3,
a 64-bit compare ISETP + ISETP.EX, a selection SEL (two for a pair).
"""

from __future__ import annotations

from typing import TYPE_CHECKING

from xdsl.ir import SSAValue

from ori_dialect.ir.registers import PredType
from ori_dialect.ops.integer import (
    BmskOp,
    BrevOp,
    FloOp,
    Lop3Op,
    PopcOp,
    PrmtOp,
    SgxtOp,
    ShfOp,
    ShlOp,
    ShrOp,
)
from ori_dialect.ops.predicate import DSetPOp, FSetPOp, ISetPOp
from ori_dialect.ptx import ast
from ori_dialect.ptx.lower.arith import (
    Src,
    V,
    add32,
    c64,
    halves,
    imm_to_b,
    isetp,
    lop,
    lop64,
    lut,
    plop,
    r32,
    reg,
    sel,
    sel64,
    setp64,
    shl64,
    shr64,
    smax0,
    sub32,
)
from ori_dialect.ptx.lower.builder import PT, RZ
from ori_dialect.ptx.lower.integer import (
    ALL_TYPES,
    INT_TYPES,
    flags,
    int_lowers,
    itype,
    nops,
    out,
    val,
)
from ori_dialect.ptx.lower.types import is_float, is_signed, type_bits

if TYPE_CHECKING:
    from ori_dialect.ptx.lower.builder import LoweringBuilder


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
    x, y = imm_to_b(ctx, x, y)
    out(ctx, d, lop(ctx, x, y, RZ, lut(lambda a, b, c: _LOGIC[ins.opcode](a, b))), bits)


@int_lowers("lop3")
def lower_lop3(ctx: LoweringBuilder, ins: ast.Instruction) -> None:
    itype(ctx, ins, ("b32",))
    fl = flags(ins) - {"b32"}
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
    fl = flags(ins)
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
    if signed and isinstance(ln, int) and 0 < ln < 32:
        # ptxas: SHF.R.S32.HI by pos, then SGXT by len (SGXT R0, R0, 0x7);
        # bits above 31 - pos are already sign copies, so a field that runs
        # past bit 31 extends a[31] as PTX says
        sh = ctx.emit1(ShrOp, [x, pos], mods="s32") if pos != 0 else x
        ctx.set(d, ctx.emit1(SgxtOp, [sh, ln]))
        return
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


@int_lowers("bmsk")
def lower_bmsk(ctx: LoweringBuilder, ins: ast.Instruction) -> None:
    """``bmsk.{clamp,wrap}.b32 d, a, b`` (PTX ISA 9.7.8.9, sm_70+): a mask of
    ``b`` ones from bit ``a``; ptxas emits one BMSK (``BMSK.W`` for ``.wrap``).
    CUB's radix sort digit extraction uses the ``.clamp`` form."""
    itype(ctx, ins, ("b32",))
    modes = flags(ins) & {"clamp", "wrap"}
    if len(modes) != 1 or flags(ins) - {"b32", "clamp", "wrap"}:
        ctx.unsupported(ins, "bmsk needs exactly one of .clamp and .wrap")
    d, a, b = nops(ctx, ins, 3)
    pos = reg(ctx, val(ctx, a, "u32"))
    width = val(ctx, b, "u32", imm=True)
    ctx.set(d, ctx.emit1(BmskOp, [pos, width], mods="w" if "wrap" in modes else ""))


@int_lowers("prmt")
def lower_prmt(ctx: LoweringBuilder, ins: ast.Instruction) -> None:
    itype(ctx, ins, ("b32",))
    modes = flags(ins) & {"f4e", "b4e", "rc8", "ecl", "ecr", "rc16"}
    if len(flags(ins) - {"b32"} - modes) or len(modes) > 1:
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
            sh = ".sh" if "shiftamt" in flags(ins) else ""
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
        if "shiftamt" in flags(ins):
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
    fl = flags(ins)
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
    types = [m for m in ins.modifiers if m in ALL_TYPES]
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
    types = [m for m in ins.modifiers if m in ALL_TYPES]
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
        ftz = ".ftz" if "ftz" in flags(ins) else ""
        p = ctx.emit1(FSetPOp, [cv, 0.0, PT], mods=f"ge.and{ftz}")
    _select(ctx, d, a, b, dt, p, False)


__all__ = ["clz32", "lower_bits", "lower_logic", "lower_setp"]
