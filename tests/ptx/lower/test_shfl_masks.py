"""``shfl.sync`` with a member mask narrower than the warp (cooperative groups'
tiles): the mask becomes ``ori.shfl``'s ``mask`` source (a known full mask
adds none), the lanes of a warp with one mask exchange together, a lane must
be in its own mask (an error naming the thread otherwise), and a source lane
outside the reader's mask is undefined (strict mode reports it).

ptxas 13.0 (sm_80) checks the tile's mask with ``MATCH.ANY``/``REDUX.OR``/
``VOTEU.ANY`` and branches to a ``WARPSYNC`` path (``BRA.DIV``) before the
``SHFL.BFLY PT, R5, R2, 0x1, 0x181f`` itself, which takes no mask.  The
kernel of ``tests/ptx/inputs/runtime/tile_shfl.cu`` runs after import and,
with physical registers, after ``ori-ptxas``.
"""

from __future__ import annotations

import functools
from pathlib import Path

import numpy as np
import pytest
from xdsl.dialects.builtin import ModuleOp

from ori_dialect.asm_printer import format_module
from ori_dialect.interpreter import InterpreterError, run_kernel
from ori_dialect.ops.sync import ShflOp
from ori_dialect.ptx.lower import import_ptx
from ori_dialect.testing.equivalence import apply_pipeline, make_context

PTX = Path(__file__).resolve().parents[1] / "inputs" / "runtime" / "tile_shfl.ptx"
MODES = [pytest.param(False, id="imported"), pytest.param(True, id="ori-ptxas")]


@functools.cache
def _module(physical: bool) -> ModuleOp:
    m = import_ptx(PTX.read_text(), str(PTX))
    if physical:
        apply_pipeline(m, "ori-ptxas", make_context())
    m.verify()
    return m


def test_tile_mask_is_kept() -> None:
    shfls = [op for op in _module(False).walk() if isinstance(op, ShflOp)]
    assert len(shfls) == 4 and all(len(op.slot_values()) == 4 for op in shfls)
    lines = [ln for ln in format_module(_module(True)).splitlines() if "SHFL" in ln]
    assert all("// membermask" in ln for ln in lines)


@pytest.mark.parametrize("physical", MODES)
@pytest.mark.parametrize("block", [64, 40])
def test_tile_shfl(physical: bool, block: int) -> None:
    rng = np.random.default_rng(block)
    x = rng.integers(-1000, 1000, size=block).astype(np.int32)
    out = run_kernel(_module(physical), "tile_shfl", 1, block, [x, np.zeros(block, np.int32)],
                     physical=physical, strict=True)[1]
    tiles = x.reshape(-1, 8)
    want = np.repeat(tiles.sum(1) * 1000 + tiles[:, 0], 8).astype(np.int32)
    np.testing.assert_array_equal(out, want)


_HAND = """
.version 8.0
.target sm_80
.address_size 64
.visible .entry k(.param .u64 p, .param .u32 m, .param .u32 src)
{{
	.reg .pred %p<2>;
	.reg .b32 %r<8>;
	.reg .b64 %rd<4>;
	ld.param.u64 %rd1, [p];
	ld.param.u32 %r6, [m];
	ld.param.u32 %r7, [src];
	mov.u32 %r1, %tid.x;
	{mask}
	shfl.sync.idx.b32 %r5, %r1, %r7, {clamp}, %r4;
	mul.wide.u32 %rd2, %r1, 4;
	add.s64 %rd3, %rd1, %rd2;
	st.global.u32 [%rd3], %r5;
	ret;
}}
"""
# each lane's mask: the 8-lane tile it is in (``m`` = 0xff), or ``m`` itself
_TILE = "and.b32 %r2, %r1, 24;\n\tshl.b32 %r4, %r6, %r2;"
_SAME = "mov.u32 %r4, %r6;"


@pytest.mark.parametrize("physical", MODES)
def test_source_in_tile(physical: bool) -> None:
    m = import_ptx(_HAND.format(mask=_TILE, clamp=0x181F), "hand.ptx")
    if physical:
        apply_pipeline(m, "ori-ptxas", make_context())
    # 8-lane segments: every lane reads lane 3 of its own tile
    out = run_kernel(m, "k", 1, 64, [np.zeros(64, np.uint32), 0xFF, 3], physical=physical,
                     strict=True)[0]
    np.testing.assert_array_equal(out, (np.arange(64) & ~7) + 3)


@pytest.mark.parametrize("physical", MODES)
def test_source_in_other_tile(physical: bool) -> None:
    m = import_ptx(_HAND.format(mask=_TILE, clamp=31), "hand.ptx")
    if physical:
        apply_pipeline(m, "ori-ptxas", make_context())
    # a full segment: every lane reads lane 0, which only tile 0's mask holds
    with pytest.raises(InterpreterError, match=r"tid \(8,0,0\): SHFL reads lane 0 of warp 0, "
                       "which is not executing this instruction in this thread's membermask"):
        run_kernel(m, "k", 1, 32, [np.zeros(32, np.uint32), 0xFF, 0], physical=physical,
                   strict=True)
    out = run_kernel(m, "k", 1, 32, [np.zeros(32, np.uint32), 0xFF, 0], physical=physical)[0]
    np.testing.assert_array_equal(out, np.where(np.arange(32) < 8, 0, np.arange(32)))


def test_lane_not_in_its_mask() -> None:
    m = import_ptx(_HAND.format(mask=_SAME, clamp=31), "hand.ptx")
    with pytest.raises(InterpreterError,
                       match=r"tid \(8,0,0\): SHFL: thread is not in its membermask 0xff"):
        run_kernel(m, "k", 1, 32, [np.zeros(32, np.uint32), 0xFF, 0])


def test_source_outside_mask_strict() -> None:
    m = import_ptx(_HAND.format(mask=_SAME, clamp=31), "hand.ptx")
    # lanes 0..7 (mask 0xff, the only lanes launched) read lane 9: outside their mask
    with pytest.raises(InterpreterError, match=r"SHFL reads lane 9 of warp 0, which is not "
                       r"executing this instruction in this thread's membermask"):
        run_kernel(m, "k", 1, 8, [np.zeros(8, np.uint32), 0xFF, 9], strict=True)
    # outside strict mode such a lane keeps its own value
    out = run_kernel(m, "k", 1, 8, [np.zeros(8, np.uint32), 0xFF, 9])[0]
    np.testing.assert_array_equal(out, np.arange(8, dtype=np.uint32))


def test_full_mask_adds_no_operand() -> None:
    m = import_ptx(_HAND.format(mask="mov.u32 %r4, -1;", clamp=31), "hand.ptx")
    (op,) = [op for op in m.walk() if isinstance(op, ShflOp)]
    assert len(op.slot_values()) == 3
