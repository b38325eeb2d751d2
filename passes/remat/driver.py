"""The iterative driver of ``ori-remat`` (seed 002, "Main Algorithm",
sub_1CE7DD0) for one function:

1. measure live-in per block and the max live-in (``dump-remat >= 2``:
   ``Block ^bbN: live-in = M``), and the register target (:mod:`.target`);
2. at most five rounds while the max live-in exceeds the target: the
   *hot* blocks are those whose live-in exceeds the target; the candidates
   are the R values live-in to every hot block (the seed's intersection);
   with ``do-remat=3`` (full) the values live-in to the worst block follow
   them; each is checked for rematerializability (:mod:`.chain`), priced
   (:mod:`.cost`), the cheapest are selected for a reduction of ``max
   live-in - target`` registers, at most ``remat-max-live-limit`` per round,
   and cloned (:mod:`.executor`);
3. the round is kept when the max live-in went down and the max live did
   not go up; otherwise the function is restored as it was before the
   round (a remark says so) and the loop ends.

The seed's intersection "across all blocks" would be empty in every kernel
(the entry block has no live-in), so ori intersects the blocks above the
target -- the blocks the reduction is for.  The load phase
(:func:`load_phase`, ``remat-load``) runs the same rounds with read-only
loads allowed in the chains and ``dump-remat-load`` as the dump level.
"""

from __future__ import annotations

from dataclasses import dataclass

from xdsl.ir import Operation

from ori_dialect.analysis.dominators import DominatorTree
from ori_dialect.analysis.loops import LoopInfo
from ori_dialect.ops.func import FuncOp
from passes.remat.chain import Availability, build_chain, use_sites
from passes.remat.cost import Candidate, price, select
from passes.remat.executor import Memo, execute, sweep
from passes.remat.knobs import RematKnobs
from passes.remat.measure import LiveIn, measure
from passes.remat.report import Report, label

MAX_ITERATIONS = 5
"""The seed's bound on the main loop's rounds (sub_1CE7DD0)."""


@dataclass
class State:
    """What the driver knows of one function between rounds."""

    info: LiveIn
    target: int


def restore(func: FuncOp, snapshot: FuncOp) -> None:
    """Give ``func`` the body of ``snapshot`` (a clone made before a round)."""
    region = func.regions[0]
    blocks = list(region.blocks)
    for b in blocks:
        region.detach_block(b)
    for b in blocks:
        for op in b.ops:
            op.drop_all_references()
    for b in blocks:
        b.erase(safe_erase=False)
    snapshot.regions[0].move_blocks(region)


def candidates(func: FuncOp, st: State, k: RematKnobs, rep: Report, *,
               loads: bool) -> list[Candidate]:
    """Every candidate of this round, priced (refused ones keep their reason)."""
    info = st.info
    num = info.liveness.numbering
    names = num.names()
    hot = info.hot_blocks(st.target)
    pool = info.intersection(hot)
    if k.do_remat >= 3 or loads:
        seen = set(pool)
        pool += [v for v in info.live_in_ids(info.worst) if v not in seen]
    index = info.cfg.index
    loops = LoopInfo(info.cfg, DominatorTree(info.cfg))
    avail = Availability(info)
    depth = 1 if k.do_remat == 1 else k.max_recurse_depth
    out: list[Candidate] = []
    for vid in pool:
        v = num.values[vid]
        c = Candidate(v, vid, label(names[vid]), info.width(vid), [])
        out.append(c)
        owner = v.owner
        def_block = owner.parent_block() if isinstance(owner, Operation) else None
        if def_block is None:
            c.refusal = f"{c.name} is a block argument"
            continue
        sites = use_sites(v, def_block, info)
        if isinstance(sites, str):
            c.refusal = sites
            continue
        c.sites = sites
        chain = build_chain(v, sites, avail, depth=depth, loads=loads, moves=k.remat_move)
        if isinstance(chain, str):
            c.refusal = chain
            continue
        c.chain = chain
        price(c, index[def_block], loops, k)
    for c in out:
        if c.chain is None:
            rep.dump_line(3, f"Candidate {c.name}: not rematerializable: {c.refusal}")
            continue
        rep.dump_line(4, f"{c.name}: Total pull-in cost = {c.cost} "
                         f"(base {c.base} x use factor {c.factor})")
        if c.refusal is not None:
            rep.dump_line(3, f"Candidate {c.name}: rejected: {c.refusal}")
    return out


def dump_blocks(info: LiveIn, rep: Report) -> None:
    if rep.at(2):
        for b in info.cfg.rpo:
            rep.line(f"Block ^bb{b}: live-in = {info.counts[b]}")


def rounds(func: FuncOp, st: State, k: RematKnobs, rep: Report, *, loads: bool) -> None:
    """At most :data:`MAX_ITERATIONS` rounds while the max live-in exceeds
    the target; ``st`` is updated after each kept round."""
    what = "load rematerialization" if loads else "rematerialization"
    for it in range(1, MAX_ITERATIONS + 1):
        info = st.info
        if info.max_live_in <= st.target:
            rep.dump_line(1, f"Iteration {it}: max live-in = {info.max_live_in} <= target "
                             f"{st.target}: done")
            return
        dump_blocks(info, rep)
        need = min(info.max_live_in - st.target, k.remat_max_live_limit)
        cands = candidates(func, st, k, rep, loads=loads)
        chosen = select(cands, need)
        if not chosen:
            rep.dump_line(1, f"Iteration {it}: max live-in = {info.max_live_in}, target "
                             f"{st.target}: no candidate")
            return
        snapshot = func.clone()
        dom = DominatorTree(info.cfg)
        originals: list[Operation] = []
        made: list[tuple[Candidate, list[str]]] = []
        memo: Memo = {}
        for c in chosen:
            assert c.chain is not None
            rep.dump_line(3, f"Candidate {c.name}: selected (cost {c.cost})")
            clones = execute(c, info.cfg.blocks, dom, memo=memo)
            originals.extend(c.chain.ops)
            made.append((c, [f"{x.name} in ^bb{x.block}" for x in clones]))
        sweep(originals)
        new = measure(func)
        if new.max_live_in >= info.max_live_in or new.max_live > info.max_live:
            restore(func, snapshot)
            st.info = measure(func)
            msg = (f"{what} round {it} undone: max live-in {info.max_live_in} -> "
                   f"{new.max_live_in}, max live {info.max_live} -> {new.max_live}")
            rep.dump_line(1, msg)
            rep.remark(msg)
            return
        for c, where in made:
            rep.counts["rematerialized"] += 1
            rep.counts["clones"] += len(where)
            rep.dump_line(3, f"{c.name}: " + ", ".join(where))
            rep.remark(f"rematerialized {c.name} (cost {c.cost}): " + ", ".join(where))
        rep.dump_line(1, f"Iteration {it}: max live-in = {info.max_live_in} -> "
                         f"{new.max_live_in}, target {st.target}")
        st.info = new


def load_phase(func: FuncOp, st: State, k: RematKnobs, rep: Report) -> None:
    """The load rematerialization sub-pass (sub_1CDE4D0): the same rounds
    with read-only loads allowed in the chains."""
    rep.phase = "load"
    try:
        rounds(func, st, k, rep, loads=True)
    finally:
        rep.phase = "main"


__all__ = ["MAX_ITERATIONS", "State", "candidates", "load_phase", "restore", "rounds"]
