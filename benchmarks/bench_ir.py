"""IR and analysis speed: parse (custom and generic syntax), print, verify,
liveness, loop analysis and register pressure on generated Ori functions.

Two shapes per size (1k, 10k, 100k instructions):

* ``straight``: one block of arithmetic, memory and predicate ops;
* ``loops``: about 1k blocks (100 for the 1k size) arranged as a sequence of
  loop nests of depth 2 and 3, each innermost body holding a diamond, with
  loop-carried values as block arguments and guarded ops with tied prior values.

Prints seconds (best of ``--repeat`` runs), instructions per second, and for
each measurement the 10k -> 100k growth ratio (10 would be linear).  Targets
(reported, never asserted): liveness + loops on 100k instructions / 1k blocks
under 2 s; growth ratio at most 12; the custom-syntax parse no slower than the
generic-form parse of the same module.

    python benchmarks/bench_ir.py [--sizes 1000 10000 100000] [--repeat 3] [--parse-repeat 1]

Parsing 100k instructions takes about a minute on a slow machine; the whole
run takes several minutes.
"""

from __future__ import annotations

import argparse
import gc
import io
import random
import sys
import time
from collections.abc import Callable
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

from xdsl.context import Context
from xdsl.dialects.builtin import Builtin, ModuleOp
from xdsl.parser import Parser
from xdsl.printer import Printer

from ori_dialect.analysis import Liveness, LoopInfo, RegisterPressure
from ori_dialect.dialect import Ori
from ori_dialect.ops.func import FuncOp


# ----------------------------------------------------------------------
# generators
# ----------------------------------------------------------------------
class _Gen:
    """Emits Ori text; keeps values in scope valid for SSA (dominating defs only)."""

    def __init__(self, seed: int) -> None:
        self.rng = random.Random(seed)
        self.lines: list[str] = []
        self.count = 0  # instructions emitted (terminators included)
        self.n = 0
        self.r32: list[str] = []
        self.r64: list[str] = []
        self.p: list[str] = []

    def fresh(self) -> str:
        self.n += 1
        return f"%v{self.n}"

    def pick(self, pool: list[str]) -> str:
        # mostly recent values, sometimes one of the first (function-wide) values,
        # sometimes an older one within a window: realistic live-range lengths
        r = self.rng.random()
        if r < 0.05:
            return pool[self.rng.randrange(min(len(pool), 8))]
        if r < 0.15:
            return pool[-1 - self.rng.randrange(min(len(pool), 48))]
        return pool[-1 - min(len(pool) - 1, int(self.rng.expovariate(0.4)))]

    def emit(self, s: str) -> None:
        self.lines.append("    " + s)
        self.count += 1

    def prologue(self) -> None:
        for i in range(8):
            v = self.fresh()
            self.emit(f"{v} = ori.mov c[0x0][{hex(0x210 + 4 * i)}] : () -> !ori.r32")
            self.r32.append(v)
        for _ in range(2):
            v = self.fresh()
            self.emit(f"{v} = ori.ldc b64 0x0, [RZ + 0x210] : () -> !ori.r64")
            self.r64.append(v)
        v = self.fresh()
        self.emit(
            f"{v} = ori.isetp lt.u32 {self.r32[0]}, {self.r32[1]}, PT : "
            "(!ori.r32, !ori.r32) -> !ori.p"
        )
        self.p.append(v)

    def op(self) -> None:
        r = self.rng.random()
        v = self.fresh()
        a, b = self.pick(self.r32), self.pick(self.r32)
        if r < 0.45:
            self.emit(f"{v} = ori.iadd3 {a}, {b}, RZ : (!ori.r32, !ori.r32) -> !ori.r32")
            self.r32.append(v)
        elif r < 0.6:
            w = self.pick(self.r64)
            self.emit(f"{v} = ori.imad wide.u32 {a}, 0x4, {w} : (!ori.r32, !ori.r64) -> !ori.r64")
            self.r64.append(v)
        elif r < 0.7:
            w = self.pick(self.r64)
            self.emit(f"{v} = ori.ldg b32 [{w} + 0x10] : (!ori.r64) -> !ori.r32")
            self.r32.append(v)
        elif r < 0.78:
            self.n -= 1
            w = self.pick(self.r64)
            self.emit(f"ori.stg [{w}], {a} : (!ori.r64, !ori.r32) -> ()")
        elif r < 0.88:
            self.emit(f"{v} = ori.isetp ge.u32 {a}, {b}, PT : (!ori.r32, !ori.r32) -> !ori.p")
            self.p.append(v)
        else:
            q = self.pick(self.p)
            self.emit(
                f"{v} = ori.iadd3 {a}, 0x1, RZ if {q} else {b} : "
                "(!ori.r32, !ori.p, !ori.r32) -> !ori.r32"
            )
            self.r32.append(v)

    def ops(self, k: int) -> None:
        for _ in range(k):
            self.op()


