"""Compile ``examples/abi/*.cu`` to PTX for sm_80 and sm_90 with relocatable
device code (``-rdc=true``: every ``__device__`` function keeps external
linkage, so ptxas compiles it under the standard calling convention instead
of specialising it for its callers).

Run with the project's venv python::

    python examples/abi/build_ptx.py

Writes ``examples/abi/ptx/ARCH/NAME.ptx`` exactly as nvcc emits them.
"""

from __future__ import annotations

import shutil
import subprocess
import sys
from pathlib import Path

HERE = Path(__file__).resolve().parent
ARCHS: tuple[str, ...] = ("sm_80", "sm_90")
NVCC_FLAGS: tuple[str, ...] = ("-ptx", "-rdc=true", "-O3", "-std=c++17")


def main() -> int:
    if shutil.which("nvcc") is None:
        print("nvcc not found on PATH", file=sys.stderr)
        return 1
    for arch in ARCHS:
        out_dir = HERE / "ptx" / arch
        out_dir.mkdir(parents=True, exist_ok=True)
        for src in sorted(HERE.glob("*.cu")):
            out = out_dir / (src.stem + ".ptx")
            proc = subprocess.run(["nvcc", *NVCC_FLAGS, f"-arch={arch}", src.name, "-o", str(out)],
                                  cwd=HERE, capture_output=True, text=True, check=False)
            if proc.returncode != 0:
                print(proc.stderr, file=sys.stderr)
                return 1
            print(out.relative_to(HERE.parents[1]))
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
