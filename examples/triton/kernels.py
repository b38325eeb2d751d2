"""Triton kernels whose PTX ``examples/triton/ptx`` holds (see ``build_ptx.py``).

This file needs Triton (``import triton``); ori itself does not depend on it, and
nothing in ori imports this module: ``build_ptx.py`` compiles :data:`KERNELS` and
``launches.py`` (plain numpy) says how to run each result. Every kernel keeps its
problem small so that ori's Python interpreter runs a launch in well under a second.

:data:`KERNELS` lists, per kernel, its Triton signature, its compile-time constants and
its ``num_warps`` (the block is ``32 * num_warps`` threads; Triton marks it ``.reqntid``).
"""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any

import triton
import triton.language as tl


@triton.jit
def vector_add(x_ptr, y_ptr, out_ptr, n, BLOCK: tl.constexpr):
    pid = tl.program_id(0)
    offs = pid * BLOCK + tl.arange(0, BLOCK)
    mask = offs < n
    x = tl.load(x_ptr + offs, mask=mask)
    y = tl.load(y_ptr + offs, mask=mask)
    tl.store(out_ptr + offs, x + y, mask=mask)


@triton.jit
def axpy(alpha, x_ptr, y_ptr, n, BLOCK: tl.constexpr):
    # y = alpha * x + y (contracted to fma.rn.f32 with fp fusion on)
    pid = tl.program_id(0)
    offs = pid * BLOCK + tl.arange(0, BLOCK)
    mask = offs < n
    x = tl.load(x_ptr + offs, mask=mask)
    y = tl.load(y_ptr + offs, mask=mask)
    tl.store(y_ptr + offs, alpha * x + y, mask=mask)


@triton.jit
def fused_relu_bias(x_ptr, b_ptr, out_ptr, n, cols, BLOCK: tl.constexpr):
    # out = max(x * 2 + bias[col], 0) where x's masked-off lanes read -1
    pid = tl.program_id(0)
    offs = pid * BLOCK + tl.arange(0, BLOCK)
    mask = offs < n
    x = tl.load(x_ptr + offs, mask=mask, other=-1.0)
    b = tl.load(b_ptr + offs % cols, mask=mask, other=0.0)
    y = tl.maximum(x * 2.0 + b, 0.0)
    tl.store(out_ptr + offs, y, mask=mask)


@triton.jit
def softmax(x_ptr, out_ptr, stride, n_cols, BLOCK: tl.constexpr):
    # one row per program; the block covers the row (masked tail reads -inf)
    row = tl.program_id(0)
    cols = tl.arange(0, BLOCK)
    mask = cols < n_cols
    x = tl.load(x_ptr + row * stride + cols, mask=mask, other=-float("inf"))
    x = x - tl.max(x, axis=0)
    num = tl.exp(x)
    den = tl.sum(num, axis=0)
    tl.store(out_ptr + row * stride + cols, num / den, mask=mask)


@triton.jit
def layernorm(x_ptr, w_ptr, b_ptr, out_ptr, stride, n_cols, eps, BLOCK: tl.constexpr):
    row = tl.program_id(0)
    cols = tl.arange(0, BLOCK)
    mask = cols < n_cols
    x = tl.load(x_ptr + row * stride + cols, mask=mask, other=0.0)
    mean = tl.sum(x, axis=0) / n_cols
    d = tl.where(mask, x - mean, 0.0)
    var = tl.sum(d * d, axis=0) / n_cols
    rstd = 1.0 / tl.sqrt(var + eps)
    w = tl.load(w_ptr + cols, mask=mask)
    b = tl.load(b_ptr + cols, mask=mask)
    tl.store(out_ptr + row * stride + cols, d * rstd * w + b, mask=mask)


@triton.jit
def atomic_sum(x_ptr, total_ptr, n, BLOCK: tl.constexpr):
    # each program reduces its block and adds the partial sum atomically
    pid = tl.program_id(0)
    offs = pid * BLOCK + tl.arange(0, BLOCK)
    x = tl.load(x_ptr + offs, mask=offs < n, other=0)
    tl.atomic_add(total_ptr, tl.sum(x, axis=0))


@triton.jit
def row_sum(x_ptr, out_ptr, n_cols, BLOCK: tl.constexpr):
    row = tl.program_id(0)
    cols = tl.arange(0, BLOCK)
    x = tl.load(x_ptr + row * n_cols + cols, mask=cols < n_cols, other=0.0)
    tl.store(out_ptr + row, tl.sum(x, axis=0))


