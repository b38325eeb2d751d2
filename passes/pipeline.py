"""``ori-ptxas``: every ori phase that exists, in ptxas's phase order.

Seed 001 "Pipeline Placement" numbers the phases ptxas runs; this pass runs
the ones ori has, in that order, each with the options ptxas would use
(the seeds' defaults: every phase here runs with its own defaults):

====  ==============================  ========================
phase seed name                       ori pass
====  ==============================  ========================
13    GeneralOptimizeEarly            ``ori-general-optimize``
15    OriBranchOpt                    ``ori-branch-opt``
16    OriPerformLiveDeadFirst         ``ori-dead-code``
18    OriLoopSimplification           ``ori-loop-simplify``
21    OriStrengthReduce               ``ori-strength-reduce``
22    OriLoopUnrolling                ``ori-loop-unroll``
24    OriPipelining                   ``ori-pipeline``
29    GeneralOptimize (addresses)     ``ori-general-optimize`` (addresses, adds, copies)
29    GeneralOptimize (partial CSE)   ``ori-cse``
35    OriHoistInvariantsEarly         ``ori-hoist-invariants-early``
54    OriDoRematEarly                 ``ori-remat``
58    GeneralOptimizeLate (CSE)       ``ori-cse-late``
59    OriLoopFusion (off, as ptxas)   ``ori-loop-fusion``
66    OriHoistInvariantsLate          ``ori-hoist-invariants-late``
79    OriHoistInvariantsLate2         ``ori-hoist-invariants-late2``
88    OriHoistInvariantsLate3         ``ori-hoist-invariants-late3``
--    ConvertMemoryToRegister (000)   ``ori-mem-to-reg``
--    Uniform datapath (000)          ``ori-uniform``
--    nv-remat-block (seed 002)       ``ori-remat-block``
--    block layout (ori)              ``ori-block-layout``
--    ABI lowering (seed 003)         ``ori-abi``
--    register allocation (seed 000)  ``ori-regalloc``
====  ==============================  ========================

The four LICM instances (seed 001 "Why Four Instances?") each follow a
phase that ori does not have yet (except the first), so today each sees
what the one before it left: phase 35 sees the unrolled loops of phase 22
with the PTX lowering's invariants (64-bit address arithmetic, IMAD.WIDE,
constant materialization, the division and square-root sequences of an
invariant divisor) after phase 29's partial CSE (``ori-cse``) has merged
the copies unrolling made of them -- without it Late3's x100 budget hoists
every copy (four reciprocal sequences of one divisor in
``loop_unroll4_unknown``: 34 registers, 21 with CSE); phase 66 (after
predication, 63), 79 (after late expansion, 78) and 88 (after GMMA fixup,
87) see phase 35's output, and move only what their larger budgets (100,
and x100 for Late3) make profitable that pass 0 did not.  When those
phases arrive they take their numbers between the instances.

**Pipelining and fusion** (seed 001).  ``ori-pipeline`` runs at phase 24,
after unrolling, on the single-block loops unrolling left, with
``max-code-growth=0``: it analyses and schedules every loop and says so in
its remarks, but keeps no prologue or epilogue.  The seed gives the phase no
profitability rule (``PipelineMIOVQToInstRatio`` is unset), and ptxas 13.0
was not seen to pipeline a loop: in the SASS of the 14 loops ori's
defaults would pipeline on the examples (CUB's single-tile reduce and
select kernels, ``block_histogram_sort``, Thrust's reduce) and of a
``#pragma unroll 1`` load-and-FMA loop, every load is consumed in its own
iteration and no loop has a prologue.  Pipelining them cost ori about 1000
SASS instructions over 135 kernels (benchmarks/README.md).  Alone,
``ori-pipeline`` has no code-growth limit.
``ori-loop-fusion`` runs at phase 59 with ptxas's default
``PerformLoopFusion=0``, i.e. it does nothing here.

**Rematerialization** (seed 002).  The IR-level pass (``ori-remat``,
CICC's nvvmrematerialize) runs where seed 004's progress table puts
*OriDoRematEarly*, phase 54 ("signals remat mode active"): after the
phases that raise register pressure (unrolling 22, the first LICM 35) and
before the later LICM instances -- which may hoist a clone it placed in a
loop back out (Late3's budget).  The machine-level pass
(``ori-remat-block``, nv-remat-block, "the final safety net") has no
phase number; seed 002 runs it after instruction selection on the code
the allocator gets, so it runs after ``ori-uniform`` -- its max live is
then the R file's, without the values the uniform datapath takes -- and
before ``ori-abi`` and ``ori-regalloc``, with the same register limit
(``max-regs``, ``override-directive-values``, ``target``).
``max-regs`` is not handed to ``ori-remat``'s ``remat-maxreg-ceiling``:
measured on Thrust's sort kernels under ``max-regs=32`` that made the
allocator spill more (benchmarks/README.md).

**Memory to registers** (seed 000).  *ConvertMemoryToRegisterOrUniform*
has no phase number either; seed 000 runs it in the allocator's pipeline
after the last ``HoistInvariants`` and before pre-colouring, so
``ori-mem-to-reg`` runs after the late LICM and before ``ori-abi``.
The same seed step "promotes ... to registers or uniform registers":
``ori-uniform`` (the uniform datapath) runs right after ``ori-mem-to-reg``,
so it also sees the promoted variables.

**Calling convention** (seed 003).  Neither seed 003 nor seed 004 gives
the ABI engine a phase number: seed 003's "Pipeline Integration" places it
after late legalization and right before register allocation, called per
function from the compilation driver.  ``ori-abi`` therefore runs last
before ``ori-regalloc``, after ``ori-mem-to-reg``, ``ori-uniform`` and ``ori-remat-block`` (which
thus never see the pre-coloured copies); it gets the register limit options too.

The seeds give register allocation no phase number; ptxas allocates after
its last numbered optimization phase, so ``ori-regalloc`` runs last.  A new
phase joins :data:`PHASES` at its seed number (the tuple is kept sorted,
which a test checks).

The pass is registered like any other (``-p ori-ptxas``, ``--help-passes``,
``xdsl-opt``) so the fuzz runner checks it on every generated program as it
does each phase alone.  Its options are the ones a user of ``ptxas`` sets
from the command line (``--maxrregcount`` is ``max-regs``,
``--override-directive-values`` is ``override-directive-values``, ``-v`` is
``stats``) plus ori's ``remarks`` and ``disable``.  As in ptxas, ``max-regs``
is ignored for a kernel whose ``.maxnreg`` / ``.maxntid`` / ``.reqntid`` sets
its register limit unless ``override-directive-values`` is given
(``passes/regalloc/budget.py``).

Input invariants: what the first phase requires (SSA ``ori.func`` bodies
with virtual registers); each phase checks its own contract as it runs.
"""

