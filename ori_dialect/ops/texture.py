"""Texture instructions on bindless texture objects (sm_30+ ``cudaTextureObject_t``).

PTX ``tex`` / ``tld4`` in unified texture mode (``[handle, {coords}]``, the
form nvcc emits for texture objects) become one op per SASS family, as
ptxas 13.0 prints them for sm_80 / sm_90 (``cuobjdump -sass``):

=========================================  =====================================
PTX                                        ptxas 13.0 SASS
=========================================  =====================================
``tex.1d.v4.f32.s32`` (``tex1Dfetch``)     ``TLD.LZ R10, R8, R2, UR4, 0x0, 1D``
``tex.2d.v4.f32.s32``                      ``TLD.LZ ..., 2D``
``tex.1d/2d.v4.f32.f32`` (``tex1D/2D``)    ``TEX.LL RZ, R9, R8, R0, UR4, 0x0, 2D, 0x1``
``tld4.r.2d.v4.f32.f32`` (``tex2Dgather``) ``TLD4.R R10, R8, R8, UR4, 0x0, 2D``
=========================================  =====================================

ptxas splits the four results into two register pairs with a write mask
and passes the handle's low word in a uniform register; ori keeps the
four results as one ``!ori.r128`` quad (an aligned run of four registers,
which satisfies the pairs' alignment too), the 64-bit handle as an
``!ori.r64`` and each coordinate as its own 32-bit register.  Integer
coordinates are TLD's, float coordinates TEX's (and TLD4's), so the SASS
family follows the coordinate type; ``geom`` (``dim1``/``dim2``) says how many coordinates are
read, ``rtype`` what the four results hold (``f32``; ``s32``/``u32`` for
integer textures read in element mode).

What a fetch returns -- the texture object's address and filter modes,
coordinate normalisation and read mode -- is a property of the object the
handle names, not of the instruction (CUDA Programming Guide, "Texture and
Surface Memory" / "Texture Fetching"); :mod:`ori_dialect.interpreter.texture`
implements it.
"""

from __future__ import annotations

from xdsl.utils.exceptions import VerifyException

from ori_dialect.ir.instruction import Dst, ModGroup, OriInstruction, Src
from ori_dialect.ir.metadata import LatencyClass, MemEffect, MemSpace, Pipe
from ori_dialect.ir.registers import R64Type, R128Type
from ori_dialect.ops.base import R, ori_op

# ``dim1`` / ``dim2`` (not ``1d``: a modifier token cannot start with a digit
# in ori's op syntax); SASS prints ``1D`` / ``2D`` as an operand.
_DIM = ModGroup("geom", ("dim1", "dim2"), required=True)
_RTYPE = ModGroup("rtype", ("f32", "s32", "u32"), default="f32")


class TextureOp(OriInstruction):
    """A fetch through a texture object: ``d`` (four 32-bit channels, an
    aligned quad) from the texture ``handle`` at ``x`` (and ``y`` for 2D)."""

    PIPE = Pipe.TEX
    # seed 001 "Latency Class Table": class 20 covers texture loads.
    LATENCY = LatencyClass.UNIFORM_LOAD
    MEM = MemEffect.READ
    # Texture memory is global memory read through the texture cache; writes
    # to it in the same grid are undefined for the fetch (CUDA Programming
    # Guide, "Read/Write Coherency"), so treating it as a global read is the
    # conservative alias class.
    SPACE = MemSpace.GLOBAL
    MAY_FAULT = True  # a handle that names no texture object traps
    DSTS = (Dst("d", (R128Type,)),)
    SRCS = (
        Src("handle", (R64Type,), fixed=False),
        Src("x", R, fixed=True),
        Src("y", R, fixed=True, optional=True),
    )
    MODS = (_DIM, _RTYPE)

    def ncoords(self) -> int:
        return 2 if self.mod("geom") == "dim2" else 1

    def verify_semantics(self) -> None:
        have = 1 + (self.src("y") is not None)
        if have != self.ncoords():
            raise VerifyException(
                f"{self.name}: a {self.mod('geom')} fetch takes {self.ncoords()} coordinate(s), "
                f"got {have}"
            )


@ori_op
class TexOp(TextureOp):
    """TEX: a filtered fetch at float coordinates (``tex.{1d,2d}.v4.*.f32``;
    ptxas prints ``TEX.LL``, the explicit level of detail 0)."""

    name = "ori.tex"
    SASS = "TEX"


@ori_op
class TldOp(TextureOp):
    """TLD: an unfiltered fetch at integer texel coordinates
    (``tex.{1d,2d}.v4.*.s32``, ``tex1Dfetch``; ptxas prints ``TLD.LZ``)."""

    name = "ori.tld"
    SASS = "TLD"


@ori_op
class Tld4Op(TextureOp):
    """TLD4: the ``comp`` channel of the four texels a 2D bilinear fetch at
    ``(x, y)`` reads (``tld4.{r,g,b,a}.2d.v4.*.f32``, ``tex2Dgather``)."""

    name = "ori.tld4"
    SASS = "TLD4"
    MODS = (ModGroup("comp", ("r", "g", "b", "a"), required=True), _DIM, _RTYPE)

    def verify_semantics(self) -> None:
        super().verify_semantics()
        if self.mod("geom") != "dim2":
            raise VerifyException(f"{self.name}: tld4 gathers from 2d textures only")


__all__ = ["TexOp", "TextureOp", "Tld4Op", "TldOp"]
