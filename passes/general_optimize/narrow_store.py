"""``narrow-store``: a mask read only by 8- or 16-bit stores goes.

Seed 001 "Pipeline Placement" (phase 13 GeneralOptimizeEarly, phase 29
GeneralOptimize): PTX's 16-bit arithmetic (``add.s16 %rs2, %rs1, 1``) is
lowered in 32-bit registers and its result zero-extended with ``LOP3.LUT
d, x, 0xffff, RZ, 0xc0`` so that every reader sees a canonical value; a
store of 16 (or 8) bits writes only the low half (byte) of its register,
so when stores of that width are the mask's only readers the mask changes
nothing they write.  CUB's ``BlockRadixSort`` counts digits in 16-bit
shared-memory counters: ptxas's loop is ``LDS.U16 R17, [R16]`` / ``IADD3
R3, R17, 0x1, RZ`` / ``STS.U16 [R16], R3`` (``ptxas -arch=sm_80``,
examples/library block_radix_sort_keys), ori's had a ``LOP3.LUT R14, R14,
0xffff, RZ, 0xc0`` before each of the four ``STS.U16``.

``d = LOP3.LUT x, m, RZ, 0xc0`` (``x & m``, unguarded, no predicate
result, ``m`` an immediate) whose every reader is the stored value (not
the address) of an ``ST*.U8/S8/U16/S16`` keeping bits that ``m`` keeps
(``m`` has the low 8 or 16 bits set) is removed and the stores write
``x``.  A mask with any other reader stays:
``x`` would then live on to the stores beside ``d``.
"""

from __future__ import annotations

from xdsl.ir import Operation, SSAValue
from xdsl.pattern_rewriter import PatternRewriter, op_type_rewrite_pattern

from ori_dialect.ir.metadata import MemEffect
from ori_dialect.ops.integer import Lop3Op
from ori_dialect.ops.memory import MemoryOp, width_bytes
from passes.general_optimize.common import CountingPattern, erase_replaced, is_rz, unguarded

AND = 0xC0
"""LOP3 truth table of ``a & b`` (``c`` ignored)."""


def _masked(op: Lop3Op) -> tuple[SSAValue, int] | None:
    """``(x, m)`` of ``LOP3.LUT x, m, RZ, 0xc0`` (an immediate is always
    in ``b``: ``a`` and ``c`` take registers only), else None."""
    if op.src_int("lut") != AND or not is_rz(op.src("c")) or len(op.results) != 1:
        return None
    if not unguarded(op) or op.smod_map():
        return None
    a, m = op.src("a"), op.src_int("b")
    if not isinstance(a, SSAValue) or m is None:
        return None
    return a, m


def _narrow_store_of(user: Operation, d: SSAValue) -> int | None:
    """The bits ``user`` stores when it is a store of ``d`` (as its value
    only, not its address) narrower than 32 bits, else None."""
    if not isinstance(user, MemoryOp) or user.MEM is not MemEffect.WRITE:
        return None
    if user.DATA_SLOT is None or user.data_value() is not d:
        return None
    width = user.mod("width") or "b32"
    if width not in ("u8", "s8", "u16", "s16"):
        return None
    if any(v is d for slot, v in user.slot_values() if slot.name != user.DATA_SLOT):
        return None
    return 8 * width_bytes(width)


class NarrowStore(CountingPattern):
    """``ST.U16 [a], (x & 0xffff)`` -> ``ST.U16 [a], x`` (module docstring)."""

    ROOTS = (Lop3Op,)

    @op_type_rewrite_pattern
    def match_and_rewrite(self, op: Lop3Op, rewriter: PatternRewriter) -> None:
        xm = _masked(op)
        if xm is None:
            return
        x, m = xm
        d = op.results[0]
        if not d.uses or x.type != d.type:
            return
        for use in d.uses:
            bits = _narrow_store_of(use.operation, d)
            low = (1 << bits) - 1 if bits is not None else 0
            if bits is None or m & low != low:
                return
        erase_replaced(rewriter, op, [x])
        self.counts["narrow-store"] += 1


__all__ = ["NarrowStore"]