from __future__ import annotations

import dataclasses
from dataclasses import dataclass
from typing import TYPE_CHECKING, ClassVar, NamedTuple

from xdsl.context import Context
from xdsl.dialects.builtin import ModuleOp
from xdsl.passes import ModulePass
from xdsl.utils.exceptions import PassFailedException

from passes.contract import Requirement, option, require
from passes.registry import all_passes
from passes.timing import timed

if TYPE_CHECKING:
    from passes.remat_block.driver import Report


class Phase(NamedTuple):
    """One step of the pipeline."""

    number: int | None
    """The seed's phase number (None: the seeds give none; runs after all)."""
    seed_name: str
    pass_name: str
    options: tuple[tuple[str, object], ...] = ()
    """Options this instance gets beyond ``phase_options`` (field names): a
    pass that runs twice with different rule sets."""


_ADDRESS_RULES_ONLY: tuple[tuple[str, object], ...] = (
    ("const_prop", False), ("fold", False), ("wide_add", False), ("lea", False),
    ("frame_addr", False))
"""Phase 29's general-optimize instance: after unrolling, only the rules the
unrolled copies feed (their ``p + k*step`` addresses into the accesses'
offsets, their chained adds into three-input IADD3s, the PACK/UNPACK pairs
and copies around them); constants were propagated at phase 13 and
unrolling adds none that const-prop would move."""

