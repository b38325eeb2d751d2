"""Issue 17 item 3: stack-passed arguments are stored by the caller and
loaded by the callee (passes/abi/stack_args.py), and the callee computes
with what it loads: the program agrees with its unlowered self in the
interpreter's physical mode, and goes wrong when the caller's stores are
dropped."""

from __future__ import annotations

import contextlib
import io
from pathlib import Path

import numpy as np
from xdsl.dialects.builtin import ModuleOp
from xdsl.parser import Parser

from ori_dialect.ir.registers import is_stack_pointer
from ori_dialect.ops.control import CallOp
from ori_dialect.ops.memory import StlOp
from ori_dialect.testing.equivalence import apply_pipeline, make_context, run_launch
from passes.abi.stack_args import STACK_ARG_ATTR
from passes.regalloc.checker import check_module

SRC = Path(__file__).resolve().parents[3] / "tests/filecheck/passes/abi/stack-args.mlir"
N = 32


def _module(pipeline: str) -> ModuleOp:
    m = Parser(make_context(), SRC.read_text(), SRC.name).parse_module()
    if pipeline:
        with contextlib.redirect_stderr(io.StringIO()):
            apply_pipeline(m, pipeline)
    return m


def _run(m: ModuleOp, physical: bool) -> np.ndarray | None:
    out = run_launch(m, "caller", [np.zeros(N, np.int32)], 1, N, strict=True, physical=physical)
    return None if out.results is None else out.results[0]


def test_stack_arguments_reach_the_callee() -> None:
    want = _run(_module(""), False)
    assert want is not None
    for pipeline, physical in (("ori-abi", False), ("ori-ptxas", True)):
        m = _module(pipeline)
        got = _run(m, physical)
        assert got is not None, pipeline
        np.testing.assert_array_equal(got, want, err_msg=pipeline)
    assert check_module(m) == []
    call = next(op for op in m.walk() if isinstance(op, CallOp))
    assert call.stack_out() == 16  # R1 moves down by the area around the call
    accesses = [op for op in m.walk() if STACK_ARG_ATTR in op.attributes]
    assert len(accesses) == 4 and all(is_stack_pointer(op.src("addr")) for op in accesses)


def test_dropped_stores_change_the_result() -> None:
    want = _run(_module(""), False)
    m = _module("ori-ptxas")
    stores = [op for op in m.walk() if isinstance(op, StlOp) and STACK_ARG_ATTR in op.attributes]
    assert len(stores) == 2
    for op in stores:
        op.detach()
    got = _run(m, True)
    assert got is None or not np.array_equal(got, want)
