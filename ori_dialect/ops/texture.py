"""Texture instructions on bindless texture objects (sm_30+ ``cudaTextureObject_t``).

PTX ``tex`` / ``tld4`` in unified texture mode (``[handle, {coords}]``, the
form nvcc emits for texture objects) become one op per SASS family, as
ptxas 13.0 prints them for sm_80 / sm_90 (``cuobjdump -sass``):

=========================================  ==========================================
PTX                                        ptxas 13.0 SASS (sm_90)
=========================================  ==========================================
``tex.1d.v4.f32.s32`` (``tex1Dfetch``)     ``TLD.LZ R10, R8, R2, UR4, 0x0, 1D``
  (only ``.x`` used)                       ``TLD.LZ RZ, R9, R2, UR4, 0x0, 1D, 0x1``
``tex.2d.v4.u32.s32`` (``.x``, ``.y``)     ``TLD.LZ RZ, R6, R6, UR4, 0x0, 2D, 0x3``
``tex.2d.v4.f32.f32`` (``tex2D``)          ``TEX.LL R8, R6, R6, R8, UR4, 0x0, 2D``
``tex.1d.v4.f32.f32`` (``tex1D``)          ``TEX.LL RZ, R9, R8, R0, UR4, 0x0, 2D, 0x1`` (y = 0)
``tld4.r.2d.v4.f32.f32`` (``tex2Dgather``) ``TLD4.R R10, R8, R2, UR4, 0x0, 2D``
=========================================  ==========================================

The operands are: the register pair the third and fourth written
components go to (``RZ`` for none), the pair for the first two, the
coordinates (one register, or a pair ``x, y``), TEX's level-of-detail
register, the handle's low word in a uniform register (the high word, 0,
in the next), ``0x0``, the dimension, and the write mask when not all four
components are written (the written ones fill the registers in order:
mask ``0x5`` puts x in R6 and z in R7).  The result type (``.s32``) is not
printed: it is the texture object's property.  For sm_80 ptxas prints the
same families with ``.SCR`` and the handle's parameter-bank word
(``TLD.SCR.LZ RZ, R7, R2, 0x0, 0x58, 1D, 0x1``).

ori keeps the four results as one ``!ori.r128`` quad (an aligned run of
four registers, which satisfies the pairs' alignment too), the 64-bit handle
as an ``!ori.r64`` and each coordinate as its own 32-bit register.  Integer
coordinates are TLD's, float coordinates TEX's (and TLD4's), so the SASS
family follows the coordinate type; ``geom`` (``dim1``/``dim2``) says how many coordinates are
read, ``rtype`` what the four results hold (``f32``; ``s32``/``u32`` for
integer textures read in element mode).

The ``ori-asm`` listing prints the ptxas form (:meth:`TextureOp.sass_form`)
with these deviations: the handle is a UR pair where ``ori-uniform``
moved it there (a kernel parameter: ``ULDC.64``, as ptxas's sm_90 form),
else an R pair (a handle computed per thread); two
coordinates not in consecutive registers print as ``{R2, R0}``; TEX has no
level-of-detail operand (ori's TEX is always level 0, which ptxas
materialises in a register); a 1D TEX stays ``1D`` (ptxas fetches at
``(x, 0)`` in 2D); ``rtype`` other than f32 is named in the line's comment;
the listing always prints the sm_90 form; and the write mask is the smallest
prefix (``0x1``, ``0x3``, ``0x7``) covering the components that are read
(through the ``ori.unpack`` of the quad), so that the written components stay
in their quad registers -- ptxas packs exactly the read ones (``0x2``, ``0x5``).

What a fetch returns -- the texture object's address and filter modes,
coordinate normalisation and read mode -- is a property of the object the
handle names, not of the instruction (CUDA Programming Guide, "Texture and
Surface Memory" / "Texture Fetching"); :mod:`ori_dialect.interpreter.texture`
implements it.
"""

from __future__ import annotations

from typing import ClassVar

from xdsl.utils.exceptions import VerifyException

from ori_dialect.ir.instruction import (
    Dst,
    ModGroup,
    OperandText,
    OriInstruction,
    SassForm,
    Src,
    register_above,
    registers_follow,
)
from ori_dialect.ir.metadata import LatencyClass, MemEffect, MemSpace, Pipe
from ori_dialect.ir.registers import R64Type, R128Type, UR64Type
from ori_dialect.ops.base import R, ori_op
from ori_dialect.ops.integer import UnpackOp

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
        Src("handle", (R64Type, UR64Type), fixed=False),
        Src("x", R, fixed=True),
        Src("y", R, fixed=True, optional=True),
    )
    MODS = (_DIM, _RTYPE)
    LOD: ClassVar[str] = ""
    """The level-of-detail modifier ptxas prints after the family (``LL``:
    explicit, ``LZ``: zero; TLD4 has none)."""

    def ncoords(self) -> int:
        return 2 if self.mod("geom") == "dim2" else 1

    def write_mask(self) -> int:
        """The components of ``d`` the instruction writes: the smallest
        prefix mask (``0x1``, ``0x3``, ``0x7``, ``0xf``) covering every
        component that is read.  A component is unread when ``d`` is used
        only by ``ori.unpack`` ops whose result for it has no uses; any other
        use reads all four.  A prefix keeps each written component in its
        register of the quad (SASS packs the written components into the
        destination registers in order)."""
        top = 0
        for use in self.dsts[0].uses:
            user = use.operation
            if not isinstance(user, UnpackOp):
                return 0xF
            top = max([top, *(i + 1 for i, r in enumerate(user.results) if r.uses)])
        return (1 << max(top, 1)) - 1

    def sass_form(self, operand: OperandText) -> SassForm:
        """``FAMILY[.LOD][.COMP] zw, xy, coords, handle, 0x0, 1D|2D[, mask]``
        (module docstring: the ptxas form and ori's deviations)."""
        comp = self.mod("comp") if any(g.name == "comp" for g in self.MODS) else None
        mnemonic = ".".join(x for x in (self.SASS, self.LOD, (comp or "").upper()) if x)
        d = self.dsts[0]
        mask = self.write_mask()
        x, y = self.src("x"), self.src("y")
        assert x is not None
        coords = operand(x, None)
        if y is not None and not registers_follow(x, y, 1):
            coords = "{" + coords + ", " + operand(y, None) + "}"
        handle = self.src("handle")
        assert handle is not None
        ops = [
            register_above(d, 2, operand) if mask & 0xC else "RZ",
            operand(d, None),
            coords,
            operand(handle, None),
            "0x0",
            f"{self.ncoords()}D",
        ]
        if mask != 0xF:
            ops.append(hex(mask))
        rtype = self.mod("rtype") or "f32"
        return SassForm(mnemonic, tuple(ops), "" if rtype == "f32" else f"{rtype} results")

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
    LOD = "LL"


@ori_op
class TldOp(TextureOp):
    """TLD: an unfiltered fetch at integer texel coordinates
    (``tex.{1d,2d}.v4.*.s32``, ``tex1Dfetch``; ptxas prints ``TLD.LZ``)."""

    name = "ori.tld"
    SASS = "TLD"
    LOD = "LZ"


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
