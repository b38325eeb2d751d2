"""What the behaviour-preservation test runs: every example input through the
pipelines users run, with remarks and stats on.

Each case is ``(input file, ori-opt arguments)``; its recorded output (stdout,
then stderr, then the exit status) lives in ``tests/golden/outputs/``.
``python -m tests.golden.record`` rewrites the recordings; do that only for a
change that is meant to alter a listing, remark or figure, and say so in the
commit message.
"""

from __future__ import annotations

import contextlib
import io
import sys
from pathlib import Path

REPO = Path(__file__).resolve().parents[2]
OUTPUTS = Path(__file__).resolve().parent / "outputs"
# Random programs (``generate(1000+i)``, ``generate_loops(2000+i)``) frozen as
# text, so that a change to the generator does not change these inputs.
GENERATED = Path(__file__).resolve().parent / "inputs"

_PRE = "ori-general-optimize{remarks=true},ori-dead-code{remarks=true}"
_LOOPS = "ori-loop-simplify{remarks=true},ori-loop-unroll{remarks=true}"

# name -> ori-opt arguments after the input file
PIPELINES: dict[str, list[str]] = {
    # the PTX frontend alone
    "import": [],
    # the README's main job (fatpoint) with every remark, as a listing
    "fatpoint": ["-p", f"{_PRE},{_LOOPS},ori-regalloc{{stats=true}},ori-stats",
                 "-t", "ori-asm"],
    # the ssa strategy with its exact search
    "ssa": ["-p", (f"{_PRE},{_LOOPS},ori-regalloc{{strategy=ssa stats=true}},"
            "ori-check-regalloc"), "-t", "ori-asm"],
    # spilling under a tight limit
    "spill24": ["-p", (f"{_PRE},{_LOOPS},ori-regalloc{{max-regs=24 stats=true}},"
                "ori-check-regalloc"), "-t", "ori-asm"],
    # the analyses' reports
    "reports": ["-p", "ori-print-loops,ori-print-liveness", "-o", "/dev/null"],
    # every phase in ptxas's order (issue 20: speed work must not change it)
    "ptxas": ["-p", "ori-ptxas{stats=true remarks=true}", "-t", "ori-asm"],
}


def inputs() -> list[Path]:
    """Every example input: the PTX nvcc made for both targets, the .mlir
    examples and the frozen random programs."""
    ptx = sorted((REPO / "examples" / "ptx").glob("sm_*/*.ptx"))
    mlir = sorted((REPO / "examples").glob("*.mlir"))
    return ptx + mlir + sorted(GENERATED.glob("*.mlir"))


EXAMPLES_ONLY = {"ptxas"}
"""Pipelines recorded on the examples only (not on the frozen random programs)."""


def cases() -> list[tuple[Path, str]]:
    return [
        (f, p)
        for f in inputs()
        for p in PIPELINES
        if p not in EXAMPLES_ONLY or not f.is_relative_to(GENERATED)
    ]


def case_id(path: Path, pipeline: str) -> str:
    base = GENERATED if path.is_relative_to(GENERATED) else REPO / "examples"
    rel = path.relative_to(base).with_suffix("")
    return f"{'__'.join(rel.parts)}.{pipeline}"


def run_case(path: Path, pipeline: str) -> str:
    """ori-opt in this process on one case; stdout, stderr and status as one text."""
    from ori_dialect.cli.ori_opt import main

    out, err = io.StringIO(), io.StringIO()
    with contextlib.redirect_stdout(out), contextlib.redirect_stderr(err):
        rc = main([str(path.relative_to(REPO)), *PIPELINES[pipeline]])
    return f"{out.getvalue()}\n--- stderr ---\n{err.getvalue()}\n--- exit {rc} ---\n"


def recorded(path: Path, pipeline: str) -> Path:
    return OUTPUTS / f"{case_id(path, pipeline)}.txt"


if __name__ == "__main__":  # pragma: no cover
    print("\n".join(case_id(f, p) for f, p in cases()), file=sys.stdout)
