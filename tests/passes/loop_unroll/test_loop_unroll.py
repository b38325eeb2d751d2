"""ori-loop-simplify + ori-loop-unroll keep the interpreter's results on
generated programs (loop-focused kernels of ``ori_dialect.testing.loop_gen``
and the general generator), on loops with unknown trip counts under every
remainder scheme and factor (trip counts 0..9, 37, 100, rising and falling
IVs, starts next to the 2^31 / 2^32 wrap points, the IV used after the
loop), and bad options give diagnostics."""

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


# ----------------------------------------------------------------------------
# remainders of partial unrolling with an unknown trip count
# ----------------------------------------------------------------------------

_P = 0x210  # sm_90: kernel parameters start at c[0x0][0x210]


def _remainder_kernel(cmp: str, step: int, test_next: bool, top: bool):  # type: ignore[no-untyped-def]
    """``i = start; [while (i CMP n)] do { acc = acc*31 + i; i += step } while
    ((test_next ? i : i-step) CMP n)``, storing ``i`` and ``acc`` after the
    loop (the IV is used after it); ``n`` and ``start`` are parameters, so
    the trip count is unknown."""
    from ori_dialect.builder import PT, RZ, FuncBuilder, cbank, module
    from ori_dialect.ir.registers import r32, r64

    fb = FuncBuilder("rk", kernel=True, params=[(8, 8), (4, 4), (4, 4)])
    out = fb.ldc(0, RZ, _P, mods="b64", types=[r64])
    n = fb.mov(cbank(0, _P + 8))
    start = fb.mov(cbank(0, _P + 12))
    acc0 = fb.mov(7)
    pre = fb.current
    header, exit_b = fb.block(r32, r32), fb.block(r32, r32)
    fb.goto(header)
    iv, acc = header.args
    if top:
        p = fb.isetp(iv, n, PT, mods=cmp)
        body = fb.block()
        fb.bra(body, guard=p, fallthrough=exit_b, fallthrough_args=[iv, acc])
        fb.goto(body)
    v = fb.imad(acc, 31, iv)
    iv2 = fb.iadd3(iv, step, RZ)
    if top:
        fb.bra(header, iv2, v)
    else:
        q = fb.isetp(iv2 if test_next else iv, n, PT, mods=cmp)
        fb.bra(header, iv2, v, guard=q, fallthrough=exit_b, fallthrough_args=[iv2, v])
    with fb.at(pre):
        fb.bra(header, start, acc0)
    fb.goto(exit_b)
    fb.stg(out, 0, exit_b.args[0])
    fb.stg(out, 4, exit_b.args[1])
    fb.exit()
    return module(fb.func, target="sm_90")


def _remainder_inputs(step: int, full: bool) -> list[list[object]]:
    """(out, n, start) for trip counts 0..9, 37, 100 from ordinary starts and
    from starts just below the wrap points 2^31 and 2^32 (and above them for
    falling IVs); a smaller set unless ``full``."""
    import numpy as np

    out = []
    starts = (0, 5, 0x7FFFFFF0, 0xFFFFFFF0, 0x80000003, 0xFFFFFFFC, 0x7FFFFFFE, 3) if full else (
        0, 0x7FFFFFF0, 0xFFFFFFF0, 0x80000003)
    trips = (-1, 0, 1, 2, 3, 4, 5, 6, 7, 9, 37, 100) if full else (-1, 0, 1, 2, 3, 4, 5, 7, 37)
    for start in starts:
        for j in trips:
            n = (start + j * step) & 0xFFFFFFFF
            out.append([np.zeros(2, np.uint32), np.uint32(n), np.uint32(start)])
        for n in (0, 0x7FFFFFFF, 0x80000000, 0xFFFFFFFF):
            out.append([np.zeros(2, np.uint32), np.uint32(n), np.uint32(start)])
    return out