PHASES: tuple[Phase, ...] = (
    Phase(13, "GeneralOptimizeEarly", "ori-general-optimize"),
    Phase(15, "OriBranchOpt", "ori-branch-opt"),
    Phase(16, "OriPerformLiveDeadFirst", "ori-dead-code"),
    Phase(18, "OriLoopSimplification", "ori-loop-simplify"),
    Phase(21, "OriStrengthReduce", "ori-strength-reduce"),
    Phase(22, "OriLoopUnrolling", "ori-loop-unroll"),
    Phase(24, "OriPipelining", "ori-pipeline", (("max_code_growth", 0),)),
    Phase(29, "GeneralOptimize: address offsets of the unrolled copies", "ori-general-optimize",
          _ADDRESS_RULES_ONLY),
    Phase(29, "GeneralOptimize: partial CSE", "ori-cse"),
    Phase(35, "OriHoistInvariantsEarly", "ori-hoist-invariants-early"),
    Phase(54, "OriDoRematEarly", "ori-remat"),
    Phase(58, "GeneralOptimizeLate", "ori-cse-late"),
    Phase(59, "OriLoopFusion", "ori-loop-fusion"),
    Phase(66, "OriHoistInvariantsLate", "ori-hoist-invariants-late"),
    Phase(79, "OriHoistInvariantsLate2", "ori-hoist-invariants-late2"),
    Phase(88, "OriHoistInvariantsLate3", "ori-hoist-invariants-late3"),
    Phase(None, "ConvertMemoryToRegisterOrUniform (seed 000)", "ori-mem-to-reg"),
    Phase(None, "ConvertMemoryToRegisterOrUniform: uniform registers (seed 000)", "ori-uniform"),
    Phase(None, "nv-remat-block (seed 002, machine level)", "ori-remat-block"),
    Phase(None, "block layout (ori; no seed phase)", "ori-block-layout"),
    Phase(None, "ABI lowering (seed 003)", "ori-abi"),
    Phase(None, "register allocation", "ori-regalloc"),
)


def phase_names() -> list[str]:
    return [p.pass_name for p in PHASES]


