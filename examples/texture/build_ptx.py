"""Compile every ``examples/texture/*.cu`` to PTX for sm_80 and sm_90.

Run with the project's venv python from the repository root::

    python examples/texture/build_ptx.py

Writes ``examples/texture/ptx/ARCH/NAME.ptx`` exactly as nvcc emits it.  The
flags, the nvcc invocation and the normalization used to compare against a
fresh build are those of ``examples/cuda/build_ptx.py`` (its :class:`Corpus`),
so the corpora cannot drift apart; only the folders differ.
"""

from __future__ import annotations

import sys
from pathlib import Path

TEXTURE_DIR = Path(__file__).resolve().parent
ROOT = TEXTURE_DIR.parents[1]
if str(ROOT) not in sys.path:  # run as a script: make ``examples`` importable
    sys.path.insert(0, str(ROOT))

from examples.cuda.build_ptx import (
    ARCHS,
    NVCC_FLAGS,
    Corpus,
    compile_one,
    normalize_ptx,
)

CORPUS = Corpus(TEXTURE_DIR, TEXTURE_DIR / "ptx", ARCHS)
PTX_DIR = CORPUS.ptx_dir
sources = CORPUS.sources
compile_all = CORPUS.compile_all

__all__ = [
    "ARCHS", "CORPUS", "NVCC_FLAGS", "PTX_DIR", "compile_all", "compile_one", "normalize_ptx",
    "sources",
]

if __name__ == "__main__":
    raise SystemExit(CORPUS.main())
