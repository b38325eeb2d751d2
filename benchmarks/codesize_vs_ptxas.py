"""SASS size after ``ori-ptxas`` against ptxas 13.0's, per example kernel
(issue 19, item 6).  Figures are printed, never asserted.

For every kernel of the chosen example groups (``examples/ptx``,
``examples/tensor/ptx``, ``examples/library/ptx``, ``examples/texture/ptx``
and ``examples/wgmma/ptx`` -- sm_90a only -- by default; ``--groups
...,triton`` adds ``examples/triton/ptx``, whose sm_90 folder is
``sm_90a``; ``--sm`` picks the folders), in one run.  ``abi``
(``examples/abi/ptx``) is known but not a default: its PTX is built with
``-rdc`` for separate compilation, which this script's whole-program
``ptxas`` run specialises (internal conventions, arguments in registers);
``benchmarks/abi_vs_ptxas.py`` compares it with ``ptxas -c``.

* **ptxas**: ``ptxas -arch=sm_XX -O3 -v`` and ``cuobjdump -sass``
  (``loops_vs_ptxas.ptxas_figures``); the instruction count leaves out the
  NOPs after the last real instruction and the branch-to-itself ptxas puts
  after the final ``EXIT``; loop-body instructions are those inside the pc
  range of a backward ``BRA`` (NOPs left out); R registers from ``-v``, UR
  registers = highest ``URn`` in the SASS + 1 (``-v`` does not count them);
* **occupancy**: of the kernels where ori uses more R registers, those
  whose count gives fewer resident warps per SM than ptxas's
  (``targets.occupancy.warps_per_sm``, registers only, no launch bounds):
  a register more below an occupancy step costs nothing;
* **ori**: ``import_ptx`` and ``ori-ptxas{stats=true}``; the instruction
  count is what ``-t ori-asm`` lists as instructions -- ``sass_instructions()``
  of every op, so a PACK/UNPACK or MOV that allocation put in place counts 0
  and ``ori.pragma`` nothing -- loop bodies are the blocks inside loops
  (``loops_vs_ptxas.ori_loop_insts``); R registers are ``ori-stats``'s
  figure, UR registers the highest UR register allocated + 1.

Functions ptxas does not report (device functions it inlined) are left out
of the totals.  The target of issue 19: ori's total no larger than ptxas's,
loop bodies included, with no kernel gaining registers.

cuobjdump and nvdisasm come from ``pip install nvidia-cuda-cuobjdump
nvidia-cuda-nvdisasm`` (looked up in the venv, then PATH, then
``--cuobjdump`` / ``--nvdisasm``).

    python benchmarks/codesize_vs_ptxas.py [--groups ptx,tensor,library,texture,wgmma[,triton]]
                                           [--sm 80]
                                           [--only SUBSTR]
"""

from __future__ import annotations

import argparse
import importlib.util
import re
import statistics
import sys
import time
from dataclasses import dataclass
from pathlib import Path
from types import ModuleType

ROOT = Path(__file__).resolve().parent.parent
if str(ROOT) not in sys.path:
    sys.path.insert(0, str(ROOT))

from xdsl.dialects.builtin import ModuleOp

from ori_dialect.analysis import functions_of
from ori_dialect.ir.instruction import OriOp
from ori_dialect.ir.registers import OriRegisterType, RegFile
from ori_dialect.ops.control import PragmaOp


def _sibling(name: str) -> ModuleType:
    """A script of this folder, loaded by path (``benchmarks`` is no package)."""
    spec = importlib.util.spec_from_file_location(f"ori_bench_{name}",
                                                  Path(__file__).with_name(f"{name}.py"))
    assert spec is not None and spec.loader is not None
    mod = importlib.util.module_from_spec(spec)
    sys.modules[spec.name] = mod  # dataclasses look their module up by name
    spec.loader.exec_module(mod)
    return mod


loops = _sibling("loops_vs_ptxas")
remat = _sibling("remat_vs_ptxas")

_UR = re.compile(r"\bUR(\d+)\b")


@dataclass
class Row:
    sm: str
    group: str
    kernel: str
    p_insts: int
    p_loop: int
    p_r: int
    p_ur: int
    o_insts: int
    o_loop: int
    o_r: int
    o_ur: int


def ptxas_insts(ins: list[tuple[int, str, str]]) -> int:
    """Instructions of one SASS function without the trailing NOPs and the
    final branch-to-itself."""
    body = list(ins)
    while body and body[-1][1] == "NOP":
        body.pop()
    if body and body[-1][1].startswith("BRA"):
        pc, _, ops = body[-1]
        t = re.search(r"0x([0-9a-f]+)\s*$", ops.strip())
        if t and int(t.group(1), 16) == pc:
            body.pop()
    return len(body)


def ptxas_ur(ins: list[tuple[int, str, str]]) -> int:
    """Highest UR register named in the SASS + 1 (0 when none)."""
    top = -1
    for _, _, ops in ins:
        for m in _UR.finditer(ops):
            top = max(top, int(m.group(1)))
    return top + 1


def ori_insts(func: OriOp) -> int:
    return sum(op.sass_instructions() for op in func.walk()
               if isinstance(op, OriOp) and op is not func and not isinstance(op, PragmaOp)
               and hasattr(op, "sass_instructions"))


