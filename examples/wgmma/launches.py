"""Launch table for the warpgroup MMA kernels in ``examples/wgmma`` (sm_90a).

Same conventions as :mod:`examples.cuda.launches`.  The inputs are small
multiples of 1/4 (f16 and bf16 hold them exactly, every product and every sum
of a tile is exact in f32 and in f16 for the f16-accumulator kernel), so the
expected values are exact and every comparison is bit-exact.  The accumulation
model (interpreter/gmma.py, "Numerics") is what an NVIDIA H200 computed when it
ran these kernels (and single wgmma instructions) on random inputs:
``tests/interpreter/test_wgmma_hardware.py`` checks the interpreter against
those outputs bit for bit.
"""

from __future__ import annotations

import sys
from dataclasses import dataclass
from pathlib import Path
from typing import Any

import numpy as np

WGMMA_DIR = Path(__file__).resolve().parent
ROOT = WGMMA_DIR.parents[1]
if str(ROOT) not in sys.path:  # loaded by path (tests, scripts): make ``examples`` importable
    sys.path.insert(0, str(ROOT))

from examples.cuda.launches import Launch

PTX_DIR = WGMMA_DIR / "ptx"
Args = list[Any]


@dataclass(frozen=True)
class WgmmaLaunch(Launch):
    """A :class:`Launch` of a wgmma kernel (its PTX is under ``examples/wgmma/ptx``)."""

    def ptx_path(self, arch: str) -> Path:
        return PTX_DIR / arch / (Path(self.file).stem + ".ptx")


def _quarters(rng: np.random.Generator, shape: tuple[int, ...], dtype: Any) -> np.ndarray:
    return (rng.integers(-8, 9, shape) / 4).astype(np.float32).astype(dtype)


def bf16_bits(x: np.ndarray) -> np.ndarray:
    """f32 values that bf16 holds exactly, as bf16 bit patterns (uint16)."""
    return (x.astype(np.float32).view(np.uint32) >> 16).astype(np.uint16)


K_NOSW = 48


def _nosw_args(rng: np.random.Generator) -> Args:
    a = _quarters(rng, (64, K_NOSW), np.float16)
    bt = _quarters(rng, (64, K_NOSW), np.float16)
    return [a, bt, np.zeros((64, 64), np.float32), np.int32(K_NOSW)]


def _nosw_exp(args: Args) -> Args:
    a, bt = args[0].astype(np.float64), args[1].astype(np.float64)
    return [None, None, (a @ bt.T).astype(np.float32), None]


def _sw128_args(rng: np.random.Generator) -> Args:
    a = _quarters(rng, (64, 64), np.float32)
    bt = _quarters(rng, (32, 64), np.float32)
    return [bf16_bits(a), bf16_bits(bt), np.zeros((64, 32), np.float32)]


def _from_bf16(bits: np.ndarray) -> np.ndarray:
    return (bits.astype(np.uint32) << 16).view(np.float32).astype(np.float64)


def _sw128_exp(args: Args) -> Args:
    return [None, None, (_from_bf16(args[0]) @ _from_bf16(args[1]).T).astype(np.float32)]


def _rs_args(rng: np.random.Generator) -> Args:
    a = _quarters(rng, (64, 16), np.float16)
    bt = _quarters(rng, (32, 16), np.float16)
    c = _quarters(rng, (64, 32), np.float16)
    return [a, bt, c, np.zeros((64, 32), np.float16)]


def _rs_exp(args: Args) -> Args:
    a, bt, c = (x.astype(np.float64) for x in args[:3])
    return [None, None, None, (c - a @ bt.T).astype(np.float16)]


def _sw64_args(rng: np.random.Generator) -> Args:
    a = _quarters(rng, (64, 32), np.float16)
    b = _quarters(rng, (32, 32), np.float16)
    return [a, b, np.zeros((64, 32), np.float32)]


def _sw64_exp(args: Args) -> Args:
    return [None, None, (args[0].astype(np.float64) @ args[1].astype(np.float64)).astype(
        np.float32)]


LAUNCHES: list[WgmmaLaunch] = [
    WgmmaLaunch("wgmma.cu", "wgmma_f16_nosw", 1, 128, _nosw_args, _nosw_exp,
                covers="f16 -> f32, no swizzle, 3 commit groups"),
    WgmmaLaunch("wgmma.cu", "wgmma_bf16_sw128", 1, 128, _sw128_args, _sw128_exp,
                covers="bf16 -> f32, 128-byte swizzle, scale-d 0, 4 wgmma in a group"),
    WgmmaLaunch("wgmma.cu", "wgmma_f16_sw64_mn", 1, 128, _sw64_args, _sw64_exp,
                covers="64-byte swizzle, B MN-major (Triton's tl.dot layouts)"),
    WgmmaLaunch("wgmma.cu", "wgmma_rs_f16acc", 1, 128, _rs_args, _rs_exp,
                covers="A from registers, f16 accumulators, imm-scale-a -1"),
]

__all__ = ["LAUNCHES", "PTX_DIR", "WgmmaLaunch", "bf16_bits"]
