"""The unrolling decision of seed 001 (*RunUnrolling*, sub_1390B30), steps E to
L, adapted from ptxas's opcodes to ori's ops.

* Step E, hot-loop test: ori has no profile.  The estimate: the loop is
  entered ``10**(depth-1)`` times (10 per enclosing loop) and its latch runs
  ``trip_count`` times per entry (10 when the trip count is unknown);
  ``freq_header`` is the entry estimate, ``freq_latch`` the latch estimate;
  ``is_hot = freq_latch > 999 and freq_header > 0 and freq_latch / freq_header > 3``.
* Step F, body scan (:func:`scan_body`): ``body_size`` counts instructions
  (``ori.pragma`` excluded); ``foldable_ldc_count`` counts ``ori.ldc`` whose
  address register is the IV or an ``iadd3``/``imad``/``lea``/``shl`` of it
  with constants (foldable once the IV is a constant); ``tex_count`` counts
  texture reads (ops on the TEX pipe that read memory: ori has none yet, so it
  is 0); ``call_weight`` is 9 per call of a single-block device function;
  memory counts by ``MEM``; ``has_cross_edges`` is set when an edge leaves the
  loop from a block other than the latch; ``killed_def_count`` counts
  definitions in the body whose value is never used (in ptxas a def killed
  before any use; in SSA the dead defs); ``inner_nounroll_cnt`` counts
  nested loops marked nounroll.
* Step G, budget: ``remaining = call_weight + body_size - foldable_ldc_count
  - killed_def_count - int(inner-nounroll-budget-scale * inner_nounroll_cnt)``.
* Step K, factor selection: see :func:`select_factor`.  By default it is
  :func:`ptxas_factor`, a model of ptxas 13.0's observed decisions (full
  unrolling up to the measured trip limits of :data:`FULL_TRIPS`, partial
  factors from a copy budget, loops with calls or remaining inner loops left
  rolled), measured with ``benchmarks/unroll_vs_ptxas.py``; where it departs
  from the seed's text is listed in ``passes/loop_unroll/DEVIATIONS.md``, and
  ``seed-literal=true`` keeps the seed's reading.
* ``call_count``, ``inner_loop_count``, ``atomic_count`` and
  ``fence_count`` (ori's additions to the body scan) feed that model and
  the driver's Step D convergence test.
"""

from __future__ import annotations

import math
import re
from dataclasses import dataclass

from xdsl.ir import Block, OpResult, SSAValue

from ori_dialect.ir.instruction import OriInstruction
from ori_dialect.ir.metadata import Pipe
from ori_dialect.ir.registers import BarrierType
from ori_dialect.ops.control import BraOp, CallOp, PragmaOp
from ori_dialect.ops.integer import IAdd3Op, IMadOp, LeaOp, ShlOp
from ori_dialect.ops.memory import AtomicOp, LdcOp
from ori_dialect.ops.sync import MembarOp


@dataclass
class BodyInfo:
    body_size: int = 0
    foldable_ldc_count: int = 0
    tex_count: int = 0
    call_weight: int = 0
    mem_flag_count: int = 0
    mem_count: int = 0
    load_count: int = 0
    store_count: int = 0
    has_cross_edges: bool = False
    branch_count: int = 0
    killed_def_count: int = 0
    inner_nounroll_cnt: int = 0
    convergence: bool = False
    """A convergence-barrier register (``!ori.b``) is used in the loop."""
    call_count: int = 0
    """Calls in the body (any callee; ``call_weight`` counts the inlinable ones)."""
    inner_loop_count: int = 0
    """Back edges inside the body other than the loop's own (loops still nested in it)."""
    atomic_count: int = 0
    """Atomic read-modify-writes in the body (ATOM, ATOMS, RED)."""
    fence_count: int = 0
    """Memory fences in the body (MEMBAR)."""


def _iv_derived(v: SSAValue, iv: SSAValue | None, depth: int = 0) -> bool:
    if iv is None:
        return False
    if v is iv:
        return True
    if depth > 3 or not isinstance(v, OpResult):
        return False
    op = v.op
    if isinstance(op, IAdd3Op | IMadOp | LeaOp | ShlOp) and op.guard is None:
        regs = [x for x in op.operand_groups()[0]]
        return len(regs) == 1 and _iv_derived(regs[0], iv, depth + 1)
    return False


