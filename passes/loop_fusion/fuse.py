"""Finding, checking and fusing a pair of adjacent single-block loops (the
seed's FindAdjacentPair, VerifyStructure, CheckDependencies and ApplyFusion,
on ori's SSA form).  See the package docstring for the criteria."""

from __future__ import annotations

from dataclasses import dataclass

from xdsl.ir import Block, Operation, SSAValue

from ori_dialect.ir.instruction import OriOp
from ori_dialect.ops.control import BraOp, PragmaOp
from passes.hoist_invariants.safety import may_alias
from passes.loop_unroll.ivs import IVInfo, Reject, analyze
from passes.loop_utils import const_u32, edge_args, is_pure, retarget_edge


@dataclass
class Candidate:
    b1: Block
    pre1: Block
    mid: Block
    b2: Block

    def term(self, b: Block) -> BraOp:
        t = b.last_op
        assert isinstance(t, BraOp)
        return t


def _self_loop(b: Block) -> BraOp | None:
    """``b``'s branch when ``b`` is a single-block do-while loop."""
    t = b.last_op
    if not isinstance(t, BraOp) or t.guard is None or t.fallthrough is None:
        return None
    succs = list(t.successors)
    return t if succs.count(b) == 1 else None


def _entries(b: Block) -> list[Block]:
    return [p for p in b.predecessors() if p is not b]


def next_loop(b1: Block) -> Candidate | str | None:
    """The loop right after the single-block loop ``b1`` (None: ``b1`` is no
    such loop; a string: why there is no adjacent pair in the seed's sense)."""
    t1 = _self_loop(b1)
    if t1 is None:
        return None
    succs = list(t1.successors)
    mid = succs[1 - succs.index(b1)]
    tm = mid.last_op
    b2 = None
    if isinstance(tm, BraOp):
        b2 = next((s for s in tm.successors if _self_loop(s) is not None and s is not b1), None)
    if b2 is None or not isinstance(tm, BraOp):
        return "no single-block loop follows its exit"
    if len(_entries(b1)) != 1:
        return "the first loop has several entries (run ori-loop-simplify)"
    if _entries(mid) != [b1]:
        return "the block between the loops is entered from elsewhere too"
    if tm.guard is not None:
        return "the second loop is guarded (its trip count may differ)"
    if _entries(b2) != [mid]:
        return "the second loop has several entries"
    return Candidate(b1, _entries(b1)[0], mid, b2)


def _body(b: Block) -> list[Operation]:
    return [op for op in b.ops if op is not b.last_op and not isinstance(op, PragmaOp)]


def _values(b: Block) -> set[SSAValue]:
    out: set[SSAValue] = set(b.args)
    for op in b.ops:
        out.update(op.results)
    return out


def _same(a: object, b: object) -> bool:
    ca, cb = const_u32(a), const_u32(b)
    return a is b or a == b or (ca is not None and ca == cb)


def same_trip_count(iv1: IVInfo, iv2: IVInfo) -> bool:
    """Both trip counts known and equal, or the same IV recurrence and test."""
    if iv1.trip_count is not None and iv2.trip_count is not None:
        return iv1.trip_count == iv2.trip_count
    return (iv1.step == iv2.step and iv1.cmp == iv2.cmp and iv1.unsigned == iv2.unsigned
            and iv1.test_next == iv2.test_next and _same(iv1.bound, iv2.bound)
            and _same(iv1.init, iv2.init))


def _blocks_order(op: Operation) -> str | None:
    if not isinstance(op, OriOp):
        return f"{op.name} is not an instruction"
    if op.IS_BARRIER:
        return f"barrier {op.name}"
    if op.WARP_COLLECTIVE or op.SIDE_EFFECTS:
        return f"{op.name} with side effects"
    return None


