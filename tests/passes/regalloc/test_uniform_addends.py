"""``fuse_uniform_addends`` (passes/regalloc/uniform_addends.py): results
unchanged in the interpreter, the register count kept, and the pairs it
must leave alone left alone."""

from __future__ import annotations

import contextlib
import io
import shutil
from pathlib import Path

from xdsl.parser import Parser

from ori_dialect.analysis import functions_of
from ori_dialect.ir.registers import UR32Type
from ori_dialect.ops.integer import IAdd3Op, IMadOp, MovOp
from ori_dialect.testing.equivalence import apply_pipeline, check_lit_inputs, make_context

ROOT = Path(__file__).resolve().parents[3]
LIT = ROOT / "tests" / "filecheck" / "passes" / "regalloc" / "uniform-addends.mlir"


def _allocated(chunk: int, pipe: str = "ori-regalloc") -> dict[str, int]:
    text = LIT.read_text().split("// -----")[chunk]
    module = Parser(make_context(), text, "lit").parse_module()
    with contextlib.redirect_stderr(io.StringIO()):
        apply_pipeline(module, pipe)
    (func,) = functions_of(module)
    ops = list(func.walk())
    return {
        "ur_adds": sum(1 for op in ops if isinstance(op, IAdd3Op)
                       and any(isinstance(v.type, UR32Type) for v in op.operands)
                       and not isinstance(op.results[0].type, UR32Type)),
        "ur_movs": sum(1 for op in ops if isinstance(op, MovOp)
                       and any(isinstance(v.type, UR32Type) for v in op.operands)),
        "imads": sum(1 for op in ops if isinstance(op, IMadOp)),
        "regs": func.attributes["ori.num_regs"].value.data,  # type: ignore[attr-defined]
    }


def test_rows_fused_into_imads_at_the_same_count() -> None:
    got = _allocated(0)
    assert got["ur_adds"] == 0 and got["ur_movs"] == 1
    # the count of the allocation the rewrite ran on: R0-R11 (+ the two withheld)
    assert got["regs"] == 14


def test_single_pair_left_alone() -> None:
    got = _allocated(1)
    assert got["ur_adds"] == 1 and got["ur_movs"] == 0


def test_results_unchanged(tmp_path: Path) -> None:
    shutil.copy(LIT, tmp_path / LIT.name)
    # both kernels, with and without the rewrite, run as before allocation
    seen = check_lit_inputs([tmp_path], "ori-regalloc,ori-check-regalloc", seeds=range(4))
    assert seen.kernels == 2
