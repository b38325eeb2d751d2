"""Fuzz every registered ori pass and named pipeline with generated programs.

    python benchmarks/fuzz_all.py --programs 2000 --seed 0

Prints the report (programs, transforms, checks, launches, programs/s,
not-applicable counts, failures with their seeds) and exits 1 on a failure.
``--show N`` prints the full message (IRs included) of the first N failures.
"""

from __future__ import annotations

import argparse
import sys
import time

from ori_dialect.testing.fuzz import FuzzReport, fuzz
from ori_dialect.testing.generator import GenOptions


def main(argv: list[str] | None = None) -> int:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--programs", type=int, default=2000)
    ap.add_argument("--seed", type=int, default=0, help="first program seed")
    ap.add_argument("--passes", default=None,
                    help="comma-separated pass names (default: every registered pass)")
    ap.add_argument("--no-pipelines", action="store_true", help="skip the named pipelines")
    ap.add_argument("--inputs", type=int, default=2, help="input sets per program")
    ap.add_argument("--budget", type=int, default=None,
                    help="generator budget (estimated dynamic instructions per thread)")
    ap.add_argument("--show", type=int, default=1, help="print the full text of N failures")
    args = ap.parse_args(argv)
    passes = args.passes.split(",") if args.passes is not None else None
    opts = GenOptions(budget=args.budget) if args.budget is not None else None
    t0 = time.perf_counter()
    last = [t0]

    def progress(seed: int, rep: FuzzReport) -> None:
        now = time.perf_counter()
        if now - last[0] > 10:
            last[0] = now
            print(f"  ... {rep.programs} programs, {len(rep.failures)} failures, "
                  f"{now - t0:.0f} s", file=sys.stderr, flush=True)

    report = fuzz(args.programs, args.seed, passes, {} if args.no_pipelines else None,
                  options=opts, inputs_per_program=args.inputs, progress=progress)
    print(report)
    for f in report.failures[: args.show]:
        print("\n" + "=" * 78 + f"\n{f.headline()}\n{f.message}")
    return 0 if report.ok else 1


if __name__ == "__main__":
    sys.exit(main())
