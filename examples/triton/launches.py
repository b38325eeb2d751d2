"""Launch table for the Triton examples (``examples/triton/kernels.py``).

One :class:`TritonLaunch` (the CUDA examples' ``Launch``, with the PTX looked up as
``examples/triton/ptx/ARCH/KERNEL.ptx``) per kernel: how to run it in ori's interpreter and
what numpy says it must leave. ``make_args`` returns the arguments in PTX parameter order:
Triton 3.9 appends two ``.u64 .ptr .global`` parameters to every kernel (its global
scratch and profile scratch buffers), so every argument list ends with two small zero
arrays (:func:`_scratch`); no kernel here uses them (both sizes are 0), and the
references check that they stay zero.

The block is ``32 * num_warps`` threads (Triton's ``.reqntid``); a grid of a few
programs keeps each launch fast in the Python interpreter. ``shared_bytes`` is the
dynamic shared memory Triton's launcher would pass (``metadata.shared``) for the kernels
that declare ``.extern .shared .b8 global_smem[]``.

Exactness (see the CUDA table's docstring): every kernel is bit-exact except
``softmax``, ``layernorm`` and ``attention_fwd``, which use MUFU approximations
(``ex2.approx``, ``sqrt.approx``) and ``div.full.f32`` (within 2 ulp), and record
tolerances. The ``tl.dot`` matmuls are bit-exact against ori's tensor-core numeric
models (the hardware's rule as measured on an H200, one and the same for HMMA where
Triton emits ``mma.sync`` and for HGMMA where it emits ``wgmma`` on sm_90a), and each
``tl.dot`` kernel also states a bound against float64 (``float64``).
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass
from pathlib import Path
from typing import Any

import numpy as np

from examples.cuda.launches import Launch

TRITON_DIR = Path(__file__).resolve().parent
PTX_DIR = TRITON_DIR / "ptx"
ARCHS = ("sm_80", "sm_90a")

Args = list[Any]
M32 = (1 << 32) - 1


@dataclass(frozen=True)
class TritonLaunch(Launch):
    """A :class:`Launch` whose PTX is ``examples/triton/ptx/ARCH/KERNEL.ptx``."""

    float64: Callable[[Args], Args] | None = None
    """The results in float64 arithmetic, for the ``tl.dot`` kernels: a check of the
    reference's numeric model itself, within ``float64_rtol``/``float64_atol``."""
    float64_rtol: float = 0.0
    float64_atol: float = 0.0
    arch_expected: tuple[tuple[str, Callable[[Args], Args]], ...] = ()
    """``(arch, expected)`` pairs that replace ``expected`` on that arch: for an arch
    where Triton picks another instruction whose numeric model differs.  None does
    today: wgmma on sm_90a rounds as mma.sync (measured on an H200)."""

    def expected_for(self, arch: str) -> Callable[[Args], Args]:
        return dict(self.arch_expected).get(arch, self.expected)

    def ptx_path(self, arch: str) -> Path:
        return PTX_DIR / arch / f"{self.kernel}.ptx"


# ----------------------------------------------------------------------------- helpers


def _g(x: int, y: int = 1) -> tuple[int, int, int]:
    return (x, y, 1)


def _scratch() -> list[np.ndarray]:
    """Triton's global-scratch and profile-scratch buffers (unused: size 0)."""
    return [np.zeros(4, np.uint8), np.zeros(4, np.uint8)]


def _with_scratch(outs: Args) -> Args:
    # the scratch buffers must come back untouched
    return [*outs, np.zeros(4, np.uint8), np.zeros(4, np.uint8)]


def _dyadic_f32(rng: np.random.Generator, n: int, lo: int = -64, hi: int = 64) -> np.ndarray:
    return (rng.integers(lo, hi, n) / 4).astype(np.float32)


def _blocks(n: int, b: int) -> int:
    return (n + b - 1) // b


# ----------------------------------------------------------------------------- elementwise

N_ADD = 1000


def _add_args(rng: np.random.Generator) -> Args:
    n = N_ADD
    return [_dyadic_f32(rng, n), _dyadic_f32(rng, n), np.zeros(n, np.float32), np.int32(n),
            *_scratch()]


def _add_exp(args: Args) -> Args:
    x, y = args[0], args[1]
    return _with_scratch([None, None, x + y, None])


N_AXPY = 200


def _axpy_args(rng: np.random.Generator) -> Args:
    n = N_AXPY
    return [np.float32(-1.25), _dyadic_f32(rng, n), _dyadic_f32(rng, n), np.int32(n),
            *_scratch()]


def _axpy_exp(args: Args) -> Args:
    # fma.rn: the dyadic inputs make alpha * x + y exact in float64, so one rounding
    alpha, x, y = args[0], args[1], args[2]
    out = (np.float64(alpha) * x.astype(np.float64) + y.astype(np.float64)).astype(np.float32)
    return _with_scratch([None, None, out, None])


N_RELU, RELU_COLS = 300, 7


def _relu_args(rng: np.random.Generator) -> Args:
    n = N_RELU
    return [_dyadic_f32(rng, n), _dyadic_f32(rng, RELU_COLS), np.zeros(n, np.float32),
            np.int32(n), np.int32(RELU_COLS), *_scratch()]