def scan_body(blocks: list[Block], latch: Block, loop_set: set[Block], iv: SSAValue | None,
              single_block_callees: set[str], nounroll_inner: int) -> BodyInfo:
    info = BodyInfo(inner_nounroll_cnt=nounroll_inner)
    # ``blocks`` come in RPO: an edge to a block at or before its source is a back edge.
    pos = {b: i for i, b in enumerate(blocks)}
    header = blocks[0] if blocks else None
    for b in blocks:
        last = b.last_op
        if last is not None:
            for s in last.successors:
                k = pos.get(s)
                if k is not None and k <= pos[b] and not (b is latch and s is header):
                    info.inner_loop_count += 1
        for a in b.args:
            if isinstance(a.type, BarrierType):
                info.convergence = True
        for op in b.ops:
            if isinstance(op, PragmaOp):
                continue
            info.body_size += 1
            for v in (*op.operands, *op.results):
                if isinstance(v.type, BarrierType):
                    info.convergence = True
            if isinstance(op, BraOp):
                if any(s not in loop_set for s in op.successors) and b is not latch:
                    info.has_cross_edges = True
                if op.guard is not None:
                    info.branch_count += 1
                continue
            if not isinstance(op, OriInstruction | CallOp):
                if op.successors and b is not latch:
                    info.has_cross_edges = True
                continue
            if isinstance(op, CallOp):
                info.call_count += 1
                if op.callee is not None and op.callee.string_value() in single_block_callees:
                    info.call_weight += 9
                continue
            if isinstance(op, AtomicOp):
                info.atomic_count += 1
            if isinstance(op, MembarOp):
                info.fence_count += 1
            mem = op.MEM
            if mem.reads or mem.writes:
                info.mem_count += 1
                if mem.reads:
                    info.load_count += 1
                if mem.writes:
                    info.store_count += 1
                if op.PIPE is Pipe.TEX and mem.reads:
                    info.tex_count += 1
            if isinstance(op, LdcOp):
                addr = op.operand_groups()[0]
                if addr and _iv_derived(addr[0], iv):
                    info.foldable_ldc_count += 1
            if op.results and all(not r.uses for r in op.results) and not (mem.writes or op.SIDE_EFFECTS):
                info.killed_def_count += 1
    return info


def remaining_budget(info: BodyInfo, scale: float) -> int:
    """Step G (the seed's ``v196``)."""
    penalty = int(scale * info.inner_nounroll_cnt)
    return info.call_weight + info.body_size - info.foldable_ldc_count - info.killed_def_count - penalty


_OVERRIDE = re.compile(r"^(?:[-+]|(?:[-+]\d+[-+])+)$")


def parse_override(text: str) -> str:
    """Validate the per-block override string (knob 427): ``-`` (skip every
    loop), ``+`` (force every loop) or a concatenation of ``-N-`` / ``+N+``
    tokens (``"-3-+5+"``).  Returns it; raises ValueError when malformed."""
    if text and not _OVERRIDE.match(text):
        raise ValueError(
            f"malformed loop-unroll-factor-override '{text}': expected '-', '+' or tokens '-N-' / '+N+'")
    return text


def override_for(text: str, block_id: int) -> str | None:
    """``"skip"``, ``"force"`` or None for the loop whose header is ^bb``block_id``
    (Step H: the seed's strstr tests)."""
    if not text:
        return None
    if text == "-" or f"-{block_id}-" in text:
        return "skip"
    if text == "+" or f"+{block_id}+" in text:
        return "force"
    return None


def is_hot(depth: int, trip_count: int | None) -> bool:
    """Step E with the static estimate of the module docstring."""
    freq_header = 10 ** (depth - 1)
    freq_latch = freq_header * (trip_count if trip_count is not None else 10)
    return freq_latch > 999 and freq_header > 0 and freq_latch / freq_header > 3


# ---------------------------------------------------------------------------
# The default factor selection: a model of what ptxas 13.0 does (sm_80, -O3),
# fitted on benchmarks/unroll_vs_ptxas.py; see DEVIATIONS.md for each point
# where it departs from the seed's text.
# ---------------------------------------------------------------------------
LOOP_OVERHEAD = 10
"""ori instructions of a rotated loop that full unrolling deletes or folds: the
IV ``iadd3``, the exit ``isetp`` and ``bra``, and the 64-bit pointer increment
(the PTX import lowers ``add.s64`` as ``mov``/``unpack``/``iadd3``/``iadd3.x``/
``pack``).  A partially unrolled copy keeps its IV increment, so a partial copy
costs one unit more (:data:`PARTIAL_COPY_EXTRA`)."""
PARTIAL_COPY_EXTRA = 1
PARTIAL_BUDGET = 345
"""Cost units that the copies of a partially unrolled loop -- main copies plus
remainder copies -- may take: ``copies * (unit + 1) <= 345``.  ptxas's factors
on the sweep fit it for units 2 to 67 (at most 115 to 5 copies)."""
FULL_TRIPS: tuple[tuple[int, int], ...] = (
    (2, 814), (10, 219), (22, 53), (28, 34), (40, 18), (50, 9), (64, 7), (122, 3),
)
"""``(unit, largest trip count ptxas fully unrolls)`` measured with ptxas 13.0
(sm_80, -O3) on ``a[i]``-sum loops with 0 to 40 hash steps per iteration
(``benchmarks/unroll_vs_ptxas.py`` kernels ``c*_a*`` and a bisection over the
trip count).  Between points the limit is interpolated log-log; beyond the
last two points it is extrapolated.  Not matched: 4 hash steps (14 units)
reached 81 trips where the curve says 119 -- ptxas's own size measure also
credits instructions that fold to constants, which ori's unit does not see."""

