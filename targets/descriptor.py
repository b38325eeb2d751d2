"""The SM target descriptor: a plain, frozen record of one GPU architecture.

Everything the backend needs to know about an ``sm_XX`` lives here as data
(docs/architecture.md "Targets"): register-file limits, ABI generation, occupancy
limits, the 7 ResMII pipe widths and the latency-class cycle table. Nothing
in this module knows about any particular SM; the numbers live in
:mod:`targets.builtin` (or in a third-party plugin).

ABI generation and the encoded SM version
-----------------------------------------
Seed 003 ("SM Generation Dispatch") reads ``generation = *(sm_target+372) >> 12``
and tabulates: 3 = sm_35/37, 4 = sm_50-53, 5 = sm_60-89, 9 = sm_90/90a,
>9 = sm_100+.  Seed 004 names the same +372 word the "codegen factory value /
encoded SM architecture version" and quotes 12288 = sm_30, 28673 = sm_80 and
36865 = sm_90, and its factory switch on ``value >> 12`` lists
3 = sm_30, 4 = sm_50, 5 = sm_60, 6 = sm_70, 7 = sm_80, 8 = sm_89, 9 = sm_90+.

The two tables disagree on the high bits for sm_60-sm_89 (seed 003 says 5 for
all of them; 28673 >> 12 == 7 for sm_80).  They agree on everything that
matters to the ABI, because seed 003 only ever tests ranges: 3..4 -> 16-register
minimum, 5..9 -> 24-register minimum, >9 -> no minimum.  So we keep both:

* ``abi_generation`` is seed 003's coarse bucket (4, 5, 9, or the SM major
  number -- 10, 12 -- for Blackwell).  :func:`abi_min_regs_for_generation`
  implements seed 003's minimum-register rule on it.
* ``sm_version_code`` is the seed 004 encoding ``family << 12 | low`` with
  ``family`` from the factory table (4 Maxwell, 5 Pascal, 6 Volta/Turing,
  7 Ampere, 8 Ada, 9 Hopper; we use the SM major, 10 and 12, for Blackwell so
  that ``>> 12`` stays > 9 as seed 003 requires).  The low 12 bits are not
  documented by the seeds beyond the three quoted values (all of which have
  low bits 1 except the retired sm_30); we use ``1 + (sm % 10)`` so that
  sm_80 -> 28673 and sm_90 -> 36865 reproduce seed 004 exactly.  Seed 004's
  "20481 = sm50" annotation contradicts its own factory table (20481 >> 12 == 5,
  which that table maps to sm_60); with our rule 20481 is sm_60 and sm_50 is
  16385.  Both readings give the same ABI minimum (16 vs 24 is decided by
  ``abi_generation``), so nothing downstream depends on the choice.
"""

from __future__ import annotations

import re
from collections.abc import Mapping
from dataclasses import dataclass, field
from types import MappingProxyType

from targets.cbank import ConstBankLayout, cbank_layout_for_sm
from targets.errors import InvalidTargetError

#: Register files, keyed as the allocator names them (seed 000, "Register
#: Classes"): general R, uniform UR, predicate P, uniform predicate UP and the
#: convergence-barrier file B (handled outside the class loop, reg_type 9).
REGISTER_FILES: tuple[str, ...] = ("R", "UR", "P", "UP", "B")

#: The 7 pipe classes of the ResMII table, in seed 001 order ("Pipe width
#: values from code_object+16").
PIPE_NAMES: tuple[str, ...] = ("ALU", "FMA", "DFMA", "MMA", "LSU", "TEX", "BRA")

#: The 13 latency class ids returned by the classifier (seed 001, "Latency
#: Class Table").  Class ids are opaque codes, not cycle counts.
LATENCY_CLASSES: tuple[int, ...] = (1, 6, 7, 8, 9, 10, 11, 12, 14, 16, 20, 26, 31)

#: Where each op pipe issues for ResMII (seed 001's PipeAssignment,
#: vtable+904, a per-target virtual): the 7 table pipes issue on themselves;
#: ``XU`` (MUFU, the seed's pipe index 8) is clamped to the last entry
#: (``if pipe > 6: pipe = 6`` in ComputeResMII).  A plugin target may route
#: an op pipe elsewhere (e.g. XU onto FMA).
DEFAULT_PIPE_ROUTES: Mapping[str, str] = MappingProxyType(
    {**{p: p for p in PIPE_NAMES}, "XU": "BRA"})

