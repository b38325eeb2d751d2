"""Register allocation speed: ``ori-regalloc`` (every strategy the pass
accepts) and ``ori-check-regalloc`` on generated kernels of about 1k, 10k and
100k instructions.

The kernels (:func:`pressure_kernel`, deterministic from a seed) are a
sequence of loop nests with realistic register pressure:

* ``--live`` 32-bit values and ``--live64`` 64-bit values computed up front
  and live across every loop (all consumed by a final checksum); after each
  nest a few of them are replaced by values computed from the loop's results,
  so long live ranges end and start throughout the function;
* each nest: a counted loop carrying its IV, three 32-bit values and a 64-bit
  pointer as block arguments; a body of arithmetic on recent temporaries and
  long-lived values, 64-bit address arithmetic (IMAD.WIDE) with loads,
  stores, predicates (ISETP) used by SEL and by guarded instructions with tied
  prior values, and an if/else diamond passing a value to its join; about a
  third of the nests hold an inner loop.

For every size and strategy the script prints CPU seconds
(``time.process_time``) and wall seconds of the allocation (the pass alone,
on a fresh clone; best of ``--repeat``, and of at least 3 for sizes up to
10k, which are noisy on a shared machine), the resulting register count and
spill figures, then the checker's seconds on the allocated function, and the
10k -> 100k growth ratio of each (10 is linear).  Targets (reported, never
asserted): allocation of 100k instructions under 20 s; growth ratio at most
12.  CPU time is the figure to judge on a shared machine.

    python benchmarks/bench_regalloc.py [--sizes 1000 10000 100000] [--repeat 1]
        [--strategies fatpoint ...] [--max-regs N] [--profile SIZE]

``--max-regs`` allocates under a register limit (spilling); ``--profile
SIZE`` runs the first strategy once on that size under cProfile and prints
the top functions by cumulative time.  Strategies are found from the pass:
``driver.STRATEGIES`` when it exists, else the names its error for an unknown
strategy lists (each kept only when the pass accepts it).

Measured on the shared 2-core machine at a quiet moment (wall = CPU), CPU
seconds for 1k / 10k / 100k instructions, with the dense liveness: fatpoint
0.09 / 0.92 / 11.2 (growth 12.2), its checker 0.05 / 0.57 / 5.8 (10.2); ssa
0.07 / 0.59 / 8.9 (15.1).  Before the live segments of
``passes/regalloc/points.py`` the fat-point allocator took 6.3 s on 10k
instructions and could not run 100k (a dense 100k x 100k points x values
matrix).

Liveness (``ori_dialect/analysis/liveness.py``) is built three times per
allocation and check (tied-operand splitting, the live segments, the
checker).  It was a dense blocks x values bitset (58 MB per matrix at 100k
instructions) whose build grew 34x from 10k to 100k (0.041 -> 1.39 s CPU,
liveness plus the per-block live-out lists, old and new timed in one
process).  Its rows now hold only the values live at some block boundary
(upward-exposed somewhere or passed along an edge: 24k of 102k values at
100k): 0.026 -> 0.35 s (growth 13), the block-local values being left to the
per-block backward walks.  With it, old and new back to back (CPU s, 10k /
100k, growth): fatpoint 1.07 / 14.6 (13.6) -> 1.15 / 11.5 (10.1), its checker
0.76 / 7.6 (10.0) -> 0.52 / 5.4 (10.4); ssa 0.85 / 10.5 (12.3) -> 0.89 / 8.2
(9.2), its checker 0.55 / 7.0 (12.7) -> 0.56 / 6.2 (11.0).  A later run of
the same code under more load gave fatpoint 14.9 s (14.1) and ssa 10.0 s
(14.8): run-to-run noise on this machine is 10-30 %, as large as what is left
to gain.  What dominates now (cProfile, 100k): no single function; value
numbering, tie splitting, edge-copy lowering, the live segments, value costs,
unit building and the fat-point scan each grow 10-12x, the xDSL IR walks and
dict look-ups a little faster than linearly as the heap outgrows the caches.
"""

