"""Sinking to loop exits: a pure instruction inside a loop whose results are
read only after the loop is computed once, on the way out.

The mirror image of hoisting.  ptxas's hoisting knob table names sinking
(``MovWeightForSinkingHoisting``, seed 001 "Hoisting Knobs") but the seed
gives no algorithm for it, so this is ori's rule, LLVM LICM's "sink" step
restricted to what needs no cloning:

* the instruction may move at all and reads no memory
  (:func:`.safety.moves_freely`: a store in the loop, or in another
  thread, may change what a load at the exit would read);
* every reader is outside the loop, in blocks dominated by one exit block
  ``E`` of the loop -- a block outside it whose predecessors all lie in it
  (an exit edge that passes the value as a block operand is a reader inside
  the loop: nothing moves then) -- or is itself sunk to ``E``;
* the instruction's block dominates every predecessor of ``E``: then it ran
  in the iteration that left the loop, on operand values that are still the
  ones its readers saw, and its operands dominate ``E``.

The instruction moves to the top of ``E``, after the ones sunk before it,
in their original order.  Chains sink together (bottom-up, a reader sunk
first lets its operand follow).

Why ori needs it: an MMA's accumulator is loop-carried as one wide value;
the ``UNPACK`` of its words that only the epilogue reads (Triton's
``matmul_f16out`` converts them to f16 after the K loop) sat behind the
last HMMA, and since the back edge writes the same registers, the
allocator could not leave the words in place: eight moves per K step that
ptxas's loop does not have.  At the exit the words are unpacked in place.

Input invariants: SSA; loops need no canonical form (an exit without a
dedicated block is left alone).
"""

from __future__ import annotations

from dataclasses import dataclass

from xdsl.ir import Block, Operation

from ori_dialect.analysis.cfg import CFG
from ori_dialect.analysis.dominators import DominatorTree
from ori_dialect.analysis.loops import Loop, LoopInfo
from passes.hoist_invariants.safety import moves_freely


@dataclass(frozen=True)
class Sunk:
    """One loop's sinking: ``count`` instructions from the loop headed by
    block ``header`` to exit block ``exit`` (block ids as the pass received
    the function)."""

    header: int
    exit: int
    count: int


def _dedicated_exits(lp: Loop, cfg: CFG) -> list[int]:
    return [e for e in lp.exit_blocks
            if cfg.is_reachable(e) and all(lp.contains(p) for p in cfg.preds[e])]


def _sink_loop(lp: Loop, li: LoopInfo, cfg: CFG, dom: DominatorTree) -> list[tuple[int, list[Operation]]]:
    exits = _dedicated_exits(lp, cfg)
    if not exits:
        return []
    target: dict[Operation, int] = {}
    """Instruction -> the exit it sinks to."""
    own = [b for b in reversed(cfg.rpo) if li.loop_for(b) is lp]
    for b in own:
        for op in reversed(list(cfg.blocks[b].ops)):
            if not moves_freely(op):
                continue
            dest: set[int] = set()
            for r in op.results:
                for use in r.uses:
                    user = use.operation
                    if user in target:
                        dest.add(target[user])
                        continue
                    ub = user.parent_block()
                    u = cfg.index.get(ub) if ub is not None else None
                    if u is None or lp.contains(u):
                        dest.add(-1)
                        continue
                    doms = [e for e in exits if dom.dominates(e, u)]
                    dest.update(doms or [-1])
            if len(dest) != 1 or -1 in dest:
                continue
            e = dest.pop()
            if all(dom.dominates(b, p) for p in cfg.preds[e]):
                target[op] = e
    out: list[tuple[int, list[Operation]]] = []
    position = {op: i for i, op in enumerate(
        o for b in cfg.rpo if lp.contains(b) for o in cfg.blocks[b].ops)}
    for e in exits:
        ops = sorted((op for op in target if target[op] == e), key=position.__getitem__)
        if not ops:
            continue
        block: Block = cfg.blocks[e]
        first = block.first_op
        for op in ops:
            op.detach()
            if first is None:
                block.add_op(op)
            else:
                block.insert_op_before(op, first)
        out.append((e, ops))
    return out


def sink_function(func: Operation) -> list[Sunk]:
    """Sink what :mod:`this module <passes.hoist_invariants.sink>` allows,
    innermost loops first (an instruction sunk into an enclosing loop may
    leave that one too); returns one record per loop and exit."""
    cfg = CFG.compute(func)
    dom = DominatorTree(cfg)
    li = LoopInfo(cfg, dom)
    out: list[Sunk] = []
    for lp in li.innermost_first():
        for e, ops in _sink_loop(lp, li, cfg, dom):
            out.append(Sunk(lp.header, e, len(ops)))
    return out


__all__ = ["Sunk", "sink_function"]
