"""Texture objects for ``run_kernel`` and the TEX / TLD / TLD4 fetches.

A kernel parameter of type ``cudaTextureObject_t`` (a ``.u64`` in PTX) takes
a :class:`Texture` in ``run_kernel``'s argument list; the launch gives it a
handle (1, 2, ... in argument order, as the CUDA driver hands out small
integers) and passes the handle by value.  A fetch through a handle that
names no texture object of the launch is a fault.

The fetch follows the CUDA C++ Programming Guide, appendix "Texture
Fetching" (a texture of N texels along an axis; x, y the coordinates):

* **Normalized coordinates** are first mapped by the address mode, then
  scaled: ``wrap`` replaces x by ``frac(x) = x - floor(x)``; ``mirror`` by
  ``frac(x)`` if ``floor(x)`` is even and ``1 - frac(x)`` if it is odd;
  then x becomes ``x * N`` (f32 arithmetic).  The guide supports ``wrap``
  and ``mirror`` only with normalized coordinates; a :class:`Texture` that
  asks for them otherwise is refused.
* **Nearest-point sampling** returns ``T[i]`` with ``i = floor(x)``.
* **Linear filtering** (float results only, as the guide requires):
  ``tex(x) = (1 - a) T[i] + a T[i+1]`` with ``xB = x - 0.5``,
  ``i = floor(xB)``, ``a = frac(xB)``; in 2D ``(1-a)(1-b) T[i,j] +
  a(1-b) T[i+1,j] + (1-a) b T[i,j+1] + a b T[i+1,j+1]`` (i the column, j
  the row).  The guide states that ``a`` and ``b`` are "stored in 9-bit
  fixed point format with 8 bits of fractional value (so 1.0 is exactly
  represented)": the model rounds ``frac(xB) * 256`` to the nearest integer
  (ties to even) and divides by 256, so a weight is k/256 with 0 <= k <= 256.
  The guide does not say how the hardware rounds to that grid nor at what
  precision it blends; the model forms each weighted sum exactly (float64,
  which holds every product of a k/256 weight pair and an f32 texel) and
  rounds the sum once to f32.
* **Address modes** for a texel index outside ``[0, N)``: ``clamp`` uses the
  nearest edge texel, ``border`` reads 0 (the border colour of a texture
  object created with a zeroed ``borderColor``), ``wrap`` takes the index
  modulo N; under ``mirror`` the coordinate is already mirrored into
  ``[0, N]``, so the neighbour of an edge texel is the edge texel itself (the
  mirror image), i.e. it clamps.
* **Integer coordinates** (TLD, ``tex.*.s32``, ``tex1Dfetch``) index texels
  directly, unfiltered; the address mode resolves an index outside the
  texture.  A texture over linear memory (``linear=True``,
  ``cudaResourceTypeLinear``, what ``tex1Dfetch`` reads) has no address
  mode: a fetch outside it returns 0, as the guide says for ``tex1Dfetch``.
* **Read mode**: ``element`` returns the texel type (float textures: f32;
  8/16/32-bit integer textures: the integer, sign- or zero-extended, for
  ``.s32``/``.u32`` fetches); ``normalized_float`` maps 8/16-bit integers to
  ``[0, 1]`` (unsigned, v / (2^n - 1)) or ``[-1, 1]`` (signed,
  ``max(v / (2^(n-1) - 1), -1)``), as ``cudaReadModeNormalizedFloat`` does.
  A texture of 1 or 2 channels returns 0 in the channels it lacks.
* **TLD4** (``tex2Dgather``) returns channel ``comp`` of the four texels a
  bilinear fetch at ``(x, y)`` reads, in the order ``(i, j+1)``,
  ``(i+1, j+1)``, ``(i+1, j)``, ``(i, j)`` (PTX ISA 9.7.10.4 ``tld4``).

A NaN coordinate, a result type that does not match the texture's data
(``.f32`` from an integer texture in element mode, ``.s32`` from a float
one), linear filtering of integer results and float coordinates on a linear
resource are faults naming the instruction and thread.
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass, field
from typing import TYPE_CHECKING, Any, Literal

import numpy as np

from ori_dialect.interpreter.frame import Core, Frame
from ori_dialect.interpreter.memory import Fault
from ori_dialect.interpreter.semantics.registry import InterpreterError
from ori_dialect.ops.texture import TexOp, TextureOp, Tld4Op, TldOp

if TYPE_CHECKING:
    from ori_dialect.interpreter.decoder import Decoder

AddressMode = Literal["clamp", "wrap", "mirror", "border"]
_MODES = ("clamp", "wrap", "mirror", "border")
_INT_DTYPES = (np.int8, np.uint8, np.int16, np.uint16, np.int32, np.uint32)
_FLOAT_DTYPES = (np.float32, np.float16)
WEIGHT_STEPS = 256
"""Linear-filter weights are multiples of 1/256 (9-bit fixed point, 8
fractional bits: CUDA Programming Guide "Texture Fetching", "Linear
Filtering")."""


@dataclass
class Texture:
    """A texture object argument of ``run_kernel`` (module docstring).

    ``array``: the texels, shape ``(W,)`` for 1D or ``(H, W)`` for 2D, plus a
    trailing channel axis of 1, 2 or 4 when ``dims`` says so (``dims=None``
    means ``array.ndim``: no channel axis); dtype float32, float16 or an
    8/16/32-bit integer.  ``address_mode``: one mode for every axis or a
    tuple (x first).  ``filter_mode``: ``"point"`` or ``"linear"``.
    ``normalized_coords``: coordinates in ``[0, 1)`` instead of texels.
    ``read_mode``: ``"element"`` or ``"normalized_float"``.  ``linear``: a
    1D texture over linear memory (``cudaResourceTypeLinear``, ``tex1Dfetch``).
    """

    array: np.ndarray
    address_mode: AddressMode | tuple[AddressMode, ...] = "clamp"
    filter_mode: Literal["point", "linear"] = "point"
    normalized_coords: bool = False
    read_mode: Literal["element", "normalized_float"] = "element"
    dims: int | None = None
    linear: bool = False
    _texels: np.ndarray = field(init=False, repr=False)
    _modes: tuple[str, ...] = field(init=False, repr=False)

    def __post_init__(self) -> None:
        a = np.asarray(self.array)
        dims = a.ndim if self.dims is None else self.dims
        if dims not in (1, 2):
            raise InterpreterError(f"Texture: 1D and 2D textures are modelled, not {dims}D")
        if a.ndim == dims:
            a = a[..., None]
        if a.ndim != dims + 1 or a.shape[-1] not in (1, 2, 4) or 0 in a.shape:
            raise InterpreterError(
                f"Texture: array of shape {np.shape(self.array)} is no non-empty {dims}D "
                "texture of 1, 2 or 4 channels")
        if a.dtype.type not in (*_INT_DTYPES, *_FLOAT_DTYPES):
            raise InterpreterError(f"Texture: texel type {a.dtype} is not a CUDA channel format")
        modes = ((self.address_mode,) * dims if isinstance(self.address_mode, str)
                 else tuple(self.address_mode))
        if len(modes) != dims or any(m not in _MODES for m in modes):
            raise InterpreterError(f"Texture: address_mode {self.address_mode!r}: give one of "
                                   f"{', '.join(_MODES)} or one per axis")
        if not self.normalized_coords and any(m in ("wrap", "mirror") for m in modes):
            raise InterpreterError("Texture: wrap and mirror address modes need normalized "
                                   "coordinates (CUDA Programming Guide, Texture Fetching)")
        if self.filter_mode not in ("point", "linear"):
            raise InterpreterError(f"Texture: filter_mode {self.filter_mode!r} is not "
                                   "'point' or 'linear'")
        if self.read_mode not in ("element", "normalized_float"):
            raise InterpreterError(f"Texture: read_mode {self.read_mode!r} is not 'element' "
                                   "or 'normalized_float'")
        small_int = a.dtype.type in _INT_DTYPES and a.dtype.itemsize <= 2
        if self.read_mode == "normalized_float" and not small_int:
            raise InterpreterError("Texture: normalized_float reads 8/16-bit integer textures "
                                   f"only, not {a.dtype}")
        if self.linear and dims != 1:
            raise InterpreterError("Texture: a linear-memory texture is 1D")
        self._modes = modes
        self.dims = dims
        if self.returns_float():
            t = a.astype(np.float64)
            if self.read_mode == "normalized_float":
                bits = 8 * a.dtype.itemsize
                if a.dtype.kind == "u":
                    t = t / ((1 << bits) - 1)
                else:
                    t = np.maximum(t / ((1 << (bits - 1)) - 1), -1.0)
        else:
            t = a.astype(np.int64)
        pad = np.zeros((*t.shape[:-1], 4), dtype=t.dtype)
        pad[..., : t.shape[-1]] = t
        self._texels = pad

    def returns_float(self) -> bool:
        return self.read_mode == "normalized_float" or np.asarray(self.array).dtype.type in \
            _FLOAT_DTYPES

    @property
    def shape(self) -> tuple[int, ...]:
        """Texels per axis, x first."""
        return tuple(reversed(self._texels.shape[:-1]))

    # ---- fetching ------------------------------------------------------
    def _texel(self, idx: list[np.ndarray], valid: np.ndarray) -> np.ndarray:
        """Texels at per-axis indices (x first), 0 where not ``valid``."""
        safe = [np.where(valid, i, 0) for i in idx]
        t = self._texels[tuple(reversed(safe))]
        return np.where(valid[:, None], t, 0)

    def _resolve(self, i: np.ndarray, axis: int) -> tuple[np.ndarray, np.ndarray]:
        n = self.shape[axis]
        mode = self._modes[axis]
        if mode == "wrap":
            return np.mod(i, n), np.ones(len(i), dtype=bool)
        if mode == "border":
            return i, (i >= 0) & (i < n)
        return np.clip(i, 0, n - 1), np.ones(len(i), dtype=bool)  # clamp, mirror

    def _scaled(self, c: np.ndarray, axis: int) -> np.ndarray:
        """Float coordinate in texels (normalized ones mapped and scaled)."""
        if not self.normalized_coords:
            return c
        mode = self._modes[axis]
        if mode == "wrap":
            c = c - np.floor(c)
        elif mode == "mirror":
            f = np.floor(c)
            fr = c - f
            c = np.where(np.mod(f, 2) == 0, fr, np.float32(1) - fr)
        return (c * np.float32(self.shape[axis])).astype(np.float32)

    def _linear_axis(self, c: np.ndarray) -> tuple[np.ndarray, np.ndarray]:
        """(i, weight of i+1) of a linear fetch along one axis."""
        xb = (c - np.float32(0.5)).astype(np.float32)
        f = np.floor(xb)
        w = np.rint((xb - f).astype(np.float64) * WEIGHT_STEPS) / WEIGHT_STEPS
        return _to_index(f), w

    def fetch(self, kind: str, rtype: str, comp: str | None, coords: list[np.ndarray]) -> np.ndarray:
        """The four 32-bit result words per lane (``(n, 4) uint32``) of a TEX
        (``kind="tex"``), TLD or TLD4 fetch; raises :class:`TextureFault`."""
        if len(coords) != self.dims:
            raise TextureFault(f"a {len(coords)}D fetch from a {self.dims}D texture")
        is_float = self.returns_float()
        if (rtype == "f32") != is_float:
            what = "float" if is_float else "integer"
            raise TextureFault(f"a .{rtype} fetch from a texture that returns {what} data "
                               f"(read mode {self.read_mode}, texels {self.array.dtype})")
        n = len(coords[0])
        if kind == "tld":
            if self.filter_mode == "linear":
                raise TextureFault("an integer-coordinate fetch from a texture with linear "
                                   "filtering is not modelled")
            idx = [c.view(np.int32).astype(np.int64) for c in coords]
            if self.linear:
                valid = (idx[0] >= 0) & (idx[0] < self.shape[0])
                return _words(self._texel(idx, valid), is_float)
            res = [self._resolve(i, a) for a, i in enumerate(idx)]
            return _words(self._texel([r[0] for r in res], _all_valid(res, n)), is_float)
        if self.linear:
            raise TextureFault("a float-coordinate fetch from a linear-memory texture "
                               "(tex1Dfetch takes integer coordinates)")
        fc = [c.view(np.float32) for c in coords]
        for c in fc:
            bad = np.isnan(c)
            if bad.any():
                raise TextureFault("NaN texture coordinate (not modelled)",
                                   int(np.flatnonzero(bad)[0]))
        xs = [self._scaled(c, a) for a, c in enumerate(fc)]
        if kind == "tld4":
            (i, _), (j, _) = (self._linear_axis(x) for x in xs)
            ch = "rgba".index(comp or "r")
            out = np.zeros((n, 4), dtype=np.float64 if is_float else np.int64)
            for k, (di, dj) in enumerate(((0, 1), (1, 1), (1, 0), (0, 0))):
                res = [self._resolve(i + di, 0), self._resolve(j + dj, 1)]
                out[:, k] = self._texel([r[0] for r in res], _all_valid(res, n))[:, ch]
            return _words(out, is_float)
        if self.filter_mode == "point":
            res = [self._resolve(_to_index(np.floor(x)), a) for a, x in enumerate(xs)]
            return _words(self._texel([r[0] for r in res], _all_valid(res, n)), is_float)
        if not is_float:
            raise TextureFault("linear filtering of integer results (CUDA allows it for "
                               "float results only)")
        axes = [self._linear_axis(x) for x in xs]
        acc = np.zeros((n, 4), dtype=np.float64)
        for corner in range(1 << self.dims):
            idx, weight = [], np.ones(n)
            for a, (i, w) in enumerate(axes):
                up = (corner >> a) & 1
                idx.append(i + up)
                weight = weight * (w if up else 1.0 - w)
            res = [self._resolve(i, a) for a, i in enumerate(idx)]
            acc += weight[:, None] * self._texel([r[0] for r in res], _all_valid(res, n))
        return _words(acc, True)


class TextureFault(Exception):
    """A fetch the model refuses; ``position`` is the lane's position when known."""

    def __init__(self, message: str, position: int = 0) -> None:
        super().__init__(message)
        self.message = message
        self.position = position


def _to_index(f: np.ndarray) -> np.ndarray:
    # Coordinates of any size land outside the texture: bound them first so
    # the integer conversion is defined (infinities included).
    return np.clip(f, -(2.0**40), 2.0**40).astype(np.int64)


def _all_valid(res: list[tuple[np.ndarray, np.ndarray]], n: int) -> np.ndarray:
    v = np.ones(n, dtype=bool)
    for _, ok in res:
        v &= ok
    return v


def _words(vals: np.ndarray, is_float: bool) -> np.ndarray:
    if is_float:
        return vals.astype(np.float32).view(np.uint32)
    return (vals & 0xFFFFFFFF).astype(np.uint32)


def _lanes(s: int, c: Any, frame: Frame, idx: np.ndarray) -> np.ndarray:
    if s >= 0:
        return frame[s][idx]
    return np.full(len(idx), c)


def _builder(kind: str) -> Callable[[Decoder, TextureOp, int], Core]:
    def build(dec: Decoder, op: TextureOp, k: int) -> Core:
        srcs = dec.sources(op)
        hs, hc = srcs["handle"][:2]
        coords = [srcs[n][:2] for n in ("x", "y") if n in srcs]
        rtype = op.mod("rtype") or "f32"
        comp = op.mod("comp") if isinstance(op, Tld4Op) else None
        d = dec.slot[op.results[0]]
        m = dec.m
        sass = type(op).SASS

        def fetch(frame: Frame, idx: np.ndarray) -> None:
            h = _lanes(hs, hc, frame, idx).astype(np.uint64)
            cs = [_lanes(s, c, frame, idx).astype(np.uint32) for s, c in coords]
            out = np.zeros((len(idx), 4), dtype=np.uint32)
            for hv in np.unique(h):
                sel = np.flatnonzero(h == hv)
                tex = m.textures.get(int(hv))
                if tex is None:
                    raise Fault(f"{sass}: texture handle {int(hv):#x} names no texture object "
                                "of this launch", thread=int(idx[sel[0]]))
                try:
                    out[sel] = tex.fetch(kind, rtype, comp, [c[sel] for c in cs])
                except TextureFault as e:
                    raise Fault(f"{sass}: {e.message}", thread=int(idx[sel[e.position]])) from None
            frame[d][idx] = out

        return fetch

    return build


TEXTURE_BUILDERS: dict[type, Callable[[Decoder, Any, int], Core]] = {
    TexOp: _builder("tex"),
    TldOp: _builder("tld"),
    Tld4Op: _builder("tld4"),
}

__all__ = ["TEXTURE_BUILDERS", "WEIGHT_STEPS", "AddressMode", "Texture", "TextureFault"]
