"""Fuzz every registered pass and named pipeline with generated programs.

::

    report = fuzz(50, seed0=0)
    print(report)            # programs, transforms, launches, failures + seeds
    assert report.ok

For each program seed ``seed0 .. seed0+n-1`` the runner generates a kernel
(:func:`ori_dialect.testing.generator.generate`), runs it on a few input sets
(the reference results, computed once), and then, for every transform -- each
registered pass (``passes.registry.all_passes()`` and passes registered at
run time) and each named pipeline (``passes.registry.named_pipelines()`` once
it exists) -- applies it to a clone, verifies the result and compares the
results on the same inputs byte for byte.

Nothing is skipped silently.  A transform that raises is a failure, except
when the exception says that the pass does not apply to the program: an
instance of :class:`PassNotApplicable`, or of any exception class with a
true ``not_applicable`` attribute (so passes can declare their own
diagnostic without importing this module).  Those are counted in the report.
Printing passes write to stdout; the runner captures (and drops) it.
"""

from __future__ import annotations

import contextlib
import io
import time
import traceback
from collections import Counter
from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass, field

from xdsl.dialects.builtin import ModuleOp
from xdsl.utils.exceptions import DiagnosticException

from ori_dialect.testing.equivalence import (
    Outcome,
    apply_pipeline,
    available_passes,
    first_difference,
    format_failure,
    make_context,
    module_text,
    run_launch,
    step_limit,
)
from ori_dialect.testing.generator import GeneratedProgram, GenOptions, LaunchInputs, generate
from passes import registry


class PassNotApplicable(DiagnosticException):
    """Raised by a pass that cannot transform a given program (e.g. it needs
    a shape the program lacks); the fuzz runner counts it instead of failing."""

    not_applicable = True


def is_not_applicable(e: BaseException) -> bool:
    return bool(getattr(type(e), "not_applicable", False))


PASS_VARIANTS: dict[str, tuple[str, ...]] = {
    # ori-pipeline's default pressure gate puts back most pipelined loops and
    # it needs loop-simplified loops: this variant makes it transform the
    # generated programs' single-block loops (about one program in three)
    "ori-pipeline": ("ori-loop-simplify,ori-pipeline{reject-pressure-growth=false}",),
    # every root reduced (the debug knob), on loop-simplified loops
    "ori-strength-reduce": ("ori-loop-simplify,ori-strength-reduce{min-gain=-1}",),
}
"""Extra option sets a pass is fuzzed with, besides its defaults (as
``NAME:1``, ``NAME:2``, ...), when the pass is fuzzed."""


def named_pipelines() -> dict[str, str]:
    """Every named pipeline of the pass registry (a copy the caller may change)."""
    return dict(registry.named_pipelines())


@dataclass(frozen=True)
class FuzzFailure:
    seed: int
    transform: str
    """The pass name or ``pipeline:NAME`` (empty for generation / reference failures)."""
    kind: str
    """``generate``, ``reference`` (the original program fails in the
    interpreter), ``pass-error``, ``verify`` or ``mismatch``."""
    message: str

    def headline(self) -> str:
        first = self.message.strip().splitlines()[0] if self.message.strip() else ""
        where = f" {self.transform}" if self.transform else ""
        return f"seed {self.seed}{where} [{self.kind}]: {first[:200]}"


@dataclass
class FuzzReport:
    programs: int = 0
    transforms: list[str] = field(default_factory=list)
    checks: int = 0
    """(program, transform) pairs that ran to completion and were compared."""
    launches: int = 0
    not_applicable: Counter[str] = field(default_factory=Counter)
    failures: list[FuzzFailure] = field(default_factory=list)
    features: Counter[str] = field(default_factory=Counter)
    seconds: float = 0.0

    @property
    def ok(self) -> bool:
        return not self.failures

    @property
    def failed_seeds(self) -> list[int]:
        return sorted({f.seed for f in self.failures})

    def summary(self) -> str:
        rate = self.programs / self.seconds if self.seconds else 0.0
        lines = [
            (f"fuzz: {self.programs} programs x {len(self.transforms)} transforms "
             f"({', '.join(self.transforms) or 'none'})"),
            (f"  {self.checks} checks, {self.launches} interpreter launches, "
             f"{self.seconds:.1f} s ({rate:.2f} programs/s)"),
            f"  not applicable: {sum(self.not_applicable.values())}"
            + (f" ({dict(self.not_applicable)})" if self.not_applicable else ""),
            f"  failures: {len(self.failures)}"
            + (f" (seeds {self.failed_seeds})" if self.failures else ""),
        ]
        lines += ["    " + f.headline() for f in self.failures[:50]]
        return "\n".join(lines)

    def __str__(self) -> str:
        return self.summary()