def _relu_exp(args: Args) -> Args:
    x, b = args[0], args[1]
    bias = b[np.arange(len(x)) % RELU_COLS]
    out = np.maximum(x * np.float32(2) + bias, np.float32(0)).astype(np.float32)
    return _with_scratch([None, None, out, None, None])


N_CLAMP = 256


def _clamp_args(rng: np.random.Generator) -> Args:
    x = _dyadic_f32(rng, N_CLAMP, -16, 16)
    x[::17] = np.nan
    x[5] = np.float32(-0.0)
    return [x, np.zeros(N_CLAMP, np.float32), np.float32(-1.5), np.float32(2.0),
            np.int32(N_CLAMP), *_scratch()]


def _clamp_exp(args: Args) -> Args:
    x, lo, hi = args[0], args[2], args[3]
    y = np.where(x < lo, lo, np.where(x > hi, hi, x))
    out = np.where(np.isnan(x), np.float32(0), y).astype(np.float32)
    return _with_scratch([None, out, None, None, None])


N_HALF = 500


def _half_args(rng: np.random.Generator) -> Args:
    def f16(n: int) -> np.ndarray:
        return rng.uniform(-8, 8, n).astype(np.float16)

    return [f16(N_HALF), f16(N_HALF), np.zeros(N_HALF, np.float16), np.float32(0.75),
            np.int32(N_HALF), *_scratch()]


def _half_exp(args: Args) -> Args:
    # fma.rn.f32 then cvt.rn.f16.f32: f16 * 0.75 + f16 is exact in float64 (the
    # operands' bits span < 53), so float64 -> float32 -> float16 is the two roundings
    # the kernel does, in its order.
    x, y, scale = args[0], args[1], args[3]
    exact = x.astype(np.float64) * np.float64(scale) + y.astype(np.float64)
    out = exact.astype(np.float32).astype(np.float16)
    return _with_scratch([None, None, out, None, None])


# ----------------------------------------------------------------------------- rows

SM_ROWS, SM_COLS, SM_STRIDE = 3, 100, 104


def _softmax_args(rng: np.random.Generator) -> Args:
    x = rng.uniform(-4, 4, SM_ROWS * SM_STRIDE).astype(np.float32)
    return [x, np.zeros(SM_ROWS * SM_STRIDE, np.float32), np.int32(SM_STRIDE),
            np.int32(SM_COLS), *_scratch()]


def _softmax_exp(args: Args) -> Args:
    x = args[0].reshape(SM_ROWS, SM_STRIDE).astype(np.float64)
    out = np.zeros((SM_ROWS, SM_STRIDE), np.float64)
    row = x[:, :SM_COLS]
    e = np.exp(row - row.max(axis=1, keepdims=True))
    out[:, :SM_COLS] = e / e.sum(axis=1, keepdims=True)
    return _with_scratch([None, out.astype(np.float32).ravel(), None, None])


LN_ROWS, LN_COLS, LN_STRIDE = 3, 100, 100


def _ln_args(rng: np.random.Generator) -> Args:
    x = rng.uniform(-2, 2, LN_ROWS * LN_STRIDE).astype(np.float32)
    w = rng.uniform(0.5, 1.5, LN_COLS).astype(np.float32)
    b = rng.uniform(-1, 1, LN_COLS).astype(np.float32)
    return [x, w, b, np.zeros(LN_ROWS * LN_STRIDE, np.float32), np.int32(LN_STRIDE),
            np.int32(LN_COLS), np.float32(1e-5), *_scratch()]


def _ln_exp(args: Args) -> Args:
    x = args[0].reshape(LN_ROWS, LN_STRIDE)[:, :LN_COLS].astype(np.float64)
    w, b, eps = args[1].astype(np.float64), args[2].astype(np.float64), float(args[6])
    d = x - x.mean(axis=1, keepdims=True)
    var = (d * d).mean(axis=1, keepdims=True)
    out = np.zeros((LN_ROWS, LN_STRIDE), np.float64)
    out[:, :LN_COLS] = d / np.sqrt(var + eps) * w + b
    return _with_scratch([None, None, None, out.astype(np.float32).ravel(), None, None, None])


RS_ROWS, RS_COLS = 6, 50


def _rowsum_args(rng: np.random.Generator) -> Args:
    return [_dyadic_f32(rng, RS_ROWS * RS_COLS), np.zeros(RS_ROWS, np.float32),
            np.int32(RS_COLS), *_scratch()]


def _rowsum_exp(args: Args) -> Args:
    # quarters in [-16, 16): every partial sum is exact, so the tree order is irrelevant
    sums = args[0].reshape(RS_ROWS, RS_COLS).astype(np.float64).sum(axis=1)
    return _with_scratch([None, sums.astype(np.float32), None])


AM_ROWS, AM_COLS = 6, 50


