"""``ori-pipeline`` and ``ori-loop-fusion`` keep the interpreter's results:

* on the kernels of their lit inputs (and, under ``-m fuzz``, those of
  ``loop_simplify/`` and ``loop_unroll/``), for trip counts 0, 1, 2, 3, 7, 37;
* on the CUDA examples after loop simplification and unrolling (the phases
  before 24), with the pressure gate off so that every loop that schedules
  is transformed (default run: three files; ``-m fuzz``: all, sm_80 and sm_90);
* on generated single-block loops (``ori_dialect/testing/pipeline_gen.py``:
  trip counts 0..17 and ``n``, recurrences over one and two iterations, loads
  and stores that alias across iterations, adjacent loops for fusion): a
  sample in the default run, 320 programs per option set under ``-m fuzz``.

A check that nothing was transformed would pass whatever the passes do, so
each test also asserts that the passes did transform (counted from their
remarks).
"""

from __future__ import annotations

import contextlib
import io
from pathlib import Path
from typing import Any

import numpy as np
import pytest
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
from ori_dialect.testing.pipeline_gen import generate_pipeline_loops
from tests.passes.example_launches import (
    after_pipeline,
    check_launch,
    example_rel,
    launch_id,
    launches,
)

ROOT = Path(__file__).resolve().parents[3]
LIT = ROOT / "tests" / "filecheck" / "passes"
OWN_LIT = (LIT / "modulo_pipeline", LIT / "loop_fusion")
MORE_LIT = (LIT / "loop_simplify", LIT / "loop_unroll")
NO_GATE = "ori-pipeline{reject-pressure-growth=false remarks=true}"
LIT_PIPES = (
    f"ori-loop-simplify,{NO_GATE}",
    "ori-loop-simplify,ori-pipeline{reject-pressure-growth=false max-stages=2 remarks=true}",
    "ori-loop-fusion{perform-loop-fusion=1 remarks=true}," + NO_GATE,
)
SCALARS = (0, 1, 2, 3, 7, 37)


def _transformed(err: str) -> int:
    return sum(1 for line in err.splitlines()
               if ": pipelined:" in line or (": fused " in line and "not fused" not in line))


def _check_lit(dirs: tuple[Path, ...], pipe: str) -> int:
    done = 0
    for name, idx, text in lit_chunks(list(dirs)):
        module = Parser(make_context(), text, "lit").parse_module()
        for func in functions_of(module):
            if not isinstance(func, FuncOp) or func.kernel is None:
                continue
            assert func.params is not None, f"{name} chunk {idx}: a lit kernel needs params"
            kname = func.sym_name.data
            after = module.clone()
            err = io.StringIO()
            with contextlib.redirect_stderr(err):
                apply_pipeline(after, pipe)
            after.verify()
            done += _transformed(err.getvalue())
            if module_text(after) == module_text(module):
                continue
            for s in SCALARS:
                args = lit_kernel_args(func, np.random.default_rng(s), s)
                ref = run_launch(module, kname, args, 1, 4, max_steps=1_000_000)
                assert ref.ok, f"{name} chunk {idx} @{kname} does not run: {ref.error}"
                out = run_launch(after, kname, args, 1, 4, max_steps=step_limit(ref))
                d = first_difference(ref, out, s)
                if d is not None:
                    raise EquivalenceError(format_failure(
                        d, module, after, title=f"{name} chunk {idx} @{kname}: {pipe}"), d)
    return done


@pytest.mark.parametrize("pipe", LIT_PIPES)
def test_own_lit_inputs_keep_results(pipe: str) -> None:
    assert _check_lit(OWN_LIT, pipe) > 0


@pytest.mark.fuzz
@pytest.mark.parametrize("pipe", LIT_PIPES)
def test_loop_lit_inputs_keep_results(pipe: str) -> None:
    assert _check_lit(MORE_LIT, pipe) > 0


# ----------------------------------------------------------------------------
# the CUDA examples: the phases before 24, then the pipeliner without its gate
# ----------------------------------------------------------------------------

