"""``copy-prop``: every use of an unguarded same-type ``MOV`` of a register
reads the source instead.

Seed 001 "Pipeline Placement" (phase 13 GeneralOptimizeEarly, "const fold +
copy prop (feeds loop analysis)"): ptxas's listings keep no register-to-
register ``MOV`` between SSA values of one file and width before register
allocation; the copies the PTX importer writes for ``mov.b32 %r1, %r2``
disappear.  A guarded MOV keeps its prior value when the guard is false, so
it is no copy and is left alone; so is a MOV into an allocated register (a
real move).
"""

from __future__ import annotations

from xdsl.pattern_rewriter import PatternRewriter, op_type_rewrite_pattern

from ori_dialect.ir.registers import OriRegisterType
from ori_dialect.ops.integer import MovOp
from passes.general_optimize.common import CountingPattern, unguarded


class CopyPropagation(CountingPattern):
    """``d = MOV a`` (unguarded, same register type): uses of ``d`` read ``a``."""

    ROOTS = (MovOp,)

    @op_type_rewrite_pattern
    def match_and_rewrite(self, op: MovOp, rewriter: PatternRewriter) -> None:
        if not unguarded(op) or op.smod_map():
            return
        a = op.src_reg("a")
        d = op.results[0]
        if a is None or a.type != d.type or not d.uses:
            return
        if isinstance(d.type, OriRegisterType) and d.type.phys_index is not None:
            return  # allocated registers: a copy there is a real move
        rewriter.replace_all_uses_with(d, a)
        self.counts["copies"] += 1


__all__ = ["CopyPropagation"]
