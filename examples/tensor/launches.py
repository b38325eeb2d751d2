"""Launch table for the tensor-core and async-copy kernels in ``examples/tensor``.

Same conventions as :mod:`examples.cuda.launches`: ``make_args`` gives the arguments in
parameter order, ``expected`` what each must hold afterwards (``None``: not checked).
``expected`` of a tensor-core kernel follows the numeric model HMMA states
(:class:`ori_dialect.ops.tensor.HmmaOp`, measured on an H200: per MMA instruction the
accumulator and the exact products truncated to a multiple of ``2**(E - 25)``, ``E`` the
largest exponent among them, summed exactly and cut toward zero to float32; an f16
accumulator then rounds to nearest), written out here with numpy (:func:`mma_model`),
independently of the interpreter's code, so the comparison is bit-exact; ``float64``
gives the same results computed in float64, which the tests compare within the bound
``atol`` (:func:`mma_atol`) as a check of the model itself.  The fragment layouts
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


F16_EMIN = -14  # the exponent an f16 subnormal counts with (HmmaOp); f32/bf16/tf32: -126


def _expo(x: np.ndarray, emin: int = -126) -> np.ndarray:
    nz = x != 0
    return np.where(nz, np.maximum(np.frexp(np.where(nz, x, 1.0))[1] - 1, emin), -100000)


def mma_model(a: np.ndarray, b: np.ndarray, c: np.ndarray, kstep: int, emin: int = -126,
              c_emin: int = -126) -> np.ndarray:
    """C + A @ B as a chain of HMMAs ``kstep`` wide in k computes it (HmmaOp's rule; A, B
    f16, bf16 or tf32 values, C float32 or f16 values; finite inputs and results): per
    MMA, E is the largest of the accumulator's exponent and the products' exponent sums
    e(a) + e(b) (a subnormal counting as ``emin``, as ``c_emin`` for C), the accumulator
    and the exact products are cut toward zero to a multiple of 2**(E - 25), added
    exactly, and the sum cut toward zero to float32."""
    acc = np.array(c, np.float32)
    for k0 in range(0, a.shape[1], kstep):
        a64 = a[:, k0:k0 + kstep].astype(np.float64)
        b64 = b[k0:k0 + kstep].astype(np.float64)
        c64 = acc.astype(np.float64)
        prods = a64[:, None, :] * b64.T[None, :, :]
        pe = np.where(prods != 0, _expo(a64, emin)[:, None, :] + _expo(b64, emin).T[None, :, :],
                      -100000)
        q = np.ldexp(1.0, np.maximum(pe.max(axis=2), _expo(c64, c_emin)) - 25)[:, :, None]
        terms = np.concatenate([c64[:, :, None], prods], axis=2)
        total = (np.trunc(terms / q) * q).sum(axis=2)
        near = total.astype(np.float32)
        acc = np.where(np.abs(near.astype(np.float64)) > np.abs(total),
                       np.nextafter(near, np.float32(0)), near).astype(np.float32)
    return acc


def mma_atol(k: int, kstep: int, cmax: float = 0.0, f16_acc: bool = False) -> float:
    """|mma_model - float64| for A, B in [-2, 2] and |C| <= ``cmax``: every running sum
    and every term of an MMA is at most B = cmax + 4K, and so is 2**E; per MMA the
    kstep + 1 truncated terms lose < 2**(E - 25) each and the cut to float32 < 2**-23 of
    the sum, (kstep + 5) 2**-25 B in all, and an f16 accumulator's rounding to nearest
    adds at most 2**-11 B."""
    bound = cmax + 4.0 * k
    return (k / kstep) * bound * ((kstep + 5) * 2.0**-25 + (2.0**-11 if f16_acc else 0.0))


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
    return [None, None, mma_model(a, b, np.zeros((M, N)), 16, F16_EMIN).ravel(), None, None,
            None]


def _wmma_f16_f64(args: Args) -> Args:
    return [None, None, _dot64(args[0].reshape(M, K), args[1].reshape(N, K).T).ravel(),
            None, None, None]


def _wmma_bf16_args(rng: np.random.Generator) -> Args:
    return [_bf16_bits(rng, M * K), _bf16_bits(rng, N * K), np.zeros(M * N, np.float32),
            np.int32(M), np.int32(N), np.int32(K)]


def _wmma_bf16_expected(args: Args) -> Args:
    a = _bf16_value(args[0]).reshape(M, K)
    b = _bf16_value(args[1]).reshape(N, K).T
    return [None, None, mma_model(a, b, np.zeros((M, N)), 16).ravel(), None, None, None]


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
    for k in range(0, KS, 16):  # each wmma.mma (two m16n8k16) rounds its f16 result
        acc = mma_model(a[:, k:k + 16], b[k:k + 16], acc.astype(np.float32), 16, F16_EMIN,
                        F16_EMIN).astype(np.float16)
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
    return [None, None, mma_model(a, b, np.zeros((MM, MN)), 16, F16_EMIN).ravel(), None, None,
            None]


def _mma_gemm_f64(args: Args) -> Args:
    return [None, None, _dot64(args[0].reshape(MM, MK), args[1].reshape(MK, MN)).ravel(),
            None, None, None]


def _k8_args(rng: np.random.Generator) -> Args:
    return [_bf16_bits(rng, 16 * 8), _bf16_bits(rng, 8 * 8), np.zeros(16 * 8, np.float32)]


def _k8_expected(args: Args) -> Args:
    a = _bf16_value(args[0]).reshape(16, 8)
    b = _bf16_value(args[1]).reshape(8, 8).T  # stored n-major: B[k][n] at n*8 + k
    return [None, None, mma_model(a, b, np.zeros((16, 8)), 8).ravel()]


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
    d = mma_model(a, b, c.astype(np.float32), 16, F16_EMIN, F16_EMIN).astype(np.float16)
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


# ----------------------------------------------------------------------------- wmma tf32 / int8
#
# wmma on tf32 (16x16x8): ptxas (and ori) run each mma_sync as four HMMA.1684.F32.TF32,
# k 0-3 then k 4-7 of each 8-column half, so the model chains the tf32 MMA rule over
# 4-wide k steps: the operands' low 13 mantissa bits dropped (after
# __float_to_tf32 = cvt.rna.tf32.f32, which adds 0x1000 to a finite value's bits, that
# is round to nearest with ties away), then per step the accumulator and the 4 exact
# products cut toward zero to a multiple of 2**(E - 25), E the largest exponent among
# the accumulator's and the products' exponent sums, added exactly and cut toward zero
# to float32 (HmmaOp's model, measured bit-exact on an H200).  wmma on s8/u8 (16x16x16)
# is two IMMA.16816 per mma_sync: exact, wrapping, or clamped with satf (.satfinite).
# The four kernels' expected results were also checked on an NVIDIA H200: the sm_90 PTX
# compiled by ptxas 13.0 and run with these inputs gave them bit for bit.


def tf32_rna(x: np.ndarray) -> np.ndarray:
    """__float_to_tf32 then the MMA's truncation: round to nearest, ties away, to 10
    mantissa bits (infinities and NaNs kept)."""
    bits = np.asarray(x, np.float32).view(np.uint32).astype(np.uint64)
    up = ((bits + 0x1000) & 0xFFFFE000).astype(np.uint32).view(np.float32)
    return np.where(np.isfinite(x), up, x).astype(np.float32)


def tf32_trunc(x: np.ndarray) -> np.ndarray:
    """Raw fp32 bits as the MMA reads them: the low 13 mantissa bits dropped."""
    return (np.asarray(x, np.float32).view(np.uint32) & np.uint32(0xFFFFE000)).view(np.float32)


def _tf32_atol(k: int, rel: float, cmax: float = 0.0) -> float:
    """|model - float64| for inputs in [-2, 2]: the operands' rounding (``rel`` of each,
    2**-11 after cvt.rna, 2**-10 when truncated) on sum_k |a_k b_k| <= 4K, plus per
    4-wide step < 2**-18 of the running sum (<= 4K + max|C|)."""
    return 4.0 * k * (2 * rel + rel * rel) + (k / 4) * (4.0 * k + cmax) * 2.0**-18


TM, TN, TK = 16, 32, 32  # wmma_tf32_f32


def _tf32_args(rng: np.random.Generator) -> Args:
    a = rng.uniform(-2, 2, TM * TK).astype(np.float32)
    bt = rng.uniform(-2, 2, TN * TK).astype(np.float32)  # B column-major: (k, n) at n*K + k
    return [a, bt, np.zeros(TM * TN, np.float32), np.int32(TM), np.int32(TN), np.int32(TK)]


def _tf32_expected(args: Args) -> Args:
    a = tf32_rna(args[0].reshape(TM, TK))
    b = tf32_rna(args[1].reshape(TN, TK).T)
    return [None, None, mma_model(a, b, np.zeros((TM, TN)), 4).ravel(), None, None, None]


def _tf32_f64(args: Args) -> Args:
    return [None, None, _dot64(args[0].reshape(TM, TK), args[1].reshape(TN, TK).T).ravel(),
            None, None, None]


RK = 24  # wmma_tf32_raw_colmajor: A 16xRK column-major, B RKx16 row-major, C column-major


def _raw_args(rng: np.random.Generator) -> Args:
    return [rng.uniform(-2, 2, 16 * RK).astype(np.float32),
            rng.uniform(-2, 2, RK * 16).astype(np.float32),
            rng.uniform(-4, 4, 256).astype(np.float32), np.int32(RK)]


def _raw_matrices(args: Args) -> tuple[np.ndarray, np.ndarray, np.ndarray]:
    return args[0].reshape(RK, 16).T, args[1].reshape(RK, 16), args[2].reshape(16, 16).T


def _raw_expected(args: Args) -> Args:
    a, b, c = _raw_matrices(args)
    d = mma_model(tf32_trunc(a), tf32_trunc(b), c, 4)
    return [None, None, d.T.copy().ravel(), None]


def _raw_f64(args: Args) -> Args:
    a, b, c = _raw_matrices(args)
    return [None, None, (_dot64(a, b) + c).T.ravel(), None]


IM, IN, IK = 32, 16, 48  # wmma_s8_s32


def _s8_args(rng: np.random.Generator) -> Args:
    return [rng.integers(-128, 128, IM * IK).astype(np.int8),
            rng.integers(-128, 128, IN * IK).astype(np.int8),  # column-major B
            np.zeros(IM * IN, np.int32), np.int32(IM), np.int32(IN), np.int32(IK)]


def _s8_exact(args: Args) -> np.ndarray:
    return args[0].reshape(IM, IK).astype(np.int64) @ args[1].reshape(IN, IK).T.astype(np.int64)


def _s8_expected(args: Args) -> Args:
    return [None, None, _s8_exact(args).astype(np.int32).ravel(), None, None, None]


def _s8_f64(args: Args) -> Args:
    return [None, None, _s8_exact(args).astype(np.float64).ravel(), None, None, None]


UK = 32  # wmma_u8_sat_shared: A 16xUK, B UKx16 (row-major u8), C 16x16 s32


def _u8_args(rng: np.random.Generator) -> Args:
    c = rng.integers(-(2**20), 2**20, 256).astype(np.int64)
    c[::3] = 2**31 - 1 - rng.integers(0, 2**20, len(c[::3]))  # near the top: saturates
    return [rng.integers(0, 256, 16 * UK).astype(np.uint8),
            rng.integers(0, 256, UK * 16).astype(np.uint8), c.astype(np.int32), np.int32(UK)]


def _u8_exact(args: Args) -> np.ndarray:
    a = args[0].reshape(16, UK).astype(np.int64)
    b = args[1].reshape(UK, 16).astype(np.int64)
    return args[2].reshape(16, 16).astype(np.int64) + a @ b


def _u8_expected(args: Args) -> Args:
    # each mma_sync clamps; u8 products are >= 0, so clamping once at the end is the same
    a = args[0].reshape(16, UK).astype(np.int64)
    b = args[1].reshape(UK, 16).astype(np.int64)
    acc = args[2].reshape(16, 16).astype(np.int64)
    for k in range(0, UK, 16):
        acc = np.clip(acc + a[:, k:k + 16] @ b[k:k + 16], -(2**31), 2**31 - 1)
    assert (_u8_exact(args) > 2**31 - 1).any()  # some elements do saturate
    return [None, None, acc.astype(np.int32).ravel(), None]


def _u8_f64(args: Args) -> Args:
    return [None, None, np.clip(_u8_exact(args), -(2**31), 2**31 - 1).astype(np.float64).ravel(),
            None]


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
                 _wmma_f16_args, _wmma_f16_expected, float64=_wmma_f16_f64,
                 atol=mma_atol(K, 16), covers="wmma.load/mma/store f16 -> f32 (global, row/col)"),
    TensorLaunch("wmma_gemm.cu", "wmma_bf16_f32", (N // 16, M // 16, 1), (32, 1, 1),
                 _wmma_bf16_args, _wmma_bf16_expected, float64=_wmma_bf16_f64,
                 atol=mma_atol(K, 16), covers="wmma bf16 -> f32 (generic addresses)"),
    TensorLaunch("wmma_gemm.cu", "wmma_f16_f16_shared", (1, 1, 1), (32, 1, 1),
                 _wmma_half_args, _wmma_half_expected, float64=_wmma_half_f64,
                 atol=mma_atol(KS, 16, 2.0, f16_acc=True), covers="wmma f16 accumulator, fragments from shared memory"),
    TensorLaunch("mma_gemm.cu", "mma_ldmatrix_gemm", (MN // 8, MM // 16, 1), (32, 1, 1),
                 _mma_gemm_args, _mma_gemm_expected, float64=_mma_gemm_f64,
                 atol=mma_atol(MK, 16), covers="ldmatrix.x4 / .x2.trans + mma.m16n8k16 f32"),
    TensorLaunch("mma_gemm.cu", "mma_bf16_m16n8k8", (1, 1, 1), (32, 1, 1), _k8_args,
                 _k8_expected, float64=_k8_f64, atol=mma_atol(8, 8),
                 covers="mma.m16n8k8 bf16 with an RZ accumulator"),
    TensorLaunch("mma_gemm.cu", "mma_f16_f16", (1, 1, 1), (32, 1, 1), _frag_args,
                 _frag_expected, float64=_frag_f64, atol=mma_atol(16, 16, 2.0, f16_acc=True),
                 covers="mma.m16n8k16 f16 accumulator, fragment ownership"),
    TensorLaunch("wmma_tf32_int8.cu", "wmma_tf32_f32", (TN // 16, TM // 16, 1), (32, 1, 1),
                 _tf32_args, _tf32_expected, float64=_tf32_f64, atol=_tf32_atol(TK, 2.0**-11),
                 covers="wmma tf32 16x16x8 (four HMMA.1684 per mma_sync), __float_to_tf32 = "
                        "cvt.rna.tf32.f32, row-major A, column-major B"),
    TensorLaunch("wmma_tf32_int8.cu", "wmma_tf32_raw_colmajor", (1, 1, 1), (32, 1, 1),
                 _raw_args, _raw_expected, float64=_raw_f64,
                 atol=_tf32_atol(RK, 2.0**-10, 4.0),
                 covers="wmma tf32 on raw fp32 bits (truncated), column-major A and C, "
                        "row-major B, a loaded accumulator"),
    TensorLaunch("wmma_tf32_int8.cu", "wmma_s8_s32", (IN // 16, IM // 16, 1), (32, 1, 1),
                 _s8_args, _s8_expected, float64=_s8_f64,
                 covers="wmma s8 16x16x16 -> s32 (two IMMA.16816.S8.S8 per mma_sync)"),
    TensorLaunch("wmma_tf32_int8.cu", "wmma_u8_sat_shared", (1, 1, 1), (32, 1, 1), _u8_args,
                 _u8_expected, float64=_u8_f64,
                 covers="wmma u8 with satf (IMMA.16816.U8.U8.SAT): saturating s32 "
                        "accumulator, row-major B bytes from shared memory"),
    TensorLaunch("cp_async.cu", "cp_async_double_buffer", (BLOCKS, 1, 1), (THREADS, 1, 1),
                 _dbuf_args, _dbuf_expected, shared_bytes=2 * 4 * THREADS * 4,
                 covers="cp.async.cg 16 B double buffering, wait_group 1 / wait_all"),
    TensorLaunch("cp_async.cu", "cp_async_sizes", (1, 1, 1), (64, 1, 1), _sizes_args,
                 _sizes_expected, covers="cp.async.ca 4/8 B, src-size zero fill"),
    TensorLaunch("cp_async.cu", "pipeline_copy", (1, 1, 1), (64, 1, 1), _pipeline_args,
                 _pipeline_expected, covers="__pipeline_memcpy_async / wait_prior"),
]

__all__ = ["LAUNCHES", "PTX_DIR", "TensorLaunch", "mma_atol", "mma_model", "tf32_rna",
           "tf32_trunc"]