BEFORE = "ori-general-optimize,ori-dead-code,ori-loop-simplify,ori-loop-unroll"


def _check_example(launch: Any, arch: str, spec: str) -> None:
    rel = example_rel(launch, arch)
    check_launch(after_pipeline(rel, BEFORE), after_pipeline(rel, f"{BEFORE},{spec}"),
                 launch, f"{rel} @{launch.kernel}: {spec}")


DEFAULT = {"histogram", "reduce"}
"""Files whose loops the ungated pipeliner transforms (histogram256, reduce_gridstride_down)."""


@pytest.mark.parametrize("launch", launches(DEFAULT), ids=launch_id)
def test_examples_keep_results(launch: Any) -> None:
    _check_example(launch, "sm_80", "ori-pipeline{reject-pressure-growth=false}")


@pytest.mark.fuzz
@pytest.mark.parametrize("spec", ("ori-pipeline{reject-pressure-growth=false}",
                                  ("ori-pipeline{reject-pressure-growth=false max-stages=2 "
                                   "ok-to-pipeline-no-unroll=1}"),
                                  "ori-loop-fusion{perform-loop-fusion=1},ori-pipeline"))
@pytest.mark.parametrize("arch", ("sm_80", "sm_90"))
@pytest.mark.parametrize("launch", launches(), ids=launch_id)
def test_all_examples_keep_results(launch: Any, arch: str, spec: str) -> None:
    _check_example(launch, arch, spec)


def test_examples_are_pipelined_without_the_gate() -> None:
    rel = "sm_80/reduce.ptx"
    m = after_pipeline(rel, BEFORE).clone()
    err = io.StringIO()
    with contextlib.redirect_stderr(err):
        apply_pipeline(m, "ori-pipeline{reject-pressure-growth=false remarks=true}")
    assert _transformed(err.getvalue()) >= 1, err.getvalue()


# ----------------------------------------------------------------------------
# generated loops
# ----------------------------------------------------------------------------

GEN_SPECS = (
    NO_GATE,
    "ori-pipeline{reject-pressure-growth=false max-stages=2 remarks=true}",
    "ori-pipeline{reject-pressure-growth=false max-stages=8 remarks=true}",
    "ori-pipeline{remarks=true}",
    "ori-loop-fusion{perform-loop-fusion=1 remarks=true}," + NO_GATE,
)


def check_generated(seeds: range, spec: str, inputs: int = 3) -> tuple[int, int]:
    """(programs checked, loops transformed) for ``spec`` on generated loops."""
    done = 0
    for seed in seeds:
        prog = generate_pipeline_loops(seed)
        after = prog.module.clone()
        err = io.StringIO()
        with contextlib.redirect_stderr(err):
            apply_pipeline(after, spec)
        after.verify()
        done += _transformed(err.getvalue())
        for k in range(inputs):
            li = prog.inputs(seed * 100 + k)
            ref = run_launch(prog.module, prog.kernel, li.args, li.grid, li.block,
                             li.shared_bytes, strict=True)
            assert ref.ok, f"generated program {seed} fails: {ref.error}"
            out = run_launch(after, prog.kernel, li.args, li.grid, li.block, li.shared_bytes,
                             max_steps=step_limit(ref))
            d = first_difference(ref, out, li.seed)
            if d is not None:
                raise EquivalenceError(format_failure(
                    d, prog.module, after, title=f"pipeline_gen seed {seed}: {spec}"), d)
    return len(seeds), done


@pytest.mark.parametrize("spec", GEN_SPECS[:1] + GEN_SPECS[-1:])
def test_generated_loops_sample(spec: str) -> None:
    n, done = check_generated(range(12), spec)
    assert done >= 5, f"only {done} loops transformed in {n} programs"


@pytest.mark.fuzz
@pytest.mark.parametrize("spec", GEN_SPECS)
def test_generated_loops(spec: str) -> None:
    n, done = check_generated(range(1000, 1320), spec)
    assert n == 320 and done >= 50, f"only {done} loops transformed in {n} programs"
