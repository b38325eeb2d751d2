"""Which invariants of a loop's *mid blocks* move, and the merging of the
copies that move together (seed 001 "LICM Outer Loop (sub_8FF780)" and
"Multi-Depth Loop Handling"; knob EnableHoistLowLatencyInstMidBlock of
"Hoisting Knobs").

ptxas's driver hands stage 5 the loop header (hoist mode 0), one block per
deeper depth level (the blocks of inner loops, modes 1-3) and the back-edge
block (mode 3).  The blocks between the header and the back edge at the
loop's own depth -- the arms of an ``if``, the code after an inner loop:
*mid blocks* here -- are never visited, so their invariants stay in the
loop.  ``EnableHoistLowLatencyInstMidBlock`` (default false) is the knob
that lets "low-latency instructions from mid-block positions" move; ori
reads low latency as a fixed latency: nothing scoreboarded (no memory
read, not the XU, LSU or TEX pipe; stage 5's scoreboarded results).  ptxas
13.0's SASS shows the rule: in CUB's histogram sweep kernel the 16
per-item indices ``tid*16 | k`` and the 32-bit reciprocal of the divisor
are recomputed in every guarded item block of the tile loop (54
registers); hoisting them all, as ori did before, took 104.

**ori's one addition (``hoist-duplicates``, default on).**  An invariant of
a mid block also moves when the loop computes the same value more than
once -- same op, properties and result types, operands compared through
the value classes of their defining invariants (``ori-cse``'s key) -- and
the copies merge into one instruction at the preheader.  The histogram's
reciprocal sequence, 8 instructions in each of 62 item blocks, becomes 8
instructions and two registers; ptxas keeps all 62 copies.  Merging costs
at most the registers of one hoisted copy and removes instructions, so it
keeps ori's listings no larger than ptxas's where the seed's rule alone
would not (benchmarks/README.md).
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Hashable, Iterable, Sequence

from xdsl.ir import Operation, SSAValue

from passes.cse import cse_key, merge_into
from passes.hoist_invariants.engine import BlockInfo, prune
from passes.hoist_invariants.profitability import scoreboarded_results


def value_classes(ops: Iterable[Operation]) -> dict[Operation, Operation]:
    """Each op of ``ops`` (in program order, definitions first) mapped to
    the first op computing the same value: equal ``cse_key`` with every
    operand replaced by its class representative's result.  An op without
    a key (a load of writable memory, a volatile op) is its own class."""
    canon: dict[SSAValue, SSAValue] = {}
    first: dict[Hashable, Operation] = {}
    rep: dict[Operation, Operation] = {}
    for op in ops:
        key = cse_key(op, [canon.get(v, v) for v in op.operands])
        r = op if key is None else first.setdefault(key, op)
        rep[op] = r
        if r is not op:
            canon.update(zip(op.results, r.results))
    return rep


def is_low_latency(op: Operation) -> bool:
    """EnableHoistLowLatencyInstMidBlock's "low-latency instruction" (ori's
    reading, module docstring)."""
    return scoreboarded_results(op) == 0


def restrict_mid_blocks(inv: set[Operation], infos: Sequence[BlockInfo], *, low_latency: bool,
                        duplicates: bool) -> int:
    """Drop from ``inv`` the invariants of mid blocks (``BlockInfo.mid``)
    that may not move, and everything that uses them; returns how many
    were dropped."""
    before = len(inv)
    while True:
        order = [op for info in infos for op in info.block.ops if op in inv]
        rep = value_classes(order) if duplicates else {op: op for op in order}
        size = Counter(rep.values())
        drop = [op for info in infos if info.mid for op in info.block.ops
                if op in inv and not (low_latency and is_low_latency(op))
                and size[rep[op]] < 2]
        if not drop:
            return before - len(inv)
        inv.difference_update(drop)
        prune(inv, infos)


def merge_copies(ops: Sequence[Operation]) -> int:
    """Merge the ops of ``ops`` (moved to one block, in program order) that
    repeat an earlier one of them: uses read the first copy's results and
    the repeat is erased.  Returns the number erased."""
    rep = value_classes(ops)
    merged = 0
    for op in ops:
        r = rep[op]
        if r is op:
            continue
        merge_into(op, r)
        merged += 1
    return merged


__all__ = ["is_low_latency", "merge_copies", "restrict_mid_blocks", "value_classes"]
