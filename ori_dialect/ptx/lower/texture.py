"""Texture fetches: ``tex`` and ``tld4`` on texture objects (PTX ISA 9.7.10.3
"Texture Instructions": ``tex``, 9.7.10.4 ``tld4``).

nvcc emits texture objects (``cudaTextureObject_t``) in *unified* texture
mode: the texture operand is ``[handle, {coords}]`` with ``handle`` a
``.u64`` register holding the object.  The lowering reads the handle and the
coordinates, emits one :mod:`ori_dialect.ops.texture` op (TLD for integer
coordinates, TEX for float ones, TLD4 for ``tld4``) with a 128-bit result,
and splits the result into the four destination registers.

Forms that are not modelled stop with a diagnostic naming them: the
independent texture/sampler mode (``[tex, sampler, {c}]``), ``.texref``
symbols, 3D/cube/array geometries, explicit level of detail, gradients,
offsets, depth compare, and results other than ``.v4`` of 32-bit types.
"""

from __future__ import annotations

from typing import TYPE_CHECKING

from xdsl.ir import SSAValue

from ori_dialect.ir.registers import R128Type
from ori_dialect.ops.texture import TexOp, Tld4Op, TldOp
from ori_dialect.ptx import ast
from ori_dialect.ptx.lower.handlers import lowers

if TYPE_CHECKING:
    from ori_dialect.ptx.lower.builder import LoweringBuilder

_GEOMS = {"1d": ("dim1", 1), "2d": ("dim2", 2)}
_RTYPES = ("f32", "s32", "u32")
_COMPS = ("r", "g", "b", "a")


def _coords(ctx: LoweringBuilder, ins: ast.Instruction, ref: ast.Operand, n: int,
            ctype: str) -> tuple[SSAValue, list[SSAValue]]:
    """The handle and the ``n`` coordinates of ``[handle, {c...}]``."""
    if not isinstance(ref, ast.TextureRef):
        ctx.error("expected a texture operand '[handle, {coordinates}]'", ref)
    if isinstance(ref.base, ast.Symbol):
        ctx.unsupported(ins, f"a texture named by symbol '{ref.base.name}' (only texture "
                        "objects held in .u64 registers are modelled)")
    if len(ref.rest) != 1:
        ctx.unsupported(ins, "the independent texture/sampler mode ('[tex, sampler, {c}]')")
    vec = ref.rest[0]
    elems = list(vec.elements) if isinstance(vec, ast.Vector) else [vec]
    # PTX ISA: a 2d fetch takes a .v2 coordinate vector, a 1d one a scalar
    # (nvcc braces it as {%r6}).
    if len(elems) != n:
        ctx.error(f"a {n}-coordinate fetch needs {n} coordinate(s), got {len(elems)}", vec)
    handle = ctx.value(ref.base, "u64")
    return handle, [ctx.value(e, ctype) for e in elems]


def _split_result(ctx: LoweringBuilder, ins: ast.Instruction, d: ast.Operand,
                  op_cls: type[TexOp | TldOp | Tld4Op], srcs: list[SSAValue],
                  mods: str) -> None:
    if not isinstance(d, ast.Vector) or len(d.elements) != 4:
        ctx.error("a .v4 texture fetch needs a vector of 4 destinations", d)
    rt = R128Type.unallocated()
    # Like a guarded vector load (ptx/lower/data.py): the fetch carries the
    # guard, and ``set`` keeps each register's old value where it fails.
    op = ctx.emit_effect(op_cls, srcs, [rt], mods=mods, dsts=[None])
    for e, v in zip(d.elements, ctx.parts(op.results[0])):
        if isinstance(e, ast.Register) and e.name != "_":
            ctx.set(e, v)


@lowers("tex")
def lower_tex(ctx: LoweringBuilder, ins: ast.Instruction) -> None:
    mods = list(ins.modifiers)
    geom = next((m for m in mods if m in _GEOMS), None)
    if geom is None:
        ctx.unsupported(ins, "only .1d and .2d texture geometries are modelled")
    rest = [m for m in mods if m != geom]
    if len(rest) != 3 or rest[0] != "v4" or rest[1] not in _RTYPES or rest[2] not in ("s32", "f32"):
        ctx.unsupported(ins, "expected tex.{1d,2d}.v4.{f32,s32,u32}.{s32,f32} "
                        "(level, gradient, offset and depth-compare forms are not modelled)")
    if len(ins.operands) != 2:
        ctx.error("tex takes a destination vector and a texture operand", ins)
    g, n = _GEOMS[geom]
    rtype, ctype = rest[1], rest[2]
    handle, coords = _coords(ctx, ins, ins.operands[1], n, ctype)
    cls = TldOp if ctype == "s32" else TexOp
    _split_result(ctx, ins, ins.operands[0], cls, [handle, *coords], f"{g}.{rtype}")


@lowers("tld4")
def lower_tld4(ctx: LoweringBuilder, ins: ast.Instruction) -> None:
    mods = list(ins.modifiers)
    if (len(mods) != 5 or mods[0] not in _COMPS or mods[1] != "2d" or mods[2] != "v4"
            or mods[3] not in _RTYPES or mods[4] != "f32"):
        ctx.unsupported(ins, "expected tld4.{r,g,b,a}.2d.v4.{f32,s32,u32}.f32")
    if len(ins.operands) != 2:
        ctx.error("tld4 takes a destination vector and a texture operand", ins)
    handle, coords = _coords(ctx, ins, ins.operands[1], 2, "f32")
    _split_result(ctx, ins, ins.operands[0], Tld4Op, [handle, *coords],
                  f"{mods[0]}.dim2.{mods[3]}")


__all__ = ["lower_tex", "lower_tld4"]
