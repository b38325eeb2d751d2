"""``cvt``: conversions between integer and floating-point types (PTX ISA 9.7.9.21).

* int -> int: plain widening and narrowing are register moves plus the
  sign/zero extension or truncation the register model needs (a narrow
  result is kept zero-extended); ``.sat`` uses I2I, whose narrow signed
  results are sign-extended, so they are masked again.
* int -> float: I2F with the fractional rounding (``.rn`` default).
* float -> int: F2I with the integer rounding (``.rni/.rzi/.rmi/.rpi``
  -> ``rn/rz/rm/rp``); F2I saturates and maps NaN to 0 as PTX specifies.
* float -> float: F2F; ``.rni``... on a same-type conversion is the ``int``
  form (round to an integral value).  ``cvt.rn.f16x2.f32 d, a, b`` packs two
  conversions (``a`` in the upper half).
* ``cvt.rna.tf32.f32`` (what Triton and CUDA's ``wmma::__float_to_tf32`` use
  to feed tf32 MMAs): ptxas 13.0 emits, on sm_80 and sm_90,
  ``FSETP.GEU.AND P0, PT, |x|, +INF, PT`` and ``@!P0 IMAD.IADD.U32 x, x,
  0x1, R(0x1000)``: 0x1000 added to the bit pattern of a finite ``x``
  (rounding the 10-bit tf32 mantissa to nearest, ties away from zero, a
  carry running into the exponent), the low 13 bits left as they are
  (the MMA ignores them, see :class:`~ori_dialect.ops.tensor.HmmaOp`),
  infinities and NaNs unchanged.  ori emits the same computation (the
  guarded add as IADD3 + SEL).  Other tf32 conversions (``.rn``, ``.rz``,
  ``.satfinite``, ``.relu``) stop with a diagnostic naming them.
"""

from __future__ import annotations

from typing import TYPE_CHECKING

from xdsl.ir import SSAValue

from ori_dialect.ir.registers import PredType, R32Type
from ori_dialect.ops.convert import F2FOp, F2FPOp, F2IOp, I2FOp, I2IOp
from ori_dialect.ops.floating import FMulOp
from ori_dialect.ops.integer import IAdd3Op, Lop3Op, SelOp, ShlOp
from ori_dialect.ops.predicate import FSetPOp
from ori_dialect.ptx import ast
from ori_dialect.ptx.lower.data import mask, sign_extend
from ori_dialect.ptx.lower.handlers import lowers
from ori_dialect.ptx.lower.types import reg_class, type_bits

if TYPE_CHECKING:
    from ori_dialect.ptx.lower.builder import LoweringBuilder

INTS = ("u8", "s8", "u16", "s16", "u32", "s32", "u64", "s64")
FLOATS = ("f16", "bf16", "f32", "f64")
_FRND = {"rn": "rn", "rz": "rz", "rm": "rm", "rp": "rp"}
_IRND = {"rni": "rn", "rzi": "rz", "rmi": "rm", "rpi": "rp"}
RZ = R32Type.fixed()


def _canon_int(t: str) -> str:
    """``b16`` is accepted where an unsigned type is (bit types read as unsigned)."""
    return "u" + t[1:] if t.startswith("b") and t[1:] in ("8", "16", "32", "64") else t


@lowers("cvt")
def lower_cvt(ctx: LoweringBuilder, ins: ast.Instruction) -> None:
    if "tf32" in ins.modifiers:
        _cvt_tf32(ctx, ins)
        return
    types: list[str] = []
    frnd = irnd = ""
    ftz = sat = False
    for m in ins.modifiers:
        if m in _FRND:
            frnd = m
        elif m in _IRND:
            irnd = _IRND[m]
        elif m == "ftz":
            ftz = True
        elif m == "sat":
            sat = True
        elif m in INTS or m in FLOATS or m in ("f16x2", "bf16x2") or _canon_int(m) in INTS:
            types.append(_canon_int(m))
        else:
            ctx.unsupported(ins, f"modifier '.{m}'")
    if len(types) != 2:
        ctx.error("cvt needs a destination and a source type", ins)
    dt, st = types
    if frnd and irnd:
        ctx.error("cvt takes one rounding modifier", ins)
    if dt in ("f16x2", "bf16x2"):
        _cvt_pair(ctx, ins, dt, st, frnd, ftz, sat)
        return
    if len(ins.operands) != 2:
        ctx.error("cvt takes a destination and a source", ins)
    d, a = ins.operands
    if dt in INTS and st in INTS:
        if frnd or irnd or ftz:
            ctx.error("rounding/.ftz modifiers are not valid on integer conversions", ins)
        ctx.set(d, int_convert(ctx, ctx.value(a, st), dt, st, sat))
        return
    if dt in FLOATS and st in INTS:
        if irnd:
            ctx.error(f"integer rounding .{ins.modifiers[0]} on a conversion to .{dt}", ins)
        v = ctx.value(a, st)
        r = ctx.emit1(I2FOp, [v], reg_class(dt).unallocated(), mods=f"{dt}.{st}.{frnd or 'rn'}")
        if sat:
            r = _sat(ctx, ins, r, dt)
        ctx.set(d, r)
        return
    if dt in INTS and st in FLOATS:
        if frnd:
            ctx.error("a float-to-integer cvt needs an integer rounding (.rni/.rzi/.rmi/.rpi)", ins)
        if not irnd:
            ctx.error("a float-to-integer cvt needs an integer rounding (.rni/.rzi/.rmi/.rpi)", ins)
        if ftz and st != "f32":
            ctx.error(".ftz applies to .f32 sources only", ins)
        v = ctx.value(a, st)
        r = ctx.emit1(F2IOp, [v], reg_class(dt).unallocated(),
                      mods=f"{dt}.{st}.{irnd}" + (".ftz" if ftz else ""))
        # F2I saturates in any case (PTX float-to-int cvt is saturating).
        if type_bits(dt) < 32:
            r = mask(ctx, r, type_bits(dt))  # narrow signed results come sign-extended
        ctx.set(d, r)
        return
    # float -> float
    if ftz and "f32" not in (dt, st):
        ctx.error(".ftz applies to conversions from or to .f32", ins)
    v = ctx.value(a, st)
    parts = [dt, st]
    if irnd:
        if dt != st:
            ctx.error("integer rounding on a float conversion needs equal source and destination types", ins)
        parts += [irnd, "int"]
    else:
        narrowing = type_bits(dt) < type_bits(st) or (dt, st) in (("f16", "bf16"), ("bf16", "f16"))
        if narrowing and not frnd:
            ctx.error(f"cvt.{dt}.{st} needs a rounding modifier (.rn/.rz/.rm/.rp)", ins)
        parts.append(frnd or "rn")  # a widening conversion is exact in any mode
    if ftz:
        parts.append("ftz")
    if sat:
        parts.append("sat")
    if dt == st and not irnd and not ftz and not sat:
        ctx.set(d, v)  # cvt.f32.f32 without modifiers is a move
        return
    ctx.set(d, ctx.emit1(F2FOp, [v], reg_class(dt).unallocated(), mods=".".join(parts)))