def _argmax_args(rng: np.random.Generator) -> Args:
    # few distinct values: ties are common, and tl.argmax breaks them to the left
    x = rng.integers(-8, 8, AM_ROWS * AM_COLS).astype(np.float32)
    return [x, np.zeros(AM_ROWS, np.int32), np.int32(AM_COLS), *_scratch()]


def _argmax_exp(args: Args) -> Args:
    idx = args[0].reshape(AM_ROWS, AM_COLS).argmax(axis=1).astype(np.int32)
    return _with_scratch([None, idx, None])


# ----------------------------------------------------------------------------- reductions

N_ATOMIC = 1000


def _atomic_args(rng: np.random.Generator) -> Args:
    x = rng.integers(-1000, 1000, N_ATOMIC).astype(np.int32)
    return [x, np.array([7], np.int32), np.int32(N_ATOMIC), *_scratch()]


def _atomic_exp(args: Args) -> Args:
    total = np.array([7 + int(args[0].astype(np.int64).sum())], np.int32)
    return _with_scratch([None, total, None])


N_SCAN, SCAN_BLOCK = 300, 128


def _scan_args(rng: np.random.Generator) -> Args:
    x = rng.integers(-100, 100, N_SCAN).astype(np.int32)
    return [x, np.zeros(N_SCAN, np.int32), np.int32(N_SCAN), *_scratch()]


def _scan_exp(args: Args) -> Args:
    x = args[0]
    out = np.concatenate([np.cumsum(x[i:i + SCAN_BLOCK]) for i in range(0, N_SCAN, SCAN_BLOCK)])
    return _with_scratch([None, out.astype(np.int32), None])


# ----------------------------------------------------------------------------- integers

PHILOX_A, PHILOX_B = 0xD2511F53, 0xCD9E8D57
KEY_A, KEY_B = 0x9E3779B9, 0xBB67AE85
N_RAND, RAND_SEED = 300, 0x2F6A1C35


def philox4x32(
    ctr: tuple[np.ndarray, np.ndarray, np.ndarray, np.ndarray], key: tuple[int, int],
    rounds: int = 10,
) -> tuple[np.ndarray, np.ndarray, np.ndarray, np.ndarray]:
    """Philox4x32 (Salmon et al., SC 2011) as Triton's ``philox_impl`` writes it:
    ``rounds`` rounds on the counter words ``ctr`` (uint32 arrays) with the key
    ``(k0, k1)``, bumped by the Weyl constants after every round."""
    m32 = np.uint64(M32)
    c0, c1, c2, c3 = (np.asarray(c).astype(np.uint64) & m32 for c in ctr)
    k0, k1 = np.uint64(key[0] & M32), np.uint64(key[1] & M32)
    a, b = np.uint64(PHILOX_A), np.uint64(PHILOX_B)
    for _ in range(rounds):
        pa, pb = a * c0, b * c2  # < 2**64: products of two 32-bit words
        c0, c1, c2, c3 = (
            (pb >> np.uint64(32)) ^ c1 ^ k0,
            pb & m32,
            (pa >> np.uint64(32)) ^ c3 ^ k1,
            pa & m32,
        )
        k0 = (k0 + np.uint64(KEY_A)) & m32
        k1 = (k1 + np.uint64(KEY_B)) & m32
    return c0.astype(np.uint32), c1.astype(np.uint32), c2.astype(np.uint32), c3.astype(np.uint32)


def philox(seed: int, offsets: np.ndarray) -> np.ndarray:
    """Triton's ``tl.randint(seed, offsets)`` for int32 offsets and a non-negative seed:
    the first word of Philox4x32-10 on the counter ``(offset, 0, 0, 0)`` with the key
    ``(seed_lo, seed_hi)``."""
    lo = offsets.astype(np.int64).astype(np.uint64) & np.uint64(M32)
    zero = np.zeros_like(lo)
    return philox4x32((lo, zero, zero, zero), (seed & M32, seed >> 32))[0]


def uniform_float(bits: np.ndarray) -> np.ndarray:
    """Triton's ``uint_to_uniform_float`` for 32-bit words: ``~x`` for negative
    int32 ``x``, then ``cvt.rn.f32.s32`` and one f32 multiply."""
    x = bits.view(np.int32)
    x = np.where(x < 0, ~x, x)
    return (x.astype(np.float32) * np.float32(4.6566127342e-10)).astype(np.float32)


def _rand_args(rng: np.random.Generator) -> Args:
    return [np.int32(RAND_SEED), np.zeros(N_RAND, np.uint32), np.zeros(N_RAND, np.float32),
            np.int32(N_RAND), *_scratch()]


def _rand_exp(args: Args) -> Args:
    offs = np.arange(N_RAND, dtype=np.int32)
    ints = philox(RAND_SEED, offs)
    floats = uniform_float(philox(RAND_SEED, offs + N_RAND))
    return _with_scratch([None, ints, floats, None])


N_HASH = 256


def _hash_args(rng: np.random.Generator) -> Args:
    x = rng.integers(0, 1 << 32, N_HASH, dtype=np.uint64).astype(np.uint32)
    return [x, np.zeros(N_HASH, np.uint32), np.int32(N_HASH), *_scratch()]


