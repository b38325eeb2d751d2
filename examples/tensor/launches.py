"""Launch table for the tensor-core and async-copy kernels in ``examples/tensor``.

Same conventions as :mod:`examples.cuda.launches`: ``make_args`` gives the arguments in
parameter order, ``expected`` what each must hold afterwards (``None``: not checked).
``expected`` of a tensor-core kernel follows the numeric model HMMA states
(:func:`ori_dialect.interpreter.tensor.mma_reference`: exact products, float32 sums in k
order with round-to-nearest-even per addition), written out here with numpy, so the
comparison is bit-exact; ``float64`` gives the same results computed in float64, which the
tests compare within ``rtol``/``atol`` as a check of the model itself.  The fragment layouts
of the raw ``mma.sync`` kernels are written out here from the PTX ISA's tables (section
9.7.14.5.7/8), independently of the interpreter's code.
"""

from __future__ import annotations

import sys
from collections.abc import Callable
from dataclasses import dataclass
from pathlib import Path
from typing import Any

import numpy as np

TENSOR_DIR = Path(__file__).resolve().parent
ROOT = TENSOR_DIR.parents[1]
if str(ROOT) not in sys.path:  # loaded by path (tests, scripts): make ``examples`` importable
    sys.path.insert(0, str(ROOT))

from examples.cuda.launches import Launch

PTX_DIR = TENSOR_DIR / "ptx"

Args = list[Any]


@dataclass(frozen=True)
class TensorLaunch(Launch):
    """A :class:`Launch` of a kernel under ``examples/tensor/ptx``."""

    float64: Callable[[Args], Args] | None = None
    """The results in float64 arithmetic (checked within ``rtol``/``atol``)."""

    def ptx_path(self, arch: str) -> Path:
        return PTX_DIR / arch / (Path(self.file).stem + ".ptx")


# ----------------------------------------------------------------------------- helpers


def _f16(rng: np.random.Generator, *shape: int) -> np.ndarray:
    return rng.uniform(-2, 2, shape).astype(np.float16)


def _bf16_bits(rng: np.random.Generator, *shape: int) -> np.ndarray:
    """bf16 values as uint16 bit patterns (float32 values truncated to 8 significant bits)."""
    f = rng.uniform(-2, 2, shape).astype(np.float32)
    return (f.view(np.uint32) >> 16).astype(np.uint16)


def _bf16_value(bits: np.ndarray) -> np.ndarray:
    return (bits.astype(np.uint32) << 16).view(np.float32)


def mma_model(a: np.ndarray, b: np.ndarray, c: np.ndarray) -> np.ndarray:
    """C + A @ B as HMMA computes it: float32 products (exact for f16/bf16 inputs),
    summed in float32 in k order with one rounding per addition."""
    acc = np.array(c, dtype=np.float32, copy=True)
    for k in range(a.shape[1]):
        acc += np.outer(a[:, k].astype(np.float32), b[k, :].astype(np.float32))
    return acc


def _dot64(a: np.ndarray, b: np.ndarray) -> np.ndarray:
    return a.astype(np.float64) @ b.astype(np.float64)


# ----------------------------------------------------------------------------- wmma


M, N, K = 16, 32, 32


def _wmma_f16_args(rng: np.random.Generator) -> Args:
    a = _f16(rng, M, K)
    bt = _f16(rng, N, K)  # B column-major: element (k, n) at n*K + k
    return [a.ravel(), bt.ravel(), np.zeros(M * N, np.float32), np.int32(M), np.int32(N),
            np.int32(K)]


def _wmma_f16_expected(args: Args) -> Args:
    a = args[0].reshape(M, K)
    b = args[1].reshape(N, K).T
    return [None, None, mma_model(a, b, np.zeros((M, N))).ravel(), None, None, None]


def _wmma_f16_f64(args: Args) -> Args:
    return [None, None, _dot64(args[0].reshape(M, K), args[1].reshape(N, K).T).ravel(),
            None, None, None]


def _wmma_bf16_args(rng: np.random.Generator) -> Args:
    return [_bf16_bits(rng, M * K), _bf16_bits(rng, N * K), np.zeros(M * N, np.float32),
            np.int32(M), np.int32(N), np.int32(K)]


def _wmma_bf16_expected(args: Args) -> Args:
    a = _bf16_value(args[0]).reshape(M, K)
    b = _bf16_value(args[1]).reshape(N, K).T
    return [None, None, mma_model(a, b, np.zeros((M, N))).ravel(), None, None, None]


def _wmma_bf16_f64(args: Args) -> Args:
    a = _bf16_value(args[0]).reshape(M, K)
    b = _bf16_value(args[1]).reshape(N, K).T
    return [None, None, _dot64(a, b).ravel(), None, None, None]


KS = 32  # wmma_f16_f16_shared: A 16xKS, B KSx16 (both row-major), C 16x16 f16


