"""Loop bodies after ``ori-ptxas`` against ptxas 13.0's SASS, with and without
ori's four LICM instances (issue 15, item 7).  Figures are printed, never
asserted.

For every kernel of ``examples/ptx/sm_80`` whose loops both compilers keep:

* **ptxas**: ``ptxas -arch=sm_80 -O3 -v`` and ``cuobjdump -sass``; a SASS loop
  is a backward ``BRA``; the instructions inside the union of the loops'
  pc ranges (NOPs left out) and the ``-v`` register count;
* **ori**: ``import_ptx`` and ``ori-ptxas{stats=true}`` with all phases
  (``hoist``) and with the four ``ori-hoist-invariants-*`` phases disabled
  (``no-hoist``); the instructions of the blocks inside loops of the
  allocated function (``sass_instructions()`` of every op: a PACK/UNPACK
  allocation put in place and a MOV onto its own register count 0, one
  that needs moves counts them; ``ori.pragma`` aside) and the register count of ``ori-stats``;
* **dynamic**: thread-instructions the interpreter executes for the kernel's
  launch in ``examples/cuda/launches.py`` (the allocated code, run on the
  physical register file), with and without hoisting.

Totals at the end; the target is ori's loop bodies no larger than ptxas's
in total, without more registers.

cuobjdump and nvdisasm come from ``pip install nvidia-cuda-cuobjdump
nvidia-cuda-nvdisasm`` (looked up in the venv, then PATH, then
``--cuobjdump`` / ``--nvdisasm``).

    python benchmarks/loops_vs_ptxas.py [--only SUBSTR]
"""

from __future__ import annotations

import argparse
import contextlib
import importlib.util
import io
import os
import re
import shutil
import subprocess
import sys
import tempfile
from dataclasses import dataclass
from pathlib import Path
from typing import Any

import numpy as np
from xdsl.dialects.builtin import ModuleOp

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))

from ori_dialect.analysis import LoopInfo, functions_of
from ori_dialect.ir.instruction import OriOp
from ori_dialect.ops.control import PragmaOp
from ori_dialect.ptx.lower import import_ptx
from ori_dialect.testing.equivalence import apply_pipeline, run_launch

HOIST = ("ori-hoist-invariants-early,ori-hoist-invariants-late,"
         "ori-hoist-invariants-late2,ori-hoist-invariants-late3")
_SASS_LINE = re.compile(r"/\*([0-9a-f]{4,})\*/\s+(?:@!?U?P[T0-9]+\s+)?([A-Z][A-Z0-9_.]*)\s*([^;]*);")


def _tool(name: str, given: str | None) -> str | None:
    if given:
        return given
    site = ROOT / ".venv" / "lib"
    for p in site.glob(f"python*/site-packages/nvidia/cu*/bin/{name}"):
        return str(p)
    return shutil.which(name)


def _run(cmd: list[str], env: dict[str, str] | None = None) -> subprocess.CompletedProcess[str]:
    r = subprocess.run(cmd, check=False, capture_output=True, text=True, env=env)
    if r.returncode != 0:
        raise RuntimeError(f"{' '.join(cmd)} failed:\n{r.stderr}")
    return r


@dataclass
class PtxasFigures:
    loop_insts: dict[str, int]
    regs: dict[str, int]
    sass: dict[str, list[tuple[int, str, str]]]
    """function -> its SASS instructions (pc, opcode with modifiers, operands)."""


def sass_loop_ranges(ins: list[tuple[int, str, str]]) -> list[tuple[int, int]]:
    """The pc ranges of the loops of one SASS function: a backward ``BRA``
    from ``pc`` to ``target`` closes ``[target, pc]``; a branch to itself
    (the ``BRA`` ptxas puts after the final ``EXIT``) is no loop."""
    ranges = []
    for pc, opc, ops in ins:
        if opc.startswith("BRA"):
            t = re.search(r"0x([0-9a-f]+)\s*$", ops.strip())
            if t and int(t.group(1), 16) < pc:
                ranges.append((int(t.group(1), 16), pc))
    return ranges


def ptxas_figures(ptx: Path, cuobjdump: str, nvdisasm: str, arch: str = "sm_80") -> PtxasFigures:
    with tempfile.TemporaryDirectory() as d:
        cubin = Path(d) / "k.cubin"
        r = _run(["ptxas", f"-arch={arch}", "-O3", "-v", str(ptx), "-o", str(cubin)])
        env = dict(os.environ)
        env["PATH"] = str(Path(nvdisasm).parent) + os.pathsep + env.get("PATH", "")
        sass = _run([cuobjdump, "-sass", str(cubin)], env=env).stdout
    regs: dict[str, int] = {}
    cur = None
    for ln in r.stderr.splitlines():
        m = re.search(r"Compiling entry function '(\S+)'", ln) or re.search(
            r"Function properties for (\S+)", ln)
        if m:
            cur = m.group(1)
        m = re.search(r"Used (\d+) registers", ln)
        if m and cur:
            regs[cur] = int(m.group(1))
    funcs: dict[str, list[tuple[int, str, str]]] = {}
    cur = None
    for ln in sass.splitlines():
        m = re.search(r"Function : (\S+)", ln)
        if m:
            cur = m.group(1)
            funcs[cur] = []
            continue
        m = _SASS_LINE.search(ln)
        if m and cur:
            funcs[cur].append((int(m.group(1), 16), m.group(2), m.group(3)))
    loops: dict[str, int] = {}
    for name, ins in funcs.items():
        ranges = sass_loop_ranges(ins)
        loops[name] = sum(1 for pc, opc, _ in ins if opc != "NOP" and any(
            lo <= pc <= hi for lo, hi in ranges))
    return PtxasFigures(loops, regs, funcs)


