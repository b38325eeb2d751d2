"""Spill figures of ``ori-regalloc`` for every register file and for the SMEM
spill mode (``passes/regalloc/spill.py``).

Part 1 (``--files``): the predicate / uniform / barrier-heavy kernels of
``tests/passes/regalloc/test_spill.py`` allocated under ``force-file-limits``
(default ``P=2;UP=1;UR=1;B=1``) and ``--max-regs``: per kernel the GPR homes
created (P2R, MOV UR->R, BMOV B->R), the register reloads (R2P, R2UR, BMOV
R->B), the homes that went on to local memory, and the spill bytes.

Part 2 (``--smem``): generated kernels (no shared memory, no calls) at
``--max-regs``, once with local-memory spills and once with
``smem-spilling=true`` and launch bounds equal to the launch's block:
local spill bytes, shared bytes reserved (``ori.smem_spill_bytes``) and the
thread instructions the interpreter executes (physical-register mode), plus
how many kernels fell back (partly) to local memory.

Every allocation is checked (``ori-check-regalloc``) and run against the SSA
program; a mismatch stops the script.  Times are CPU seconds
(``time.process_time``) of the allocations.

    python benchmarks/bench_spill_files.py [--programs 20] [--max-regs 20]
        [--limits "P=2;UP=1;UR=1;B=1"]
"""

from __future__ import annotations

import argparse
import sys
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

from xdsl.dialects.builtin import DenseArrayBase, IntegerAttr, i32

from ori_dialect.interpreter import run_kernel
from ori_dialect.ops.func import FuncOp
from ori_dialect.testing.equivalence import apply_pipeline, check_equivalent
from ori_dialect.testing.generator import GenOptions, generate
from passes.regalloc.checker import check_module
from passes.regalloc.spill import HOME_ATTR


def _attr(f: FuncOp, name: str) -> int:
    a = f.attributes.get(name)
    return a.value.data if isinstance(a, IntegerAttr) else 0


def _kernel(m: object) -> FuncOp:
    return next(f for f in m.walk() if isinstance(f, FuncOp) and f.is_kernel)  # type: ignore[attr-defined]


def files_part(n: int, limits: str, max_regs: int) -> None:
    from tests.passes.regalloc.test_spill import spill_files_program

    print(f"== every file: force-file-limits={limits} max-regs={max_regs}, {n} kernels")
    print(f"{'seed':>5} {'homes':>6} {'R2P':>5} {'R2UR':>5} {'BMOV>B':>7} {'homes->mem':>11} "
          f"{'spill st/ld B':>14} {'cpu s':>6}")
    tot = [0, 0, 0, 0, 0]
    cpu_all = 0.0
    for seed in range(n):
        m, inp = spill_files_program(seed)
        after = m.clone()
        t0 = time.process_time()
        apply_pipeline(after, f'ori-regalloc{{force-file-limits="{limits}" max-regs={max_regs}}}')
        cpu = time.process_time() - t0
        cpu_all += cpu
        problems = check_module(after)
        if problems:
            sys.exit(f"seed {seed}: checker: {problems[0]}")
        check_equivalent(m, after, "k", [inp], physical_after=True, title=f"seed {seed}")
        homes = [op for op in after.walk() if HOME_ATTR in op.attributes]
        home_vals = {r for op in homes for r in op.results}
        r2p = sum(op.name == "ori.r2p" for op in after.walk())
        r2ur = sum(op.name == "ori.r2ur" for op in after.walk())
        bmov = sum(op.name == "ori.bmov" and "ori.spill_value" in op.attributes
                   for op in after.walk())
        to_mem = sum(op.name == "ori.stl" and op.operands[-1] in home_vals for op in after.walk())
        k = _kernel(after)
        st, ld = _attr(k, "ori.spill_stores"), _attr(k, "ori.spill_loads")
        for i, v in enumerate((len(homes), r2p, r2ur, bmov, to_mem)):
            tot[i] += v
        sl = f"{st}/{ld}"
        print(f"{seed:>5} {len(homes):>6} {r2p:>5} {r2ur:>5} {bmov:>7} {to_mem:>11} "
              f"{sl:>14} {cpu:>6.2f}")
    print(f"{'all':>5} {tot[0]:>6} {tot[1]:>5} {tot[2]:>5} {tot[3]:>7} {tot[4]:>11} "
          f"{'':>14} {cpu_all:>6.2f}")


def smem_part(n: int, max_regs: int) -> None:
    print(f"\n== SMEM spilling vs local memory: max-regs={max_regs}, {n} generated kernels "
          "with launch bounds")
    print(f"{'seed':>5} {'local st/ld B':>14} {'smem B/CTA':>11} {'smem st/ld B':>13} "
          f"{'left local':>11} {'thr-insn local':>15} {'thr-insn smem':>14}")
    fallback = 0
    cpu = {"local": 0.0, "smem": 0.0}
    for seed in range(n):
        prog = generate(seed, options=GenOptions(shared=False, calls=False, pressure=48))
        inp = prog.inputs(seed + 1)
        _kernel(prog.module).maxntid = DenseArrayBase.from_list(i32, list(inp.block))
        row = []
        insns = []
        for mode, spec in (("local", f"ori-regalloc{{max-regs={max_regs}}}"),
                           ("smem", f"ori-regalloc{{max-regs={max_regs} smem-spilling=true}}")):
            after = prog.module.clone()
            t0 = time.process_time()
            apply_pipeline(after, spec)
            cpu[mode] += time.process_time() - t0
            problems = check_module(after)
            if problems:
                sys.exit(f"seed {seed} {mode}: checker: {problems[0]}")
            check_equivalent(prog.module, after, prog.kernel, [inp], physical_after=True,
                             title=f"seed {seed} {mode}")
            stats: dict[str, int] = {}
            run_kernel(after, prog.kernel, inp.grid, inp.block, list(inp.args),
                       inp.shared_bytes, physical=True, stats=stats)
            insns.append(stats["thread_instructions"])
            row.append(_kernel(after))
        loc, sm = row
        left = _attr(sm, "ori.spill_stores")
        fallback += left > 0
        local_sl = f"{_attr(loc, 'ori.spill_stores')}/{_attr(loc, 'ori.spill_loads')}"
        smem_sl = f"{_attr(sm, 'ori.smem_spill_stores')}/{_attr(sm, 'ori.smem_spill_loads')}"
        print(f"{seed:>5} {local_sl:>14} {_attr(sm, 'ori.smem_spill_bytes'):>11} {smem_sl:>13} "
              f"{left:>11} {insns[0]:>15} {insns[1]:>14}")
    print(f"kernels with spills left in local memory: {fallback}/{n}; allocation CPU s: "
          f"local {cpu['local']:.2f}, smem {cpu['smem']:.2f}")


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--programs", type=int, default=20)
    ap.add_argument("--max-regs", type=int, default=20)
    ap.add_argument("--limits", default="P=2;UP=1;UR=1;B=1")
    ap.add_argument("--files", action="store_true", help="only part 1")
    ap.add_argument("--smem", action="store_true", help="only part 2")
    a = ap.parse_args()
    both = not (a.files or a.smem)
    if a.files or both:
        files_part(a.programs, a.limits, a.max_regs)
    if a.smem or both:
        smem_part(a.programs, a.max_regs)


if __name__ == "__main__":
    main()