def _wmma_half_args(rng: np.random.Generator) -> Args:
    return [_f16(rng, 16 * KS), _f16(rng, KS * 16), _f16(rng, 256), np.int32(KS)]


def _wmma_half_expected(args: Args) -> Args:
    a = args[0].reshape(16, KS)
    b = args[1].reshape(KS, 16)
    acc = args[2].reshape(16, 16)
    for k in range(0, KS, 16):  # each wmma.mma rounds its f16 result
        acc = mma_model(a[:, k:k + 16], b[k:k + 16], acc.astype(np.float32)).astype(np.float16)
    return [None, None, acc.ravel(), None]


def _wmma_half_f64(args: Args) -> Args:
    want = _dot64(args[0].reshape(16, KS), args[1].reshape(KS, 16)) + args[2].reshape(16, 16)
    return [None, None, want.ravel(), None]


# ----------------------------------------------------------------------------- mma.sync


MM, MN, MK = 16, 16, 32  # mma_ldmatrix_gemm


def _mma_gemm_args(rng: np.random.Generator) -> Args:
    return [_f16(rng, MM * MK), _f16(rng, MK * MN), np.zeros(MM * MN, np.float32),
            np.int32(MM), np.int32(MN), np.int32(MK)]


def _mma_gemm_expected(args: Args) -> Args:
    a, b = args[0].reshape(MM, MK), args[1].reshape(MK, MN)
    return [None, None, mma_model(a, b, np.zeros((MM, MN))).ravel(), None, None, None]


def _mma_gemm_f64(args: Args) -> Args:
    return [None, None, _dot64(args[0].reshape(MM, MK), args[1].reshape(MK, MN)).ravel(),
            None, None, None]


def _k8_args(rng: np.random.Generator) -> Args:
    return [_bf16_bits(rng, 16 * 8), _bf16_bits(rng, 8 * 8), np.zeros(16 * 8, np.float32)]


def _k8_expected(args: Args) -> Args:
    a = _bf16_value(args[0]).reshape(16, 8)
    b = _bf16_value(args[1]).reshape(8, 8).T  # stored n-major: B[k][n] at n*8 + k
    return [None, None, mma_model(a, b, np.zeros((16, 8))).ravel()]


def _k8_f64(args: Args) -> Args:
    a = _bf16_value(args[0]).reshape(16, 8)
    b = _bf16_value(args[1]).reshape(8, 8).T
    return [None, None, _dot64(a, b).ravel()]


