"""``ori-remat-block`` keeps the interpreter's results and never raises max
live (issue 16, item 7):

* every kernel of the lit inputs in ``tests/filecheck/passes/remat_block/``
  under several option sets, on several inputs;
* the CUDA examples (``examples/ptx``, launched as in
  ``tests/ptx/test_import_examples.py``) after the ptxas phases before
  allocation, with a low target so that the pass has work: a subset by
  default, every kernel on sm_80 and sm_90 under ``-m fuzz``; under ``-m
  fuzz`` also the launched library kernels (``examples/library``);
* generated programs with rematerializable pressure
  (``GenOptions(remat_pressure=32, pressure=8)``): a few by default, 320
  under ``-m fuzz``, each on several inputs.

Every one of them is also checked for **max live**: no register file's
function maximum (``RegisterPressure``) is higher after the pass than before,
for every function of the module.
"""

from __future__ import annotations

import contextlib
import copy
import functools
import importlib
import io
import sys
from pathlib import Path
from typing import Any

import numpy as np
import pytest
from xdsl.dialects.builtin import ModuleOp

from ori_dialect.analysis import functions_of
from ori_dialect.analysis.pressure import RegisterPressure
from ori_dialect.interpreter import run_kernel
from ori_dialect.ir.registers import RegFile
from ori_dialect.testing.equivalence import (
    apply_pipeline,
    assert_pass_preserves,
    check_lit_inputs,
    module_text,
)
from ori_dialect.testing.generator import GenOptions, generate
from tests.passes.example_launches import (
    after_pipeline,
    check_launch,
    example_rel,
    launch_id,
    launches,
)

ROOT = Path(__file__).resolve().parents[3]
LIT_DIR = ROOT / "tests" / "filecheck" / "passes" / "remat_block"
LIT_PIPES = (
    ("ori-remat-block{nv-remat-default-max-reg=2}", 8),
    (("ori-remat-block{nv-remat-default-max-reg=6 nv-remat-block=15 "
     "nv-remat-check-internal-live=true}"), 8),
    (("ori-remat-block{nv-remat-default-max-reg=4 nv-remat-block=15 nv-remat-block-single-cost=40 "
     "nv-remat-block-max-cost=1000 nv-remat-block-loop-cost-factor=1}"), 8),
    ("ori-remat-block{nv-remat-default-max-reg=4 nv-remat-block=13}", 1),
    ("ori-remat-block", 1),
)
"""Option sets for the lit inputs, with how many chunks each must change: the
defaults with a low target, every mode judged at the peak, every mode with
generous costs, the local split alone, the defaults themselves (the
occupancy target: occupancy.mlir)."""


def maxima(module: ModuleOp) -> dict[str, dict[RegFile, int]]:
    """Max live per register file of every function."""
    return {f.sym_name.data: dict(RegisterPressure.compute(f).max)  # type: ignore[attr-defined]
            for f in functions_of(module)}


def assert_max_live_kept(before: dict[str, dict[RegFile, int]], after: ModuleOp,
                         title: str) -> None:
    got = maxima(after)
    for name, m in before.items():
        for f, n in m.items():
            assert got[name][f] <= n, (
                f"{title}: @{name}: max live of {f.value} rose from {n} to {got[name][f]}")


def remat(module: ModuleOp, pipe: str) -> ModuleOp:
    """``pipe`` on a clone of ``module`` (diagnostics swallowed), verified."""
    after = module.clone()
    with contextlib.redirect_stderr(io.StringIO()):
        apply_pipeline(after, pipe)
    after.verify()
    return after


# ----------------------------------------------------------------------------
# lit inputs
# ----------------------------------------------------------------------------


@pytest.mark.parametrize(("pipe", "least"), LIT_PIPES)
def test_lit_inputs_keep_results_and_max_live(pipe: str, least: int) -> None:
    seen = check_lit_inputs(
        [LIT_DIR], pipe, seeds=(0, 1, 2, 7),
        check=lambda before, after, title: assert_max_live_kept(maxima(before), after, title))
    assert seen.kernels >= 10
    assert seen.changed >= least  # the option sets do rematerialize in these inputs


# ----------------------------------------------------------------------------
# the CUDA examples
# ----------------------------------------------------------------------------

BEFORE = ("ori-general-optimize,ori-dead-code,ori-loop-simplify,ori-loop-unroll,ori-cse,"
          "ori-hoist-invariants-early,ori-hoist-invariants-late,ori-hoist-invariants-late2,"
          "ori-hoist-invariants-late3")
"""ori-ptxas's phases before allocation (passes/pipeline.py PHASES)."""

EXAMPLE_PIPES = (
    "ori-remat-block{nv-remat-default-max-reg=6}",
    "ori-remat-block{nv-remat-default-max-reg=4 nv-remat-block=15}",
    "ori-remat-block",
)


def _prepared(rel: str) -> ModuleOp:
    return after_pipeline(rel, BEFORE)


@functools.cache
def _rematerialized(rel: str, pipe: str) -> ModuleOp:
    before = _prepared(rel)
    after = remat(before, pipe)
    assert_max_live_kept(maxima(before), after, f"{rel}: {pipe}")
    return after


def _check_example(launch: Any, arch: str) -> None:
    rel = example_rel(launch, arch)
    for pipe in EXAMPLE_PIPES:
        check_launch(_prepared(rel), _rematerialized(rel, pipe), launch,
                     f"{rel} @{launch.kernel}: {pipe}")


