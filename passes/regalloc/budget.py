"""Register budgets: how many registers of each file a function may use and
which of them are reserved (seed 000 "Register Classes", seed 003 "Reserved
Registers" and the 7016 check of "Master ABI Setup").

**R budget.**  The smallest of the ``max-regs`` pass option (ptxas's
``--maxrregcount``), the function's ``.maxnreg`` (``maxnreg`` on ``ori.func``)
and the target's limit (255 on every built-in SM).  A budget above the
target's limit is an error.  For a function that takes part in the calling
convention (a device function, or a kernel containing a ``CALL``) a budget
below the target's ABI minimum (16 on sm_50..53, 24 on sm_60..90a, none from
sm_100) is raised to the minimum with ptxas's warning 7016
``regcount N specified below abi_minimum of M``.

**Reserved registers.**  Decision (recorded here, DESIGN.md asks for it):

* every function reserves ``R1``, the stack pointer ptxas initialises from
  ``c[0x0][stack_init]`` in every kernel it compiles (the register count
  includes it);
* a function that takes part in the calling convention also reserves
  ``R0``-``R3`` (seed 003: "Registers R0--R3 are reserved by the ABI and
  cannot be used for general allocation ... unconditional across all SM
  generations");
* the fixed registers RZ/URZ/PT/UPT are never allocatable (their index is one
  past the file's last register).

Other files: UR, P, UP and B use the target's limits (``register_limits``)
with nothing reserved.
"""

from __future__ import annotations

import sys
from dataclasses import dataclass, field

from xdsl.dialects.builtin import IntegerAttr
from xdsl.utils.exceptions import PassFailedException

from ori_dialect.ir.registers import RegFile
from ori_dialect.ops.control import CallOp
from ori_dialect.ops.func import FuncOp

MAX_REGS_ATTR = "ori.max_regs"
"""Function attribute the allocator records: the R budget it worked under."""


@dataclass
class Budget:
    limits: dict[RegFile, int]
    """Registers 0..limit-1 of each file may be used."""
    reserved: dict[RegFile, frozenset[int]]
    abi: bool
    warnings: list[str] = field(default_factory=list)

    def allowed(self, file: RegFile) -> list[int]:
        res = self.reserved.get(file, frozenset())
        return [i for i in range(self.limits.get(file, 0)) if i not in res]


def uses_abi(func: FuncOp) -> bool:
    if not func.is_kernel:
        return True
    return any(isinstance(op, CallOp) for op in func.walk())


def compute_budget(
    func: FuncOp,
    target: object,
    max_regs: int | None = None,
    *,
    quiet: bool = False,
) -> Budget:
    """The budget of ``func`` on ``target`` (an ``SMTarget``).

    Raises ``PassFailedException`` for a limit above the target's; returns
    the 7016 warning text in ``Budget.warnings`` (and prints it to stderr
    unless ``quiet``) when a limit is raised to the ABI minimum."""
    name = func.sym_name.data
    tlim = target.reg_limit("R")  # type: ignore[attr-defined]
    r = tlim
    if max_regs is not None:
        if max_regs < 1:
            raise PassFailedException(f"@{name}: max-regs must be at least 1, got {max_regs}")
        if max_regs > tlim:
            raise PassFailedException(
                f"@{name}: max-regs {max_regs} exceeds the {tlim} registers of "
                f"{target.name}"  # type: ignore[attr-defined]
            )
        r = min(r, max_regs)
    if isinstance(func.maxnreg, IntegerAttr):
        n = func.maxnreg.value.data
        if n > tlim:
            raise PassFailedException(
                f"@{name}: .maxnreg {n} exceeds the {tlim} registers of "
                f"{target.name}"  # type: ignore[attr-defined]
            )
        r = min(r, n)
    abi = uses_abi(func)
    warnings: list[str] = []
    amin = getattr(target, "abi_min_regs", None)
    if abi and amin is not None and r < amin:
        msg = f"warning 7016: regcount {r} specified below abi_minimum of {amin}"
        warnings.append(msg)
        if not quiet:
            print(f"ori-regalloc: @{name}: {msg}", file=sys.stderr)
        r = amin
    limits = {
        RegFile.R: r,
        RegFile.UR: target.reg_limit("UR"),  # type: ignore[attr-defined]
        RegFile.P: target.reg_limit("P"),  # type: ignore[attr-defined]
        RegFile.UP: target.reg_limit("UP"),  # type: ignore[attr-defined]
        RegFile.B: target.reg_limit("B"),  # type: ignore[attr-defined]
    }
    reserved = {RegFile.R: frozenset({0, 1, 2, 3}) if abi else frozenset({1})}
    return Budget(limits, reserved, abi, warnings)


def function_target(func: FuncOp, override: str | None = None) -> object:
    from targets import get_target

    name = override or func.target_name() or "sm_80"
    return get_target(name)


def recorded_max_regs(func: FuncOp) -> int | None:
    a = func.attributes.get(MAX_REGS_ATTR)
    return a.value.data if isinstance(a, IntegerAttr) else None


__all__ = [
    "MAX_REGS_ATTR",
    "Budget",
    "compute_budget",
    "function_target",
    "recorded_max_regs",
    "uses_abi",
]