def _frag_matrices(args: Args) -> tuple[np.ndarray, np.ndarray, np.ndarray]:
    """A (16x16), B (16x8), C (16x8) from the per-lane f16x2 words of mma_f16_f16,
    by the PTX ISA's tables for m16n8k16 (9.7.14.5.8)."""
    a16 = args[0].view(np.float16).reshape(32, 4, 2)
    b16 = args[1].view(np.float16).reshape(32, 2, 2)
    c16 = args[2].view(np.float16).reshape(32, 2, 2)
    a = np.zeros((16, 16), np.float16)
    b = np.zeros((16, 8), np.float16)
    c = np.zeros((16, 8), np.float16)
    for lane in range(32):
        g, t = lane >> 2, lane % 4
        for i in range(8):  # a_i: rows g / g+8, columns 2t + (i&1) (+8 for i >= 4)
            row = g + (8 if i in (2, 3, 6, 7) else 0)
            col = 2 * t + (i & 1) + (8 if i >= 4 else 0)
            a[row, col] = a16[lane, i // 2, i % 2]
        for i in range(4):  # b_i: rows 2t + (i&1) (+8 for i >= 2), column g
            b[2 * t + (i & 1) + (8 if i >= 2 else 0), g] = b16[lane, i // 2, i % 2]
        for i in range(4):  # c_i: row g (+8 for i >= 2), column 2t + (i&1)
            c[g + (8 if i >= 2 else 0), 2 * t + (i & 1)] = c16[lane, i // 2, i % 2]
    return a, b, c


def _frag_args(rng: np.random.Generator) -> Args:
    return [_f16(rng, 32 * 8).view(np.uint32), _f16(rng, 32 * 4).view(np.uint32),
            _f16(rng, 32 * 4).view(np.uint32), np.zeros(64, np.uint32)]


def _frag_expected(args: Args) -> Args:
    a, b, c = _frag_matrices(args)
    d = mma_model(a, b, c.astype(np.float32)).astype(np.float16)
    out = np.zeros((32, 2, 2), np.float16)
    for lane in range(32):
        g, t = lane >> 2, lane % 4
        for i in range(4):
            out[lane, i // 2, i % 2] = d[g + (8 if i >= 2 else 0), 2 * t + (i & 1)]
    return [None, None, None, out.view(np.uint32).ravel()]


def _frag_f64(args: Args) -> Args:
    a, b, c = _frag_matrices(args)
    d = _dot64(a, b) + c
    out = np.zeros((32, 2, 2))
    for lane in range(32):
        g, t = lane >> 2, lane % 4
        for i in range(4):
            out[lane, i // 2, i % 2] = d[g + (8 if i >= 2 else 0), 2 * t + (i & 1)]
    return [None, None, None, out.ravel()]


# ----------------------------------------------------------------------------- cp.async


TILES, BLOCKS, THREADS = 3, 2, 32


def _dbuf_args(rng: np.random.Generator) -> Args:
    n = BLOCKS * TILES * 4 * THREADS
    return [rng.standard_normal(n).astype(np.float32), np.zeros(n, np.float32),
            np.int32(TILES)]


def _dbuf_expected(args: Args) -> Args:
    x = args[0].reshape(BLOCKS, TILES, THREADS, 4)
    return [None, np.roll(x, -1, axis=2).ravel(), None]  # thread t copies (t+1)'s float4


VALID = 200  # cp_async_sizes: bytes of the zero-filled 16-byte copies that are real


def _sizes_args(rng: np.random.Generator) -> Args:
    return [rng.integers(-1000, 1000, 256, dtype=np.int64).astype(np.int32),
            np.zeros(256, np.int32), np.int32(VALID)]


def _sizes_expected(args: Args) -> Args:
    x = args[0]
    out = np.zeros(256, np.int32)
    out[:64] = x[:64]
    out[64:192] = x[64:192]
    raw = x[128:256].view(np.uint8).copy().reshape(32, 16)
    for t in range(32):
        keep = min(max(VALID - 16 * t, 0), 16)
        raw[t, keep:] = 0
    out[128:256] = raw.view(np.int32).ravel()
    return [None, out, None]


def _pipeline_args(rng: np.random.Generator) -> Args:
    return [rng.standard_normal(128 * 4).astype(np.float32), np.zeros(64 * 4, np.float32)]


def _pipeline_expected(args: Args) -> Args:
    x = args[0].reshape(2, 64 * 4)
    return [None, (x[0] + x[1]).astype(np.float32)]


LAUNCHES: list[TensorLaunch] = [
    TensorLaunch("wmma_gemm.cu", "wmma_f16_f32", (N // 16, M // 16, 1), (32, 1, 1),
                 _wmma_f16_args, _wmma_f16_expected, float64=_wmma_f16_f64, rtol=1e-5,
                 atol=1e-4, covers="wmma.load/mma/store f16 -> f32 (global, row/col)"),
    TensorLaunch("wmma_gemm.cu", "wmma_bf16_f32", (N // 16, M // 16, 1), (32, 1, 1),
                 _wmma_bf16_args, _wmma_bf16_expected, float64=_wmma_bf16_f64, rtol=1e-5,
                 atol=1e-4, covers="wmma bf16 -> f32 (generic addresses)"),
    TensorLaunch("wmma_gemm.cu", "wmma_f16_f16_shared", (1, 1, 1), (32, 1, 1),
                 _wmma_half_args, _wmma_half_expected, float64=_wmma_half_f64, rtol=2e-3,
                 atol=2e-2, covers="wmma f16 accumulator, fragments from shared memory"),
    TensorLaunch("mma_gemm.cu", "mma_ldmatrix_gemm", (MN // 8, MM // 16, 1), (32, 1, 1),
                 _mma_gemm_args, _mma_gemm_expected, float64=_mma_gemm_f64, rtol=1e-5,
                 atol=1e-4, covers="ldmatrix.x4 / .x2.trans + mma.m16n8k16 f32"),
    TensorLaunch("mma_gemm.cu", "mma_bf16_m16n8k8", (1, 1, 1), (32, 1, 1), _k8_args,
                 _k8_expected, float64=_k8_f64, rtol=1e-5, atol=1e-4,
                 covers="mma.m16n8k8 bf16 with an RZ accumulator"),
    TensorLaunch("mma_gemm.cu", "mma_f16_f16", (1, 1, 1), (32, 1, 1), _frag_args,
                 _frag_expected, float64=_frag_f64, rtol=2e-3, atol=2e-2,
                 covers="mma.m16n8k16 f16 accumulator, fragment ownership"),
    TensorLaunch("cp_async.cu", "cp_async_double_buffer", (BLOCKS, 1, 1), (THREADS, 1, 1),
                 _dbuf_args, _dbuf_expected, shared_bytes=2 * 4 * THREADS * 4,
                 covers="cp.async.cg 16 B double buffering, wait_group 1 / wait_all"),
    TensorLaunch("cp_async.cu", "cp_async_sizes", (1, 1, 1), (64, 1, 1), _sizes_args,
                 _sizes_expected, covers="cp.async.ca 4/8 B, src-size zero fill"),
    TensorLaunch("cp_async.cu", "pipeline_copy", (1, 1, 1), (64, 1, 1), _pipeline_args,
                 _pipeline_expected, covers="__pipeline_memcpy_async / wait_prior"),
]

__all__ = ["LAUNCHES", "PTX_DIR", "TensorLaunch", "mma_model"]
