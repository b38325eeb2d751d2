"""Register budgets: how many registers of each file a function may use and
which of them are reserved (seed 000 "Register Classes", seed 003 "Reserved
Registers" and the 7016 check of "Master ABI Setup").

**R budget** (:func:`compute_budget`), ptxas 13.0's rule as ``ptxas -v``
shows it (sm_80, sm_86, sm_90, sm_90a; kernels of 60..230 live values with
each combination of directives and options):

1. a kernel's PTX directives set its limit: ``.maxnreg N`` (``maxnreg`` on
   ``ori.func``) is N; otherwise ``.maxntid`` / ``.reqntid`` (and
   ``.minnctapersm``) give the *thread-count limit*
   (:func:`thread_count_limit`): the most registers per thread at which
   ``ceil(threads / 32) * minnctapersm`` warps are resident at once, the
   occupancy rule of :func:`targets.occupancy.max_regs_for_warps` (per
   sub-partition, per-warp allocation unit of 256): 1024 threads -> 64, 768
   -> 80, 640 -> 96, 320 -> 168, 256 x 4 CTAs -> 64, 128 -> 255.  A
   ``.minnctapersm`` that asks for more warps than the SM holds is ignored
   with ptxas's ``Value of threads per SM for entry K is out of range.
   .minnctapersm will be ignored``;
2. ``max-regs`` (``--maxrregcount``) is the limit of a function without
   such directives, and **is ignored where the directives set one**, larger
   or smaller: ``.maxnreg 40`` under ``--maxrregcount 32`` allocates 40
   registers and ``.maxntid 128`` under ``--maxrregcount 32`` allocates the
   64 a wgmma accumulator needs.  ptxas -v says so in some cases only --
   ``Overriding global maxrregcount 32 with entry-specific value 40 of
   .maxnreg``, ``Overriding global maxrregcount 32 with entry-specific value
   255 computed using thread count`` (with ``.minnctapersm``) -- and says
   nothing for ``.maxntid`` / ``.reqntid`` alone; ori remarks on every
   ignored ``max-regs`` (ptxas's line where it prints one);
3. ``override-directive-values`` (ptxas's ``--override-directive-values``,
   "values provided with the PTX directives are overriden by the
   corresponding option values") makes ``max-regs`` the limit in every case,
   above the directive's too (``.maxnreg 40`` with ``--maxrregcount 128``
   allocates 72).

Without ``max-regs`` the limit is the directives', else the target's (255 on
every built-in SM).  A limit above the target's is an error.  (ptxas also
lowers a kernel far below its thread-count limit where that limit alone
would spill -- 32 registers at ``.maxntid 320`` with 180 live values --
which ori does not model.)  For a function that takes part in the calling
convention (a device function, or a kernel containing a ``CALL``) a budget
below the target's ABI minimum (16 on sm_50..53, 24 on sm_60..90a, none from
sm_100) is raised to the minimum with ptxas's warning 7016
``regcount N specified below abi_minimum of M``.

**Reserved registers.**  Decision (docs/architecture.md "Sources and principles"):

* every function reserves ``R1``, the stack pointer ptxas initialises from
  ``c[0x0][stack_init]`` in every kernel it compiles (the register count
  includes it);
* seed 003 ("Registers R0--R3 are reserved by the ABI and cannot be used
  for general allocation ... unconditional across all SM generations") has
  a function that takes part in the calling convention reserve
  ``R0``-``R3``.  ptxas 13.0 does not: with ``-c`` its device functions
  compute in R0 and R3 and save R2 like R16-R31 (``STL [R1], R2``), and
  its kernels keep values in R2 across calls (examples/abi/abi_calls.cu,
  ``cuobjdump -sass``).  ori follows ptxas (docs/architecture.md, "where
  ptxas disagrees with a note"): only R1 is reserved, R2 is preserved
  (``targets.descriptor.SMTarget.abi_preserved_extra``) and R0, R3 are
  scratch; ``ori-abi{reserve-r0-r3=true}`` gives the seed's reading
  (:func:`low_reserved`);
* the fixed registers RZ/URZ/PT/UPT are never allocatable (their index is one
  past the file's last register).

* on sm_70 and later the **two registers ptxas withholds** at the top of the
  budget: ``ptxas -v`` reports ``Used N registers`` with N = highest R
  register in the SASS + 1 + 2 on every sm_70..sm_120 kernel, and a
  ``--maxrregcount 32`` kernel never goes above R29 (evidence in
  ``passes/stats.py``).  They are reserved as ``limit-2`` and ``limit-1`` so
  that the count ori reports never exceeds the budget; :func:`hidden_regs`.

**Profile lower bound.**  ptxas 12.9 and 13.0 raise any per-thread limit below
24 on sm_70 and later, for every kernel (not only those that use the ABI),
with ``ptxas warning : For profile sm_80 adjusting per thread register count
of 16 to lower bound of 24`` (``--maxrregcount``) or ``For entry k adjusting
...`` (``.maxnreg``); sm_50/sm_60 (ptxas 12.9) accept 16.  (ptxas prints
the ``--maxrregcount`` warning once per compilation, ori once per function.)  ori does the same
with ``profile-lower-bound=true``; it is off by default so that small
``max-regs`` values keep forcing spills in tests, and ori says (a note on
stderr) when a limit ptxas would raise is used as given.

Other files: UR, P, UP and B use the target's limits (``register_limits``)
with nothing reserved.

**Occupancy-aware budget model** (seed 000 "Budget Pressure Model
(+1600 -- +1744)" and "Piecewise Budget Fraction Evaluation";
``ori-regalloc{occupancy-budget=true}``, off by default: nothing in the seed
says ptxas enables it by default, and ptxas's default counts on the example
kernels show no such squeeze).  :class:`BudgetModel` holds the seed's knobs
(max threads 119, pressure threshold 160, coefficients A=0.2, B=1.0, C=0.3)
and its two evaluations:

* :meth:`BudgetModel.fraction`, the 4-segment piecewise table
  ``[y0, x1, y1, x2, y2, x3, y3] = [A, 119, A, 160, A, 255-adj, B]`` with
  ``total_threads`` as segment 0's start, evaluated exactly as the seed's
  pseudo-code (flat at A up to the pressure threshold, then linear to B);
* :meth:`BudgetModel.linear_fraction`, the fast path
  ``(thread_count - x_min) * slope + y_min`` with ``y_min = C`` and
  ``slope = (B - C) / (maxOccupancy - minOccupancy)``.

How ori uses them (:func:`plan_occupancy_budget`; the seed gives the
formulas, not every input, so these are ori's readings): the *demand* is the
lower bound on the register count (maximum live R registers, widths counted,
plus the reserved and withheld registers); the seed's caller test
``demand > (available + 1) * fraction`` decides whether to squeeze, and if so
the R budget becomes ``floor((available + 1) * fraction)`` (never below the
profile lower bound of 24, or the reserved registers + 1, and never above the
hard limit), the allocator spilling down to it.  The piecewise model takes the
demand as its x ("register pressure as x-coordinate"); ``255 - adj`` is the
target's R limit minus the withheld registers.  The linear model takes the
resident threads per SM at the demand as ``thread_count``, with
``minOccupancy``/``maxOccupancy`` the threads at the hard limit and the
target's maximum.  The pass reports (remark on stderr, and ``ori-stats``'s
``Occupancy budget`` line from ``ori.occupancy_target``) the occupancy aimed
at and the occupancy reached.
"""

