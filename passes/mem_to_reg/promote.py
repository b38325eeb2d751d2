"""Promotion of one frame slot to SSA values (seed 000's "execute promotion"
and "rewrite phis", sub_90FBA0 / sub_914B40).

The classic construction (Cytron et al., "Efficiently computing static
single assignment form", TOPLAS 1991), pruned by liveness:

1. block arguments (ori's phis) go at the iterated dominance frontier of
   the blocks that store to the slot, where the slot is live on entry (a
   load reads it before any store of the block, or it flows through);
2. a walk of the dominator tree renames: a store makes its value the
   slot's current one, a load's uses read the current one, and each edge
   into a block with an argument passes the current value;
3. the loads and stores go.

A load that no store reaches (the variable is read before it is written,
which PTX leaves undefined) reads an ``ori.undef`` made at the function's
entry.  A slot whose argument would have to sit on the entry block (it has
predecessors) or on the target of a ``BRX`` (which passes no arguments) is
not promoted (:class:`Blocked`).
"""

from __future__ import annotations

from xdsl.ir import SSAValue

from ori_dialect.analysis.cfg import CFG
from ori_dialect.analysis.dominators import DominatorTree
from ori_dialect.ir.registers import R32Type, R64Type, R128Type
from ori_dialect.ops.control import BraOp
from ori_dialect.ops.frame import FrameEnterOp
from ori_dialect.ops.func import FuncOp
from ori_dialect.ops.memory import LdlOp, StlOp
from ori_dialect.ops.special import UndefOp
from passes.loop_utils import rebuild_bra
from passes.mem_to_reg.slots import Slot

_TYPES = {4: R32Type, 8: R64Type, 16: R128Type}


class Blocked(Exception):
    """The slot cannot be promoted here (the message says why)."""


def frontiers(cfg: CFG, dom: DominatorTree) -> list[set[int]]:
    """Dominance frontier of every block (Cooper, Harvey and Kennedy's runner)."""
    df: list[set[int]] = [set() for _ in range(cfg.num_blocks)]
    for b in cfg.rpo:
        preds = [p for p in cfg.preds[b] if dom.is_reachable(p)]
        if len(preds) < 2:
            continue
        for p in preds:
            runner = p
            while runner != dom.idom_array[b]:
                df[runner].add(b)
                runner = dom.idom_array[runner]
    return df


def _live_in(cfg: CFG, slot: Slot, index: dict[LdlOp | StlOp, int]) -> set[int]:
    """Blocks on whose entry the slot's value may still be read."""
    exposed: set[int] = set()
    defs: set[int] = set()
    for b, blk in enumerate(cfg.blocks):
        for op in blk.ops:
            if op in index:
                if isinstance(op, LdlOp) and b not in defs:
                    exposed.add(b)
                elif isinstance(op, StlOp):
                    defs.add(b)
    live = set(exposed)
    work = list(exposed)
    while work:
        b = work.pop()
        for p in cfg.preds[b]:
            if p not in live and p not in defs:
                live.add(p)
                work.append(p)
    return live


def promote(func: FuncOp, slot: Slot, cfg: CFG, dom: DominatorTree,
            df: list[set[int]]) -> None:
    """Replace ``slot``'s loads and stores with SSA values (module docstring).
    ``cfg``/``dom``/``df`` describe the function as it is (promotion adds
    block arguments and branch operands, never blocks or edges)."""
    vtype = _TYPES[slot.size].unallocated()
    index = {op: i for i, op in enumerate(slot.accesses)}
    def_blocks = {cfg.index[op.parent_block()] for op in slot.accesses  # type: ignore[index]
                  if isinstance(op, StlOp)}
    live = _live_in(cfg, slot, index)
    phis: set[int] = set()
    work = list(def_blocks)
    while work:
        b = work.pop()
        for f in df[b]:
            if f not in phis and f in live:
                phis.add(f)
                work.append(f)
    entry = cfg.entry
    for b in phis:
        if b == entry:
            raise Blocked("its value would have to flow into the entry block")
        for p in cfg.preds[b]:
            if not isinstance(cfg.blocks[p].last_op, BraOp):
                raise Blocked(f"its value would have to reach a block through "
                              f"{cfg.blocks[p].last_op.name}, which passes no values")  # type: ignore[union-attr]
    args: dict[int, SSAValue] = {}
    for b in sorted(phis):
        blk = cfg.blocks[b]
        args[b] = blk.insert_arg(vtype, len(blk.args))
    undef: list[SSAValue] = []

    def undefined() -> SSAValue:
        if not undef:
            u = UndefOp.make([], [vtype])
            eb = cfg.blocks[entry]
            first = eb.first_op
            while isinstance(first, FrameEnterOp):
                first = first.next_op
            eb.insert_op_before(u, first) if first is not None else eb.add_op(u)
            undef.append(u.results[0])
        return undef[0]

    edge_vals: dict[tuple[int, int], SSAValue] = {}  # (pred, successor slot) -> value
    stack: list[tuple[int, SSAValue | None]] = [(entry, None)]
    while stack:
        b, cur = stack.pop()
        if b in args:
            cur = args[b]
        for op in list(cfg.blocks[b].ops):
            if op not in index:
                continue
            if isinstance(op, StlOp):
                cur = op.src("value")  # type: ignore[assignment]
            else:
                op.results[0].replace_all_uses_with(cur if cur is not None else undefined())
        for e in cfg.out_edges[b]:
            if e.dst in args:
                edge_vals[(b, e.slot)] = cur if cur is not None else undefined()
        for c in dom.children[b]:
            stack.append((c, cur))
    # unreachable blocks: their loads and their edges into argument blocks read undef
    for op in slot.accesses:
        if isinstance(op, LdlOp) and op.results[0].uses:
            op.results[0].replace_all_uses_with(undefined())
    for b in args:
        for e in cfg.in_edges[b]:
            if (e.src, e.slot) not in edge_vals:
                edge_vals[(e.src, e.slot)] = undefined()
    _add_edge_values(cfg, edge_vals)
    for op in slot.accesses:
        op.detach()
        op.erase()


def _add_edge_values(cfg: CFG, edge_vals: dict[tuple[int, int], SSAValue]) -> None:
    """Each branch passes its new values, appended per successor slot."""
    by_pred: dict[int, dict[int, SSAValue]] = {}
    for (p, s), v in edge_vals.items():
        by_pred.setdefault(p, {})[s] = v
    for p, vals in by_pred.items():
        term = cfg.blocks[p].last_op
        assert isinstance(term, BraOp)
        new_args = [list(term.edge_args(i)) for i in range(len(term.successors))]
        for s, v in vals.items():
            new_args[s].append(v)
        rebuild_bra(term, None, new_args)


__all__ = ["Blocked", "frontiers", "promote"]
