"""``ori-cse`` (phase 29's partial CSE) keeps the interpreter's results:

* the lit input ``tests/filecheck/passes/cse/cse.mlir`` on several inputs;
* the CUDA examples after the phases before it (a subset by default, every
  kernel on both architectures under ``-m fuzz``);
* generated programs (a few by default, 300 under ``-m fuzz``), which do
  hold common subexpressions (the default set is checked to remove some).
"""

from __future__ import annotations

import functools
from pathlib import Path
from typing import Any

import pytest
from xdsl.dialects.builtin import ModuleOp

from ori_dialect.analysis import functions_of
from ori_dialect.testing.equivalence import (
    assert_pass_preserves,
    check_lit_inputs,
)
from ori_dialect.testing.generator import generate
from passes.cse import cse_function
from tests.passes.example_launches import (
    after_pipeline,
    check_launch,
    example_rel,
    launch_id,
    launches,
)

ROOT = Path(__file__).resolve().parents[3]
LIT_DIR = ROOT / "tests" / "filecheck" / "passes" / "cse"
BEFORE = "ori-general-optimize,ori-dead-code,ori-loop-simplify,ori-loop-unroll"


def test_lit_input_keeps_results() -> None:
    assert check_lit_inputs([LIT_DIR], "ori-cse").kernels >= 1


@functools.cache
def _prepared(rel: str) -> tuple[ModuleOp, ModuleOp, int]:
    before = after_pipeline(rel, BEFORE)
    after = before.clone()
    removed = sum(cse_function(f) for f in functions_of(after))
    after.verify()
    return before, after, removed


def _check_example(launch: Any, arch: str) -> None:
    rel = example_rel(launch, arch)
    before, after, _ = _prepared(rel)
    check_launch(before, after, launch, f"{rel} @{launch.kernel}: ori-cse")


DEFAULT = {"loops", "intdiv", "sgemm", "int64"}


@pytest.mark.parametrize("launch", launches(DEFAULT), ids=launch_id)
def test_examples_keep_results(launch: Any) -> None:
    _check_example(launch, "sm_80")


def test_examples_have_common_subexpressions() -> None:
    """The default examples are not a vacuous check: CSE removes ops there."""
    assert sum(_prepared(f"sm_80/{stem}.ptx")[2] for stem in DEFAULT) > 0


@pytest.mark.fuzz
@pytest.mark.parametrize("arch", ("sm_80", "sm_90"))
@pytest.mark.parametrize("launch", launches(), ids=launch_id)
def test_all_examples_keep_results(launch: Any, arch: str) -> None:
    _check_example(launch, arch)


@pytest.mark.parametrize("seed", range(8))
def test_generated_programs_keep_results(seed: int) -> None:
    prog = generate(seed)
    assert_pass_preserves(prog.module, "ori-cse", prog.kernel, prog.input_factory, n=2)


def test_generated_programs_have_common_subexpressions() -> None:
    removed = sum(cse_function(f) for s in range(8) for f in functions_of(generate(s).module))
    assert removed > 0


@pytest.mark.fuzz
@pytest.mark.parametrize("seed", range(100, 400))
def test_many_generated_programs_keep_results(seed: int) -> None:
    prog = generate(seed)
    assert_pass_preserves(prog.module, "ori-cse", prog.kernel, prog.input_factory, n=3)
