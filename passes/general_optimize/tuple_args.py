"""``tuple-args``: block arguments that an edge fills with the parts of one
64- or 128-bit value are carried as that value -- a phi of UNPACKs becomes
an UNPACK of a phi.

Seed 001 "Pipeline Placement" (phase 13 GeneralOptimizeEarly, "const fold +
copy prop (feeds loop analysis)") and issue 19 (no kernel gaining
registers): PTX carries an MMA accumulator fragment as scalar registers
(``.f32`` x 8 for ``wmma.mma.sync.m16n16k8``), so the importer's loop header
takes eight 32-bit arguments, PACKs them into the two quads the HMMAs read
at the top of every iteration, and the latch UNPACKs the HMMA results back
into eight values for the back edge; the blocks after the loop receive the
eight values the same way.  The allocator can place a PACK's parts in the
quad's registers or an UNPACK's, but not both across an edge, so the quads,
the scalars and the copies between them were all live: ``wmma_tf32_f32``
took 48 R registers, ptxas 32.

For a block ``B`` (not the entry) whose predecessors all end in ``ori.bra``:
when one edge passes, as arguments ``a1..ak`` of ``B`` (in any positions:
Triton's epilogue block takes two accumulators' words interleaved), all
the results ``p0..p(k-1)`` of one unguarded UNPACK of an R64/R128 value
``v``,

* ``B`` gets one argument ``t`` of ``v``'s type in place of ``a1..ak``;
* every edge that passes the results of one UNPACK of a value of that type
  there passes that value; any other edge passes a new ``PACK`` of its
  values, placed before its branch (for a loop's preheader edge: where the
  loop body held the PACK before);
* ``B`` starts with ``a1..ak = UNPACK t`` (in place after allocation), and
  a ``PACK`` of exactly those results in order reads ``t`` instead.

Repeated until nothing changes, so every block the values flow through
follows.  UNPACKs left without readers are swept with the dead code.
"""

from __future__ import annotations

from collections.abc import Callable, Sequence

from xdsl.ir import Attribute, Block, BlockArgument, Operation, SSAValue
from xdsl.rewriter import InsertPoint, Rewriter

from ori_dialect.analysis import LoopInfo
from ori_dialect.ir.instruction import OriInstruction
from ori_dialect.ir.metadata import Pipe
from ori_dialect.ir.registers import R64Type, R128Type
from ori_dialect.ops.control import BraOp
from ori_dialect.ops.integer import PackOp, UnpackOp
from passes.general_optimize.common import unguarded
from passes.loop_utils import const_u32, edge_args, rebuild_bra


def _incoming(block: Block, order: dict[Block, int]) -> list[tuple[BraOp, int]] | None:
    """The (branch, successor slot) edges into ``block``, in program order of
    their blocks; None when a predecessor does not end in ``ori.bra`` (or
    there is none)."""
    edges: list[tuple[BraOp, int]] = []
    for use in block.uses:
        term = use.operation
        if not isinstance(term, BraOp):
            return None
        edges.append((term, use.index))
    edges.sort(key=lambda e: (order.get(e[0].parent_block(), -1), e[1]))  # type: ignore[arg-type]
    return edges or None


def _unpacked(vals: Sequence[SSAValue]) -> UnpackOp | None:
    """The unguarded UNPACK of an R64/R128 value whose results, in order,
    are ``vals``."""
    op = vals[0].owner
    if not isinstance(op, UnpackOp) or not unguarded(op) or len(op.results) != len(vals):
        return None
    src = op.src_reg("a")
    if src is None or not isinstance(src.type, R64Type | R128Type):
        return None
    if any(v is not r for v, r in zip(vals, op.results, strict=True)):
        return None
    return op


def _accumulator(unpack: UnpackOp) -> bool:
    """``unpack`` splits an MMA result, or a value a block carries whole
    (an accumulator this rewrite already promoted): the values worth
    carrying as one.  A vector load's parts are read one by one (CUB's
    histogram items): carried as quads they cost moves at every guarded
    reload, 14 more registers in its sweep kernel."""
    src = unpack.src_reg("a")
    if isinstance(src, BlockArgument):
        return True
    owner = src.owner if src is not None else None
    return isinstance(owner, OriInstruction) and owner.PIPE is Pipe.MMA


def _positions(vals: Sequence[SSAValue], op: UnpackOp) -> list[int] | None:
    """Where each result of ``op``, in order, first appears among ``vals``
    (None if one does not)."""
    first: dict[SSAValue, int] = {}
    for i, v in enumerate(vals):
        first.setdefault(v, i)
    out = [first.get(r) for r in op.results]
    return None if any(i is None for i in out) else out  # type: ignore[return-value]