def _sat(ctx: LoweringBuilder, ins: ast.Instruction, r: SSAValue, dt: str) -> SSAValue:
    if dt == "f32":
        return ctx.emit1(FMulOp, [r, 1.0], mods="sat")  # x * 1 is exact; .sat clamps
    return ctx.emit1(F2FOp, [r], reg_class(dt).unallocated(), mods=f"{dt}.{dt}.rn.sat")


def _cvt_pair(ctx: LoweringBuilder, ins: ast.Instruction, dt: str, st: str, frnd: str,
              ftz: bool, sat: bool) -> None:
    """``cvt.rn.f16x2.f32 d, a, b``: ``d = {cvt(a) in the upper half, cvt(b) in the lower}``."""
    if st != "f32" or len(ins.operands) != 3:
        ctx.unsupported(ins, f"cvt.{dt}.{st} (only .f32 pairs: cvt.rn.{dt}.f32 d, a, b)")
    if frnd not in ("rn", "rz", "rm", "rp"):
        ctx.error(f"cvt.{dt}.f32 needs a rounding modifier", ins)
    half = dt[:-2]
    mods = ".".join([half, "f32", frnd, *(["ftz"] if ftz else []), *(["sat"] if sat else [])])
    d, a, b = ins.operands
    if frnd == "rn" and not ftz and not sat:
        # one F2FP.PACK_AB, as ptxas (cvt.rn.f16x2.f32 needs sm_80, where it exists)
        ctx.set(d, ctx.emit1(F2FPOp, [ctx.value(a, "f32"), ctx.value(b, "f32")],
                             mods=f"{half}.pack_ab"))
        return
    ha = ctx.emit1(F2FOp, [ctx.value(a, "f32")], mods=mods)
    hb = ctx.emit1(F2FOp, [ctx.value(b, "f32")], mods=mods)
    ctx.set(d, ctx.emit1(Lop3Op, [ctx.emit1(ShlOp, [ha, 16]), hb, RZ, 0xFC]))


def _cvt_tf32(ctx: LoweringBuilder, ins: ast.Instruction) -> None:
    """``cvt.rna.tf32.f32 d, a`` as ptxas lowers it (module docstring)."""
    if list(ins.modifiers) != ["rna", "tf32", "f32"]:
        ctx.unsupported(ins, f"'cvt.{'.'.join(ins.modifiers)}' (ori models cvt.rna.tf32.f32)")
    if len(ins.operands) != 2:
        ctx.error("cvt takes a destination and a source", ins)
    d, a = ins.operands
    x = ctx.value(a, "f32")
    special = ctx.emit1(FSetPOp, [x, float("inf"), PredType.fixed()], PredType.unallocated(),
                        mods="geu.and", smods={"a": "abs"})
    bumped = ctx.emit1(IAdd3Op, [x, 0x1000, RZ])
    ctx.set(d, ctx.emit1(SelOp, [x, bumped, special]))


def int_convert(ctx: LoweringBuilder, v: SSAValue, dt: str, st: str, sat: bool) -> SSAValue:
    """Integer ``v`` of type ``st`` (register model form) converted to ``dt``."""
    db, sb = type_bits(dt), type_bits(st)
    if sat and not _sat_noop(dt, st):
        r = ctx.emit1(I2IOp, [v], reg_class(dt).unallocated(), mods=f"{dt}.{st}.sat")
        return mask(ctx, r, db) if db < 32 else r
    signed = st.startswith("s")
    if sb < 32 and signed:
        v = sign_extend(ctx, v, sb)  # the value as a 32-bit integer
    if db == 64:
        return ctx.convert_width(v, reg_class(dt), signed=signed)
    v = ctx.lo(v)
    return mask(ctx, v, db) if db < 32 else v


def _sat_noop(dt: str, st: str) -> bool:
    """Whether every ``st`` value fits ``dt`` (so ``.sat`` changes nothing)."""
    db, sb = type_bits(dt), type_bits(st)
    if dt[0] == st[0]:
        return db >= sb
    if st[0] == "u":  # unsigned into a wider signed
        return db > sb
    return False


__all__ = ["int_convert", "lower_cvt"]
