"""Small CFG-editing helpers shared by the loop passes (seed 001 "Loop
Infrastructure Functions": edge splitting, preheader insertion, block cloning).

Edges are addressed as (block, successor slot) of an ``ori.bra`` terminator;
block arguments travel with the edge, so retargeting an edge keeps the
values it passes.
"""

from __future__ import annotations

from collections.abc import Sequence

from xdsl.dialects.builtin import IntegerAttr
from xdsl.ir import Block, Operation, OpResult, SSAValue

from ori_dialect.ir.instruction import OriInstruction
from ori_dialect.ir.registers import PredType
from ori_dialect.ops.control import BraOp
from ori_dialect.ops.integer import MovOp
from ori_dialect.ops.predicate import ISetPOp

_MASK = 0xFFFFFFFF


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


def const_u32(v: object) -> int | None:
    """The 32-bit constant ``v`` stands for: an integer immediate or the result
    of an unguarded ``ori.mov`` of one; None otherwise."""
    if isinstance(v, IntegerAttr):
        return v.value.data & _MASK
    if isinstance(v, int):
        return v & _MASK
    if isinstance(v, OpResult) and isinstance(v.op, MovOp) and v.op.guard is None:
        c = v.op.src("a")
        if isinstance(c, IntegerAttr):
            return c.value.data & _MASK
    return None


def signed_imm32(v: int) -> int:
    """``v`` as the signed 32-bit immediate with the same low 32 bits (the form
    ``make`` takes for a negative step or offset)."""
    v &= _MASK
    return v - (1 << 32) if v >= 1 << 31 else v


def compare_u32(cmp: str, unsigned: bool, a: int, b: int) -> bool:
    """``a CMP b`` on 32-bit values, as ``ISETP`` evaluates it."""
    if not unsigned:
        a = a - (1 << 32) if a >= 1 << 31 else a
        b = b - (1 << 32) if b >= 1 << 31 else b
    return {"lt": a < b, "le": a <= b, "gt": a > b, "ge": a >= b, "eq": a == b, "ne": a != b}[cmp]


def fold_isetp(p: SSAValue) -> bool | None:
    """The value of predicate ``p`` when it is the first result of an
    unguarded, unchained ``ori.isetp`` (``and`` with ``PT``) of two constants."""
    if not isinstance(p, OpResult) or p.index != 0 or not isinstance(p.op, ISetPOp):
        return None
    op = p.op
    if op.guard is not None or op.has_mod("ex") or op.mod("bop") != "and" or op.smod_map():
        return None
    c = op.src("c")
    if not (isinstance(c, PredType) and c.is_fixed):
        return None
    cmp = op.mod("cmp") or ""
    if cmp not in ("lt", "le", "gt", "ge", "eq", "ne"):
        return None
    a, b = const_u32(op.src("a")), const_u32(op.src("b"))
    if a is None or b is None:
        return None
    return compare_u32(cmp, op.mod("sign") == "u32", a, b)


def is_pure(op: Operation) -> bool:
    """An instruction whose only effect is its results (safe to delete unused)."""
    return (isinstance(op, OriInstruction) and bool(op.results) and not op.MEM.reads
            and not op.MEM.writes and not op.SIDE_EFFECTS and not op.IS_BARRIER
            and not op.WARP_COLLECTIVE)


def delete_dead(ops: Sequence[Operation]) -> None:
    """Erase the pure instructions of ``ops`` (in reverse order) whose results
    are unused; an erased one may make an earlier one dead."""
    for op in reversed(list(ops)):
        if op.parent_block() is not None and is_pure(op) and all(not r.uses for r in op.results):
            blk = op.parent_block()
            assert blk is not None
            blk.erase_op(op)


__all__ = ["compare_u32", "const_u32", "delete_dead", "edge_args", "fold_isetp", "forwarding_block",
           "is_pure", "make_uncond", "rebuild_bra", "retarget_edge"]
