"""``ori-ptxas``'s occupancy retune: the allocation, not the model, judges
how far ``ori-remat-block`` had to go for the warps a kernel ends with.

``ori-remat-block`` aims a kernel's copies at the max live whose register
count -- max live + R1 + the two registers ptxas withholds + the GPR homes
of the predicates the P file cannot hold -- reaches an occupancy goal
(passes/remat_block/__init__.py, "Occupancy target").  The allocation
lands a kernel-specific distance from that estimate: below it where the
allocator's definition sinking keeps predicates in the P file (Triton's
matmul_bf16 on sm_80: aimed at 64 registers, allocated 60), above it where
register pairs and quads leave holes (Triton's attention: aimed at 64,
allocated 66, past the 32-warp step).  Either way the copies were chosen
for a count the kernel does not have: every allocation from 57 to 64
registers keeps the same 32 warps resident, and every copy in a loop costs
an instruction per iteration.

So, after the pipeline, each kernel whose copies were aimed at occupancy
(a kernel that makes no call but to the device runtime), or which stopped
short of its target (step 3), is compiled again from its input to
``ori-remat-block`` -- a module with that kernel alone, the same phases
and options, the pass aimed at a max-live target of ours -- where its
allocation ended near an occupancy step:

1. **A step up.**  Ended at most ``MIN_SLACK`` registers above the highest
   count of the next step (more warps): aimed that many registers lower,
   then lower by what each run still ended above the step (at most
   ``STEP_TRIALS`` runs); kept when the allocation reaches the step, spills
   no more and its instructions grow by at most ``STEP_COST`` (Triton's
   matmul_f16out on sm_80: 73 -> 72 registers, 24 -> 28 warps, K loop 114
   -> 116 instructions; ptxas: 72 registers, 118; matmul_i8 on sm_90a
   before ``ori-regalloc`` sank its address pairs: 66 -> 64, 28 -> 32
   warps, in the fourth run).
2. **Spare registers.**  Ended at least ``MIN_SLACK`` registers below the
   highest count that keeps its warps: aimed higher by that slack, then by
   half of it; the first run that keeps the warps, spills no more and
   costs fewer instructions is kept, and the search goes on from it, at
   most ``MAX_TRIALS`` runs (Triton's matmul_bf16 on sm_80: 60 -> 64
   registers, 32 warps either way, K loop 91 -> 86, ptxas's 86 at 68
   registers; attention 66 -> 71 registers, 28 warps, 210 -> 203).

3. **Escalated limits.**  ``ori-remat-block`` stopped short of its
   target, or gave up the copies for an occupancy goal it did not reach
   (every further candidate over the seed's
   ``nv-remat-block-map-size-limit``, ``-max-cost`` or ``-single-cost``)
   and step 1 did not apply (the allocation ended more than
   ``MIN_SLACK`` registers above the next step) or kept nothing: aimed at
   the next step with the limits
   of ``ESCALATED`` (at most ``STEP_TRIALS`` runs, aiming lower by what
   each run still ended above the step); kept when the allocation reaches
   the step, spills no more and its loop-weighted instructions grow by at
   most ``ESCALATED_SHARE`` of the relative gain in warps; then the next
   step, within the same ``STEP_TRIALS`` runs (Thrust's
   ``thrust_seq_sort_by_key`` on sm_90: max live 82 with the seed's
   limits, 84 registers and 20 warps; aimed at 78, 80 registers and 24
   warps at fewer instructions; at 70, 72 registers and 28 warps, ptxas's
   count).  Step 2 then goes on with the escalated limits.

4. **Uniform copies.**  ``ori-uniform`` takes copies of the values live
   where the R file is fullest only where its estimate of the allocation
   reaches more resident warps; it cannot see how far ``ori-remat-block``
   will lower the count after it.  A kernel whose copies it declined so
   (``UniformPass.run`` names them) is compiled again alone from its input
   to ``ori-uniform`` with the copies taken (``hot-goal=registers``) and
   the phases after it; kept where it reaches more warps, spills no more
   and costs at most ``STEP_COST`` more (CUB's ``block_radix_sort_keys`` on
   sm_80: the copies take its max live from 33 to 31, ``ori-remat-block``
   then reaches its target, 36 -> 32 registers, 48 -> 64 warps).  One
   extra compilation per such kernel.

Instructions are counted ``10 ** loop depth`` times (``ori-regalloc``'s
default ``estimated-loop-iterations``).  At most ``MAX_TRIALS`` +
2 * ``STEP_TRIALS`` extra compilations of the phases from ``ori-remat-block``
on per such kernel,
none for one that ends away from a step (about 0.6 s per run for
Triton's attention).  ori's rule: the seeds' ``nv-remat-block`` has a
fixed target.

**Visible**: with ``remarks=true`` the kept run's own remarks and one line
saying what changed; ``ori-ptxas{occupancy-retune=false}`` turns it off.
"""

