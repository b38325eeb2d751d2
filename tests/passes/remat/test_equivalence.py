"""``ori-remat`` keeps the interpreter's results (issue 16, item 7) and never
raises the max live:

* every kernel of the lit inputs in ``tests/filecheck/passes/remat/`` on
  trip counts 0, 1, 2, 3, 7 and 37 under several option sets (low ceilings
  so that every sub-pass acts);
* the CUDA examples (``examples/ptx``) after the ptxas phases before
  rematerialization: a subset with loops by default, every kernel on both
  architectures under ``-m fuzz``;
* library (CUB, Thrust) and Triton kernels through the ptxas phases with
  ori-remat at phase 54 and allocation, physical-register mode (``-m fuzz``);
* generated programs with high register pressure, part of it
  rematerializable (``GenOptions(pressure=24|48, remat_pressure=16|32)``):
  a few by default, 320 under ``-m fuzz``, each checked on several inputs,
  with the max live before and after.
"""

from __future__ import annotations

import contextlib
import copy
import functools
import io
from pathlib import Path
from typing import Any

import numpy as np
import pytest
from xdsl.dialects.builtin import ModuleOp

from ori_dialect.analysis import functions_of
from ori_dialect.interpreter import run_kernel
from ori_dialect.ptx.lower import import_ptx
from ori_dialect.testing.equivalence import (
    apply_pipeline,
    assert_pass_preserves,
    check_lit_inputs,
    make_context,
)
from ori_dialect.testing.generator import GenOptions, generate
from passes.remat.measure import measure
from tests.passes.example_launches import (
    after_pipeline,
    check_launch,
    example_rel,
    launch_id,
    launches,
)

ROOT = Path(__file__).resolve().parents[3]
LIT_DIR = ROOT / "tests" / "filecheck" / "passes" / "remat"
PIPES = (
    "ori-remat",
    "ori-remat{remat-maxreg-ceiling=2}",
    "ori-remat{remat-maxreg-ceiling=4 do-remat=1 remat-move=true simplify-live-out=3}",
    "ori-remat{remat-maxreg-ceiling=2 do-remat=2 remat-for-occ=0 max-recurse-depth=1 remat-iv=3}",
    "ori-remat{do-remat=0 remat-load=0 remat-maxreg-ceiling=4 simplify-live-out=3}",
)
SCALARS = (0, 1, 2, 3, 7, 37)
MAX_STEPS = 1_000_000

def max_live(module: ModuleOp) -> dict[str, int]:
    return {f.sym_name.data: measure(f).max_live  # type: ignore[attr-defined]
            for f in functions_of(module)}


def assert_no_more_pressure(before: ModuleOp, after: ModuleOp, title: str) -> None:
    b, a = max_live(before), max_live(after)
    for name, n in b.items():
        assert a[name] <= n, f"{title}: @{name}: max live {n} -> {a[name]}"


@pytest.mark.parametrize("pipe", PIPES)
def test_lit_inputs_keep_results(pipe: str) -> None:
    seen = check_lit_inputs([LIT_DIR], pipe, seeds=SCALARS, block=4, max_steps=MAX_STEPS,
                            check=assert_no_more_pressure)
    assert seen.kernels >= 15
    # the option sets do transform these inputs (the check is not vacuous)
    assert seen.changed >= 6


# ----------------------------------------------------------------------------
# the CUDA examples
# ----------------------------------------------------------------------------

PRE = ("ori-general-optimize,ori-dead-code,ori-loop-simplify,ori-loop-unroll,ori-cse,"
       "ori-hoist-invariants-early")
EXAMPLE_PIPES = ("ori-remat", "ori-remat{remat-maxreg-ceiling=2}",
                 "ori-remat{remat-maxreg-ceiling=3 do-remat=1 simplify-live-out=3}")


def _prepared(rel: str) -> ModuleOp:
    return after_pipeline(rel, PRE)


@functools.cache
def _transformed(rel: str, pipe: str) -> ModuleOp:
    m = _prepared(rel).clone()
    with contextlib.redirect_stderr(io.StringIO()):
        apply_pipeline(m, pipe)
    m.verify()
    assert_no_more_pressure(_prepared(rel), m, f"{rel}: {pipe}")
    return m


def _check_example(launch: Any, arch: str, pipe: str) -> None:
    rel = example_rel(launch, arch)
    check_launch(_prepared(rel), _transformed(rel, pipe), launch, f"{rel} @{launch.kernel}: {pipe}")


DEFAULT = {"loops", "stencil", "sgemm", "intdiv"}


@pytest.mark.parametrize("launch", launches(DEFAULT), ids=launch_id)
def test_examples_keep_results(launch: Any) -> None:
    _check_example(launch, "sm_80", EXAMPLE_PIPES[1])


