"""Spilling block arguments ("memory phis"), for both strategies.

**Why.**  The point model (:mod:`.points`) counts every argument of a block
at its entry, and every edge operand of a branch at the branch: a value that
reaches a block through an argument needs a register there even when it is
spilled (:func:`.spill.spill_value` stores it *after* its definition, which
for an argument is the top of its block).  A loop that carries more values
than the budget holds -- issue 13's kernel keeps 24 doubles (48 R) around a
loop under ``.maxnreg 40`` -- therefore failed in both strategies with
"nothing live there can be spilled", although ptxas compiles it by spilling
(seed 000 "Spilling Overview": spilling is what happens when the fat-point
scan finds no register within the budget; nothing there exempts the values a
loop carries).  Braun & Hack (CC 2009, section 4.2) spill such a phi as a
*memory phi*: its value travels along the edges in memory, not in a register.

**How** (:func:`spill_block_arg`).  For an argument ``a`` of block ``S``:

* ``R`` values: each predecessor stores its edge operand to ``a``'s slot
  (``STL``, or ``STS`` in the SMEM mode, tagged ``ori.spill_value``)
  right before its branch and no longer passes it; ``a`` is removed from
  ``S`` and every use of it reloads the slot -- the shared spiller's reload
  (:mod:`.spill`).  An edge operand that is itself such a reload is moved
  down to its store (:func:`_sink_reload`), so a memory-to-memory edge
  copy holds one register at a time.  The slot's memory liveness and the allocation checker's
  slot dataflow see one tag stored on every path into ``S``.
* ``P``/``UP``/``UR`` (32-bit)/``B`` values take the home path of
  :mod:`.spill`: each predecessor makes the GPR home (``P2R``, ``MOV``,
  ``BMOV.32``, tagged ``ori.spill_home``) right before its branch and passes
  the home instead; the argument becomes an R argument and every use reloads
  from it (``R2P``, ``R2UR``, ``BMOV.32``).  When R is full too, that R
  argument becomes a memory phi in a later round.  64-bit UR arguments are
  left alone (no ori op passes one around a loop).

**When an argument may be spilled this way** (the lost-copy problem): the
store in a predecessor ``p`` overwrites ``a``'s slot before ``p`` branches,
so the old value of ``a`` must be dead there -- ``a`` is not live out of any
predecessor (edge operands included, which also rules out swaps of two
arguments in one round).  Each predecessor reaches ``S`` through one
successor slot (two slots to ``S`` could pass two values to one slot).

**Which arguments** (:func:`spill_phis`, called by both drivers before
allocating): only where the registers a point *cannot* spill exceed the
file's allowed registers -- at a block's entry its arguments and the values
its first instruction reads, at a predecessor's branch the edge operands,
the branch's own operands and the results of the instruction before it.
Everything else live there is left to the strategy's own spiller, so a
function that fits is not touched.  Arguments are taken furthest first use
first (Belady, as :mod:`.ssa_spill` evicts), until the point fits; rounds
repeat (homes of P/UR/B arguments raise the R count) until no point is over
or no eligible argument is left -- then the strategy's diagnostic stands.
"""

from __future__ import annotations

from collections.abc import Iterable

from xdsl.dialects.builtin import IntegerAttr, i32
from xdsl.ir import Block, BlockArgument, Operation, OpResult, SSAValue

from ori_dialect.analysis.cfg import CFG
from ori_dialect.analysis.liveness import FILES, Liveness, edge_operands
from ori_dialect.ir.registers import BarrierType, OriRegisterType, R32Type, RegFile, UR32Type
from ori_dialect.ops.control import BraOp
from ori_dialect.ops.func import FuncOp
from ori_dialect.ops.integer import MovOp
from ori_dialect.ops.predicate import P2ROp, R2POp
from ori_dialect.ops.regmove import BMovOp, R2UROp
from passes.loop_utils import rebuild_bra
from passes.regalloc.spill import SmemSpill, mem_reload_ops, mem_store_ops, next_tag
from passes.regalloc.spill_marks import (
    HOME_ATTR,
    PHI_ATTR,
    SPILL_ATTR,
    SPILL_LOADS,
    SPILL_STORES,
    can_spill,
    is_spill_reload,
    spill_tag,
)

MAX_ROUNDS = 64


def _pred_slots(blk: Block) -> list[tuple[BraOp, int]] | None:
    """The (branch, successor slot) of every edge into ``blk``; ``None`` when
    an edge is not an ``ori.bra`` or one branch reaches ``blk`` twice."""
    out: list[tuple[BraOp, int]] = []
    for p in blk.predecessors():
        term = p.last_op
        if not isinstance(term, BraOp):
            return None
        slots = [i for i, s in enumerate(term.successors) if s is blk]
        if len(slots) != 1:
            return None
        out.append((term, slots[0]))
    return out


