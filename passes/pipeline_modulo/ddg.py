"""The dependence graph of a single-block loop and its MII (seed 001, Phase 24
"Phase 3: MII Computation").

Nodes are the body's instructions in block order (the terminator is not a
node: it issues once per iteration on its pipe, which :func:`res_mii`
counts).  Edges carry the seed's two weights: the producer's *latency* -- the
stall-cycle calculator of the target (:meth:`targets.SMTarget.stall_cycles`:
the op's latency class in cycles, capped at 32, or 64 on a long-latency
pipe) -- and the iteration *distance* (0 inside an iteration, k >= 1 when the
value reaches the use through k back edges).

Memory dependences follow the spaces an op declares (``MEM``, ``SPACE``): two
accesses may alias unless their state spaces differ (generic aliases every
space but const); a pair with a write is ordered both ways -- earlier to
later in the same iteration (distance 0) and later to earlier across the
back edge (distance 1).  Their latency is 1: only the order of the accesses
matters to the result, the memory system orders issued accesses itself.
"""

from __future__ import annotations

import math
from dataclasses import dataclass, field

from xdsl.ir import Block, BlockArgument, Operation, OpResult, SSAValue

from ori_dialect.ir.instruction import OriOp
from passes.hoist_invariants.safety import may_alias
from targets import PIPE_NAMES, SMTarget


@dataclass(frozen=True)
class DepEdge:
    src: int
    dst: int
    latency: int
    distance: int
    memory: bool = False


@dataclass
class LoopDDG:
    """The dependence graph of one single-block loop body."""

    ops: list[Operation]
    latency: list[int]
    """Stall cycles of each op's results (seed 001 sub_91E900)."""
    pipe: list[int]
    """ResMII pipe index of each op (seed 001 PipeAssignment via the target)."""
    edges: list[DepEdge] = field(default_factory=list)
    branch_pipe: int = len(PIPE_NAMES) - 1
    """Where the loop's branch issues (counted by ResMII, reserved by the MRT)."""

    def succs(self) -> list[list[DepEdge]]:
        out: list[list[DepEdge]] = [[] for _ in self.ops]
        for e in self.edges:
            out[e.src].append(e)
        return out

    def preds(self) -> list[list[DepEdge]]:
        out: list[list[DepEdge]] = [[] for _ in self.ops]
        for e in self.edges:
            out[e.dst].append(e)
        return out


def op_latency(op: Operation, target: SMTarget) -> int:
    """Stall cycles of ``op``'s results on ``target`` (class from the op class)."""
    if not isinstance(op, OriOp):
        return 1
    return target.stall_cycles(int(op.LATENCY), op.PIPE.name)


def op_pipe(op: Operation, target: SMTarget) -> int:
    """ResMII pipe index of ``op`` on ``target`` (pipe from the op class)."""
    if not isinstance(op, OriOp):
        return target.issue_pipe("ALU")
    return target.issue_pipe(op.PIPE.name)


def carried_source(block: Block, back_args: list[SSAValue], v: SSAValue) -> tuple[SSAValue, int]:
    """Follow a header argument back through the back edge: the value that
    reaches ``v`` and through how many back edges (``(v, 0)`` for a value
    that is not a header argument; a chain that never leaves the header
    arguments -- an invariant passed around -- stops where it repeats)."""
    d = 0
    seen: set[SSAValue] = set()
    while isinstance(v, BlockArgument) and v.block is block and v not in seen:
        seen.add(v)
        v = back_args[v.index]
        d += 1
    return v, d


def build_ddg(block: Block, body: list[Operation], back_args: list[SSAValue],
              target: SMTarget) -> LoopDDG:
    """The dependence graph of ``body`` (the loop block's ops without its
    terminator); ``back_args`` are the values the back edge passes."""
    index = {op: i for i, op in enumerate(body)}
    ddg = LoopDDG(body, [op_latency(o, target) for o in body], [op_pipe(o, target) for o in body])
    term = block.last_op
    if term is not None:
        ddg.branch_pipe = op_pipe(term, target)
    seen: set[tuple[int, int, int]] = set()

    def add(src: int, dst: int, lat: int, dist: int, memory: bool = False) -> None:
        key = (src, dst, dist)
        if key in seen:
            return
        seen.add(key)
        ddg.edges.append(DepEdge(src, dst, lat, dist, memory))

    for j, op in enumerate(body):
        for v in op.operands:
            src, dist = carried_source(block, back_args, v)
            if isinstance(src, OpResult) and src.op in index:
                i = index[src.op]
                add(i, j, ddg.latency[i], dist)
    mem = [(i, op) for i, op in enumerate(body) if isinstance(op, OriOp)
           and (op.MEM.reads or op.MEM.writes)]
    for a in range(len(mem)):
        i, x = mem[a]
        for b in range(a + 1, len(mem)):
            j, y = mem[b]
            assert isinstance(x, OriOp) and isinstance(y, OriOp)
            if not (x.MEM.writes or y.MEM.writes):
                continue
            wx, ry = (x, y) if x.MEM.writes else (y, x)
            if not may_alias(wx.SPACE, ry.SPACE):
                continue
            add(i, j, 1, 0, True)
            add(j, i, 1, 1, True)
    return ddg


def res_mii(ddg: LoopDDG, widths: tuple[int, ...]) -> int:
    """Seed 001's ComputeResMII: ``ceil(max(count[p] / width[p]))`` over the 7
    pipes, every instruction (the branch included) weighing 1."""
    counts = [0] * len(widths)
    for p in ddg.pipe:
        counts[p] += 1
    counts[ddg.branch_pipe] += 1
    return max(1, max(math.ceil(c / w) for c, w in zip(counts, widths, strict=True)))


def has_positive_cycle(ddg: LoopDDG, ii: int) -> bool:
    """Whether some recurrence needs more than ``ii`` cycles per iteration
    (a cycle of positive weight ``latency - ii * distance``; Bellman-Ford
    longest paths from every node at once)."""
    n = len(ddg.ops)
    dist = [0] * n
    for _ in range(n + 1):
        changed = False
        for e in ddg.edges:
            w = dist[e.src] + e.latency - ii * e.distance
            if w > dist[e.dst]:
                dist[e.dst] = w
                changed = True
        if not changed:
            return False
    return True


def rec_mii(ddg: LoopDDG) -> int:
    """The smallest II that every recurrence allows: ``max ceil(L / D)`` over
    the cycles of the graph, found as the least II without a positive cycle
    (seed 001: "RecMII is effectively computed as the smallest II for which
    all recurrence constraints are satisfiable")."""
    if not any(e.distance for e in ddg.edges):
        return 1
    lo, hi = 1, max(1, sum(ddg.latency) + len(ddg.ops))
    while lo < hi:
        mid = (lo + hi) // 2
        if has_positive_cycle(ddg, mid):
            lo = mid + 1
        else:
            hi = mid
    return lo


__all__ = ["DepEdge", "LoopDDG", "build_ddg", "carried_source", "has_positive_cycle",
           "op_latency", "op_pipe", "rec_mii", "res_mii"]
