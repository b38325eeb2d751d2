"""The LICM instances keep the interpreter's results (issue 15, item 6):

* every kernel of the lit inputs in ``tests/filecheck/passes/hoist-invariants/``
  (each has an output pointer and a 32-bit ``n``, and stores its loop's
  results after the loop) on trip counts 0, 1, 2, 3, 7 and 37, under the
  four instances in ptxas's order and under single option sets;
* the CUDA examples (``examples/ptx``, launched as in
  ``tests/ptx/test_import_examples.py``): a subset with loops by default,
  all kernels on both architectures under ``-m fuzz``;
* random programs of :func:`ori_dialect.testing.generator.generate`
  (nested loops of every trip-count class including zero, loads and
  stores of global and shared memory with barriers, guarded code, calls):
  a few by default, 320 under ``-m fuzz``, each checked on several inputs.
"""

from __future__ import annotations

from pathlib import Path
from typing import Any

import pytest

from ori_dialect.testing.equivalence import (
    assert_pass_preserves,
    check_lit_inputs,
)
from ori_dialect.testing.generator import generate
from tests.passes.example_launches import (
    after_pipeline,
    check_launch,
    example_rel,
    launch_id,
    launches,
)

ROOT = Path(__file__).resolve().parents[3]
LIT_DIR = ROOT / "tests" / "filecheck" / "passes" / "hoist-invariants"
ALL_FOUR = ("ori-hoist-invariants-early,ori-hoist-invariants-late,"
            "ori-hoist-invariants-late2,ori-hoist-invariants-late3")
PIPES = (
    ALL_FOUR,
    "ori-hoist-invariants{pass-id=3}",
    ("ori-loop-simplify,ori-hoist-invariants{hoist-loop-inv-budget=0.0 "
     "use-new-loop-invariant-routine-for-hoisting=true}"),
    'ori-hoist-invariants{hoist-late-override="2=3" pass-id=3}',
    ("ori-hoist-invariants{enable-hoist-low-latency-inst-mid-block=true "
     "hoist-duplicates=false}"),
)
SCALARS = (0, 1, 2, 3, 7, 37)
MAX_STEPS = 1_000_000



@pytest.mark.parametrize("pipe", PIPES)
def test_lit_inputs_keep_results(pipe: str) -> None:
    seen = check_lit_inputs([LIT_DIR], pipe, seeds=SCALARS, block=4, shared_bytes=64,
                            max_steps=MAX_STEPS)
    assert seen.kernels >= 12
    # the pipelines do move code in these inputs (the check is not vacuous)
    assert seen.changed >= 5


# ----------------------------------------------------------------------------
# the CUDA examples
# ----------------------------------------------------------------------------


PTXAS_LIKE = f"ori-general-optimize,ori-dead-code,ori-loop-simplify,ori-loop-unroll,{ALL_FOUR}"


def _check_example(launch: Any, arch: str) -> None:
    rel = example_rel(launch, arch)
    check_launch(after_pipeline(rel), after_pipeline(rel, PTXAS_LIKE), launch,
                 f"{rel} @{launch.kernel}")


DEFAULT = {"loops", "stencil", "sgemm", "intdiv"}


@pytest.mark.parametrize("launch", launches(DEFAULT), ids=launch_id)
def test_examples_keep_results(launch: Any) -> None:
    _check_example(launch, "sm_80")


@pytest.mark.fuzz
@pytest.mark.parametrize("arch", ("sm_80", "sm_90"))
@pytest.mark.parametrize("launch", launches(), ids=launch_id)
def test_all_examples_keep_results(launch: Any, arch: str) -> None:
    _check_example(launch, arch)


# ----------------------------------------------------------------------------
# generated programs
# ----------------------------------------------------------------------------

GEN_PIPES = (
    "ori-loop-simplify,ori-hoist-invariants-early",
    f"ori-loop-simplify,{ALL_FOUR}",
    "ori-hoist-invariants{pass-id=3 use-new-loop-invariant-routine-for-hoisting=true}",
    "ori-loop-simplify,ori-hoist-invariants{enable-hoist-low-latency-inst-mid-block=true}",
)


@pytest.mark.parametrize("seed", range(8))
def test_generated_programs_keep_results(seed: int) -> None:
    prog = generate(seed)
    pipe = GEN_PIPES[seed % len(GEN_PIPES)]
    assert_pass_preserves(prog.module, pipe, prog.kernel, prog.input_factory, n=2)


@pytest.mark.fuzz
@pytest.mark.parametrize("seed", range(100, 420))
def test_many_generated_programs_keep_results(seed: int) -> None:
    prog = generate(seed)
    pipe = GEN_PIPES[seed % len(GEN_PIPES)]
    assert_pass_preserves(prog.module, pipe, prog.kernel, prog.input_factory, n=3)
