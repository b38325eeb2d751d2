"""Whole-process compile time of this checkout against another checkout of ori
(a refactoring must not slow ori down), with ptxas's time on the same file.

For every example PTX (or the files given), best of ``--repeat`` runs each,
one process per run as users run it:

* ``ori``: ``ori-opt FILE -p PIPELINE -t ori-asm -o /dev/null`` from this checkout;
* ``base``: the same command with the other checkout first on ``sys.path``
  (``--base DIR``, e.g. a ``git worktree add /tmp/base <commit>``);
* ``ptxas``: ``ptxas -arch=sm_XX FILE -o /dev/null``.

Printed: per file the three times and ori/base; then start-up (an empty
module) and the totals.

    python benchmarks/bench_vs_commit.py --base /tmp/base [--repeat 3] [FILE.ptx ...]
"""

from __future__ import annotations

import argparse
import os
import re
import shutil
import subprocess
import sys
import tempfile
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
PIPELINE = "ori-general-optimize,ori-dead-code,ori-loop-simplify,ori-loop-unroll,ori-regalloc"


def best(cmd: list[str], cwd: Path, env: dict[str, str], repeat: int) -> float:
    times = []
    for _ in range(repeat):
        t = time.perf_counter()
        subprocess.run(cmd, cwd=cwd, env=env, check=True, capture_output=True)
        times.append(time.perf_counter() - t)
    return min(times)


def ori_cmd(path: Path, *args: str) -> list[str]:
    return [sys.executable, "-m", "ori_dialect.cli.ori_opt", str(path), *args]


def main() -> int:
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("files", nargs="*", type=Path)
    ap.add_argument("--base", type=Path, required=True, help="the other ori checkout")
    ap.add_argument("--repeat", type=int, default=3)
    ap.add_argument("--pipeline", default=PIPELINE)
    args = ap.parse_args()
    files = args.files or sorted((ROOT / "examples" / "ptx").glob("sm_*/*.ptx"))
    here = {**os.environ, "PYTHONPATH": str(ROOT)}
    # ``python -m`` puts the working directory first on sys.path: run each
    # checkout from its own root so that its packages win over the install.
    base = {**os.environ, "PYTHONPATH": str(args.base.resolve())}
    ptxas = shutil.which("ptxas")
    opts = ["-p", args.pipeline, "-t", "ori-asm", "-o", os.devnull]
    tot = [0.0, 0.0, 0.0]
    print(f"{'file':28} {'ori s':>7} {'base s':>7} {'ori/base':>8} {'ptxas s':>8}")
    for f in files:
        f = f.resolve()
        a = best(ori_cmd(f, *opts), ROOT, here, args.repeat)
        b = best(ori_cmd(f, *opts), args.base, base, args.repeat)
        p = float("nan")
        m = re.search(r"\.target\s+(sm_\w+)", f.read_text())
        if ptxas and m:
            p = best([ptxas, f"-arch={m.group(1)}", str(f), "-o", os.devnull], ROOT, here,
                     args.repeat)
        tot = [tot[0] + a, tot[1] + b, tot[2] + p]
        name = "/".join(f.parts[-2:])
        print(f"{name:28} {a:7.3f} {b:7.3f} {a / b:8.3f} {p:8.3f}")
    with tempfile.NamedTemporaryFile("w", suffix=".mlir", delete=False) as tmp:
        tmp.write("builtin.module {}\n")
    empty = Path(tmp.name)
    a = best(ori_cmd(empty), ROOT, here, args.repeat)
    b = best(ori_cmd(empty), args.base, base, args.repeat)
    empty.unlink()
    print(f"{'start-up (empty module)':28} {a:7.3f} {b:7.3f} {a / b:8.3f}")
    print(f"{'total':28} {tot[0]:7.3f} {tot[1]:7.3f} {tot[0] / tot[1]:8.3f} {tot[2]:8.3f}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
