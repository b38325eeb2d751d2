"""Interpreter throughput: executed thread-instructions per second.

One CTA of 128 threads; each thread runs a loop (default 1000 iterations) of
integer and float ALU ops, a global load and a global store, so the run is
dominated by the machine's hot path (segment scheduling, gathers/scatters,
closures).  Prints the executed instruction count (per thread, summed over
threads), the seconds and the rate.

    python benchmarks/bench_interp.py [--iters N] [--threads T] [--repeat R]
"""

from __future__ import annotations

import argparse
import time

import numpy as np
from xdsl.context import Context
from xdsl.dialects.builtin import Builtin, ModuleOp
from xdsl.parser import Parser

from ori_dialect.dialect import Ori
from ori_dialect.interpreter import run_kernel

KERNEL = """
builtin.module attributes {ori.target = "sm_80"} {
  ori.func kernel @loop() attributes {params = [#ori.param<8, align 8, at 0x0>, #ori.param<4, align 4, at 0x8>]} {
  ^entry:
    %tid = ori.s2r SR_TID.X : () -> !ori.r32
    %buf = ori.ldc b64 0x0, [RZ + 0x160] : () -> !ori.r64
    %addr = ori.imad wide.u32 %tid, 0x4, %buf : (!ori.r32, !ori.r64) -> !ori.r64
    %zero = ori.mov 0x0 : () -> !ori.r32
    %f0 = ori.mov 0x3f800000 : () -> !ori.r32
    ori.bra ^loop(%zero : !ori.r32, %f0 : !ori.r32, %tid : !ori.r32)
  ^loop(%i : !ori.r32, %acc : !ori.r32, %h : !ori.r32):
    %x = ori.ldg [%addr] : (!ori.r64) -> !ori.r32
    %xf = ori.i2f f32.u32 %x : (!ori.r32) -> !ori.r32
    %acc2 = ori.ffma %xf, 0.5, %acc : (!ori.r32, !ori.r32) -> !ori.r32
    %h1 = ori.imad %h, 0x9e3779b1, %i : (!ori.r32, !ori.r32) -> !ori.r32
    %h2 = ori.lop3 %h1, 0xff00ff, %x, 0x78 : (!ori.r32, !ori.r32) -> !ori.r32
    %h3 = ori.shf r %h2, 0xd, %h2 : (!ori.r32, !ori.r32) -> !ori.r32
    %y = ori.iadd3 %x, 0x1, %h3 : (!ori.r32, !ori.r32) -> !ori.r32
    ori.stg [%addr], %y : (!ori.r64, !ori.r32) -> ()
    %i2 = ori.iadd3 %i, 0x1, RZ : (!ori.r32) -> !ori.r32
    %more = ori.isetp lt.u32 %i2, c[0x0][0x168], PT : (!ori.r32) -> !ori.p
    ori.bra if %more : !ori.p, ^loop(%i2 : !ori.r32, %acc2 : !ori.r32, %h3 : !ori.r32), ^done
  ^done:
    %out = ori.iadd3 %acc2, %h3, RZ : (!ori.r32, !ori.r32) -> !ori.r32
    ori.stg [%addr], %out : (!ori.r64, !ori.r32) -> ()
    ori.exit
  }
}
"""


def parse_kernel() -> ModuleOp:
    ctx = Context()
    ctx.load_dialect(Builtin)
    ctx.load_dialect(Ori)
    return Parser(ctx, KERNEL).parse_module()


def main(argv: list[str] | None = None) -> float:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--iters", type=int, default=1000)
    ap.add_argument("--threads", type=int, default=128)
    ap.add_argument("--repeat", type=int, default=3)
    ap.add_argument("--profile", action="store_true", help="print a cProfile of one run")
    a = ap.parse_args(argv)
    module = parse_kernel()
    buf = np.arange(a.threads, dtype=np.uint32)
    best = float("inf")
    count = 0
    for _ in range(a.repeat):
        stats: dict[str, int] = {}
        t0 = time.perf_counter()
        run_kernel(module, "loop", 1, a.threads, [buf, a.iters], stats=stats)
        best = min(best, time.perf_counter() - t0)
        count = stats["thread_instructions"]
    rate = count / best
    print(f"executed thread-instructions: {count}")
    print(f"seconds (best of {a.repeat}):    {best:.3f}")
    print(f"rate:                         {rate:,.0f} instructions/s")
    if a.profile:
        import cProfile
        import pstats

        prof = cProfile.Profile()
        prof.enable()
        run_kernel(module, "loop", 1, a.threads, [buf, a.iters])
        prof.disable()
        pstats.Stats(prof).sort_stats("tottime").print_stats(15)
    return rate


if __name__ == "__main__":
    main()
