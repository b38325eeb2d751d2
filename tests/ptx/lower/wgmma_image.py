"""Shared-memory images of wgmma operands for the tests: A (64 x 16) and B
(N x 16, indexed n, k) K-major without swizzle, as PTX ISA 9.7.15.5.1.1
lays them out -- 8 x 16-byte core matrices, ``LBO`` bytes between the two
k halves, ``SBO`` bytes between groups of 8 rows.  Written from the ISA
text, independently of the interpreter's ``descriptor_offsets``, so the
tests check one against the other."""

from __future__ import annotations

import numpy as np

LBO, SBO = 128, 256
"""The leading- and stride-dimension byte offsets the test kernels' descriptors use."""
B_BASE = 2048
"""B's byte offset in shared memory (A starts at 0)."""


def kmajor_image(a: np.ndarray, b: np.ndarray, size: int) -> np.ndarray:
    """``size`` bytes of shared memory holding A at 0 and B at ``B_BASE`` (f16)."""
    img = np.zeros(size, np.uint8)
    for base, m in ((0, a), (B_BASE, b)):
        r = np.arange(m.shape[0])[:, None]
        k = np.arange(16)[None, :]
        off = base + (r // 8) * SBO + (k // 8) * LBO + (r % 8) * 16 + (k % 8) * 2
        h = m.astype(np.float16).view(np.uint16)
        img[off] = h & 0xFF
        img[off + 1] = h >> 8
    return img


__all__ = ["B_BASE", "LBO", "SBO", "kmajor_image"]
