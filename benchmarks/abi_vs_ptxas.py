"""The calling convention against ptxas (issue 17, item 8).

For every function of ``examples/abi/ptx/ARCH/*.ptx`` (device functions and
the kernels that call them; nvcc ``-rdc=true``, so ptxas compiles each
device function under the standard convention), in one run:

* ori: ``ori-opt -p 'ori-ptxas{stats=true}'`` -- registers (``Used N
  registers`` / ``Function F uses N registers``), stack frame, spill stores
  and loads;
* ptxas: ``ptxas -c -v`` on the same PTX -- stack frame, spill stores and
  loads from ``-v``, registers from ``cuobjdump -res-usage`` (``REG:N``:
  ``-v`` prints none for a device function).

ptxas's register figure of a function compiled under the ABI is at least the
ABI minimum (24 on sm_60..sm_90a), device functions included; ori reports
the registers the function's own code touches (counting R0-R3 and the two
withheld registers), so the columns differ by design for small functions.

    python benchmarks/abi_vs_ptxas.py [--sm 80,90]

Figures are printed, never asserted; ``benchmarks/README.md`` records a run.
"""

from __future__ import annotations

import argparse
import contextlib
import io
import re
import shutil
import subprocess
import sys
import tempfile
from dataclasses import dataclass
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
if str(ROOT) not in sys.path:
    sys.path.insert(0, str(ROOT))

CUOBJDUMP = ROOT / ".venv/lib/python3.11/site-packages/nvidia/cu13/bin/cuobjdump"

_PROPS = re.compile(r"Function properties for (\S+)\s*\n\s*(\d+) bytes stack frame, (\d+) bytes "
                    r"spill stores, (\d+) bytes spill loads")
_ENTRY_USED = re.compile(r"Compiling entry function '(\S+)'.*?Used (\d+) registers", re.DOTALL)
_ORI_USES = re.compile(r"ori info\s*: Function (\S+) uses (\d+) registers")
_RES = re.compile(r"Function (\S+):\s*\n\s*REG:(\d+) STACK:(\d+)")


@dataclass
class Figures:
    regs: int | None = None
    frame: int | None = None
    stores: int | None = None
    loads: int | None = None


def parse_v(text: str) -> dict[str, Figures]:
    out: dict[str, Figures] = {}
    for name, fr, st, ld in _PROPS.findall(text):
        out[name] = Figures(None, int(fr), int(st), int(ld))
    for name, n in _ENTRY_USED.findall(text):
        out.setdefault(name, Figures()).regs = int(n)
    for name, n in _ORI_USES.findall(text):
        out.setdefault(name, Figures()).regs = int(n)
    return out


def run_ori(ptx: Path) -> dict[str, Figures]:
    from ori_dialect.cli.ori_opt import main  # lazy: heavy

    err = io.StringIO()
    with contextlib.redirect_stderr(err), contextlib.redirect_stdout(io.StringIO()):
        rc = main([str(ptx), "-p", "ori-ptxas{stats=true}", "-o", "/dev/null"])
    if rc:
        raise SystemExit(f"ori-opt failed on {ptx}:\n{err.getvalue()}")
    return parse_v(err.getvalue())


def run_ptxas(ptx: Path, arch: str) -> dict[str, Figures]:
    with tempfile.TemporaryDirectory() as d:
        cubin = Path(d) / "out.cubin"
        p = subprocess.run(["ptxas", "-c", "-v", f"-arch={arch}", str(ptx), "-o", str(cubin)],
                           capture_output=True, text=True, check=True)
        figs = parse_v(p.stderr + p.stdout)
        r = subprocess.run([str(CUOBJDUMP), "-res-usage", str(cubin)], capture_output=True,
                           text=True, check=True)
        for name, regs, _stack in _RES.findall(r.stdout):
            figs.setdefault(name, Figures()).regs = int(regs)
    return figs


def ptxas_version() -> str:
    p = subprocess.run(["ptxas", "--version"], capture_output=True, text=True, check=False)
    m = re.search(r"V(\d+\.\d+\.\d+)", p.stdout)
    return m.group(1) if m else "?"


def _f(v: int | None) -> str:
    return "-" if v is None else str(v)


def main() -> int:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--sm", default="80,90", help="comma-separated SM numbers")
    args = ap.parse_args()
    if shutil.which("ptxas") is None or not CUOBJDUMP.is_file():
        print("ptxas or cuobjdump not found", file=sys.stderr)
        return 1
    print(f"ptxas {ptxas_version()}")
    for sm in args.sm.split(","):
        arch = f"sm_{sm.strip()}"
        for ptx in sorted((ROOT / "examples" / "abi" / "ptx" / arch).glob("*.ptx")):
            ori, ref = run_ori(ptx), run_ptxas(ptx, arch)
            print(f"\n{ptx.relative_to(ROOT)}")
            print(f"{'function':34} {'regs ori/ptxas':>15} {'frame ori/ptxas':>16} "
                  f"{'spill st ori/ptxas':>19} {'spill ld ori/ptxas':>19}")
            for name in sorted(set(ori) | set(ref), key=lambda n: (not n.startswith("_Z"), n)):
                o, r = ori.get(name, Figures()), ref.get(name, Figures())
                print(f"{name:34} {_f(o.regs):>7}/{_f(r.regs):<7} {_f(o.frame):>8}/{_f(r.frame):<7}"
                      f" {_f(o.stores):>9}/{_f(r.stores):<9} {_f(o.loads):>9}/{_f(r.loads):<9}")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