from __future__ import annotations

import math
from dataclasses import dataclass, field

from xdsl.dialects.builtin import IntegerAttr
from xdsl.ir import Operation, SSAValue
from xdsl.utils.exceptions import PassFailedException

from ori_dialect.analysis.liveness import Liveness, edge_operands
from ori_dialect.analysis.pressure import RegisterPressure
from ori_dialect.ir.instruction import OriInstruction
from ori_dialect.ir.registers import OriRegisterType, RegFile
from ori_dialect.ops.control import CallOp
from ori_dialect.ops.func import FuncOp
from passes.contract import emit_line, emit_remark
from targets import get_target
from targets.occupancy import max_regs_for_warps, warps_per_sm

ABI_LIMIT_ATTR = "ori.abi_max_regs"
"""The register limit ``ori-abi`` propagated to a callee (passes/abi/limits.py)."""
ABI_SETUP_ATTR = "ori.abi_resolved"
"""Set by ``ori-abi`` (1: lowered, 0: set up only); it has reported 7016."""

MAX_REGS_ATTR = "ori.max_regs"
"""Function attribute the allocator records: the R budget it worked under."""

OCCUPANCY_TARGET_ATTR = "ori.occupancy_target"
"""Function attribute: the register count the occupancy budget aimed at."""


@dataclass
class Budget:
    limits: dict[RegFile, int]
    """Registers 0..limit-1 of each file may be used."""
    reserved: dict[RegFile, frozenset[int]]
    abi: bool
    warnings: list[str] = field(default_factory=list)
    remarks: list[str] = field(default_factory=list)
    """The remark on a ``max-regs`` the directives override (module docstring)."""

    def allowed(self, file: RegFile) -> list[int]:
        res = self.reserved.get(file, frozenset())
        return [i for i in range(self.limits.get(file, 0)) if i not in res]