from __future__ import annotations

import contextlib
import io
from collections.abc import Callable
from dataclasses import dataclass, field

from xdsl.dialects.builtin import ModuleOp
from xdsl.ir import Operation
from xdsl.utils.exceptions import PassFailedException

from ori_dialect.analysis import functions_of
from ori_dialect.analysis.loops import LoopInfo
from ori_dialect.ops.func import FuncOp
from passes.contract import emit_line, emit_remark
from passes.pipeline_modulo.pressure_gate import sass_count
from passes.regalloc.budget import function_target
from passes.remat.target import block_threads
from passes.remat_block import RematBlockPass
from passes.remat_block.driver import Report
from targets.descriptor import SMTarget
from targets.errors import TargetError
from targets.occupancy import kernel_warps, max_regs_for_warps

MIN_SLACK = 2
"""Registers below the warps' highest count an allocation must end for a
rerun: one register of slack is the estimate's usual error."""

MAX_TRIALS = 3
"""Compilations from ``ori-remat-block`` on aimed higher per kernel, at most
(besides the one aimed an occupancy step up)."""

STEP_TRIALS = 4
"""Runs aimed at the occupancy step up, at most: each aims lower by the
registers the last one ended above the step (Triton's matmul_i8 on sm_90a,
before ``ori-regalloc`` sank its address pairs: aimed at max live 73, 66
registers; 71 and 70, 65; 69, 64 -- ptxas's count -- at 4.5% more
loop-weighted instructions; no example needs a second run now)."""

STEP_COST = 0.05
"""How much the loop-weighted instructions may grow for one occupancy step
up (Triton's matmul_f16out on sm_80: 73 -> 72 registers, 24 -> 28 warps,
K loop 114 -> 116 instructions, ptxas's 118 at 72)."""

ESCALATED: dict[str, int] = {
    "nv_remat_block_map_size_limit": 12,
    "nv_remat_block_max_cost": 1000,
    "nv_remat_block_single_cost": 20,
}
"""``ori-remat-block`` options for step 3 (module docstring): twice the
seed's map size (6) and single cost (10), ten times its max cost (100).
Measured on thrust_seq_sort_by_key (sm_90): the copies that take its max
live from 82 to 70 each recompute a 64-bit address chain (IADD3, IADD3.X,
PACK: cost over 100 in a loop) for reads spread over more than six
blocks."""

ESCALATED_SHARE = 0.5
"""With the escalated limits, the loop-weighted instructions may grow by at
most this share of the relative gain in resident warps over the kernel's
first allocation (thrust_seq_sort_by_key on sm_90: 20 -> 28 warps, +40%,
for 16% more).  A step this far from the allocation is bought with copies
in loops, which ``STEP_COST``'s flat 5% would not allow; bounding the
growth by the gain keeps a small step cheap."""

