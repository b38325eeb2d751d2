"""``iadd3-merge``: two chained two-input adds become one three-input IADD3.

Issue 19 item 3 and seed 001 "Pipeline Placement" (phase 13
GeneralOptimizeEarly; phase 29 GeneralOptimize after unrolling): IADD3 adds
three sources, and ptxas fills the third: CUB's unrolled tile reductions sum
sixteen loads with eight ``IADD3 R7, R8, R7, R2`` (``ptxas -arch=sm_80``,
``DeviceReduceSingleTileKernel``) where PTX's ``add.s32`` pairs -- and the
importer's ``IADD3 x, a, b, RZ`` -- need sixteen.

``x = IADD3 a, b, RZ`` whose only use is ``y = IADD3 x, c, RZ`` in the
same block (in any slot, either op's RZ in any slot; across blocks ``a``
and ``b`` would both stay live where ``x`` alone did) becomes ``y = IADD3
a, b, c``: ``a + b +
c`` mod 2^32 is the same sum.  Both ops unguarded, without ``.X`` (no
carry-in) and with no carry-out read; source modifiers (``-x``, ``~x``)
travel with their operand, but ``x`` itself must be read unmodified.  The
merged op keeps the one-port rule (at most one immediate or ``c[][]``
among the three, placed in slot ``b``, the only slot that takes one).

**Register pressure.**  Between ``x`` and ``y`` the merged form keeps
``a`` and ``b`` live where ``x`` was: one register more when both die at
``x``.  That trade (one instruction for a register at that point) raised
nine example kernels' register counts by one or two (codesize_vs_ptxas:
38520 instructions with it, 39460 without), so by default the merge needs
one of ``a``, ``b`` to be a constant or read by another op too (taken
to live on after ``x``: cheaper than scanning the block for the order of
the reads, and it measured better, 37388 instructions against 37467 with
the scan, same register total), or no op between ``x`` and ``y`` that
writes an R register (at most ``common.NEAR`` ops apart): then every point
between them has at most the registers live just before ``x`` -- ``a``,
``b`` and ``c`` were live there, nothing new is -- so no point gains one.
That is the shape of CUB's tile reductions, where PTX lists the sixteen
loads and then the adds; ``iadd3-merge-extend=true`` takes the trade
everywhere.
``x`` dies (``ori-dead-code``).
"""

from __future__ import annotations

from collections import Counter

from xdsl.ir import Attribute, Operation, SSAValue
from xdsl.pattern_rewriter import PatternRewriter, op_type_rewrite_pattern

from ori_dialect.ir.instruction import uses_constant_port
from ori_dialect.ops.integer import IAdd3Op
from passes.general_optimize.common import (
    CountingPattern,
    is_rz,
    no_write_between,
    rebuild,
    replace_op,
    unguarded,
)

Term = tuple[SSAValue | Attribute, str | None]
"""A summand and its source modifier."""


def two_input(op: IAdd3Op) -> list[Term] | None:
    """The two summands of an unguarded ``IADD3 p, q, RZ`` (RZ in any slot)
    without carry-in or a read carry-out; None otherwise."""
    if not unguarded(op) or op.has_mod("x"):
        return None
    if any(r.uses for r in op.results[1:]):
        return None
    smods = op.smod_map()
    terms: list[Term] = []
    zeros = 0
    for slot, v in op.slot_values():
        if slot.name not in ("a", "b", "c"):
            return None
        if is_rz(v) and slot.name not in smods:
            zeros += 1
            continue
        terms.append((v, smods.get(slot.name)))
    return terms if zeros == 1 and len(terms) == 2 else None


def dies_at(v: SSAValue | Attribute, op: Operation) -> bool:
    """``v`` is a register read by ``op`` alone, so its last use is ``op``.
    (A value with other readers is taken to live on: finding whether they
    all come before ``op`` would cost a scan of the block per candidate.)"""
    if not isinstance(v, SSAValue):
        return False  # a constant holds no register
    return all(use.operation is op for use in v.uses)


class MergeAdds(CountingPattern):
    """``IADD3 (IADD3 a, b, RZ), c, RZ`` -> ``IADD3 a, b, c`` (module docstring);
    ``extend``: also where ``a`` and ``b`` both die at ``x``."""

    def __init__(self, counts: Counter[str], *, extend: bool = False) -> None:
        super().__init__(counts)
        self.extend = extend

    ROOTS = (IAdd3Op,)

    @op_type_rewrite_pattern
    def match_and_rewrite(self, op: IAdd3Op, rewriter: PatternRewriter) -> None:
        outer = two_input(op)
        if outer is None or len(op.results) != 1:
            return
        for k, (x, mod) in enumerate(outer):
            if mod is not None or not isinstance(x, SSAValue):
                continue
            inner_op = x.owner
            if not isinstance(inner_op, IAdd3Op) or x.index != 0:  # type: ignore[attr-defined]
                continue
            if sum(1 for _ in x.uses) != 1 or inner_op.parent_block() is not op.parent_block():
                continue  # another block: a and b would live where x did
            inner = two_input(inner_op)
            if inner is None:
                continue
            if not self.extend and sum(dies_at(v, inner_op) for v, _ in inner) > 1 \
                    and not no_write_between(inner_op, op):
                continue  # a and b would both live on to y where x alone did
            terms = [*inner, outer[1 - k]]
            new = self._build(op, terms)
            if new is None:
                continue
            replace_op(rewriter, op, new)
            self.counts["iadd3-merge"] += 1
            return

    @staticmethod
    def _build(op: IAdd3Op, terms: list[Term]) -> IAdd3Op | None:
        ports = [t for t in terms if uses_constant_port(t[0])]
        if len(ports) > 1:
            return None
        regs = [t for t in terms if not uses_constant_port(t[0])]
        order = [regs[0], *(ports or [regs[1]]), *regs[1 if ports else 2:]]
        smods = {name: m for name, (_, m) in zip(("a", "b", "c"), order) if m is not None}
        return rebuild(op, [v for v, _ in order], smods=smods)  # type: ignore[return-value]


__all__ = ["MergeAdds", "dies_at", "two_input"]
