"""Shared and local addresses ``[R + imm]`` are computed in 32 bits: a
register below the variable's base plus a larger offset wraps to the right
place (CUB's BlockExchange scatter), as the hardware does."""

from __future__ import annotations

import numpy as np
import pytest

from ori_dialect.interpreter import run_kernel
from ori_dialect.interpreter.semantics.registry import InterpreterError
from ori_dialect.ptx.lower.module import import_ptx

_TEXT = """
.version 8.0
.target sm_80
.address_size 64
.visible .entry k(.param .u64 p, .param .u32 k)
{
    .reg .b32 %r<8>;
    .reg .b64 %rd<3>;
    .shared .align 4 .b32 buf[32];
    .local .align 4 .b32 loc[4];
    ld.param.u64 %rd1, [p];
    ld.param.u32 %r6, [k];
    mov.u32 %r1, %tid.x;
    mov.u32 %r2, buf;
    shl.b32 %r3, %r1, 2;
    add.s32 %r4, %r2, %r3;
    sub.s32 %r5, %r4, %r6;
    st.shared.u32 [%r5+64], %r1;
    bar.sync 0;
    ld.shared.u32 %r7, [%r4];
    mov.u32 %r2, loc;
    sub.s32 %r5, %r2, %r6;
    st.local.u32 [%r5+68], %r7;
    ld.local.u32 %r7, [%r2+4];
    mul.wide.u32 %rd2, %r1, 4;
    add.s64 %rd2, %rd1, %rd2;
    st.global.u32 [%rd2], %r7;
    ret;
}
"""


def test_shared_and_local_offsets_wrap_in_32_bits() -> None:
    m = import_ptx(_TEXT, "wrap.ptx")
    out = run_kernel(m, "k", 1, 16, [np.zeros(16, np.uint32), np.int32(64)])[0]
    np.testing.assert_array_equal(out, np.arange(16, dtype=np.uint32))


def test_really_out_of_bounds_is_still_reported() -> None:
    m = import_ptx(_TEXT, "wrap.ptx")
    with pytest.raises(InterpreterError, match="out of bounds of shared memory"):
        run_kernel(m, "k", 1, 16, [np.zeros(16, np.uint32), np.int32(-4096)])