LOOP_WEIGHT = 10.0
"""Instructions in a loop count this many times per depth
(``ori-regalloc``'s ``estimated-loop-iterations`` default)."""


@dataclass
class _Run:
    func: FuncOp
    regs: int
    spills: int
    cost: float
    stderr: str


def weighted_instructions(func: FuncOp) -> float:
    """SASS instructions, each counted ``LOOP_WEIGHT ** loop depth`` times."""
    li = LoopInfo.compute(func)
    return sum(sass_count(blk) * LOOP_WEIGHT ** li.depth(b)
               for b, blk in enumerate(li.cfg.blocks))


def _int_attr(func: FuncOp, name: str) -> int:
    a = func.attributes.get(name)
    return int(a.value.data) if a is not None else 0  # type: ignore[attr-defined]


PhaseRunner = Callable[[ModuleOp, dict[str, int], dict[str, int]], None]
"""Runs ``ori-remat-block`` (with per-function targets and the given
options over the pipeline's) and the phases after it on a module."""


def _alone(snapshot: ModuleOp, func: FuncOp) -> ModuleOp:
    """A module with ``snapshot``'s attributes and everything but its other
    functions (globals stay: the kernel may read them), ``func`` cloned."""
    m = ModuleOp([], attributes=dict(snapshot.attributes))
    for op in snapshot.body.block.ops:
        if op is func or not isinstance(op, FuncOp):
            m.body.block.add_op(op.clone())
    return m


def _trial(snapshot: ModuleOp, func: FuncOp, target: int, run: PhaseRunner,
           options: dict[str, int]) -> _Run | None:
    name = func.sym_name.data
    m = _alone(snapshot, func)
    buf = io.StringIO()
    try:
        with contextlib.redirect_stderr(buf):
            run(m, {name: target}, options)
    except PassFailedException:
        return None
    got = next(f for f in functions_of(m) if isinstance(f, FuncOp) and f.sym_name.data == name)
    return _Run(got, _int_attr(got, "ori.num_regs"), _int_attr(got, "ori.spill_stores"),
                weighted_instructions(got), buf.getvalue())


@dataclass
class RetuneKernel:
    """A kernel being retuned: its function now and what it costs."""

    func: FuncOp
    tgt: SMTarget
    threads: int | None
    regs: int
    cost: float
    spills: int
    reached: int
    """The max live ``ori-remat-block`` aimed at or reached for ``func``."""
    goal: int | None = None
    """The max live ``ori-remat-block`` set out to reach (``Report.goal``;
    None: not known, no step 3)."""
    aimed: bool = True
    """The copies were aimed at an occupancy goal (steps 1 and 2 apply);
    otherwise the kernel stopped short of the seed's target or gave up an
    occupancy goal, and only step 3 applies (step 2 after one kept)."""
    stderr: str = ""
    options: dict[str, int] = field(default_factory=dict)
    """``ori-remat-block`` options of the run kept (empty: the pipeline's)."""

    @property
    def warps(self) -> int:
        return kernel_warps(self.tgt, self.regs, self.threads)

    @property
    def top(self) -> int:
        """The highest register count that keeps :attr:`warps`."""
        return max_regs_for_warps(self.tgt, self.warps, self.threads)

    def keep(self, got: _Run, target: int, options: dict[str, int] | None = None) -> None:
        _swap(self.func, got.func)
        self.func, self.regs, self.cost, self.stderr = got.func, got.regs, got.cost, got.stderr
        self.reached = target
        if options is not None:
            self.options = options

    @property
    def next_step(self) -> int | None:
        """The highest register count that gives more warps, or None."""
        return next((r for r in range(self.regs - 1, 0, -1)
                     if kernel_warps(self.tgt, r, self.threads) > self.warps), None)

    def step_up(self, src: FuncOp, snapshot: ModuleOp, run: PhaseRunner, step: int,
                affordable: Callable[[_Run, int], bool], options: dict[str, int],
                runs: int = STEP_TRIALS) -> tuple[bool, int]:
        """Aim at ``step`` registers (steps 1 and 3 of the module docstring)
        with ``options``: at most ``runs`` runs, each aimed lower by what
        the last one ended above ``step``, while each spills no more and is
        ``affordable`` for ``step``; a run that reaches ``step`` is kept.
        Returns whether one was kept and the runs made."""
        target = self.reached - (self.regs - step)
        for n in range(1, runs + 1):
            got = _trial(snapshot, src, target, run, options)
            if got is None or got.spills > self.spills or not affordable(got, step):
                return False, n
            if got.regs <= step:
                self.keep(got, target, options)
                return True, n
            # the count does not follow the max live one for one: aim
            # lower by what is still missing
            target -= got.regs - step
        return False, runs


