"""``ori-branch-opt`` (phase 15, OriBranchOpt) keeps the interpreter's results:

* the lit input ``tests/filecheck/passes/branch_opt/branch-opt.mlir`` on
  several inputs (every rule fires there);
* the CUDA examples after ``ori-general-optimize`` (a subset by default,
  every kernel on both architectures under ``-m fuzz``);
* generated programs (a few by default, 300 under ``-m fuzz``);
* CUB's device kernels, where all four rules fire hundreds of times: the
  rewritten module verifies (they have no launch in the interpreter's
  table, so only structure is checked there).
"""

from __future__ import annotations

import functools
from collections import Counter
from pathlib import Path
from typing import Any

import pytest
from xdsl.dialects.builtin import ModuleOp

from ori_dialect.analysis import functions_of
from ori_dialect.ptx.lower import import_ptx
from ori_dialect.testing.equivalence import (
    apply_pipeline,
    assert_pass_preserves,
    check_lit_inputs,
)
from ori_dialect.testing.generator import generate
from passes.branch_opt import RULES, simplify_function
from tests.passes.example_launches import (
    after_pipeline,
    check_launch,
    example_rel,
    launch_id,
    launches,
)

ROOT = Path(__file__).resolve().parents[3]
LIT_DIR = ROOT / "tests" / "filecheck" / "passes" / "branch_opt"
BEFORE = "ori-general-optimize"


def test_lit_input_keeps_results() -> None:
    assert check_lit_inputs([LIT_DIR], "ori-branch-opt").kernels >= 7


@functools.cache
def _prepared(rel: str) -> tuple[ModuleOp, ModuleOp, Counter[str]]:
    before = after_pipeline(rel, BEFORE)
    after = before.clone()
    done: Counter[str] = Counter()
    for f in functions_of(after):
        done.update(simplify_function(f.regions[0], True))
    after.verify()
    return before, after, done


def _check_example(launch: Any, arch: str) -> None:
    rel = example_rel(launch, arch)
    before, after, _ = _prepared(rel)
    check_launch(before, after, launch, f"{rel} @{launch.kernel}: ori-branch-opt")


DEFAULT = {"stencil", "sgemm", "histogram"}


@pytest.mark.parametrize("launch", launches(DEFAULT), ids=launch_id)
def test_examples_keep_results(launch: Any) -> None:
    _check_example(launch, "sm_80")


def test_examples_are_rewritten() -> None:
    """The default examples are not a vacuous check: rules fire there."""
    done: Counter[str] = Counter()
    for stem in DEFAULT:
        done.update(_prepared(f"sm_80/{stem}.ptx")[2])
    assert done["predicated"] > 0 and done["merged"] > 0


@pytest.mark.fuzz
@pytest.mark.parametrize("arch", ("sm_80", "sm_90"))
@pytest.mark.parametrize("launch", launches(), ids=launch_id)
def test_all_examples_keep_results(launch: Any, arch: str) -> None:
    _check_example(launch, arch)


@pytest.mark.fuzz
def test_cub_kernels_verify_after_every_rule() -> None:
    m = import_ptx((ROOT / "examples/library/ptx/sm_80/cub_device.ptx").read_text(),
                   "cub_device.ptx")
    apply_pipeline(m, BEFORE)
    done: Counter[str] = Counter()
    for f in functions_of(m):
        done.update(simplify_function(f.regions[0], True))
    m.verify()
    assert all(done[r] > 0 for r in ("empty-block", "merged", "predicated")), done
    assert set(done) <= set(RULES)


@pytest.mark.parametrize("seed", range(6))
def test_generated_programs_keep_results(seed: int) -> None:
    prog = generate(seed)
    assert_pass_preserves(prog.module, "ori-branch-opt", prog.kernel, prog.input_factory, n=2)


@pytest.mark.fuzz
@pytest.mark.parametrize("seed", range(100, 400))
def test_many_generated_programs_keep_results(seed: int) -> None:
    prog = generate(seed)
    assert_pass_preserves(prog.module, "ori-branch-opt", prog.kernel, prog.input_factory, n=3)
