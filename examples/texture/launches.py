"""Launch table for the texture kernels in ``examples/texture``.

One :class:`TextureLaunch` (a :class:`examples.cuda.launches.Launch` whose PTX lives in
``examples/texture/ptx``) per launch, with the same conventions: ``make_args`` gives the
arguments in parameter order (a :class:`ori_dialect.interpreter.Texture` for a
``cudaTextureObject_t``, arrays for pointers, numpy scalars for values), ``expected``
what each argument must hold afterwards (``None``: not checked).

The expected values come from :func:`reference_fetch`, a scalar transcription of the
CUDA Programming Guide's "Texture Fetching" appendix written independently of the
interpreter (one texel at a time, in Python floats), with the 9-bit weights the guide
states: ``frac * 256`` rounded to the nearest integer (ties to even), over 256; each
filtered value is the exact weighted sum rounded once to f32.  So every comparison is
bit-exact.  :func:`unquantized_fetch` is the same filter with exact weights, for the
float64 tolerance check in the tests (|difference| <= half a weight step times the
texel range).
"""

from __future__ import annotations

import math
import sys
from dataclasses import dataclass
from pathlib import Path
from typing import Any

import numpy as np

TEXTURE_DIR = Path(__file__).resolve().parent
ROOT = TEXTURE_DIR.parents[1]
if str(ROOT) not in sys.path:  # loaded by path (tests, scripts): make ``examples`` importable
    sys.path.insert(0, str(ROOT))

from examples.cuda.launches import Launch
from ori_dialect.interpreter import Texture

PTX_DIR = TEXTURE_DIR / "ptx"
Args = list[Any]


@dataclass(frozen=True)
class TextureLaunch(Launch):
    """A :class:`Launch` of a texture kernel (its PTX is under ``examples/texture/ptx``)."""

    def ptx_path(self, arch: str) -> Path:
        return PTX_DIR / arch / (Path(self.file).stem + ".ptx")


# ----------------------------------------------------------------------------- reference


def _f32(v: float) -> float:
    return float(np.float32(v))


def _texel(tex: Texture, idx: tuple[int, ...]) -> list[float] | None:
    """Channels of the texel at (x[, y]) after the address mode; None: border (0)."""
    a = np.asarray(tex.array)
    dims = tex.dims or a.ndim
    shape = a.shape[:dims][::-1]  # x first
    modes = (tex.address_mode,) * dims if isinstance(tex.address_mode, str) else tex.address_mode
    out = []
    for i, n, mode in zip(idx, shape, modes):
        if 0 <= i < n:
            out.append(i)
        elif mode == "border":
            return None
        elif mode == "wrap":
            out.append(i % n)
        else:  # clamp; mirror: the mirrored coordinate's neighbour is the edge texel
            out.append(min(max(i, 0), n - 1))
    v = a[tuple(reversed(out))]
    ch = [float(x) for x in np.atleast_1d(v)]
    if tex.read_mode == "normalized_float":
        bits = 8 * a.dtype.itemsize
        ch = ([c / ((1 << bits) - 1) for c in ch] if a.dtype.kind == "u"
              else [max(c / ((1 << (bits - 1)) - 1), -1.0) for c in ch])
    return ch + [0.0] * (4 - len(ch))


def _coord(tex: Texture, c: float, n: int, mode: str) -> float:
    if not tex.normalized_coords:
        return c
    if mode == "wrap":
        c = _f32(c - math.floor(c))
    elif mode == "mirror":
        f = math.floor(c)
        c = _f32(c - f) if f % 2 == 0 else _f32(1.0 - _f32(c - f))
    return _f32(c * n)


def _weight(xb: float, quantize: bool) -> tuple[int, float]:
    i = math.floor(xb)
    fr = xb - i
    return i, (round(fr * 256) / 256 if quantize else fr)  # round(): ties to even


def _fetch(tex: Texture, coords: list[float], quantize: bool) -> list[float]:
    a = np.asarray(tex.array)
    dims = tex.dims or a.ndim
    shape = a.shape[:dims][::-1]
    modes = (tex.address_mode,) * dims if isinstance(tex.address_mode, str) else tex.address_mode
    xs = [_coord(tex, c, n, m) for c, n, m in zip(coords, shape, modes)]
    if tex.filter_mode == "point":
        t = _texel(tex, tuple(math.floor(x) for x in xs))
        return t if t is not None else [0.0] * 4
    axes = [_weight(_f32(x - 0.5), quantize) for x in xs]
    acc = [0.0] * 4
    for corner in range(1 << dims):
        idx, w = [], 1.0
        for k, (i, a_) in enumerate(axes):
            up = (corner >> k) & 1
            idx.append(i + up)
            w *= a_ if up else 1.0 - a_
        t = _texel(tex, tuple(idx))
        if t is not None:
            acc = [s + w * v for s, v in zip(acc, t)]
    return acc