def retune_kernel(k: RetuneKernel, src: FuncOp, snapshot: ModuleOp, ceiling: int,
                  run: PhaseRunner) -> None:
    """Steps 1 to 3 of the module docstring for one kernel: ``src`` is
    its function in ``snapshot`` (the module before ``ori-remat-block``),
    ``ceiling`` the highest max-live target, ``run`` the phases; ``k`` is
    updated in place with the run kept."""
    trials = 0
    cost = k.cost
    stepped = False
    step = k.next_step
    if k.aimed and step is not None and k.regs - step <= MIN_SLACK:
        # one occupancy step up, where the allocation ended just above it
        stepped, _ = k.step_up(src, snapshot, run, step,
                               lambda got, _: got.cost <= cost * (1 + STEP_COST), k.options)
    if not stepped and k.goal is not None:
        # the seed's limits stopped the copies short of their target: a
        # step up with escalated limits, and another after each kept
        warps = k.warps

        def affordable(got: _Run, step: int) -> bool:
            # a run short of the step is judged by the warps aimed at: the
            # next, aimed lower, may reach them
            gain = kernel_warps(k.tgt, step, k.threads) / warps - 1
            return got.cost <= cost * (1 + ESCALATED_SHARE * gain)

        runs = STEP_TRIALS
        while runs > 0 and k.reached > k.goal and (step := k.next_step) is not None:
            kept_one, used = k.step_up(src, snapshot, run, step, affordable, ESCALATED, runs)
            runs -= used
            if not kept_one:
                break
    if not (k.aimed or k.options):
        return
    # then copies that buy no warp: aim higher while registers are spare
    while trials < MAX_TRIALS and k.top - k.regs >= MIN_SLACK:
        slack = k.top - k.regs
        kept: tuple[_Run, int] | None = None
        for target in sorted({min(k.reached + slack, ceiling),
                              min(k.reached + slack // 2, ceiling)}, reverse=True):
            if target <= k.reached or trials >= MAX_TRIALS:
                continue
            trials += 1
            got = _trial(snapshot, src, target, run, k.options)
            if got is None or got.regs > k.top or got.spills > k.spills or got.cost >= k.cost:
                continue
            kept = (got, target)
            break
        if kept is None:
            break
        k.keep(*kept)


def retune(module: ModuleOp, snapshot: ModuleOp, reports: dict[str, Report],
           remat: RematBlockPass, run: PhaseRunner, remarks: bool) -> int:
    """Rerun the kernels of ``reports`` (what ``RematBlockPass.run``
    returned: kernels whose copies were aimed at occupancy, or that stopped
    short of their target) from ``snapshot`` (the module before that phase)
    where their allocation ended near an occupancy step, or with escalated
    limits (module docstring); returns the kernels replaced."""
    before = {f.sym_name.data: f for f in functions_of(snapshot) if isinstance(f, FuncOp)}
    replaced = 0
    for func in [f for f in functions_of(module) if isinstance(f, FuncOp)]:
        name = func.sym_name.data
        rep = reports.get(name)
        src = before.get(name)
        if rep is None or src is None or not func.is_kernel:
            continue
        tgt = function_target(func, remat.target)
        if not isinstance(tgt, SMTarget):
            continue
        k = RetuneKernel(func, tgt, block_threads(func), _int_attr(func, "ori.num_regs"),
                    weighted_instructions(func), _int_attr(func, "ori.spill_stores"),
                    rep.after, rep.goal, rep.aimed)
        try:
            first = (k.regs, k.warps, k.cost)
            retune_kernel(k, src, snapshot, remat._seed_target(src), run)
        except TargetError:
            continue
        if (k.regs, k.warps, k.cost) == first:
            continue
        replaced += 1
        if remarks:
            for line in k.stderr.splitlines():
                emit_line(line)
            limits = (" with " + " ".join(f"{o.replace('_', '-')}={v}"
                                          for o, v in k.options.items())) if k.options else ""
            emit_remark(name, f"ori-remat-block rerun at max live {k.reached}{limits} (reached "
                        f"{rep.after}): {first[0]} -> {k.regs} registers, {first[1]} -> "
                        f"{k.warps} resident warps, loop-weighted instructions "
                        f"{first[2]:g} -> {k.cost:g}", pass_name="ori-ptxas")
    return replaced


def retune_uniform(module: ModuleOp, snapshot: ModuleOp, declined: dict[str, int],
                   run: Callable[[ModuleOp], None], target: str | None,
                   remarks: bool) -> int:
    """Step 4 of the module docstring: each kernel of ``declined`` (what
    ``UniformPass.run`` returned) compiled again alone from ``snapshot``
    (the module before ``ori-uniform``) by ``run`` (the phases from
    ``ori-uniform`` on, its copies taken whenever they lower the count);
    kept where it reaches more resident warps, spills no more and its
    loop-weighted instructions grow by at most ``STEP_COST``.  Returns the
    kernels replaced."""
    before = {f.sym_name.data: f for f in functions_of(snapshot) if isinstance(f, FuncOp)}
    replaced = 0
    for func in [f for f in functions_of(module) if isinstance(f, FuncOp)]:
        name = func.sym_name.data
        src = before.get(name)
        if name not in declined or src is None or not func.is_kernel:
            continue
        tgt = function_target(func, target)
        if not isinstance(tgt, SMTarget):
            continue
        threads = block_threads(func)
        regs, spills = _int_attr(func, "ori.num_regs"), _int_attr(func, "ori.spill_stores")
        cost = weighted_instructions(func)
        # the phases take no max-live target here: ori-remat-block aims as usual
        got = _trial(snapshot, src, 0, lambda m, _targets, _options: run(m), {})
        if got is None:
            continue
        try:
            warps = kernel_warps(tgt, regs, threads)
            got_warps = kernel_warps(tgt, got.regs, threads)
        except TargetError:
            continue
        if got_warps <= warps or got.spills > spills or got.cost > cost * (1 + STEP_COST):
            continue
        _swap(func, got.func)
        replaced += 1
        if remarks:
            for line in got.stderr.splitlines():
                emit_line(line)
            emit_remark(name, f"ori-uniform rerun with the copies it declined (largest R count "
                        f"{declined[name]}): {regs} -> {got.regs} registers, {warps} -> "
                        f"{got_warps} resident warps, loop-weighted instructions {cost:g} -> "
                        f"{got.cost:g}", pass_name="ori-ptxas")
    return replaced


def _swap(old: FuncOp, new: Operation) -> None:
    parent = old.parent_block()
    assert parent is not None
    new.detach()
    parent.insert_op_before(new, old)
    old.detach()
    old.erase(safe_erase=False)


__all__ = ["ESCALATED", "ESCALATED_SHARE", "MAX_TRIALS", "MIN_SLACK", "STEP_COST", "STEP_TRIALS",
           "PhaseRunner", "RetuneKernel", "retune", "retune_kernel", "retune_uniform",
           "weighted_instructions"]
