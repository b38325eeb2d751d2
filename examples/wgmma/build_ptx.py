"""Compile every ``examples/wgmma/*.cu`` to PTX for sm_90a.

Run with the project's venv python from the repository root::

    python examples/wgmma/build_ptx.py

Writes ``examples/wgmma/ptx/sm_90a/NAME.ptx`` exactly as nvcc emits it: warpgroup MMA
(``wgmma``) exists on sm_90a only, so this corpus has that one target.  The flags, the nvcc invocation and the normalization used to compare
against a fresh build are those of ``examples/cuda/build_ptx.py`` (imported, so the
corpora cannot drift apart); only the source and output folders differ.
"""

from __future__ import annotations

import shutil
import sys
from concurrent.futures import ThreadPoolExecutor
from pathlib import Path

WGMMA_DIR = Path(__file__).resolve().parent
ROOT = WGMMA_DIR.parents[1]
if str(ROOT) not in sys.path:  # run as a script: make ``examples`` importable
    sys.path.insert(0, str(ROOT))

from examples.cuda.build_ptx import (
    NVCC_FLAGS,
    compile_one,
    normalize_ptx,
)

ARCHS: tuple[str, ...] = ("sm_90a",)

PTX_DIR = WGMMA_DIR / "ptx"

__all__ = ["ARCHS", "NVCC_FLAGS", "PTX_DIR", "compile_all", "normalize_ptx", "sources"]


def sources() -> list[Path]:
    """All wgmma sources, sorted by name."""
    return sorted(WGMMA_DIR.glob("*.cu"))


def compile_all(root: Path, jobs: int = 4) -> list[Path]:
    """Compile every source for every arch into ``root/ARCH/NAME.ptx``."""
    work = [(src, arch) for arch in ARCHS for src in sources()]
    with ThreadPoolExecutor(max_workers=jobs) as pool:
        return list(pool.map(lambda sa: compile_one(sa[0], sa[1], root / sa[1]), work))


def main() -> int:
    if shutil.which("nvcc") is None:
        print("nvcc not found on PATH", file=sys.stderr)
        return 1
    for out in compile_all(PTX_DIR):
        print(out.relative_to(ROOT))
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