def reference_fetch(tex: Texture, coords: list[float]) -> list[float]:
    """The four channels a float-coordinate fetch returns, rounded to f32."""
    return [_f32(v) for v in _fetch(tex, coords, True)]


def unquantized_fetch(tex: Texture, coords: list[float]) -> list[float]:
    """The same fetch with exact (unquantized) filter weights, in float64."""
    return _fetch(tex, coords, False)


def reference_gather(tex: Texture, x: float, y: float, comp: int) -> list[float]:
    """``tex2Dgather``: channel ``comp`` of the bilinear footprint, in the order
    (i, j+1), (i+1, j+1), (i+1, j), (i, j)."""
    i, _ = _weight(_f32(x - 0.5), True)
    j, _ = _weight(_f32(y - 0.5), True)
    out = []
    for di, dj in ((0, 1), (1, 1), (1, 0), (0, 0)):
        t = _texel(tex, (i + di, j + dj))
        out.append(0.0 if t is None else t[comp])
    return out


# ----------------------------------------------------------------------------- launches

N = 64
W, H = 7, 5


def _image(rng: np.random.Generator) -> np.ndarray:
    return (rng.integers(-64, 64, (H, W)) / 4).astype(np.float32)


def _xy(rng: np.random.Generator, n: int, margin: float = 1.5) -> np.ndarray:
    # coordinates inside and outside the image, on and off texel centres
    x = rng.uniform(-margin, W + margin, n)
    y = rng.uniform(-margin, H + margin, n)
    xy = np.stack([x, y], axis=1).astype(np.float32)
    xy[:8] = [[0.5, 0.5], [1.0, 1.0], [W, H], [W - 0.5, H - 0.5], [-3, 2], [2, -3],
              [3.25, 2.75], [0.0, 0.0]]
    return xy


def _gather1d_args(rng: np.random.Generator) -> Args:
    data = (rng.integers(-1000, 1000, 40) / 8).astype(np.float32)
    idx = rng.integers(-4, 44, N).astype(np.int32)
    return [Texture(data, linear=True), idx, np.zeros(N, np.float32), np.int32(N)]


def _gather1d_exp(args: Args) -> Args:
    tex, idx = args[0], args[1]
    a = np.asarray(tex.array)
    out = np.array([a[i] if 0 <= i < len(a) else 0.0 for i in idx], np.float32)
    return [None, None, out, None]


def _gather1d_f4_args(rng: np.random.Generator) -> Args:
    data = (rng.integers(-1000, 1000, (40, 4)) / 8).astype(np.float32)
    idx = rng.integers(-4, 44, N).astype(np.int32)
    return [Texture(data, dims=1, linear=True), idx, np.zeros((N, 4), np.float32), np.int32(N)]


def _gather1d_f4_exp(args: Args) -> Args:
    tex, idx = args[0], args[1]
    a = np.asarray(tex.array)
    out = np.array([a[i] if 0 <= i < len(a) else [0.0] * 4 for i in idx], np.float32)
    return [None, None, out, None]


def _sample1d(mode: str, filt: str, normalized: bool = False) -> Any:
    def make(rng: np.random.Generator) -> Args:
        data = (rng.integers(-1000, 1000, 24) / 8).astype(np.float32)
        lo, hi = (-1.5, 2.5) if normalized else (-3.0, 27.0)
        x = rng.uniform(lo, hi, N).astype(np.float32)
        tex = Texture(data, address_mode=mode, filter_mode=filt, normalized_coords=normalized)
        return [tex, x, np.zeros(N, np.float32), np.int32(N)]

    return make


def _sample1d_exp(args: Args) -> Args:
    tex, x = args[0], args[1]
    out = np.array([reference_fetch(tex, [float(v)])[0] for v in x], np.float32)
    return [None, None, out, None]


def _sample2d(mode: str, filt: str, normalized: bool = False) -> Any:
    def make(rng: np.random.Generator) -> Args:
        xy = _xy(rng, N)
        if normalized:
            xy = (xy / np.array([W, H], np.float32) * np.float32(1.5)).astype(np.float32)
        tex = Texture(_image(rng), address_mode=mode, filter_mode=filt,
                      normalized_coords=normalized)
        return [tex, xy, np.zeros(N, np.float32), np.int32(N)]

    return make


def _sample2d_exp(args: Args) -> Args:
    tex, xy = args[0], args[1]
    out = np.array([reference_fetch(tex, [float(a), float(b)])[0] for a, b in xy], np.float32)
    return [None, None, out, None]


def _pick_args(rng: np.random.Generator) -> Args:
    a = Texture(_image(rng), filter_mode="linear")
    b = Texture(_image(rng), address_mode="border")
    return [a, b, _xy(rng, N), np.zeros(N, np.float32), np.int32(N)]


