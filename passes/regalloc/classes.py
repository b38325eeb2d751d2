"""Allocation classes and units (seed 000, "Register Classes").

ptxas allocates 7 register classes one after another (class 0, the unified
cross-class view, is skipped).  ori's register files map onto them:

=====  ==============  ====================  ==========================
class  seed name       ori register file     note
=====  ==============  ====================  ==========================
1      R               R (32/64/128-bit)     wide values: aligned pairs/quads
2      R (alt)         --                    ptxas's RZ/stat variant: no ori values
3      UR              UR (32/64/128-bit)    sm_75+
4      UR (ext)        --                    no ori values
5      P / UP          P, then UP            allocated as two files
6      Tensor/Acc      --                    no ori values
(9)    B (barrier)     B                     "handled by a separate
                                             mechanism": allocated after
                                             the classes; spilled
                                             to a GPR with BMOV
=====  ==============  ====================  ==========================

An *allocation unit* is a set of SSA values that must share one register
(:mod:`.coalesce` builds them): its width (1, 2 or 4 registers), the program
points where it is live (:class:`.points.Segments` over the linear numbering
of :class:`.points.LiveMatrix`), its spill cost and whether it may be
spilled.

**Spill cost** (seed 000 "Spilling", seed 003 "Scratch Data Registers"):
each definition and each use of a value adds ``spill-cost`` (default 15.0)
times the block frequency ``loop-iterations ** depth`` (loop-depth
weighted, default 10 iterations per loop level).  A value live across a
``CALL`` adds ``2 * (2 * spill-cost)`` times the frequency: seed 003's
"paired save+restore" weight with ``cost_mult = 2`` for a value live before
and after the call.  R values are spilled to memory, P/UP/UR/B values to a
GPR home (:mod:`.spill`); reload temporaries and values already spilled (all
their uses are spill stores or home definitions) are not spillable again, and
neither is a value an HGMMA holds in flight (``ValueNumbering.claimed``,
:mod:`.inflight`: its spill store or reload would touch the registers before
the wait).  With ``remat-enable`` a value whose definition reads no
register is rematerialized instead (:mod:`.remat`), and its cost is scaled
down accordingly.
"""

from __future__ import annotations

from dataclasses import dataclass, field

import numpy as np
import numpy.typing as npt
from xdsl.ir import SSAValue

from ori_dialect.analysis.liveness import FILES
from ori_dialect.ir.registers import OriRegisterType, RegFile
from ori_dialect.ops.control import CallOp
from passes.regalloc.abi import caller_save_weight
from passes.regalloc.points import LiveMatrix, Segments
from passes.regalloc.remat import REMAT_COST_FACTOR, remat_source
from passes.regalloc.spill_marks import can_spill, is_spill_reload, is_spilled_value

ALLOC_CLASSES: tuple[tuple[int, str, tuple[RegFile, ...]], ...] = (
    (1, "R", (RegFile.R,)),
    (2, "R (alt)", ()),
    (3, "UR", (RegFile.UR,)),
    (4, "UR (ext)", ()),
    (5, "P/UP", (RegFile.P, RegFile.UP)),
    (6, "Tensor/Acc", ()),
)
"""Seed 000's classes 1..6 in allocation order with the ori files they hold."""

FILE_ORDER: tuple[RegFile, ...] = (
    *(f for _, _, files in ALLOC_CLASSES for f in files),
    RegFile.B,
)
"""The order in which files are allocated (B last, the separate mechanism)."""

SPILLABLE_FILES = frozenset({RegFile.R, RegFile.P, RegFile.UP, RegFile.UR, RegFile.B})


