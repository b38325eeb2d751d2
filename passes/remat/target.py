"""The register target of ``ori-remat`` (seed 002, "Main Algorithm" step 4,
"Register target computation").

``usage`` is the function's register count now: before allocation, the most
R registers live at any program point (the seed asks its register-usage
analysis, sub_1BFBA30).  The seed's three rules, in order:

1. **remat-for-occ** non-zero (default 120): the occupancy model of the
   function's SM target (``targets.occupancy``) gives the warps per SM that
   ``usage`` registers allow; the target is the most registers that still
   give ``remat-for-occ`` percent of them (rounded up), i.e. 120 = "reach at
   least 20% more resident warps", at most the SM's maximum.  The seed only
   says that an occupancy-based target is computed from the usage "with
   heuristic adjustments based on occupancy level"; ori's reading of the
   number is this percentage (decision, module docstring of the package).
   A kernel already at the SM's maximum occupancy keeps ``usage`` (nothing
   to gain); a kernel's ``.reqntid`` / ``.maxntid`` enter the occupancy
   model as its block size.
2. otherwise (``remat-for-occ=0``, a device function, or a module without a
   target): **80%** of ``usage``, rounded down.
3. **remat-maxreg-ceiling** set and below ``usage``: the target is at most
   the ceiling.  ori adds the kernel's ``.maxnreg`` as a ceiling of the same
   kind (the limit the allocator will have to meet).
"""

from __future__ import annotations

from dataclasses import dataclass

from xdsl.dialects.builtin import IntegerAttr

from ori_dialect.ops.func import FuncOp
from targets.descriptor import SMTarget
from targets.errors import TargetError
from targets.occupancy import max_regs_for_warps, warps_per_sm
from targets.registry import get_target

FRACTION = 0.8
"""The seed's fallback target: 80% of the current register count."""


@dataclass(frozen=True)
class RegTarget:
    usage: int
    target: int
    how: str
    """``occupancy N->M warps``, ``80% of usage`` or ``ceiling N``: how the
    target was found (the dump line says so)."""


def function_target(func: FuncOp) -> SMTarget | None:
    """The SM target of the module ``func`` is in, or None."""
    name = func.target_name()
    if name is None:
        return None
    try:
        return get_target(name)
    except TargetError:
        return None


def block_threads(func: FuncOp) -> int | None:
    """Threads per CTA of ``.reqntid`` (else ``.maxntid``), or None
    (``FuncOp.launch_threads``)."""
    return func.launch_threads()


def occupancy_target(func: FuncOp, usage: int, percent: int,
                     sm: SMTarget | None = None) -> tuple[int, str] | None:
    """Rule 1 (module docstring): the register count that reaches ``percent``
    percent of the warps ``usage`` registers allow, with how it was found;
    None for a device function, a module without a target or no usage.
    ``sm`` is the SM target (default: the module's)."""
    if sm is None:
        sm = function_target(func)
    if sm is None or not func.is_kernel or usage <= 0:
        return None
    regs = min(usage, sm.max_regs_per_thread)
    threads = block_threads(func)
    if threads is not None and not 1 <= threads <= sm.max_threads_per_block:
        threads = None
    try:
        now = warps_per_sm(sm, regs, threads)
        want = min(sm.max_warps_per_sm, -(-now * percent // 100))
        if want <= now:
            return usage, f"occupancy {now} warps (no gain)"
        return (min(usage, max_regs_for_warps(sm, want, threads)),
                f"occupancy {now}->{want} warps")
    except TargetError:
        return None


def register_target(func: FuncOp, usage: int, *, for_occ: int, ceiling: int) -> RegTarget:
    """The register count the main loop drives the max live-in down to."""
    occ = occupancy_target(func, usage, for_occ) if for_occ else None
    if occ is not None:
        target, how = occ
    else:
        target, how = int(usage * FRACTION), "80% of usage"
    caps = [c for c in (ceiling, _maxnreg(func)) if c]
    for c in caps:
        if c < usage and c < target:
            target, how = c, f"ceiling {c}"
    return RegTarget(usage, max(target, 0), how)


def _maxnreg(func: FuncOp) -> int:
    m = func.maxnreg
    return m.value.data if isinstance(m, IntegerAttr) else 0


__all__ = ["FRACTION", "RegTarget", "block_threads", "function_target", "occupancy_target",
           "register_target"]