def _apply(spec: str, prog: GeneratedProgram) -> tuple[ModuleOp, str | None, str | None]:
    """Apply a pipeline spec to a clone: (module, error kind, message)."""
    after = prog.module.clone()
    sink = io.StringIO()
    try:
        with contextlib.redirect_stdout(sink):
            apply_pipeline(after, spec, make_context())
    except Exception as e:  # noqa: BLE001 -- any pass error is a finding
        if is_not_applicable(e):
            return after, "n/a", str(e)
        return after, "pass-error", f"{type(e).__name__}: {e}\n{traceback.format_exc(limit=8)}"
    try:
        after.verify()
    except Exception as e:  # noqa: BLE001 -- reported as a verify failure
        return after, "verify", f"{e}\n---- IR before ----\n{module_text(prog.module)}"
    return after, None, None


def fuzz(
    n_programs: int,
    seed0: int = 0,
    passes: Sequence[str] | None = None,
    pipelines: Mapping[str, str] | None = None,
    *,
    options: GenOptions | None = None,
    inputs_per_program: int = 2,
    max_steps: int | None = None,
    strict_reference: bool = True,
    progress: Callable[[int, FuzzReport], None] | None = None,
) -> FuzzReport:
    """Fuzz ``passes`` (default: every registered pass) and ``pipelines``
    (name -> spec; default: the registry's named pipelines) with
    ``n_programs`` generated programs, seeds ``seed0 ..``.

    The original program runs in the interpreter's strict mode
    (``strict_reference``: no use of undefined values, no SHFL reading a lane
    that does not execute it -- what the generator promises); transformed
    programs run with a step limit derived from the original's
    (:func:`~ori_dialect.testing.equivalence.step_limit`) unless
    ``max_steps`` is given."""
    t0 = time.perf_counter()
    names = list(available_passes()) if passes is None else list(passes)
    pipes = named_pipelines() if pipelines is None else dict(pipelines)
    transforms: list[tuple[str, str]] = [(n, n) for n in names]
    transforms += [(f"{n}:{k}", spec) for n in names
                   for k, spec in enumerate(PASS_VARIANTS.get(n, ()), 1)]
    transforms += [(f"pipeline:{k}", v) for k, v in pipes.items()]
    report = FuzzReport(transforms=[t for t, _ in transforms])
    for seed in range(seed0, seed0 + n_programs):
        report.programs += 1
        try:
            prog = generate(seed, options=options)
        except Exception as e:  # noqa: BLE001 -- a generator bug is a finding
            report.failures.append(FuzzFailure(seed, "", "generate", f"{type(e).__name__}: {e}"))
            continue
        report.features.update({k: 1 for k in prog.features})
        launches: list[LaunchInputs] = [prog.inputs(seed * 1000 + k) for k in range(inputs_per_program)]
        refs: list[Outcome] = []
        bad = False
        for li in launches:
            o = run_launch(prog.module, prog.kernel, li.args, li.grid, li.block, li.shared_bytes,
                           strict=strict_reference, max_steps=max_steps)
            report.launches += 1
            if not o.ok:
                report.failures.append(FuzzFailure(
                    seed, "", "reference",
                    f"input seed {li.seed}: the generated program fails in the interpreter: "
                    f"{o.error}\n---- IR ----\n{module_text(prog.module)}"))
                bad = True
                break
            refs.append(o)
        if bad:
            continue
        for tname, spec in transforms:
            after, kind, msg = _apply(spec, prog)
            if kind == "n/a":
                report.not_applicable[tname] += 1
                continue
            if kind is not None:
                report.failures.append(FuzzFailure(seed, tname, kind, msg or ""))
                continue
            for li, ref in zip(launches, refs):
                limit = max_steps if max_steps is not None else step_limit(ref)
                o = run_launch(after, prog.kernel, li.args, li.grid, li.block, li.shared_bytes,
                               max_steps=limit)
                report.launches += 1
                d = first_difference(ref, o, li.seed)
                if d is not None:
                    report.failures.append(FuzzFailure(
                        seed, tname, "mismatch",
                        format_failure(d, prog.module, after, title=f"{tname} on program seed {seed}")))
                    break
            else:
                report.checks += 1
        if progress is not None:
            progress(seed, report)
    report.seconds = time.perf_counter() - t0
    return report


__all__ = [
    "FuzzFailure",
    "FuzzReport",
    "PassNotApplicable",
    "fuzz",
    "is_not_applicable",
    "named_pipelines",
]
