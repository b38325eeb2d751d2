"""The candidates of one round: seed 002 "Algorithm Overview" step 2
*Identify* ("For each block where pressure exceeds the target, enumerate
live-out registers"), the classification of :mod:`.candidates` with its
second chance, and what each candidate frees in each over-target block.

**Two views of a block** (``nv-remat-block-liveout-min-percentage``,
``nv-remat-check-internal-live``).  The seed enumerates the *live-out*
registers of an over-target block and counts each pulled register as one
register less there.  That view is right when the block's peak is made of
values that leave it; ori uses it for a block whose live-out registers are
at least ``nv-remat-block-liveout-min-percentage`` (70) percent of its max
live -- the "special consideration" of the seed's table.  Below it, or
always with ``nv-remat-check-internal-live=true`` ("check internal liveness
during MaxLive"), the block is seen from inside: the candidates are the
values live at its peak point (:mod:`.maxlive`), and a candidate counts for
the block only if, after the pull-in, neither it nor its copy is live
there.  In the live-out view a live-out value counts unless the block's own
branch passes it on (its copy would still be live out).  Either way the
pass measures again after the round (:mod:`.driver`), so a view that
promised too much costs a round, never a register.

**Split candidates** (bit 0) come from the peak in both views: values the
block defines before its peak and reads after it.
"""

from __future__ import annotations

from dataclasses import dataclass, field

from xdsl.ir import BlockArgument, SSAValue

from passes.remat_block.candidates import (
    PULL,
    SPLIT,
    Candidate,
    Classifier,
    Rejected,
    Waiting,
)
from passes.remat_block.context import RoundContext
from passes.remat_block.maxlive import AFTER, BEFORE, ENTRY, R_FILE, MaxLive, Peak


@dataclass
class OverTarget:
    """An over-target block and its candidates (value, kind)."""

    block: int
    max_live: int
    excess: int
    live_out: int
    """Registers live out of the block."""
    internal: bool
    peak: Peak | None
    candidates: list[tuple[SSAValue, str]] = field(default_factory=list)


@dataclass
class Search:
    """What one round found."""

    blocks: list[OverTarget]
    good: list[Candidate]
    """Pullable candidates that free a register in some over-target block."""
    log: list[tuple[int, str]]
    """(dump level, line) in the order the seed prints them."""


def _point(kind: str, k: int) -> float:
    return -1 if kind == ENTRY else 2 * k + (1 if kind == AFTER else 0)


def live_after_pull(ctx: RoundContext, v: SSAValue, b: int, peak: Peak) -> bool:
    """Whether ``v`` (or its copy) is live at ``peak`` once pulled in."""
    if peak.kind == ENTRY:
        return False
    p = _point(peak.kind, peak.op_index)
    reads = [ctx.pos[op][1] for op, _ in ctx.uses_in(v).get(b, ())]
    if not reads:
        return False
    bd = ctx.def_block(v)
    if bd == b and not isinstance(v, BlockArgument):
        lo = 2 * ctx.pos[v.owner][1] + 1  # type: ignore[index]
    else:
        lo = 2 * min(reads)  # the copy goes right before the first read
    hi = 2 * max(reads)
    if ctx.passes_on_edge(b, v):
        hi += 1
    return lo <= p <= hi


def split_point(ctx: RoundContext, v: SSAValue, peak: Peak) -> bool:
    """Whether a split of ``v`` after ``peak`` frees its register there: ``v``
    is defined before the peak and not read at it."""
    if peak.kind == ENTRY or isinstance(v, BlockArgument):
        return False
    d = ctx.pos.get(v.owner)  # type: ignore[arg-type]
    if d is None or d[0] != peak.block or d[1] >= peak.op_index:
        return False
    if peak.kind == BEFORE:
        op = ctx.lv.numbering.ops[peak.block][peak.op_index]
        return v not in op.operands
    return True


