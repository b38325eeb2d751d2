"""Max live per block and per function: the measuring step of ``ori-remat-block``
(seed 002 "Machine-Level Block Rematerialization", step 1 *Measure*, and
"Register Pressure Computation (sub_2186590)": "Per-block pressure is
computed by starting with the live-out set size, walking instructions in
reverse, tracking register births (defs) and deaths (last uses), and recording
the peak pressure point. The maximum across all blocks is returned.").

The count is the one :class:`ori_dialect.analysis.pressure.RegisterPressure`
makes for the R file (a value counts its ``num_regs()`` registers: the
seed's "double-wide register classes count as 2"; a guarded op's result and
its tied prior count once at the op; a result nobody reads still occupies
its register where it is written; a block's entry counts all its arguments),
so that "max live" means the same number everywhere in ori -- a test checks
that the two agree.  What this module adds is *where* each block peaks and
which values are live there: the internal view of the candidate search
(:mod:`.candidates`) asks whether pulling a value frees a register at that
point.

A point is ``(kind, k)``: ``ENTRY`` (the block entry, ``k = -1``), ``BEFORE``
op ``k`` or ``AFTER`` op ``k`` (op positions in the block as it is measured),
or ``CALL`` op ``k`` (below).  Of several points at the block's maximum the
first in program order is the peak, as ``RegisterPressure`` reports it.

**Calls of device-runtime functions** (ori).  In a kernel whose calls are
all of CUDA device runtime functions (:func:`passes.regalloc.abi.runtime_calls_only`)
a value live across a call may not sit in R0-R15 (but R2) nor in the return
address R20:R21 (passes/regalloc/abi.py); R1 is the stack pointer.  So ``n``
registers live across a call need registers up to the ``n``-th of R2, R16-R19,
R22, ... (:func:`across_call_registers`): the call point counts that
register's index, the max live a count ending there corresponds to, where it
is above the registers live there -- ``RegisterPressure`` does not.  Max live
without it missed what set such a kernel's count: a loop calling printf kept
24 values live and 21 of them across the call, in R22-R38 (41 registers,
ptxas 38); at the call point the candidates are the values live across it.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass

from ori_dialect.analysis.liveness import FILES, Liveness
from ori_dialect.analysis.pressure import RegisterPressure
from ori_dialect.ir.registers import RegFile
from ori_dialect.ops.control import CallOp
from ori_dialect.ops.func import FuncOp
from passes.regalloc.abi import runtime_call_survivors, runtime_calls_only
from passes.regalloc.pred_pack import MAX_BITS

R_FILE = FILES.index(RegFile.R)
"""Index of the R file in ``ValueNumbering.file``."""

ENTRY, BEFORE, AFTER, CALL = "entry", "before", "after", "call"


@dataclass(frozen=True)
class Peak:
    """The point of a block where its R pressure peaks and what is live there."""

    block: int
    kind: str
    """``ENTRY``, ``BEFORE``, ``AFTER`` or ``CALL`` (the values live across
    the call)."""
    op_index: int
    """The op's position in the block (-1 for ``ENTRY``)."""
    live: frozenset[int]
    """Value indices (``Liveness.numbering``) of the R values occupying
    registers at the point."""

    def __str__(self) -> str:
        if self.kind == ENTRY:
            return f"^bb{self.block} entry"
        if self.kind == CALL:
            return f"^bb{self.block} across the call op {self.op_index}"
        return f"^bb{self.block} {self.kind} op {self.op_index}"


@dataclass
class MaxLive:
    """R max live of every block (``block_max``) and of the function (``max``)."""

    liveness: Liveness
    block_max: list[int]
    peak_at: list[tuple[str, int]]
    """Per block: the peak's (kind, op index)."""
    across: Sequence[int] | None = None
    """:func:`across_call_registers` of the function, when its calls count."""

    @property
    def max(self) -> int:
        return max(self.block_max, default=0)

    def excess(self, target: int) -> dict[int, int]:
        """Blocks whose max live exceeds ``target``, with the excess."""
        return {b: m - target for b, m in enumerate(self.block_max) if m > target}

    def peak(self, b: int) -> Peak:
        """Block ``b``'s peak point with its live set (one more walk of the block)."""
        kind, k = self.peak_at[b]
        return Peak(b, kind, k,
                    frozenset(_walk(self.liveness, b, stop=(kind, k), across=self.across)[2]))


