"""Issue 17 item 3: the callee saves a device function emits
(passes/regalloc/callee_saves.py) are what keeps its caller's preserved
registers: in the interpreter's physical mode a device function whose saves
are emitted shares R16-R31 with its caller (ori_dialect/interpreter/physical.py),
so the program computes the reference with the saves and goes wrong
without them."""

from __future__ import annotations

import contextlib
import io
from pathlib import Path

import numpy as np
import pytest
from xdsl.dialects.builtin import DictionaryAttr, ModuleOp
from xdsl.parser import Parser

from ori_dialect.interpreter import run_kernel
from ori_dialect.ir.registers import OriRegisterType, R32Type, is_stack_pointer
from ori_dialect.ops.frame import FrameEnterOp, FrameLeaveOp
from ori_dialect.ops.func import FuncOp
from ori_dialect.ops.memory import LdlOp, StlOp
from ori_dialect.testing.equivalence import apply_pipeline, make_context, run_launch
from passes.regalloc.callee_saves import is_callee_save
from passes.regalloc.checker import check_module
from tests.passes.abi.test_abi_calls import abi_example_module as example_module

ROOT = Path(__file__).resolve().parents[3]
SRC = ROOT / "tests" / "filecheck" / "passes" / "abi" / "callee-saves.mlir"
N = 32


def _compiled(pipeline: str = "ori-ptxas") -> ModuleOp:
    m = Parser(make_context(), SRC.read_text(), SRC.name).parse_module()
    with contextlib.redirect_stderr(io.StringIO()):
        apply_pipeline(m, pipeline)
    return m


def _want() -> np.ndarray:
    def down(n: int) -> int:
        return n if n < 2 else down(n - 1) + n

    out = []
    for t in range(N):
        m = t & 7
        a = down(m)
        q = a * m + t if a < 16 else a + t
        w = (q + 2) * q + (q + 1)
        out.append((w + t + 7 + t) & 0xFFFFFFFF)
    return np.array(out, np.uint32).view(np.int32)


def _run(m: ModuleOp) -> np.ndarray | None:
    out = run_launch(m, "caller", [np.zeros(N, np.int32)], 1, N, strict=True, physical=True)
    return None if out.results is None else out.results[0]


def test_saves_keep_the_callers_preserved_registers() -> None:
    m = _compiled()
    assert check_module(m) == []
    got = _run(m)
    assert got is not None
    np.testing.assert_array_equal(got, _want())


def test_missing_saves_are_caught_by_the_physical_interpreter() -> None:
    """Drop @outer's saves (keeping it marked as saving): the kernel's
    address in R16:R17, live across the call, is overwritten (without
    ``call-remat``, which recomputes the address after the call)."""
    m = _compiled("ori-abi,ori-regalloc{call-remat=false}")
    outer = next(f for f in m.walk() if isinstance(f, FuncOp) and f.sym_name.data == "outer")
    dropped = [op for op in outer.walk() if is_callee_save(op)]
    assert dropped
    for op in dropped:
        op.detach()
    got = _run(m)
    assert got is None or not np.array_equal(got, _want())


def test_callee_saves_are_spill_code_of_their_own_register() -> None:
    m = _compiled("ori-abi,ori-regalloc")
    regs = {}
    for op in m.walk():
        if is_callee_save(op):
            v = op.results[0] if op.results else op.operands[-1]
            t = v.type
            assert isinstance(t, OriRegisterType)
            regs.setdefault(op.attributes["ori.abi_save"].value.data, set()).add(t.phys_index)
    # R2 is preserved too and taken first, as ptxas 13.0's device
    # functions do (``STL [R1], R2``: passes/regalloc/budget.py)
    assert regs == {2: {2}, 16: {16}, 20: {20}, 21: {21}}


