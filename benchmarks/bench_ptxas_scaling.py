"""Scaling of every ``ori-ptxas`` step from 10k to 100k instructions (issue 20 item 3).

Two inputs per size, so that cost growing with the size of one function and
cost growing with the number of functions both show:

* ``one function``: one kernel of N instructions with N/100 loops one after
  another (``bench_loop_passes.generate``: rotated loops, constant and
  unknown trip counts, some nested), parsed from Ori text;
* ``many functions``: nvcc's PTX of the sm_80 examples copied until it holds
  about N instructions (``bench_ptx_import.synthesize``), imported from PTX.

For each, the CPU seconds (``time.process_time``: the machine is shared, CPU
time is the steadier figure) of the import or parse, one verification, each
phase of ``ori-ptxas`` in the pipeline's order with the pipeline's options,
and printing (``-t mlir`` and the ``ori-asm`` listing), with ``ori-opt``'s
garbage-collector settings (``ori_opt.tune_gc``) -- the collector's own
time on a line of its own, not in the step it happened to land in -- then
the ratio of the large size's time to the small one's.  Linear code gives
10; the target is at most 12 for every step (steps under 20 ms at the small size are marked
``small``: their ratio is mostly noise and fixed costs).

    python benchmarks/bench_ptxas_scaling.py [--sizes 10000,100000] [--only one|many]
        [--disable PHASE,...]
"""

from __future__ import annotations

import argparse
import contextlib
import gc
import io
import sys
import time
from collections.abc import Callable
from pathlib import Path

HERE = Path(__file__).resolve().parent
sys.path.insert(0, str(HERE))
sys.path.insert(0, str(HERE.parent))

from xdsl.context import Context
from xdsl.dialects.builtin import ModuleOp
from xdsl.parser import Parser
from xdsl.printer import Printer

from ori_dialect.asm_printer import OriAsmTarget
from ori_dialect.cli.ori_opt import tune_gc
from ori_dialect.ir.verify import verify_module
from ori_dialect.ptx.lower import import_ptx
from ori_dialect.testing.equivalence import make_context
from passes.pipeline import PHASES, PtxasPipelinePass
from passes.registry import all_passes

TARGET_RATIO = 12.0
SMALL_S = 0.02


def count_ops(m: ModuleOp) -> int:
    return sum(1 for op in m.walk() if op.name.startswith("ori.") and op.name != "ori.func")


def one_function(n: int) -> Callable[[Context], ModuleOp]:
    from bench_loop_passes import generate

    text = generate(max(1, n // 100), n, 1)
    return lambda ctx: Parser(ctx, text).parse_module()


def many_functions(n: int) -> Callable[[Context], ModuleOp]:
    from bench_ptx_import import count_instructions, synthesize

    probe = synthesize(5_000)
    lines = int(5_000 * n / count_instructions(probe))
    text = synthesize(lines)
    return lambda ctx: import_ptx(text, "synthetic.ptx")


class _GcClock:
    """CPU seconds spent in the garbage collector (``gc.callbacks``).  A full
    collection scans the whole heap and lands in whichever step allocates
    past the threshold, so its cost is reported on its own line and left out
    of the steps: one landing in ``ori-loop-unroll`` at the large size only
    made that step look 165x slower (the collector's own cost is amortised
    linear: Python collects the oldest generation only when it has grown
    by a quarter)."""

    def __init__(self) -> None:
        self.total = 0.0
        self._start = 0.0
        gc.callbacks.append(self._tick)

    def _tick(self, phase: str, info: dict[str, object]) -> None:
        del info
        if phase == "start":
            self._start = time.process_time()
        else:
            self.total += time.process_time() - self._start


GC = _GcClock()


def cpu(f: Callable[[], object]) -> tuple[float, object]:
    """CPU seconds of ``f`` outside the garbage collector, and its result."""
    t, g = time.process_time(), GC.total
    out = f()
    return time.process_time() - t - (GC.total - g), out


def steps(build: Callable[[Context], ModuleOp], skip: set[str]) -> tuple[int, dict[str, float]]:
    """Instruction count and CPU seconds of each step on one module."""
    ctx = make_context()
    times: dict[str, float] = {}
    gc0 = GC.total
    times["import/parse"], m = cpu(lambda: build(ctx))
    assert isinstance(m, ModuleOp)
    n = count_ops(m)
    times["verify"], _ = cpu(lambda: verify_module(m))
    registry = all_passes()
    pipeline = PtxasPipelinePass()
    with contextlib.redirect_stderr(io.StringIO()):
        for phase in PHASES:
            if phase.pass_name in skip:
                continue
            cls = registry[phase.pass_name]()
            p = cls(**(pipeline.phase_options(phase.pass_name)  # type: ignore[arg-type]
                       | dict(phase.options)))
            times[phase.pass_name], _ = cpu(lambda p=p: p.apply(ctx, m))
    times["print (mlir)"], _ = cpu(lambda: Printer(stream=io.StringIO()).print_op(m))
    times["print (ori-asm)"], _ = cpu(lambda: OriAsmTarget().emit(ctx, m, io.StringIO()))
    times["garbage collector (all steps)"] = GC.total - gc0
    return n, times


def main(argv: list[str] | None = None) -> int:
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("--sizes", default="10000,100000", help="small,large instruction counts")
    ap.add_argument("--only", choices=("one", "many"), default=None)
    ap.add_argument("--disable", default="", help="comma-separated phases to leave out")
    args = ap.parse_args(argv)
    small, large = (int(s) for s in args.sizes.split(","))
    tune_gc()  # the collector settings of an ori-opt process
    kinds = {"one function": one_function, "many functions": many_functions}
    worst: list[tuple[float, str]] = []
    for kind, make in kinds.items():
        if args.only and not kind.startswith(args.only):
            continue
        skip = {s.strip() for s in args.disable.split(",") if s.strip()}
        n_small, t_small = steps(make(small), skip)
        n_large, t_large = steps(make(large), skip)
        print(f"\n{kind}: {n_small:,} -> {n_large:,} instructions "
              f"(x{n_large / n_small:.1f}), CPU seconds")
        print(f"{'step':<30} {'small':>9} {'large':>9} {'ratio':>7}")
        for name, a in t_small.items():
            b = t_large[name]
            ratio = b / a if a > 0 else float("inf")
            note = "small" if a < SMALL_S else ("MISSES" if ratio > TARGET_RATIO else "")
            print(f"{name:<30} {a:>9.3f} {b:>9.3f} {ratio:>7.1f} {note}")
            if a >= SMALL_S:
                worst.append((ratio, f"{kind}: {name}"))
        total_a, total_b = sum(t_small.values()), sum(t_large.values())
        print(f"{'total':<30} {total_a:>9.3f} {total_b:>9.3f} {total_b / total_a:>7.1f}")
    if worst:
        ratio, what = max(worst)
        verdict = "meets" if ratio <= TARGET_RATIO else "MISSES"
        print(f"\nlargest ratio: {ratio:.1f} ({what}) -- {verdict} the {TARGET_RATIO:.0f} target")
    return 0


if __name__ == "__main__":
    sys.exit(main())
