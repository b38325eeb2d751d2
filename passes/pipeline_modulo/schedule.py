"""Iterative modulo scheduling (B. R. Rau, "Iterative Modulo Scheduling",
MICRO-27, 1994) of one loop's dependence graph.

Seed 001 ("Phase 4", Correction LOOP-09) says the II search and the stage
assignment belong to phase 24 and gives no algorithm for them; ori uses
Rau's: for II = MII, MII+1, ... try to place every op within a budget of
``budget_ratio x ops`` placement steps, highest ``HeightR`` first, at the
first cycle from its earliest start (the scheduled predecessors' times plus
latency minus ``II x distance``) to ``earliest + II - 1`` where its pipe has
a free slot in the modulo reservation table (MRT: row ``t mod II``, one
column per pipe, the pipe's width from the target as its capacity).  When
none is free the op takes its earliest cycle (or one after its previous
cycle) and evicts an op holding its row; successors whose dependences the
placement breaks are unscheduled too.

ori's one addition: *deadline* ops (the exit test and what it depends on in
the same iteration) must land in stage 0, so that the code generator knows
whether an iteration runs before it starts it -- nothing is executed
speculatively.  The loop branch reserves its pipe at row ``II - 1``.
"""

from __future__ import annotations

from dataclasses import dataclass

from passes.pipeline_modulo.ddg import LoopDDG


@dataclass(frozen=True)
class Schedule:
    ii: int
    times: tuple[int, ...]
    """Issue cycle of each op of iteration 0."""

    @property
    def stages(self) -> int:
        return max(self.times, default=0) // self.ii + 1

    def stage(self, i: int) -> int:
        return self.times[i] // self.ii

    def row(self, i: int) -> int:
        return self.times[i] % self.ii


def heights(ddg: LoopDDG, ii: int) -> list[int]:
    """Rau's HeightR: the longest ``latency - ii x distance`` path to the end
    of the graph (finite for ``ii`` >= RecMII)."""
    h = [0] * len(ddg.ops)
    for _ in range(len(ddg.ops) + 1):
        changed = False
        for e in ddg.edges:
            w = h[e.dst] + e.latency - ii * e.distance
            if w > h[e.src]:
                h[e.src] = w
                changed = True
        if not changed:
            break
    return h


def try_schedule(ddg: LoopDDG, ii: int, widths: tuple[int, ...], deadline: frozenset[int],
                 budget_ratio: int) -> Schedule | None:
    """One II's attempt; None when the budget runs out or a deadline op
    cannot start in stage 0."""
    n = len(ddg.ops)
    h = heights(ddg, ii)
    preds, succs = ddg.preds(), ddg.succs()
    times: list[int | None] = [None] * n
    prev: list[int | None] = [None] * n
    mrt: dict[tuple[int, int], list[int]] = {}
    reserved = {(ii - 1, ddg.branch_pipe): 1}

    def free(t: int, p: int) -> bool:
        row = (t % ii, p)
        return len(mrt.get(row, ())) + reserved.get(row, 0) < widths[p]

    unscheduled = set(range(n))
    budget = max(1, budget_ratio * n)
    while unscheduled:
        if budget == 0:
            return None
        budget -= 1
        op = max(unscheduled, key=lambda i: (h[i], -i))
        est = 0
        for e in preds[op]:
            t = times[e.src]
            if t is not None:
                est = max(est, t + e.latency - ii * e.distance)
        latest = est + ii - 1
        if op in deadline:
            if est > ii - 1:
                return None
            latest = min(latest, ii - 1)
        p = ddg.pipe[op]
        slot = next((t for t in range(est, latest + 1) if free(t, p)), None)
        if slot is None:
            last = prev[op]
            slot = est if last is None or est > last else last + 1
            if op in deadline and slot > ii - 1:
                slot = est
            row = (slot % ii, p)
            holders = mrt.get(row, [])
            if not holders:  # only the branch's reservation: the pipe is too narrow
                return None
            victims = [v for v in holders if v not in deadline] or holders
            victim = victims[0]
            holders.remove(victim)
            times[victim] = None
            unscheduled.add(victim)
        times[op] = slot
        prev[op] = slot
        unscheduled.discard(op)
        mrt.setdefault((slot % ii, p), []).append(op)
        for e in succs[op]:
            t = times[e.dst]
            if t is not None and e.dst != op and t < slot + e.latency - ii * e.distance:
                mrt[(t % ii, ddg.pipe[e.dst])].remove(e.dst)
                times[e.dst] = None
                unscheduled.add(e.dst)
    final = tuple(t for t in times if t is not None)
    assert len(final) == n
    return Schedule(ii, final)


def modulo_schedule(ddg: LoopDDG, mii: int, widths: tuple[int, ...], deadline: frozenset[int],
                    *, budget_ratio: int, max_ii: int, max_stages: int) -> Schedule | None:
    """The first II from ``mii`` to ``max_ii`` that schedules in at most
    ``max_stages`` stages (None: none).  A larger II shortens the schedule in
    stages, and with it the code and the values live across stages."""
    for ii in range(mii, max_ii + 1):
        s = try_schedule(ddg, ii, widths, deadline, budget_ratio)
        if s is not None and s.stages <= max_stages and verify_schedule(ddg, s, widths):
            return s
    return None


def verify_schedule(ddg: LoopDDG, s: Schedule, widths: tuple[int, ...]) -> bool:
    """Every dependence and every MRT capacity holds (a self-check)."""
    for e in ddg.edges:
        if s.times[e.dst] + s.ii * e.distance < s.times[e.src] + e.latency:
            return False
    use: dict[tuple[int, int], int] = {(s.ii - 1, ddg.branch_pipe): 1}
    for i, p in enumerate(ddg.pipe):
        k = (s.row(i), p)
        use[k] = use.get(k, 0) + 1
    return all(c <= widths[p] for (_, p), c in use.items())


__all__ = ["Schedule", "heights", "modulo_schedule", "try_schedule", "verify_schedule"]