from __future__ import annotations

import argparse
import dataclasses
import gc
import random
import re
import sys
import time
import typing
from collections.abc import Callable
from pathlib import Path
from typing import Any

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

from xdsl.context import Context
from xdsl.dialects.builtin import IntegerAttr, ModuleOp
from xdsl.ir import Block, SSAValue

from ori_dialect.builder import PT, RZ, FuncBuilder, cbank, module
from ori_dialect.ir.registers import r32, r64
from ori_dialect.ops.func import FuncOp
from passes.regalloc.checker import check_module
from passes.regalloc.driver import RegAllocPass

_LUT_XOR3 = 0x96
_LUT_AND = 0xC0
_CMPS = ("lt", "le", "gt", "ge", "ne", "eq")
_PARAMS = [(8, 8), (8, 8), (4, 4), (4, 4)]
_P = 0x210  # parameter area in constant bank 0 (sm_80)


# ----------------------------------------------------------------------
# generator
# ----------------------------------------------------------------------
class _Gen:
    def __init__(self, seed: int, fb: FuncBuilder) -> None:
        self.rng = random.Random(seed)
        self.fb = fb
        self.count = 0
        self.tmp: list[SSAValue] = []
        """Recent 32-bit temporaries of the current scope."""
        self.live: list[SSAValue] = []
        """Long-lived 32-bit values (live across loops)."""
        self.live64: list[SSAValue] = []
        self.preds: list[SSAValue] = []

    def op(self, name: str, *srcs: Any, **kw: Any) -> Any:
        self.count += 1
        return getattr(self.fb, name)(*srcs, **kw)

    def bra(self, dest: Block, *args: SSAValue, **kw: Any) -> None:
        self.count += 1
        self.fb.bra(dest, *args, **kw)

    def pick(self) -> SSAValue:
        """Mostly a recent temporary, sometimes a long-lived value."""
        r = self.rng.random()
        if r < 0.2 or not self.tmp:
            return self.rng.choice(self.live)
        k = min(len(self.tmp) - 1, int(self.rng.expovariate(0.25)))
        return self.tmp[-1 - k]

    def pick64(self) -> SSAValue:
        return self.rng.choice(self.live64)

    def pred(self) -> SSAValue:
        if self.preds and self.rng.random() < 0.5:
            return self.preds[-1 - self.rng.randrange(min(3, len(self.preds)))]
        cmp = self.rng.choice(_CMPS) + self.rng.choice((".s32", ".u32"))
        p = self.op("isetp", self.pick(), self.pick(), PT, mods=cmp)
        self.preds.append(p)
        return p

    def arith(self) -> None:
        r = self.rng.random()
        if r < 0.35:
            v = self.op("iadd3", self.pick(), self.pick(), RZ)
        elif r < 0.55:
            v = self.op("lop3", self.pick(), self.pick(), RZ, self.rng.randrange(256))
        elif r < 0.7:
            v = self.op("imad", self.pick(), self.rng.randint(3, 999) | 1, self.pick())
        elif r < 0.78:
            v = self.op("sel", self.pick(), self.pick(), self.pred())
        elif r < 0.88:
            v = self.op("iadd3", self.pick(), 1, RZ, guard=self.pred(),
                        guard_neg=self.rng.random() < 0.4, prior=[self.pick()])
        elif r < 0.95:
            idx = self.op("lop3", self.pick(), 0xFF, RZ, _LUT_AND)
            addr = self.op("imad", idx, 4, self.pick64(), mods="wide.u32", types=[r64])
            v = self.op("ldg", addr, 0)
        else:
            addr = self.op("imad", self.pick(), 4, self.pick64(), mods="wide.u32", types=[r64])
            self.op("stg", addr, 0, self.pick())
            return
        self.tmp.append(v)

    def body(self, n: int) -> None:
        for _ in range(n):
            self.arith()

    def scoped(self, f: Callable[[], None]) -> None:
        saved = (len(self.tmp), len(self.preds))
        f()
        del self.tmp[saved[0]:], self.preds[saved[1]:]

    def loop(self, body_ops: int, inner: bool) -> list[SSAValue]:
        """A counted loop; returns its exit values (IV, carried values, pointer)."""
        fb = self.fb
        r = self.rng
        trips = r.choice((3, 7, 16, 100))
        carried = [self.pick() for _ in range(3)]
        ptr = self.pick64()
        init = self.op("mov", 0)
        types = [r32, r32, r32, r32, r64]
        header = fb.block(*types)
        exit_b = fb.block(*types)
        self.bra(header, init, *carried, ptr)
        fb.goto(header)
        new: list[SSAValue] = []

        def gen() -> None:
            iv = header.args[0]
            self.tmp.extend(header.args[:4])
            self.live64.append(header.args[4])
            n1 = body_ops // 2
            self.body(n1)
            if inner:
                outs = self.loop(max(4, body_ops // 3), False)
                self.tmp.extend(outs[:4])
            # diamond on a per-thread predicate
            p = self.pred()
            then_b, else_b = fb.block(), fb.block()
            join = fb.block(r32)
            self.bra(then_b, guard=p, fallthrough=else_b)
            arms: list[SSAValue] = []
            for b in (then_b, else_b):
                fb.goto(b)
                saved = (len(self.tmp), len(self.preds))
                self.body(max(2, body_ops // 8))
                arms.append(self.tmp[-1])
                del self.tmp[saved[0]:], self.preds[saved[1]:]
                self.bra(join, arms[-1])
            fb.goto(join)
            self.tmp.append(join.args[0])
            self.body(body_ops - n1 - 2 * max(2, body_ops // 8))
            new.append(self.op("iadd3", iv, 1, RZ))
            for a in header.args[1:4]:
                if r.random() < 0.5:
                    new.append(self.op("iadd3", a, self.pick(), RZ))
                else:
                    new.append(self.op("lop3", a, self.pick(), RZ, _LUT_XOR3))
            new.append(self.op("imad", new[0], 4, header.args[4], mods="wide.u32",
                               types=[r64]))
            self.live64.pop()
            c = self.op("isetp", new[0], trips, PT, mods="lt.s32")
            self.bra(header, *new, guard=c, fallthrough=exit_b, fallthrough_args=new)

        self.scoped(gen)
        fb.goto(exit_b)
        return list(exit_b.args)


def pressure_kernel(n_inst: int, *, seed: int = 1, live: int = 48, live64: int = 4,
                    body_ops: int = 90) -> ModuleOp:
    """A kernel of about ``n_inst`` instructions (see the module docstring)."""
    fb = FuncBuilder("regalloc_bench", kernel=True, params=_PARAMS)
    g = _Gen(seed, fb)
    tid = g.op("s2r", mods="SR_TID.X")
    out = g.op("ldc", 0, RZ, _P, mods="b64", types=[r64])
    inp = g.op("ldc", 0, RZ, _P + 8, mods="b64", types=[r64])
    s = g.op("mov", cbank(0, _P + 16))
    obase = g.op("imad", tid, 4, out, mods="wide.u32", types=[r64])
    g.live = [tid, s]
    g.live64 = [inp, obase]
    while len(g.live64) < live64:
        g.live64.append(g.op("imad", g.pick(), 64, inp, mods="wide.u32", types=[r64]))
    while len(g.live) < live:
        g.live.append(g.op("imad", g.pick(), g.rng.randint(3, 2**31 - 1) | 1, g.pick()))
    rng = g.rng
    while g.count < n_inst - live - 8:
        inner = rng.random() < 0.35
        outs = g.loop(body_ops, inner)
        # the loop's results replace a few long-lived values
        g.tmp = list(outs[:4])
        for _ in range(3):
            i = rng.randrange(2, len(g.live))
            g.live[i] = g.op("iadd3", g.live[i], g.pick(), outs[rng.randrange(4)])
        i = rng.randrange(2, len(g.live64))
        g.live64[i] = outs[4]
        g.tmp = []
        g.preds = []
    h = g.live[0]
    for v in g.live[1:]:
        h = g.op("lop3", h, v, RZ, _LUT_XOR3)
    for p in g.live64:
        g.op("stg", p, 0, h)
    g.op("stg", obase, 0, h)
    fb.exit()
    m = module(fb.func, target="sm_80")
    return m


def count_ops(m: ModuleOp) -> int:
    return sum(1 for f in m.walk() if isinstance(f, FuncOp) for b in f.body.blocks for _ in b.ops)


# ----------------------------------------------------------------------
# strategies
# ----------------------------------------------------------------------
def strategies() -> list[str | None]:
    """Every strategy ``ori-regalloc`` accepts; ``[None]`` when the pass has
    no ``strategy`` option."""
    fields = {f.name: f for f in dataclasses.fields(RegAllocPass)}
    f = fields.get("strategy")
    if f is None:
        return [None]
    from passes.regalloc import driver

    for name in ("STRATEGIES", "STRATEGY_NAMES"):
        known = getattr(driver, name, None)
        if known:
            return list(known)
    hints = typing.get_type_hints(RegAllocPass)
    args = [a for a in typing.get_args(hints.get("strategy")) if isinstance(a, str)]
    if args:
        return args
    # last resort: the names the pass lists when it rejects an unknown
    # strategy, plus the default, each kept when the pass accepts it
    names: list[object] = [f.default]
    try:
        _allocate(pressure_kernel(50), "no-such-strategy", None)
    except Exception as e:  # noqa: BLE001 - the rejection names the valid ones
        names += re.findall(r"[A-Za-z_][\w-]*", str(e).rsplit("(", 1)[-1])
    out: list[str | None] = []
    for cand in dict.fromkeys(names):
        if not isinstance(cand, str) or cand in ("or", "and", "no-such-strategy"):
            continue
        m = pressure_kernel(200)
        try:
            _allocate(m, cand, None)
        except Exception as e:  # noqa: BLE001 - an unknown name is rejected somehow
            print(f"# strategy {cand!r} not accepted: {str(e).splitlines()[0][:100]}")
            continue
        out.append(cand)
    return out or [None]


def _allocate(m: ModuleOp, strategy: str | None, max_regs: int | None) -> None:
    kw: dict[str, Any] = {}
    if strategy is not None:
        kw["strategy"] = strategy
    if max_regs is not None:
        kw["max_regs"] = max_regs
    RegAllocPass(**kw).apply(Context(), m)


def _timed(f: Callable[[Any], Any], repeat: int,
           setup: Callable[[], Any] = lambda: None) -> tuple[float, float]:
    """Best CPU and best wall seconds of ``f(setup())`` over ``repeat`` runs
    (``setup`` is not timed)."""
    best_cpu = best_wall = float("inf")
    for _ in range(repeat):
        arg = setup()
        gc.collect()
        c0, w0 = time.process_time(), time.perf_counter()
        f(arg)
        c1, w1 = time.process_time(), time.perf_counter()
        best_cpu, best_wall = min(best_cpu, c1 - c0), min(best_wall, w1 - w0)
    return best_cpu, best_wall


def _figures(m: ModuleOp) -> str:
    f = next(op for op in m.walk() if isinstance(op, FuncOp))

    def get(k: str) -> int:
        a = f.attributes.get(k)
        return a.value.data if isinstance(a, IntegerAttr) else -1

    return (f"regs={get('ori.num_regs')} spill_st={get('ori.spill_stores')} "
            f"spill_ld={get('ori.spill_loads')}")


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("--sizes", type=int, nargs="+", default=[1000, 10000, 100000])
    ap.add_argument("--repeat", type=int, default=1)
    ap.add_argument("--strategies", nargs="+", default=None)
    ap.add_argument("--max-regs", type=int, default=None)
    ap.add_argument("--live", type=int, default=48)
    ap.add_argument("--profile", type=int, default=None, metavar="SIZE")
    ap.add_argument("--no-check", action="store_true", help="skip timing the checker")
    a = ap.parse_args()
    strats: list[str | None] = list(a.strategies) if a.strategies else strategies()
    if a.profile is not None:
        import cProfile
        import pstats

        m = pressure_kernel(a.profile, live=a.live)
        print(f"profiling {strats[0] or 'default'} on {count_ops(m)} instructions")
        prof = cProfile.Profile()
        prof.enable()
        _allocate(m, strats[0], a.max_regs)
        prof.disable()
        pstats.Stats(prof).sort_stats("cumulative").print_stats(35)
        if not a.no_check:
            prof = cProfile.Profile()
            prof.enable()
            check_module(m)
            prof.disable()
            pstats.Stats(prof).sort_stats("cumulative").print_stats(20)
        return
    print(f"{'size':>7} {'insts':>7} {'what':<18} {'cpu s':>8} {'wall s':>8}  result")
    rows: dict[tuple[str, int], tuple[float, float]] = {}
    for size in a.sizes:
        base = pressure_kernel(size, live=a.live)
        n = count_ops(base)
        for s in strats:
            label = f"regalloc:{s or 'default'}"
            holder: list[ModuleOp] = []

            def fresh(base: ModuleOp = base, holder: list[ModuleOp] = holder) -> ModuleOp:
                holder[:] = [base.clone()]
                return holder[0]

            def run(m: ModuleOp, s: str | None = s) -> None:
                _allocate(m, s, a.max_regs)

            # small sizes are noisy on a shared machine: best of 3 at least
            repeat = max(a.repeat, 3) if size <= 10000 else a.repeat
            try:
                cpu, wall = _timed(run, repeat, fresh)
            except Exception as e:  # noqa: BLE001 - report and go on with the next one
                print(f"{size:>7} {n:>7} {label:<18} failed: {str(e).splitlines()[0][:120]}")
                continue
            rows[(label, size)] = (cpu, wall)
            print(f"{size:>7} {n:>7} {label:<18} {cpu:8.2f} {wall:8.2f}  {_figures(holder[0])}",
                  flush=True)
            if not a.no_check:
                m = holder[0]
                problems: list[str] = []

                def check(m: ModuleOp, problems: list[str] = problems) -> None:
                    problems[:] = check_module(m)

                cpu, wall = _timed(check, repeat, lambda m=m: m)
                clabel = f"check:{s or 'default'}"
                rows[(clabel, size)] = (cpu, wall)
                print(f"{size:>7} {n:>7} {clabel:<18} {cpu:8.2f} {wall:8.2f}  "
                      f"{'ok' if not problems else f'{len(problems)} problems'}", flush=True)
    if 10000 in a.sizes and 100000 in a.sizes:
        print("\ngrowth 10k -> 100k (10 = linear; target <= 12), CPU / wall:")
        for label in dict.fromkeys(k for k, _ in rows):
            lo, hi = rows.get((label, 10000)), rows.get((label, 100000))
            if lo and hi:
                rc = hi[0] / lo[0] if lo[0] > 0 else float("inf")
                rw = hi[1] / lo[1] if lo[1] > 0 else float("inf")
                print(f"  {label:<18} {rc:6.1f} / {rw:6.1f}")
        for label in dict.fromkeys(k for k, _ in rows):
            hi = rows.get((label, 100000))
            if hi and label.startswith("regalloc"):
                verdict = "meets" if hi[0] < 20 else "misses"
                print(f"  {label}: 100k in {hi[0]:.1f} s CPU ({verdict} the 20 s target)")


if __name__ == "__main__":
    main()
