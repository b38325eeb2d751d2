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
* Step K, factor selection: see :func:`select_factor`.
"""

from __future__ import annotations

import re
from dataclasses import dataclass

from xdsl.ir import Block, OpResult, SSAValue

from ori_dialect.ir.instruction import OriInstruction
from ori_dialect.ir.metadata import Pipe
from ori_dialect.ir.registers import BarrierType
from ori_dialect.ops.control import BraOp, CallOp, PragmaOp
from ori_dialect.ops.integer import IAdd3Op, IMadOp, LeaOp, ShlOp
from ori_dialect.ops.memory import LdcOp


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
    for b in blocks:
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
                if op.callee.string_value() in single_block_callees:
                    info.call_weight += 9
                continue
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


@dataclass
class FactorChoice:
    factor: int
    path: str
    """Which step chose it: force, K-known, K1..K4, L (override)."""
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
) -> FactorChoice:
    """Step K.  ``literal`` keeps the seed's text for known trip counts (only
    trip counts 1 and 2 are unrolled; larger ones are rejected with code 12);
    the default (ptxas-like) reads the known-trip path as: full unroll when
    ``full_inst_limit / trip_count > body_cost`` (the seed's gate, for any trip
    count), else a partial factor of ``unknown_count`` that the budget loop
    (Step N) reduces."""
    if force:
        return FactorChoice(1 << force_factor_log2, "force")
    if trip_count is not None:
        cost = max(remaining, 1)
        if literal:
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
        if full_inst_limit // trip_count > cost:
            return FactorChoice(trip_count, "K-known")
        if trip_count < 2:
            return FactorChoice(0, "K-known", 12, f"body cost {cost} exceeds unroll-full-inst-limit "
                                f"{full_inst_limit}")
        return FactorChoice(min(unknown_count, trip_count), "K-known")
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
    "remaining_budget",
    "scan_body",
    "select_factor",
]