def test_recursive_saves_need_their_own_frame() -> None:
    """The recursive @down keeps %n in R16 across its own call: its saves
    are in its frame below R1 (regalloc/frame.py).  Put them back at one
    static address (RZ-based, no frame) and the inner activation's save
    overwrites the outer one's: the physical interpreter sees it."""
    m = _compiled()
    down = next(f for f in m.walk() if isinstance(f, FuncOp) and f.sym_name.data == "down")
    saves = [op for op in down.walk() if is_callee_save(op) and isinstance(op, StlOp | LdlOp)]
    assert saves and all(is_stack_pointer(op.src("addr")) for op in saves)
    assert isinstance(down.entry_block.first_op, FrameEnterOp)
    np.testing.assert_array_equal(_run(m), _want())
    for op in saves:
        consts = op.const_map()
        consts["addr"] = R32Type.fixed()
        op.properties["consts"] = DictionaryAttr(consts)
    for op in [o for o in down.walk() if isinstance(o, FrameEnterOp | FrameLeaveOp)]:
        op.detach()
        op.erase()
    got = _run(m)
    assert got is None or not np.array_equal(got, _want())


def test_examples_figures_unchanged() -> None:
    """fib is recursive: its saves are in its frame, 16 bytes, as ptxas -v
    and ptxas's SASS (IADD3 R1, R1, -0x10; STL [R1+0xc], R21 ...)."""
    m = example_module("sm_80", "ori-ptxas")
    fib = next(f for f in m.walk() if isinstance(f, FuncOp) and f.sym_name.data == "_Z3fibi")
    figs = [fib.attributes[k].value.data for k in
            ("ori.stack_frame", "ori.spill_stores", "ori.spill_loads")]
    assert figs == [16, 16, 16]
    enter = fib.entry_block.first_op
    assert isinstance(enter, FrameEnterOp) and enter.size() == 16
    saves = [op for op in fib.walk() if is_callee_save(op) and isinstance(op, StlOp | LdlOp)]
    assert len(saves) == 8 and all(is_stack_pointer(op.src("addr")) for op in saves)


def _deep_want() -> np.ndarray:
    def deep(n: int, x: int) -> int:
        if n < 1:
            return x
        a = [(x * (3 + 2 * k) + n) & 0xFFFFFFFF for k in range(18)]
        r = deep(n - 1, x ^ a[0])
        for v in a:
            r ^= v ^ x  # LOP3 0x96: three-way xor
        return r

    return np.array([deep(t & 3, t) for t in range(N)], np.uint32).view(np.int32)


def test_recursive_spills_in_the_frame_run_physically() -> None:
    """tests/filecheck/passes/abi/recursive-frame.mlir: a recursive function
    spilling values live across its own call, each activation's slots in its
    own frame (regalloc/frame.py)."""
    src = SRC.with_name("recursive-frame.mlir")
    m = Parser(make_context(), src.read_text(), src.name).parse_module()
    with contextlib.redirect_stderr(io.StringIO()):
        apply_pipeline(m, "ori-abi,ori-regalloc")
    assert check_module(m) == []
    deep = next(f for f in m.walk() if isinstance(f, FuncOp) and f.sym_name.data == "deep")
    spills = [op for op in deep.walk() if isinstance(op, StlOp) and not is_callee_save(op)]
    assert spills and all(is_stack_pointer(op.src("addr")) for op in spills)
    out = run_launch(m, "caller", [np.zeros(N, np.int32)], 1, N, strict=True, physical=True)
    assert out.results is not None, out.error
    np.testing.assert_array_equal(out.results[0], _deep_want())


def test_a_stack_that_does_not_fit_is_an_error() -> None:
    """Three activations of @deep (96-byte frames) do not fit in 256 bytes of
    local memory above the static spill areas: the interpreter stops with
    a stack overflow at the frame_enter, it does not overwrite the areas."""
    src = SRC.with_name("recursive-frame.mlir")
    m = Parser(make_context(), src.read_text(), src.name).parse_module()
    with contextlib.redirect_stderr(io.StringIO()):
        apply_pipeline(m, "ori-abi,ori-regalloc")
    with pytest.raises(Exception, match="ori.frame_enter: the stack overflows"):
        run_kernel(m, "caller", (1, 1, 1), (N, 1, 1), [np.zeros(N, np.int32)],
                   local_bytes=256, physical=True)
