"""``ori-strength-reduce`` (passes/strength_reduce/, phase 21): carried
derived IVs compute what the ops they replace computed -- lit inputs and
generated programs in the interpreter, with the default gain and with the
debug knob that reduces every root -- and the default never lengthens a
loop body."""

from __future__ import annotations

import contextlib
import io
import re
from pathlib import Path

import pytest
from xdsl.utils.exceptions import PassFailedException

from ori_dialect.analysis import LoopInfo, functions_of
from ori_dialect.testing.equivalence import apply_pipeline, check_generated, check_lit_inputs
from ori_dialect.testing.generator import GenOptions, generate
from passes.strength_reduce import StrengthReducePass

LIT = Path(__file__).resolve().parents[2] / "filecheck" / "passes"
IV_ARITH = GenOptions(iv_arith=True)
"""Generated loops with affine values of their IVs (the pass's input)."""
ALL_ROOTS = "ori-loop-simplify,ori-strength-reduce{min-gain=-1}"


def test_lit_inputs_keep_their_results() -> None:
    # the scalar parameters are the seeds: @single's stride must not be 0
    for spec in ("ori-strength-reduce", "ori-strength-reduce{min-gain=-1}"):
        seen = check_lit_inputs([LIT / "strength_reduce", LIT / "loop_unroll"], spec, seeds=(1, 3))
        assert seen.kernels >= 3 and seen.changed >= 1


def _loop_ops(module: object) -> int:
    n = 0
    for f in functions_of(module):  # type: ignore[arg-type]
        li = LoopInfo.compute(f)
        inner = {b for lp in li for b in lp.blocks}
        n += sum(len(li.cfg.blocks[b].ops) for b in inner)
    return n


def _carried(module: object) -> int:
    """The carried values the pass made (header arguments named ``sr``)."""
    return sum(1 for f in functions_of(module) for b in f.regions[0].blocks  # type: ignore[arg-type]
               for a in b.args if (a.name_hint or "").startswith("sr"))


def _check(seed: int, spec: str) -> int:
    """Equivalence of one generated program; the carried values it got."""
    _, after = check_generated(seed, IV_ARITH, spec)
    return _carried(after)


def test_generated_programs_every_root() -> None:
    reduced = [_check(s, ALL_ROOTS) for s in range(4)]
    assert sum(reduced) >= 4  # the generator's loops do have derived values


@pytest.mark.fuzz
def test_generated_programs_many() -> None:
    specs = (ALL_ROOTS, "ori-loop-simplify,ori-strength-reduce{min-gain=0}",
             "ori-loop-simplify,ori-strength-reduce")
    reduced = sum(_check(s, specs[s % 3]) for s in range(3000, 3300))
    assert reduced > 100


def test_default_shortens_loop_bodies() -> None:
    """With the default gain every carried root removes at least one op from
    its loop's body net of the add it costs (the pass's own tally), and the
    loop bodies counted before and after shrink."""
    reduced = 0
    for seed in range(8):  # seeds 5-7 hold a root that only moves an op: min-gain=0 fails
        prog = generate(seed, options=IV_ARITH)
        err = io.StringIO()
        with contextlib.redirect_stderr(err):
            apply_pipeline(prog.module, "ori-loop-simplify")
            before = _loop_ops(prog.module)
            apply_pipeline(prog.module, "ori-strength-reduce{stats=true}")
        m = re.search(r"\[reduced=(\d+)\].*\[ops removed=(-?\d+)\]", err.getvalue())
        assert m is not None, err.getvalue()
        n, removed = int(m.group(1)), int(m.group(2))
        assert removed >= n, f"program {seed}: {n} roots reduced, {removed} ops removed"
        if n:  # inner loops' initial values land in outer bodies: fewer ops, not exactly M
            assert _loop_ops(prog.module) < before, f"program {seed}"
        reduced += n
    assert reduced >= 2


def test_bad_option_is_a_diagnostic() -> None:
    prog = generate(0)
    with pytest.raises(PassFailedException, match="min-gain must be -1 or more"):
        apply_pipeline(prog.module, "ori-strength-reduce{min-gain=-3}")


def test_the_pass_runs_at_phase_21() -> None:
    from passes.pipeline import PHASES, phase_names

    names = phase_names()
    assert StrengthReducePass.name in names
    assert names.index("ori-loop-simplify") < names.index("ori-strength-reduce") \
        < names.index("ori-loop-unroll")
    assert [p.number for p in PHASES if p.pass_name == "ori-strength-reduce"] == [21]
