"""Software pipelining figures of the CUDA examples (issue 18 item 6).

    python benchmarks/pipeline_report.py [--arch sm_80,sm_90] [--no-registers]

For every single-block loop that reaches phase 24 (the examples imported,
then ``ori-general-optimize, ori-dead-code, ori-loop-simplify,
ori-loop-unroll`` -- the phases ``ori-ptxas`` runs before it) the table
gives ResMII, RecMII and MII on the module's target, the II and stage count
``ori-pipeline`` achieves with its defaults, and its decision: pipelined,
or why not (with the default pressure gate, ``reject-pressure-growth``).
Loops of several blocks are counted, not listed (out of scope).

With registers (the default) it also runs ``ori-ptxas`` three ways per
kernel -- without phase 24 (``disable=ori-pipeline``), as shipped, and with
the pipeliner's pressure gate off -- and prints the registers of every
kernel where the three differ, plus totals.  Figures are measurements of
ori, never asserted by a test.
"""

from __future__ import annotations

import argparse
import contextlib
import io
import subprocess
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))

from ori_dialect.analysis import functions_of
from ori_dialect.ptx.lower import import_ptx
from ori_dialect.testing.equivalence import apply_pipeline
from passes.pipeline import PHASES, PtxasPipelinePass
from passes.pipeline_modulo import PipelinePass

BEFORE = "ori-general-optimize,ori-dead-code,ori-loop-simplify,ori-loop-unroll"


def _load(path: Path):  # type: ignore[no-untyped-def]
    return import_ptx(path.read_text(), str(path.relative_to(ROOT)))


def loop_rows(path: Path) -> tuple[list[tuple[str, ...]], int]:
    """(rows of the single-block loops, loops of several blocks) of one file."""
    m = _load(path)
    with contextlib.redirect_stderr(io.StringIO()):
        apply_pipeline(m, BEFORE)
    rows: list[tuple[str, ...]] = []
    multi = 0
    for func in functions_of(m):
        rep = PipelinePass().run_function(func)
        for lr in sorted(rep.loops, key=lambda lr: lr.block_id):
            if lr.reason is not None and lr.reason.startswith("a loop of"):
                multi += 1
                continue
            s = lr.schedule
            what = "pipelined" if lr.applied else (lr.reason or "")
            rows.append((f"@{func.sym_name.data} ^bb{lr.block_id}",  # type: ignore[attr-defined]
                         str(lr.ops), str(lr.res_mii or "-"), str(lr.rec_mii or "-"),
                         str(lr.mii or "-"), str(s.ii) if s else "-",
                         str(s.stages) if s else "-", what))
    return rows, multi


def _registers(path: Path, spec: str) -> dict[str, int]:
    m = _load(path)
    with contextlib.redirect_stderr(io.StringIO()):
        apply_pipeline(m, spec)
    out: dict[str, int] = {}
    for f in functions_of(m):
        a = f.attributes.get("ori.num_regs")
        if a is not None:
            out[f.sym_name.data] = a.value.data  # type: ignore[attr-defined]
    return out


def _ungated() -> str:
    pp = PtxasPipelinePass()
    names = []
    for p in PHASES:
        names.append("ori-pipeline{reject-pressure-growth=false}"
                     if p.pass_name == "ori-pipeline" else pp.phase_text(p))
    return ",".join(names)


def main() -> int:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--arch", default="sm_80,sm_90")
    ap.add_argument("--no-registers", action="store_true")
    args = ap.parse_args()
    commit = subprocess.run(["git", "rev-parse", "--short", "HEAD"], cwd=ROOT,
                            capture_output=True, text=True, check=False).stdout.strip()
    print(f"ori-pipeline report at {commit or '?'} (targets' latencies and widths: targets/)")
    totals = {"loops": 0, "multi": 0, "pipelined": 0}
    reg_rows: list[tuple[str, int, int, int]] = []
    for arch in args.arch.split(","):
        files = sorted((ROOT / "examples" / "ptx" / arch).glob("*.ptx"))
        print(f"\n{arch}: {'loop':<40} {'ops':>4} {'ResMII':>6} {'RecMII':>6} {'MII':>4} "
              f"{'II':>4} {'st':>3}  decision")
        for path in files:
            rows, multi = loop_rows(path)
            totals["multi"] += multi
            for r in rows:
                totals["loops"] += 1
                totals["pipelined"] += r[-1] == "pipelined"
                name = f"{path.stem} {r[0]}"
                print(f"  {name:<44} {r[1]:>4} {r[2]:>6} {r[3]:>6} {r[4]:>4} {r[5]:>4} {r[6]:>3}"
                      f"  {r[7]}")
            if args.no_registers:
                continue
            no24 = _registers(path, "ori-ptxas{disable=ori-pipeline}")
            shipped = _registers(path, "ori-ptxas")
            ungated = _registers(path, _ungated())
            for k in sorted(no24):
                a, b, c = no24[k], shipped.get(k, -1), ungated.get(k, -1)
                reg_rows.append((f"{arch}/{path.stem} @{k}", a, b, c))
    print(f"\nsingle-block loops at phase 24: {totals['loops']}, pipelined by default: "
          f"{totals['pipelined']}; loops of several blocks (out of scope): {totals['multi']}")
    if reg_rows:
        diff = [r for r in reg_rows if len({r[1], r[2], r[3]}) > 1]
        print(f"\nregisters after ori-ptxas, {len(reg_rows)} kernels: without phase 24 / "
              "as shipped / pressure gate off (kernels where they differ):")
        for name, a, b, c in diff:
            print(f"  {name:<50} {a:>4} {b:>4} {c:>4}")
        worse = sum(1 for r in reg_rows if r[2] > r[1])
        print(f"  shipped: {worse} kernels gain registers; gate off: "
              f"{sum(1 for r in reg_rows if r[3] > r[1])} gain, "
              f"{sum(1 for r in reg_rows if r[3] < r[1])} lose; totals "
              f"{sum(r[1] for r in reg_rows)} / {sum(r[2] for r in reg_rows)} / "
              f"{sum(r[3] for r in reg_rows)}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