@triton.jit
def cumsum(x_ptr, out_ptr, n, BLOCK: tl.constexpr):
    # inclusive scan of one block per program
    pid = tl.program_id(0)
    offs = pid * BLOCK + tl.arange(0, BLOCK)
    mask = offs < n
    x = tl.load(x_ptr + offs, mask=mask, other=0)
    tl.store(out_ptr + offs, tl.cumsum(x, axis=0), mask=mask)


@triton.jit
def philox_rand(seed, ints_ptr, floats_ptr, n, BLOCK: tl.constexpr):
    pid = tl.program_id(0)
    offs = pid * BLOCK + tl.arange(0, BLOCK)
    mask = offs < n
    tl.store(ints_ptr + offs, tl.randint(seed, offs), mask=mask)
    tl.store(floats_ptr + offs, tl.rand(seed, offs + n), mask=mask)


@triton.jit
def argmax_rows(x_ptr, out_ptr, n_cols, BLOCK: tl.constexpr):
    row = tl.program_id(0)
    cols = tl.arange(0, BLOCK)
    x = tl.load(x_ptr + row * n_cols + cols, mask=cols < n_cols, other=-float("inf"))
    tl.store(out_ptr + row, tl.argmax(x, axis=0))


@triton.jit
def transpose(
    x_ptr, out_ptr, rows, cols, stride_xr, stride_xc, stride_or, stride_oc,
    BM: tl.constexpr, BN: tl.constexpr,
):
    # out[c, r] = x[r, c] for one BM x BN tile per program
    pid_m = tl.program_id(0)
    pid_n = tl.program_id(1)
    rm = pid_m * BM + tl.arange(0, BM)
    rn = pid_n * BN + tl.arange(0, BN)
    mask = (rm[:, None] < rows) & (rn[None, :] < cols)
    x = tl.load(x_ptr + rm[:, None] * stride_xr + rn[None, :] * stride_xc, mask=mask)
    tl.store(out_ptr + rn[None, :] * stride_or + rm[:, None] * stride_oc, x, mask=mask)


