"""Barrier reductions: ``bar.red.popc.u32`` and ``bar.red.{and,or}.pred`` (CUDA's
``__syncthreads_count/and/or``) -> ``ori.bar_red``.

ptxas 13.0 emits ``BAR.RED.POPC.DEFER_BLOCKING 0x0, P0`` and reads the result
with ``B2R.RESULT R4`` (``BAR.RED.AND``/``.OR`` and ``B2R.RESULT RZ, P0`` for
the predicate forms).  The kernel of ``tests/ptx/inputs/runtime/
barrier_reduction.cu`` (nvcc 13.0, sm_80) runs after import and, with physical
registers, after ``ori-ptxas``, against numpy; hand-written PTX covers the
``barrier.red`` spelling, a negated predicate, a thread count and the errors.
"""

from __future__ import annotations

import functools
from pathlib import Path

import numpy as np
import pytest
from xdsl.dialects.builtin import ModuleOp

from ori_dialect.asm_printer import format_module
from ori_dialect.interpreter import InterpreterError, run_kernel
from ori_dialect.ops.sync import BarRedOp
from ori_dialect.ptx.lower import import_ptx
from ori_dialect.ptx.parser import PtxSyntaxError
from ori_dialect.testing.equivalence import apply_pipeline, make_context

PTX = Path(__file__).resolve().parents[1] / "inputs" / "runtime" / "barrier_reduction.ptx"
MODES = [pytest.param(False, id="imported"), pytest.param(True, id="ori-ptxas")]


@functools.cache
def _module(physical: bool) -> ModuleOp:
    m = import_ptx(PTX.read_text(), str(PTX))
    if physical:
        apply_pipeline(m, "ori-ptxas", make_context())
    m.verify()
    return m


def test_ops_and_listing() -> None:
    ops = [op for op in _module(False).walk() if isinstance(op, BarRedOp)]
    assert [op.mod("op") for op in ops] == ["popc", "and", "or"]
    lines = [ln.strip() for ln in format_module(_module(True)).splitlines() if "BAR.RED" in ln]
    assert [ln.split()[0] for ln in lines] == ["BAR.RED.POPC", "BAR.RED.AND", "BAR.RED.OR"]


@pytest.mark.parametrize("physical", MODES)
@pytest.mark.parametrize("block", [32, 96, 256])
def test_syncthreads_count_and_or(physical: bool, block: int) -> None:
    rng = np.random.default_rng(block)
    grid = 3
    x = rng.integers(-30, 120, size=grid * block).astype(np.int32)
    x[block:2 * block] = np.abs(x[block:2 * block]) + 1  # one CTA where the 'and' holds
    out = run_kernel(_module(physical), "bar_reductions", grid, block,
                     [x, np.zeros(grid * block, np.int32)], physical=physical)[1]
    v = x.reshape(grid, block)
    per_cta = (v > 10).sum(1) * 4 + (v > 0).all(1) * 2 + (v > 50).any(1)
    np.testing.assert_array_equal(out, np.repeat(per_cta, block).astype(np.int32))


_HAND = """
.version 8.0
.target sm_80
.address_size 64
.visible .entry k(.param .u64 p)
{{
	.reg .pred %p<4>;
	.reg .b32 %r<8>;
	.reg .b64 %rd<4>;
	ld.param.u64 %rd1, [p];
	mov.u32 %r1, %tid.x;
	and.b32 %r2, %r1, 3;
	setp.eq.u32 %p1, %r2, 0;
	{body}
	mul.wide.u32 %rd2, %r1, 4;
	add.s64 %rd3, %rd1, %rd2;
	st.global.u32 [%rd3], %r5;
	ret;
}}
"""


def _hand(body: str) -> ModuleOp:
    return import_ptx(_HAND.format(body=body), "hand.ptx")


@pytest.mark.parametrize(("body", "want"), [
    # barrier.cta.red spelling, negated predicate: threads with tid % 4 != 0
    ("barrier.cta.red.popc.aligned.u32 %r5, 1, !%p1;", lambda n: 3 * n // 4),
    # an explicit thread count (the whole CTA)
    ("bar.red.popc.u32 %r5, 2, 64, %p1;", lambda n: n // 4),
    ("bar.red.or.pred %p2, 0, %p1;\n\tselp.u32 %r5, 1, 0, %p2;", lambda n: 1),
    ("bar.red.and.pred %p2, 0, %p1;\n\tselp.u32 %r5, 1, 0, %p2;", lambda n: 0),
    ("bar.red.and.pred %p2, 0, 1;\n\tselp.u32 %r5, 1, 0, %p2;", lambda n: 1),
])
@pytest.mark.parametrize("physical", MODES)
def test_hand_written(body: str, want: object, physical: bool) -> None:
    m = _hand(body)
    if physical:
        apply_pipeline(m, "ori-ptxas", make_context())
    out = run_kernel(m, "k", 1, 64, [np.zeros(64, np.uint32)], physical=physical)[0]
    assert callable(want)
    np.testing.assert_array_equal(out, np.full(64, want(64), np.uint32))


def test_reduction_meeting_plain_barrier_is_an_error() -> None:
    body = """@%p1 bra SKIP;
	bar.red.popc.u32 %r5, 0, %p1;
	bra DONE;
SKIP:
	bar.sync 0;
	mov.u32 %r5, 0;
DONE:"""
    with pytest.raises(InterpreterError, match="barrier"):
        run_kernel(_hand(body), "k", 1, 64, [np.zeros(64, np.uint32)])


def test_mixed_reductions_are_an_error() -> None:
    body = """@%p1 bra SKIP;
	bar.red.popc.u32 %r5, 0, 64, %p1;
	bra DONE;
SKIP:
	bar.red.and.pred %p2, 0, 64, %p1;
	selp.u32 %r5, 1, 0, %p2;
DONE:"""
    with pytest.raises(InterpreterError, match=r"bar\.red\.(popc|and) meets bar\.red\.(and|popc)"):
        run_kernel(_hand(body), "k", 1, 64, [np.zeros(64, np.uint32)])


@pytest.mark.parametrize(("body", "msg"), [
    ("bar.red.popc.pred %r5, 0, %p1;", r"expected bar\.red\.popc\.u32 or bar\.red\.\{and,or\}\.pred"),
    ("bar.red.popc.u32 %r5, 16, %p1;", "barrier id 16 out of range 0..15"),
    ("@%p1 bar.red.popc.u32 %r5, 0, %p1;", "a guarded barrier reduction"),
])
def test_bad_input(body: str, msg: str) -> None:
    with pytest.raises(PtxSyntaxError, match=msg):
        _hand(body)
