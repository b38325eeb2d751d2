"""The outer loop of ``ori-remat-block`` for one function: seed 002
"Algorithm Overview" steps 1 *Measure* and 8 *Iterate* ("Repeat up to
nv-remat-max-times (default 10) iterations until max pressure is at or below
target, or no further progress is made").

One round: measure max live per block (:mod:`.maxlive`), stop when no
reachable block is above the target; find and classify the candidates
(:mod:`.search`), drop those over the cost limits and select the cheapest
(:mod:`.cost`); carry the selection out (:mod:`.execute`) and **measure
again** with ori's register-pressure analysis, every register file.  The
round stands only if no file's function maximum rose and the R registers
above the target, summed over the blocks, fell; otherwise it is undone and
its candidates are tried one at a time, cheapest first (at most
:data:`~passes.remat_block.knobs.SINGLES_PER_ROUND`), the first that
passes the same test standing for the round.  A round where none does ends
the loop.  This re-measurement is ori's (the seed's "Remat allocation
helper sub_2184890: Pressure simulation" is named, not described): it is why
max live never increases through the pass, whatever a view or a cost
promised.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass, field

from xdsl.ir import Operation

from ori_dialect.analysis.cfg import CFG
from ori_dialect.analysis.dominators import DominatorTree
from ori_dialect.analysis.liveness import Liveness
from ori_dialect.analysis.loops import LoopInfo
from ori_dialect.analysis.pressure import RegisterPressure
from ori_dialect.ir.registers import RegFile
from passes.remat_block.candidates import SPLIT, Candidate
from passes.remat_block.context import RoundContext
from passes.remat_block.cost import over_limit, select
from passes.remat_block.execute import Journal, execute
from passes.remat_block.exits import merge_unused, split_exits
from passes.remat_block.knobs import SINGLES_PER_ROUND, Knobs
from passes.remat_block.maxlive import compute_max_live
from passes.remat_block.search import find


@dataclass(frozen=True)
class Measure:
    """Function maxima of every file and the R registers above the target."""

    maxima: dict[RegFile, int]
    r_excess: int

    @property
    def r_max(self) -> int:
        return self.maxima.get(RegFile.R, 0)

    def improved_by(self, new: Measure) -> bool:
        return (all(new.maxima.get(f, 0) <= m for f, m in self.maxima.items())
                and new.r_excess < self.r_excess)


def measure(func: Operation, target: int, across: Sequence[int] | None = None) -> Measure:
    """The maxima of every file and the R excess over ``target``; with
    ``across`` (:func:`.maxlive.across_call_registers`) the R figures count
    the calls too."""
    rp = RegisterPressure.compute(func)
    maxima = dict(rp.max)
    if across is None:
        ex = sum(max(0, bm.get(RegFile.R, 0) - target) for bm in rp.block_max)
        return Measure(maxima, ex)
    ml = compute_max_live(Liveness(CFG.compute(func)), across)
    maxima[RegFile.R] = ml.max
    return Measure(maxima, sum(max(0, m - target) for m in ml.block_max))


@dataclass
class Report:
    """What the pass did to one function."""

    target: int
    before: int
    after: int = 0
    rounds: int = 0
    values: int = 0
    copies: int = 0
    log: list[str] = field(default_factory=list)
    """Dump lines (``dump-remat``), in order."""
    remarks: list[str] = field(default_factory=list)
    """One line per rematerialized value."""
    aimed: bool = False
    """The copies were aimed at an occupancy goal (``remat-for-occ``)."""
    missed: int | None = None
    """The occupancy goal whose copies were undone, not reached (the run
    reported is the one against the seed's target)."""

    @property
    def goal(self) -> int:
        """The max live the pass set out to reach: the occupancy goal it
        gave up, or its target."""
        return self.missed if self.missed is not None else self.target


def _sass(op: Operation) -> str:
    return getattr(type(op), "SASS", "") or op.name


def _remark(c: Candidate, made: int) -> str:
    """``made``: the instructions its copies added (``Journal.made``)."""
    op = c.sites[0].chain[-1]
    shared = sum(s.cloned for s in c.sites) - made
    what = f"{c.name} ({_sass(op)}, {c.width} register{'s' if c.width > 1 else ''})"
    if c.kind == SPLIT:
        where = f"split after the peak of ^bb{c.sites[0].block}"
    else:
        where = "pulled into " + ", ".join(f"^bb{s.block}" for s in c.sites)
    fused = [f"^bb{s.block}" for s in c.sites if s.fuse is not None]
    if fused:
        where += ", merged into the add that reads it in " + ", ".join(fused)
    count = f"{made} instruction{'s' if made != 1 else ''}"
    if shared > 0:
        count += f", {shared} shared with an earlier copy"
    return f"rematerialized {what}: {where} ({count}, cost {c.total})"


def remat_function(func: Operation, knobs: Knobs, target: int,
                   across: Sequence[int] | None = None) -> Report:
    """Run the rounds on ``func`` (module docstring); ``across``: the
    registers values live across its calls take
    (:func:`.maxlive.across_call_registers`), None where calls do not count."""
    cur = measure(func, target, across)
    rep = Report(target, cur.r_max)

    def dump(level: int, text: str) -> None:
        if knobs.dump >= level:
            rep.log.append(text)

    def accept(sel: list[Candidate], journal: Journal) -> None:
        rep.rounds += 1
        rep.values += len(sel)
        rep.copies += journal.cloned
        rep.remarks.extend(_remark(c, journal.made.get(c.value, 0)) for c in sel)

    # a copy for a value the loop's exit edge passes goes outside the loop
    exits = split_exits(func) if cur.r_max > target else []
    for rnd in range(knobs.max_times):
        cfg = CFG.compute(func)
        lv = Liveness(cfg)
        ml = compute_max_live(lv, across)
        dump(1, f"Max-Live-Function({cfg.num_blocks}) = {ml.max}")
        excess = {b: e for b, e in ml.excess(target).items() if cfg.is_reachable(b)}
        if not excess:
            dump(1, f"max live at or below the target {target}")
            break
        ctx = RoundContext(func, cfg, lv, LoopInfo(cfg, DominatorTree(cfg)), knobs)
        found = find(ctx, ml, target)
        for level, text in found.log:
            dump(level, text)
        good: list[Candidate] = []
        for c in found.good:
            why = over_limit(c, knobs)
            if why is not None:
                dump(3, f"{c.name}: not pulled: {why}")
                continue
            dump(4, f"{c.name}: {c.kind} into {len(c.sites)} block(s), cost {c.single} per "
                    f"copy, {c.total} in all")
            for s in c.sites:
                dump(4, f"  ^bb{s.block}: {' '.join(_sass(op) for op in s.chain)} "
                        f"(cost {s.cost} x {s.weight})")
            good.append(c)
        sel = select(good, excess)
        dump(1, f"Really Final Pull-in: {len(sel)} ({sum(c.total for c in sel)})")
        if not sel:
            break
        journal = execute(sel)
        new = measure(func, target, across)
        if cur.improved_by(new):
            accept(sel, journal)
            journal.commit()
            cur = new
            continue
        journal.rollback()
        dump(1, f"round {rnd + 1}: the pull-in does not lower max live; one candidate at a time")
        for c in sel[:SINGLES_PER_ROUND]:
            journal = execute([c])
            new = measure(func, target, across)
            if cur.improved_by(new):
                accept([c], journal)
                journal.commit()
                cur = new
                break
            journal.rollback()
            dump(3, f"{c.name}: undone (max live would not fall)")
        else:
            dump(1, "no further progress")
            break
    merge_unused(exits)
    rep.after = cur.r_max
    return rep


__all__ = ["Measure", "Report", "measure", "remat_function"]