def ori_ur(func: OriOp) -> int:
    """Highest allocated UR register + 1 (a 64-bit value counts both halves)."""
    top = -1
    for op in func.walk():
        for v in op.results:
            t = v.type
            if isinstance(t, OriRegisterType) and t.REG_FILE is RegFile.UR \
                    and t.phys_index is not None and not t.is_fixed:
                top = max(top, t.phys_index + t.num_regs() - 1)
    return top + 1


def ori_figures(module: ModuleOp) -> dict[str, tuple[int, int, int]]:
    """function -> (instructions, R registers, UR registers) after ori-ptxas."""
    out = {}
    for f in functions_of(module):
        a = f.attributes.get("ori.num_regs")
        regs = a.value.data if a is not None else 0  # type: ignore[attr-defined]
        out[f.sym_name.data] = (ori_insts(f), regs, ori_ur(f))  # type: ignore[attr-defined]
    return out


def run_file(path: Path, arch: str, group: str, cu: str, nd: str) -> list[Row]:
    pf = loops.ptxas_figures(path, cu, nd, arch)
    m, _ = loops.ori_compile(path, True)
    ori = ori_figures(m)
    ori_loop = loops.ori_loop_insts(m)
    rows = []
    for k, ins in pf.sass.items():
        if k not in ori or k not in pf.regs:
            continue
        oi, orr, our = ori[k]
        rows.append(Row(arch.removeprefix("sm_"), group, k, ptxas_insts(ins),
                        pf.loop_insts.get(k, 0), pf.regs[k], ptxas_ur(ins),
                        oi, ori_loop.get(k, 0), orr, our))
    return rows


def warps(sm: str, regs: int) -> int:
    """Resident warps per SM at ``regs`` registers per thread on sm_``sm``
    (registers only: what a register count costs a kernel)."""
    from targets.occupancy import warps_per_sm
    from targets.registry import get_target

    t = get_target(f"sm_{sm}")
    return warps_per_sm(t, min(max(regs, 1), t.max_regs_per_thread))


def short(name: str, n: int = 40) -> str:
    return name if len(name) <= n else name[:22] + ".." + name[-(n - 24):]


def main() -> int:
    ap = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    ap.add_argument("--groups", default="ptx,tensor,library,texture,wgmma")
    ap.add_argument("--sm", default="80")
    ap.add_argument("--only", default="", help="only PTX files whose name contains this")
    ap.add_argument("--cuobjdump")
    ap.add_argument("--nvdisasm")
    args = ap.parse_args()
    cu, nd = loops._tool("cuobjdump", args.cuobjdump), loops._tool("nvdisasm", args.nvdisasm)
    if cu is None or nd is None:
        print("codesize_vs_ptxas: cuobjdump and nvdisasm are needed (pip install "
              "nvidia-cuda-cuobjdump nvidia-cuda-nvdisasm)", file=sys.stderr)
        return 2
    groups = [g for g in args.groups.split(",") if g]
    print(f"commit {remat.commit()}; ptxas {remat.ptxas_version()}")
    print(f"{'sm':>3} {'group':8} {'kernel':40} | {'insts p/o':>11} {'ratio':>5} | "
          f"{'loop p/o':>9} | {'R p/o':>7} | {'UR p/o':>7}")
    rows: list[Row] = []
    t0 = time.perf_counter()
    for sm in (int(s) for s in args.sm.split(",")):
        for path, arch, group in remat.inputs(sm, groups):
            if args.only not in path.name:
                continue
            for r in run_file(path, arch, group, cu, nd):
                rows.append(r)
                ratio = r.o_insts / r.p_insts if r.p_insts else 0.0
                print(f"{r.sm:>3} {r.group:8} {short(r.kernel):40} | {r.p_insts:5}/{r.o_insts:<5} "
                      f"{ratio:5.2f} | {r.p_loop:4}/{r.o_loop:<4} | {r.p_r:3}/{r.o_r:<3} | "
                      f"{r.p_ur:3}/{r.o_ur:<3}")
    if not rows:
        print("no kernels")
        return 0
    tp, to = sum(r.p_insts for r in rows), sum(r.o_insts for r in rows)
    lp, lo = sum(r.p_loop for r in rows), sum(r.o_loop for r in rows)
    more_r = [r for r in rows if r.o_r > r.p_r]
    print(f"\n{len(rows)} kernels ({time.perf_counter() - t0:.0f} s):")
    print(f"  instructions: ptxas {tp}, ori {to} ({to / max(tp, 1):.2f}x); median kernel ratio "
          f"{statistics.median(r.o_insts / r.p_insts for r in rows if r.p_insts):.2f}")
    print(f"  loop bodies: ptxas {lp}, ori {lo} ({lo / max(lp, 1):.2f}x)")
    print(f"  R registers: ptxas {sum(r.p_r for r in rows)}, ori {sum(r.o_r for r in rows)}; "
          f"ori above ptxas on {len(more_r)} kernels")
    fewer_warps = [r for r in more_r if warps(r.sm, r.o_r) < warps(r.sm, r.p_r)]
    print(f"    of which at fewer resident warps per SM than ptxas's count allows "
          f"(no launch bounds): {len(fewer_warps)}"
          + (" -- " + ", ".join(f"{short(r.kernel, 28)} {r.p_r}/{r.o_r}" for r in fewer_warps)
             if fewer_warps else ""))
    print(f"  UR registers: ptxas {sum(r.p_ur for r in rows)}, ori {sum(r.o_ur for r in rows)}")
    met = to <= tp and lo <= lp
    print(f"  target (ori's total and loop bodies no larger than ptxas's): "
          f"{'met' if met else 'NOT met'}")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