#: Op pipes whose ops the stall-cycle calculator treats as long-latency
#: (seed 001 "Stall Cycle Calculator": pipe 8, "memory/texture"): the
#: variable-latency ops a scoreboard waits on.
DEFAULT_LONG_PIPES: tuple[str, ...] = ("LSU", "TEX", "XU")

#: The stall-cycle calculator's caps (sub_91E900): 32 cycles, 64 for an op
#: on a long-latency pipe.
DEFAULT_STALL_CAPS: tuple[int, int] = (32, 64)

_NAME_RE = re.compile(r"^sm_[a-z0-9_]+$")


def abi_generation_for_sm(sm: int) -> int:
    """Seed 003's ABI generation bucket for an SM number.

    3 for sm_30-37 (Kepler), 4 for sm_50-53 (Maxwell), 5 for sm_60-89, 9 for
    sm_90/90a, and the SM major number (10, 11, 12, ...) from sm_100 on.
    """
    if sm < 30:
        raise InvalidTargetError(f"sm_{sm} predates every ABI generation ori knows")
    if sm < 50:
        return 3
    if sm < 60:
        return 4
    if sm < 90:
        return 5
    if sm < 100:
        return 9
    return sm // 10


def abi_min_regs_for_generation(generation: int) -> int | None:
    """ABI minimum register count (seed 003, warning 7016).

    16 for generations 3-4, 24 for generations 5-9, and ``None`` (the check is
    skipped) below 3 and above 9.
    """
    if 3 <= generation <= 4:
        return 16
    if 5 <= generation <= 9:
        return 24
    return None


def sm_version_code_for(family: int, sm: int) -> int:
    """Encoded SM version ``family << 12 | (1 + sm % 10)`` (see module docstring)."""
    return (family << 12) | (1 + sm % 10)


