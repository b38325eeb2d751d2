"""HMMA, LDSM and LDGSTS from PTX through the interpreter: fragment ownership
(PTX ISA 9.7.14.5), the stated numeric model, the completion order of
asynchronous copies and the errors for races and partial warps."""

from __future__ import annotations

import numpy as np
import pytest

from ori_dialect.interpreter import InterpreterError, run_kernel
from ori_dialect.ptx.lower import import_ptx
from ori_dialect.ptx.parser import PtxSyntaxError

_HEAD = """.version 8.0
.target sm_80
.address_size 64
"""


def _kernel(body: str, regs: str = "") -> str:
    return _HEAD + f""".visible .entry k(.param .u64 p, .param .u64 q)
{{
	.reg .pred %p<4>;
	.reg .b32 %r<40>;
	.reg .f32 %f<20>;
	.reg .b64 %rd<8>;
	.shared .align 16 .b8 sm[1024];
	{regs}
	ld.param.u64 %rd1, [p];
	ld.param.u64 %rd2, [q];
	mov.u32 %r1, %tid.x;
	shl.b32 %r2, %r1, 2;
	cvt.u64.u32 %rd3, %r2;
	add.s64 %rd4, %rd1, %rd3;
	add.s64 %rd5, %rd2, %rd3;
{body}
	ret;
}}
"""


def _run(body: str, inp: np.ndarray, out: np.ndarray, threads: int = 32) -> np.ndarray:
    m = import_ptx(_kernel(body))
    return run_kernel(m, "k", (1, 1, 1), (threads, 1, 1), [inp, out], shared_bytes=1024,
                      strict=True)[1]


# ---------------------------------------------------------------------- ldmatrix
@pytest.mark.parametrize(("form", "count", "trans"), [
    ("x1", 1, False), ("x2.trans", 2, True), ("x4", 4, False), ("x4.trans", 4, True)])
def test_ldmatrix_fragment_layout(form: str, count: int, trans: bool) -> None:
    # shared holds 4 matrices of 8x8 b16: element (m, r, c) = m*64 + r*8 + c
    n = count
    dsts = ", ".join(f"%r{10 + i}" for i in range(n))
    stores = "\n".join(f"\tst.global.u32 [%rd5+{128 * i}], %r{10 + i};" for i in range(n))
    body = f"""	ld.global.u32 %r3, [%rd4];
	st.shared.u32 [%r2], %r3;
	ld.global.u32 %r3, [%rd4+128];
	st.shared.u32 [%r2+128], %r3;
	ld.global.u32 %r3, [%rd4+256];
	st.shared.u32 [%r2+256], %r3;
	ld.global.u32 %r3, [%rd4+384];
	st.shared.u32 [%r2+384], %r3;
	bar.sync 0;
	shl.b32 %r4, %r1, 4;
	ldmatrix.sync.aligned.m8n8.{form}.shared.b16 {{{dsts}}}, [%r4];
{stores}"""
    elems = np.arange(256, dtype=np.uint16)
    got = _run(body, elems.view(np.uint32).copy(), np.zeros(128, np.uint32))
    mats = elems.reshape(4, 8, 8)
    for i in range(n):
        for lane in range(32):
            r, c = lane >> 2, 2 * (lane & 3)
            lo, hi = (mats[i, c, r], mats[i, c + 1, r]) if trans else (mats[i, r, c],
                                                                         mats[i, r, c + 1])
            assert got[32 * i + lane] == int(lo) | (int(hi) << 16), (form, i, lane)


# ---------------------------------------------------------------------- mma numbers
@pytest.mark.parametrize(("a", "b", "c", "want"), [
    # C = 2^24 plus sixteen products of 1.0: one rounding per MMA keeps all of it
    # (2^24 + 16; a float32 sum rounding after each addition would stay at 2^24)
    (1.0, 1.0, 2.0**24, 2.0**24 + 16),
    # C = 1 (E = 0) plus sixteen products of 2^-25: each is a multiple of 2^(E - 25) and
    # kept, 1 + 2^-21 (rounding after each addition would give 1.0)
    (2.0**-12, 2.0**-13, 1.0, 1.0 + 2.0**-21),
    # ... of 2^-26: each is truncated to zero, 1.0 (the exact 1 + 2^-22 is a float32)
    (2.0**-13, 2.0**-13, 1.0, 1.0),
    # C = -1 plus sixteen products of 2^-26 + 2^-36: the terms are truncated first,
    # -1.0 (cutting only the exact sum toward zero would give -1 + 2^-22)
    (2.0**-13 + 2.0**-23, 2.0**-13, -1.0, -1.0),
])
def test_mma_rounds_once_per_instruction(a: float, b: float, c: float, want: float) -> None:
    """HmmaOp's rule on f16 inputs: the sixteen exact products and C aligned to
    2^(E - 25) by truncation, summed exactly, cut toward zero to f32 once."""
    pair = int(np.float16(a).view(np.uint16)) * 0x10001
    bpair = int(np.float16(b).view(np.uint16)) * 0x10001
    cbits = int(np.float32(c).view(np.uint32))
    body = f"""	mov.b32 %r3, {pair};
	mov.b32 %r4, {bpair};
	mov.b32 %f1, {cbits};
	mma.sync.aligned.m16n8k16.row.col.f32.f16.f16.f32 {{%f5, %f6, %f7, %f8}}, {{%r3, %r3, %r3, %r3}}, {{%r4, %r4}}, {{%f1, %f1, %f1, %f1}};
	st.global.f32 [%rd5], %f5;
	st.global.f32 [%rd5+128], %f8;"""
    got = _run(body, np.zeros(32, np.uint32), np.zeros(64, np.float32))
    assert (got == np.float32(want)).all(), (got[0], want)