def find(ctx: RoundContext, ml: MaxLive, target: int) -> Search:
    """Identify, classify (with the second chance) and measure the relief."""
    kn = ctx.knobs
    num = ctx.lv.numbering
    log: list[tuple[int, str]] = []

    def note(level: int, text: str) -> None:
        log.append((level, text))

    blocks: list[OverTarget] = []
    for b, ex in sorted(ml.excess(target).items()):
        if not ctx.cfg.is_reachable(b):
            continue
        out = [i for i in ctx.lv.live_out_array(b).tolist() if num.file[i] == R_FILE]
        regs = sum(int(num.width[i]) for i in out)
        internal = kn.check_internal_live or regs * 100 < kn.liveout_min_percentage * ml.block_max[b]
        peak = ml.peak(b) if internal or kn.local else None
        ob = OverTarget(b, ml.block_max[b], ex, regs, internal, peak)
        where = f", peak at {peak}" if internal and peak is not None else ""
        note(2, f"^bb{b}: Max-Live = {ml.block_max[b]}, live-out = {regs}{where}")
        seen: set[tuple[SSAValue, str]] = set()

        def add(v: SSAValue, kind: str, ob: OverTarget = ob,
                seen: set[tuple[SSAValue, str]] = seen) -> None:
            if (v, kind) not in seen:
                seen.add((v, kind))
                ob.candidates.append((v, kind))

        if peak is not None:
            for i in sorted(peak.live):
                v = num.values[i]
                if kn.local and split_point(ctx, v, peak):
                    add(v, SPLIT)
                elif internal and kn.pull:
                    add(v, PULL)
        if not internal and kn.pull:
            for i in out:
                add(num.values[i], PULL)
        blocks.append(ob)

    cl = Classifier(ctx, [v for ob in blocks for v, _ in ob.candidates])
    waiting: list[tuple[SSAValue, str, tuple[int, int] | None]] = []
    order: list[tuple[SSAValue, str]] = []
    for ob in blocks:
        for v, kind in ob.candidates:
            if (v, kind) in cl.verdict:
                continue
            at = (ob.block, ob.peak.op_index) if kind == SPLIT and ob.peak is not None else None
            r = cl.classify(v, kind, at)
            order.append((v, kind))
            if isinstance(r, Waiting):
                waiting.append((v, kind, at))
            elif isinstance(r, Rejected):
                note(3, f"{ctx.name(v)}: " + (
                    "MULTIDEF" if r.reason == "MULTIDEF" else f"not pullable: {r.reason}"))
    good0 = sum(isinstance(cl.verdict[k], Candidate) for k in order)
    note(2, f"After pre-check, {good0} good candidates, {len(waiting)} given second-chance")
    if kn.second_chance and waiting:
        added = 0
        # each waiting candidate is visited once per sweep, at most as many
        # sweeps as there were waiting candidates (the seed's visit count)
        for _ in range(len(waiting)):
            still = []
            for v, kind, at in waiting:
                r = cl.classify(v, kind, at)
                if isinstance(r, Waiting):
                    still.append((v, kind, at))
                elif isinstance(r, Candidate):
                    added += 1
                else:
                    note(3, f"{ctx.name(v)}: not pullable: {r.reason}")
            if len(still) == len(waiting):
                break
            waiting = still
        note(2, f"ADD {added} candidates from second-chance")
    for v, kind, _ in waiting:
        w = cl.verdict[(v, kind)]
        if isinstance(w, Waiting):
            names = ", ".join(sorted(ctx.name(x) for x in w.on))
            why = (f"waits for {names}" + ("" if kn.second_chance else " (second chance off)"))
            cl.verdict[(v, kind)] = Rejected(why)
            note(3, f"{ctx.name(v)}: not pullable: {why}")

    good: list[Candidate] = []
    picked: set[tuple[SSAValue, str]] = set()
    for ob in blocks:
        n = 0
        for v, kind in ob.candidates:
            c = cl.verdict.get((v, kind))
            if not isinstance(c, Candidate):
                continue
            if not _relieves(ctx, c, ob):
                note(3, f"{c.name}: frees no register in ^bb{ob.block} " + (
                    "at its peak" if ob.internal else "(its branch passes it on)"))
                continue
            c.relieves[ob.block] = c.width
            n += 1
            if (v, kind) not in picked:
                picked.add((v, kind))
                good.append(c)
        note(2, f"^bb{ob.block}: Pullable: {n}")
    note(2, f"Total Pullable before considering cost: {len(good)}")
    return Search(blocks, good, log)


def _relieves(ctx: RoundContext, c: Candidate, ob: OverTarget) -> bool:
    if c.kind == SPLIT:
        return True  # split_point checked it
    if ob.internal:
        assert ob.peak is not None
        return not live_after_pull(ctx, c.value, ob.block, ob.peak)
    return not ctx.passes_on_edge(ob.block, c.value)


__all__ = ["OverTarget", "Search", "find", "live_after_pull", "split_point"]