def straight_line(n_inst: int, seed: int = 1) -> str:
    g = _Gen(seed)
    g.prologue()
    while g.count < n_inst - 1:
        g.op()
    g.emit("ori.exit")
    return "\n".join(["builtin.module {", "  ori.func kernel @straight() {", *g.lines, "  }", "}"])


def nested_loops(n_inst: int, n_blocks: int, seed: int = 2) -> str:
    """Loop nests of depth 2 and 3 with a diamond in the innermost body: about
    ``n_blocks`` blocks and ``n_inst`` instructions."""
    count = _nested_loops(n_inst, n_blocks, seed, None)[1]
    # second try with the ops per block corrected by the first try's overshoot
    return _nested_loops(n_inst, n_blocks, seed, count)[0]


def _nested_loops(
    n_inst: int, n_blocks: int, seed: int, first_count: int | None
) -> tuple[str, int]:
    g = _Gen(seed)
    body: list[str] = ["builtin.module {", "  ori.func kernel @loops() {"]
    g.prologue()
    # blocks per nest: depth d -> 2 * d headers/latches + 3 diamond blocks + 1 exit
    nests: list[int] = []
    total = 1
    while total < n_blocks:
        d = 3 if g.rng.random() < 0.4 else 2
        nests.append(d)
        total += 2 * d + 3
    per_block = max(1, (n_inst - g.count) // total - 1)
    if first_count is not None:
        # the first try's excess (terminators, compares, increments) per block
        overhead = (first_count - g.count) / total - per_block
        per_block = max(1, round((n_inst - g.count) / total - overhead))
    label = 0

    def new_label() -> str:
        nonlocal label
        label += 1
        return f"^bb{label}"

    def block(name: str, args: list[tuple[str, str]]) -> None:
        a = ", ".join(f"{v} : {t}" for v, t in args)
        g.lines.append(f"  {name}" + (f"({a})" if a else "") + ":")

    def scoped(f: Callable[[], None]) -> None:
        """Run ``f`` with values defined inside dropped afterwards (not dominating)."""
        saved = (len(g.r32), len(g.r64), len(g.p))
        f()
        del g.r32[saved[0] :], g.r64[saved[1] :], g.p[saved[2] :]

    def nest(depth: int, exit_label: str) -> None:
        header = new_label()
        init = g.pick(g.r32)
        g.emit(f"ori.bra {header}({init} : !ori.r32)")
        iv = g.fresh()
        block(header, [(iv, "!ori.r32")])
        saved = (len(g.r32), len(g.r64), len(g.p))
        g.r32.append(iv)
        g.ops(per_block)
        latch = new_label()
        if depth > 1:
            nest(depth - 1, latch)
        else:
            # diamond: then / else / join(latch) passing a value
            then_l, else_l = new_label(), new_label()
            c = g.fresh()
            g.emit(
                f"{c} = ori.isetp lt.u32 {g.pick(g.r32)}, {iv}, PT : (!ori.r32, !ori.r32) -> !ori.p"
            )
            g.p.append(c)
            g.emit(f"ori.bra if {c} : !ori.p, {then_l}, {else_l}")
            join_v = g.fresh()
            for lab in (then_l, else_l):
                block(lab, [])

                def arm() -> None:
                    g.ops(per_block)
                    g.emit(f"ori.bra {latch}({g.pick(g.r32)} : !ori.r32)")

                scoped(arm)
            block(latch, [(join_v, "!ori.r32")])
            g.r32.append(join_v)
        if depth > 1:
            block(latch, [])
        g.ops(per_block)
        nxt = g.fresh()
        g.emit(f"{nxt} = ori.iadd3 {iv}, 0x1, RZ : (!ori.r32) -> !ori.r32")
        c2 = g.fresh()
        g.emit(f"{c2} = ori.isetp lt.u32 {nxt}, {g.r32[0]}, PT : (!ori.r32, !ori.r32) -> !ori.p")
        g.emit(f"ori.bra if {c2} : !ori.p, {header}({nxt} : !ori.r32), {exit_label}")
        # values of the loop body do not dominate the exit beyond the header's
        del g.r32[saved[0] + 1 :], g.r64[saved[1] :], g.p[saved[2] :]

    for d in nests:
        exit_l = new_label()
        nest(d, exit_l)
        block(exit_l, [])
        g.ops(per_block)
    g.emit("ori.exit")
    body += g.lines
    body += ["  }", "}"]
    return "\n".join(body), g.count


# ----------------------------------------------------------------------
# measurement
# ----------------------------------------------------------------------
def _ctx() -> Context:
    ctx = Context()
    ctx.load_dialect(Builtin)
    ctx.load_dialect(Ori)
    return ctx


def _time(f: Callable[[], object], repeat: int) -> float:
    best = float("inf")
    for _ in range(repeat):
        gc.collect()
        t = time.perf_counter()
        f()
        best = min(best, time.perf_counter() - t)
    return best


def _print(m: ModuleOp, generic: bool) -> str:
    s = io.StringIO()
    Printer(stream=s, print_generic_format=generic).print_op(m)
    return s.getvalue()


def measure(text: str, repeat: int, parse_repeat: int) -> tuple[int, int, dict[str, float]]:
    ctx = _ctx()
    m = Parser(ctx, text).parse_module()
    func = m.ops.first
    assert isinstance(func, FuncOp)
    n_inst = sum(len(list(b.ops)) for b in func.body.blocks)
    n_blocks = len(list(func.body.blocks))
    generic = _print(m, True)
    res: dict[str, float] = {}
    res["parse"] = _time(lambda: Parser(_ctx(), text).parse_module(), parse_repeat)
    res["parse-generic"] = _time(lambda: Parser(_ctx(), generic).parse_module(), parse_repeat)
    res["print"] = _time(lambda: _print(m, False), parse_repeat)
    res["verify"] = _time(m.verify, parse_repeat)
    res["liveness"] = _time(lambda: Liveness.compute(func), repeat)
    res["loops"] = _time(lambda: LoopInfo.compute(func), repeat)
    res["liveness+loops"] = _time(lambda: (Liveness.compute(func), LoopInfo.compute(func)), repeat)
    lv = Liveness.compute(func)
    res["pressure"] = _time(lambda: RegisterPressure(lv), repeat)
    return n_inst, n_blocks, res


def main(argv: list[str] | None = None) -> None:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0] if __doc__ else None)
    ap.add_argument("--sizes", type=int, nargs="+", default=[1000, 10000, 100000])
    ap.add_argument("--repeat", type=int, default=3, help="runs of each analysis (best kept)")
    ap.add_argument("--parse-repeat", type=int, default=1, help="runs of parse/print/verify")
    ap.add_argument("--blocks", type=int, default=1000)
    ap.add_argument("--shapes", nargs="+", default=["straight", "loops"])
    args = ap.parse_args(argv)
    results: dict[tuple[str, int], dict[str, float]] = {}
    for shape in args.shapes:
        for size in args.sizes:
            if shape == "straight":
                text = straight_line(size)
            else:
                text = nested_loops(size, min(args.blocks, max(10, size // 10)))
            n_inst, n_blocks, res = measure(text, args.repeat, args.parse_repeat)
            results[(shape, size)] = res
            print(f"{shape} {size}: {n_inst} instructions, {n_blocks} blocks")
            for k, t in res.items():
                print(f"  {k:15s} {t:9.4f} s  {n_inst / t if t else float('inf'):12.0f} inst/s")
            print(f"  custom/generic parse ratio {res['parse'] / res['parse-generic']:.2f}")
            sys.stdout.flush()
    if 10000 in args.sizes and 100000 in args.sizes:
        print("growth 10k -> 100k (10 = linear):")
        for shape in args.shapes:
            a, b = results[(shape, 10000)], results[(shape, 100000)]
            print(f"  {shape}: " + " ".join(f"{k}={b[k] / a[k]:.1f}" for k in a))


if __name__ == "__main__":
    main()
