"""``reject-pressure-growth`` and ``max-code-growth`` measure the loop alone
(pressure_gate.py): for every loop that schedules, ``max(peak of the other
blocks, peak of the loop's pipelined copy)`` must equal the peak R pressure
of the whole function after pipelining that loop, and the copy's code
growth the growth of the function's SASS instruction count -- checked
against whole-function measurements on generated single-block loops and
on CUDA examples."""

from __future__ import annotations

import contextlib
import io
from pathlib import Path

import pytest

from ori_dialect.analysis import functions_of
from ori_dialect.analysis.pressure import RegisterPressure
from ori_dialect.ir.registers import RegFile
from ori_dialect.ptx.lower.module import import_ptx
from ori_dialect.testing.equivalence import apply_pipeline
from ori_dialect.testing.pipeline_gen import generate_pipeline_loops
from passes.pipeline import PHASES, PtxasPipelinePass
from passes.pipeline_modulo import PipelinePass
from passes.pipeline_modulo.analysis import analyze_loop
from passes.pipeline_modulo.pressure_gate import FunctionPeaks, sass_count, trial_region

ROOT = Path(__file__).resolve().parents[3]


def _compare(module: object) -> int:
    """Loops compared."""
    n = 0
    p = PipelinePass()
    for func in functions_of(module):  # type: ignore[arg-type]
        target = p.target_of(func)
        loops = [b for b in func.regions[0].blocks
                 if b.last_op is not None and any(s is b for s in b.last_op.successors)]
        for k, block in enumerate(loops):
            lr = analyze_loop(block, target, p)  # type: ignore[arg-type]
            if lr.schedule is None or lr.reason is not None:
                continue
            peaks = FunctionPeaks(func)
            got = trial_region(block, peaks, lambda b, lr=lr: PipelinePass._transform(b, lr))
            gate = max(peaks.peak_without(block), got.peak)
            trial = func.clone()
            blocks = list(trial.regions[0].blocks)
            idx = list(func.regions[0].blocks).index(block)
            before = sum(sass_count(b) for b in blocks)
            PipelinePass._transform(blocks[idx], lr)
            whole = RegisterPressure.compute(trial).max.get(RegFile.R, 0)
            grown = sum(sass_count(b) for b in trial.regions[0].blocks) - before
            trial.erase()
            assert gate == whole, f"@{func.sym_name.data} loop {k}: gate {gate}, whole {whole}"
            assert got.growth == grown, f"@{func.sym_name.data} loop {k}: {got.growth} != {grown}"
            assert grown > 0
            n += 1
    return n


def test_generated_loops() -> None:
    assert sum(_compare(generate_pipeline_loops(s).module) for s in range(12)) >= 10


def _example(rel: str) -> int:
    pp = PtxasPipelinePass()
    spec = ",".join(pp.phase_text(p) for p in PHASES if p.number is not None and p.number < 24)
    m = import_ptx((ROOT / rel).read_text(), rel)
    with contextlib.redirect_stderr(io.StringIO()):
        apply_pipeline(m, spec)
    return _compare(m)


def test_cuda_examples() -> None:
    assert _example("examples/library/ptx/sm_80/cub_block.ptx") >= 2


@pytest.mark.fuzz
def test_generated_loops_many() -> None:
    assert sum(_compare(generate_pipeline_loops(s).module) for s in range(100, 400)) >= 200


@pytest.mark.fuzz
def test_library_examples() -> None:
    files = [*sorted((ROOT / "examples" / "library" / "ptx" / "sm_80").glob("*.ptx")),
             *sorted((ROOT / "examples" / "ptx" / "sm_80").glob("*.ptx")),
             *sorted((ROOT / "examples" / "tensor" / "ptx" / "sm_80").glob("*.ptx"))]
    n = sum(_example(str(p.relative_to(ROOT))) for p in files)
    assert n >= 10
