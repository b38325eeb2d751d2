"""Predicates computed next to their readers: before allocation, a P-file
value's definition moves down to its first reader when that shortens the
predicates' live ranges and lengthens no other.

The P file has seven registers.  Triton's masked loads compute their masks
in a row -- eight ``and.pred`` of a loop-invariant row mask and the K mask,
then eight loads -- so nine predicates are live before the first load and
ori spilled three of them to ``P2R``/``R2P`` homes on every K step.
ptxas's listing computes each mask right before its load (seed 002
"Complementary ptxas-side Knobs" names its allocator's ``SinkRematEnable``;
the seed gives no algorithm, so the rule is ori's):

A definition ``D`` moves to just before its first reader when

* it is an instruction that may move at all
  (:func:`passes.hoist_invariants.safety.never_moves`), reads no memory,
  and defines one P value, every reader of which is later in the block;
* every non-P register it reads is live there anyway (read at or after
  that point, or live out of the block): no R/UR range grows, so the R
  count and the recomputation of spilled comparisons at their readers
  (:mod:`.remat`, which needs the compared registers live there) are as
  before;
* at most one P operand is not live there anyway: over the span ``D``
  moves across, the P values live change by (operands lengthened) - 1 <= 0.

The block is walked bottom-up, so a row of definitions that share one
operand (the K mask) moves as a whole: the last one lengthens the shared
operand, each earlier one then finds it live.  A block's moves are kept
only when one of them frees a predicate (lengthens nothing): a row of
moves that each trade one range for another changes no pressure, only
the order the allocator sees.
"""

from __future__ import annotations

from xdsl.ir import Block, Operation, SSAValue

from ori_dialect.analysis.cfg import CFG
from ori_dialect.analysis.liveness import Liveness
from ori_dialect.ir.instruction import OriInstruction
from ori_dialect.ir.registers import OriRegisterType, PredType
from passes.hoist_invariants.safety import never_moves


def _is_reg(v: SSAValue) -> bool:
    t = v.type
    return isinstance(t, OriRegisterType) and not t.is_fixed


def _candidate(op: Operation) -> bool:
    return (isinstance(op, OriInstruction) and len(op.results) == 1
            and isinstance(op.results[0].type, PredType)
            and never_moves(op) is None and not op.MEM.reads)


def _plan(block: Block, live_out: set[SSAValue]) -> list[tuple[Operation, Operation]]:
    """The moves (definition, the op it goes before) for ``block``, in the
    order to apply them; [] when none frees a predicate."""
    order = list(block.ops)
    pos = {op: i for i, op in enumerate(order)}
    moves: list[tuple[Operation, Operation]] = []
    frees = False

    def live_at(v: SSAValue, at: int, skip: Operation) -> bool:
        if v in live_out:
            return True
        return any(u.operation is not skip and u.operation in pos and pos[u.operation] >= at
                   for u in v.uses)

    for op in reversed(list(block.ops)):
        if not _candidate(op):
            continue
        users = [u.operation for u in op.results[0].uses]
        if not users or any(u not in pos for u in users):
            continue  # unread, or read in another block
        first = min(users, key=pos.__getitem__)
        t = pos[first]
        if t <= pos[op] + 1:
            continue
        longer = 0
        ok = True
        for v in dict.fromkeys(op.operands):
            if not _is_reg(v) or live_at(v, t, op):
                continue
            if not isinstance(v.type, PredType):
                ok = False
                break
            longer += 1
        if not ok or longer > 1:
            continue
        frees = frees or longer == 0
        i = pos[op]
        order.pop(i)
        order.insert(t - 1, op)
        for k in range(i, t):
            pos[order[k]] = k
        moves.append((op, first))
    return moves if frees else []


def predicates_to_readers(func: Operation) -> int:
    """Move P-file definitions down to their first readers (module
    docstring).  Returns the number of definitions moved."""
    lv = Liveness(CFG.compute(func))
    values = lv.numbering.values
    moved = 0
    for b, block in enumerate(lv.cfg.blocks):
        live_out = {values[i] for i in lv.live_out(b)}
        for op, before in _plan(block, live_out):
            op.detach()
            block.insert_op_before(op, before)
            moved += 1
    return moved


__all__ = ["predicates_to_readers"]
