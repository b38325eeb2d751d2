"""Add the f16/bf16 runs of ``mma_probe.cu`` to ``mma_h200.npz``.

Usage (after ``OUT=DIR ./mma_probe 16`` on the GPU)::

    python tests/interpreter/data/mma_npz.py DIR

Each ``FMT_kK_ACC_mMODE.bin`` in DIR (128 warps: A 16xK, B Kx8, C and D 16x8 per
warp, row-major, one uint32 per element) becomes the entries
``FMT_kK_ACC_mMODE.{a,b,c,d}`` holding its first 16 warps: A and B as uint16 bit
patterns, C and D as uint16 for an f16 accumulator and as uint32 for f32.  The
entries already in the file are kept (a run in both is replaced);
``tests/interpreter/test_mma_hardware.py`` then checks every one of them.
"""

from __future__ import annotations

import re
import sys
from pathlib import Path

import numpy as np

NPZ = Path(__file__).resolve().parent / "mma_h200.npz"
NAME = re.compile(r"^(f16|bf16)_k(16|8)_(f32|f16)_m(\d+)\.bin$")
WARPS, KEEP = 128, 16


def convert(bins: Path, npz: Path = NPZ) -> list[str]:
    """Merge the f16/bf16 runs in ``bins`` into ``npz``; the run names added."""
    data = dict(np.load(npz)) if npz.exists() else {}
    added = []
    for path in sorted(bins.glob("*.bin")):
        m = NAME.match(path.name)
        if not m:
            continue
        k, f16_acc = int(m.group(2)), m.group(3) == "f16"
        raw = np.fromfile(path, np.uint32)
        sizes = [WARPS * 16 * k, WARPS * k * 8, WARPS * 128, WARPS * 128]
        if raw.size != sum(sizes):
            raise ValueError(f"{path}: {raw.size} words, expected {sum(sizes)}")
        a, b, c, d = np.split(raw, np.cumsum(sizes)[:-1])
        name = path.stem
        data[f"{name}.a"] = a.reshape(WARPS, 16, k)[:KEEP].astype(np.uint16)
        data[f"{name}.b"] = b.reshape(WARPS, k, 8)[:KEEP].astype(np.uint16)
        acc = np.uint16 if f16_acc else np.uint32
        data[f"{name}.c"] = c.reshape(WARPS, 16, 8)[:KEEP].astype(acc)
        data[f"{name}.d"] = d.reshape(WARPS, 16, 8)[:KEEP].astype(acc)
        added.append(name)
    np.savez_compressed(npz, **data)
    return added


if __name__ == "__main__":
    if len(sys.argv) != 2:
        sys.exit("usage: mma_npz.py DIR_WITH_BIN_FILES")
    print("\n".join(convert(Path(sys.argv[1]))))