@pytest.mark.fuzz
@pytest.mark.parametrize("pipe", EXAMPLE_PIPES)
@pytest.mark.parametrize("arch", ("sm_80", "sm_90"))
@pytest.mark.parametrize("launch", launches(), ids=launch_id)
def test_all_examples_keep_results(launch: Any, arch: str, pipe: str) -> None:
    _check_example(launch, arch, pipe)


# ----------------------------------------------------------------------------
# generated programs with high register pressure
# ----------------------------------------------------------------------------

GEN_PIPES = (
    "ori-remat",
    "ori-remat{remat-maxreg-ceiling=16}",
    "ori-remat{remat-for-occ=0 do-remat=2 simplify-live-out=3}",
    "ori-loop-simplify,ori-remat{remat-maxreg-ceiling=8 remat-move=true}",
)


def _check_generated(seed: int, n: int) -> None:
    prog = generate(seed, options=GenOptions(pressure=48 if seed % 2 else 24,
                                             remat_pressure=32 if seed % 3 else 16))
    pipe = GEN_PIPES[seed % len(GEN_PIPES)]
    after = assert_pass_preserves(prog.module, pipe, prog.kernel, prog.input_factory, n=n)
    if "loop-simplify" not in pipe:
        assert_no_more_pressure(prog.module, after, f"seed {seed}: {pipe}")


@pytest.mark.parametrize("seed", range(6))
def test_generated_programs_keep_results(seed: int) -> None:
    with contextlib.redirect_stderr(io.StringIO()):
        _check_generated(seed, 2)


@pytest.mark.fuzz
@pytest.mark.parametrize("seed", range(100, 420))
def test_many_generated_programs_keep_results(seed: int) -> None:
    with contextlib.redirect_stderr(io.StringIO()):
        _check_generated(seed, 3)


# ----------------------------------------------------------------------------
# library and Triton kernels through the ptxas phases with ori-remat at phase
# 54 (OriDoRematEarly) and allocation, run in physical-register mode
# ----------------------------------------------------------------------------

PTXAS_WITH_REMAT = (
    "ori-general-optimize,ori-dead-code,ori-loop-simplify,ori-loop-unroll,ori-cse,"
    "ori-hoist-invariants-early,ori-remat{remat-maxreg-ceiling=16},ori-hoist-invariants-late,"
    "ori-hoist-invariants-late2,ori-hoist-invariants-late3,ori-regalloc")


ARCH_DIRS = {"library": ROOT / "examples" / "library" / "ptx",
             "triton": ROOT / "examples" / "triton" / "ptx"}


@functools.cache
def _launch_table(corpus: str) -> list[Any]:
    import importlib  # lazy: the launch tables import numpy references of every kernel

    return list(importlib.import_module(f"examples.{corpus}.launches").LAUNCHES)


@functools.cache
def _corpus_module(corpus: str, arch: str, stem: str, compiled: bool) -> ModuleOp:
    path = ARCH_DIRS[corpus] / arch / f"{stem}.ptx"
    m = import_ptx(path.read_text(), str(path.relative_to(ROOT)))
    if compiled:
        with contextlib.redirect_stderr(io.StringIO()):
            apply_pipeline(m, PTXAS_WITH_REMAT, make_context())
        m.verify()
    return m


def _run_both(corpus: str, arch: str, la: Any) -> None:
    stem = Path(la.file).stem if corpus == "library" else la.kernel
    before = _corpus_module(corpus, arch, stem, False)
    after = _corpus_module(corpus, arch, stem, True)
    kw: dict[str, Any] = {}
    if getattr(la, "symbols", None):
        kw["symbols"] = la.symbols
    args = la.make_args(np.random.default_rng(la.seed))
    shared = getattr(la, "shared_bytes", 0) or 0
    want = run_kernel(before, la.kernel, la.grid, la.block, [copy.deepcopy(a) for a in args],
                      shared_bytes=shared, **kw)
    got = run_kernel(after, la.kernel, la.grid, la.block, [copy.deepcopy(a) for a in args],
                     shared_bytes=shared, physical=True, **kw)
    for i, (g, w) in enumerate(zip(got, want, strict=True)):
        assert np.asarray(g).tobytes() == np.asarray(w).tobytes(), (
            f"{corpus} {arch} @{la.kernel}: argument {i} differs after {PTXAS_WITH_REMAT}")


@pytest.mark.fuzz
def test_library_kernels_after_remat_and_allocation() -> None:
    for la in _launch_table("library"):
        _run_both("library", "sm_80", la)


@pytest.mark.fuzz
@pytest.mark.parametrize("arch", ("sm_80", "sm_90a"))
def test_triton_kernels_after_remat_and_allocation(arch: str) -> None:
    for la in _launch_table("triton"):
        _run_both("triton", arch, la)