def _pick_exp(args: Args) -> Args:
    a, b, xy = args[0], args[1], args[2]
    out = np.array([reference_fetch(b if i & 1 else a, [float(p), float(q)])[0]
                    for i, (p, q) in enumerate(xy)], np.float32)
    return [None, None, None, out, None]


def _u8_args(rng: np.random.Generator) -> Args:
    img = rng.integers(0, 256, (H, W)).astype(np.uint8)
    tex = Texture(img, filter_mode="linear", read_mode="normalized_float")
    return [tex, _xy(rng, N), np.zeros(N, np.float32), np.int32(N)]


def _int_args(rng: np.random.Generator) -> Args:
    img = rng.integers(-(1 << 31), 1 << 31, (H, W), dtype=np.int64).astype(np.int32)
    return [Texture(img, address_mode="border"), _xy(rng, N), np.zeros(N, np.int32), np.int32(N)]


def _int_exp(args: Args) -> Args:
    tex, xy = args[0], args[1]
    a = np.asarray(tex.array)
    out = []
    for x, y in xy:
        i, j = math.floor(x), math.floor(y)
        out.append(int(a[j, i]) if 0 <= i < W and 0 <= j < H else 0)
    return [None, None, np.array(out, np.int32), None]


def _gather2d_args(rng: np.random.Generator) -> Args:
    return [Texture(_image(rng), address_mode="clamp"), _xy(rng, N), np.zeros((N, 4), np.float32),
            np.int32(N)]


def _gather2d_exp(args: Args) -> Args:
    tex, xy = args[0], args[1]
    out = np.array([reference_gather(tex, float(x), float(y), 0) for x, y in xy], np.float32)
    return [None, None, out, None]


RW_, RH_ = 10, 8  # resize target


def _resize_args(rng: np.random.Generator) -> Args:
    tex = Texture(_image(rng), filter_mode="linear")
    return [tex, np.zeros(RW_ * RH_, np.float32), np.int32(RW_), np.int32(RH_),
            np.float32(W / RW_), np.float32(H / RH_)]


def _resize_exp(args: Args) -> Args:
    tex, _, _, _, sx, sy = args
    out = []
    for y in range(RH_):
        for x in range(RW_):
            cx = _f32(_f32(x + 0.5) * float(sx))
            cy = _f32(_f32(y + 0.5) * float(sy))
            out.append(reference_fetch(tex, [cx, cy])[0])
    return [None, np.array(out, np.float32), None, None, None, None]


def _l(kernel: str, make: Any, exp: Any, covers: str, grid: Any = 1, block: Any = N,
       ) -> TextureLaunch:
    return TextureLaunch("textures.cu", kernel, grid, block, make, exp, covers=covers)


LAUNCHES: list[TextureLaunch] = [
    _l("gather1d", _gather1d_args, _gather1d_exp, "tex1Dfetch, linear memory, out of range 0"),
    _l("gather1d_f4", _gather1d_f4_args, _gather1d_f4_exp, "tex1Dfetch<float4>, 4 channels"),
    _l("sample1d", _sample1d("clamp", "point"), _sample1d_exp, "tex1D point clamp"),
    _l("sample1d", _sample1d("border", "linear"), _sample1d_exp, "tex1D linear border"),
    _l("sample1d", _sample1d("wrap", "linear", True), _sample1d_exp, "tex1D linear wrap"),
    _l("sample1d", _sample1d("mirror", "point", True), _sample1d_exp, "tex1D point mirror"),
    _l("sample2d", _sample2d("clamp", "point"), _sample2d_exp, "tex2D point clamp"),
    _l("sample2d", _sample2d("clamp", "linear"), _sample2d_exp, "tex2D linear clamp"),
    _l("sample2d", _sample2d("border", "linear"), _sample2d_exp, "tex2D linear border"),
    _l("sample2d", _sample2d("wrap", "linear", True), _sample2d_exp, "tex2D linear wrap"),
    _l("sample2d", _sample2d("mirror", "linear", True), _sample2d_exp, "tex2D linear mirror"),
    _l("sample2d", _u8_args, _sample2d_exp, "tex2D u8 normalized float, linear"),
    _l("sample2d_pick", _pick_args, _pick_exp, "per-thread texture handle"),
    _l("sample2d_int", _int_args, _int_exp, "tex2D<int>, integer results, border"),
    _l("gather2d", _gather2d_args, _gather2d_exp, "tex2Dgather (TLD4.R)"),
    _l("resize2d", _resize_args, _resize_exp, "bilinear resize, 2D grid", grid=(2, 2),
       block=(8, 4)),
]

__all__ = ["LAUNCHES", "PTX_DIR", "TextureLaunch", "reference_fetch", "reference_gather",
           "unquantized_fetch"]
