"""``ori-strength-reduce`` (passes/strength_reduce/, phase 21): carried
derived IVs compute what the ops they replace computed -- lit inputs and
generated programs in the interpreter, with the default gain and with the
debug knob that reduces every root -- and the default never lengthens a
loop body."""

from __future__ import annotations

import contextlib
import io
from pathlib import Path

import pytest

from ori_dialect.analysis import LoopInfo, functions_of
from ori_dialect.testing.equivalence import apply_pipeline, check_generated, check_lit_inputs
from ori_dialect.testing.generator import GenOptions
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


def _check(seed: int, spec: str) -> int:
    """Equivalence of one generated program; the carried values it got."""
    _, after = check_generated(seed, IV_ARITH, spec)
    return sum(1 for f in functions_of(after) for b in f.regions[0].blocks
               for a in b.args if (a.name_hint or "").startswith("sr"))


def test_generated_programs_every_root() -> None:
    reduced = [_check(s, ALL_ROOTS) for s in range(4)]
    assert sum(reduced) >= 4  # the generator's loops do have derived values


@pytest.mark.fuzz
def test_generated_programs_many() -> None:
    specs = (ALL_ROOTS, "ori-loop-simplify,ori-strength-reduce{min-gain=0}",
             "ori-loop-simplify,ori-strength-reduce")
    reduced = sum(_check(s, specs[s % 3]) for s in range(3000, 3300))
    assert reduced > 100


def test_default_never_lengthens_loop_bodies() -> None:
    from ori_dialect.testing.generator import generate

    for seed in range(5):
        prog = generate(seed, options=IV_ARITH)
        with contextlib.redirect_stderr(io.StringIO()):
            apply_pipeline(prog.module, "ori-loop-simplify")
            before = _loop_ops(prog.module)
            apply_pipeline(prog.module, "ori-strength-reduce")
        assert _loop_ops(prog.module) <= before


def test_bad_option_is_a_diagnostic() -> None:
    from xdsl.utils.exceptions import PassFailedException

    prog = __import__("ori_dialect.testing.generator", fromlist=["generate"]).generate(0)
    with pytest.raises(PassFailedException, match="min-gain must be -1 or more"):
        apply_pipeline(prog.module, "ori-strength-reduce{min-gain=-3}")


def test_the_pass_runs_at_phase_21() -> None:
    from passes.pipeline import PHASES, phase_names

    names = phase_names()
    assert StrengthReducePass.name in names
    assert names.index("ori-loop-simplify") < names.index("ori-strength-reduce") \
        < names.index("ori-loop-unroll")
    assert [p.number for p in PHASES if p.pass_name == "ori-strength-reduce"] == [21]
