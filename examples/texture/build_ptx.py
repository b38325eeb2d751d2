"""Compile every ``examples/texture/*.cu`` to PTX for sm_80 and sm_90.

Run with the project's venv python from the repository root::

    python examples/texture/build_ptx.py

Writes ``examples/texture/ptx/sm_80/NAME.ptx`` and ``.../sm_90/NAME.ptx`` exactly as
nvcc emits them.  The flags, the nvcc invocation and the normalization used to compare
against a fresh build are those of ``examples/cuda/build_ptx.py`` (imported, so the
corpora cannot drift apart); only the source and output folders differ.
"""

from __future__ import annotations

import shutil
import sys
from concurrent.futures import ThreadPoolExecutor
from pathlib import Path

TEXTURE_DIR = Path(__file__).resolve().parent
ROOT = TEXTURE_DIR.parents[1]
if str(ROOT) not in sys.path:  # run as a script: make ``examples`` importable
    sys.path.insert(0, str(ROOT))

from examples.cuda.build_ptx import (
    ARCHS,
    NVCC_FLAGS,
    compile_one,
    normalize_ptx,
)

PTX_DIR = TEXTURE_DIR / "ptx"

__all__ = ["ARCHS", "NVCC_FLAGS", "PTX_DIR", "compile_all", "normalize_ptx", "sources"]


def sources() -> list[Path]:
    """All texture sources, sorted by name."""
    return sorted(TEXTURE_DIR.glob("*.cu"))


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
