"""Compile every ``examples/wgmma/*.cu`` to PTX for sm_90a.

Run with the project's venv python from the repository root::

    python examples/wgmma/build_ptx.py

Writes ``examples/wgmma/ptx/ARCH/NAME.ptx`` exactly as nvcc emits it. Warpgroup MMA
(``wgmma``) exists on sm_90a only, so this corpus has that one target.  The
flags, the nvcc invocation and the normalization used to compare against a
fresh build are those of ``examples/cuda/build_ptx.py`` (its :class:`Corpus`),
so the corpora cannot drift apart; only the folders and the target differ.
"""

from __future__ import annotations

import sys
from pathlib import Path

WGMMA_DIR = Path(__file__).resolve().parent
ROOT = WGMMA_DIR.parents[1]
if str(ROOT) not in sys.path:  # run as a script: make ``examples`` importable
    sys.path.insert(0, str(ROOT))

from examples.cuda.build_ptx import NVCC_FLAGS, Corpus, compile_one, normalize_ptx

ARCHS: tuple[str, ...] = ("sm_90a",)
CORPUS = Corpus(WGMMA_DIR, WGMMA_DIR / "ptx", ARCHS)
PTX_DIR = CORPUS.ptx_dir
sources = CORPUS.sources
compile_all = CORPUS.compile_all

__all__ = [
    "ARCHS", "CORPUS", "NVCC_FLAGS", "PTX_DIR", "compile_all", "compile_one", "normalize_ptx",
    "sources",
]

if __name__ == "__main__":
    raise SystemExit(CORPUS.main())
