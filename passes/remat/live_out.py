"""NLO, live-out simplification (seed 002, "NLO -- Simplify Live Output",
sub_1CE10B0 + sub_1CDC1F0, ``simplify-live-out``): values that cross a block
boundary are replaced, in the blocks that use them, by something that keeps
fewer registers across it.  Two rewrites, named as the seed names the
instructions it makes:

* ``nloNewBit`` (level >= 1): a 64-bit value ``v`` live-out of its block
  ``D`` whose every use outside ``D`` is an ``ori.unpack`` of which only the
  low word is used (``v`` carries 32 bits of information downstream).  An
  ``ori.unpack v`` is placed at the end of ``D`` (before its terminator, so
  inside ``D`` nothing more is live than before) and the outer unpacks' low
  words read its low word: one register crosses the boundaries instead of
  two.  Always a gain: applied wherever it matches.
* ``nloNewAdd`` (level >= 2): a value ``v = op(...)`` of an ``ADDITIVE`` op
  (IADD3, LEA, IMAD: the address / offset arithmetic of the seed's "local
  add instruction to recompute an address/offset"), live-in to a block above
  the register target, whose register operands are all live just before
  ``v``'s first use in every block using it (exact availability, as the
  main loop's): the op is cloned there and ``v`` no longer crosses any
  boundary.  Level 2 takes an op with one register operand (a register plus
  a constant: ``base + offset``), level 3 and more any number.  A clone
  never sits in a loop deeper than ``v``'s definition (no extra dynamic
  work).  The seed's "inter-block propagation" (sub_1CDC1F0) is this
  rewrite applied to every block that uses ``v``.

Like the main loop's rounds, the nloNewAdd rewrites of a call are undone
when the max live-in does not go down or the max live goes up.
"""

from __future__ import annotations

from xdsl.ir import Block, Operation, SSAValue

from ori_dialect.analysis.dominators import DominatorTree
from ori_dialect.analysis.loops import LoopInfo
from ori_dialect.ir.instruction import OriInstruction
from ori_dialect.ir.registers import R64Type
from ori_dialect.ops.control import BraOp
from ori_dialect.ops.func import FuncOp
from ori_dialect.ops.integer import UnpackOp
from passes.remat.chain import Availability, Chain, clone_refusal, use_sites
from passes.remat.cost import Candidate
from passes.remat.driver import State, restore
from passes.remat.executor import execute, sweep
from passes.remat.knobs import RematKnobs
from passes.remat.measure import LiveIn, measure
from passes.remat.report import Report, label


def _new_bit_plan(info: LiveIn) -> list[tuple[Block, Operation, int, list[Operation]]]:
    """The 64-bit values to narrow (block, its terminator, value id, the
    UNPACKs outside the block), found before anything changes."""
    lv = info.liveness
    num = lv.numbering
    plan = []
    for b in info.cfg.rpo:
        block = info.cfg.blocks[b]
        term = block.last_op
        if term is None:
            continue
        for vid in lv.live_out(b):
            v = num.values[vid]
            if not isinstance(v.type, R64Type) or not isinstance(v.owner, Operation) \
                    or v.owner.parent_block() is not block:
                continue
            outer = [u.operation for u in v.uses if u.operation.parent_block() is not block]
            if not outer or any(not isinstance(o, UnpackOp) or any(r.uses for r in o.results[1:])
                                for o in outer):
                continue
            if any(isinstance(u.operation, BraOp) for u in v.uses):
                continue
            plan.append((block, term, vid, outer))
    return plan


def _new_bit(plan: list[tuple[Block, Operation, int, list[Operation]]], info: LiveIn,
             rep: Report) -> int:
    num = info.liveness.numbering
    names = num.names()
    for block, term, vid, outer in plan:
        v = num.values[vid]
        b = info.cfg.index[block]
        new = UnpackOp.make([v], [r.type for r in outer[0].results])
        new.results[0].name_hint = "nloNewBit"
        block.insert_op_before(new, term)
        for o in outer:
            o.results[0].replace_all_uses_with(new.results[0])
            blk = o.parent_block()
            assert blk is not None
            blk.erase_op(o)
        rep.nlo(f"nloNewBit: {label(names[vid])} live-out of ^bb{b} narrowed to its low word")
        rep.remark(f"nloNewBit: {label(names[vid])} crosses the boundaries of ^bb{b} as its "
                   "low word")
    return len(plan)