@triton.jit
def int_hash(x_ptr, out_ptr, n, BLOCK: tl.constexpr):
    # murmur3's 32-bit finalizer, plus a signed division and remainder
    pid = tl.program_id(0)
    offs = pid * BLOCK + tl.arange(0, BLOCK)
    mask = offs < n
    h = tl.load(x_ptr + offs, mask=mask, other=0)
    h ^= h >> 16
    h *= 0x85EBCA6B
    h ^= h >> 13
    h *= 0xC2B2AE35
    h ^= h >> 16
    s = h.to(tl.int32, bitcast=True)
    mixed = (s // 7) + (s % 13) + offs
    tl.store(out_ptr + offs, mixed.to(tl.uint32, bitcast=True) ^ h, mask=mask)


@triton.jit
def where_clamp(x_ptr, out_ptr, lo, hi, n, BLOCK: tl.constexpr):
    pid = tl.program_id(0)
    offs = pid * BLOCK + tl.arange(0, BLOCK)
    mask = offs < n
    x = tl.load(x_ptr + offs, mask=mask)
    y = tl.where(x < lo, lo, tl.where(x > hi, hi, x))
    y = tl.where(x != x, 0.0, y)  # noqa: PLR0124  (NaN -> 0: x != x only for NaN)
    tl.store(out_ptr + offs, y, mask=mask)


@triton.jit
def half_scale(x_ptr, y_ptr, out_ptr, scale, n, BLOCK: tl.constexpr):
    # fp16 in, fp16 out: out = f16(f32(x) * scale + f32(y))
    pid = tl.program_id(0)
    offs = pid * BLOCK + tl.arange(0, BLOCK)
    mask = offs < n
    x = tl.load(x_ptr + offs, mask=mask).to(tl.float32)
    y = tl.load(y_ptr + offs, mask=mask).to(tl.float32)
    tl.store(out_ptr + offs, (x * scale + y).to(tl.float16), mask=mask)


@triton.jit
def _matmul_tile(a_ptr, b_ptr, M, N, K, stride_am, stride_ak, stride_bk, stride_bn,
                 BM: tl.constexpr, BN: tl.constexpr, BK: tl.constexpr):
    # one BM x BN tile of A @ B, accumulated in fp32 over K in BK steps (shared by the
    # matmul kernels below, which differ in their element types)
    pid_m = tl.program_id(0)
    pid_n = tl.program_id(1)
    rm = pid_m * BM + tl.arange(0, BM)
    rn = pid_n * BN + tl.arange(0, BN)
    rk = tl.arange(0, BK)
    acc = tl.zeros((BM, BN), dtype=tl.float32)
    for k in range(0, K, BK):
        ka = k + rk
        a = tl.load(a_ptr + rm[:, None] * stride_am + ka[None, :] * stride_ak,
                    mask=(rm[:, None] < M) & (ka[None, :] < K), other=0.0)
        b = tl.load(b_ptr + ka[:, None] * stride_bk + rn[None, :] * stride_bn,
                    mask=(ka[:, None] < K) & (rn[None, :] < N), other=0.0)
        acc = tl.dot(a, b, acc)
    return acc, rm, rn


@triton.jit
def matmul(a_ptr, b_ptr, c_ptr, M, N, K, stride_am, stride_ak, stride_bk, stride_bn,
           stride_cm, stride_cn, BM: tl.constexpr, BN: tl.constexpr, BK: tl.constexpr):
    # fp16 A and B, fp32 accumulator and output
    acc, rm, rn = _matmul_tile(a_ptr, b_ptr, M, N, K, stride_am, stride_ak, stride_bk,
                               stride_bn, BM, BN, BK)
    mask = (rm[:, None] < M) & (rn[None, :] < N)
    tl.store(c_ptr + rm[:, None] * stride_cm + rn[None, :] * stride_cn, acc, mask=mask)


@triton.jit
def matmul_f16out(a_ptr, b_ptr, c_ptr, M, N, K, stride_am, stride_ak, stride_bk, stride_bn,
                  stride_cm, stride_cn, BM: tl.constexpr, BN: tl.constexpr,
                  BK: tl.constexpr):
    # fp16 A and B, fp32 accumulator rounded once to the fp16 output
    acc, rm, rn = _matmul_tile(a_ptr, b_ptr, M, N, K, stride_am, stride_ak, stride_bk,
                               stride_bn, BM, BN, BK)
    mask = (rm[:, None] < M) & (rn[None, :] < N)
    tl.store(c_ptr + rm[:, None] * stride_cm + rn[None, :] * stride_cn,
             acc.to(tl.float16), mask=mask)


@triton.jit
def matmul_bf16(a_ptr, b_ptr, c_ptr, M, N, K, stride_am, stride_ak, stride_bk, stride_bn,
                stride_cm, stride_cn, BM: tl.constexpr, BN: tl.constexpr, BK: tl.constexpr):
    # bf16 A and B (the signature's element type), fp32 accumulator and output
    acc, rm, rn = _matmul_tile(a_ptr, b_ptr, M, N, K, stride_am, stride_ak, stride_bk,
                               stride_bn, BM, BN, BK)
    mask = (rm[:, None] < M) & (rn[None, :] < N)
    tl.store(c_ptr + rm[:, None] * stride_cm + rn[None, :] * stride_cn, acc, mask=mask)


@triton.jit
def matmul_m64(a_ptr, b_ptr, c_ptr, M, N, K, stride_am, stride_ak, stride_bk, stride_bn,
               stride_cm, stride_cn, BM: tl.constexpr, BN: tl.constexpr, BK: tl.constexpr):
    # matmul with a 64-row tile over 4 warps: Triton's sm_90a lowering picks
    # wgmma.mma_async for it (BM >= 64, a warpgroup), mma.sync elsewhere
    acc, rm, rn = _matmul_tile(a_ptr, b_ptr, M, N, K, stride_am, stride_ak, stride_bk,
                               stride_bn, BM, BN, BK)
    mask = (rm[:, None] < M) & (rn[None, :] < N)
    tl.store(c_ptr + rm[:, None] * stride_cm + rn[None, :] * stride_cn, acc, mask=mask)


@triton.jit
def attention_fwd(q_ptr, k_ptr, v_ptr, o_ptr, sm_scale, seq, stride_s,
                  BLOCK_M: tl.constexpr, BLOCK_N: tl.constexpr, HEAD_D: tl.constexpr):
    # one head: O = softmax(Q K^T * sm_scale) V, BLOCK_M query rows per program, the keys
    # in BLOCK_N steps with the online softmax of Triton's fused-attention tutorial
    # (running max m_i and sum l_i in base 2, fp16 P for the second dot)
    start_m = tl.program_id(0)
    offs_m = start_m * BLOCK_M + tl.arange(0, BLOCK_M)
    offs_n = tl.arange(0, BLOCK_N)
    offs_d = tl.arange(0, HEAD_D)
    q = tl.load(q_ptr + offs_m[:, None] * stride_s + offs_d[None, :],
                mask=offs_m[:, None] < seq, other=0.0)
    m_i = tl.full([BLOCK_M], -float("inf"), dtype=tl.float32)
    l_i = tl.zeros([BLOCK_M], dtype=tl.float32)
    acc = tl.zeros([BLOCK_M, HEAD_D], dtype=tl.float32)
    qk_scale = sm_scale * 1.44269504  # log2(e): exp(x) = exp2(x * log2(e))
    for start_n in range(0, seq, BLOCK_N):
        cols = start_n + offs_n
        kt = tl.load(k_ptr + cols[None, :] * stride_s + offs_d[:, None],
                     mask=cols[None, :] < seq, other=0.0)
        qk = tl.dot(q, kt)
        qk = tl.where(cols[None, :] < seq, qk * qk_scale, -float("inf"))
        m_ij = tl.maximum(m_i, tl.max(qk, 1))
        p = tl.math.exp2(qk - m_ij[:, None])
        alpha = tl.math.exp2(m_i - m_ij)
        l_i = l_i * alpha + tl.sum(p, 1)
        v = tl.load(v_ptr + cols[:, None] * stride_s + offs_d[None, :],
                    mask=cols[:, None] < seq, other=0.0)
        acc = tl.dot(p.to(tl.float16), v, acc * alpha[:, None])
        m_i = m_ij
    tl.store(o_ptr + offs_m[:, None] * stride_s + offs_d[None, :], acc / l_i[:, None],
             mask=offs_m[:, None] < seq)



@triton.jit
def matmul_tf32(a_ptr, b_ptr, c_ptr, M, N, K, stride_am, stride_ak, stride_bk, stride_bn,
                stride_cm, stride_cn, BM: tl.constexpr, BN: tl.constexpr, BK: tl.constexpr):
    # fp32 A and B: tl.dot's default input_precision "tf32" runs the tensor cores on the
    # raw fp32 bits (mma.sync m16n8k8 .tf32, no cvt.rna.tf32.f32), fp32 accumulator
    acc, rm, rn = _matmul_tile(a_ptr, b_ptr, M, N, K, stride_am, stride_ak, stride_bk,
                               stride_bn, BM, BN, BK)
    mask = (rm[:, None] < M) & (rn[None, :] < N)
    tl.store(c_ptr + rm[:, None] * stride_cm + rn[None, :] * stride_cn, acc, mask=mask)


@triton.jit
def matmul_i8(a_ptr, b_ptr, c_ptr, M, N, K, stride_am, stride_ak, stride_bk, stride_bn,
              stride_cm, stride_cn, BM: tl.constexpr, BN: tl.constexpr, BK: tl.constexpr):
    # int8 A and B, int32 accumulator and output: mma.sync m16n8k32 .satfinite.s32.s8.s8
    pid_m = tl.program_id(0)
    pid_n = tl.program_id(1)
    rm = pid_m * BM + tl.arange(0, BM)
    rn = pid_n * BN + tl.arange(0, BN)
    rk = tl.arange(0, BK)
    acc = tl.zeros((BM, BN), dtype=tl.int32)
    for k in range(0, K, BK):
        ka = k + rk
        a = tl.load(a_ptr + rm[:, None] * stride_am + ka[None, :] * stride_ak,
                    mask=(rm[:, None] < M) & (ka[None, :] < K), other=0)
        b = tl.load(b_ptr + ka[:, None] * stride_bk + rn[None, :] * stride_bn,
                    mask=(ka[:, None] < K) & (rn[None, :] < N), other=0)
        acc = tl.dot(a, b, acc)
    mask = (rm[:, None] < M) & (rn[None, :] < N)
    tl.store(c_ptr + rm[:, None] * stride_cm + rn[None, :] * stride_cn, acc, mask=mask)

@dataclass(frozen=True)
class Kernel:
    """One kernel to compile: the JIT function, its signature and constants."""

    fn: Any
    signature: dict[str, str]
    constexprs: dict[str, int] = field(default_factory=dict)
    num_warps: int = 4

    @property
    def name(self) -> str:
        return str(self.fn.__name__)


def _mm_sig(ab: str, c: str) -> dict[str, str]:
    """The matmul kernels' signature: A and B of type ``ab``, C of type ``c``."""
    sig = {"a_ptr": ab, "b_ptr": ab, "c_ptr": c}
    for p in ("M", "N", "K", "stride_am", "stride_ak", "stride_bk", "stride_bn",
              "stride_cm", "stride_cn"):
        sig[p] = "i32"
    return sig


KERNELS: list[Kernel] = [
    Kernel(vector_add, {"x_ptr": "*fp32", "y_ptr": "*fp32", "out_ptr": "*fp32", "n": "i32"},
           {"BLOCK": 256}),
    Kernel(axpy, {"alpha": "fp32", "x_ptr": "*fp32", "y_ptr": "*fp32", "n": "i32"},
           {"BLOCK": 128}, num_warps=2),
    Kernel(fused_relu_bias,
           {"x_ptr": "*fp32", "b_ptr": "*fp32", "out_ptr": "*fp32", "n": "i32", "cols": "i32"},
           {"BLOCK": 128}),
    Kernel(softmax, {"x_ptr": "*fp32", "out_ptr": "*fp32", "stride": "i32", "n_cols": "i32"},
           {"BLOCK": 128}, num_warps=2),
    Kernel(layernorm,
           {"x_ptr": "*fp32", "w_ptr": "*fp32", "b_ptr": "*fp32", "out_ptr": "*fp32",
            "stride": "i32", "n_cols": "i32", "eps": "fp32"},
           {"BLOCK": 128}, num_warps=2),
    Kernel(atomic_sum, {"x_ptr": "*i32", "total_ptr": "*i32", "n": "i32"}, {"BLOCK": 256}),
    Kernel(row_sum, {"x_ptr": "*fp32", "out_ptr": "*fp32", "n_cols": "i32"}, {"BLOCK": 64},
           num_warps=1),
    Kernel(cumsum, {"x_ptr": "*i32", "out_ptr": "*i32", "n": "i32"}, {"BLOCK": 128}),
    Kernel(philox_rand, {"seed": "i32", "ints_ptr": "*u32", "floats_ptr": "*fp32", "n": "i32"},
           {"BLOCK": 128}),
    Kernel(argmax_rows, {"x_ptr": "*fp32", "out_ptr": "*i32", "n_cols": "i32"}, {"BLOCK": 64},
           num_warps=1),
    Kernel(transpose,
           {"x_ptr": "*fp32", "out_ptr": "*fp32", "rows": "i32", "cols": "i32",
            "stride_xr": "i32", "stride_xc": "i32", "stride_or": "i32", "stride_oc": "i32"},
           {"BM": 16, "BN": 16}, num_warps=2),
    Kernel(int_hash, {"x_ptr": "*u32", "out_ptr": "*u32", "n": "i32"}, {"BLOCK": 128}),
    Kernel(where_clamp,
           {"x_ptr": "*fp32", "out_ptr": "*fp32", "lo": "fp32", "hi": "fp32", "n": "i32"},
           {"BLOCK": 128}),
    Kernel(half_scale,
           {"x_ptr": "*fp16", "y_ptr": "*fp16", "out_ptr": "*fp16", "scale": "fp32", "n": "i32"},
           {"BLOCK": 256}),
    Kernel(matmul, _mm_sig("*fp16", "*fp32"), {"BM": 32, "BN": 32, "BK": 16}),
    Kernel(matmul_f16out, _mm_sig("*fp16", "*fp16"), {"BM": 16, "BN": 16, "BK": 16},
           num_warps=1),
    Kernel(matmul_bf16, _mm_sig("*bf16", "*fp32"), {"BM": 32, "BN": 16, "BK": 16},
           num_warps=2),
    Kernel(matmul_m64, _mm_sig("*fp16", "*fp32"), {"BM": 64, "BN": 16, "BK": 16}),
    Kernel(attention_fwd,
           {"q_ptr": "*fp16", "k_ptr": "*fp16", "v_ptr": "*fp16", "o_ptr": "*fp32",
            "sm_scale": "fp32", "seq": "i32", "stride_s": "i32"},
           {"BLOCK_M": 16, "BLOCK_N": 16, "HEAD_D": 16}, num_warps=1),
    Kernel(matmul_tf32, _mm_sig("*fp32", "*fp32"), {"BM": 32, "BN": 32, "BK": 16}),
    Kernel(matmul_i8, _mm_sig("*i8", "*i32"), {"BM": 32, "BN": 32, "BK": 32}),
]
