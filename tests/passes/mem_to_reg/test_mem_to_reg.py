"""``ori-mem-to-reg`` (issue 19 item 2; passes/mem_to_reg): promoted
programs compute what they computed with their variables in memory -- the
lit inputs, and generated programs with a local array in every activation
(``GenOptions(frames=True)``: fixed-offset accesses are promoted, a computed
index keeps the frame) alone and through ``ori-ptxas`` in the physical
interpreter.  A small sample by default; 300 programs under ``-m fuzz``."""

from __future__ import annotations

import contextlib
import io
from pathlib import Path

import pytest
from xdsl.dialects.builtin import ModuleOp
from xdsl.utils.exceptions import PassFailedException

from ori_dialect.ops.frame import FrameEnterOp
from ori_dialect.ops.memory import LdlOp, StlOp
from ori_dialect.testing.equivalence import apply_pipeline, check_generated, check_lit_inputs
from ori_dialect.testing.generator import GenOptions, generate

LIT_DIR = Path(__file__).resolve().parents[2] / "filecheck" / "passes" / "mem_to_reg"
OPTS = GenOptions(frames=True, abi_calls=True)


def test_lit_inputs_keep_their_results() -> None:
    seen = check_lit_inputs([LIT_DIR], "ori-mem-to-reg", seeds=(0, 1, 2))
    assert seen.kernels >= 1 and seen.changed >= 1


def _frame_accesses(m: ModuleOp) -> int:
    return sum(isinstance(op, LdlOp | StlOp) and "ori.abi_stack_arg" not in op.attributes
               for op in m.walk())


def _check(seed: int) -> tuple[int, int]:
    """(frame accesses before, after) of one generated program."""
    prog, promoted = check_generated(seed, OPTS, "ori-mem-to-reg")
    return _frame_accesses(prog.module), _frame_accesses(promoted)


def test_generated_programs_with_frames() -> None:
    counts = [_check(s) for s in range(6)]
    assert any(after < before for before, after in counts)  # something was promoted


@pytest.mark.fuzz
def test_generated_programs_with_frames_many() -> None:
    counts = [_check(s) for s in range(500, 800)]
    promoted = sum(after < before for before, after in counts)
    kept = sum(after == before and before > 0 for before, after in counts)
    assert promoted > 50 and kept > 0


def test_a_frame_without_accesses_left_is_removed() -> None:
    """Generated device functions whose accesses are all at fixed offsets
    lose their frame; the others keep it (a computed index)."""
    removed = kept = 0
    for seed in range(12):
        m = generate(seed, options=OPTS).module
        frames = sum(isinstance(op, FrameEnterOp) for op in m.walk())
        with contextlib.redirect_stderr(io.StringIO()):
            apply_pipeline(m, "ori-mem-to-reg")
        left = sum(isinstance(op, FrameEnterOp) for op in m.walk())
        removed += frames - left
        kept += left
    assert removed > 0 and kept > 0


@pytest.mark.parametrize(("opts", "message"), [
    ("promotion-budget=-1", "promotion-budget must be 0 or more, got -1"),
    ("max-bytes=-4", "max-bytes must be 0 or more, got -4"),
])
def test_bad_options_are_errors(opts: str, message: str) -> None:
    m = generate(1, options=OPTS).module
    with pytest.raises(PassFailedException, match=message):
        apply_pipeline(m, f"ori-mem-to-reg{{{opts}}}")
