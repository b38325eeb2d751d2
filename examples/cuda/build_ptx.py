"""Compile every ``examples/cuda/*.cu`` to PTX for sm_80 and sm_90.

Run with the project's venv python::

    python examples/cuda/build_ptx.py

Writes ``examples/ptx/sm_80/NAME.ptx`` and ``examples/ptx/sm_90/NAME.ptx`` exactly as
nvcc emits them (no post-editing). The flags are fixed (:data:`NVCC_FLAGS`) so the output
is deterministic for a given nvcc; nvcc's own header names its version. The only
checkout-dependent text is the absolute source path nvcc writes into the ``.file``
directive (``-lineinfo``); :func:`normalize_ptx` removes that for comparisons.
"""

from __future__ import annotations

import re
import shutil
import subprocess
import sys
from concurrent.futures import ThreadPoolExecutor
from dataclasses import dataclass
from pathlib import Path

CUDA_DIR = Path(__file__).resolve().parent
PTX_DIR = CUDA_DIR.parent / "ptx"
ARCHS: tuple[str, ...] = ("sm_80", "sm_90")
NVCC_FLAGS: tuple[str, ...] = ("-ptx", "-lineinfo", "-O3", "-std=c++17")

_FILE_RE = re.compile(r'^(\s*\.file\s+\d+\s+)"[^"]*?([^/"]+)"', re.MULTILINE)


def nvcc_command(src: Path, arch: str, out: Path) -> list[str]:
    return ["nvcc", *NVCC_FLAGS, f"-arch={arch}", src.name, "-o", str(out)]


def compile_one(src: Path, arch: str, out_dir: Path) -> Path:
    """Compile ``src`` for ``arch`` into ``out_dir/NAME.ptx`` (nvcc runs in CUDA_DIR)."""
    out_dir.mkdir(parents=True, exist_ok=True)
    out = out_dir / (src.stem + ".ptx")
    proc = subprocess.run(
        nvcc_command(src, arch, out.resolve()),
        cwd=src.parent,
        capture_output=True,
        text=True,
        check=False,
    )
    if proc.returncode != 0:
        raise RuntimeError(f"nvcc failed for {src.name} ({arch}):\n{proc.stderr}")
    return out


@dataclass(frozen=True)
class Corpus:
    """A folder of ``.cu`` sources compiled with :data:`NVCC_FLAGS` for ``archs``
    into ``ptx_dir/ARCH/NAME.ptx``.  Every example corpus (``examples/cuda``,
    ``library``, ``tensor``, ``texture``, ``wgmma``) is one, so that they are
    built the same way and cannot drift apart."""

    src_dir: Path
    ptx_dir: Path
    archs: tuple[str, ...] = ARCHS

    def sources(self) -> list[Path]:
        """All CUDA sources, sorted by name."""
        return sorted(self.src_dir.glob("*.cu"))

    def compile_all(self, root: Path, jobs: int = 4) -> list[Path]:
        """Compile every source for every arch into ``root/ARCH/NAME.ptx``."""
        work = [(src, arch) for arch in self.archs for src in self.sources()]
        with ThreadPoolExecutor(max_workers=jobs) as pool:
            return list(pool.map(lambda sa: compile_one(sa[0], sa[1], root / sa[1]), work))

    def main(self) -> int:
        """Rebuild the committed PTX (the scripts' entry point)."""
        if shutil.which("nvcc") is None:
            print("nvcc not found on PATH", file=sys.stderr)
            return 1
        repo = CUDA_DIR.parents[1]
        for out in self.compile_all(self.ptx_dir):
            print(out.relative_to(repo))
        return 0


CORPUS = Corpus(CUDA_DIR, PTX_DIR)
sources = CORPUS.sources
compile_all = CORPUS.compile_all


_DEBUG_STR_RE = re.compile(r"^\s*\.section\s+\.debug_str\s*\{.*?^\s*\}", re.DOTALL | re.MULTILINE)


def normalize_ptx(text: str) -> str:
    """PTX text without the ``//`` comment lines, with ``.file`` paths cut to
    basenames and without the ``.debug_str`` section: nvcc names internal-linkage
    symbols there with a hash of the source file's absolute path, so a checkout
    elsewhere produces different bytes."""
    text = _DEBUG_STR_RE.sub("", text)
    lines = [ln for ln in text.splitlines() if not ln.lstrip().startswith("//")]
    return _FILE_RE.sub(r'\1"\2"', "\n".join(lines))


if __name__ == "__main__":
    raise SystemExit(CORPUS.main())
