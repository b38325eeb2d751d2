"""Live-in measurement of ``ori-remat`` (seed 002, "Main Algorithm" step 3,
"Live-in/live-out analysis"): per block, the registers live on entry; the
maximum over the blocks (the pressure baseline the loop drives down); the
blocks above the register target; the intersection of their live-in sets.

The seed counts live-in *values* with ``popcnt`` over LLVM values.  ori
counts **registers of the R file** (``!ori.r32`` 1, ``!ori.r64`` 2,
``!ori.r128`` 4): the register target is a register count and occupancy is
a function of R registers only (predicates, uniform and barrier registers
have files of their own and do not limit occupancy).  The live-in rows are
the numpy bitsets of :class:`~ori_dialect.analysis.liveness.Liveness`; the
intersection is one ``bitwise_and`` over the rows of the hot blocks.

``max live`` (the stats' figure) is :class:`RegisterPressure`'s maximum of
the R file at any program point: what allocation needs at least.

Only reachable blocks are measured (an unreachable block's live-in is
whatever its uses make it and no thread ever holds it).
"""

from __future__ import annotations

from dataclasses import dataclass

import numpy as np
from xdsl.ir import Operation

from ori_dialect.analysis.cfg import CFG
from ori_dialect.analysis.liveness import FILES, Liveness, bits_to_indices
from ori_dialect.analysis.pressure import RegisterPressure
from ori_dialect.ir.registers import RegFile

R_FILE = FILES.index(RegFile.R)
"""Index of the R file in ``ValueNumbering.file``."""


@dataclass
class LiveIn:
    """The live-in picture of one function at one moment."""

    liveness: Liveness
    counts: list[int]
    """R registers live on entry to each block (by block id; 0 for an
    unreachable block)."""
    max_live_in: int
    worst: int
    """The first reachable block (in RPO) whose live-in is the maximum."""
    max_live: int
    """Most R registers live at any program point (RegisterPressure)."""

    @property
    def cfg(self) -> CFG:
        return self.liveness.cfg

    def is_r(self, vid: int) -> bool:
        """Value ``vid`` lives in the R file."""
        return int(self.liveness.numbering.file[vid]) == R_FILE

    def width(self, vid: int) -> int:
        return int(self.liveness.numbering.width[vid])

    def hot_blocks(self, target: int) -> list[int]:
        """Reachable blocks whose live-in exceeds ``target``, in RPO."""
        return [b for b in self.cfg.rpo if self.counts[b] > target]

    def live_in_ids(self, block: int) -> list[int]:
        """R values live on entry to ``block``, ascending."""
        return [v for v in self.liveness.live_in(block) if self.is_r(v)]

    def intersection(self, blocks: list[int]) -> list[int]:
        """R values live on entry to every block of ``blocks`` (the seed's
        bitwise AND of their live-in rows), ascending."""
        if not blocks:
            return []
        rows = self.liveness.live_in_cbits[np.asarray(blocks, dtype=np.int64)]
        row = np.bitwise_and.reduce(rows, axis=0)
        ids = self.liveness.universe[bits_to_indices(row)].tolist()
        return [v for v in ids if self.is_r(v)]


def measure(func: Operation) -> LiveIn:
    """Liveness, per-block live-in register counts and the maxima of ``func``."""
    lv = Liveness(CFG.compute(func))
    num = lv.numbering
    is_r = num.file == R_FILE
    width = num.width.astype(np.int64)
    counts = [0] * lv.cfg.num_blocks
    reach = set(lv.cfg.rpo)
    for b, ids in enumerate(lv.live_in_lists()):
        if b in reach and ids:
            idx = np.asarray(ids, dtype=np.int64)
            counts[b] = int(width[idx][is_r[idx]].sum())
    worst = lv.cfg.rpo[0] if lv.cfg.rpo else 0
    best = -1
    for b in lv.cfg.rpo:
        if counts[b] > best:
            best, worst = counts[b], b
    max_live = RegisterPressure(lv).max.get(RegFile.R, 0)
    return LiveIn(lv, counts, max(best, 0), worst, max_live)


__all__ = ["R_FILE", "LiveIn", "measure"]
