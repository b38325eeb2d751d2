"""``ori-ptxas``: the phase order, the options it hands each phase, and
bit-exact results on the CUDA examples before and after it."""

from __future__ import annotations

import copy

import numpy as np
import pytest
from xdsl.passes import PassPipeline
from xdsl.utils.exceptions import PassFailedException

from examples.cuda.launches import LAUNCHES
from ori_dialect.interpreter import run_kernel
from ori_dialect.ptx.lower import import_ptx
from ori_dialect.testing.equivalence import apply_pipeline, make_context
from passes.pipeline import PHASES, PtxasPipelinePass, phase_names
from passes.registry import all_passes


def test_phases_in_seed_order_and_registered() -> None:
    numbers = [p.number for p in PHASES if p.number is not None]
    assert numbers == sorted(numbers)
    # phases without a seed number (the machine-level remat, allocation) come last
    unnumbered = [p.number is None for p in PHASES]
    assert unnumbered == sorted(unnumbered) and PHASES[-1].pass_name == "ori-regalloc"
    assert set(phase_names()) <= set(all_passes())
    assert "ori-ptxas" in all_passes()


def test_options_reach_the_phases() -> None:
    p = PtxasPipelinePass(max_regs=32, stats=True, remarks=True, strategy="ssa", target="sm_90")
    assert p.phase_options("ori-regalloc") == {
        "strategy": "ssa", "stats": True, "max_regs": 32, "target": "sm_90"}
    assert p.phase_options("ori-loop-unroll") == {"remarks": True}
    assert p.phase_options("ori-remat-block") == {
        "remarks": True, "max_regs": 32, "target": "sm_90"}
    assert p.phase_options("ori-remat") == {"remarks": True}
    # the register limit goes to every phase that takes one, remarks to every phase with remarks
    q = PtxasPipelinePass(override_directive_values=True)
    assert q.phase_options("ori-remat-block") == {"override_directive_values": True}
    assert q.phase_options("ori-regalloc")["override_directive_values"] is True
    assert p.phase_options("ori-cse") == {"remarks": True}
    assert PtxasPipelinePass().phase_options("ori-loop-unroll") == {}


def test_disable_takes_a_list_from_the_pipeline_syntax() -> None:
    """``-p 'ori-ptxas{disable=a,b}'``: the pipeline parser gives a tuple."""
    from xdsl.utils.arg_spec import parse_pipeline

    for text in ("ori-ptxas{disable=ori-cse,ori-remat}",
                 'ori-ptxas{disable="ori-cse,ori-remat"}'):
        (spec,) = parse_pipeline(text)
        assert PtxasPipelinePass.from_pass_spec(spec).skipped() == {"ori-cse", "ori-remat"}
    (spec,) = parse_pipeline("ori-ptxas{disable=ori-cse,ori-nope}")
    with pytest.raises(PassFailedException, match="ori-nope"):
        PtxasPipelinePass.from_pass_spec(spec).skipped()


def test_disable_checks_names() -> None:
    assert PtxasPipelinePass(disable="ori-loop-unroll").skipped() == {"ori-loop-unroll"}
    with pytest.raises(PassFailedException, match="names no phase"):
        PtxasPipelinePass(disable="ori-nope").skipped()
    with pytest.raises(PassFailedException, match="cannot be disabled"):
        PtxasPipelinePass(disable="ori-regalloc").skipped()


def test_parses_from_a_spec() -> None:
    passes = PassPipeline.parse_spec(
        {"ori-ptxas": lambda: PtxasPipelinePass}, "ori-ptxas{max-regs=40 stats=true}")
    assert passes.passes[0] == PtxasPipelinePass(max_regs=40, stats=True)


# Every eighth example keeps the default run short; the full corpora run in
# tests/ptx (library and Triton kernels) before and after ori-ptxas.
@pytest.mark.parametrize("launch", LAUNCHES[::8], ids=lambda la: la.kernel)
def test_examples_unchanged_in_physical_mode(launch: object) -> None:
    la = launch  # type: ignore[assignment]
    mod = import_ptx(la.ptx_path("sm_80").read_text(), str(la.ptx_path("sm_80")))  # type: ignore[attr-defined]
    apply_pipeline(mod, "ori-ptxas", make_context())
    args = la.make_args(np.random.default_rng(la.seed))  # type: ignore[attr-defined]
    want = la.expected([copy.deepcopy(a) for a in args])  # type: ignore[attr-defined]
    got = run_kernel(mod, la.kernel, la.grid, la.block, args,  # type: ignore[attr-defined]
                     shared_bytes=la.shared_bytes, physical=True)  # type: ignore[attr-defined]
    for g, w in zip(got, want, strict=True):
        if w is not None:
            la.check(g, w)  # type: ignore[attr-defined]


