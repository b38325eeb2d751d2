"""``ori-loop-simplify,ori-loop-unroll`` keep the interpreter's results on
hand-written and real inputs:

* every kernel of the lit inputs in ``tests/filecheck/passes/loop_simplify/`` and ``loop_unroll/`` (each has
  ``params``, an output pointer and stores of its loops' results after the
  loops; a kernel without params fails the test, since nothing it computes
  would be observable), on several values of its 32-bit parameters (trip
  counts 0, 1, 2, 3, odd, large; the default run gives a long-running kernel
  fewer of them, see :data:`STEP_BUDGET`) and several option sets (defaults, factors 3 and 8; under ``-m fuzz`` also the
  override string, the exit-tests remainder and no inversion);
* every kernel of the CUDA examples (``examples/ptx/sm_80`` and ``sm_90``,
  launched as in ``tests/ptx/test_import_examples.py``).  The default run
  takes a subset of the kernels with loops; ``-m fuzz`` runs all of them on
  both architectures.
"""

from __future__ import annotations

import contextlib
import io
from pathlib import Path
from typing import Any

import numpy as np
import pytest
from xdsl.dialects.builtin import ModuleOp
from xdsl.parser import Parser

from ori_dialect.analysis import functions_of
from ori_dialect.ops.func import FuncOp
from ori_dialect.testing.equivalence import (
    EquivalenceError,
    apply_pipeline,
    first_difference,
    format_failure,
    lit_chunks,
    lit_kernel_args,
    make_context,
    module_text,
    run_launch,
    step_limit,
)
from tests.passes.example_launches import (
    after_pipeline,
    check_launch,
    example_rel,
    launch_id,
    launches,
)

ROOT = Path(__file__).resolve().parents[3]
LIT_DIRS = (
    ROOT / "tests" / "filecheck" / "passes" / "loop_simplify",
    ROOT / "tests" / "filecheck" / "passes" / "loop_unroll",
)
PIPES = (
    "ori-loop-simplify,ori-loop-unroll",
    "ori-loop-simplify,ori-loop-unroll{loop-unroll-factor=3}",
    "ori-loop-simplify,ori-loop-unroll{loop-unroll-factor=8}",
)
MORE_PIPES = (
    'ori-loop-simplify,ori-loop-unroll{loop-unroll-factor-override="+"}',
    "ori-loop-simplify,ori-loop-unroll{loop-unroll-factor=8 unknown-trip-remainder=exit-tests}",
    "ori-loop-simplify{loop-inversion=false},ori-loop-unroll{loop-unroll-factor=5}",
)
SCALARS = (0, 1, 2, 3, 7, 37)
MAX_STEPS = 1_000_000
"""Lit kernels are small (the longest, unroll-ptxas.mlir @rolled, runs 1000
trips of 93 instructions on 4 threads: 372k thread-instructions): a reference
run longer than this is a broken test."""
STEP_BUDGET = 100_000
"""The default run stops giving a lit kernel inputs once its reference runs
have spent this many thread-instructions.  Only the kernels with a known trip
count of 1000 reach it, after one or two inputs (their 32-bit parameter does
not change what they compute); ``-m fuzz`` runs every input on every kernel."""


CHUNKS = lit_chunks(LIT_DIRS)


def _parse(text: str) -> ModuleOp:
    return Parser(make_context(), text, "lit").parse_module()


@pytest.mark.parametrize("pipe", PIPES)
def test_lit_inputs_keep_results(pipe: str) -> None:
    _check_lit(pipe, STEP_BUDGET)


@pytest.mark.fuzz
@pytest.mark.parametrize("pipe", PIPES + MORE_PIPES)
def test_lit_inputs_keep_results_more_options(pipe: str) -> None:
    _check_lit(pipe, None)


def _check_lit(pipe: str, step_budget: int | None) -> None:
    """Every lit kernel before and after ``pipe`` on the inputs of
    :data:`SCALARS` (in order, stopping once the reference runs of a kernel
    have spent ``step_budget`` thread-instructions; None: all of them)."""
    kernels = checked = 0
    for name, idx, text in CHUNKS:
        module = _parse(text)
        for func in functions_of(module):
            if not isinstance(func, FuncOp) or func.kernel is None:
                continue
            kernels += 1
            kname = func.sym_name.data
            title = f"{name} chunk {idx} @{kname}: {pipe}"
            # a kernel without params reads nothing a launch gives and stores
            # nothing: the check would pass whatever the passes did to it
            assert func.params is not None, (
                f"{name} chunk {idx} @{kname}: lit kernel without params is not observable "
                "(give it an output pointer and store the loop's results after the loop)")
            after = module.clone()
            with contextlib.redirect_stderr(io.StringIO()):
                apply_pipeline(after, pipe)
            after.verify()
            # a loop the passes left alone (a rejected one) gives the same
            # text: the reference runs alone then
            unchanged = module_text(after) == module_text(module)
            spent = 0
            for s in SCALARS:
                args = lit_kernel_args(func, np.random.default_rng(s), s)
                ref = run_launch(module, kname, args, 1, 4, max_steps=MAX_STEPS)
                assert ref.ok and ref.steps is not None, (
                    f"{name} chunk {idx} @{kname} does not run: {ref.error}")
                if not unchanged:
                    # the transformed kernel may take at most step_limit(ref):
                    # an unroll that makes the loop endless fails quickly
                    out = run_launch(after, kname, args, 1, 4, max_steps=step_limit(ref))
                    d = first_difference(ref, out, s)
                    if d is not None:
                        raise EquivalenceError(format_failure(d, module, after, title=title), d)
                spent += ref.steps
                if step_budget is not None and spent >= step_budget:
                    break
            checked += 1
    assert kernels > 0 and checked == kernels, f"{checked} of {kernels} lit kernels ran"


# ----------------------------------------------------------------------------
# the CUDA examples
# ----------------------------------------------------------------------------

def _check_example(launch: Any, arch: str) -> None:
    rel = example_rel(launch, arch)
    check_launch(after_pipeline(rel), after_pipeline(rel, "ori-loop-simplify,ori-loop-unroll"),
                 launch, f"{rel} @{launch.kernel}")


# kernels with loops the unroller changes (full, partial, inverted), kept small
DEFAULT = {"loops", "reduce", "stencil", "intdiv", "histogram"}


@pytest.mark.parametrize("launch", launches(DEFAULT), ids=launch_id)
def test_examples_keep_results(launch: Any) -> None:
    _check_example(launch, "sm_80")


@pytest.mark.fuzz
@pytest.mark.parametrize("arch", ("sm_80", "sm_90"))
@pytest.mark.parametrize("launch", launches(), ids=launch_id)
def test_all_examples_keep_results(launch: Any, arch: str) -> None:
    _check_example(launch, arch)