@dataclass
class Unit:
    id: int
    values: list[int]
    file: RegFile
    width: int
    points: Segments
    cost: float
    spillable: bool
    tied: bool = False
    align: int = 0
    """What the base register must be a multiple of: the values' type's
    ``alignment()`` (4 for a register tuple); 0 means ``width``."""
    interference: float = 0.0
    hints: list[int] = field(default_factory=list)
    offset_hints: list[tuple[int, int]] = field(default_factory=list)
    """Sub-register partners ``(unit, delta)``: this unit's base register is
    best at the partner's base + ``delta`` (an ``ori.pack`` part and the
    wide value it builds, an ``ori.unpack`` part and its source), so the
    pseudo-op needs no move (:mod:`.coalesce`)."""
    prefer: int = 0
    """Registers (a bit set) to take before the others the unit may have; 0
    for no preference.  A device function's value live across calls prefers
    a scratch register its callees leave alone to a preserved one, which
    would cost a save (:func:`.abi.abi_masks`)."""

    @property
    def ratio(self) -> float:
        return self.cost / self.interference if self.interference > 0 else self.cost


def value_alignments(values: list[SSAValue]) -> list[int]:
    """The base-register multiple of each value: its register type's
    ``alignment()`` (``ori_dialect/ir/registers.py``: the size of a pair or
    quad, 4 for a register tuple), 1 for a non-register value."""
    out: list[int] = []
    for v in values:
        t = v.type
        out.append(t.alignment() if isinstance(t, OriRegisterType) else 1)
    return out


def value_costs(
    lm: LiveMatrix, base_cost: float, loop_iterations: float, *, remat: bool = False
) -> tuple[npt.NDArray[np.float64], npt.NDArray[np.bool_]]:
    """Spill cost and spillability of every numbered value; with ``remat``
    the cost of a value the allocator would rematerialize is scaled by
    :data:`.remat.REMAT_COST_FACTOR`."""
    num = lm.numbering
    nv = len(num)
    # a plain list: numpy scalar updates cost more than the additions (the
    # additions happen in the same order, so the sums are the same floats)
    cost_l = [0.0] * nv
    files_l, widths_l = num.file.tolist(), num.width.tolist()
    freq_of_block = [float(loop_iterations) ** int(lm.depth[lm.block_entry[b]])
                     for b in range(lm.cfg.num_blocks)]
    # values live across each call (at the points before and after it), found
    # in one sweep over the live segments; added below in program order
    calls = [op for ops in num.ops for op in ops if isinstance(op, CallOp)]
    across_of = dict(zip(calls, lm.live_through([lm.op_point[op] for op in calls])))
    for b in range(lm.cfg.num_blocks):
        f = base_cost * freq_of_block[b]
        for v in num.arg_ids[b]:
            cost_l[v] += f
        defs_b, uses_b = num.op_defs[b], num.op_uses[b]
        for k, op in enumerate(num.ops[b]):
            for v in defs_b[k]:
                cost_l[v] += f
            for v in uses_b[k]:
                cost_l[v] += f
            if isinstance(op, CallOp):
                across = np.setdiff1d(across_of[op], uses_b[k], assume_unique=True)
                w = 2.0 * (2.0 * base_cost) * freq_of_block[b]
                # after ori-abi: seed 003's caller-save multiplier and
                # scratch-class gate (passes/regalloc/abi.py)
                abi_w = caller_save_weight(op, base_cost, freq_of_block[b])
                for v in across.tolist():
                    cost_l[v] += w if abi_w is None else abi_w(FILES[files_l[v]], widths_l[v])
    if remat:
        for i, v in enumerate(num.values):
            if remat_source(v, lm) is not None:
                cost_l[i] *= REMAT_COST_FACTOR
    cost = np.asarray(cost_l, dtype=np.float64).reshape(nv)
    files = num.file.tolist()
    claimed = num.claimed  # held by an HGMMA in flight: never spilled (inflight.py)
    spillable_l = [
        FILES[files[i]] in SPILLABLE_FILES and can_spill(v) and not is_spill_reload(v)
        and not is_spilled_value(v) and bool(list(v.uses)) and i not in claimed
        for i, v in enumerate(num.values)
    ]
    spillable = np.asarray(spillable_l, dtype=np.bool_).reshape(nv)
    return cost, spillable


__all__ = [
    "ALLOC_CLASSES",
    "FILE_ORDER",
    "Unit",
    "value_alignments",
    "value_costs",
]
