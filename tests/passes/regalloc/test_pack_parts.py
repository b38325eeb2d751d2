"""``parts_from_packs`` (passes/regalloc/pack_parts.py): results unchanged
in the interpreter on its lit input and on generated programs whose loads
step a pointer in 32-bit halves (the generator's ``ptr_halves``), and the
reads it must leave alone left alone."""

from __future__ import annotations

import shutil
from pathlib import Path

import pytest
from xdsl.parser import Parser

from ori_dialect.analysis import functions_of
from ori_dialect.ops.integer import PackOp, UnpackOp
from ori_dialect.testing.equivalence import check_lit_inputs, make_context
from passes.regalloc.pack_parts import parts_from_packs
from tests.passes.regalloc.rule_seeds import keeps_results, seeds_where

ROOT = Path(__file__).resolve().parents[3]
LIT = ROOT / "tests" / "filecheck" / "passes" / "regalloc" / "pack-parts.mlir"

BRANCHY = """
builtin.module attributes {ori.target = "sm_80"} {
  ori.func kernel @k() attributes {params = [#ori.param<8, align 8, at 0x0>]} {
    %t = ori.s2r SR_TID.X : () -> !ori.r32
    %p = ori.ldc b64 0x0, [RZ + 0x160] : () -> !ori.r64
    %lo, %hi = ori.unpack %p : (!ori.r64) -> (!ori.r32, !ori.r32)
    %c = ori.isetp lt %t, 0x10, PT : (!ori.r32) -> !ori.p
    ori.bra if %c : !ori.p, ^bb1, ^bb2
  ^bb1:
    %w = ori.pack %lo, %hi : (!ori.r32, !ori.r32) -> !ori.r64
    ori.stg [%w], %lo : (!ori.r64, !ori.r32) -> ()
    ori.bra ^bb2
  ^bb2:
    %x = ori.iadd3 %lo, %hi, RZ : (!ori.r32, !ori.r32) -> !ori.r32
    ori.stg [%p], %x : (!ori.r64, !ori.r32) -> ()
    ori.exit
  }
}
"""


def test_later_reads_use_the_unpack() -> None:
    (func,) = functions_of(Parser(make_context(), LIT.read_text(), "lit").parse_module())
    assert parts_from_packs(func) == 1  # the second PACK's parts are read by it alone
    for op in func.walk():
        if not isinstance(op, PackOp):
            continue
        ops = list(op.parent_block().ops)  # type: ignore[union-attr]
        for _, part in op.slot_values():
            # nothing reads a part after its PACK
            assert all(ops.index(u.operation) <= ops.index(op) for u in part.uses)


def test_reads_the_pack_does_not_dominate_stay() -> None:
    (func,) = functions_of(Parser(make_context(), BRANCHY, "t").parse_module())
    # the store in ^bb1 reads %lo after the PACK (rewritten); ^bb2's sum
    # is not dominated by the PACK and keeps reading %lo and %hi
    assert parts_from_packs(func) == 1
    blocks = list(func.regions[0].blocks)
    (add,) = [op for op in blocks[2].ops if op.name == "ori.iadd3"]
    assert all(not isinstance(v.owner, UnpackOp) or v.owner.parent_block() is blocks[0]
               for v in add.operands)


def test_results_unchanged(tmp_path: Path) -> None:
    shutil.copy(LIT, tmp_path / LIT.name)
    seen = check_lit_inputs([tmp_path], "ori-regalloc,ori-check-regalloc", seeds=range(4))
    assert seen.kernels == 1


def test_generated_programs_have_pack_parts() -> None:
    """Not vacuous: the generator's pointers stepped in halves give the rule work."""
    assert len(seeds_where(parts_from_packs, range(40))) >= 4


@pytest.mark.parametrize("seed", seeds_where(parts_from_packs, range(40))[:4])
def test_generated_programs_keep_results(seed: int) -> None:
    keeps_results(seed, "ori-regalloc,ori-check-regalloc")


@pytest.mark.fuzz
@pytest.mark.parametrize("seed", seeds_where(parts_from_packs, range(100, 700))[:150])
def test_many_generated_programs_keep_results(seed: int) -> None:
    keeps_results(seed, "ori-ptxas")