MIN_PARTIAL_COPIES = 5
"""A loop whose unit allows fewer copies is not unrolled at all (ptxas left
the 77-unit (``f*_a25``), 94-unit (``h*_a30``) and 122-unit (``c*_a40``)
loops rolled at every trip count, where factors 2 to 4 would fit; 64 and 67
units, 5 copies, still unroll)."""
UNKNOWN_COPIES_PER_FACTOR = 2
"""An unknown trip count with factor ``F`` needs ``2 * F`` copies of budget:
ptxas unrolled 32-unit bodies by 4 (``u_a10``) but not 48-unit ones
(``hu_a15``): 8 copies of 33 fit 345, 8 of 49 do not."""


FULL_LOAD_WEIGHT = 1.5
PARTIAL_LOAD_WEIGHT = 0.85
"""Extra units per memory read beyond the first, for the full-unroll limit and
for the partial copy budget.  Loads weigh more against full unrolling (ptxas:
5 loads and 6 hash steps per iteration, 24 trips, ``f24_l5_a6``: partial x8
where one-load bodies of that size are fully unrolled) than against partial
factors (``c100_l8`` x11, ``h48_l6_a3`` x12, ``f200_l5_a6`` x10 all fit 0.85)."""


def unit_cost(remaining: int, info: BodyInfo, load_weight: float = 1.0) -> float:
    """Per-iteration cost ptxas's budgets count, in ori instructions: the
    seed's ``remaining`` less the loop overhead, plus one for the first memory
    read and ``load_weight`` for each further one."""
    extra = 1 + load_weight * (info.load_count - 1) if info.load_count else 0
    return max(remaining - LOOP_OVERHEAD + extra, 1.0)


def full_trip_limit(unit: float) -> float:
    """The largest trip count fully unrolled for a body of ``unit`` (from :data:`FULL_TRIPS`)."""
    pts = FULL_TRIPS
    if unit <= pts[0][0]:
        return float(pts[0][1])
    k = next((i for i in range(1, len(pts)) if unit <= pts[i][0]), len(pts) - 1)
    (u0, t0), (u1, t1) = pts[k - 1], pts[k]
    slope = math.log(t1 / t0) / math.log(u1 / u0)
    return t0 * (unit / u0) ** slope


def partial_factor(trip_count: int, copies: int) -> int:
    """The largest factor ``F`` (``2 <= F < trip_count``) whose main copies plus
    remainder copies fit: ``F + trip_count % F <= copies``; 0 when none.  This
    reproduces ptxas's non-power-of-two factors (x14 for 100 trips, x12 for
    1000 trips of the same body: 14 + 2 and 12 + 4 copies)."""
    for f in range(min(copies, trip_count - 1), 1, -1):
        if f + trip_count % f <= copies:
            return f
    return 0