def _c_divmod(a: np.ndarray, b: int) -> tuple[np.ndarray, np.ndarray]:
    """C's truncating division and remainder (Triton's ``//`` and ``%`` on ints)."""
    q = np.abs(a) // b * np.sign(a)
    return q, a - q * b


def _hash_exp(args: Args) -> Args:
    h = args[0].astype(np.uint64)
    m = np.uint64(M32)
    h ^= h >> np.uint64(16)
    h = (h * np.uint64(0x85EBCA6B)) & m
    h ^= h >> np.uint64(13)
    h = (h * np.uint64(0xC2B2AE35)) & m
    h ^= h >> np.uint64(16)
    s = h.astype(np.uint32).view(np.int32).astype(np.int64)
    q, _ = _c_divmod(s, 7)
    _, r = _c_divmod(s, 13)
    mixed = (q + r + np.arange(N_HASH)) & M32
    out = (mixed.astype(np.uint64) ^ h).astype(np.uint32)
    return _with_scratch([None, out, None])


TR_ROWS, TR_COLS, TR_B = 20, 24, 16


def _transpose_args(rng: np.random.Generator) -> Args:
    x = _dyadic_f32(rng, TR_ROWS * TR_COLS)
    # out is cols x rows, row-major: out[c, r] at c * rows + r
    return [x, np.zeros(TR_ROWS * TR_COLS, np.float32), np.int32(TR_ROWS), np.int32(TR_COLS),
            np.int32(TR_COLS), np.int32(1), np.int32(TR_ROWS), np.int32(1), *_scratch()]


def _transpose_exp(args: Args) -> Args:
    out = args[0].reshape(TR_ROWS, TR_COLS).T.copy().ravel()
    return _with_scratch([None, out, None, None, None, None, None, None])


# ----------------------------------------------------------------------------- tl.dot
#
# Triton lowers tl.dot on sm_80 (and on sm_90a for tiles of fewer than 64 rows) to
# ldmatrix + mma.sync.m16n8k16, one MMA per 16-wide K step of each BK block, k ascending,
# the K loop carrying the fp32 accumulator; on sm_90a matmul_m64 becomes
# wgmma.mma_async.m64n16k16, again one per 16-wide K step. HMMA and HGMMA round alike,
# once per instruction over its 16 products (HmmaOp's rule, _mma_step): _mma_model
# chains it over the 16-wide steps, written out here independently of the interpreter's
# code, bit-exact, for both archs. On an H200, ptxas's code for matmul and matmul_bf16
# gave exactly these results (with wmma_f16_f32 and mma_ldmatrix_gemm of examples/tensor,
# the evidence for the rule's f16/bf16 form), and so did its sm_90a code for matmul_m64
# (tests/interpreter/test_wgmma_hardware.py, with single wgmma instructions). The masked
# tail of a K block loads zeros: zero products, which do not count for E.


def _expo(x: np.ndarray, emin: int) -> np.ndarray:
    nz = x != 0
    return np.where(nz, np.maximum(np.frexp(np.where(nz, x, 1.0))[1] - 1, emin), -100000)


def _mma_step(acc: np.ndarray, a: np.ndarray, b: np.ndarray, emin: int) -> np.ndarray:
    """One mma.sync on a whole tile: ``acc`` (M, N) float32 plus ``a`` (M, k) @ ``b``
    (k, N), f16, bf16 or tf32 values, k the MMA's K (16 for m16n8k16, 8 for the tf32
    m16n8k8). The terms (acc and the k exact products) are cut toward zero to a multiple
    of 2**(E - 25), E the largest exponent among acc's and the products' exponent sums
    e(a) + e(b), added exactly, and the sum cut toward zero to float32 (a subnormal's
    exponent counts as ``emin``, -14 for f16, -126 for bf16, tf32 and acc's f32; these
    inputs have no infinities, NaNs or overflow, whose rules HmmaOp states)."""
    a64, b64, c64 = a.astype(np.float64), b.astype(np.float64), acc.astype(np.float64)
    prods = a64[:, None, :] * b64.T[None, :, :]  # (M, N, k), exact
    pe = np.where(prods != 0, _expo(a64, emin)[:, None, :] + _expo(b64, emin).T[None, :, :],
                  -100000)
    e = np.maximum(pe.max(axis=2), _expo(c64, -126))
    q = np.ldexp(1.0, e - 25)[:, :, None]
    terms = np.concatenate([c64[:, :, None], prods], axis=2)
    total = (np.trunc(terms / q) * q).sum(axis=2)  # exact: < 2**32 units of q
    near = total.astype(np.float32)
    return np.where(np.abs(near.astype(np.float64)) > np.abs(total),
                    np.nextafter(near, np.float32(0)), near).astype(np.float32)


def _mma_model(a: np.ndarray, b: np.ndarray, bk: int, emin: int, step: int = 16) -> np.ndarray:
    """A @ B as the MMA chain computes it: A (M, K) and B (K, N) zero-padded to a multiple
    of ``bk`` in K, one MMA per ``step`` k in ascending order from +0.0."""
    k = a.shape[1]
    kp = _blocks(k, bk) * bk
    a32 = np.zeros((a.shape[0], kp), np.float32)
    b32 = np.zeros((kp, b.shape[1]), np.float32)
    a32[:, :k], b32[:k] = a, b  # f16/bf16/tf32 -> f32 is exact
    acc = np.zeros((a.shape[0], b.shape[1]), np.float32)
    for k0 in range(0, kp, step):
        acc = _mma_step(acc, a32[:, k0:k0 + step], b32[k0:k0 + step], emin)
    return acc


