"""Rounds of ``ori-general-optimize``'s walks, the later ones over what changed.

Round 1 walks every op of the function with each walk's patterns in turn (the
per-op patterns, then the constant sweep), as xDSL's ``PatternRewriteWalker``
without recursion would: in program order, ops made during a walk waiting
for the next.  A later round visits, per walk, only the ops near a change
made since that walk last ran: the changed op, the readers of its results,
the other readers and the definitions of its operands, and the readers of
all those ops' results -- and, where an operand's definition is left with
no reader, the readers of that definition's operands (``add-chain`` does
not count a dead reader).  Every rule decides from an op, its operands'
definitions and their operands, and the readers of those values, so an op
outside that neighbourhood would match in a full walk exactly as it did in
the last one, i.e. not at all.

A full second walk only to find nothing left made the pass superlinear on
inputs where size makes a second round likely (issue 20:
``bench_ptxas_scaling`` measured phase 29's instance at ratio 18.6 between
a 3k- and a 30k-instruction function, the large one needing the second round).
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Iterable, Sequence

from xdsl.ir import Operation, Region, SSAValue
from xdsl.pattern_rewriter import PatternRewriter, PatternRewriterListener, RewritePattern

from passes.general_optimize.common import CountingPattern


class _Changes:
    """The ops and operand values each change touched, pending for every walk;
    expanded into the ops near them once, when the walk next runs (a value
    read by thousands of ops is expanded once per round, not once per
    change that reads it)."""

    def __init__(self, walks: int) -> None:
        self.ops: list[set[Operation]] = [set() for _ in range(walks)]
        self.values: list[set[SSAValue]] = [set() for _ in range(walks)]

    def _note(self, ops: Iterable[Operation], values: Iterable[SSAValue]) -> None:
        ops, values = list(ops), list(values)
        for o, v in zip(self.ops, self.values, strict=True):
            o.update(ops)
            v.update(values)

    def touched(self, op: Operation) -> None:
        self._note([op], op.operands)

    def replaced(self, op: Operation, new: Sequence[SSAValue | None]) -> None:
        del new  # the new values' ops are reported as inserted
        self._note([u.operation for r in op.results for u in r.uses], op.operands)

    def take(self, walk: int) -> set[Operation]:
        """The ops near the changes noted for ``walk`` since it last ran."""
        ops, values = self.ops[walk], self.values[walk]
        self.ops[walk], self.values[walk] = set(), set()
        near: set[Operation] = set(ops)
        for op in ops:
            near.update(u.operation for r in op.results for u in r.uses)
        for v in values:
            if isinstance(v.owner, Operation):
                near.add(v.owner)
                if all(not r.uses for r in v.owner.results):
                    # a reader left without readers no longer counts as
                    # one (add_chain.live_uses): its sources' readers
                    near.update(u.operation for w in v.owner.operands for u in w.uses)
            near.update(u.operation for u in v.uses)
        for op in list(near):
            near.update(u.operation for r in op.results for u in r.uses)
        return near

    def clear(self, walk: int) -> None:
        self.ops[walk], self.values[walk] = set(), set()

    def listener(self) -> PatternRewriterListener:
        return PatternRewriterListener(
            operation_insertion_handler=[self.touched],
            operation_removal_handler=[self.touched],
            operation_modification_handler=[self.touched],
            operation_replacement_handler=[self.replaced],
        )


class _FirstMatch:
    """The first pattern of a list that rewrites an op (xDSL's
    ``GreedyRewritePatternApplier`` without folding or DCE), offering each op
    only to the patterns whose roots its class is (``CountingPattern.ROOTS``):
    most ops meet one or two of the eight per-op patterns, not all of them."""

    def __init__(self, patterns: Sequence[RewritePattern]) -> None:
        self.patterns = list(patterns)
        self._for: dict[type[Operation], list[RewritePattern]] = {}

    def for_class(self, cls: type[Operation]) -> list[RewritePattern]:
        got = self._for.get(cls)
        if got is None:
            got = self._for[cls] = [
                p for p in self.patterns
                if not isinstance(p, CountingPattern) or p.applies_to(cls)]
        return got

    def walk(self, ops: list[Operation], listener: PatternRewriterListener) -> None:
        """One walk over ``ops`` (program order); an op removed by then is
        skipped, as xDSL's walker drops it from its worklist."""
        for op in ops:
            if op.parent is None:
                continue
            patterns = self.for_class(type(op))
            if not patterns:
                continue
            rewriter = PatternRewriter(op)
            rewriter.extend_from_listener(listener)
            for p in patterns:
                p.match_and_rewrite(op, rewriter)
                if rewriter.has_done_action:
                    break


def run_rounds(region: Region, walks: Sequence[Sequence[RewritePattern]], counts: Counter[str],
               max_iterations: int) -> int:
    """Apply the walks (each a first-match list of patterns) round after round
    until a round rewrites nothing (``counts`` unchanged) or ``max_iterations``
    rounds ran; returns the rounds run."""
    appliers = [_FirstMatch(p) for p in walks if p]
    changes = _Changes(len(appliers))
    listener = changes.listener()
    for k in range(max_iterations):
        before = counts.total()
        for i, applier in enumerate(appliers):
            if k == 0:
                changes.clear(i)
                ops = [op for b in region.blocks for op in b.ops]
            else:
                todo = changes.take(i)
                if not todo:
                    continue
                ops = [op for b in region.blocks for op in b.ops if op in todo]
            applier.walk(ops, listener)
        if counts.total() == before:
            return k + 1
    return max_iterations


__all__ = ["run_rounds"]
