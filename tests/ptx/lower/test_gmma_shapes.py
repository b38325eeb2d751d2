"""Every ``wgmma.mma_async`` shape of the PTX ISA (9.7.15.5: ``m64nNk16``, N a
multiple of 8 up to 256), f16 inputs, f32 and f16 accumulators (issue 14).

* Every N with f16 accumulators (2 to 64 registers per thread) and with f32
  ones (4 to 128 registers) imports, and a kernel of two HGMMAs (the second
  accumulating onto the first) matches numpy bit for bit in the
  interpreter, the result read back through the PTX ISA's fragment layout;
  a sample of shapes also after ``ori-ptxas`` in physical-register mode.
* An accumulator list that is no power of two registers long is a tuple of
  the next width with RZ in the padding (``m64n24k16.f32``: 12 registers, an
  ``!ori.r512``); the listing still names the shape (``HGMMA.64x24x16.F32``).
* f32 accumulators of N > 128 (68 to 128 registers) are ``!ori.r4096``
  tuples: ptxas 13.0 compiles ``m64n256k16.f32`` to ``HGMMA.64x256x16.F32
  R24`` (154 registers, ``ptxas -v``); ori allocates the 128-register run
  too.
"""

from __future__ import annotations

import functools
import shutil
import subprocess
from pathlib import Path

import numpy as np
import pytest
from xdsl.dialects.builtin import ModuleOp
from xdsl.ir import SSAValue

from ori_dialect.asm_printer import format_module
from ori_dialect.interpreter import run_kernel
from ori_dialect.ir.registers import R64Type, R512Type, R2048Type, R4096Type
from ori_dialect.ops.gmma import GMMA_N, HgmmaOp, acc_regs, acc_type
from ori_dialect.ops.integer import PackOp
from ori_dialect.ptx.lower import import_ptx
from ori_dialect.testing.equivalence import apply_pipeline, make_context
from tests.ptx.lower.wgmma_image import B_BASE, LBO, SBO, kmajor_image

HEAD = ".version 8.0\n.target sm_90a\n.address_size 64\n"
DESC_FIELDS = ((LBO >> 4) << 16) | ((SBO >> 4) << 32)

MODELLED = [(n, "f16") for n in GMMA_N] + [(n, "f32") for n in GMMA_N]
PHYSICAL = [(8, "f16"), (24, "f16"), (248, "f16"), (256, "f16"), (24, "f32"), (120, "f32"),
            (128, "f32"), (136, "f32"), (256, "f32")]