def abi_reserved_range(func: FuncOp) -> set[int]:
    """The ``reserved = Ra-Rb`` range of a function ``ori-abi`` set up
    (seed 003's reservation query; ``passes/abi/setup.py`` checked it against
    the parameters and the return address): never allocated."""
    from ori_dialect.ir.abi import AbiAttr  # lazy: only ABI functions need it

    if ABI_SETUP_ATTR not in func.attributes or not isinstance(func.abi, AbiAttr):
        return set()
    rng = func.abi.fields().reserved
    return set(range(rng[0], rng[1] + 1)) if rng is not None else set()


def hidden_regs(target: object) -> int:
    """Registers ptxas adds to ``Used N registers`` beyond the highest one in
    the SASS: 2 on sm_70 and later, 0 before (see ``passes/stats.py``)."""
    return 2 if getattr(target, "sm", 0) >= 70 else 0


def profile_lower_bound(target: object) -> int | None:
    """The smallest per-thread register limit ptxas accepts for any kernel
    (24 on sm_70 and later; ptxas 12.9 accepts 16 on sm_50/sm_60)."""
    return 24 if getattr(target, "sm", 0) >= 70 else None


def uses_abi(func: FuncOp) -> bool:
    if not func.is_kernel:
        return True
    return any(isinstance(op, CallOp) for op in func.walk())


ABI_RESERVE_LOW_ATTR = "ori.abi_reserve_r0_r3"
"""Set by ``ori-abi{reserve-r0-r3=true}`` on the functions it lowers: seed
003's literal reading, R0-R3 never allocated."""
SEED_ABI_LOW = frozenset({0, 1, 2, 3})
"""R0-R3, seed 003 "Reserved Registers"."""


def low_reserved(func: FuncOp, abi: bool | None = None) -> frozenset[int]:
    """The low R registers ``func`` never allocates: R1 (the stack pointer),
    and R0-R3 for an ABI function lowered with ``reserve-r0-r3`` (module
    docstring, "Reserved registers")."""
    if abi is None:
        abi = uses_abi(func)
    return SEED_ABI_LOW if abi and ABI_RESERVE_LOW_ATTR in func.attributes else frozenset({1})


def launch_threads(func: FuncOp) -> int | None:
    """Threads per CTA of the kernel's launch bounds (``FuncOp.launch_threads``)."""
    return func.launch_threads()