def _phi_spillable(a: BlockArgument) -> bool:
    """Files and types :func:`spill_block_arg` handles."""
    t = a.type
    if not isinstance(t, OriRegisterType) or not can_spill(a):
        return False
    f = t.REG_FILE
    if f is RegFile.UR:
        return t.BITS == 32
    return f in (RegFile.R, RegFile.P, RegFile.UP, RegFile.B)


def _drop_edge_operand(term: BraOp, slot: int, idx: int, new: SSAValue | None) -> BraOp:
    """Rebuild ``term`` without (``new`` None) or with ``new`` in place of
    operand ``idx`` of successor ``slot``."""
    args = [list(term.edge_args(i)) for i in range(len(term.successors))]
    if new is None:
        del args[slot][idx]
    else:
        args[slot][idx] = new
    return rebuild_bra(term, None, args)


def spill_block_arg(a: BlockArgument, tag: int, smem: SmemSpill | None = None) -> None:
    """Turn argument ``a`` into a memory phi (R) or a home phi (the other
    files); module docstring.  The caller has checked eligibility."""
    blk = a.block
    idx = a.index
    edges = _pred_slots(blk)
    assert edges is not None
    t = a.type
    assert isinstance(t, OriRegisterType)
    users: list[Operation] = []
    for use in list(a.uses):
        if use.operation not in users:
            users.append(use.operation)
    spill = {SPILL_ATTR: IntegerAttr(tag, i32)}
    if t.REG_FILE is RegFile.R:
        for term, slot in edges:
            pb = term.parent_block()
            assert pb is not None
            o = term.edge_args(slot)[idx]
            _sink_reload(o, term)
            ops = mem_store_ops(o, tag, smem)
            # the operand is not spilled by this store (spill_marks.py)
            ops[-1].attributes[PHI_ATTR] = IntegerAttr(1, i32)
            for op in ops:
                pb.insert_op_before(op, term)
            _drop_edge_operand(term, slot, idx, None)
        for user in users:
            ops = mem_reload_ops(t, tag, smem, user)
            ub = user.parent_block()
            assert ub is not None
            for op in ops:
                ub.insert_op_before(op, user)
            _replace(user, a, ops[-1].results[0])
        blk.erase_arg(a)
        return
    home = blk.insert_arg(R32Type.unallocated(), idx)
    for term, slot in edges:
        pb = term.parent_block()
        assert pb is not None
        o = term.edge_args(slot)[idx]
        attrs = {HOME_ATTR: IntegerAttr(tag, i32), PHI_ATTR: IntegerAttr(1, i32)}
        hop: Operation
        if t.REG_FILE in (RegFile.P, RegFile.UP):
            hop = P2ROp.make([R32Type.fixed(), 1, o], attributes=attrs)
        elif t.REG_FILE is RegFile.B:
            hop = BMovOp.make([o], [R32Type.unallocated()], attributes=attrs)
        else:
            hop = MovOp.make([o], [R32Type.unallocated()], attributes=attrs)
        pb.insert_op_before(hop, term)
        _drop_edge_operand(term, slot, idx, hop.results[0])
    for user in users:
        rel: Operation
        if t.REG_FILE in (RegFile.P, RegFile.UP):
            rel = R2POp.make([home, 1], [type(t).unallocated()], attributes=dict(spill))
        elif t.REG_FILE is RegFile.B:
            rel = BMovOp.make([home], [BarrierType.unallocated()], attributes=dict(spill))
        else:
            rel = R2UROp.make([home], [UR32Type.unallocated()], attributes=dict(spill))
        ub = user.parent_block()
        assert ub is not None
        ub.insert_op_before(rel, user)
        _replace(user, a, rel.results[0])
    blk.erase_arg(a)