def test_mma_needs_the_whole_warp() -> None:
    body = """	mov.f32 %f1, 0f00000000;
	setp.lt.u32 %p1, %r1, 16;
	@!%p1 bra DONE;
	mma.sync.aligned.m16n8k8.row.col.f32.bf16.bf16.f32 {%f5, %f6, %f7, %f8}, {%r1, %r1}, {%r1}, {%f1, %f1, %f1, %f1};
	st.global.f32 [%rd5], %f5;
DONE:"""
    with pytest.raises(InterpreterError, match=r"ori.hmma.*all 32 lanes of warp 0.*lane 16"):
        _run(body, np.zeros(32, np.uint32), np.zeros(32, np.float32))


def test_guarded_mma_is_diagnosed() -> None:
    body = """	setp.lt.u32 %p1, %r1, 16;
	@%p1 mma.sync.aligned.m16n8k8.row.col.f32.bf16.bf16.f32 {%f5, %f6, %f7, %f8}, {%r1, %r1}, {%r1}, {%f1, %f1, %f1, %f1};"""
    with pytest.raises(PtxSyntaxError, match="a guarded 'mma'"):
        import_ptx(_kernel(body))


# ---------------------------------------------------------------------- cp.async
_COPY = """	mov.u32 %r5, sm;
	add.s32 %r6, %r5, %r2;
	cp.async.ca.shared.global [%r6], [%rd4], 4;
	cp.async.commit_group;
	cp.async.ca.shared.global [%r6+128], [%rd4+128], 4;
	cp.async.commit_group;
"""


def test_wait_group_completes_older_groups_first() -> None:
    body = _COPY + """	cp.async.wait_group 1;
	ld.shared.u32 %r7, [%r6];
	st.global.u32 [%rd5], %r7;
	cp.async.wait_group 0;
	ld.shared.u32 %r7, [%r6+128];
	st.global.u32 [%rd5+128], %r7;"""
    x = np.arange(64, dtype=np.uint32) + 7
    assert (_run(body, x, np.zeros(64, np.uint32)) == x).all()


def test_read_before_wait_is_an_error() -> None:
    body = _COPY + """	cp.async.wait_group 1;
	ld.shared.u32 %r7, [%r6+128];
	st.global.u32 [%rd5], %r7;"""
    with pytest.raises(InterpreterError,
                       match=r"ori.lds.*tid \(0,0,0\).*asynchronous copy.*by thread 0.*"
                             "not completed"):
        _run(body, np.zeros(64, np.uint32), np.zeros(64, np.uint32))


def test_read_of_another_threads_pending_copy_is_an_error() -> None:
    # thread 0 waited for its own copies; thread 1's are still in flight
    body = """	mov.u32 %r5, sm;
	add.s32 %r6, %r5, %r2;
	cp.async.ca.shared.global [%r6], [%rd4], 4;
	cp.async.commit_group;
	setp.ne.u32 %p1, %r1, 0;
	@%p1 bra DONE;
	cp.async.wait_all;
	ld.shared.u32 %r7, [%r5+4];
	st.global.u32 [%rd5], %r7;
DONE:"""
    with pytest.raises(InterpreterError, match=r"tid \(0,0,0\).*by thread 1"):
        _run(body, np.zeros(64, np.uint32), np.zeros(64, np.uint32), threads=2)


def test_ignore_src_zero_fills() -> None:
    body = """	mov.u32 %r5, sm;
	shl.b32 %r8, %r1, 4;
	add.s32 %r6, %r5, %r8;
	mul.wide.u32 %rd6, %r1, 16;
	add.s64 %rd7, %rd1, %rd6;
	and.b32 %r9, %r1, 1;
	setp.ne.u32 %p2, %r9, 0;
	cp.async.ca.shared.global [%r6], [%rd7], 16, %p2;
	cp.async.wait_all;
	ld.shared.u32 %r7, [%r6+12];
	st.global.u32 [%rd5], %r7;"""
    x = np.arange(128, dtype=np.uint32) + 1
    got = _run(body, x, np.zeros(32, np.uint32))
    want = np.where(np.arange(32) % 2 == 1, 0, x.reshape(32, 4)[:, 3])
    assert (got == want).all()


# ---------------------------------------------------------------------- tf32 conversion
def test_cvt_rna_tf32_adds_half_an_ulp_to_finite_values() -> None:
    """cvt.rna.tf32.f32 as ptxas emits it: 0x1000 added to the bits of a finite
    value (round to nearest, ties away, on the 10-bit mantissa; the low 13
    bits are left for the MMA to ignore), infinities and NaNs unchanged."""
    body = """	ld.global.f32 %f1, [%rd4];
	cvt.rna.tf32.f32 %r5, %f1;
	st.global.u32 [%rd5], %r5;"""
    vals = np.array([1.0, -1.0, 1.0 + 2.0**-11, -(1.0 + 2.0**-11), 3.0e38, 1e-40, 0.0, -0.0,
                     np.inf, -np.inf, np.nan], np.float32)
    bits = np.zeros(32, np.uint32)
    bits[:len(vals)] = vals.view(np.uint32)
    bits[len(vals):] = np.arange(32 - len(vals), dtype=np.uint32) * 0x01234567
    got = _run(body, bits.copy(), np.zeros(32, np.uint32))
    f = bits.view(np.float32)
    want = np.where(np.isfinite(f), (bits.astype(np.uint64) + 0x1000).astype(np.uint32), bits)
    assert np.array_equal(got, want)
    # 1 + 2**-11 is a tie: away from zero gives 1 + 2**-10 once the MMA drops the low bits
    assert (got[2] & 0xFFFFE000) == np.float32(1.0 + 2.0**-10).view(np.uint32)