def ptxas_factor(trip_count: int | None, remaining: int, info: BodyInfo, unknown_count: int,
                 full_inst_limit: int = 200, unroll_budget: int = 140) -> FactorChoice:
    """Step K as ptxas behaves (the default; ``seed-literal=true`` keeps the
    seed's text).  A factor equal to the trip count means full unrolling.

    The knobs keep their direction: the full-unroll trip limits scale with
    ``unroll-full-inst-limit / 200`` and the partial budget with
    ``unroll-budget / 140`` (the seed's defaults are the measured ptxas
    behaviour)."""
    if info.call_count:
        return FactorChoice(0, "ptxas", 24, "the loop contains a call (ptxas does not unroll such loops)")
    if info.inner_loop_count:
        return FactorChoice(0, "ptxas", 24, "the loop still contains a loop (ptxas unrolls only "
                            "loops whose inner loops were fully unrolled)")
    full_unit = unit_cost(remaining, info, FULL_LOAD_WEIGHT)
    unit = unit_cost(remaining, info, PARTIAL_LOAD_WEIGHT)
    budget = PARTIAL_BUDGET * unroll_budget // 140
    copies = int(budget // (unit + PARTIAL_COPY_EXTRA))
    if trip_count is not None:
        # floor plus a hair: the measured limits are exact trip counts
        if trip_count <= math.floor(full_trip_limit(full_unit) * full_inst_limit / 200 + 1e-9):
            return FactorChoice(trip_count, "ptxas-full")
        if copies < MIN_PARTIAL_COPIES:
            return FactorChoice(0, "ptxas", 24, f"trip count {trip_count} x unit cost {full_unit:g} exceeds the "
                                f"full-unroll budget and only {copies} copies fit the partial budget "
                                f"{budget} (fewer than {MIN_PARTIAL_COPIES}: left rolled)")
        f = partial_factor(trip_count, copies)
        if f < 2:
            return FactorChoice(0, "ptxas", 24, f"trip count {trip_count} x unit cost {full_unit:g} exceeds the "
                                f"full-unroll budget and no partial factor fits {copies} copies")
        return FactorChoice(f, "ptxas-partial")
    # unknown trip count: ``unknown_count`` main copies, the power-of-two
    # remainder (unknown_count - 1 copies) and the guards must fit the budget
    need = UNKNOWN_COPIES_PER_FACTOR * unknown_count
    if need * (unit + PARTIAL_COPY_EXTRA) <= budget:
        return FactorChoice(unknown_count, "ptxas-unknown")
    return FactorChoice(0, "ptxas", 24, f"unknown trip count: {need} copies of unit cost "
                        f"{unit:g} exceed the partial budget {budget}")


@dataclass
class FactorChoice:
    factor: int
    path: str
    """Which step chose it: force, ptxas-full / ptxas-partial / ptxas-unknown /
    ptxas (rejected) for the default model, K-known and K1..K4 with
    ``seed-literal=true``."""
    code: int = 0
    reason: str = ""


def select_factor(
    *,
    force: bool,
    force_factor_log2: int,
    trip_count: int | None,
    remaining: int,
    info: BodyInfo,
    hot: bool,
    multiblock: bool,
    allow_non_innermost: bool,
    full_inst_limit: int,
    unknown_count: int,
    num_inst_tex: int,
    literal: bool,
    unroll_budget: int = 140,
) -> FactorChoice:
    """Step K.  By default the factor follows what ptxas does
    (:func:`ptxas_factor`, see DEVIATIONS.md).  ``literal`` (``seed-literal=true``)
    keeps the seed's text: known trip counts 1 and 2 only (larger ones are
    rejected with code 12), unknown trip counts by sub-cases K1..K4, and the
    driver's budget loop (Step N) halves the factor."""
    if force:
        return FactorChoice(1 << force_factor_log2, "force")
    if not literal:
        return ptxas_factor(trip_count, remaining, info, unknown_count, full_inst_limit, unroll_budget)
    if trip_count is not None:
        cost = max(remaining, 1)
        factor = trip_count
        if trip_count <= 2:
            if full_inst_limit // trip_count <= cost:
                factor = 4 // trip_count
        else:
            factor = 0
        if factor <= 0:
            return FactorChoice(0, "K-known", 12, f"known trip count {trip_count} > 2 "
                                "(seed-literal factor selection)")
        return FactorChoice(factor, "K-known")
    # unknown trip count: K1..K4
    tex_inst = info.tex_count
    tex_budget = num_inst_tex if num_inst_tex else min(5 * tex_inst + 22, 100)  # K1
    factor = 0
    path = "K3"
    if info.tex_count > 0 and remaining <= 49:  # K2
        path = "K2"
        if hot and multiblock:
            if 10 * info.tex_count >= remaining:
                factor = 2
        else:
            factor = unknown_count
    else:  # K3
        if tex_budget <= remaining:
            factor = min(factor, 2)
        else:
            factor = unknown_count
    if factor <= 0 and allow_non_innermost:  # K4
        factor, path = 2, "K4"
    if factor <= 0:
        return FactorChoice(0, path, 12, "factor selection yielded 0")
    return FactorChoice(factor, path)


__all__ = [
    "BodyInfo",
    "FactorChoice",
    "is_hot",
    "override_for",
    "parse_override",
    "partial_factor",
    "ptxas_factor",
    "remaining_budget",
    "scan_body",
    "select_factor",
    "unit_cost",
]
