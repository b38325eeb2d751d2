"""``ori-block-layout`` (passes/block_layout.py): only the block order
changes, so programs compute what they computed (generated programs alone
and through ``ori-ptxas`` in the physical interpreter, the lit inputs), the
entry stays first, and the listing never holds more branch instructions."""

from __future__ import annotations

from pathlib import Path

import pytest

from ori_dialect.analysis import functions_of
from ori_dialect.testing.equivalence import check_generated, check_lit_inputs
from ori_dialect.testing.generator import GenOptions
from passes.block_layout import BlockLayoutPass, branch_instructions

LIT_DIRS = [Path(__file__).resolve().parents[2] / "filecheck" / "passes" / d
            for d in ("block_layout", "loop_unroll", "branch_opt")]


def test_lit_inputs_keep_their_results() -> None:
    seen = check_lit_inputs(LIT_DIRS, "ori-block-layout", seeds=(0,))
    assert seen.kernels >= 3 and seen.changed >= 1


def _check(seed: int) -> None:
    prog, after = check_generated(seed, GenOptions(), "ori-block-layout")
    for f_before, f_after in zip(functions_of(prog.module), functions_of(after)):
        entry, new_entry = f_before.regions[0].blocks.first, f_after.regions[0].blocks.first
        assert entry is not None and new_entry is not None
        assert entry.first_op is not None and new_entry.first_op is not None
        assert entry.first_op.name == new_entry.first_op.name
        assert branch_instructions(f_after.regions[0]) <= branch_instructions(f_before.regions[0])


def test_generated_programs() -> None:
    for seed in range(6):
        _check(seed)


@pytest.mark.fuzz
def test_generated_programs_many() -> None:
    for seed in range(2000, 2300):
        _check(seed)


def test_the_pass_is_registered_in_ori_ptxas() -> None:
    from passes.pipeline import phase_names

    assert BlockLayoutPass.name in phase_names()
    assert phase_names().index("ori-block-layout") < phase_names().index("ori-abi")
