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
``softmax`` and ``layernorm``, which use MUFU approximations (``ex2.approx``,
``sqrt.approx``) and ``div.full.f32`` (within 2 ulp), and record tolerances.
"""

from __future__ import annotations

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
]