DEFAULT = {"loops", "sgemm", "fp64", "intdiv"}


@pytest.mark.parametrize("launch", launches(DEFAULT), ids=launch_id)
def test_examples_keep_results_and_max_live(launch: Any) -> None:
    _check_example(launch, "sm_80")


def test_examples_are_rematerialized() -> None:
    """The default examples are not a vacuous check: the pass changes them."""
    changed = sum(module_text(_rematerialized(f"sm_80/{stem}.ptx", pipe))
                  != module_text(_prepared(f"sm_80/{stem}.ptx"))
                  for stem in DEFAULT for pipe in EXAMPLE_PIPES)
    assert changed >= 6


@pytest.mark.fuzz
@pytest.mark.parametrize("arch", ("sm_80", "sm_90"))
@pytest.mark.parametrize("launch", launches(), ids=launch_id)
def test_all_examples_keep_results_and_max_live(launch: Any, arch: str) -> None:
    _check_example(launch, arch)


# ----------------------------------------------------------------------------
# the library kernels (CUB, Thrust, cooperative groups): high pressure
# ----------------------------------------------------------------------------


@functools.cache
def _library() -> Any:
    if str(ROOT) not in sys.path:  # ``examples`` is a namespace package under the root
        sys.path.insert(0, str(ROOT))
    return importlib.import_module("examples.library.launches")


LIBRARY_PIPE = "ori-remat-block{max-regs=32 override-directive-values=true nv-remat-block=15}"


@functools.cache
def _library_modules(arch: str, stem: str) -> tuple[ModuleOp, ModuleOp]:
    from ori_dialect.ptx.lower import import_ptx  # lazy: only the fuzz run imports the library

    path = ROOT / "examples" / "library" / "ptx" / arch / f"{stem}.ptx"
    before = import_ptx(path.read_text(), str(path.relative_to(ROOT)))
    with contextlib.redirect_stderr(io.StringIO()):
        apply_pipeline(before, BEFORE)
    after = remat(before, LIBRARY_PIPE)
    assert_max_live_kept(maxima(before), after, f"{arch}/{stem}: {LIBRARY_PIPE}")
    return before, after


def _library_launches() -> list[Any]:
    return list(_library().LAUNCHES)


@pytest.mark.fuzz
@pytest.mark.parametrize("arch", ("sm_80", "sm_90"))
@pytest.mark.parametrize("launch", _library_launches(), ids=launch_id)
def test_library_kernels_keep_results_and_max_live(launch: Any, arch: str) -> None:
    before, after = _library_modules(arch, Path(launch.file).stem)
    kw: dict[str, Any] = {"symbols": launch.symbols} if launch.symbols else {}
    args = launch.make_args(np.random.default_rng(launch.seed))
    outs = [run_kernel(m, launch.kernel, launch.grid, launch.block,
                       [copy.deepcopy(a) for a in args], shared_bytes=launch.shared_bytes, **kw)
            for m in (before, after)]
    for i, (a, b) in enumerate(zip(*outs, strict=True)):
        assert np.asarray(a).tobytes() == np.asarray(b).tobytes(), (
            f"{arch} {launch.kernel}: argument {i} differs after {LIBRARY_PIPE}")


# ----------------------------------------------------------------------------
# generated programs with rematerializable pressure
# ----------------------------------------------------------------------------

GEN = GenOptions(remat_pressure=32, pressure=8)
GEN_PIPES = (
    "ori-remat-block{nv-remat-default-max-reg=16}",
    "ori-remat-block{nv-remat-default-max-reg=12 nv-remat-block=15 nv-remat-check-internal-live=true}",
    ("ori-remat-block{nv-remat-default-max-reg=20 nv-remat-block=11 "
     "nv-remat-block-liveout-min-percentage=0 nv-remat-block-map-size-limit=2}"),
    "ori-remat-block{max-regs=24 nv-remat-block=15 nv-remat-block-loop-cost-factor=2}",
)


def _check_generated(seed: int, n: int) -> ModuleOp:
    prog = generate(seed, options=GEN)
    pipe = GEN_PIPES[seed % len(GEN_PIPES)]
    before = maxima(prog.module)
    with contextlib.redirect_stderr(io.StringIO()):
        after = assert_pass_preserves(prog.module, pipe, prog.kernel, prog.input_factory, n=n)
    assert_max_live_kept(before, after, f"seed {seed}: {pipe}")
    return after


@pytest.mark.parametrize("seed", range(6))
def test_generated_programs_keep_results_and_max_live(seed: int) -> None:
    _check_generated(seed, 2)


def test_generated_programs_lose_max_live() -> None:
    """The default seeds are not a vacuous check: max live falls."""
    fell = 0
    for seed in range(6):
        prog = generate(seed, options=GEN)
        after = remat(prog.module, GEN_PIPES[seed % len(GEN_PIPES)])
        fell += maxima(after)[prog.kernel][RegFile.R] < maxima(prog.module)[prog.kernel][RegFile.R]
    assert fell >= 4


@pytest.mark.fuzz
@pytest.mark.parametrize("seed", range(100, 420))
def test_many_generated_programs_keep_results_and_max_live(seed: int) -> None:
    _check_generated(seed, 3)