@dataclass(frozen=True)
class PtxasPipelinePass(ModulePass):
    """The ptxas phase order: general-optimize, branch-opt, dead-code, loop-simplify, loop-unroll, pipeline, cse, LICM, remat, cse-late, loop-fusion (off), the later LICM instances, remat-block, mem-to-reg, uniform, block layout, abi, regalloc."""

    name = "ori-ptxas"
    REQUIRES: ClassVar[frozenset[Requirement]] = frozenset({Requirement.SSA})
    PRESERVES: ClassVar[frozenset[type]] = frozenset()

    max_regs: int | None = option(
        None, "ptxas --maxrregcount: the R-register cap handed to ori-regalloc, ignored for a "
        "kernel whose .maxnreg/.maxntid/.reqntid sets its limit unless "
        "override-directive-values (unset: the directives' limit or the target's)")
    override_directive_values: bool = option(
        False, "ptxas --override-directive-values: max-regs overrides the limit of the PTX "
        "directives (.maxnreg, .maxntid, .reqntid, .minnctapersm)")
    target: str | None = option(
        None, "SM target for every phase that takes one (unset: the module's .target)")
    strategy: str = option(
        "fatpoint", "ori-regalloc strategy: 'fatpoint' (the seed's allocator) or 'ssa'")
    stats: bool = option(
        False, "ptxas -v: print the ori-stats lines after allocation")
    remarks: bool = option(
        False, "ori: print every phase's remarks (unrolling decisions, allocation remarks)")
    occupancy_retune: bool = option(
        True, "ori: a kernel whose ori-remat-block copies were aimed at occupancy and whose "
        "allocation ended near an occupancy step is compiled again from that phase, aimed one "
        "step up or higher while registers are spare; kept for the same or more warps at fewer "
        "loop-weighted instructions; one whose copies the seed's limits stopped short of their "
        "target is compiled again with escalated limits a step up at a time; one whose "
        "ori-uniform copies were declined for no more warps is compiled again with them "
        "(passes/occupancy_retune.py)")
    disable: str | tuple[str, ...] = option(
        "", "ori: pass names to leave out, comma-separated (disable=ori-cse,ori-remat; the "
        "pipeline syntax gives a list, a quoted string works too); ori-regalloc cannot be "
        "left out")

    def phase_text(self, phase: Phase) -> str:
        """``phase`` as ``-p`` spells it with the options this pipeline gives
        it (``phase_options`` plus the phase's own), for scripts that run the
        phases one by one."""
        opts = self.phase_options(phase.pass_name) | dict(phase.options)
        def val(v: object) -> str:
            return str(v).lower() if isinstance(v, bool) else str(v)
        inner = " ".join(f"{k.replace('_', '-')}={val(v)}" for k, v in opts.items())
        return phase.pass_name + ("{" + inner + "}" if inner else "")

    def phase_options(self, pass_name: str) -> dict[str, object]:
        """The options this pipeline gives one phase (as ``-p`` would spell them):
        ``remarks`` to every phase that takes it; the register limit
        (``max-regs``, ``override-directive-values``, ``target``) to every
        phase that takes it (``ori-remat-block``, ``ori-regalloc``); the
        strategy and ``ptxas -v``'s ``stats`` to the allocator."""
        takes = {f.name for f in dataclasses.fields(all_passes()[pass_name]())}
        opts: dict[str, object] = {}
        if self.remarks and "remarks" in takes:
            opts["remarks"] = True
        if pass_name == "ori-regalloc":
            opts["strategy"] = self.strategy
            opts["stats"] = self.stats
        if pass_name == "ori-abi" and self.strategy == "ssa":
            # the SSA allocator does not take the pre-colouring: set up and
            # check the convention only (passes/regalloc/abi.py)
            opts["lower_calls"] = False
        limits = {"max_regs": self.max_regs, "target": self.target,
                  "override_directive_values": self.override_directive_values or None}
        opts.update({k: v for k, v in limits.items() if v is not None and k in takes})
        return opts

    def skipped(self) -> set[str]:
        given = self.disable if isinstance(self.disable, tuple) else (self.disable,)
        names = {n.strip() for item in given for n in item.split(",") if n.strip()}
        unknown = names - set(phase_names())
        if unknown:
            raise PassFailedException(
                f"ori-ptxas: disable names no phase of the pipeline: {', '.join(sorted(unknown))} "
                f"(phases: {', '.join(phase_names())})")
        if "ori-regalloc" in names:
            raise PassFailedException("ori-ptxas: ori-regalloc cannot be disabled (the pipeline "
                                      "ends in allocated code)")
        return names

    def apply(self, ctx: Context, op: ModuleOp) -> None:
        require(self, op)
        if self.strategy not in ("fatpoint", "ssa"):
            raise PassFailedException(
                f"ori-ptxas: strategy must be 'fatpoint' or 'ssa', got {self.strategy!r}")
        skip = self.skipped()
        if op.body.block.first_op is None:
            # An empty module gives no phase anything to do, and loading the
            # phases (numpy, the dialect, every pass) would be most of
            # ori-opt's start-up on it (issue 20); the phases' own option
            # checks are not reached.
            return
        registry = all_passes()
        phases = [ph for ph in PHASES if ph.pass_name not in skip]
        retuning = self.occupancy_retune and any(
            ph.pass_name == "ori-remat-block" for ph in phases)
        snapshot: ModuleOp | None = None
        uniform_snapshot: ModuleOp | None = None
        reports: dict[str, Report] = {}
        declined: dict[str, int] = {}
        for phase in phases:
            with timed(f"{self.name}/{phase.pass_name}"):
                cls = registry[phase.pass_name]()
                opts = self.phase_options(phase.pass_name) | dict(phase.options)
                if retuning and phase.pass_name == "ori-regalloc":
                    opts["stats"] = False  # printed below, after the retune
                if retuning and phase.pass_name == "ori-remat-block":
                    snapshot = op.clone()
                    reports = cls(**opts).run(op)
                    continue
                if retuning and phase.pass_name == "ori-uniform":
                    # its input, for a rerun with the copies it declines
                    before_uniform = op.clone()
                    declined = cls(**opts).run(op)
                    uniform_snapshot = before_uniform if declined else None
                    continue
                cls(**opts).apply(ctx, op)  # type: ignore[arg-type]
        if snapshot is not None:
            with timed(f"{self.name}/occupancy-retune"):
                names = [ph.pass_name for ph in phases]
                tail = phases[names.index("ori-remat-block"):]
                self._retune(ctx, op, snapshot, reports, tail)
                if uniform_snapshot is not None:
                    self._retune_uniform(ctx, op, uniform_snapshot, declined,
                                         phases[names.index("ori-uniform"):])
            if self.stats:
                # lazy: start-up loads no phase module (issue 20)
                from passes.stats import print_stats

                print_stats(op, target=self.target)

    def _retune_uniform(self, ctx: Context, op: ModuleOp, snapshot: ModuleOp,
                        declined: dict[str, int], tail: list[Phase]) -> None:
        """passes/occupancy_retune.py step 4 with this pipeline's phases
        from ``ori-uniform`` on, its copies taken wherever they lower the
        count."""
        registry = all_passes()

        def run(m: ModuleOp) -> None:
            for phase in tail:
                opts = self.phase_options(phase.pass_name) | dict(phase.options)
                if phase.pass_name == "ori-regalloc":
                    opts["stats"] = False
                if phase.pass_name == "ori-uniform":
                    opts["hot_goal"] = "registers"
                registry[phase.pass_name]()(**opts).apply(ctx, m)

        # lazy: start-up loads no phase module (issue 20)
        from passes.occupancy_retune import retune_uniform

        retune_uniform(op, snapshot, declined, run, self.target, self.remarks)

    def _retune(self, ctx: Context, op: ModuleOp, snapshot: ModuleOp,
                reports: dict[str, Report], tail: list[Phase]) -> None:
        """passes/occupancy_retune.py with this pipeline's phases from
        ``ori-remat-block`` on."""
        registry = all_passes()

        def opts_of(phase: Phase) -> dict[str, object]:
            opts = self.phase_options(phase.pass_name) | dict(phase.options)
            if phase.pass_name == "ori-regalloc":
                opts["stats"] = False
            return opts

        def run(m: ModuleOp, targets: dict[str, int], remat_options: dict[str, int]) -> None:
            for phase in tail:
                cls = registry[phase.pass_name]()
                if phase.pass_name == "ori-remat-block":
                    cls(**(opts_of(phase) | remat_options)).run(m, targets)
                else:
                    cls(**opts_of(phase)).apply(ctx, m)  # type: ignore[arg-type]

        # lazy: start-up loads no phase module (issue 20)
        from passes.occupancy_retune import retune

        remat = registry["ori-remat-block"]()(**opts_of(tail[0]))
        retune(op, snapshot, reports, remat, run, self.remarks)


__all__ = ["PHASES", "Phase", "PtxasPipelinePass", "phase_names"]