def _f16(rng: np.random.Generator, n: int, lo: float = -2, hi: float = 2) -> np.ndarray:
    return rng.uniform(lo, hi, n).astype(np.float16)


def _f16_q10(rng: np.random.Generator, n: int) -> np.ndarray:
    """fp16 multiples of 2**-10 in [-2, 2]: products are multiples of 2**-20 below 4, so
    every sum of up to 2**10 of them (and of an f32 accumulator below 2**7, itself a
    multiple of 2**-17) is exact in float64, while float32 (24 bits) must round: the
    tensor cores' truncations and a float64 k16 sum rounded to nearest (ori's former
    HGMMA model) then differ, on 22 of matmul_m64's 2048 outputs, and the H200 gave
    the former."""
    return (np.round(rng.uniform(-2, 2, n) * 1024) / 1024).astype(np.float16)


def _bf16_bits(rng: np.random.Generator, n: int) -> np.ndarray:
    """bf16 values as uint16 bit patterns (float32 values truncated to 8 significant bits)."""
    f = rng.uniform(-2, 2, n).astype(np.float32)
    return (f.view(np.uint32) >> 16).astype(np.uint16)


def _bf16_value(bits: np.ndarray) -> np.ndarray:
    return (bits.astype(np.uint32) << 16).view(np.float32)


@dataclass(frozen=True)
class _Gemm:
    """One matmul launch: C (M x N, row-major) = A (M x K) @ B (K x N), both row-major."""

    m: int
    n: int
    k: int
    bm: int
    bn: int
    bk: int
    ab: str  # "f16", "f16q10" (_f16_q10) or "bf16" (travels as uint16 bit patterns)
    out: type  # np.float32 or np.float16

    @property
    def grid(self) -> tuple[int, int, int]:
        return _g(_blocks(self.m, self.bm), _blocks(self.n, self.bn))

    def args(self, rng: np.random.Generator) -> Args:
        if self.ab == "bf16":
            a, b = _bf16_bits(rng, self.m * self.k), _bf16_bits(rng, self.k * self.n)
        elif self.ab == "f16q10":
            a, b = _f16_q10(rng, self.m * self.k), _f16_q10(rng, self.k * self.n)
        else:
            a, b = _f16(rng, self.m * self.k), _f16(rng, self.k * self.n)
        i32 = np.int32
        return [a, b, np.zeros(self.m * self.n, self.out), i32(self.m), i32(self.n),
                i32(self.k), i32(self.k), i32(1), i32(self.n), i32(1), i32(self.n), i32(1),
                *_scratch()]

    def operands(self, args: Args) -> tuple[np.ndarray, np.ndarray]:
        a, b = args[0], args[1]
        if self.ab == "bf16":
            a, b = _bf16_value(a), _bf16_value(b)
        return a.reshape(self.m, self.k), b.reshape(self.k, self.n)

    def _outs(self, c: np.ndarray) -> Args:
        return _with_scratch([None, None, c.astype(self.out).ravel(), *[None] * 9])

    def expected(self, args: Args) -> Args:
        # fp16 output: the f32 accumulator is rounded once (cvt.rn.f16.f32)
        emin = -126 if self.ab == "bf16" else -14
        return self._outs(_mma_model(*self.operands(args), self.bk, emin))

    def exact64(self, args: Args) -> Args:
        a, b = self.operands(args)
        out = _with_scratch([None, None, a.astype(np.float64) @ b.astype(np.float64),
                             *[None] * 9])
        out[2] = out[2].ravel()
        return out


# |HMMA model - exact|: inputs in [-2, 2] keep every product, running sum and so 2**E at
# most 4K; per m16n8k16 the 17 truncated terms lose < 2**(E - 25) each and the cut to
# float32 < 2**-23 of the sum, 21 * 2**-25 * 4K, over ceil(K / 16) MMAs (K = 32: 1.6e-4).
# HGMMA rounds alike (matmul_m64 on sm_90a). An fp16 output adds half an fp16 ulp, a
# relative 2**-11.
MM = _Gemm(32, 32, 32, 32, 32, 16, "f16", np.float32)
MM_F16 = _Gemm(24, 20, 40, 16, 16, 16, "f16", np.float16)  # masked M, N and K tails
MM_BF16 = _Gemm(32, 32, 32, 32, 16, 16, "bf16", np.float32)
MM_M64 = _Gemm(64, 32, 32, 64, 16, 16, "f16q10", np.float32)


def _gemm_atol(g: _Gemm) -> float:
    return _blocks(g.k, 16) * 21 * 2.0**-25 * 4.0 * g.k


