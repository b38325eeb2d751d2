"""``guard-sink``: ``y = OP ..; z = @g MOV y (prior p)`` -> ``z = @g OP ..
(prior p)`` -- the guard moves onto the instruction that computes the value.

The PTX importer lowers a guarded instruction whose lowering is a pure op
as the unguarded op and a guarded copy of its result (ori_dialect/ptx/lower/
builder.py "Guards"): ``@p add.u32 r0, r0, x`` after a ``shfl.sync.up``
(CUB's warp scans) becomes ``IADD3 t, r0, x, RZ; @P0 MOV r0', t``.  ptxas
emits the guarded instruction itself (``@P0 IADD3 R5, R5, R4, RZ`` in its
listing of the same scan), one instruction and one register fewer: the
result is tied to the prior value, so no temporary holds it.  Seed 001's
phase 13 (GeneralOptimizeEarly, "const fold + copy prop") is where ori
removes the importer's copies; a guarded copy of a value computed for it
alone is the guarded form of such a copy.

Rule: ``OP`` is an unguarded pure instruction -- no memory access, no side
effect, not volatile (it moves down to the copy and runs only when the
guard holds, so nothing between may change what it computes)
with one result and no other reader than the copy (readers that are pure
and unread themselves are erased with it); the copy is a guarded
``MOV y`` (no source modifier) or the predicate copy ``PLOP3.LUT z, y, PT,
PT, 0xf0``, of the same register type.  The new op is built where the copy
was (the guard and prior are defined there; ``OP``'s sources dominate
``OP``, which dominates the copy) and must verify with the guard (an op
without a guarded form is left alone).
"""

from __future__ import annotations

from xdsl.dialects.builtin import IntegerAttr
from xdsl.ir import SSAValue
from xdsl.pattern_rewriter import PatternRewriter, op_type_rewrite_pattern
from xdsl.utils.exceptions import VerifyException

from ori_dialect.ir.instruction import OriInstruction
from ori_dialect.ops.integer import MovOp
from ori_dialect.ops.predicate import PLop3Op
from passes.general_optimize.common import CountingPattern, is_pt, replace_op, unguarded
from passes.loop_utils import is_pure


def copied_value(op: OriInstruction) -> SSAValue | None:
    """The register a guarded copy copies (``@g MOV y`` or ``@g PLOP3.LUT
    z, y, PT, PT, 0xf0``), else None."""
    if unguarded(op) or op.smod_map() or len(op.results) != 1:
        return None
    if isinstance(op, MovOp):
        a = op.src_reg("a")
        return a if a is not None and a.type == op.results[0].type else None
    if isinstance(op, PLop3Op):
        a, b, c, lut = (op.src(n) for n in ("a", "b", "c", "lut"))
        if (isinstance(a, SSAValue) and is_pt(b) and is_pt(c) and isinstance(lut, IntegerAttr)
                and lut.value.data == 0xF0 and op.src("lut2") is None
                and a.type == op.results[0].type):
            return a
    return None


class GuardSink(CountingPattern):
    """A guarded copy of a value computed only for it: the computation
    takes the guard and the copy's prior value instead."""

    ROOTS = (MovOp, PLop3Op)

    @op_type_rewrite_pattern
    def match_and_rewrite(self, op: MovOp | PLop3Op, rewriter: PatternRewriter) -> None:
        y = copied_value(op)
        if y is None:
            return
        # readers without readers of their own (the importer's PACK of a
        # guarded 64-bit result's words, dead once the words are copied) do
        # not count: the pass's dead-code sweep would erase them anyway
        dead = [u.operation for u in y.uses if u.operation is not op]
        if not all(is_pure(d) and not any(r.uses for r in d.results) for d in dead):
            return
        src = y.owner
        # the same block: sinking a computation from a dominating block
        # into a loop would run it on every iteration
        if (not isinstance(src, OriInstruction) or not unguarded(src)
                or len(src.results) != 1 or not is_pure(src) or src.is_volatile
                or src.parent_block() is not op.parent_block()):
            return
        _, guard, prior = op.operand_groups()
        assert guard is not None
        if guard is y or y in prior:
            return  # the copy also reads the value as its guard or prior
        try:
            new = type(src).make(
                [v for _, v in src.slot_values()],  # type: ignore[misc]
                [op.results[0].type],
                mods=src.mods.data if src.mods is not None else "",
                smods=src.smod_map(),
                guard=guard,
                guard_neg="guard_neg" in op.properties,
                prior=list(prior),
                attributes=dict(src.attributes),
            )
            new.verify()
        except VerifyException:
            return  # no guarded form of this op: left as it is
        for d in dict.fromkeys(dead):
            rewriter.erase(d)
        replace_op(rewriter, op, new)
        rewriter.erase(src)
        self.counts["guard-sink"] += 1


__all__ = ["GuardSink", "copied_value"]