def _shared_bytes(n: int) -> int:
    return B_BASE + (n // 8) * SBO


def kernel(n: int, dtype: str) -> str:
    """Two HGMMAs ``m64n{n}k16.{dtype}`` (D = A B, then D += A B) on A (64 x
    16) and B (n x 16, K-major) copied from ``img`` into shared memory;
    thread ``t`` stores its accumulator registers at ``out[t * regs ...]``."""
    regs = acc_regs(n, dtype)
    size = _shared_bytes(n)
    acc = "{" + ",".join(f"%d{i}" for i in range(regs)) + "}"
    rtype = "f32" if dtype == "f32" else "b32"
    stores = "\n".join(f"  st.global.{rtype} [%rd8+{4 * i}], %d{i};" for i in range(regs))
    mma = f"wgmma.mma_async.sync.aligned.m64n{n}k16.{dtype}.f16.f16 {acc}, %rd2, %rd3"
    return HEAD + f""".visible .entry k(.param .u64 img, .param .u64 out)
.maxntid 128, 1, 1
{{
  .reg .pred %p<4>; .reg .b32 %r<16>; .reg .b64 %rd<12>; .reg .{rtype} %d<{regs}>;
  .shared .align 128 .b8 sm[{size}];
  ld.param.u64 %rd1, [img]; ld.param.u64 %rd4, [out];
  cvta.to.global.u64 %rd1, %rd1; cvta.to.global.u64 %rd4, %rd4;
  mov.u32 %r1, %tid.x; mov.u32 %r6, sm; mov.u32 %r2, %r1;
COPY:
  setp.ge.u32 %p1, %r2, {size // 16};
  @%p1 bra COPIED;
  mul.wide.u32 %rd5, %r2, 16; add.s64 %rd6, %rd1, %rd5;
  ld.global.v4.u32 {{%r3,%r4,%r5,%r7}}, [%rd6];
  shl.b32 %r8, %r2, 4; add.u32 %r8, %r6, %r8;
  st.shared.v4.u32 [%r8], {{%r3,%r4,%r5,%r7}};
  add.u32 %r2, %r2, 128;
  bra.uni COPY;
COPIED:
  bar.sync 0;
  fence.proxy.async.shared::cta;
  shr.u32 %r10, %r6, 4; cvt.u64.u32 %rd2, %r10; or.b64 %rd2, %rd2, {DESC_FIELDS};
  add.u32 %r11, %r6, {B_BASE}; shr.u32 %r11, %r11, 4; cvt.u64.u32 %rd3, %r11;
  or.b64 %rd3, %rd3, {DESC_FIELDS};
  wgmma.fence.sync.aligned;
  {mma}, 0, 1, 1, 0, 0;
  {mma}, 1, 1, 1, 0, 0;
  wgmma.commit_group.sync.aligned;
  wgmma.wait_group.sync.aligned 0;
  mul.wide.u32 %rd7, %r1, {4 * regs}; add.s64 %rd8, %rd4, %rd7;
{stores}
  ret;
}}
"""


def _image(a: np.ndarray, b: np.ndarray) -> np.ndarray:
    return kmajor_image(a, b, _shared_bytes(b.shape[0]))


def _d_matrix(words: np.ndarray, n: int, dtype: str) -> np.ndarray:
    """D (64 x n) from each thread's accumulator registers, by the PTX ISA's
    fragment layout (9.7.15.5.1, "Register Fragments")."""
    d = np.zeros((64, n), np.float32)
    for t in range(128):
        w, lane = divmod(t, 32)
        for i in range(words.shape[1]):
            if dtype == "f32":
                row = 16 * w + lane // 4 + 8 * ((i % 4) // 2)
                d[row, 8 * (i // 4) + 2 * (lane % 4) + i % 2] = words[t, i:i + 1].view(np.float32)[0]
            else:
                row = 16 * w + lane // 4 + 8 * (i % 2)
                halves = words[t, i:i + 1].view(np.float16)
                for h in range(2):
                    d[row, 8 * (i // 2) + 2 * (lane % 4) + h] = halves[h]
    return d


@functools.cache
def _module(n: int, dtype: str, compiled: bool) -> ModuleOp:
    m = import_ptx(kernel(n, dtype), f"m64n{n}k16.{dtype}.ptx")
    m.verify()
    if compiled:
        apply_pipeline(m, "ori-ptxas", make_context())
    return m


def _check(n: int, dtype: str, physical: bool) -> None:
    rng = np.random.default_rng(n)
    a = (rng.integers(-4, 5, (64, 16)) / 4).astype(np.float16)
    b = (rng.integers(-4, 5, (n, 16)) / 4).astype(np.float16)
    regs = acc_regs(n, dtype)
    out = run_kernel(_module(n, dtype, physical), "k", 1, 128,
                     [_image(a, b), np.zeros(128 * regs, np.uint32)], physical=physical,
                     strict=True)[1]
    got = _d_matrix(np.asarray(out).reshape(128, regs), n, dtype)
    want = 2 * (a.astype(np.float64) @ b.astype(np.float64).T)  # exact in f16 and f32
    assert np.array_equal(got, want.astype(np.float32))


@pytest.mark.parametrize(("n", "dtype"), MODELLED, ids=lambda x: str(x))
def test_every_shape_matches_numpy(n: int, dtype: str) -> None:
    _check(n, dtype, physical=False)


@pytest.mark.parametrize(("n", "dtype"), PHYSICAL, ids=lambda x: str(x))
def test_shapes_match_numpy_after_ori_ptxas(n: int, dtype: str) -> None:
    _check(n, dtype, physical=True)


def test_padded_accumulator_tuples() -> None:
    assert acc_type(24, "f32") is R512Type and acc_type(8, "f16") is R64Type
    assert acc_type(128, "f32") is R2048Type and acc_type(256, "f16") is R2048Type
    assert acc_type(136, "f32") is R4096Type and acc_type(256, "f32") is R4096Type
    m = _module(24, "f32", False)
    _, op = [o for o in m.walk() if isinstance(o, HgmmaOp)]
    assert isinstance(op.results[0].type, R512Type) and op.acc_regs() == 12
    c = op.src("c")  # the second HGMMA's accumulator: 12 parts and 4 RZ
    assert isinstance(c, SSAValue) and isinstance(c.owner, PackOp)
    pack = c.owner
    parts = [v for _, v in pack.slot_values()]
    assert len(parts) == 16
    assert all(not isinstance(p, SSAValue) and p.is_fixed for p in parts[12:])  # RZ


def test_listing_names_the_shape() -> None:
    assert "HGMMA.64x24x16.F32 R" in format_module(_module(24, "f32", True))


@pytest.mark.parametrize("n", [136, 200, 256])
def test_f32_accumulators_over_64_registers_are_128_register_tuples(n: int) -> None:
    m = import_ptx(kernel(n, "f32"))
    ops = [o for o in m.walk() if isinstance(o, HgmmaOp)]
    assert ops and all(isinstance(o.results[0].type, R4096Type) for o in ops)
    assert ops[0].acc_regs() == n // 2


@pytest.mark.skipif(shutil.which("ptxas") is None, reason="ptxas not on PATH")
@pytest.mark.parametrize(("n", "dtype"), [(24, "f32"), (256, "f16"), (256, "f32")],
                         ids=lambda x: str(x))
def test_ptxas_accepts_the_kernels(tmp_path: Path, n: int, dtype: str) -> None:
    src = tmp_path / "k.ptx"
    src.write_text(kernel(n, dtype))
    r = subprocess.run(["ptxas", "-arch=sm_90a", "-v", str(src), "-o", str(tmp_path / "k.cubin")],
                       capture_output=True, text=True, check=False)
    assert r.returncode == 0, r.stderr