# ----------------------------------------------------------------------------- tf32 / int8 tl.dot
#
# matmul_tf32: tl.dot on fp32 A and B with Triton's default input_precision "tf32" is
# ldmatrix + mma.sync.m16n8k8.f32.tf32.tf32.f32 on the raw fp32 bits (Triton emits no
# cvt.rna.tf32.f32: the tensor cores ignore the low 13 mantissa bits), two MMAs per
# BK = 16 step per 16x8 tile, k ascending, each accumulating into the last.
# _tf32_model chains HMMA's tf32 model (ori_dialect/ops/tensor.py, HmmaOp; measured
# bit-exact on an H200) over those k8 steps: written out here independently of the
# interpreter's code. matmul_i8: tl.dot on int8 is mma.sync.m16n8k32.satfinite.s32.s8.s8
# (IMMA.16832.S8.S8.SAT), exact; the inputs keep every sum far from the int32 bounds, so
# saturation never triggers here (tests/interpreter/test_mma_hardware.py covers it).
# Both expected results were also checked on an NVIDIA H200: the sm_90a PTX compiled by
# ptxas 13.0 and run with these inputs gave them bit for bit.


def _tf32_operand(x: np.ndarray) -> np.ndarray:
    """fp32 values as the tensor cores read them: the low 13 mantissa bits dropped."""
    return (np.asarray(x, np.float32).view(np.uint32) & np.uint32(0xFFFFE000)).view(np.float32)


def _tf32_model(a: np.ndarray, b: np.ndarray, bk: int) -> np.ndarray:
    """A @ B as matmul_tf32's MMA chain computes it: A (M, K), B (K, N) fp32, zero-padded
    to a multiple of ``bk`` in K, one tf32 MMA per 8 k in ascending order from +0.0."""
    return _mma_model(_tf32_operand(a), _tf32_operand(b), bk, -126, step=8)


@dataclass(frozen=True)
class _GemmTf32(_Gemm):
    """An fp32 matmul through tf32 tensor cores (``ab`` is "f32")."""

    def args(self, rng: np.random.Generator) -> Args:
        a = rng.uniform(-2, 2, self.m * self.k).astype(np.float32)
        b = rng.uniform(-2, 2, self.k * self.n).astype(np.float32)
        i32 = np.int32
        return [a, b, np.zeros(self.m * self.n, np.float32), i32(self.m), i32(self.n),
                i32(self.k), i32(self.k), i32(1), i32(self.n), i32(1), i32(self.n), i32(1),
                *_scratch()]

    def expected(self, args: Args) -> Args:
        return self._outs(_tf32_model(*self.operands(args), self.bk))


@dataclass(frozen=True)
class _GemmI8(_Gemm):
    """An int8 matmul with an int32 result (``ab`` is "i8", ``out`` np.int32)."""

    def args(self, rng: np.random.Generator) -> Args:
        a = rng.integers(-128, 128, self.m * self.k).astype(np.int8)
        b = rng.integers(-128, 128, self.k * self.n).astype(np.int8)
        i32 = np.int32
        return [a, b, np.zeros(self.m * self.n, np.int32), i32(self.m), i32(self.n),
                i32(self.k), i32(self.k), i32(1), i32(self.n), i32(1), i32(self.n), i32(1),
                *_scratch()]

    def expected(self, args: Args) -> Args:
        a, b = self.operands(args)
        exact = a.astype(np.int64) @ b.astype(np.int64)
        assert np.abs(exact).max() < 2**31  # .satfinite never clamps these inputs
        return self._outs(exact.astype(np.int32))


# |model - exact| <= sum_k |a_k b_k| (2**-9 + 2**-20) from the operands' truncation (each
# loses < 2**-10 of itself) plus, per k8 MMA, < 2**-18 of the running sum for the
# terms' truncation and the final cut: inputs in [-2, 2] bound sum_k |a_k b_k| and every
# partial sum by 4K, so an absolute 4K (2**-9 + 2**-20) + (K / 8) 4K 2**-18 (K = 40:
# 0.316). What the tensor cores lose is the operands' 13 bits, not the accumulation.
MM_TF32 = _GemmTf32(32, 32, 40, 32, 32, 16, "f32", np.float32)  # masked K tail
MM_I8 = _GemmI8(32, 32, 80, 32, 32, 32, "i8", np.int32)  # masked K tail


def _tf32_atol(g: _Gemm) -> float:
    return 4.0 * g.k * (2.0**-9 + 2.0**-20) + (g.k / 8) * 4.0 * g.k * 2.0**-18


# ----------------------------------------------------------------------------- attention

ATT_SEQ, ATT_D, ATT_BM, ATT_BN = 24, 16, 16, 16
ATT_SCALE = 0.25  # 1 / sqrt(head dim)
LOG2E = 1.44269504
# Against _att_exp (the kernel's algorithm with the fp16 rounding of P): the dots' HMMA
# truncation (HmmaOp: a few f32 ulps of each m16n8k16's largest term), float32 rounding
# of the softmax updates, ex2.approx (2 ulp) and div.full (2 ulp), on outputs below 2 in
# magnitude: a few f32 ulps of 2 (2.4e-7 each); the launch measures 3.0e-7 on both
# archs (5.4e-7 under the former k-order round-to-nearest HMMA model). (An element of P
# whose exponential lands on the other side of an fp16 rounding boundary would cost up
# to 2**-11 * max|V|; the inputs are fixed and no such element occurs, so the tolerance
# stays tight.)
ATT_ATOL = 2e-6
# Against exact float64 softmax: P in fp16 is off by at most 2**-12 relative, so the
# output by at most 2**-12 * max|V| = 2**-11 (V in [-2, 2]); plus the float32 terms.
ATT_F64_ATOL = 2.0**-11 + 1e-5