_REM_CASES = [
    ("lt.u32", 1, True, False), ("lt.s32", 1, True, False), ("le.s32", 3, False, False),
    ("lt.u32", 2, False, False), ("gt.s32", -1, True, False), ("ge.u32", -2, False, False),
    ("ne.u32", 1, True, False), ("lt.s32", 1, True, True), ("gt.u32", -3, True, True),
    ("le.u32", 5, True, False),
]


def _check_remainders(cmp: str, step: int, test_next: bool, top: bool, factors: tuple[int, ...],
                      scheme: str, full: bool = False) -> None:
    from ori_dialect.testing.equivalence import run_launch

    m = _remainder_kernel(cmp, step, test_next, top)
    # inputs whose loop ends in a reasonable time (a wrapping IV may run 2^32 times)
    inputs = [a for a in _remainder_inputs(step, full) if run_launch(m, "rk", a, 1, 1, max_steps=2500).ok]
    assert len(inputs) > 25
    for factor in factors:
        _check_factor(m, inputs, cmp, step, test_next, top, factor, scheme)


def _check_factor(m, inputs, cmp, step, test_next, top, factor, scheme) -> None:  # type: ignore[no-untyped-def]
    from ori_dialect.testing.equivalence import apply_pipeline, check_equivalent

    after = m.clone()
    err = io.StringIO()
    with contextlib.redirect_stderr(err):
        apply_pipeline(after, f"ori-loop-simplify,ori-loop-unroll{{remarks=true loop-unroll-factor={factor} "
                       f"unknown-trip-remainder={scheme}}}")
    after.verify()
    assert f"unrolled by {factor} (partial)" in err.getvalue(), err.getvalue()
    check_equivalent(m, after, "rk", inputs, grid=1, block=1, max_steps=6000,
                     title=f"{cmp} step {step} test_next={test_next} top={top} factor {factor} {scheme}")


def _rem_id(c: tuple[str, int, bool, bool]) -> str:
    return f"{c[0]}_{c[1]}_{'next' if c[2] else 'iv'}{'_top' if c[3] else ''}"


@pytest.mark.parametrize("case", [_REM_CASES[i] for i in (0, 2, 4, 6, 7)], ids=_rem_id)
def test_unknown_trip_remainders(case: tuple[str, int, bool, bool]) -> None:
    # factor 4 (power-of-two epilogue: one 2-copy stage, then the original loop) and
    # 3 (not a power of two)
    _check_remainders(*case, (4, 3), "pow2")


@pytest.mark.fuzz
@pytest.mark.parametrize("case", _REM_CASES, ids=_rem_id)
def test_unknown_trip_remainders_all_factors(case: tuple[str, int, bool, bool]) -> None:
    _check_remainders(*case, (2, 3, 4, 5, 6, 7, 8, 10, 16), "pow2", full=True)
    _check_remainders(*case, (3, 4, 8), "exit-tests", full=True)


def test_pow2_limit_and_levels() -> None:
    from passes.loop_unroll.transform import pow2_levels

    # the seed's 31 - CLZ(factor - 1)
    assert [pow2_levels(f) for f in (2, 3, 4, 5, 8, 9, 16, 17)] == [0, 1, 1, 2, 2, 3, 3, 4]


def test_top_tested_loops_are_inverted() -> None:
    """Every top-tested loop of the generated kernels is inverted (none is
    left for the unroller's code 13), and the result keeps the results."""
    from ori_dialect.testing.equivalence import apply_pipeline

    inverted = expected = 0
    for s in range(40):
        prog = generate_loops(s)
        expected += prog.features["top_tested"]
        m = prog.module.clone()
        err = io.StringIO()
        with contextlib.redirect_stderr(err):
            apply_pipeline(m, "ori-loop-simplify{remarks=true},ori-loop-unroll{remarks=true}")
        text = err.getvalue()
        assert "not inverted" not in text and "(code 13)" not in text, text
        inverted += text.count("inverted a top-tested loop")
    assert expected >= 10 and inverted == expected