def _find_group(block: Block, edges: list[tuple[BraOp, int]]) -> tuple[list[int], Attribute] | None:
    """(argument positions, type): the first set of arguments of ``block``,
    each of them read, that an edge fills with all the results of one
    UNPACK, in any order (Triton's epilogue takes two accumulators'
    words interleaved)."""
    for term, slot in edges:
        vals = edge_args(term, slot)
        for v in vals:
            op = v.owner
            if not isinstance(op, UnpackOp) or v is not op.results[0]:
                continue
            pos = _positions(vals, op)
            if pos is None or _unpacked([vals[i] for i in pos]) is not op:
                continue
            if _accumulator(op) and all(block.args[i].uses for i in pos):
                src = op.src_reg("a")
                assert src is not None
                return pos, src.type
    return None


def _repacks_in_loop(block: Block, pos: list[int], typ: Attribute,
                     edges: list[tuple[BraOp, int]], same_loop: Callable[[Block, Block], bool]) -> bool:
    """Some edge into ``block`` from inside the innermost loop around it
    would need a new PACK: moves on every iteration of that loop."""
    for term, slot in edges:
        pred = term.parent_block()
        if pred is None or not same_loop(block, pred):
            continue
        vals = edge_args(term, slot)
        op = _unpacked([vals[i] for i in pos])
        src = op.src_reg("a") if op is not None else None
        if src is None or src.type != typ:
            return True
    return False


def _promote(block: Block, pos: list[int], typ: Attribute,
             edges: list[tuple[BraOp, int]]) -> None:
    group = [block.args[i] for i in pos]
    taken = set(pos)
    t = block.insert_arg(typ, len(block.args))
    new_args: dict[int, tuple[BraOp, dict[int, list[SSAValue]]]] = {}
    for term, slot in edges:
        vals = edge_args(term, slot)
        part = [vals[i] for i in pos]
        op = _unpacked(part)
        src = op.src_reg("a") if op is not None else None
        if src is None or src.type != typ:
            # constants go in as immediates: four copies of one zero
            # register would keep it live and still need four moves
            consts = [const_u32(v) for v in part]
            new_pack = PackOp.make([v if c is None else c for v, c in zip(part, consts, strict=True)],
                                   [typ])
            Rewriter.insert_op(new_pack, InsertPoint.before(term))
            src = new_pack.results[0]
        kept = [v for i, v in enumerate(vals) if i not in taken] + [src]
        new_args.setdefault(id(term), (term, {}))[1][slot] = kept
    for term, slots in new_args.values():
        rebuild_bra(term, None, [slots.get(s, list(term.edge_args(s)))
                                 for s in range(len(term.successors))])
    unpack = UnpackOp.make([t], [a.type for a in group])
    head = block.first_op
    assert head is not None
    Rewriter.insert_op(unpack, InsertPoint.before(head))
    for a, r in zip(group, unpack.results, strict=True):
        r.name_hint = a.name_hint
        a.replace_all_uses_with(r)
    for i in sorted(pos, reverse=True):
        block.erase_arg(block.args[i])
    _fold_repack(unpack, t)


def _fold_repack(unpack: UnpackOp, t: BlockArgument) -> None:
    """A PACK of exactly ``unpack``'s results, in order, reads ``t``."""
    parts = list(unpack.results)
    packs = {id(u.operation): u.operation for u in parts[0].uses
             if isinstance(u.operation, PackOp)}
    for pack in packs.values():
        assert isinstance(pack, PackOp)
        if not unguarded(pack) or pack.smod_map() or pack.results[0].type != t.type:
            continue
        if [v for _, v in pack.slot_values()] != parts:
            continue
        if t.name_hint is None:
            t.name_hint = pack.results[0].name_hint
        pack.results[0].replace_all_uses_with(t)
        pack.detach()
        pack.erase()


def promote_tuple_args(func: Operation) -> int:
    """Rewrite every eligible argument run of ``func`` (module docstring);
    returns how many were rewritten."""
    blocks = list(func.regions[0].blocks)
    order = {b: i for i, b in enumerate(blocks)}
    # promotion changes arguments and adds PACKs, never an edge: one loop forest
    li = LoopInfo.compute(func)

    def same_loop(b: Block, pred: Block) -> bool:
        """``pred`` is in the innermost loop around ``b``."""
        ib, ip = li.cfg.index.get(b), li.cfg.index.get(pred)
        lp = li.loop_for(ib) if ib is not None else None
        return lp is not None and ip in lp.blocks

    count = 0
    changed = True
    while changed:
        # a promoted block's UNPACK may fill an earlier block's arguments
        # (a loop header's from its latch): again until nothing changes
        changed = False
        for block in blocks[1:]:
            while block.args:
                edges = _incoming(block, order)
                found = _find_group(block, edges) if edges is not None else None
                if found is None or _repacks_in_loop(block, *found, edges, same_loop):
                    break
                assert edges is not None
                _promote(block, *found, edges)
                count += 1
                changed = True
    return count


__all__ = ["promote_tuple_args"]
