"""PTX special registers (``%tid.x``, ``%ntid.x``, ``%laneid``, ``%clock64`` ...).

``%tid``/``%ctaid``/``%laneid``/... are S2R reads; ``%ntid``/``%nctaid`` come
from constant bank 0 where the target's driver places the launch dimensions
(ptxas reads ``c[0x0][0x0]`` for ``blockDim.x``); ``%clock64`` is CS2R.
"""

from __future__ import annotations

import functools
from typing import TYPE_CHECKING

from xdsl.ir import SSAValue

from ori_dialect.ir.attrs import CBankAttr
from ori_dialect.ir.registers import R64Type
from ori_dialect.ops.integer import MovOp
from ori_dialect.ops.special import CS2ROp, S2ROp

if TYPE_CHECKING:
    from ori_dialect.ptx.lower.builder import LoweringBuilder

# Names that read a special register unless a register of that name is declared.
SPECIAL_PREFIXES = ("%tid", "%ntid", "%ctaid", "%nctaid", "%laneid", "%warpid", "%nwarpid",
                    "%smid", "%nsmid", "%clock", "%clock64", "%globaltimer", "%lanemask_",
                    "%dynamic_smem_size", "%total_smem_size", "%envreg", "%gridid", "%pm")
_DIMS = {"x": "X", "y": "Y", "z": "Z"}
_S2R = {
    "%laneid": "SR_LANEID", "%warpid": "SR_WARPID", "%nwarpid": "SR_NWARPID",
    "%smid": "SR_SMID", "%nsmid": "SR_NSMID", "%clock": "SR_CLOCKLO", "%clock_hi": "SR_CLOCKHI",
    "%lanemask_eq": "SR_EQMASK", "%lanemask_lt": "SR_LTMASK", "%lanemask_le": "SR_LEMASK",
    "%lanemask_gt": "SR_GTMASK", "%lanemask_ge": "SR_GEMASK",
}


@functools.lru_cache(maxsize=64)
def _cbank(bank: int, offset: int) -> CBankAttr:
    # Attributes are immutable: one instance per operand spares building and
    # verifying it at every read of %ntid/%nctaid.
    return CBankAttr(bank, offset)


def read_special(ctx: LoweringBuilder, name: str) -> SSAValue:
    base, _, dim = name.partition(".")
    if base in ("%tid", "%ctaid") and dim in _DIMS:
        sr = "SR_TID" if base == "%tid" else "SR_CTAID"
        return ctx.emit1(S2ROp, [], mods=f"{sr}.{_DIMS[dim]}")
    if base in ("%ntid", "%nctaid") and dim in _DIMS:
        layout = ctx.target.cbank0
        if layout is None:
            ctx.error(f"target {ctx.target.name} has no constant-bank layout for '{name}'")
        off = (layout.ntid if base == "%ntid" else layout.nctaid) + 4 * "xyz".index(dim)
        return ctx.emit1(MovOp, [_cbank(0, off)])
    if not dim and base in _S2R:
        return ctx.emit1(S2ROp, [], mods=_S2R[base])
    if name == "%clock64":
        return ctx.emit1(CS2ROp, [], R64Type.unallocated(), mods="SR_CLOCKLO")
    if name == "%globaltimer":
        lo = ctx.emit1(S2ROp, [], mods="SR_GLOBALTIMERLO")
        hi = ctx.emit1(S2ROp, [], mods="SR_GLOBALTIMERHI")
        return ctx.pack([lo, hi])
    if name in ("%globaltimer_lo", "%globaltimer_hi"):
        return ctx.emit1(S2ROp, [], mods="SR_GLOBALTIMER" + name[-2:].upper())
    ctx.error(f"special register '{name}' is not supported")


__all__ = ["SPECIAL_PREFIXES", "read_special"]