@dataclass(frozen=True, slots=True)
class SMTarget:
    """Immutable description of one SM architecture.

    Sizes are in bytes unless a name says otherwise; register counts are
    32-bit registers.  Mapping-valued fields are stored as read-only
    ``MappingProxyType`` views and excluded from hashing.
    """

    name: str
    """Canonical name, e.g. ``"sm_80"`` or ``"sm_90a"``."""
    sm: int
    """SM number, e.g. 80 (``sm_90a`` -> 90)."""
    family: str
    """Marketing / microarchitecture name, e.g. ``"Ampere"``."""
    abi_generation: int
    """Seed 003 generation bucket; see :func:`abi_generation_for_sm`."""
    sm_version_code: int
    """Seed 004 encoded version word; ``>> 12`` is the codegen family."""
    register_limits: Mapping[str, int] = field(hash=False)
    """Allocatable registers per file (R, UR, P, UP, B); 0 = file absent."""
    pipe_widths: tuple[int, ...]
    """ResMII issue widths in :data:`PIPE_NAMES` order."""
    latency_cycles: Mapping[int, int] = field(hash=False)
    """Estimated cycles per latency class id (:data:`LATENCY_CLASSES`)."""
    max_warps_per_sm: int
    max_ctas_per_sm: int
    smem_per_sm: int
    """Largest shared-memory carveout per SM."""
    max_smem_per_block: int
    """Largest (opt-in) shared memory one CTA may use."""
    smem_carveouts: tuple[int, ...] = ()
    """Allowed shared-memory carveout sizes per SM (empty: fixed size)."""
    smem_alloc_unit: int = 256
    """Shared-memory allocation granularity per CTA."""
    reserved_smem_per_block: int = 0
    """Shared memory the driver reserves per CTA (1 KiB on sm_80+)."""
    arch_specific: bool = False
    """True for ``a``-suffixed targets (sm_90a): not forward compatible."""
    regs_per_sm: int = 65536
    max_regs_per_block: int = 65536
    reg_alloc_unit: int = 256
    """Registers are allocated in chunks of this many per warp."""
    reg_alloc_granularity: str = "warp"
    max_regs_per_thread: int = 255
    register_subpartitions: int = 4
    """SM sub-partitions (register-file banks / schedulers) per SM."""
    warp_size: int = 32
    max_threads_per_block: int = 1024
    cbank0: ConstBankLayout | None = None
    """Launch data in constant bank 0; None: the layout of ``sm`` (targets/cbank.py)."""
    abi_first_param_reg: int = 4
    """Seed 003 "Parameter Passing": the first parameter register (after the
    reserved R0-R3).  ptxas 13.0 passes the first parameter in R4 on every
    sm_70..sm_120 target (``cuobjdump -sass`` of ``ptxas -c`` device
    functions; passes/abi/__init__.py)."""
    abi_param_regs: int = 12
    """Registers available for parameters from :attr:`abi_first_param_reg`
    (R4..R15 in ptxas 13.0: an argument that does not fit goes to the stack)."""
    abi_return_addr_reg: int = 20
    """The return-address register pair of the regular mode (``RET.ABS.NODEC
    R20`` in every ptxas 13.0 device function)."""
    abi_preserved: tuple[int, int] = (16, 31)
    """The callee-saved R range (ptxas 13.0 keeps values live across a call to
    an unknown function in R16..R31, and its device functions leave them
    alone); every other allocatable R register is scratch."""
    abi_preserved_extra: tuple[int, ...] = (2,)
    """Callee-saved R registers outside :attr:`abi_preserved`: ptxas 13.0's
    device functions save R2 before using it (``STL [R1], R2``) and its
    kernels keep values in R2 across calls (``ptxas -c``, sm_80 and sm_90:
    passes/regalloc/budget.py "Reserved registers")."""
    abi_runtime_scratch: tuple[int, int] = (0, 15)
    """The R range a CUDA device runtime function (``vprintf``, ``malloc``,
    ``free``, ``__assertfail``) may overwrite, besides the return address:
    ptxas 13.0 keeps a kernel's values live across such a call in R16-R19
    and R22 upwards (40 loaded words across ``printf``: R16-R58, no spill;
    sm_80 and sm_90), so those functions touch R0-R15 alone -- a narrower
    set than an unknown function's (:attr:`abi_preserved`)."""
    pipe_routes: Mapping[str, str] = field(default_factory=lambda: DEFAULT_PIPE_ROUTES, hash=False)
    """Op pipe name (``ori_dialect.ir.metadata.Pipe``) -> ResMII table pipe
    (:data:`PIPE_NAMES`); seed 001's PipeAssignment.  Missing keys route to
    themselves."""
    long_pipes: tuple[str, ...] = DEFAULT_LONG_PIPES
    """Op pipes whose stall cycles are capped at ``stall_caps[1]``."""
    stall_caps: tuple[int, int] = DEFAULT_STALL_CAPS
    """(other ops, long-pipe ops) caps of the stall-cycle calculator."""

    # Derived, filled in by __post_init__ so they can never disagree with the
    # fields they come from.
    max_threads_per_sm: int = field(init=False)
    has_uniform_registers: bool = field(init=False)
    """Also seed 003's gate of the uniform return-address mode (7009)."""
    abi_min_regs: int | None = field(init=False)

    def __post_init__(self) -> None:
        limits = {f: 0 for f in REGISTER_FILES}
        for key, value in dict(self.register_limits).items():
            if key not in limits:
                raise InvalidTargetError(
                    f"{self.name}: unknown register file {key!r} "
                    f"(expected one of {', '.join(REGISTER_FILES)})"
                )
            limits[key] = value
        latencies = dict(self.latency_cycles)
        object.__setattr__(self, "register_limits", MappingProxyType(limits))
        object.__setattr__(self, "latency_cycles", MappingProxyType(latencies))
        object.__setattr__(self, "pipe_widths", tuple(self.pipe_widths))
        object.__setattr__(self, "smem_carveouts", tuple(self.smem_carveouts))
        object.__setattr__(self, "pipe_routes",
                           MappingProxyType({**DEFAULT_PIPE_ROUTES, **dict(self.pipe_routes)}))
        object.__setattr__(self, "long_pipes", tuple(self.long_pipes))
        object.__setattr__(self, "stall_caps", tuple(self.stall_caps))
        object.__setattr__(self, "max_threads_per_sm", self.max_warps_per_sm * self.warp_size)
        if self.cbank0 is None:
            object.__setattr__(self, "cbank0", cbank_layout_for_sm(self.sm))
        object.__setattr__(self, "has_uniform_registers", limits["UR"] > 0)
        object.__setattr__(self, "abi_min_regs", abi_min_regs_for_generation(self.abi_generation))
        self._validate()

    def _validate(self) -> None:
        def bad(why: str) -> InvalidTargetError:
            return InvalidTargetError(f"invalid target {self.name!r}: {why}")

        if not _NAME_RE.match(self.name):
            raise bad("name must look like 'sm_<something>' (lower case)")
        if len(self.pipe_widths) != len(PIPE_NAMES) or any(w < 1 for w in self.pipe_widths):
            raise bad(f"pipe_widths needs {len(PIPE_NAMES)} entries >= 1 ({PIPE_NAMES})")
        if set(self.latency_cycles) != set(LATENCY_CLASSES):
            raise bad(f"latency_cycles must map exactly the classes {LATENCY_CLASSES}")
        if any(c < 0 for c in self.latency_cycles.values()):
            raise bad("latency cycles must be >= 0")
        if any(r not in PIPE_NAMES for r in self.pipe_routes.values()):
            raise bad(f"pipe_routes must route onto the ResMII pipes {PIPE_NAMES}")
        if len(self.stall_caps) != 2 or any(c < 1 for c in self.stall_caps):
            raise bad("stall_caps needs two caps >= 1 (other ops, long-pipe ops)")
        if any(v < 0 for v in self.register_limits.values()):
            raise bad("register limits must be >= 0")
        if self.register_limits["R"] > self.max_regs_per_thread:
            raise bad("R limit exceeds max_regs_per_thread")
        positive = {
            "max_warps_per_sm": self.max_warps_per_sm,
            "max_ctas_per_sm": self.max_ctas_per_sm,
            "regs_per_sm": self.regs_per_sm,
            "max_regs_per_block": self.max_regs_per_block,
            "reg_alloc_unit": self.reg_alloc_unit,
            "register_subpartitions": self.register_subpartitions,
            "warp_size": self.warp_size,
            "max_threads_per_block": self.max_threads_per_block,
            "smem_alloc_unit": self.smem_alloc_unit,
        }
        for what, value in positive.items():
            if value <= 0:
                raise bad(f"{what} must be > 0")
        if self.max_smem_per_block + self.reserved_smem_per_block > self.smem_per_sm:
            raise bad("max_smem_per_block + reserved_smem_per_block exceeds smem_per_sm")
        if self.smem_carveouts and max(self.smem_carveouts) != self.smem_per_sm:
            raise bad("the largest carveout must equal smem_per_sm")
        if self.regs_per_sm % self.register_subpartitions:
            raise bad("regs_per_sm must split evenly over the sub-partitions")

    # -- queries ---------------------------------------------------------

    @property
    def codegen_family(self) -> int:
        """``sm_version_code >> 12`` (seed 004's factory switch value)."""
        return self.sm_version_code >> 12

    def reg_limit(self, file: str) -> int:
        """Allocatable registers in register file ``file`` ("R", "UR", "P", "UP", "B").

        Returns 0 for a file the target does not have (e.g. "UR" before sm_75).
        """
        try:
            return self.register_limits[file]
        except KeyError:
            raise InvalidTargetError(
                f"unknown register file {file!r} (expected one of {', '.join(REGISTER_FILES)})"
            ) from None

    def pipe_width(self, pipe: str) -> int:
        """ResMII issue width of pipe ``pipe`` (one of :data:`PIPE_NAMES`)."""
        try:
            return self.pipe_widths[PIPE_NAMES.index(pipe)]
        except ValueError:
            raise InvalidTargetError(
                f"unknown pipe {pipe!r} (expected one of {', '.join(PIPE_NAMES)})"
            ) from None

    def issue_pipe(self, op_pipe: str) -> int:
        """Index in :data:`PIPE_NAMES` of the ResMII pipe an op of pipe
        ``op_pipe`` (an ``ori_dialect.ir.metadata.Pipe`` name) issues on."""
        route = self.pipe_routes.get(op_pipe, op_pipe)
        # an unknown pipe is clamped to the last entry, as ComputeResMII does
        return PIPE_NAMES.index(route) if route in PIPE_NAMES else len(PIPE_NAMES) - 1

    def stall_cycles(self, latency_class: int, op_pipe: str) -> int:
        """Seed 001's stall-cycle calculator (sub_91E900): the class's cycles,
        capped at ``stall_caps[1]`` for an op on a long-latency pipe and at
        ``stall_caps[0]`` otherwise; at least 1 (a consumer never issues in
        the producer's cycle)."""
        cap = self.stall_caps[1] if op_pipe in self.long_pipes else self.stall_caps[0]
        return max(1, min(self.latency(latency_class), cap))

    def latency(self, latency_class: int) -> int:
        """Estimated cycles for a latency class id (see :data:`LATENCY_CLASSES`)."""
        try:
            return self.latency_cycles[latency_class]
        except KeyError:
            raise InvalidTargetError(
                f"unknown latency class {latency_class} (expected one of {LATENCY_CLASSES})"
            ) from None