def _register_operands(op: Operation) -> int:
    return len(op.operands)


def _new_add(func: FuncOp, st: State, k: RematKnobs, rep: Report) -> int:
    info = st.info
    lv = info.liveness
    num = lv.numbering
    names = num.names()
    hot = info.hot_blocks(st.target)
    if not hot:
        return 0
    pool: list[int] = []
    seen: set[int] = set()
    for b in hot:
        for vid in info.live_in_ids(b):
            if vid not in seen:
                seen.add(vid)
                pool.append(vid)
    loops = LoopInfo(info.cfg, DominatorTree(info.cfg))
    avail = Availability(info)
    chosen: list[Candidate] = []
    values: set[SSAValue] = set()
    operands: set[SSAValue] = set()
    for vid in sorted(pool):
        v = num.values[vid]
        op = v.owner
        if not isinstance(op, OriInstruction) or not type(op).ADDITIVE:
            continue
        if clone_refusal(op, loads=False, moves=k.remat_move) is not None:
            continue
        regs = _register_operands(op)
        if regs == 0 or (k.simplify_live_out < 3 and regs > 1):
            continue
        d_blk = op.parent_block()
        assert d_blk is not None
        sites = use_sites(v, d_blk, info)
        if isinstance(sites, str):
            continue
        d0 = loops.depth(info.cfg.index[d_blk])
        if any(loops.depth(s.block) > d0 for s in sites):
            continue
        ok = all(avail.live_before(num.index[w], s.block, s.pos)
                 for w in op.operands for s in sites)
        # independent rewrites: no chosen value is another one's operand
        if not ok or any(w in values for w in op.operands) or v in operands:
            continue
        c = Candidate(v, vid, label(names[vid]), info.width(vid), sites,
                      Chain([op], set(op.operands)))
        chosen.append(c)
        values.update(op.results)
        operands.update(op.operands)
    if not chosen:
        return 0
    snapshot = func.clone()
    dom = DominatorTree(info.cfg)
    lines = []
    for c in chosen:
        clones = execute(c, info.cfg.blocks, dom, prefix="nloNewAdd")
        lines.append((c, ", ".join(f"^bb{x.block}" for x in clones)))
    sweep([c.value.owner for c in chosen if isinstance(c.value.owner, Operation)])
    new = measure(func)
    if new.max_live_in >= info.max_live_in or new.max_live > info.max_live:
        restore(func, snapshot)
        st.info = measure(func)
        rep.nlo(f"nloNewAdd undone: max live-in {info.max_live_in} -> {new.max_live_in}, "
                f"max live {info.max_live} -> {new.max_live}")
        rep.remark(f"live-out simplification undone: max live-in {info.max_live_in} -> "
                   f"{new.max_live_in}, max live {info.max_live} -> {new.max_live}")
        return 0
    for c, where in lines:
        rep.nlo(f"nloNewAdd: {c.name} recomputed in {where}")
        rep.remark(f"nloNewAdd: {c.name} recomputed in {where}")
    st.info = new
    return len(chosen)


def simplify_live_out(func: FuncOp, st: State, k: RematKnobs, rep: Report) -> int:
    """Run NLO at level ``simplify-live-out``; the count of simplified values."""
    plan = _new_bit_plan(st.info)
    # the copy to undo with is made only when there is something to undo:
    # copying every function for nothing was 40% of ori-remat (issue 20)
    snapshot = func.clone() if plan else None
    n = _new_bit(plan, st.info, rep)
    if n:
        assert snapshot is not None
        new = measure(func)
        if new.max_live > st.info.max_live:
            msg = f"nloNewBit undone: max live {st.info.max_live} -> {new.max_live}"
            restore(func, snapshot)
            new = measure(func)
            rep.nlo(msg)
            rep.remark(msg)
            n = 0
        st.info = new
    if k.simplify_live_out >= 2:
        n += _new_add(func, st, k, rep)
    rep.counts["live-out simplified"] += n
    return n


__all__ = ["simplify_live_out"]