def _sink_reload(o: SSAValue, term: BraOp) -> None:
    """Move the reload defining edge operand ``o`` down to ``term`` (where
    the store into the argument's slot goes).

    When the arguments of a block and of its successor become memory phis in
    one round, the reloads of the first are all inserted before the branch
    before the stores of the second are: every reload of the edge's
    memory-to-memory copy would be live at once, one register each, where
    one register suffices (issue 13: a function at its minimum limit, with
    two registers, failed on a four-argument loop exit).  The reload stays
    where it is when a store to its own slot lies between (a swap of two
    memory phis: the load must read the old value)."""
    if not is_spill_reload(o) or not isinstance(o, OpResult) or sum(1 for _ in o.uses) != 1:
        return
    ld = o.op
    if not isinstance(ld, SPILL_LOADS) or ld.parent_block() is not term.parent_block():
        return
    tag = spill_tag(ld)
    nxt = ld.next_op
    while nxt is not None and nxt is not term:
        if isinstance(nxt, SPILL_STORES) and spill_tag(nxt) == tag:
            return
        nxt = nxt.next_op
    if nxt is None:
        return
    ld.detach()
    blk = term.parent_block()
    assert blk is not None
    blk.insert_op_before(ld, term)


def _replace(user: Operation, old: SSAValue, new: SSAValue) -> None:
    for k, o in enumerate(user.operands):
        if o is old:
            user.operands[k] = new


def _pick(lv: Liveness, limits: dict[RegFile, int], files: set[RegFile]) -> list[BlockArgument]:
    """Arguments to spill this round (module docstring): per point over its
    file's limit with unspillable registers, eligible arguments furthest
    first use first until the estimated excess is covered."""
    cfg = lv.cfg
    num = lv.numbering
    width = num.width.tolist()
    file = num.file.tolist()
    live_out = lv.live_out_lists()
    nf = len(FILES)
    lim = [limits.get(f, 1 << 30) for f in FILES]

    def count(ids: Iterable[int]) -> list[int]:
        c = [0] * nf
        for v in set(ids):
            c[file[v]] += width[v]
        return c

    # eligibility of each argument, and its first use in its block
    eligible: dict[int, bool] = {}
    first_use: dict[int, int] = {}
    for b, blk in enumerate(cfg.blocks):
        if not num.arg_ids[b] or not cfg.preds[b]:
            continue
        ok_edges = _pred_slots(blk) is not None
        for a in num.arg_ids[b]:
            val = num.values[a]
            assert isinstance(val, BlockArgument)
            eligible[a] = (
                ok_edges and FILES[file[a]] in files and _phi_spillable(val)
                and a not in num.claimed  # held by an HGMMA in flight (inflight.py)
                and not any(a in set(live_out[p]) for p in cfg.preds[b])
            )
        for k, uses in enumerate(num.op_uses[b]):
            for v in uses:
                first_use.setdefault(v, k)
    picked: list[int] = []
    taken: set[int] = set()

    def take(cands: list[int], f: int, excess: int) -> None:
        cands = [a for a in cands if eligible.get(a) and file[a] == f and a not in taken]
        cands.sort(key=lambda a: (-first_use.get(a, 1 << 30), -width[a], -a))
        for a in cands:
            if excess <= 0:
                break
            taken.add(a)
            picked.append(a)
            excess -= width[a]

    for b in range(cfg.num_blocks):
        ops = num.ops[b]
        args = list(num.arg_ids[b])
        if args:
            first = num.op_uses[b][0] if ops else []
            c = count([*args, *first])
            for f in range(nf):
                if FILES[f] in files and c[f] > lim[f]:
                    take(args, f, c[f] - lim[f])
        if ops and ops[-1].successors:
            term = ops[-1]
            eids: list[int] = []
            for slot in range(len(term.successors)):
                eids.extend(num.index[v] for v in edge_operands(term, slot) if v in num.index)
            pinned = [*eids, *num.op_uses[b][-1]]
            if len(ops) > 1:
                pinned.extend(num.op_defs[b][-2])
            c = count(pinned)
            for f in range(nf):
                if FILES[f] in files and c[f] > lim[f]:
                    succ_args = [
                        a for s in cfg.succs[b] for a in num.arg_ids[s]
                    ]
                    take(succ_args, f, c[f] - lim[f])
    return [num.values[a] for a in picked]  # type: ignore[misc]


def spill_phis(
    func: FuncOp,
    limits: dict[RegFile, int],
    files: Iterable[RegFile],
    smem: SmemSpill | None = None,
) -> int:
    """Spill block arguments until no block entry or branch needs more
    unspillable registers of a file than ``limits`` allows (or no eligible
    argument is left).  Returns the number of arguments spilled."""
    fs = set(files)
    done = 0
    for _ in range(MAX_ROUNDS):
        lv = Liveness(CFG.compute(func))
        picks = _pick(lv, limits, fs)
        if not picks:
            break
        tag = next_tag(func)
        for a in picks:
            spill_block_arg(a, tag, smem)
            tag += 1
            done += 1
    return done


__all__ = ["spill_block_arg", "spill_phis"]
