"""Launch table for the CUDA examples in ``examples/cuda``.

One :class:`Launch` per kernel says how to run it and what numpy says the result must be.
The PTX import tests (which arrive with the PTX frontend) iterate over :data:`LAUNCHES`::

    for launch in LAUNCHES:
        module = import_ptx(launch.ptx_path("sm_80"))          # frontend, later
        args = launch.make_args(np.random.default_rng(launch.seed))
        want = launch.expected([copy(a) for a in args])
        got = run_kernel(module, launch.kernel, launch.grid, launch.block, args,
                         shared_bytes=launch.shared_bytes)
        for g, w in zip(got, want):
            if w is not None:
                launch.check(g, w)

``make_args(rng)`` returns the kernel arguments in parameter order: numpy arrays for
pointer parameters (the interpreter copies them to device memory and passes the address)
and numpy scalars for value parameters (the scalar's dtype is the parameter's type).
``expected(args)`` returns one entry per argument: the array contents (or scalar) the
kernel must leave, or ``None`` for "don't check" (inputs). ``expected`` never mutates
``args``.

Exactness: ``rtol == atol == 0`` means bit-exact (compared as bytes). Float kernels are
exact by construction: they use only correctly rounded operations (+, -, *, /, sqrt, fma,
conversions) on inputs chosen so that fma contraction cannot change a result (small
dyadic values), or compute fma exactly with :class:`fractions.Fraction`. The one
exception, ``fast_math``, uses MUFU approximations (``__expf``, ``rsqrtf``, ``__sinf``) and
records a tolerance; see its entry.
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass
from fractions import Fraction
from pathlib import Path
from typing import Any

import numpy as np

CUDA_DIR = Path(__file__).resolve().parent
PTX_DIR = CUDA_DIR.parent / "ptx"

Args = list[Any]
Dim3 = tuple[int, int, int]

M32 = (1 << 32) - 1
M64 = (1 << 64) - 1


@dataclass(frozen=True)
class Launch:
    """How to launch one kernel and how to check its results."""

    file: str
    kernel: str
    grid: Dim3
    block: Dim3
    make_args: Callable[[np.random.Generator], Args]
    expected: Callable[[Args], Args]
    shared_bytes: int = 0
    rtol: float = 0.0
    atol: float = 0.0
    seed: int = 0
    covers: str = ""

    @property
    def exact(self) -> bool:
        return self.rtol == 0.0 and self.atol == 0.0

    def ptx_path(self, arch: str) -> Path:
        return PTX_DIR / arch / (Path(self.file).stem + ".ptx")

    def check(self, got: Any, want: Any) -> None:
        """Raise AssertionError unless ``got`` matches ``want`` (exactly or within tolerance)."""
        g = np.asarray(got)
        w = np.asarray(want)
        assert g.shape == w.shape, (self.kernel, g.shape, w.shape)
        if self.exact:
            assert g.dtype == w.dtype, (self.kernel, g.dtype, w.dtype)
            assert g.tobytes() == w.tobytes(), f"{self.kernel}: result differs"
        else:
            assert np.allclose(g, w, rtol=self.rtol, atol=self.atol), f"{self.kernel}: out of tol"


# ----------------------------------------------------------------------------- helpers


def _i32(v: int) -> int:
    v &= M32
    return v - (1 << 32) if v >> 31 else v


def _i64(v: int) -> int:
    v &= M64
    return v - (1 << 64) if v >> 63 else v


def _tdiv(a: int, b: int) -> tuple[int, int]:
    """C division (truncating toward zero) and remainder."""
    q = abs(a) // abs(b)
    if (a < 0) != (b < 0):
        q = -q
    return q, a - q * b


def _fma64(a: float, b: float, c: float) -> float:
    """Correctly rounded double fma (exact rational, then one rounding)."""
    return float(Fraction(a) * Fraction(b) + Fraction(c))


def _dyadic_f32(rng: np.random.Generator, n: int, lo: int = -64, hi: int = 64) -> np.ndarray:
    return (rng.integers(lo, hi, n) / 4).astype(np.float32)


def _ints(rng: np.random.Generator, n: int, lo: int, hi: int, dtype: Any) -> np.ndarray:
    return rng.integers(lo, hi, n, dtype=np.int64).astype(dtype)


def _u32(rng: np.random.Generator, n: int) -> np.ndarray:
    return rng.integers(0, 1 << 32, n, dtype=np.uint64).astype(np.uint32)


def _u64(rng: np.random.Generator, n: int) -> np.ndarray:
    return rng.integers(0, np.iinfo(np.uint64).max, n, dtype=np.uint64, endpoint=True)


def _zeros_like_none(args: Args) -> Args:
    return [None] * len(args)


def _blocks(n: int, b: int) -> int:
    return (n + b - 1) // b


# ----------------------------------------------------------------------------- saxpy

N_SAXPY = 1000


def _saxpy_args(rng: np.random.Generator) -> Args:
    n = N_SAXPY
    return [np.int32(n), np.float32(2.5), _dyadic_f32(rng, n), _dyadic_f32(rng, n)]


def _saxpy_exp(args: Args) -> Args:
    _, a, x, y = args
    out = (np.float64(a) * x.astype(np.float64) + y.astype(np.float64)).astype(np.float32)
    return [None, None, None, out]


# ----------------------------------------------------------------------------- reductions


def _rwx_args(rng: np.random.Generator) -> Args:
    n = 1000
    return [_ints(rng, n, -1000, 1000, np.int32), np.zeros(1, np.int32), np.int32(n)]


def _rwx_exp(args: Args) -> Args:
    x = args[0]
    return [None, np.array([_i32(int(x.astype(np.int64).sum()))], np.int32), None]


def _rsm_args(rng: np.random.Generator) -> Args:
    return [_ints(rng, 4 * 256, -100, 100, np.float32), np.zeros(4, np.float32)]


def _rsm_exp(args: Args) -> Args:
    x = args[0].astype(np.float64).reshape(4, 256)
    return [None, x.sum(axis=1).astype(np.float32)]


RGD_GRID, RGD_BLOCK, RGD_N = 3, 128, 5000


def _rgd_args(rng: np.random.Generator) -> Args:
    return [_u32(rng, RGD_N), np.zeros(RGD_GRID, np.uint32), np.int32(RGD_N)]


def _rgd_exp(args: Args) -> Args:
    x = args[0].astype(np.uint64)
    idx = np.arange(RGD_N)
    owner = (idx // RGD_BLOCK) % RGD_GRID
    out = np.array([int(x[owner == b].sum()) & M32 for b in range(RGD_GRID)], np.uint32)
    return [None, out, None]


# ----------------------------------------------------------------------------- scans


def _hs_args(rng: np.random.Generator) -> Args:
    n = 700
    return [_ints(rng, n, -50, 50, np.int32), np.zeros(n, np.int32), np.int32(n)]


def _hs_exp(args: Args) -> Args:
    x = args[0].astype(np.int64)
    out = np.concatenate([np.cumsum(x[s : s + 256]) for s in range(0, len(x), 256)])
    return [None, out.astype(np.int32), None]


def _bl_args(rng: np.random.Generator) -> Args:
    return [_u32(rng, 512), np.zeros(512, np.uint32)]


def _bl_exp(args: Args) -> Args:
    x = args[0].astype(np.uint64)
    out = []
    for s in range(0, 512, 256):
        seg = np.cumsum(x[s : s + 256]) - x[s : s + 256]
        out.append(seg & np.uint64(M32))
    return [None, np.concatenate(out).astype(np.uint32)]


# ----------------------------------------------------------------------------- histogram


def _hist_args(rng: np.random.Generator) -> Args:
    n = 3000
    data = rng.integers(0, 256, n, dtype=np.int64).astype(np.uint8)
    data[:500] = 7  # one hot bin: many colliding atomics
    bins = _ints(rng, 256, 0, 10, np.uint32)  # the kernel adds to existing counts
    return [data, bins, np.int32(n)]


def _hist_exp(args: Args) -> Args:
    data, bins, _ = args
    return [None, bins + np.bincount(data, minlength=256).astype(np.uint32), None]


# ----------------------------------------------------------------------------- sgemm

GM, GN, GK = 40, 36, 40


def _sgemm_args(rng: np.random.Generator) -> Args:
    a = _ints(rng, GM * GK, -4, 5, np.float32)
    b = _ints(rng, GK * GN, -4, 5, np.float32)
    c = _ints(rng, GM * GN, -8, 9, np.float32)
    return [np.int32(GM), np.int32(GN), np.int32(GK), np.float32(0.5), a, b, np.float32(-2.0), c]


def _sgemm_exp(args: Args) -> Args:
    _, _, _, alpha, a, b, beta, c = args
    ab = a.astype(np.float64).reshape(GM, GK) @ b.astype(np.float64).reshape(GK, GN)
    out = float(alpha) * ab + float(beta) * c.astype(np.float64).reshape(GM, GN)
    return [None] * 7 + [out.astype(np.float32).ravel()]


# ----------------------------------------------------------------------------- stencils


def _st1_args(rng: np.random.Generator) -> Args:
    n = 300
    return [_ints(rng, n, -1000, 1000, np.int32), np.zeros(n, np.int32), np.int32(n)]


def _st1_exp(args: Args) -> Args:
    x = args[0].astype(np.int64)
    n = len(x)
    pad = np.concatenate([np.zeros(3, np.int64), x, np.zeros(3, np.int64)])
    out = sum((k + 4) * pad[3 + k : 3 + k + n] for k in range(-3, 4))
    return [None, np.asarray(out).astype(np.int32), None]


SW, SH = 37, 21


def _st2_args(rng: np.random.Generator) -> Args:
    return [
        _ints(rng, SW * SH, -100, 100, np.float32),
        np.zeros(SW * SH, np.float32),
        np.int32(SW),
        np.int32(SH),
    ]


def _st2_exp(args: Args) -> Args:
    g = args[0].astype(np.float64).reshape(SH, SW)
    out = g.copy()
    nb = g[:-2, 1:-1] + g[2:, 1:-1] + g[1:-1, :-2] + g[1:-1, 2:]
    out[1:-1, 1:-1] = 0.5 * g[1:-1, 1:-1] + 0.125 * nb
    return [None, out.astype(np.float32).ravel(), None, None]


# ----------------------------------------------------------------------------- int64


def _i64_args(rng: np.random.Generator) -> Args:
    n = 100
    a = _u64(rng, n).view(np.int64)
    b = _u64(rng, n).view(np.int64)
    b[:10] = a[:10]  # equal operands for the min select
    return [a, b, np.zeros(6 * n, np.int64), np.int32(n)]


def _i64_exp(args: Args) -> Args:
    a, b, _, _ = args
    out: list[int] = []
    for x, y in zip(a.tolist(), b.tolist(), strict=True):
        ux, uy = x & M64, y & M64
        out += [
            _i64(ux * uy + ((x >> 7) & M64)),
            _i64((x * y) >> 64),
            _i64((ux * uy) >> 64),
            _i64((ux ^ uy) - ((uy << 13) & M64)),
            _i64(ux >> (uy & 63)),
            min(x, y),
        ]
    return [None, None, np.array(out, np.int64), None]


P_STRIDE, P_OFFSET, P_N = 3, 5, 64


def _ptr_args(rng: np.random.Generator) -> Args:
    base = _ints(rng, P_OFFSET + P_N * P_STRIDE, -10000, 10000, np.int32)
    return [base, np.int64(P_STRIDE), np.int64(P_OFFSET), np.zeros(P_N, np.int32), np.int32(P_N)]


def _ptr_exp(args: Args) -> Args:
    base = args[0].astype(np.int64)
    pos = P_OFFSET + np.arange(P_N) * P_STRIDE
    out = base[pos] - base[pos - 1] + pos
    return [None, None, None, out.astype(np.int32), None]


# ----------------------------------------------------------------------------- division

N_DIV = 256


def _nonzero(rng: np.random.Generator, n: int, lo: int, hi: int) -> np.ndarray:
    v = rng.integers(lo, hi, n, dtype=np.int64)
    v[v == 0] = 1
    return v


def _ds32_args(rng: np.random.Generator) -> Args:
    n = N_DIV
    a = rng.integers(-(2**31) + 1, 2**31, n, dtype=np.int64)
    b = _nonzero(rng, n, -(2**31) + 1, 2**31)
    b[: n // 2] = _nonzero(rng, n // 2, -50, 50)  # small divisors: large quotients
    b[-8:] = [1, -1, 2, -2, 7, -7, 2**31 - 1, -(2**31) + 1]
    z = np.zeros(n, np.int32)
    return [a.astype(np.int32), b.astype(np.int32), z, z.copy(), np.int32(n)]


def _divmod_exp(args: Args, dtype: Any) -> Args:
    qs, rs = [], []
    for x, y in zip(args[0].tolist(), args[1].tolist(), strict=True):
        q, r = _tdiv(x, y)
        qs.append(q)
        rs.append(r)
    return [None, None, np.array(qs, dtype), np.array(rs, dtype), None]


def _du32_args(rng: np.random.Generator) -> Args:
    n = N_DIV
    a = _u32(rng, n)
    b = _u32(rng, n)
    b[: n // 2] = rng.integers(1, 100, n // 2)
    b[-4:] = [1, 0xFFFFFFFF, 0x80000000, 3]
    b[b == 0] = 1
    z = np.zeros(n, np.uint32)
    return [a, b, z, z.copy(), np.int32(n)]


def _ds64_args(rng: np.random.Generator) -> Args:
    n = N_DIV
    lo, hi = -(2**63) + 1, 2**63 - 1
    a = rng.integers(lo, hi, n, dtype=np.int64)
    b = rng.integers(lo, hi, n, dtype=np.int64)
    b[: n // 3] = rng.integers(-(2**31), 2**31, n // 3)  # divisors that fit 32 bits
    b[n // 3 : n // 2] = rng.integers(-100, 100, n // 2 - n // 3)
    # both operands in [0, 2**32): nvcc's 32-bit fast path (div.u32 / rem.u32)
    a[: n // 6] = rng.integers(0, 2**32, n // 6)
    b[: n // 6] = rng.integers(1, 2**32, n // 6)
    b[b == 0] = 1
    b[-4:] = [1, -1, hi, lo]
    z = np.zeros(n, np.int64)
    return [a, b, z, z.copy(), np.int32(n)]


def _du64_args(rng: np.random.Generator) -> Args:
    n = N_DIV
    a = _u64(rng, n)
    b = _u64(rng, n)
    b[: n // 3] = rng.integers(1, 2**32, n // 3, dtype=np.uint64)
    a[: n // 6] = rng.integers(0, 2**32, n // 6, dtype=np.uint64)  # both 32-bit: fast path
    b[n // 3 : n // 2] = rng.integers(1, 100, n // 2 - n // 3, dtype=np.uint64)
    b[b == 0] = 1
    b[-3:] = [1, M64, 1 << 63]
    z = np.zeros(n, np.uint64)
    return [a, b, z, z.copy(), np.int32(n)]


DS, DU = -37, 1000003


def _dp_args(rng: np.random.Generator) -> Args:
    n = N_DIV
    a = rng.integers(-(2**31) + 1, 2**31, n, dtype=np.int64).astype(np.int32)
    return [a, np.zeros(3 * n, np.int32), np.int32(DS), np.uint32(DU), np.int32(n)]


def _dp_exp(args: Args) -> Args:
    out: list[int] = []
    for x in args[0].tolist():
        q7, r10 = _tdiv(x, 7)[0], _tdiv(x, 10)[1]
        out += [_tdiv(x, DS)[0], _i32((x & M32) % DU), q7 + r10]
    return [None, np.array(out, np.int32), None, None, None]


# ----------------------------------------------------------------------------- fp64


def _daxpy_args(rng: np.random.Generator) -> Args:
    n = 500
    x = rng.integers(-1000, 1000, n) / 8.0
    y = rng.integers(-1000, 1000, n) / 16.0
    return [np.int32(n), np.float64(-1.75), x, y]


def _daxpy_exp(args: Args) -> Args:
    _, a, x, y = args
    return [None, None, None, a * x + y]  # exact: no rounding at all for these inputs


def _dfds_args(rng: np.random.Generator) -> Args:
    n = 200
    a = rng.uniform(-10.0, 10.0, n)
    b = rng.uniform(0.5, 10.0, n) * rng.choice([-1.0, 1.0], n)
    c = rng.uniform(-1000.0, 1000.0, n)
    return [a, b, c, np.zeros(3 * n), np.int32(n)]


def _dfds_exp(args: Args) -> Args:
    a, b, c = args[0], args[1], args[2]
    out = np.empty(3 * len(a))
    out[0::3] = [
        _fma64(x, y, z) for x, y, z in zip(a.tolist(), b.tolist(), c.tolist(), strict=True)
    ]
    out[1::3] = a / b  # IEEE double division is correctly rounded
    out[2::3] = np.sqrt(np.abs(c))  # IEEE sqrt is correctly rounded
    return [None, None, None, out, None]


H_DEG = 7


def _horner_args(rng: np.random.Generator) -> Args:
    n = 128
    x = rng.uniform(-2.0, 2.0, n)
    coef = rng.uniform(-1.0, 1.0, H_DEG + 1)
    return [x, coef, np.int32(H_DEG), np.zeros(n), np.int32(n)]


def _horner_exp(args: Args) -> Args:
    x, coef = args[0], args[1]
    out = []
    for v in x.tolist():
        acc = 0.0
        for k in range(H_DEG, -1, -1):
            acc = _fma64(acc, v, float(coef[k]))
        out.append(acc)
    return [None, None, None, np.array(out), None]


# ----------------------------------------------------------------------------- half


def _h2_args(rng: np.random.Generator) -> Args:
    n = 256  # __half2 elements: 2n fp16 values per array

    def vals() -> np.ndarray:
        # multiples of 2**-9 in [-4, 4): every fp16 op is exactly reproducible in float64
        return (rng.integers(-2048, 2048, 2 * n) / 512.0).astype(np.float16)

    return [vals(), vals(), vals(), np.zeros(2 * n, np.float16), np.int32(n)]


def _h2_exp(args: Args) -> Args:
    a, b, c = (x.astype(np.float64) for x in args[:3])
    s = (a + b).astype(np.float16).astype(np.float64)
    p = (a * c).astype(np.float16).astype(np.float64)
    out = (s * p + b).astype(np.float16)  # s*p+b is exact in float64: one fp16 rounding
    return [None, None, None, out, None]


def _hc_args(rng: np.random.Generator) -> Args:
    n = 300
    f = (rng.standard_normal(n) * 1000.0).astype(np.float32)
    f[:6] = [65504.0, 65520.0, 1e-8, -3e-5, 2.0**-25, 1.0 + 2.0**-11]  # overflow, tiny, ties
    h = (rng.standard_normal(n) * 100.0).astype(np.float16)
    return [f, h, np.zeros(n, np.float16), np.zeros(n, np.float32), np.int32(n)]


def _hc_exp(args: Args) -> Args:
    f, h = args[0], args[1]
    with np.errstate(over="ignore"):
        fh = f.astype(np.float16)  # round to nearest even, overflow to inf (as cvt.rn.f16.f32)
    hf = (h.astype(np.float32) * np.float32(2.0) + np.float32(1.0)).astype(np.float32)
    return [None, None, fh, hf, None]


# ----------------------------------------------------------------------------- bits


def _brev(x: int, bits: int) -> int:
    return int(format(x, f"0{bits}b")[::-1], 2)


def _clz(x: int, bits: int) -> int:
    return bits - x.bit_length()


def _ffs(x: int) -> int:
    return (x & -x).bit_length()


def _byte_perm(x: int, y: int, s: int) -> int:
    src = (y << 32) | x
    return sum(((src >> (8 * ((s >> (4 * k)) & 7))) & 0xFF) << (8 * k) for k in range(4))


def _b32_args(rng: np.random.Generator) -> Args:
    n = 128
    a, b = _u32(rng, n), _u32(rng, n)
    a[:4] = [0, 0xFFFFFFFF, 1, 0x80000000]
    b[:4] = [0, 0xFFFFFFFF, 0x08000000, 31 << 27]
    return [a, b, np.zeros(8 * n, np.uint32), np.int32(n)]


def _b32_exp(args: Args) -> Args:
    out: list[int] = []
    for x, y in zip(args[0].tolist(), args[1].tolist(), strict=True):
        s = y >> 27
        sel = (y * 0x9E3779B9) & 0x7777
        wide = (y << 32) | x
        r = y & 31
        out += [
            x.bit_count(),
            _clz(x, 32),
            _brev(x, 32),
            _byte_perm(x, y, sel),
            ((wide << s) >> 32) & M32,
            (wide >> s) & M32,
            _ffs(x),
            ((x << r) | (x >> ((32 - r) & 31))) & M32,
        ]
    return [None, None, np.array(out, np.uint32), None]


def _b64_args(rng: np.random.Generator) -> Args:
    n = 128
    a = _u64(rng, n)
    a[:4] = [0, M64, 1, 1 << 63]
    return [a, np.zeros(4 * n, np.uint64), np.int32(n)]


def _b64_exp(args: Args) -> Args:
    out: list[int] = []
    for x in args[0].tolist():
        out += [x.bit_count(), _clz(x, 64), _brev(x, 64), (_ffs(x) + (x >> (x & 63))) & M64]
    return [None, np.array(out, np.uint64), None]


def _mm_args(rng: np.random.Generator) -> Args:
    n = 128
    a = rng.integers(-(2**31) + 1, 2**31, n, dtype=np.int64)
    b = rng.integers(-(2**31), 2**31, n, dtype=np.int64)
    a[: n // 2] = rng.integers(-2000, 2000, n // 2)
    b[: n // 4] = rng.integers(-2000, 2000, n // 4)
    a[-1] = b[-1]
    return [a.astype(np.int32), b.astype(np.int32), np.zeros(6 * n, np.int32), np.int32(n)]


def _mm_exp(args: Args) -> Args:
    out: list[int] = []
    for x, y in zip(args[0].tolist(), args[1].tolist(), strict=True):
        out += [
            min(x, y),
            max(x, y),
            abs(x),
            _i32(min(x & M32, y & M32)),
            _i32(x - y) if x > y else _i32(3 * y),
            min(max(x, -1000), 1000),
        ]
    return [None, None, np.array(out, np.int32), None]


# ----------------------------------------------------------------------------- fp32


def _f32_args(rng: np.random.Generator) -> Args:
    n = 200
    a = rng.uniform(-100.0, 100.0, n).astype(np.float32)
    b = (rng.uniform(0.5, 100.0, n) * rng.choice([-1.0, 1.0], n)).astype(np.float32)
    b[:4] = a[:4]
    b[4:8] = -a[4:8]
    return [a, b, np.zeros(6 * n, np.float32), np.int32(n)]


def _f32_exp(args: Args) -> Args:
    a, b = args[0], args[1]
    out = np.empty(6 * len(a), np.float32)
    out[0::6] = a / b  # numpy float32 division is correctly rounded, like div.rn.f32
    out[1::6] = np.sqrt(np.abs(a))
    out[2::6] = np.fmin(a, b)
    out[3::6] = np.fmax(a, b)
    out[4::6] = np.abs(a) - b
    out[5::6] = np.copysign(a, b)
    return [None, None, out, None]


def _fm_args(rng: np.random.Generator) -> Args:
    n = 256
    return [rng.uniform(-3.0, 3.0, n).astype(np.float32), np.zeros(3 * n, np.float32), np.int32(n)]


def _fm_exp(args: Args) -> Args:
    x = args[0].astype(np.float64)
    out = np.empty(3 * len(x))
    out[0::3] = np.exp(x)
    out[1::3] = 1.0 / np.sqrt(np.abs(x) + 1.0)
    out[2::3] = np.sin(x)
    return [None, out.astype(np.float32), None]


# ----------------------------------------------------------------------------- loops


def _lk_args(rng: np.random.Generator) -> Args:
    return [np.zeros(128, np.uint32)]


def _lk_exp(args: Args) -> Args:
    out = []
    for t in range(128):
        acc = t
        for k in range(100):
            acc = (acc * 1664525 + 1013904223 + k) & M32
        out.append(acc)
    return [np.array(out, np.uint32)]


LU_TRIPS = 37


def _lu_args(rng: np.random.Generator) -> Args:
    n = 100
    return [_u32(rng, n), np.zeros(n, np.uint32), np.int32(n), np.int32(LU_TRIPS)]


def _lu_exp(args: Args) -> Args:
    out = []
    for acc in args[0].tolist():
        for k in range(LU_TRIPS):
            acc = ((acc ^ ((k * 0x9E37) & M32)) + (acc >> 3)) & M32
        out.append(acc)
    return [None, np.array(out, np.uint32), None, None]


L4_TRIPS = 23  # not a multiple of 4: the remainder path runs


def _l4_args(rng: np.random.Generator) -> Args:
    n = 90
    return [
        _ints(rng, n, -1000, 1000, np.int32),
        np.zeros(n, np.int32),
        np.int32(n),
        np.int32(L4_TRIPS),
    ]


def _l4_exp(args: Args) -> Args:
    x = args[0].tolist()
    n = len(x)
    out = [sum(x[(i + k) % n] * (k + 1) for k in range(L4_TRIPS)) for i in range(n)]
    return [None, np.array(out, np.int32), None, None]


def _lc_args(rng: np.random.Generator) -> Args:
    n = 200
    return [_u32(rng, n), np.zeros(n, np.uint32), np.int32(n)]


def _lc_exp(args: Args) -> Args:
    x = args[0].tolist()
    out = []
    for i in range(len(x)):
        acc = 0
        for k in range(i, -1, -1):
            acc = (acc * 3 + x[k]) & M32
        out.append(acc)
    return [None, np.array(out, np.uint32), None]


LN_ROWS, LN_COLS = 7, 9


def _ln_args(rng: np.random.Generator) -> Args:
    m = _ints(rng, LN_ROWS * LN_COLS, -100, 100, np.int32)
    return [m, np.zeros(64, np.int32), np.int32(LN_ROWS), np.int32(LN_COLS)]


def _ln_exp(args: Args) -> Args:
    m = args[0].tolist()
    out = [
        sum(m[r * LN_COLS + c] * (r ^ c ^ t) for r in range(LN_ROWS) for c in range(LN_COLS))
        for t in range(64)
    ]
    return [None, np.array(out, np.int32), None, None]


def _collatz_args(rng: np.random.Generator) -> Args:
    n = 160
    x = rng.integers(1, 100000, n).astype(np.uint32)
    x[:4] = [1, 2, 27, 0]  # 0 never reaches 1: hits the 500-step cap
    return [x, np.zeros(n, np.uint32), np.int32(n)]


def _collatz_exp(args: Args) -> Args:
    out = []
    for x in args[0].tolist():
        s = 0
        while x != 1 and s < 500:
            x = (3 * x + 1) & M32 if x & 1 else x >> 1
            s += 1
        out.append(s)
    return [None, np.array(out, np.uint32), None]


# ----------------------------------------------------------------------------- calls


def _calls_args(rng: np.random.Generator) -> Args:
    n = 100
    a = _ints(rng, n, -10000, 10000, np.int32)
    b = _ints(rng, n, -10000, 10000, np.int32)
    d = rng.integers(-(2**40), 2**40, n, dtype=np.int64)
    e = (rng.integers(-200, 200, n) / 4).astype(np.float32)
    return [a, b, d, e, np.zeros(3 * n, np.int32), np.zeros(n, np.float32), np.int32(n)]


def _calls_exp(args: Args) -> Args:
    a, b, d, e = (x.tolist() for x in args[:4])
    out: list[int] = []
    for i in range(len(a)):
        s = a[i] * b[i] + ((i * 7) & M32) + d[i]
        out += [int(np.trunc(e[i])) + (a[i] ^ b[i]), _i32(s), _i32(s >> 32)]
    fout = (args[3].astype(np.float64) * 0.25 + args[0].astype(np.float64)).astype(np.float32)
    return [None, None, None, None, np.array(out, np.int32), fout, None]


# ----------------------------------------------------------------------------- misc


def _lb_args(rng: np.random.Generator) -> Args:
    n = 500
    return [_ints(rng, n, -40000, 40000, np.int32), np.zeros(n, np.int32), np.int32(n)]


def _lb_exp(args: Args) -> Args:
    v = args[0].astype(np.int64)
    out = np.array([_i32(int(x)) for x in (v * v + (v >> 2)).tolist()], np.int32)
    return [None, out, None]


def _ldg_args(rng: np.random.Generator) -> Args:
    n = 200
    src = _dyadic_f32(rng, 64)
    idx = rng.integers(0, 64, n).astype(np.int32)
    return [idx, src, np.zeros(n, np.float32), np.int32(n)]


def _ldg_exp(args: Args) -> Args:
    idx, src = args[0], args[1]
    return [None, None, (src[idx] * np.float32(2.0)).astype(np.float32), None]


TF_GRID = 6


def _tf_args(rng: np.random.Generator) -> Args:
    return [
        _ints(rng, TF_GRID * 128, -1000, 1000, np.int32),
        np.zeros(TF_GRID, np.int32),
        np.zeros(1, np.uint32),
        np.zeros(1, np.int32),
    ]


def _tf_exp(args: Args) -> Args:
    x = args[0].astype(np.int64).reshape(TF_GRID, 128)
    part = x.sum(axis=1)
    return [
        None,
        part.astype(np.int32),
        np.array([TF_GRID], np.uint32),
        np.array([part.sum()], np.int32),
    ]


VOTE_N = 128


def _vote_args(rng: np.random.Generator) -> Args:
    v = _ints(rng, VOTE_N, -100, 100, np.int32)
    v[0:32] = rng.integers(0, 90, 32)  # warp 0: all > -50, none > 90, all > 0 except zeros
    v[32:64] = rng.integers(-100, -60, 32)  # warp 1: ballot empty, all false
    v[70] = 95  # warp 2: any true
    return [v, np.zeros(4 * VOTE_N, np.uint32)]


def _vote_exp(args: Args) -> Args:
    v = args[0].tolist()
    out: list[int] = []
    for t in range(VOTE_N):
        w0 = t & ~31
        warp = v[w0 : w0 + 32]
        lane = t & 31
        ballot = sum(1 << k for k, x in enumerate(warp) if x > 0)
        out += [
            ballot,
            int(all(x > -50 for x in warp)),
            int(any(x > 90 for x in warp)),
            (ballot & ((1 << lane) - 1)).bit_count(),
        ]
    return [None, np.array(out, np.uint32)]


# ----------------------------------------------------------------------------- the table


def _g(x: int, y: int = 1, z: int = 1) -> Dim3:
    return (x, y, z)


LAUNCHES: list[Launch] = [
    Launch(
        "saxpy.cu",
        "saxpy",
        _g(_blocks(N_SAXPY, 256)),
        _g(256),
        _saxpy_args,
        _saxpy_exp,
        covers="fp32 fma contraction, bounds check",
    ),
    Launch(
        "reduce.cu",
        "reduce_warp_xor",
        _g(4),
        _g(256),
        _rwx_args,
        _rwx_exp,
        covers="__shfl_xor_sync butterfly, global atomicAdd",
    ),
    Launch(
        "reduce.cu",
        "reduce_smem",
        _g(4),
        _g(256),
        _rsm_args,
        _rsm_exp,
        covers="shared-memory tree reduction, __syncthreads in a loop",
    ),
    Launch(
        "reduce.cu",
        "reduce_gridstride_down",
        _g(RGD_GRID),
        _g(RGD_BLOCK),
        _rgd_args,
        _rgd_exp,
        covers="grid-stride loop, __shfl_down_sync, two-level reduction",
    ),
    Launch(
        "scan.cu",
        "scan_hillis_steele",
        _g(3),
        _g(256),
        _hs_args,
        _hs_exp,
        covers="Hillis-Steele inclusive scan, double-buffered shared memory",
    ),
    Launch(
        "scan.cu",
        "scan_blelloch",
        _g(2),
        _g(128),
        _bl_args,
        _bl_exp,
        shared_bytes=256 * 4,
        covers="Blelloch exclusive scan, dynamic shared memory",
    ),
    Launch(
        "histogram.cu",
        "histogram256",
        _g(4),
        _g(128),
        _hist_args,
        _hist_exp,
        covers="u8 loads, shared and global atomicAdd, grid-stride loop",
    ),
    Launch(
        "sgemm.cu",
        "sgemm_tiled16",
        _g(_blocks(GN, 16), _blocks(GM, 16)),
        _g(16, 16),
        _sgemm_args,
        _sgemm_exp,
        covers="16x16 tiled SGEMM, 2-D shared arrays, barriers",
    ),
    Launch(
        "stencil.cu",
        "stencil1d_r3",
        _g(3),
        _g(128),
        _st1_args,
        _st1_exp,
        covers="1-D stencil with shared-memory halo",
    ),
    Launch(
        "stencil.cu",
        "stencil2d_5pt",
        _g(_blocks(SW, 16), _blocks(SH, 8)),
        _g(16, 8),
        _st2_args,
        _st2_exp,
        covers="2-D 5-point stencil, 2-D grid, early returns",
    ),
    Launch(
        "int64.cu",
        "int64_mix",
        _g(1),
        _g(128),
        _i64_args,
        _i64_exp,
        covers="64-bit mul/mul.hi (signed, unsigned), shifts, xor, min",
    ),
    Launch(
        "int64.cu",
        "ptr_arith64",
        _g(1),
        _g(64),
        _ptr_args,
        _ptr_exp,
        covers="64-bit pointer arithmetic, negative offsets, pointer difference",
    ),
    Launch(
        "intdiv.cu",
        "divmod_s32",
        _g(2),
        _g(128),
        _ds32_args,
        lambda a: _divmod_exp(a, np.int32),
        covers="signed 32-bit / and % by runtime values",
    ),
    Launch(
        "intdiv.cu",
        "divmod_u32",
        _g(2),
        _g(128),
        _du32_args,
        lambda a: _divmod_exp(a, np.uint32),
        covers="unsigned 32-bit / and %",
    ),
    Launch(
        "intdiv.cu",
        "divmod_s64",
        _g(2),
        _g(128),
        _ds64_args,
        lambda a: _divmod_exp(a, np.int64),
        covers="signed 64-bit / and %",
    ),
    Launch(
        "intdiv.cu",
        "divmod_u64",
        _g(2),
        _g(128),
        _du64_args,
        lambda a: _divmod_exp(a, np.uint64),
        covers="unsigned 64-bit / and %",
    ),
    Launch(
        "intdiv.cu",
        "div_by_param",
        _g(2),
        _g(128),
        _dp_args,
        _dp_exp,
        covers="division by a kernel parameter and by constants (mul.hi sequences)",
    ),
    Launch(
        "fp64.cu", "daxpy", _g(2), _g(256), _daxpy_args, _daxpy_exp, covers="fp64 fma contraction"
    ),
    Launch(
        "fp64.cu",
        "dfma_div_sqrt",
        _g(2),
        _g(128),
        _dfds_args,
        _dfds_exp,
        covers="fp64 fma, __ddiv_rn, __dsqrt_rn (correctly rounded)",
    ),
    Launch(
        "fp64.cu",
        "dhorner",
        _g(1),
        _g(128),
        _horner_args,
        _horner_exp,
        covers="fp64 fma chain in a count-down #pragma unroll 1 loop",
    ),
    Launch(
        "half.cu",
        "half2_arith",
        _g(2),
        _g(128),
        _h2_args,
        _h2_exp,
        covers="__hadd2, __hmul2, __hfma2 on packed f16x2",
    ),
    Launch(
        "half.cu",
        "half_convert",
        _g(3),
        _g(128),
        _hc_args,
        _hc_exp,
        covers="f32<->f16 conversions, 16-bit loads/stores",
    ),
    Launch(
        "bits.cu",
        "bit_tricks32",
        _g(1),
        _g(128),
        _b32_args,
        _b32_exp,
        covers="__popc, __clz, __brev, __byte_perm, funnel shifts, __ffs, rotate",
    ),
    Launch(
        "bits.cu",
        "bit_tricks64",
        _g(1),
        _g(128),
        _b64_args,
        _b64_exp,
        covers="__popcll, __clzll, __brevll, __ffsll, 64-bit variable shift",
    ),
    Launch(
        "bits.cu",
        "minmax_select",
        _g(1),
        _g(128),
        _mm_args,
        _mm_exp,
        covers="min/max/abs/umin, selects, clamp",
    ),
    Launch(
        "float32.cu",
        "fp32_ieee",
        _g(2),
        _g(128),
        _f32_args,
        _f32_exp,
        covers="div.rn.f32, sqrt.rn.f32, fminf/fmaxf, fabsf, copysignf",
    ),
    Launch(
        "float32.cu",
        "fast_math",
        _g(2),
        _g(128),
        _fm_args,
        _fm_exp,
        rtol=4e-6,
        atol=2e-6,
        covers="MUFU: __expf (ex2.approx), rsqrtf (rsqrt.approx), __sinf (sin.approx)",
    ),
    Launch(
        "loops.cu",
        "loop_known_unroll1",
        _g(1),
        _g(128),
        _lk_args,
        _lk_exp,
        covers="known trip count (100) kept rolled by #pragma unroll 1",
    ),
    Launch(
        "loops.cu",
        "loop_unknown_unroll1",
        _g(1),
        _g(128),
        _lu_args,
        _lu_exp,
        covers="runtime trip count, #pragma unroll 1",
    ),
    Launch(
        "loops.cu",
        "loop_unroll4_unknown",
        _g(1),
        _g(128),
        _l4_args,
        _l4_exp,
        covers="runtime trip count unrolled by 4 with remainder, runtime % n",
    ),
    Launch(
        "loops.cu",
        "loop_countdown",
        _g(2),
        _g(128),
        _lc_args,
        _lc_exp,
        covers="count-down loop, divergent per-thread trip counts",
    ),
    Launch(
        "loops.cu",
        "loop_nested",
        _g(1),
        _g(64),
        _ln_args,
        _ln_exp,
        covers="nested loops with runtime bounds",
    ),
    Launch(
        "loops.cu",
        "loop_while_collatz",
        _g(2),
        _g(128),
        _collatz_args,
        _collatz_exp,
        covers="data-dependent while loop with two exits",
    ),
    Launch(
        "calls.cu",
        "device_calls",
        _g(1),
        _g(128),
        _calls_args,
        _calls_exp,
        covers="__noinline__ calls: 7 mixed params, results through pointers, f32 call",
    ),
    Launch(
        "misc.cu",
        "launch_bounds_poly",
        _g(4),
        _g(128),
        _lb_args,
        _lb_exp,
        covers="__launch_bounds__(128, 4) (.maxntid/.minnctapersm)",
    ),
    Launch(
        "misc.cu",
        "ldg_gather",
        _g(2),
        _g(128),
        _ldg_args,
        _ldg_exp,
        covers="__ldg (ld.global.nc), dependent gather",
    ),
    Launch(
        "misc.cu",
        "threadfence_reduce",
        _g(TF_GRID),
        _g(128),
        _tf_args,
        _tf_exp,
        covers="volatile stores, __threadfence (membar.gl), atomic counter, last block",
    ),
    Launch(
        "misc.cu",
        "vote_ops",
        _g(1),
        _g(VOTE_N),
        _vote_args,
        _vote_exp,
        covers="__ballot_sync, __all_sync, __any_sync, lane masks",
    ),
]
