"""The function as one round of ``ori-remat-block`` sees it, and where the
copies of a value go (seed 002 "Algorithm Overview" step 7 *Execute*: "clone
the defining instruction at use sites").

**Where a copy goes** (a :class:`~passes.remat_block.candidates.Site`).  *Pull-in* (bit 1): one copy in
each block other than the defining one that reads the value, right before
its first reader there; every read in that block takes the copy, reads in the
defining block keep the original.  *Split* (bit 0): one copy after the peak
of the defining block, before the first reader after it (or before the
terminator); every later read, in the block and beyond, takes the copy.
Reads in unreachable blocks keep the original.

A value is *available* right before op ``k`` of block ``b`` when it is live
there without a copy: live out of ``b``, or read by an op at or after ``k``
in ``b`` (SSA: a value an instruction reads is defined before it, so it
cannot be defined in ``b`` after ``k``).
"""

from __future__ import annotations

from xdsl.ir import BlockArgument, Operation, SSAValue

from ori_dialect.analysis.cfg import CFG, edge_operands
from ori_dialect.analysis.liveness import Liveness
from ori_dialect.analysis.loops import LoopInfo
from passes.remat_block.knobs import Knobs


class RoundContext:
    """The function as one round sees it: CFG, liveness, loop depths, op positions."""

    def __init__(self, func: Operation, cfg: CFG, lv: Liveness, loops: LoopInfo,
                 knobs: Knobs) -> None:
        self.func = func
        self.cfg = cfg
        self.lv = lv
        self.knobs = knobs
        self.depth = loops.depths()
        self.names = lv.numbering.names()
        self.pos: dict[Operation, tuple[int, int]] = {}
        for b, ops in enumerate(lv.numbering.ops):
            for k, op in enumerate(ops):
                self.pos[op] = (b, k)

    def block_of(self, op: Operation) -> int | None:
        p = self.pos.get(op)
        return p[0] if p is not None else None

    def name(self, v: SSAValue) -> str:
        i = self.lv.numbering.index.get(v)
        n = self.names[i] if i is not None else (v.name_hint or "?")
        return n if n.startswith("#") else "%" + n

    def def_block(self, v: SSAValue) -> int | None:
        if isinstance(v, BlockArgument):
            return self.cfg.index.get(v.block)
        return self.block_of(v.owner)  # type: ignore[arg-type]

    def passes_on_edge(self, b: int, v: SSAValue) -> bool:
        """Whether block ``b``'s terminator passes ``v`` to a successor."""
        term = self.cfg.blocks[b].last_op
        if term is None:
            return False
        return any(v in edge_operands(term, s) for s in range(len(term.successors)))

    def available(self, x: SSAValue, b: int, k: int) -> bool:
        """``x`` is live right before op ``k`` of block ``b`` (before any copy)."""
        if self.lv.is_live_out(x, b):
            return True
        for use in x.uses:
            p = self.pos.get(use.operation)
            if p is not None and p[0] == b and p[1] >= k:
                return True
        return False

    def uses_in(self, v: SSAValue) -> dict[int, list[tuple[Operation, int]]]:
        """Reads of ``v`` in reachable blocks, by block id."""
        out: dict[int, list[tuple[Operation, int]]] = {}
        for use in v.uses:
            p = self.pos.get(use.operation)
            if p is not None and self.cfg.is_reachable(p[0]):
                out.setdefault(p[0], []).append((use.operation, use.index))
        return out


def pull_sites(ctx: RoundContext, v: SSAValue) -> list[tuple[int, Operation, list[tuple[Operation, int]]]]:
    """(block, anchor, uses) of a pull-in: each reading block but the defining one."""
    bd = ctx.def_block(v)
    out = []
    for b, uses in sorted(ctx.uses_in(v).items()):
        if b == bd:
            continue
        anchor = min((u[0] for u in uses), key=lambda o: ctx.pos[o][1])
        out.append((b, anchor, uses))
    return out


def split_site(ctx: RoundContext, v: SSAValue, b: int, k: int,
               ) -> tuple[int, Operation, list[tuple[Operation, int]]] | None:
    """(block, anchor, uses) of a split of ``v`` after point ``k`` of block ``b``
    (the reads after op ``k``); None when nothing reads ``v`` after it."""
    later: list[tuple[Operation, int]] = []
    anchor: Operation | None = None
    for bb, uses in ctx.uses_in(v).items():
        for op, i in uses:
            if bb != b:
                later.append((op, i))
            elif ctx.pos[op][1] > k:
                later.append((op, i))
                if anchor is None or ctx.pos[op][1] < ctx.pos[anchor][1]:
                    anchor = op
    if not later:
        return None
    if anchor is None:
        anchor = ctx.cfg.blocks[b].last_op
    assert anchor is not None
    return b, anchor, later


__all__ = ["RoundContext", "pull_sites", "split_site"]
