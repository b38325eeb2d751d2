"""What may leave a loop: the side-effect blocking rules, the alias rule for
loads and the zero-trip rule for instructions that may fault (seed 001
"Side-Effect Blocking Rules" and "Loop boundary analysis", sub_7DF3A0,
sub_7E0540, sub_74D720, sub_74F5E0).

Every fact comes from the op classes (docs/architecture.md "Op facts"):
``MEM``, ``SPACE``, ``SIDE_EFFECTS``, ``IS_BARRIER``, ``WARP_COLLECTIVE``,
``MAY_FAULT``, ``is_side_effect_free``, ``is_ordered``, ``is_volatile``.

The seed's blocking table, as ori reads it:

=========================  ==============================================
seed row                   ori
=========================  ==============================================
memory store               ``MEM.writes`` (stores, atomics, reductions)
memory barrier (BAR,       ``IS_BARRIER``: never moves; a barrier in the
MEMBAR)                    loop also blocks every load (it orders other
                           threads' stores), and skips a multi-depth loop
indirect jump (BRX)        terminators never move; a BRX skips a
                           multi-depth loop (boundary analysis)
volatile / atomic access   ``is_ordered()`` (a ``sem`` other than weak),
                           ``is_volatile`` (clock reads)  , atomics
                           (``SIDE_EFFECTS``)
function call              ``SIDE_EFFECTS`` with no state space: never
                           moves and clobbers every space for loads
texture side effect        TEX/TLD/TLD4 (``ori.texture``) are loads of
                           the GLOBAL space: they move only under the
                           alias rule, like LDG
address-space effect       loads check the alias rule below
=========================  ==============================================

Warp-collective instructions (SHFL, VOTE, REDUX, MATCH) never move, nor
does anything that reads or writes a convergence barrier register
(``!ori.b``: the unroller's convergence constraint).

**Alias rule.**  A load may leave the loop only when no instruction in the
loop may write the memory it reads.  State spaces decide: a store to GLOBAL
may alias a GLOBAL or GENERIC load, SHARED a SHARED or GENERIC one, LOCAL a
LOCAL or GENERIC one, and a GENERIC store every space but CONST.  CONST
(``ori.ldc``, kernel parameters) is read-only during a launch and never
aliased.  Distinct kernel parameters are *not* assumed disjoint: the IR
carries no ``__restrict__``/``noalias`` mark (the PTX frontend keeps none),
so two global pointers always may alias.  An instruction with side effects
and no state space (a call, a barrier, a trap) clobbers every space.

**Zero-trip rule.**  An instruction that may fault (``MAY_FAULT``) moves
only from a block that runs whenever the loop is entered: a block that
dominates every exiting block and every latch of the loop.  Then the
original program executed it at least once, on the same operands and (by
the alias rule) the same memory, so the hoisted copy faults only where the
original did.  From any other block (or from a loop that may run zero
times behind a top test) only speculatable instructions move.

**Guards.**  A guarded instruction keeps its guard and its tied prior
values: they are operands, so it is invariant only when they are, and the
hoisted copy computes, for each thread, what the original computed.
"""

from __future__ import annotations

from dataclasses import dataclass, field

from xdsl.ir import Block, Operation
from xdsl.traits import IsTerminator

from ori_dialect.ir.instruction import OriOp
from ori_dialect.ir.metadata import MemSpace
from ori_dialect.ir.registers import BarrierType

_SPACES = (MemSpace.GLOBAL, MemSpace.SHARED, MemSpace.LOCAL)


def may_alias(store_space: MemSpace | None, load_space: MemSpace | None) -> bool:
    """Whether a write to ``store_space`` may change what a read of
    ``load_space`` returns (the module docstring's alias rule).  ``None``
    (a call, a barrier) stands for every space."""
    if load_space == MemSpace.CONST:
        return False
    if store_space is None or load_space is None:
        return True
    if MemSpace.GENERIC in (store_space, load_space):
        return True
    return store_space == load_space


@dataclass
class LoopMemory:
    """What the instructions of one loop write (the seed's mem_alias_mask)."""

    spaces: set[MemSpace] = field(default_factory=set)
    clobbers_all: bool = False
    """A call, barrier or other side effect without a state space."""
    barrier: bool = False
    indirect_jump: bool = False

    def add(self, op: Operation) -> None:
        if not isinstance(op, OriOp):
            return
        if op.IS_BARRIER:
            self.barrier = True
        if op.MEM.writes:
            if op.SPACE is None:
                self.clobbers_all = True
            else:
                self.spaces.add(op.SPACE)
        elif op.SIDE_EFFECTS and not op.WARP_COLLECTIVE and op.SPACE is None \
                and not op.has_trait(IsTerminator):
            # a call, a barrier, a trap: may touch any memory
            self.clobbers_all = True
        if op.INDIRECT_JUMP:
            self.indirect_jump = True

    def blocks_load(self, load_space: MemSpace | None) -> bool:
        """Whether a load from ``load_space`` may see one of these writes."""
        if load_space == MemSpace.CONST:
            return False
        if self.clobbers_all or self.barrier:
            return True
        return any(may_alias(s, load_space) for s in self.spaces)


def loop_memory(blocks: list[Block]) -> LoopMemory:
    mem = LoopMemory()
    for b in blocks:
        for op in b.ops:
            mem.add(op)
    return mem


def never_moves(op: Operation) -> str | None:
    """Why ``op`` can never leave a loop whatever its operands (None: it may).

    The reason is the text the remarks show."""
    if not isinstance(op, OriOp):
        return "not an ori instruction"
    if op.has_trait(IsTerminator):
        return "terminator"
    if not op.results:
        return "no result"
    if op.IS_BARRIER:
        return "barrier"
    if op.WARP_COLLECTIVE:
        return "warp-collective"
    if op.MEM.writes:
        return "memory store"
    if op.SIDE_EFFECTS:
        return "side effect"
    if not op.is_side_effect_free():
        return "side effect"
    if op.is_volatile:
        return "volatile read"
    if _is_ordered(op):
        return "ordered (volatile/atomic) access"
    if any(isinstance(v.type, BarrierType) for v in (*op.operands, *op.results)):
        return "convergence barrier register"
    return None


def moves_freely(op: Operation) -> bool:
    """``op`` may be placed anywhere its operands are available: it may move
    at all (:func:`never_moves`) and reads no memory, so no store between
    the two places can change its result (the sinking of
    :mod:`passes.hoist_invariants.sink` and of
    :mod:`passes.regalloc.sink_defs`)."""
    return isinstance(op, OriOp) and never_moves(op) is None and not op.MEM.reads


def _is_ordered(op: OriOp) -> bool:
    is_ordered = getattr(op, "is_ordered", None)
    return bool(is_ordered()) if is_ordered is not None else False


def blocked_in_loop(op: OriOp, mem: LoopMemory, guaranteed: bool) -> str | None:
    """Why ``op`` (which :func:`never_moves` allows) cannot leave this loop
    (None: it may): the alias rule and the zero-trip rule."""
    if op.MEM.reads and mem.blocks_load(op.SPACE):
        return "load under a possibly aliasing store"
    if op.MAY_FAULT and not guaranteed:
        return "may fault and the loop may not reach it (zero-trip rule)"
    return None


__all__ = ["LoopMemory", "blocked_in_loop", "loop_memory", "may_alias", "moves_freely",
           "never_moves"]
