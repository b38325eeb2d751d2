"""The experiment behind ori's register-count rule (``passes/stats.py``).

Writes PTX kernels that keep k loaded values live (``ld.volatile`` then a
``mul``/``xor`` chain that uses them in reverse order; k 32-bit values, or k
64-bit values), an empty kernel, and a kernel with k = 39 under
``--maxrregcount`` limits; compiles them with ``ptxas -arch=sm_XX -v`` and
disassembles with ``cuobjdump -sass``; prints per kernel the highest R and UR
register in the SASS text (a 64-bit operand ``R4`` also uses R5, which the
text does not show), ptxas's ``Used N registers`` and N - (highest R + 1).

cuobjdump (and the nvdisasm it calls) are looked up with ``--cuobjdump``,
``$CUOBJDUMP``, then PATH (nvdisasm: ``NVDISASM_PATH`` or PATH); install with
``pip install --target /tmp/cudatools nvidia-cuda-cuobjdump`` and
``pip install --target /tmp/cudatools2 nvidia-cuda-nvdisasm``.  Without them
only ptxas's figures are printed.

    python benchmarks/ptxas_register_count.py [--sm 80,90] [--cuobjdump PATH]
"""

from __future__ import annotations

import argparse
import os
import re
import shutil
import subprocess
import sys
import tempfile
from pathlib import Path


def kernel(n: int, name: str, wide: bool = False) -> str:
    ty, rr = ("u64", "%rd") if wide else ("u32", "%r")
    b = "64" if wide else "32"
    lines = [
        f".visible .entry {name}(.param .u64 p) {{",
        f"  .reg .b64 %rd<{2 * n + 10}>; .reg .b32 %r<{2 * n + 10}>; .reg .b64 %a<4>;",
        "  ld.param.u64 %a1, [p]; cvta.to.global.u64 %a2, %a1;",
        "  mov.u32 %r0, %tid.x; mul.wide.u32 %a3, %r0, 4; add.s64 %a3, %a2, %a3;",
    ]
    lines += [f"  ld.volatile.global.{ty} {rr}{i}, [%a3+{8 * i}];" for i in range(1, n + 1)]
    acc = f"{rr}{n + 1}"
    lines.append(f"  mov.b{b} {acc}, 0;")
    for i in range(n, 0, -1):
        lines.append(f"  mul.lo.s{b} {acc}, {acc}, 3; xor.b{b} {acc}, {acc}, {rr}{i};")
    lines += [f"  st.global.{ty} [%a3], {acc};", "  ret; }"]
    return "\n".join(lines)


def compile_and_read(
    ptx: str, sm: int, extra: list[str], cuobjdump: str | None, tmp: Path
) -> tuple[dict[str, int], dict[str, tuple[int | None, int | None]], list[str]]:
    src, cubin = tmp / "k.ptx", tmp / "k.cubin"
    src.write_text(ptx)
    p = subprocess.run(["ptxas", f"-arch=sm_{sm}", "-v", *extra, str(src), "-o", str(cubin)],
                       capture_output=True, text=True, check=True)
    used = {k: int(v) for k, v in re.findall(
        r"Compiling entry function '(\w+)'.*?Used (\d+) registers", p.stderr, re.DOTALL)}
    warnings = [ln for ln in p.stderr.splitlines() if "warning" in ln]
    sass: dict[str, tuple[int | None, int | None]] = {}
    if cuobjdump:
        out = subprocess.run([cuobjdump, "-sass", str(cubin)], capture_output=True, text=True,
                             check=False).stdout
        for part in out.split("Function : ")[1:]:
            name = part.split()[0]
            rs = [int(x) for x in re.findall(r"\bR(\d+)\b", part)]
            us = [int(x) for x in re.findall(r"\bUR(\d+)\b", part)]
            sass[name] = (max(rs) if rs else None, max(us) if us else None)
    return used, sass, warnings


def main() -> int:
    ap = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    ap.add_argument("--sm", default="80,90")
    ap.add_argument("--cuobjdump", default=None)
    args = ap.parse_args()
    if shutil.which("ptxas") is None:
        print("ptxas is not on PATH", file=sys.stderr)
        return 2
    cuob = next((c for c in (args.cuobjdump, os.environ.get("CUOBJDUMP"),
                             shutil.which("cuobjdump")) if c and Path(c).exists()), None)
    if cuob is None:
        print("(no cuobjdump: SASS columns left empty; see the docstring)")
    with tempfile.TemporaryDirectory() as d:
        tmp = Path(d)
        for sm in (int(s) for s in args.sm.split(",")):
            hdr = f".version 8.0\n.target sm_{sm}\n.address_size 64\n"
            body = "\n".join(
                [".visible .entry empty() { ret; }"]
                + [kernel(n, f"k{n}") for n in (1, 2, 3, 4, 5, 10, 20, 39)]
                + [kernel(n, f"w{n}", True) for n in (1, 2, 5, 11)]
            )
            used, sass, _ = compile_and_read(hdr + body, sm, [], cuob, tmp)
            print(f"sm_{sm}: kernel  highestR  highestUR  Used  Used-(highestR+1)")
            for k in sorted(used, key=lambda s: (s[0], int(s[1:]) if s[1:].isdigit() else 0)):
                r, u = sass.get(k, (None, None))
                diff = "" if r is None else f"{used[k] - (r + 1):+d}"
                print(f"  {k:<7} {r if r is not None else '-':>8} {u if u is not None else '-':>10}"
                      f" {used[k]:>5}  {diff}")
            for lim in (16, 24, 25, 28, 32):
                used, sass, warns = compile_and_read(hdr + kernel(39, "k39"), sm,
                                                     ["--maxrregcount", str(lim)], cuob, tmp)
                r = sass.get("k39", (None, None))[0]
                print(f"  k39 --maxrregcount {lim}: highest R {r if r is not None else '-'}, "
                      f"Used {used['k39']}" + (f"  [{warns[0].strip()}]" if warns else ""))
    return 0


if __name__ == "__main__":
    sys.exit(main())
