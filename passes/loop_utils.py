"""Small CFG-editing helpers shared by the loop passes (seed 001 "Loop
Infrastructure Functions": edge splitting, preheader insertion, block cloning).

Edges are addressed as (block, successor slot) of an ``ori.bra`` terminator;
block arguments travel with the edge, so retargeting an edge keeps the
values it passes.
"""

from __future__ import annotations

from collections.abc import Sequence

from xdsl.ir import Block, Operation, SSAValue

from ori_dialect.ops.control import BraOp


def edge_args(term: Operation, slot: int) -> list[SSAValue]:
    """The values ``term`` passes along successor ``slot``."""
    if isinstance(term, BraOp):
        return list(term.edge_args(slot))
    return []


def rebuild_bra(
    term: BraOp,
    succs: Sequence[Block] | None = None,
    args: Sequence[Sequence[SSAValue]] | None = None,
) -> BraOp:
    """Replace ``term`` by a branch of the same guard with new successors and/or
    edge arguments (None keeps the old ones).  Returns the new branch."""
    old_succs = list(term.successors)
    old_args = [list(term.edge_args(i)) for i in range(len(old_succs))]
    succs = list(succs) if succs is not None else old_succs
    args = [list(a) for a in args] if args is not None else old_args
    if term.guard is None:
        new = BraOp(succs[0], args[0])
    else:
        new = BraOp(
            succs[0],
            args[0],
            guard=term.guard,
            guard_neg=term.guard_neg is not None,
            fallthrough=succs[1],
            fallthrough_args=args[1],
        )
    new.attributes.update(term.attributes)
    block = term.parent_block()
    assert block is not None
    block.insert_op_before(new, term)
    block.erase_op(term)
    return new


def retarget_edge(block: Block, slot: int, dest: Block, args: Sequence[SSAValue] | None = None) -> BraOp:
    """Point successor ``slot`` of ``block``'s branch at ``dest`` (same
    arguments unless ``args`` is given)."""
    term = block.last_op
    assert isinstance(term, BraOp)
    succs = list(term.successors)
    all_args = [list(term.edge_args(i)) for i in range(len(succs))]
    succs[slot] = dest
    if args is not None:
        all_args[slot] = list(args)
    return rebuild_bra(term, succs, all_args)


def make_uncond(block: Block, slot: int) -> BraOp:
    """Replace ``block``'s branch by an unconditional branch along ``slot``."""
    term = block.last_op
    assert isinstance(term, BraOp)
    dest = term.successors[slot]
    args = list(term.edge_args(slot))
    new = BraOp(dest, args)
    new.attributes.update(term.attributes)
    block.insert_op_before(new, term)
    block.erase_op(term)
    return new


def forwarding_block(arg_types: Sequence[object], dest: Block) -> Block:
    """A new block with ``arg_types`` arguments that branches to ``dest``
    passing them on (a preheader or merged latch)."""
    b = Block(arg_types=list(arg_types))  # type: ignore[arg-type]
    b.add_op(BraOp(dest, list(b.args)))
    return b


__all__ = ["edge_args", "forwarding_block", "make_uncond", "rebuild_bra", "retarget_edge"]
