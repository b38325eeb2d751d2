"""Registers that an asynchronous op still owns: the in-flight claims of
warpgroup MMA (PTX ISA 9.7.15.7).

``wgmma.mma_async`` (HGMMA) runs after it issues: until the
``wgmma.wait_group`` (WARPGROUP.DEPBAR) that completes its commit group, its
accumulator registers may be neither read nor written by other instructions
and the registers holding A's fragments (A in registers) may not be written.
The ops say what they do through their facts (docs/architecture.md "Op
facts"): ``ASYNC`` (:class:`~ori_dialect.ir.metadata.AsyncRole` ISSUE /
COMMIT / WAIT), ``async_results()`` (the values written later and how many of
their leading registers), ``async_sources()`` (the values read later),
``async_pending()`` (the groups a wait leaves in flight) and ``TIED`` (the
source an issued op accumulates in place).

**Claims.**  A *claim* on an SSA value says that its registers belong to an
issued op at a program point:

* ``acc`` (an ``async_results`` value, its first ``regs`` registers): no
  other instruction may read or write them, except a later issued op that
  takes the value as its tied source (HGMMA accumulating in place);
* not ``acc`` (an ``async_sources`` value): no other instruction may write
  its registers.

Each claim carries ``commits``: the number of commits executed since its op
issued, at least, over every path to the point (0: its group is still open;
``c >= 1``: it belongs to the ``c``-th most recent committed group), capped
at :data:`CAP`.

**Forward dataflow** over the CFG, to a fixpoint (states only gain claims
or lose commits, so it ends):

* an ISSUE op ends the ``acc`` claim of its tied source (the chain goes on in
  its result, in the same registers: ``TIED``) and claims its results
  (``acc``) and its async sources, with 0 commits;
* a COMMIT adds one commit to every claim;
* a WAIT with ``pending = N`` ends the claims with more than ``N`` commits
  (the groups it completes); uncommitted work is not waited for;
* a branch edge hands the ``acc`` claim of every operand it passes to the
  successor's argument (the registers are the argument's from there on);
* an op that ``SPLITS`` a claimed value into its registers (``ori.unpack``)
  hands its claim to the parts, as an edge does: they are the accumulator's
  registers if allocation puts them in place, and a read of the accumulator
  before the wait if not (the allocator moves such unpacks past the wait
  where the program allows: ``passes/regalloc/inflight.py``);
* at a join the claims of all incoming edges are merged, each with the
  fewest commits: conservative where the paths disagree on which group a
  wait completes.

The facts this gives (:class:`InFlight`): the claims before every op and at
every block entry, the reads of ``acc``-claimed values (by any op other than
an issued op's tied source and branch edges) and the definitions of a value
while it is claimed (a loop that reaches the value's definition again
before the wait).  The liveness numbering (:mod:`.liveness`) extends every
claimed value's live range over the points where it is claimed, so the
allocator keeps its registers until the wait; the allocator and its checker
(``passes/regalloc``) read the rest.
"""

from __future__ import annotations

from collections import deque
from collections.abc import Iterable
from dataclasses import dataclass
from typing import TYPE_CHECKING

from xdsl.ir import Block, Operation, SSAValue

from ori_dialect.analysis.cfg import CFG, edge_operands
from ori_dialect.ir.instruction import OriInstruction
from ori_dialect.ir.metadata import AsyncRole
from ori_dialect.ir.registers import OriRegisterType

if TYPE_CHECKING:
    from ori_dialect.analysis.manager import AnalysisManager

CAP = 8
"""Commits are counted up to this (a wait leaves at most 7 groups pending)."""


@dataclass(frozen=True)
class Claim:
    """One claimed value at one point (module docstring)."""

    acc: bool
    """Written later by the issued op (True) or only read by it (False)."""
    regs: int
    """How many leading registers of the value are claimed."""
    commits: int
    issue: Operation
    """The op that issued the work (for messages)."""


State = dict[SSAValue, Claim]


