"""Cost limits and the greedy selection: seed 002 "Algorithm Overview" steps
5 *Cost analysis* (sub_2183E30) and 6 *Selection*, with the cost knobs of
"Machine-Level Knobs".

**Clone cost** (:func:`passes.remat_block.candidates.op_cost`): 1 per ALU,
float or conversion instruction, ``nv-remat-block-load-cost`` (10) per
constant-bank load, 0 for an instruction that emits nothing; each times the
registers of the value it defines ("double-wide register classes (size >
32) count as 2 for pressure purposes and have their cost doubled"; ori's
128-bit values count 4).  A copy's cost is the sum over its chain, less
the product that the one add reading the copy takes into its ``IMAD``
(ori, :func:`passes.remat_block.candidates.fusing_add`: that copy adds no
instruction).

**Loop factor.**  A copy placed ``d`` loop levels deeper than the original
definition runs about ``nv-remat-block-loop-cost-factor`` (20) to the
``d`` times as often: its cost is multiplied by that.

**Limits**, both per register the value frees (a 64-bit value frees two, so
its doubled cost meets the same limits as a 32-bit one):

* ``nv-remat-block-single-cost`` (10), "max cost per single live value
  pull-in": the dearest single copy;
* ``nv-remat-block-max-cost`` (100), "max total clone cost per live value
  reduction": all copies, each times its loop factor.

**Selection.**  "Sort candidates by cost (ascending). Greedily select the
cheapest candidates until pressure is reduced to target" -- the total cost,
ties by definition order.  A candidate is taken while some over-target
block it relieves still needs registers; it frees its width in every
over-target block it relieves.  ori adds one rule: a round takes no two
candidates of which one reads the other (directly or through a copy's
chain), nor two products that merge into one add, so that each copy reads
exactly what the round planned; the other
one waits for the next round (the seed iterates up to
``nv-remat-max-times`` anyway).  And one cleanup, as a greedy cover
needs: a pick whose blocks the picks after it relieve as well is dropped
again, the dearest first (wmma_u8_sat_shared: a cheap PACK copy taken
first, then five dearer ones that reached the target by themselves; two
loop instructions for nothing).  The seed's diagnostic "Really Final
Pull-in: <count> (<total_cost>)" reports the selection.
"""

from __future__ import annotations

from passes.remat_block.candidates import Candidate
from passes.remat_block.knobs import Knobs


def over_limit(c: Candidate, knobs: Knobs) -> str | None:
    """Why ``c`` costs too much, or None."""
    if c.single > knobs.single_cost * c.width:
        return (f"cost {c.single} of one copy exceeds nv-remat-block-single-cost "
                f"{knobs.single_cost}" + (f" x {c.width} registers" if c.width > 1 else ""))
    if c.total > knobs.max_cost * c.width:
        return (f"total cost {c.total} exceeds nv-remat-block-max-cost {knobs.max_cost}"
                + (f" x {c.width} registers" if c.width > 1 else ""))
    return None


def select(candidates: list[Candidate], excess: dict[int, int]) -> list[Candidate]:
    """The cheapest candidates that bring every over-target block to the target
    (or all that help), without two that read one another."""
    need = dict(excess)
    chosen: list[Candidate] = []
    values: set[object] = set()
    reads: set[object] = set()
    adds: set[object] = set()  # adds a chosen copy merges into
    for c in sorted(candidates, key=lambda c: (c.total, c.index, c.kind)):
        if all(n <= 0 for n in need.values()):
            break
        if not any(need.get(b, 0) > 0 for b in c.relieves):
            continue
        if c.value in values or c.value in reads or c.reads & values:
            continue
        merged = {s.fuse for s in c.sites if s.fuse is not None}
        if merged & adds:
            continue  # two products of one add: the second waits a round
        chosen.append(c)
        values.add(c.value)
        reads |= c.reads
        adds |= merged
        for b, w in c.relieves.items():
            if b in need:
                need[b] -= w
    # a cheap pick whose blocks the dearer ones taken after it relieve as
    # well is not needed: dropped, dearest first (the cover's cleanup)
    for c in sorted(chosen, key=lambda c: (-c.total, -c.index)):
        if all(need[b] + w <= 0 for b, w in c.relieves.items() if b in need):
            chosen.remove(c)
            for b, w in c.relieves.items():
                if b in need:
                    need[b] += w
    return chosen


__all__ = ["over_limit", "select"]
