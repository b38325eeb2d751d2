"""The knobs of ``ori-remat-block`` as the engine reads them, and the bits of
``nv-remat-block`` (seed 002 "Machine-Level Knobs (ctor_361_0 at 0x5108E0)").

The seed gives ``nv-remat-block`` as a "bitmask controlling remat modes
(bits 0-3)", default 14, and names no bit.  ori's reading (each bit switches
one step of the seed's "Algorithm Overview" that can be left out):

=====  =====  ===============================================================
bit    value  mode
=====  =====  ===============================================================
0      1      **local split** (off by default): a value defined in an
              over-target block before its peak and read after it is
              recomputed after the peak (the uses after the peak, in the block
              and beyond, read the copy) -- the machine-level counterpart of
              the IR pass's ``uclone_``; the seed's default 14 leaves it out,
              its steps only look at registers live across blocks
1      2      **pull-in of live registers** (the seed's steps 2-7): a value
              live out of (or at the peak of) an over-target block is
              recomputed in each block that reads it
2      4      **recursive pullability** (sub_2181550): an operand of the
              recomputed instruction that is not live where the copy goes is
              recomputed too, to depth 50; without it every operand must be
              live there
3      8      **second chance** (sub_2181870): candidates whose operands
              were waiting for their own verdict are re-evaluated until
              nothing changes
=====  =====  ===============================================================

``nv-remat-block=0`` leaves the code unchanged.
"""

from __future__ import annotations

from dataclasses import dataclass

MODE_LOCAL = 1
MODE_PULL = 2
MODE_RECURSIVE = 4
MODE_SECOND_CHANCE = 8
ALL_MODES = 15

MAX_DEPTH = 50
"""Depth of the recursive pullability check (seed: "checked recursively up to
depth 50")."""

SINGLES_PER_ROUND = 16
"""ori: after a round whose selection as a whole does not lower the pressure,
how many of its candidates are tried one at a time (the cheapest first)."""


@dataclass(frozen=True)
class Knobs:
    """Everything the engine reads, already validated (``RematBlockPass``)."""

    mode: int = 14
    max_times: int = 10
    single_cost: int = 10
    map_size_limit: int = 6
    max_cost: int = 100
    liveout_min_percentage: int = 70
    loop_cost_factor: int = 20
    default_max_reg: int = 70
    load_cost: int = 10
    check_internal_live: bool = False
    load_remat: bool = True
    dump: int = 0
    """The effective ``dump-remat`` level (``nv-dump-remat-block`` makes it 4)."""

    @property
    def local(self) -> bool:
        return bool(self.mode & MODE_LOCAL)

    @property
    def pull(self) -> bool:
        return bool(self.mode & MODE_PULL)

    @property
    def recursive(self) -> bool:
        return bool(self.mode & MODE_RECURSIVE)

    @property
    def second_chance(self) -> bool:
        return bool(self.mode & MODE_SECOND_CHANCE)


__all__ = ["ALL_MODES", "MAX_DEPTH", "MODE_LOCAL", "MODE_PULL", "MODE_RECURSIVE",
           "MODE_SECOND_CHANCE", "SINGLES_PER_ROUND", "Knobs"]
