"""``ori-loop-fusion``: off unless asked (PerformLoopFusion 0, also inside
``ori-ptxas``), and equivalent on generated adjacent loops when on."""

from __future__ import annotations

import pytest
from xdsl.parser import Parser

from ori_dialect.testing.equivalence import apply_pipeline, make_context, module_text
from ori_dialect.testing.pipeline_gen import generate_pipeline_loops
from passes.pipeline import PHASES, PtxasPipelinePass
from tests.passes.pipeline_modulo.test_equivalence import check_generated

FUSE = "ori-loop-fusion{perform-loop-fusion=1 remarks=true}"


def test_off_by_default_and_in_ori_ptxas() -> None:
    phase = next(p for p in PHASES if p.pass_name == "ori-loop-fusion")
    assert (phase.number, phase.seed_name) == (59, "OriLoopFusion")
    assert "perform_loop_fusion" not in PtxasPipelinePass(remarks=True).phase_options(
        "ori-loop-fusion")
    fused = 0
    for seed in range(30, 60):
        prog = generate_pipeline_loops(seed)
        text = module_text(prog.module)
        off = Parser(make_context(), text, "gen").parse_module()
        apply_pipeline(off, "ori-loop-fusion")
        assert module_text(off) == text
        on = Parser(make_context(), text, "gen").parse_module()
        apply_pipeline(on, "ori-loop-fusion{perform-loop-fusion=1}")
        fused += module_text(on) != text
    assert fused > 0  # the same programs do fuse when asked


def test_generated_adjacent_loops_sample() -> None:
    n, done = check_generated(range(30, 90), FUSE, inputs=1)
    assert done >= 5, f"only {done} pairs fused in {n} programs"


@pytest.mark.fuzz
def test_generated_adjacent_loops() -> None:
    n, done = check_generated(range(2000, 2320), FUSE)
    assert n == 320 and done >= 20, f"only {done} pairs fused in {n} programs"