def _merge(into: State, other: State) -> bool:
    """Merge ``other`` into ``into`` (fewest commits, ``acc`` over not,
    the most registers); True when ``into`` changed."""
    changed = False
    for v, c in other.items():
        old = into.get(v)
        if old is None:
            into[v] = c
            changed = True
            continue
        commits = min(old.commits, c.commits)
        acc = old.acc or c.acc
        regs = max(old.regs, c.regs)
        if (commits, acc, regs) != (old.commits, old.acc, old.regs):
            into[v] = Claim(acc, regs, commits, old.issue if old.commits <= c.commits else c.issue)
            changed = True
    return changed


def has_async_ops(ops: Iterable[Operation]) -> bool:
    """Whether any of ``ops`` issues asynchronous work (cheap pre-check)."""
    return any(getattr(type(op), "ASYNC", None) is AsyncRole.ISSUE for op in ops)


class InFlight:
    """The in-flight claims of one function (module docstring)."""

    cfg: CFG
    active: bool
    """Whether the function issues asynchronous work at all (if not, every
    query answers empty)."""
    entry: list[State]
    """Claims at each block's entry, after the edges' hand-over and the join."""
    before: dict[Operation, State]
    """Claims just before each op that has any."""
    exit: list[State]
    """Claims just after each block's terminator (before the edges' hand-over)."""
    reads: list[tuple[Operation, SSAValue]]
    """``acc``-claimed values read by an op (other than an issued op reading
    its tied source and branch edges passing them), in block order."""
    redefined: list[tuple[Operation, SSAValue]]
    """Values defined by an op while they are claimed (a loop back to their
    definition before the wait)."""
    claimed: set[SSAValue]
    """Every value claimed at some point."""

    def __init__(self, cfg: CFG) -> None:
        self.cfg = cfg
        n = cfg.num_blocks
        self.entry = [{} for _ in range(n)]
        self.exit = [{} for _ in range(n)]
        self.before = {}
        self.reads = []
        self.redefined = []
        self.claimed = set()
        self.active = any(has_async_ops(b.ops) for b in cfg.blocks)
        if not self.active:
            return
        reached = [False] * n
        if n:
            reached[cfg.entry] = True
        work = deque(cfg.rpo)
        queued = [False] * n
        for b in cfg.rpo:
            queued[b] = True
        while work:
            b = work.popleft()
            queued[b] = False
            st: State = dict(self.entry[b])
            for op in cfg.blocks[b].ops:
                self._step(op, st, record=False)
            self.exit[b] = st
            for e in cfg.out_edges[b]:
                into = self.entry[e.dst]
                if _merge(into, self._hand_over(b, e.slot, st)) or not reached[e.dst]:
                    reached[e.dst] = True
                    if not queued[e.dst]:
                        queued[e.dst] = True
                        work.append(e.dst)
        for b in cfg.rpo:
            st = dict(self.entry[b])
            self.claimed.update(st)
            for op in cfg.blocks[b].ops:
                if st:
                    self.before[op] = dict(st)
                self._step(op, st, record=True)
                self.claimed.update(st)

    @classmethod
    def compute(cls, func: Operation, am: AnalysisManager | None = None) -> InFlight:
        if am is None:
            return cls(CFG.compute(func))
        return cls(am.get(CFG, func))

    # ------------------------------------------------------------------
    def _hand_over(self, b: int, slot: int, st: State) -> State:
        """``st`` along successor slot ``slot`` of block ``b``: the ``acc``
        claims of the operands pass to the successor's arguments."""
        term = self.cfg.blocks[b].last_op
        assert term is not None
        dest = term.successors[slot]
        out = dict(st)
        moved: list[tuple[SSAValue, Claim]] = []
        for v, a in zip(edge_operands(term, slot), dest.args):
            c = st.get(v)
            if c is not None and c.acc:
                moved.append((a, c))
        for v, _a in zip(edge_operands(term, slot), dest.args):
            c = st.get(v)
            if c is not None and c.acc:
                out.pop(v, None)
        for a, c in moved:
            out[a] = c
        return out

    def _step(self, op: Operation, st: State, record: bool) -> None:
        """Apply ``op`` to the claims ``st`` (in place)."""
        role = getattr(type(op), "ASYNC", None)
        if record and st:
            edge: set[SSAValue] = set()
            for slot in range(len(op.successors)):
                edge.update(edge_operands(op, slot))
            tied_src: set[SSAValue] = set()
            if role is AsyncRole.ISSUE and isinstance(op, OriInstruction):
                tied_src = {op.operands[j] for _i, j in op.tied_operands()}
            seen: set[SSAValue] = set()
            for v in op.operands:
                c = st.get(v)
                if c is not None and c.acc and v not in seen and v not in tied_src \
                        and v not in edge:
                    self.reads.append((op, v))
                seen.add(v)
            for r in op.results:
                if r in st:
                    self.redefined.append((op, r))
        if not isinstance(op, OriInstruction):
            return
        if role is None:
            split = op.SPLITS
            if split is not None:
                # the parts of an accumulator in flight are in flight too
                # (a read before the wait, which PTX leaves undefined)
                src = op.src_reg(split)
                c = st.get(src) if src is not None else None
                if c is not None and c.acc:
                    del st[src]
                    for r in op.results[: c.regs]:
                        st[r] = Claim(True, 1, c.commits, c.issue)
            return
        if role is AsyncRole.ISSUE:
            for _i, j in op.tied_operands():
                c = st.get(op.operands[j])
                if c is not None and c.acc:
                    del st[op.operands[j]]
            for v, regs in op.async_results():
                st[v] = Claim(True, regs, 0, op)
            for v in op.async_sources():
                t = v.type
                n = t.num_regs() if isinstance(t, OriRegisterType) else 1
                old = st.get(v)
                if old is None or not old.acc:
                    st[v] = Claim(False, n, 0, op)
        elif role is AsyncRole.COMMIT:
            for v, c in list(st.items()):
                if c.commits < CAP:
                    st[v] = Claim(c.acc, c.regs, c.commits + 1, c.issue)
        elif role is AsyncRole.WAIT:
            pending = op.async_pending() or 0
            for v in [v for v, c in st.items() if c.commits > pending]:
                del st[v]

    # ------------------------------------------------------------------
    def claims_before(self, op: Operation) -> State:
        """The claims just before ``op`` (empty when none)."""
        return self.before.get(op, {})

    def claims_after(self, op: Operation) -> State:
        """The claims just after ``op`` (for a terminator: before its edges)."""
        st = dict(self.before.get(op, {}))
        if not st and getattr(type(op), "ASYNC", None) is not AsyncRole.ISSUE:
            return st
        self._step(op, st, record=False)
        return st

    def handovers(self) -> list[tuple[SSAValue, SSAValue]]:
        """``(edge operand, block argument)`` for every ``acc`` claim a
        branch edge hands over: the two must be one register run, or the
        edge's copy would move the accumulator before its wait."""
        out: list[tuple[SSAValue, SSAValue]] = []
        if not self.active:
            return out
        for b in self.cfg.rpo:
            st = self.exit[b]
            if not st:
                continue
            term = self.cfg.blocks[b].last_op
            if term is None:
                continue
            for slot, dest in enumerate(term.successors):
                for v, a in zip(edge_operands(term, slot), dest.args):
                    c = st.get(v)
                    if c is not None and c.acc:
                        out.append((v, a))
        return out

    def claimed_in(self, block: Block | int) -> bool:
        """Whether anything is claimed somewhere in ``block`` (its entry or after an op)."""
        b = block if isinstance(block, int) else self.cfg.index[block]
        if self.entry[b] or self.exit[b]:
            return True
        return any(op in self.before for op in self.cfg.blocks[b].ops)


__all__ = ["CAP", "Claim", "InFlight", "State", "has_async_ops"]
