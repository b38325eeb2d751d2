"""The ``ori-ptxas`` output of every other example PTX, pinned by digest.

``tests/golden/cases.py`` records full outputs for ``examples/ptx``; the
tensor-core, texture, warpgroup-MMA, Triton and library examples are pinned
here by the SHA-256 of the same text (stdout, stderr, exit status of
``ori-opt FILE -p 'ori-ptxas{stats=true remarks=true}' -t ori-asm``) and its
line count: their listings are megabytes (CUB's device kernels alone are
1.2 MB).  On a mismatch, compare ``ori-opt``'s output on the file before and
after the change.  ``python -m tests.golden.record`` rewrites the digests
with the recordings (``python -m tests.golden.ptxas_digests`` rewrites only
them).
"""

from __future__ import annotations

import hashlib
import json
import sys
from pathlib import Path

from tests.golden.cases import REPO, run_case

DIGESTS = Path(__file__).resolve().parent / "ptxas_digests.json"
SLOW_BYTES = 200_000
"""PTX files at least this large (CUB's and Thrust's kernels: 4 to 30 s
each) are checked under ``-m fuzz`` only."""


def example_files() -> list[Path]:
    """Every example PTX outside ``examples/ptx`` (whose outputs are recorded in full)."""
    return sorted(p for p in (REPO / "examples").rglob("*.ptx")
                  if not p.is_relative_to(REPO / "examples" / "ptx"))


def key(path: Path) -> str:
    return str(path.relative_to(REPO))


def digest(text: str) -> dict[str, object]:
    return {"sha256": hashlib.sha256(text.encode()).hexdigest(), "lines": text.count("\n")}


def recorded() -> dict[str, dict[str, object]]:
    return json.loads(DIGESTS.read_text()) if DIGESTS.is_file() else {}


def record(only: str = "") -> None:
    """Rewrite the digests of the examples whose path contains ``only``."""
    table = recorded()
    for path in example_files():
        if only in key(path):
            table[key(path)] = digest(run_case(path, "ptxas"))
            print(f"{key(path)}: recorded", file=sys.stderr)
    live = {key(p) for p in example_files()}
    table = {k: v for k, v in sorted(table.items()) if k in live}
    DIGESTS.write_text(json.dumps(table, indent=1, sort_keys=True) + "\n")


if __name__ == "__main__":  # pragma: no cover
    record(sys.argv[1] if len(sys.argv) > 1 else "")
