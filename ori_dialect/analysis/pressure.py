"""Register pressure per register file, derived from :mod:`liveness` (one of the
analyses docs/architecture.md groups with *AnalyzeControlFlow*, seed 001 "Loop
Representation in Ori IR", phase 3).

Counting rules:

* a value counts ``num_regs()`` registers of its file (``r64`` 2, ``r128`` 4,
  predicates 1);
* the program points of a block are its **entry** (live-in plus *all* its
  arguments, used or not) and, for each op, the point **before** it (its
  live-before set) and the point **after** it (live-after plus all its results:
  a result that is never used still occupies a register where it is written);
* a guarded op's result and its tied prior value count once at the op (they
  share a register); later, if both stay live, they are two values;
* the pressure *at an op* is the larger of its before/after points; the
  location of a maximum is a :class:`PressurePoint` (block id and op position,
  ``-1`` for the block entry).
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import TYPE_CHECKING

import numpy as np
from xdsl.ir import Operation

from ori_dialect.analysis.cfg import CFG
from ori_dialect.analysis.liveness import FILES, Liveness
from ori_dialect.ir.registers import RegFile

if TYPE_CHECKING:
    from ori_dialect.analysis.manager import AnalysisManager


@dataclass(frozen=True)
class PressurePoint:
    """A program point: ``op_index`` -1 is the block entry, else the op at that position."""

    block: int
    op_index: int

    def __str__(self) -> str:
        return f"^bb{self.block} " + ("entry" if self.op_index < 0 else f"op {self.op_index}")


class RegisterPressure:
    """Maximum number of live registers per file: per block and for the function."""

    liveness: Liveness
    block_max: list[dict[RegFile, int]]
    """Per block id: maximum registers live at any of its points, per file."""
    max: dict[RegFile, int]
    """Function maximum per file."""
    where: dict[RegFile, PressurePoint | None]
    """Where the function maximum is reached: the lowest block id reaching it and,
    within that block, the first point (in program order) reaching it; None for a
    file never used."""

    def __init__(self, liveness: Liveness) -> None:
        self.liveness = liveness
        num = liveness.numbering
        nfiles = len(FILES)
        width = num.width.tolist()
        file = num.file.tolist()
        tied = num.tied
        fmax = [0] * nfiles
        fwhere: list[PressurePoint | None] = [None] * nfiles
        self.block_max = []
        w_np = num.width.astype(np.int64)
        for b in range(liveness.cfg.num_blocks):
            idx = liveness.live_out_array(b)
            live = set(idx.tolist())
            cnt = np.bincount(num.file[idx], weights=w_np[idx], minlength=nfiles)
            c = [int(x) for x in cnt]
            bmax = [0] * nfiles
            bwhere = [-2] * nfiles  # op position of the block maximum (-1 entry)
            ops = num.ops[b]
            defs_b = num.op_defs[b]
            uses_b = num.op_uses[b]
            for k in range(len(ops) - 1, -1, -1):
                d = defs_b[k]
                u = uses_b[k]
                # point after op k: live-after plus dead results, tied pairs once
                if d:
                    after = c[:]
                    for v in d:
                        if v not in live:
                            after[file[v]] += width[v]
                    if (b, k) in tied:
                        for _, p in tied[(b, k)]:
                            if p in live:
                                after[file[p]] -= width[p]
                    for f in range(nfiles):
                        if after[f] >= bmax[f]:
                            bmax[f] = after[f]
                            bwhere[f] = k
                    for v in d:
                        if v in live:
                            live.discard(v)
                            c[file[v]] -= width[v]
                elif k == len(ops) - 1:
                    for f in range(nfiles):
                        if c[f] >= bmax[f]:
                            bmax[f] = c[f]
                            bwhere[f] = k
                # point before op k
                if u:
                    for v in u:
                        if v not in live:
                            live.add(v)
                            c[file[v]] += width[v]
                for f in range(nfiles):
                    if c[f] >= bmax[f]:
                        bmax[f] = c[f]
                        bwhere[f] = k
            # block entry: live-in plus every argument
            ent = c[:]
            for a in num.arg_ids[b]:
                if a not in live:
                    ent[file[a]] += width[a]
            for f in range(nfiles):
                if ent[f] >= bmax[f]:
                    bmax[f] = ent[f]
                    bwhere[f] = -1
            self.block_max.append({FILES[f]: bmax[f] for f in range(nfiles)})
            for f in range(nfiles):
                if bmax[f] > fmax[f]:
                    fmax[f] = bmax[f]
                    fwhere[f] = PressurePoint(b, bwhere[f])
        self.max = {FILES[f]: fmax[f] for f in range(nfiles)}
        self.where = {FILES[f]: fwhere[f] for f in range(nfiles)}

    @classmethod
    def compute(cls, func: Operation, am: AnalysisManager | None = None) -> RegisterPressure:
        if am is None:
            return cls(Liveness(CFG.compute(func)))
        return cls(am.get(Liveness, func))

    def at_op(self, op: Operation) -> dict[RegFile, int]:
        """Registers per file occupied around ``op`` (the larger of before/after)."""
        lv = self.liveness
        num = lv.numbering
        b, k = lv.position(op)
        after = lv.live_after_ids(op)
        before = set(after)
        before.difference_update(num.op_defs[b][k])
        before.update(num.op_uses[b][k])
        after.update(num.op_defs[b][k])
        shared = {p for _, p in num.tied.get((b, k), ()) if p in after}
        out: dict[RegFile, int] = {}
        for f_i, f in enumerate(FILES):
            a = sum(int(num.width[v]) for v in after if num.file[v] == f_i and v not in shared)
            bb = sum(int(num.width[v]) for v in before if num.file[v] == f_i)
            out[f] = max(a, bb)
        return out


__all__ = ["PressurePoint", "RegisterPressure"]
