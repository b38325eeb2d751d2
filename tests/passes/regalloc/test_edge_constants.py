"""``constants_to_edges`` (passes/regalloc/edge_constants.py): results
unchanged in the interpreter on its lit input and on generated programs
that join entry-block immediates into block arguments (the generator's
``edge_const``), and the constants it must leave alone left alone."""

from __future__ import annotations

import shutil
from pathlib import Path

import pytest
from xdsl.parser import Parser

from ori_dialect.analysis import functions_of
from ori_dialect.ops.integer import MovOp
from ori_dialect.testing.equivalence import check_lit_inputs, make_context
from passes.regalloc.edge_constants import constants_to_edges
from tests.passes.regalloc.rule_seeds import keeps_results, seeds_where

ROOT = Path(__file__).resolve().parents[3]
LIT = ROOT / "tests" / "filecheck" / "passes" / "regalloc" / "edge-constants.mlir"


def _chunk(k: int) -> tuple[object, int]:
    text = LIT.read_text().split("// -----")[k]
    (func,) = functions_of(Parser(make_context(), text, "lit").parse_module())
    return func, constants_to_edges(func)


def test_join_constant_written_at_its_edge() -> None:
    func, placed = _chunk(0)
    assert placed == 1
    movs = [op for op in func.walk() if isinstance(op, MovOp) and op.src_int("a") == -1]
    # the one -1 now sits in the loop, in the block of the branch passing it
    assert len(movs) == 1 and movs[0].parent_block() is not func.regions[0].blocks.first


def test_counter_join_left_alone() -> None:
    _, placed = _chunk(1)
    assert placed == 0


def test_sole_predecessor_argument_dropped() -> None:
    func, placed = _chunk(2)
    assert placed == 1
    assert all(not b.args for b in list(func.regions[0].blocks)[2:])


def test_results_unchanged(tmp_path: Path) -> None:
    shutil.copy(LIT, tmp_path / LIT.name)
    seen = check_lit_inputs([tmp_path], "ori-regalloc,ori-check-regalloc", seeds=range(4))
    assert seen.kernels == 3


def test_generated_programs_have_edge_constants() -> None:
    """Not vacuous: the generator's joined immediates give the rule work."""
    assert len(seeds_where(constants_to_edges, range(40))) >= 5


@pytest.mark.parametrize("seed", seeds_where(constants_to_edges, range(40))[:6])
def test_generated_programs_keep_results(seed: int) -> None:
    keeps_results(seed, "ori-regalloc,ori-check-regalloc")


@pytest.mark.fuzz
@pytest.mark.parametrize("seed", range(100, 400))
def test_many_generated_programs_keep_results(seed: int) -> None:
    keeps_results(seed, "ori-ptxas")