def _att_args(rng: np.random.Generator) -> Args:
    n = ATT_SEQ * ATT_D
    return [_f16(rng, n), _f16(rng, n), _f16(rng, n), np.zeros(n, np.float32),
            np.float32(ATT_SCALE), np.int32(ATT_SEQ), np.int32(ATT_D), *_scratch()]


def _att_qkv(args: Args) -> tuple[np.ndarray, np.ndarray, np.ndarray]:
    q, k, v = (a.reshape(ATT_SEQ, ATT_D).astype(np.float64) for a in args[:3])
    return q, k, v


def _att_exp(args: Args) -> Args:
    """The kernel's online softmax, block by block, in float64 but with P rounded to
    fp16 before the second dot as the kernel does (the one rounding that is far above
    float32's): what is left between this and the kernel is float32 rounding,
    ex2.approx, div.full and the rare P element that rounds to the other fp16
    neighbour because its exponential differs in the last f32 bit."""
    q, k, v = _att_qkv(args)
    scale = float(np.float32(np.float32(ATT_SCALE) * np.float32(LOG2E)))
    out = np.zeros((ATT_SEQ, ATT_D), np.float64)
    for r0 in range(0, ATT_SEQ, ATT_BM):
        rows = slice(r0, min(r0 + ATT_BM, ATT_SEQ))
        m = np.full(rows.stop - rows.start, -np.inf)
        l_sum = np.zeros_like(m)
        acc = np.zeros((len(m), ATT_D))
        for c0 in range(0, ATT_SEQ, ATT_BN):
            cols = slice(c0, min(c0 + ATT_BN, ATT_SEQ))
            qk = q[rows] @ k[cols].T * scale
            m_new = np.maximum(m, qk.max(axis=1))
            p = np.exp2(qk - m_new[:, None])
            alpha = np.exp2(m - m_new)
            l_sum = l_sum * alpha + p.sum(axis=1)
            acc = acc * alpha[:, None] + p.astype(np.float16).astype(np.float64) @ v[cols]
            m = m_new
        out[rows] = acc / l_sum[:, None]
    return _with_scratch([None, None, None, out.astype(np.float32).ravel(), None, None, None])


def _att_exact64(args: Args) -> Args:
    q, k, v = _att_qkv(args)
    s = q @ k.T * ATT_SCALE
    p = np.exp(s - s.max(axis=1, keepdims=True))
    out = (p / p.sum(axis=1, keepdims=True)) @ v
    return _with_scratch([None, None, None, out.ravel(), None, None, None])


# ----------------------------------------------------------------------------- table