@dataclass(frozen=True)
class DirectiveLimit:
    """The R limit a kernel's PTX directives set (module docstring, rule 1)."""

    limit: int
    source: str
    """``.maxnreg`` or ``thread count``."""
    minncta: bool
    """The thread count came with a ``.minnctapersm`` that was honoured
    (ptxas then reports an ignored ``--maxrregcount``)."""
    warning: str | None = None
    """ptxas's warning for an out-of-range ``.minnctapersm``."""


def thread_count_limit(func: FuncOp, target: object) -> DirectiveLimit | None:
    """The limit ptxas derives from ``.maxntid`` / ``.reqntid`` and
    ``.minnctapersm`` (module docstring, rule 1); None without launch bounds."""
    threads = launch_threads(func)
    if threads is None:
        return None
    ws = int(target.warp_size)  # type: ignore[attr-defined]
    most = int(target.max_warps_per_sm)  # type: ignore[attr-defined]
    warps = min(max(-(-threads // ws), 1), most)
    m = func.minnctapersm.value.data if isinstance(func.minnctapersm, IntegerAttr) else None
    warning = None
    if m is not None and warps * m > most:
        warning = (f"Value of threads per SM for entry {func.sym_name.data} is out of range. "
                   ".minnctapersm will be ignored")
        m = None
    limit = max_regs_for_warps(target, warps * (m or 1))  # type: ignore[arg-type]
    return DirectiveLimit(limit, "thread count", m is not None, warning)


def directive_limit(func: FuncOp, target: object) -> DirectiveLimit | None:
    """The R limit of ``func``'s PTX directives: ``.maxnreg``, else the
    thread-count limit; None when neither is given."""
    if isinstance(func.maxnreg, IntegerAttr):
        return DirectiveLimit(func.maxnreg.value.data, ".maxnreg", False)
    return thread_count_limit(func, target)


def ignored_max_regs(func: FuncOp, max_regs: int, d: DirectiveLimit) -> str:
    """The remark for a ``max-regs`` the directives override: ptxas -v's
    line where ptxas prints one, else what ptxas does silently."""
    how = "override-directive-values=true applies max-regs"
    if d.source == ".maxnreg":
        return (f"max-regs {max_regs} ignored: Overriding global maxrregcount {max_regs} with "
                f"entry-specific value {d.limit} of .maxnreg (as ptxas -v; {how})")
    if d.minncta:
        return (f"max-regs {max_regs} ignored: Overriding global maxrregcount {max_regs} with "
                f"entry-specific value {d.limit} computed using thread count (as ptxas -v; "
                f"{how})")
    which = ".reqntid" if func.reqntid is not None else ".maxntid"
    return (f"max-regs {max_regs} ignored: the kernel's {which} sets its register limit "
            f"({d.limit}, from the thread count), as ptxas does without a word when not given "
            f"--override-directive-values ({how})")


def compute_budget(
    func: FuncOp,
    target: object,
    max_regs: int | None = None,
    *,
    quiet: bool = False,
    lower_bound: bool = False,
    override: bool = False,
) -> Budget:
    """The budget of ``func`` on ``target`` (an ``SMTarget``).

    ``max_regs`` is ``--maxrregcount``: the limit of a function whose
    directives set none, ignored where they do unless ``override``
    (``--override-directive-values``; module docstring).  Raises
    ``PassFailedException`` for a limit above the target's; returns
    the 7016 warning text in ``Budget.warnings`` (and prints it to stderr
    unless ``quiet``) when a limit is raised to the ABI minimum, and the
    remark on an ignored ``max_regs`` in ``Budget.remarks`` (printed unless
    ``quiet``).  With ``lower_bound`` a limit below :func:`profile_lower_bound`
    is raised to it with ptxas's warning; without, a note says that ptxas
    would raise it."""
    name = func.sym_name.data
    tlim = target.reg_limit("R")  # type: ignore[attr-defined]
    r = tlim
    given_by = ""
    remarks: list[str] = []
    warnings: list[str] = []
    if max_regs is not None:
        if max_regs < 1:
            raise PassFailedException(f"@{name}: max-regs must be at least 1, got {max_regs}")
        if max_regs > tlim:
            raise PassFailedException(
                f"@{name}: max-regs {max_regs} exceeds the {tlim} registers of "
                f"{target.name}"  # type: ignore[attr-defined]
            )
    if isinstance(func.maxnreg, IntegerAttr) and func.maxnreg.value.data > tlim:
        raise PassFailedException(
            f"@{name}: .maxnreg {func.maxnreg.value.data} exceeds the {tlim} registers of "
            f"{target.name}"  # type: ignore[attr-defined]
        )
    d = directive_limit(func, target)
    if d is not None and d.warning is not None:
        warnings.append(d.warning)
        if not quiet:
            emit_line(f"ptxas warning : {d.warning}")
    if max_regs is not None and (d is None or override):
        r = max_regs
        given_by = "profile"
    elif d is not None:
        r = min(d.limit, tlim)
        given_by = "entry" if d.source == ".maxnreg" else ""
        if max_regs is not None:
            remarks.append(ignored_max_regs(func, max_regs, d))
            if not quiet:
                emit_remark(name, remarks[-1], pass_name="ori-regalloc")
    inherited = func.attributes.get(ABI_LIMIT_ATTR)
    if isinstance(inherited, IntegerAttr) and d is None and inherited.value.data < r:
        # seed 003's limit propagation (passes/abi/limits.py): a callee
        # without directives runs under its callers' budget
        r = inherited.value.data
        given_by = "function"
    abi = uses_abi(func)
    low = profile_lower_bound(target)
    if given_by and low is not None and r < low:
        who = (
            f"profile {target.name}"  # type: ignore[attr-defined]
            if given_by == "profile"
            else f"{'entry' if func.is_kernel else 'function'} {name}"
        )
        if lower_bound:
            # ptxas's wording (12.9 and 13.0, sm_70..sm_120)
            msg = f"For {who} adjusting per thread register count of {r} to lower bound of {low}"
            warnings.append(msg)
            if not quiet:
                emit_line(f"ptxas warning : {msg}")
            r = low
    note = bool(given_by) and low is not None and r < low and not quiet

    amin = getattr(target, "abi_min_regs", None)
    if abi and amin is not None and r < amin:
        msg = f"warning 7016: regcount {r} specified below abi_minimum of {amin}"
        warnings.append(msg)
        if not quiet and ABI_SETUP_ATTR not in func.attributes:  # ori-abi said it
            emit_line(f"ori-regalloc: @{name}: {msg}")
        r = amin
    if note and low is not None and r < low:
        emit_line(
            f"ori-regalloc: @{name}: note: register limit {r} is used as given; ptxas "
            f"would raise it to {low} (profile-lower-bound=true does the same)"
        )
    limits = {
        RegFile.R: r,
        RegFile.UR: target.reg_limit("UR"),  # type: ignore[attr-defined]
        RegFile.P: target.reg_limit("P"),  # type: ignore[attr-defined]
        RegFile.UP: target.reg_limit("UP"),  # type: ignore[attr-defined]
        RegFile.B: target.reg_limit("B"),  # type: ignore[attr-defined]
    }
    low_res = low_reserved(func, abi)
    # the registers ptxas withholds sit at the top of the budget (module docstring)
    top_res = set(range(max(r - hidden_regs(target), 0), r))
    reserved = {RegFile.R: frozenset(low_res | top_res | abi_reserved_range(func))}
    return Budget(limits, reserved, abi, warnings, remarks)


def _fits(needs: list[tuple[int, int]], allowed: list[int]) -> bool:
    """Whether values of ``(width, alignment)`` (1, 2, 4 registers at a
    multiple of their width; register tuples of 8..64 at a multiple of 4)
    fit at once into ``allowed``: widest first, first fit -- optimal for
    aligned power-of-two sizes, and for tuples too where the allowed
    registers are one run (every size and alignment is then a multiple of
    the smaller ones')."""
    free = set(allowed)
    for w, a in sorted(needs, reverse=True):
        base = next(
            (b for b in sorted(free) if b % a == 0 and all(b + i in free for i in range(w))), None
        )
        if base is None:
            return False
        free.difference_update(range(base, base + w))
    return True


def instruction_needs(
    func: FuncOp,
) -> dict[RegFile, list[tuple[list[tuple[int, int]], Operation]]]:
    """Per file, the registers every instruction needs at once as
    ``(width, alignment)`` pairs (the types' ``num_regs()`` and
    ``alignment()``), one entry per distinct set (with the first instruction
    that needs it): its distinct register operands, and apart from them its results (a
    result may take a dying operand's register: the point model of
    points.py).  Two more "instructions":

    * a device function's parameters arrive in registers, all written at its
      entry point, dead ones too (points.py; seed 003's calling convention):
      the function op stands for them;
    * a guarded op whose prior value appears twice (the prior of two
      results) needs a private copy for the second (``copies.split_ties``);
      a prior that is also a source costs nothing more, split_ties lets the
      source read the copy.

    Edge operands are left out: they travel in memory when they must
    (phi_spill.py)."""
    groups: list[tuple[Operation, list[SSAValue]]] = [(func, list(func.entry_block.args))]
    for op in func.walk():
        edge = {id(v) for i in range(len(op.successors)) for v in edge_operands(op, i)}
        srcs = [v for v in dict.fromkeys(op.operands) if id(v) not in edge]
        if isinstance(op, OriInstruction):
            prior = list(op.operand_groups()[2])
            for k, p in enumerate(prior):
                if p in prior[:k]:
                    srcs.append(p)
        groups += [(op, srcs), (op, list(op.results))]
    out: dict[RegFile, dict[tuple[tuple[int, int], ...],
                            tuple[list[tuple[int, int]], Operation]]] = {}
    for op, vals in groups:
        per: dict[RegFile, list[tuple[int, int]]] = {}
        for v in vals:
            t = v.type
            if isinstance(t, OriRegisterType) and t.phys_index is None:
                per.setdefault(t.REG_FILE, []).append((t.num_regs(), t.alignment()))
        for f, ws in per.items():
            out.setdefault(f, {}).setdefault(tuple(sorted(ws)), (ws, op))
    return {f: list(d.values()) for f, d in out.items()}


def minimum_limits(func: FuncOp, target: object) -> dict[RegFile, tuple[int, Operation]]:
    """The smallest limit per file under which every instruction of ``func``
    finds registers for its operands (and for its results) at once, aligned
    pairs and quads for 64- and 128-bit values, register tuples at quads,
    the reserved registers of :func:`compute_budget` (R1, or R0-R3 under
    ``reserve-r0-r3``, the two withheld at the top) left out; with the instruction that
    sets it.  Allocation never fails at or above it where values can be
    spilled (issue 13); below it no allocation exists and the pass says so."""
    out: dict[RegFile, tuple[int, Operation]] = {}
    abi = uses_abi(func)
    for f, needs in instruction_needs(func).items():
        tlim = target.reg_limit(f.value)  # type: ignore[attr-defined]
        for ws, op in sorted(needs, key=lambda n: -sum(w for w, _ in n[0])):
            # the widest set first: a later one needs a higher limit only
            # through alignment, so the scan starts at the limit so far
            n = tlim
            for lim in range(out[f][0] if f in out else 1, tlim + 1):
                res: set[int] = set()
                if f is RegFile.R:
                    res = set(low_reserved(func, abi)) | set(
                        range(max(lim - hidden_regs(target), 0), lim)
                    )
                if _fits(ws, [i for i in range(lim) if i not in res]):
                    n = lim
                    break
            if f not in out or n > out[f][0]:
                out[f] = (n, op)
    return out


def check_minimum(func: FuncOp, target: object, budget: Budget) -> None:
    """A diagnostic naming the minimum when a file's limit is below what one
    instruction needs (:func:`minimum_limits`)."""
    for f, (need, op) in minimum_limits(func, target).items():
        have = budget.limits.get(f, 0)
        if have < need:
            text = str(op).strip().splitlines()[0][:100]
            raise PassFailedException(
                f"@{func.sym_name.data}: Register allocation failed with register count of "
                f"'{have}' (`{text}` needs {need} {f.value} registers at once with the reserved "
                f"ones; the minimum {f.value} register count for this function is {need})"
            )


def register_count(target: object, highest_r: int, reserved: frozenset[int]) -> int:
    """What ``ptxas -v`` prints as ``Used N registers`` for a function whose
    highest R register (pair and quad halves included) is ``highest_r``
    (-1 for none): that + 1, counting the low reserved registers (R1, or
    R0-R3 under ``reserve-r0-r3``) even when unused, plus :func:`hidden_regs`.  The
    evidence is in ``passes/stats.py``."""
    hidden = hidden_regs(target)
    limit_low = max((i for i in reserved if i < 4), default=-1)
    return max(highest_r, limit_low) + 1 + hidden


@dataclass(frozen=True)
class BudgetModel:
    """The seed's budget pressure model (module docstring); field defaults
    are the seed's (+1624 max threads, +1628 threshold, +1632/+1640/+1648
    coefficients)."""

    max_threads: int = 119
    pressure_threshold: int = 160
    coeff_a: float = 0.2
    coeff_b: float = 1.0
    coeff_c: float = 0.3
    total_threads: float = 0.0
    """+1656: segment 0's start ("clamped"; ori has no launch, so 0)."""
    limit: float = 255.0
    """+1704 x3: ``255 - vtable_adjustment``."""

    def table(self) -> tuple[float, float, float, float, float, float, float]:
        """The interleaved ``[y0, x1, y1, x2, y2, x3, y3]`` table (+1664..+1712)."""
        a = self.coeff_a
        return (a, float(self.max_threads), a, float(self.pressure_threshold), a,
                float(self.limit), self.coeff_b)

    def fraction(self, reg_count: float) -> float:
        """sub_937E90's piecewise evaluation, line for line."""
        y0, x1, y1, x2, y2, x3, y3 = self.table()
        t = float(self.total_threads)
        x = float(reg_count)
        if t > x:
            return y0
        if x1 > x:
            return y0 + (y1 - y0) / (x1 - t) * (x - t)
        if x2 > x:
            return y1 + (y2 - y1) / (x2 - x1) * (x - x1)
        if x3 > x:
            return y2 + (y3 - y2) / (x3 - x2) * (x - x2)
        return y3

    def linear(self, min_occupancy: float, max_occupancy: float) -> tuple[float, float, float]:
        """The fast path's ``(x_min, y_min, slope)`` (+1720, +1728, +1736)."""
        if max_occupancy == min_occupancy:
            return float(min_occupancy), self.coeff_b, 0.0
        slope = (self.coeff_b - self.coeff_c) / (max_occupancy - min_occupancy)
        return float(min_occupancy), self.coeff_c, slope

    def linear_fraction(
        self, thread_count: float, min_occupancy: float, max_occupancy: float
    ) -> float:
        """``(thread_count - x_min) * slope + y_min`` (the seed's fast path)."""
        x_min, y_min, slope = self.linear(min_occupancy, max_occupancy)
        return (thread_count - x_min) * slope + y_min


@dataclass(frozen=True)
class OccupancyPlan:
    """What :func:`plan_occupancy_budget` decided for one function."""

    model: str
    demand: int
    """Lower bound on the register count (what ``Used N`` can reach at best)."""
    available: int
    """The hard R budget (register count)."""
    fraction: float
    squeeze: bool
    """The seed's ``demand > (available + 1) * fraction``."""
    target_regs: int
    """The R budget the allocator gets (``available`` unless squeezed)."""
    aimed_regs: int
    """The register count aimed at: ``target_regs`` when squeezed, else the demand."""
    aimed_warps: int
    max_warps: int


def r_demand(func: FuncOp, target: object, budget: Budget) -> int:
    """Maximum live R registers (widths counted) + the reserved registers +
    :func:`hidden_regs`: no allocation can report fewer registers."""
    live = RegisterPressure(Liveness.compute(func)).max.get(RegFile.R, 0)
    low = len([i for i in budget.reserved.get(RegFile.R, frozenset()) if i < 4])
    return live + low + hidden_regs(target)


def plan_occupancy_budget(
    func: FuncOp, target: object, budget: Budget, model: BudgetModel, kind: str = "piecewise"
) -> OccupancyPlan:
    """Apply the budget model to ``func`` (module docstring: ori's reading)."""
    if kind not in ("piecewise", "linear"):
        raise PassFailedException(
            f"ori-regalloc: budget-model must be 'piecewise' or 'linear', got {kind!r}"
        )
    available = budget.limits[RegFile.R]
    demand = r_demand(func, target, budget)
    tmax = target.max_regs_per_thread  # type: ignore[attr-defined]
    mw = target.max_warps_per_sm  # type: ignore[attr-defined]

    def warps(regs: int) -> int:
        return warps_per_sm(target, max(1, min(regs, tmax)))  # type: ignore[arg-type]

    if kind == "piecewise":
        frac = model.fraction(demand)
    else:
        ws = target.warp_size  # type: ignore[attr-defined]
        frac = model.linear_fraction(warps(demand) * ws, warps(available) * ws, mw * ws)
    squeeze = demand > (available + 1) * frac
    target_regs = available
    if squeeze:
        # at least one allocatable register above the low reserved ones
        low_top = max((i for i in budget.reserved.get(RegFile.R, frozenset()) if i < 4), default=-1)
        floor_regs = max(profile_lower_bound(target) or 0, low_top + 2 + hidden_regs(target))
        target_regs = min(available, max(math.floor((available + 1) * frac), floor_regs))
    aimed_regs = target_regs if squeeze else min(demand, available)
    return OccupancyPlan(
        kind, demand, available, frac, squeeze, target_regs, aimed_regs, warps(aimed_regs), mw
    )


def occupancy_remark(plan: OccupancyPlan, target: object, num_regs: int) -> str:
    """The text of the pass's remark: the occupancy aimed at and reached."""
    got = warps_per_sm(target, max(1, num_regs))  # type: ignore[arg-type]
    mw = plan.max_warps
    how = (
        f"squeezed the R budget from {plan.available} to {plan.target_regs} registers"
        if plan.squeeze
        else f"kept the R budget of {plan.available} registers"
    )
    return (
        f"occupancy budget ({plan.model}): demand "
        f"{plan.demand} registers, fraction {plan.fraction:.3f}, {how}; aimed at "
        f"{plan.aimed_warps} warps per SM ({100 * plan.aimed_warps // mw}%) with "
        f"{plan.aimed_regs} registers, reached "
        f"{got} warps per SM ({100 * got // mw}%) at {num_regs} registers"
    )


def function_target(func: FuncOp, override: str | None = None) -> object:
    name = override or func.target_name() or "sm_80"
    return get_target(name)


def recorded_max_regs(func: FuncOp) -> int | None:
    a = func.attributes.get(MAX_REGS_ATTR)
    return a.value.data if isinstance(a, IntegerAttr) else None


__all__ = [
    "MAX_REGS_ATTR",
    "OCCUPANCY_TARGET_ATTR",
    "Budget",
    "BudgetModel",
    "DirectiveLimit",
    "OccupancyPlan",
    "check_minimum",
    "compute_budget",
    "directive_limit",
    "function_target",
    "hidden_regs",
    "ignored_max_regs",
    "instruction_needs",
    "launch_threads",
    "minimum_limits",
    "occupancy_remark",
    "plan_occupancy_budget",
    "profile_lower_bound",
    "r_demand",
    "recorded_max_regs",
    "register_count",
    "thread_count_limit",
    "uses_abi",
]