def compute_max_live(liveness: Liveness, across: Sequence[int] | None = None) -> MaxLive:
    """The R max live of every block of the function ``liveness`` describes;
    ``across``: :func:`across_call_registers`, to count its calls (module
    docstring)."""
    n = liveness.cfg.num_blocks
    block_max: list[int] = []
    peak_at: list[tuple[str, int]] = []
    for b in range(n):
        m, where, _ = _walk(liveness, b, across=across)
        block_max.append(m)
        peak_at.append(where)
    return MaxLive(liveness, block_max, peak_at, across)


def across_call_registers(func: FuncOp, target: object) -> list[int] | None:
    """The R registers a value live across a call may take, in order
    (:func:`passes.regalloc.abi.runtime_call_survivors`), for a kernel that
    makes calls, all of device-runtime functions; None otherwise (module
    docstring)."""
    if not any(isinstance(op, CallOp) for op in func.walk()) or not runtime_calls_only(func):
        return None
    return runtime_call_survivors(target)


def _walk(lv: Liveness, b: int, stop: tuple[str, int] | None = None,
          across: Sequence[int] | None = None) -> tuple[int, tuple[str, int], set[int]]:
    """Walk block ``b`` backwards from its live-out set, counting R registers.

    Returns (block maximum, its first point in program order, the R values
    live at ``stop`` -- empty unless ``stop`` is given, in which case the walk
    ends there)."""
    num = lv.numbering
    width = num.width
    file = num.file
    tied = num.tied
    live = set(lv.live_out_array(b).tolist())
    c = sum(int(width[v]) for v in live if file[v] == R_FILE)
    best = -1
    where: tuple[str, int] = (ENTRY, -1)

    def rset(vals: set[int]) -> set[int]:
        return {v for v in vals if file[v] == R_FILE}

    ops = num.ops[b]
    defs_b = num.op_defs[b]
    uses_b = num.op_uses[b]
    last = len(ops) - 1
    for k in range(last, -1, -1):
        d = defs_b[k]
        if across and isinstance(ops[k], CallOp):
            # the values live after the call that it does not define
            held = [v for v in live if file[v] == R_FILE and v not in d]
            n = sum(int(width[v]) for v in held)
            if stop == (CALL, k):
                return best, where, set(held)
            if n and across[min(n, len(across)) - 1] >= best:
                best, where = across[min(n, len(across)) - 1], (CALL, k)
        if d or k == last:
            after = c
            dead = [v for v in d if v not in live and file[v] == R_FILE]
            after += sum(int(width[v]) for v in dead)
            shared = [p for _, p in tied.get((b, k), ()) if p in live and file[p] == R_FILE]
            after -= sum(int(width[p]) for p in shared)
            if stop == (AFTER, k):
                return best, where, rset(live | set(dead)) - set(shared)
            if after >= best:
                best, where = after, (AFTER, k)
            for v in d:
                if v in live:
                    live.discard(v)
                    if file[v] == R_FILE:
                        c -= int(width[v])
        for v in uses_b[k]:
            if v not in live:
                live.add(v)
                if file[v] == R_FILE:
                    c += int(width[v])
        if stop == (BEFORE, k):
            return best, where, rset(live)
        if c >= best:
            best, where = c, (BEFORE, k)
    ent = c
    args = [a for a in num.arg_ids[b] if a not in live and file[a] == R_FILE]
    ent += sum(int(width[a]) for a in args)
    if stop == (ENTRY, -1):
        return best, where, rset(live | set(args))
    if ent >= best:
        best, where = ent, (ENTRY, -1)
    return max(best, 0), where, set()


def predicate_homes(liveness: Liveness, target: object) -> int:
    """R registers the allocator will add for spilled predicates: where more
    predicates are live than the P file holds (P0-P6), the excess goes to
    GPR homes, ``MAX_BITS`` to a register (passes/regalloc/pred_pack.py) -- R
    registers max live does not count."""
    reg_limit = getattr(target, "reg_limit", None)
    limit = int(reg_limit("P")) if callable(reg_limit) else 7
    excess = RegisterPressure(liveness).max.get(RegFile.P, 0) - limit
    return -(-excess // MAX_BITS) if excess > 0 else 0


__all__ = ["AFTER", "BEFORE", "CALL", "ENTRY", "R_FILE", "MaxLive", "Peak",
           "across_call_registers", "compute_max_live", "predicate_homes"]

