"""Stages 2-4 of the LICM engine: which instructions of a loop are invariant
(seed 001 "Stage 2: Forward Invariance Marking", "Stage 3: Backward
Non-Invariance Marking", "Stage 4: Transitive Invariance Propagation" and
"Set-Based Invariance Alternative", sub_8FEAC0, sub_8F7DD0, sub_768BF0).

ptxas stamps a defining block on every register (reg+76) and compares it
with the block being scanned; ori's IR is SSA, so "defined outside the
loop" is read off the value itself: a block argument of a block outside the
loop or the result of an op outside it.  The three stages keep the seed's
division of labour:

* **stage 2, forward** (default, the single-pass scan): an instruction is
  marked when it may move (:func:`.safety.never_moves`), every SSA operand
  (sources, guard, tied priors) is defined outside the loop, the stores
  *scanned so far* do not alias it (the seed's growing mem_alias_mask) and
  the zero-trip rule allows it.  Like the seed's scan it does not see
  transitive invariance (B using A's result, A marked in the same scan);
  with ``use-new-loop-invariant-routine-for-hoisting=true`` (knob 934) the
  set-based routine repeats the scan, counting marked results as invariant,
  until nothing changes, and finds them here;
* **stage 3, backward**: the reverse scan revokes a marked load that a store
  *after* it may alias (forward and backward together compare every load
  with every store of the loop) and counts, per marked value, its uses by
  instructions that stay (the seed's use_count, reported in the statistics);
* **stage 4, transitive propagation**: a forward scan in reverse post-order
  marks every instruction whose operands are now all invariant and that the
  rules allow (SSA definitions dominate their uses, so one scan reaches the
  fixed point), and unmarks one whose operand was revoked.
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Sequence
from dataclasses import dataclass, field

from xdsl.ir import Block, BlockArgument, Operation, SSAValue

from ori_dialect.ir.instruction import OriOp
from passes.hoist_invariants.safety import LoopMemory, blocked_in_loop, loop_memory, never_moves


@dataclass(frozen=True)
class BlockInfo:
    """What the engine needs to know about one block of the loop."""

    block: Block
    hoist_mode: int
    guaranteed: bool
    """Runs whenever the loop is entered (the zero-trip rule)."""
    eligible: bool
    """Instructions of this block may move (false: a block of an inner loop
    when nested hoisting is not allowed)."""
    mid: bool = False
    """A block at the loop's own depth other than the header and the
    back-edge blocks: ptxas's driver does not visit it (:mod:`.mid_blocks`)."""


@dataclass
class Marking:
    """The result of stages 2-4 for one loop."""

    invariant: set[Operation] = field(default_factory=set)
    forward: int = 0
    """Marked by stage 2."""
    revoked: int = 0
    """Revoked by stage 3."""
    propagated: int = 0
    """Added by stage 4."""
    use_count: Counter[SSAValue] = field(default_factory=Counter)
    """In-loop uses of each invariant value by instructions that stay."""
    blocked: Counter[str] = field(default_factory=Counter)
    """Instructions with invariant operands that may not move, by reason."""


def defined_outside(v: SSAValue, loop: set[Block]) -> bool:
    if isinstance(v, BlockArgument):
        return v.block not in loop
    blk = v.owner.parent_block() if isinstance(v.owner, Operation) else None
    return blk not in loop


def _operands_invariant(op: Operation, loop: set[Block], marked: set[Operation]) -> bool:
    for v in op.operands:
        if defined_outside(v, loop):
            continue
        if isinstance(v.owner, Operation) and v.owner in marked:
            continue
        return False
    return True


def mark_invariants(infos: Sequence[BlockInfo], *, set_based: bool = False) -> Marking:
    """Stages 2-4 over the blocks of one loop, given in reverse post-order."""
    loop = {i.block for i in infos}
    full = loop_memory([i.block for i in infos])
    m = Marking()
    movable = {op: never_moves(op) is None
               for i in infos if i.eligible for op in i.block.ops}

    # ---- stage 2: forward marking ----
    def forward_scan(transitive: bool) -> bool:
        seen = LoopMemory()
        changed = False
        for info in infos:
            for op in info.block.ops:
                if movable.get(op) and op not in m.invariant and _operands_invariant(
                        op, loop, m.invariant if transitive else set()):
                    assert isinstance(op, OriOp)
                    if blocked_in_loop(op, seen, info.guaranteed) is None:
                        m.invariant.add(op)
                        m.forward += 1
                        changed = True
                seen.add(op)
        return changed

    forward_scan(False)
    if set_based:
        while forward_scan(True):
            pass

    # ---- stage 3: backward revocation and use counts ----
    after = LoopMemory()
    for info in reversed(infos):
        for op in reversed(list(info.block.ops)):
            if op in m.invariant:
                assert isinstance(op, OriOp)
                if op.MEM.reads and after.blocks_load(op.SPACE):
                    m.invariant.discard(op)
                    m.revoked += 1
            else:
                for v in op.operands:
                    if isinstance(v.owner, Operation) and v.owner in m.invariant:
                        m.use_count[v] += 1
            after.add(op)

    # ---- stage 4: transitive propagation (and revocation of dependents) ----
    for info in infos:
        for op in info.block.ops:
            if op in m.invariant:
                if not _operands_invariant(op, loop, m.invariant):
                    m.invariant.discard(op)
                    m.revoked += 1
                continue
            if not movable.get(op) or not _operands_invariant(op, loop, m.invariant):
                if op in movable and not movable[op] and _operands_invariant(op, loop, m.invariant):
                    why = never_moves(op)
                    if why not in ("terminator", "no result", "not an ori instruction"):
                        m.blocked[str(why)] += 1
                continue
            assert isinstance(op, OriOp)
            why = blocked_in_loop(op, full, info.guaranteed)
            if why is None:
                m.invariant.add(op)
                m.propagated += 1
            else:
                m.blocked[why] += 1
    return m


def prune(invariant: set[Operation], infos: Sequence[BlockInfo]) -> None:
    """Drop from ``invariant`` every instruction with an operand defined in
    the loop by an instruction no longer in it (after stage 5 rejected a
    block): the hoisted code must only use values defined before the loop."""
    loop = {i.block for i in infos}
    for info in infos:
        for op in info.block.ops:
            if op in invariant and not _operands_invariant(op, loop, invariant):
                invariant.discard(op)


__all__ = ["BlockInfo", "Marking", "defined_outside", "mark_invariants", "prune"]