LAUNCHES: list[TritonLaunch] = [
    TritonLaunch("kernels.py", "vector_add", _g(_blocks(N_ADD, 256)), _g(128),
                 _add_args, _add_exp, covers="masked fp32 loads/stores, 1-element vectors"),
    TritonLaunch("kernels.py", "axpy", _g(_blocks(N_AXPY, 128)), _g(64),
                 _axpy_args, _axpy_exp, covers="fp32 scalar parameter, fma contraction"),
    TritonLaunch("kernels.py", "fused_relu_bias", _g(_blocks(N_RELU, 128)), _g(128),
                 _relu_args, _relu_exp, covers="masked loads with other=, rem.s32, max.f32"),
    TritonLaunch("kernels.py", "softmax", _g(SM_ROWS), _g(64), _softmax_args, _softmax_exp,
                 shared_bytes=8, rtol=2e-6, atol=1e-7,
                 covers="row max/sum across warps via dynamic shared memory, ex2.approx, "
                        "div.full (tolerance: ex2.approx is within 2 ulp, div.full within "
                        "2 ulp, plus the rounding of x * log2(e))"),
    TritonLaunch("kernels.py", "layernorm", _g(LN_ROWS), _g(64), _ln_args, _ln_exp,
                 shared_bytes=8, rtol=2e-6, atol=2e-6,
                 covers="two reductions, sqrt.approx, div.full (tolerance: sqrt.approx and "
                        "div.full are approximations; the float32 sums round differently "
                        "from numpy's float64 reference)"),
    TritonLaunch("kernels.py", "atomic_sum", _g(_blocks(N_ATOMIC, 256)), _g(128),
                 _atomic_args, _atomic_exp, shared_bytes=16,
                 covers="redux.sync, cross-warp reduction, atom.global.add"),
    TritonLaunch("kernels.py", "row_sum", _g(RS_ROWS), _g(32), _rowsum_args, _rowsum_exp,
                 covers="single-warp shfl.bfly tree reduction"),
    TritonLaunch("kernels.py", "cumsum", _g(_blocks(N_SCAN, SCAN_BLOCK)), _g(128),
                 _scan_args, _scan_exp, shared_bytes=16,
                 covers="shfl.up scan, st.shared::cta/ld.shared::cta carries between warps"),
    TritonLaunch("kernels.py", "philox_rand", _g(_blocks(N_RAND, 128)), _g(128),
                 _rand_args, _rand_exp, covers="Philox4x32-10: mul.hi.u32, xor, int->float"),
    TritonLaunch("kernels.py", "argmax_rows", _g(AM_ROWS), _g(32), _argmax_args, _argmax_exp,
                 covers="argmax with ties (value, index) shuffle reduction"),
    TritonLaunch("kernels.py", "transpose", _g(_blocks(TR_ROWS, TR_B), _blocks(TR_COLS, TR_B)),
                 _g(64), _transpose_args, _transpose_exp,
                 covers="2D program ids, strided 2D masks"),
    TritonLaunch("kernels.py", "int_hash", _g(_blocks(N_HASH, 128)), _g(128),
                 _hash_args, _hash_exp, covers="u32 wraparound multiply, shifts, div/rem.s32"),
    TritonLaunch("kernels.py", "where_clamp", _g(_blocks(N_CLAMP, 128)), _g(128),
                 _clamp_args, _clamp_exp, covers="selects on NaN, -0.0, fp32 scalars"),
    TritonLaunch("kernels.py", "half_scale", _g(_blocks(N_HALF, 256)), _g(128),
                 _half_args, _half_exp, covers="fp16 loads/stores, cvt f16<->f32"),
    TritonLaunch("kernels.py", "matmul", MM.grid, _g(128), MM.args, MM.expected,
                 shared_bytes=4096, float64=MM.exact64, float64_atol=_gemm_atol(MM),
                 covers="tl.dot fp16 x fp16 -> fp32, 32x32x16 tile over 4 warps: "
                        "st.shared, ldmatrix(.trans), mma.sync m16n8k16 in a K loop"),
    TritonLaunch("kernels.py", "matmul_f16out", MM_F16.grid, _g(32), MM_F16.args,
                 MM_F16.expected, shared_bytes=1024, float64=MM_F16.exact64,
                 float64_rtol=2.0**-11, float64_atol=_gemm_atol(MM_F16),
                 covers="tl.dot, fp16 output (cvt.rn.f16.f32), 16x16x16 tiles in one warp, "
                        "masked M, N and K tails"),
    TritonLaunch("kernels.py", "matmul_bf16", MM_BF16.grid, _g(64), MM_BF16.args,
                 MM_BF16.expected, shared_bytes=2048, float64=MM_BF16.exact64,
                 float64_atol=_gemm_atol(MM_BF16),
                 covers="tl.dot bf16 x bf16 -> fp32: mma.sync m16n8k16 .bf16"),
    TritonLaunch("kernels.py", "matmul_m64", MM_M64.grid, _g(128), MM_M64.args,
                 MM_M64.expected, shared_bytes=4096, float64=MM_M64.exact64,
                 float64_atol=_gemm_atol(MM_M64),
                 covers="tl.dot with a 64-row tile: mma.sync on sm_80, wgmma.mma_async "
                        "m64n16k16 with shared-memory descriptors on sm_90a (the same "
                        "rounding per k16 instruction: one reference)"),
    TritonLaunch("kernels.py", "attention_fwd", _g(_blocks(ATT_SEQ, ATT_BM)), _g(32),
                 _att_args, _att_exp, shared_bytes=1024, rtol=0.0, atol=ATT_ATOL,
                 float64=_att_exact64, float64_atol=ATT_F64_ATOL,
                 covers="online-softmax attention: two tl.dot per key block, ex2.approx, "
                        "div.full, fp16 P (tolerance: ex2.approx and div.full are approximate, "
                        "2e-6 absolute on outputs below 2; see ATT_ATOL)"),
    TritonLaunch("kernels.py", "matmul_tf32", MM_TF32.grid, _g(128), MM_TF32.args,
                 MM_TF32.expected, shared_bytes=8192, float64=MM_TF32.exact64,
                 float64_atol=_tf32_atol(MM_TF32),
                 covers="tl.dot fp32 x fp32 -> fp32 with input_precision tf32: cp.async, "
                        "ldmatrix of 32-bit elements, mma.sync m16n8k8 .tf32 (HMMA.1688.F32.TF32) "
                        "on the raw fp32 bits, a masked K tail; bit-exact against the tf32 "
                        "model"),
    TritonLaunch("kernels.py", "matmul_i8", MM_I8.grid, _g(128), MM_I8.args, MM_I8.expected,
                 shared_bytes=4096, float64=MM_I8.exact64,
                 covers="tl.dot int8 x int8 -> int32: ldmatrix, ld.shared.b8 + prmt B "
                        "fragments, mma.sync m16n8k32 .satfinite.s32.s8.s8.s32 "
                        "(IMMA.16832.S8.S8.SAT), a masked K tail; exact"),
]
