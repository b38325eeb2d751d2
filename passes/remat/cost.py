"""The pull-in cost model and candidate selection (seed 002, "Pull-In Cost
Model", sub_1CE3AF0)::

    pull_in_cost = base_cost * use_factor

* **base cost**: the sum over the chain's ops of their SASS instruction
  count (``sass_instructions()``, at least 1), times ``remat-lli-factor``
  for a long-latency op -- one that issues outside the ALU and FMA pipes
  (``PIPE``: memory, MUFU, FP64, texture, MMA).
* **use factor**: one term per site (one clone per block), ``remat-loop-trip
  ** d`` where ``d`` is how many loops deeper the site is than the
  candidate's definition (0 at the same depth or shallower): a clone inside
  a loop the original was outside of runs ``remat-loop-trip`` times as often
  (the seed's "different cost tables for uses in different loop nests").

Filters, as in the seed's table:

* use limit: more than ``remat-use-limit`` uses *and* a use factor of at
  least ``remat-loop-trip`` (some clone sits in a deeper loop);
* GEP cost: the value is an address (ori's GEP: it feeds the address slot
  of a memory op) and the cost exceeds ``remat-gep-cost``;
* single cost: the cost exceeds ``remat-single-cost-limit``, unless
  ``remat-ignore-single-cost``.

Selection: the eligible candidates sorted by cost (cheapest first, ties by
value number), taken while their registers (an ``!ori.r64`` counts 2) fall
short of the reduction the round needs.  Candidates of one round are
independent: none is an operand, free or cloned, of another selected one
(each round's clones are made on the liveness measured before it).
"""

from __future__ import annotations

from dataclasses import dataclass

from xdsl.ir import Operation, SSAValue

from ori_dialect.analysis.loops import LoopInfo
from ori_dialect.ir.instruction import OriInstruction, OriOp
from ori_dialect.ir.metadata import Pipe
from passes.remat.chain import Chain, Site
from passes.remat.knobs import RematKnobs

_SHORT_PIPES = frozenset({Pipe.ALU, Pipe.FMA})


@dataclass
class Candidate:
    value: SSAValue
    vid: int
    name: str
    width: int
    sites: list[Site]
    chain: Chain | None = None
    base: int = 0
    factor: int = 0
    cost: int = 0
    refusal: str | None = None
    """Why it is not rematerializable / was filtered (None: eligible)."""

    def touched(self) -> set[SSAValue]:
        """Values the clones read or recompute."""
        if self.chain is None:
            return set()
        out = set(self.chain.free)
        for op in self.chain.ops:
            out.update(op.results)
        return out


def op_cost(op: Operation, lli: int) -> int:
    n = op.sass_instructions() if isinstance(op, OriInstruction) else 1
    long = isinstance(op, OriOp) and type(op).PIPE not in _SHORT_PIPES
    return max(1, n) * (lli if long else 1)


def is_address(v: SSAValue) -> bool:
    """``v`` feeds the address slot of an instruction (ori's GEP)."""
    for use in v.uses:
        op = use.operation
        if isinstance(op, OriInstruction):
            for slot, x in op.slot_values():
                if x is v and slot.address:
                    return True
    return False


def price(c: Candidate, def_block: int, loops: LoopInfo, k: RematKnobs) -> None:
    """Fill in ``c``'s base cost, use factor and cost; set ``refusal`` when
    a filter rejects it."""
    assert c.chain is not None
    c.base = sum(op_cost(op, k.remat_lli_factor) for op in c.chain.ops)
    d0 = loops.depth(def_block)
    c.factor = sum(k.remat_loop_trip ** max(0, loops.depth(s.block) - d0) for s in c.sites)
    c.cost = c.base * c.factor
    uses = sum(1 for _ in c.value.uses)
    if uses > k.remat_use_limit and c.factor >= k.remat_loop_trip:
        c.refusal = (f"{uses} uses > remat-use-limit={k.remat_use_limit} with use factor "
                     f"{c.factor} >= remat-loop-trip={k.remat_loop_trip}")
    elif c.cost > k.remat_gep_cost and is_address(c.value):
        c.refusal = f"address cost {c.cost} > remat-gep-cost={k.remat_gep_cost}"
    elif c.cost > k.remat_single_cost_limit and not k.remat_ignore_single_cost:
        c.refusal = f"cost {c.cost} > remat-single-cost-limit={k.remat_single_cost_limit}"


def select(cands: list[Candidate], need: int) -> list[Candidate]:
    """The cheapest independent eligible candidates whose registers cover ``need``."""
    chosen: list[Candidate] = []
    values: set[SSAValue] = set()
    touched: set[SSAValue] = set()
    got = 0
    for c in sorted((c for c in cands if c.refusal is None), key=lambda c: (c.cost, c.vid)):
        if got >= need:
            break
        t = c.touched()
        if c.value in touched or t & values:
            continue
        chosen.append(c)
        values.add(c.value)
        touched |= t
        got += c.width
    return chosen


__all__ = ["Candidate", "is_address", "op_cost", "price", "select"]