def ori_loop_insts(module: ModuleOp) -> dict[str, int]:
    out: dict[str, int] = {}
    for func in functions_of(module):
        li = LoopInfo.compute(func)
        inside = {b for lp in li.loops for b in lp.blocks}
        out[func.sym_name.data] = sum(  # type: ignore[attr-defined]
            op.sass_instructions() for b in inside for op in li.cfg.blocks[b].ops
            if isinstance(op, OriOp) and not isinstance(op, PragmaOp))
    return out


def ori_compile(ptx: Path, hoist: bool) -> tuple[ModuleOp, dict[str, int]]:
    m = import_ptx(ptx.read_text(), str(ptx))
    spec = "ori-ptxas{stats=true}" if hoist else f'ori-ptxas{{stats=true disable="{HOIST}"}}'
    err = io.StringIO()
    with contextlib.redirect_stderr(err), contextlib.redirect_stdout(io.StringIO()):
        apply_pipeline(m, spec)
    regs: dict[str, int] = {}
    cur = None
    for ln in err.getvalue().splitlines():
        m2 = re.search(r"Compiling entry function '(\S+)'", ln)
        if m2:
            cur = m2.group(1)
        m2 = re.search(r"Used (\d+) registers", ln)
        if m2 and cur:
            regs[cur] = int(m2.group(1))
    return m, regs


def _launches() -> list[Any]:
    path = ROOT / "examples" / "cuda" / "launches.py"
    spec = importlib.util.spec_from_file_location("ori_cuda_examples_launches", path)
    assert spec is not None and spec.loader is not None
    mod = importlib.util.module_from_spec(spec)
    sys.modules[spec.name] = mod
    spec.loader.exec_module(mod)
    return list(mod.LAUNCHES)


def dynamic_count(module: ModuleOp, launch: Any) -> int | None:
    """Thread-instructions of one launch (None: the interpreter could not run it)."""
    args = launch.make_args(np.random.default_rng(launch.seed))
    out = run_launch(module, launch.kernel, list(args), launch.grid, launch.block,
                     launch.shared_bytes, physical=True, max_steps=50_000_000)
    return out.steps if out.ok else None


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--only", default="")
    ap.add_argument("--cuobjdump")
    ap.add_argument("--nvdisasm")
    a = ap.parse_args()
    cu, nd = _tool("cuobjdump", a.cuobjdump), _tool("nvdisasm", a.nvdisasm)
    if cu is None or nd is None:
        sys.exit("loops_vs_ptxas: cuobjdump and nvdisasm are needed (pip install "
                 "nvidia-cuda-cuobjdump nvidia-cuda-nvdisasm)")
    launches = {(Path(la.file).stem, la.kernel): la for la in _launches()}
    print(f"{'kernel':34} {'ptxas':>5} {'hoist':>5} {'no-h':>5} | {'regs p/h/n':>10} | "
          f"{'dyn hoist':>10} {'dyn no-h':>10}")
    tot = {k: 0 for k in ("ptxas", "hoist", "nohoist", "rp", "rh", "rn", "dh", "dn", "n", "dyn_n")}
    for ptx in sorted((ROOT / "examples" / "ptx" / "sm_80").glob("*.ptx")):
        if a.only not in ptx.stem:
            continue
        pf = ptxas_figures(ptx, cu, nd)
        mh, rh = ori_compile(ptx, True)
        mn, rn = ori_compile(ptx, False)
        lh, ln_ = ori_loop_insts(mh), ori_loop_insts(mn)
        for kname in sorted(lh):
            p = pf.loop_insts.get(kname, 0)
            if p == 0 or ln_.get(kname, 0) == 0:
                continue  # a loop one of the compilers removed
            la = launches.get((ptx.stem, kname))
            dh = dynamic_count(mh, la) if la else None
            dn = dynamic_count(mn, la) if la else None
            regs = f"{pf.regs.get(kname, 0)}/{rh.get(kname, 0)}/{rn.get(kname, 0)}"
            print(f"{ptx.stem + '.' + kname:34} {p:5} {lh[kname]:5} {ln_[kname]:5} | {regs:>10} | "
                  f"{dh if dh is not None else '-':>10} {dn if dn is not None else '-':>10}")
            tot["n"] += 1
            tot["ptxas"] += p
            tot["hoist"] += lh[kname]
            tot["nohoist"] += ln_[kname]
            tot["rp"] += pf.regs.get(kname, 0)
            tot["rh"] += rh.get(kname, 0)
            tot["rn"] += rn.get(kname, 0)
            if dh is not None and dn is not None:
                tot["dh"] += dh
                tot["dn"] += dn
                tot["dyn_n"] += 1
    print(f"\n{tot['n']} kernels with loops in both: loop-body instructions ptxas {tot['ptxas']}, "
          f"ori with hoisting {tot['hoist']}, without {tot['nohoist']}")
    print(f"registers (sum): ptxas {tot['rp']}, ori with hoisting {tot['rh']}, without {tot['rn']}")
    if tot["dyn_n"]:
        print(f"dynamic thread-instructions ({tot['dyn_n']} kernels): with hoisting {tot['dh']}, "
              f"without {tot['dn']} ({100.0 * (tot['dn'] - tot['dh']) / max(tot['dn'], 1):.1f}% "
              f"fewer with hoisting)")


if __name__ == "__main__":
    main()
