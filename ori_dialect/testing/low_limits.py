"""Low-limit fuzz mode for ``ori-regalloc`` (issue 13: allocation never fails
where spilling is possible).

For a generated program (:func:`ori_dialect.testing.generator.generate`) the
minimum of every register file is what one instruction needs at once plus
the reserved registers (:func:`passes.regalloc.budget.minimum_limits`, the
largest over the module's functions).  :func:`check_low_limits` allocates the
program with ``max-regs`` at that minimum (and ``extra`` registers above it)
and every other file forced to its own minimum (``force-file-limits``), with
either strategy, and checks the result with the allocation checker and by
running it in the interpreter's physical-register mode against the input
(byte for byte).  ``tests/passes/regalloc/test_low_limits.py`` runs a few
cases by default and many under ``-m fuzz``.
"""

from __future__ import annotations

from dataclasses import dataclass

from xdsl.dialects.builtin import ModuleOp

from ori_dialect.ir.registers import RegFile
from ori_dialect.ops.func import FuncOp
from ori_dialect.testing.equivalence import apply_pipeline, check_equivalent
from ori_dialect.testing.generator import generate
from passes.regalloc.budget import function_target, minimum_limits
from passes.regalloc.checker import check_module


def module_minimums(module: ModuleOp) -> dict[RegFile, int]:
    """Per file, the largest minimum over the functions of ``module``."""
    out: dict[RegFile, int] = {}
    for f in module.walk():
        if isinstance(f, FuncOp):
            for file, (n, _op) in minimum_limits(f, function_target(f)).items():
                out[file] = max(out.get(file, 1), n)
    return out


@dataclass(frozen=True)
class LowLimitResult:
    spec: str
    """The ``ori-regalloc`` pipeline text that was run."""
    spill_stores: int
    """Spill store bytes over all functions."""


def low_limit_spec(mins: dict[RegFile, int], strategy: str, extra: int,
                   files_low: bool = True) -> str:
    """``ori-regalloc`` options for ``max-regs`` = R minimum + ``extra`` and,
    with ``files_low``, every other file forced to its minimum + ``extra``."""
    r = mins.get(RegFile.R, 1) + extra
    opts = [f"strategy={strategy}", f"max-regs={min(r, 255)}"]
    if files_low:
        forced = ";".join(
            f"{f.value}={mins.get(f, 1) + extra}" for f in (RegFile.UR, RegFile.P, RegFile.UP, RegFile.B)
        )
        opts.append(f'force-file-limits="{forced}"')
    return "ori-regalloc{" + " ".join(opts) + "}"


def check_low_limits(seed: int, strategy: str, extra: int = 0, files_low: bool = True) -> LowLimitResult:
    """Allocate program ``seed`` at its minimum + ``extra`` (module docstring);
    raises on a failed allocation, a checker problem or a differing result."""
    prog = generate(seed)
    mins = module_minimums(prog.module)
    spec = low_limit_spec(mins, strategy, extra, files_low)
    after = prog.module.clone()
    apply_pipeline(after, spec)
    after.verify()
    problems = check_module(after)
    assert not problems, f"seed {seed} {spec}: " + "\n".join(problems)
    check_equivalent(prog.module, after, prog.kernel, [prog.inputs(seed + 1)],
                     physical_after=True, title=f"seed {seed} {spec}")
    stores = sum(
        f.attributes["ori.spill_stores"].value.data  # type: ignore[union-attr]
        for f in after.walk() if isinstance(f, FuncOp) and "ori.spill_stores" in f.attributes
    )
    return LowLimitResult(spec, stores)


__all__ = ["LowLimitResult", "check_low_limits", "low_limit_spec", "module_minimums"]
