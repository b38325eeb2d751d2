"""ori-loop-simplify + ori-loop-unroll keep the interpreter's results on
generated programs (loop-focused kernels of ``ori_dialect.testing.loop_gen``
and the general generator), and bad options give diagnostics."""

from __future__ import annotations

import contextlib
import io

import pytest
from xdsl.utils.exceptions import PassFailedException

from ori_dialect.testing import GenOptions, assert_pass_preserves, generate
from ori_dialect.testing.loop_gen import generate_loops

PIPE = "ori-loop-simplify,ori-loop-unroll{remarks=true}"


def _check(prog) -> str:  # type: ignore[no-untyped-def]
    err = io.StringIO()
    with contextlib.redirect_stderr(err):
        assert_pass_preserves(prog.module, PIPE, prog.kernel, prog.input_factory, n=1)
    return err.getvalue()


@pytest.mark.parametrize("seed", range(12))
def test_loop_programs(seed: int) -> None:
    _check(generate_loops(seed))


@pytest.mark.parametrize("seed", range(6))
def test_general_programs(seed: int) -> None:
    _check(generate(seed, options=GenOptions(max_depth=2, budget=3000)))


def test_loop_programs_unroll_something() -> None:
    text = "".join(_check(generate_loops(s)) for s in range(12, 20))
    assert "(full)" in text and "(partial)" in text and "not unrolled (code" in text


@pytest.mark.fuzz
@pytest.mark.parametrize("chunk", range(10))
def test_fuzz_loop_programs(chunk: int) -> None:
    # 10 x 30 = 300 loop programs, plus 10 x 5 general ones
    for s in range(1000 + 30 * chunk, 1000 + 30 * (chunk + 1)):
        _check(generate_loops(s))
    for s in range(5000 + 5 * chunk, 5000 + 5 * (chunk + 1)):
        _check(generate(s, options=GenOptions(max_depth=2, budget=3000)))


@pytest.mark.parametrize("opts", [
    "unroll-budget=-1",
    "loop-unroll-factor=-2",
    "force-factor-log2=0",
    "unroll-unknown-count=0",
    'loop-unroll-factor-override="-3"',
    'loop-unroll-factor-override="x"',
])
def test_bad_options(opts: str) -> None:
    from ori_dialect.testing.equivalence import apply_pipeline

    prog = generate_loops(0)
    with pytest.raises(PassFailedException):
        apply_pipeline(prog.module.clone(), f"ori-loop-unroll{{{opts}}}")


def test_simplify_idempotent() -> None:
    from ori_dialect.analysis import functions_of
    from ori_dialect.testing.equivalence import apply_pipeline
    from passes.loop_simplify import simplify_function

    for s in range(10):
        m = generate(s).module.clone()
        apply_pipeline(m, "ori-loop-simplify")
        assert all(simplify_function(f) == 0 for f in functions_of(m))