def check_pair(c: Candidate, budget: float | None) -> str | None:
    """Why the loops of ``c`` may not be fused (None: they may)."""
    for op in _body(c.mid):
        why = _blocks_order(op)
        if why is not None or not is_pure(op):
            return f"{why or op.name + ' is not pure'} between the loops"
    for b in (c.b1, c.b2):
        for op in _body(b):
            why = _blocks_order(op)
            if why is not None:
                return f"{why} in the {'first' if b is c.b1 else 'second'} loop"
    try:
        iv1 = analyze(c.b1, c.b1, {c.b1}, c.pre1)
        iv2 = analyze(c.b2, c.b2, {c.b2}, c.mid)
    except Reject as r:
        return f"trip count not analysable ({r.reason})"
    if not same_trip_count(iv1, iv2):
        return "the trip counts differ or cannot be shown equal"
    first = _values(c.b1) | set(c.mid.args)
    users = [*c.b2.ops, *c.mid.ops]
    for op in users:
        if any(v in first for v in op.operands):
            return "the second loop (or the code between) reads a value of the first"
    mem1 = [op for op in _body(c.b1) if isinstance(op, OriOp) and (op.MEM.reads or op.MEM.writes)]
    mem2 = [op for op in _body(c.b2) if isinstance(op, OriOp) and (op.MEM.reads or op.MEM.writes)]
    for x in mem1:
        for y in mem2:
            if x.MEM.writes or y.MEM.writes:
                w, r = (x, y) if x.MEM.writes else (y, x)
                if may_alias(w.SPACE, r.SPACE):
                    return f"memory dependence between {x.name} and {y.name}"
    size = len(_body(c.b1)) + len(_body(c.b2)) + 1
    if budget is not None and size > budget:
        return f"fused body of {size} instructions above perform-loop-fusion-budget={budget:g}"
    return None


def fuse(c: Candidate) -> None:
    """L2's body after L1's in L1's block, iterated by L1's exit test."""
    t1, t2 = c.term(c.b1), c.term(c.b2)
    tm = c.term(c.mid)
    back1 = list(t1.successors).index(c.b1)
    back2 = list(t2.successors).index(c.b2)
    exit2 = t2.successors[1 - back2]
    x1, e1 = edge_args(t1, back1), edge_args(t1, 1 - back1)
    x2, e2 = edge_args(t2, back2), edge_args(t2, 1 - back2)
    init2 = list(tm.edge_args(0))
    # the code between the loops runs first (it is pure and reads no L1 value)
    pterm = c.pre1.last_op
    assert pterm is not None
    for op in _body(c.mid):
        op.detach()
        c.pre1.insert_op_before(op, pterm)
    slot = list(c.term(c.pre1).successors).index(c.b1)
    retarget_edge(c.pre1, slot, c.b1, [*edge_args(c.term(c.pre1), slot), *init2])
    # L2's block arguments become L1's, its body moves behind L1's
    mapping: dict[SSAValue, SSAValue] = {}
    for a in c.b2.args:
        mapping[a] = c.b1.insert_arg(a.type, len(c.b1.args))
        a.replace_all_uses_with(mapping[a])
    for op in _body(c.b2):
        op.detach()
        c.b1.insert_op_before(op, t1)
    x2 = [mapping.get(v, v) for v in x2]
    e2 = [mapping.get(v, v) for v in e2]
    # values of the fused loop used after it leave through a new exit block
    inside = {c.b1, c.b2}
    outside: list[SSAValue] = [
        v for v in _values(c.b1)
        if any(u.operation.parent_block() not in inside and u.operation is not tm
               for u in v.uses)]
    region = c.b1.parent
    assert region is not None
    y = Block(arg_types=[v.type for v in (*e1, *e2, *outside)])
    y.add_op(BraOp(exit2, list(y.args[len(e1):len(e1) + len(e2)])))
    region.insert_block_after(y, c.b1)
    for a, ya in zip(c.mid.args, y.args[:len(e1)], strict=True):
        a.replace_all_uses_with(ya)
    for v, ya in zip(outside, y.args[len(e1) + len(e2):], strict=True):
        v.replace_uses_with_if(ya, lambda u: u.operation.parent_block() not in (c.b1, c.b2, y)
                               and u.operation is not tm)
    succs = [c.b1, y] if back1 == 0 else [y, c.b1]
    args = [[*x1, *x2], [*e1, *e2, *outside]]
    if back1 == 1:
        args.reverse()
    new = BraOp(succs[0], args[0], guard=t1.guard, guard_neg=t1.guard_neg is not None,
                fallthrough=succs[1], fallthrough_args=args[1])
    new.attributes.update(t1.attributes)
    c.b1.insert_op_before(new, t1)
    c.b1.erase_op(t1)
    for b in (c.b2, c.mid):
        for op in reversed(list(b.ops)):
            b.erase_op(op, safe_erase=False)
        region.erase_block(b, safe_erase=False)


__all__ = ["Candidate", "check_pair", "fuse", "next_loop", "same_trip_count"]
