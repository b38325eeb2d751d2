"""ori's register allocation against ptxas's on the example PTX (issues 6, 14).

For every ``examples/ptx/sm_80/*.ptx`` and ``examples/ptx/sm_90/*.ptx``, the
tensor-core, texture and warpgroup-MMA kernels of ``examples/tensor``,
``examples/texture`` and ``examples/wgmma`` (sm_90a) and the Triton
``tl.dot`` kernels of ``examples/triton`` (sm_80 and sm_90a) --
:func:`inputs` --, with no register limit and with ``max-regs 32``
(``--maxrregcount 32``; ``--override`` adds ``override-directive-values`` /
``--override-directive-values``, without which both ignore the limit for a
kernel with ``.maxntid`` / ``.reqntid`` / ``.maxnreg``: the wgmma and Triton
kernels):

1. **ori**: ``import_ptx``, then the default pipeline up to allocation,
   ``ori-general-optimize,ori-dead-code,ori-loop-simplify,ori-loop-unroll,
   ori-regalloc{strategy=S[ max-regs=32]}`` (phases 13, 16, 18, 22 and the
   allocator; ``--pre none`` leaves out the first two, ``--pre SPEC`` runs
   SPEC in their place)
   for every strategy ``ori-regalloc`` accepts (discovered: the pass's
   ``strategy`` field, if any, is tried with each known name and the names
   it rejects are dropped -- so the script works with or without
   ``strategy=ssa``);
2. **lower bound**: on the module after the passes before allocation, the maximum over program points of live R registers (widths
   counted: ``r64`` 2, ``r128`` 4) plus the reserved registers (R1, or R0-R3
   under the ABI) plus the 2 registers ptxas withholds on sm_70+
   (``passes.regalloc.budget.r_demand``): no allocation of that code can
   report fewer registers (ptxas's code differs, so ptxas can go below it);
3. **ptxas**: ``ptxas -arch=sm_XX -v [--maxrregcount 32]`` on the same PTX
   (a file ptxas refuses -- ``C7602 Insufficient registers`` under
   ``--override`` -- shows ptxas's error on each of its kernels).

Printed per kernel (device functions that ptxas keeps have no ``Used`` line
in ``ptxas -v`` and are listed with ptxas ``-``): ori's registers and spill
bytes (stores+loads) per strategy, the lower bound, ptxas's registers and
spill bytes.  A mark after ``r`` says, for strategies that record it
(``strategy=ssa``: :mod:`passes.regalloc.ssa_search`), how the count
relates to the bound: ``=`` at the bound, ``+`` above it but proven minimal
for the allocated code by the exact search (the difference is alignment of
pairs/quads and the reserved R1), ``?`` not proven; then per (limit, strategy) the summary: kernels where ori <=
ptxas in registers, spill bytes summed (ori and ptxas), kernels where ori
spills and ptxas does not.  ``--listing NAME`` prints ori's allocated listing
of that kernel (``-t ori-asm``) and ptxas's SASS (needs cuobjdump: found
with ``--cuobjdump``, ``$CUOBJDUMP`` or PATH; ``pip install --target
/tmp/cudatools nvidia-cuda-cuobjdump`` and ``pip install --target
/tmp/cudatools2 nvidia-cuda-nvdisasm``, then ``--cuobjdump
/tmp/cudatools/nvidia/cu13/bin/cuobjdump`` and ``NVDISASM_PATH`` or PATH for
nvdisasm).  Figures are reported as they come out; see
``benchmarks/README.md`` for a run and the reasons behind the largest gaps.

    python benchmarks/regalloc_vs_ptxas.py [--only SUBSTR] [--sm 80,90] [--limits none,32] [--pre none]
                                           [--override]
"""

from __future__ import annotations

import argparse
import contextlib
import dataclasses
import io
import os
import re
import shutil
import subprocess
import sys
import time
from dataclasses import dataclass, field
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
if str(ROOT) not in sys.path:
    sys.path.insert(0, str(ROOT))

KNOWN_STRATEGIES = ("fatpoint", "ssa", "linear", "greedy")
DEFAULT_PRE = "ori-general-optimize,ori-dead-code"
"""The early phases (13, 16) run before the loop passes unless ``--pre`` says otherwise."""


def before_alloc(pre: str) -> str:
    """The pipeline up to (not including) ``ori-regalloc``."""
    loops = "ori-loop-simplify,ori-loop-unroll"
    return loops if pre in ("", "none") else f"{pre},{loops}"
"""Names tried against ``ori-regalloc{strategy=...}``; the accepted ones are used."""


@dataclass
class PtxasFigures:
    regs: int | None
    spill_stores: int
    spill_loads: int


@dataclass(frozen=True)
class Input:
    path: Path
    arch: str
    """``ptxas -arch`` and ori's target: ``sm_80``, ``sm_90``, ``sm_90a``."""
    group: str = "ptx"
    """The examples folder: ``ptx``, ``tensor``, ``texture``, ``wgmma``, ``triton``."""


@dataclass
class Row:
    sm: str
    file: str
    kernel: str
    limit: int | None
    bound: int | None = None
    ori: dict[str, tuple[int, int, int] | str] = field(default_factory=dict)
    """strategy -> (registers, spill stores, spill loads) or an error text."""
    proven: dict[str, bool] = field(default_factory=dict)
    """strategy -> whether the register count is proven minimal for the
    allocated code (``ori.r_assign_optimal``, set by ``strategy=ssa``)."""
    ptxas: PtxasFigures | None = None
    ptxas_error: str = ""
    group: str = "ptx"


def strategies() -> list[str]:
    """The strategies ``ori-regalloc`` accepts (``["default"]`` without the option)."""
    from passes.regalloc.driver import RegAllocPass

    names = {f.name for f in dataclasses.fields(RegAllocPass)}
    if "strategy" not in names:
        return ["default"]
    from xdsl.dialects.builtin import ModuleOp
    from xdsl.utils.exceptions import PassFailedException

    from ori_dialect.testing.equivalence import apply_pipeline

    ok = []
    for s in KNOWN_STRATEGIES:
        try:
            apply_pipeline(ModuleOp([]), f"ori-regalloc{{strategy={s}}}")
        except PassFailedException as e:
            if "strategy" in str(e):
                continue
            raise
        ok.append(s)
    return ok


def run_ptxas(path: Path, arch: str, limit: int | None,
              override: bool = False) -> dict[str, PtxasFigures] | str:
    """ptxas -v's figures per function, or ptxas's error (its first fatal line)."""
    cmd = ["ptxas", f"-arch={arch}", "-v", str(path), "-o", os.devnull]
    if limit is not None:
        cmd[3:3] = ["--maxrregcount", str(limit)]
        if override:
            cmd[3:3] = ["--override-directive-values"]
    p = subprocess.run(cmd, capture_output=True, text=True, check=False)
    if p.returncode:
        fatal = [ln for ln in p.stderr.splitlines() if "fatal" in ln]
        if fatal:
            return fatal[0].split(":", 1)[1].strip()
        raise RuntimeError(f"ptxas failed on {path}:\n{p.stderr}")
    out: dict[str, PtxasFigures] = {}
    cur: str | None = None
    for line in p.stderr.splitlines():
        m = re.search(r"Function properties for (\S+)", line)
        if m:
            cur = m.group(1)
            out[cur] = PtxasFigures(None, 0, 0)
            continue
        m = re.search(r"(\d+) bytes spill stores, (\d+) bytes spill loads", line)
        if m and cur:
            out[cur].spill_stores, out[cur].spill_loads = int(m.group(1)), int(m.group(2))
            continue
        m = re.search(r"Used (\d+) registers", line)
        if m and cur:
            out[cur].regs = int(m.group(1))
    return out


def lower_bounds(module: object, limit: int | None, override: bool = False) -> dict[str, int]:
    from ori_dialect.ops.func import FuncOp
    from passes.regalloc.budget import compute_budget, function_target, r_demand

    res = {}
    for f in module.walk():  # type: ignore[attr-defined]
        if isinstance(f, FuncOp):
            tgt = function_target(f)
            res[f.sym_name.data] = r_demand(
                f, tgt, compute_budget(f, tgt, limit, quiet=True, override=override))
    return res


def run_ori(
    text: str, name: str, limit: int | None, strategy: str, pre: str = DEFAULT_PRE,
    override: bool = False,
) -> tuple[dict[str, tuple[int, int, int] | str], dict[str, int], str, dict[str, bool]]:
    """Allocate one PTX file; returns per-function figures, lower bounds,
    stderr and, per function that records it, whether its count is proven
    minimal."""
    from xdsl.dialects.builtin import IntegerAttr

    from ori_dialect.ops.func import FuncOp
    from ori_dialect.ptx.lower import import_ptx
    from ori_dialect.testing.equivalence import apply_pipeline

    m = import_ptx(text, name)
    err = io.StringIO()
    with contextlib.redirect_stderr(err):
        apply_pipeline(m, before_alloc(pre))
        bounds = lower_bounds(m, limit, override)
        opts = []
        if strategy != "default":
            opts.append(f"strategy={strategy}")
        if limit is not None:
            opts.append(f"max-regs={limit}")
            if override:
                opts.append("override-directive-values=true")
        spec = "ori-regalloc" + ("{" + " ".join(opts) + "}" if opts else "")
        figures: dict[str, tuple[int, int, int] | str] = {}
        try:
            apply_pipeline(m, spec)
        except Exception as e:  # noqa: BLE001 -- reported per kernel, the run goes on
            msg = str(e).splitlines()[0][:120]
            return {k: f"error: {msg}" for k in bounds}, bounds, err.getvalue(), {}

    def ival(f: FuncOp, a: str) -> int:
        v = f.attributes.get(a)
        return v.value.data if isinstance(v, IntegerAttr) else 0

    proven: dict[str, bool] = {}
    for f in m.walk():
        if isinstance(f, FuncOp):
            figures[f.sym_name.data] = (
                ival(f, "ori.num_regs"), ival(f, "ori.spill_stores"), ival(f, "ori.spill_loads")
            )
            if "ori.r_assign_optimal" in f.attributes:
                proven[f.sym_name.data] = bool(ival(f, "ori.r_assign_optimal"))
    return figures, bounds, err.getvalue(), proven


def find_cuobjdump(opt: str | None) -> str | None:
    for c in (opt, os.environ.get("CUOBJDUMP"), shutil.which("cuobjdump")):
        if c and Path(c).exists():
            return c
    return None


def listing(path: Path, arch: str, kernel: str, limit: int | None, strategy: str,
            cuobjdump: str | None, pre: str = DEFAULT_PRE, override: bool = False) -> None:
    from ori_dialect.ptx.lower import import_ptx

    opts = [f"strategy={strategy}"] if strategy != "default" else []
    if limit is not None:
        opts.append(f"max-regs={limit}")
        if override:
            opts.append("override-directive-values=true")
    spec = before_alloc(pre) + ",ori-regalloc" + (
        "{" + " ".join(opts) + "}" if opts else ""
    )
    import_ptx(path.read_text(), path.name)  # diagnose early
    p = subprocess.run(
        [sys.executable, "-m", "ori_dialect.cli.ori_opt", str(path), "-p", spec, "-t", "ori-asm"],
        capture_output=True, text=True, check=False, cwd=ROOT,
    )
    text = p.stdout
    m = re.search(rf"\.entry {re.escape(kernel)}\b.*?(?=\n\.entry |\Z)", text, re.DOTALL)
    print(f"==== ori ({spec}) ====")
    print(m.group(0) if m else text or p.stderr)
    if cuobjdump is None:
        print("(no cuobjdump: see the docstring for how to install it)")
        return
    cubin = Path(os.environ.get("TMPDIR", "/tmp")) / f"ori_ra_{arch}_{path.stem}.cubin"
    cmd = ["ptxas", f"-arch={arch}", str(path), "-o", str(cubin)]
    if limit is not None:
        cmd[2:2] = ["--maxrregcount", str(limit)] + (
            ["--override-directive-values"] if override else [])
    subprocess.run(cmd, check=True)
    sass = subprocess.run([cuobjdump, "-sass", str(cubin)], capture_output=True, text=True,
                          check=False)
    print("==== ptxas ====")
    for part in sass.stdout.split("Function : ")[1:]:
        if part.split()[0] == kernel:
            print(part)
    if sass.returncode:
        print(sass.stderr)


TL_DOT = ("matmul.ptx", "matmul_bf16.ptx", "matmul_f16out.ptx", "matmul_m64.ptx",
          "attention_fwd.ptx")
"""The Triton kernels built on ``tl.dot`` (HMMA on sm_80, HGMMA on sm_90a)."""


def inputs(sm: int) -> list[Input]:
    """The PTX compared for ``sm``: ``examples/ptx`` (nvcc's CUDA examples),
    ``examples/tensor/ptx`` (wmma / mma.sync / cp.async kernels, whose HMMA
    fragments allocate as aligned r64/r128 runs), ``examples/texture/ptx``
    and the Triton ``tl.dot`` kernels (:data:`TL_DOT`); for sm 90 also the
    sm_90a kernels: ``examples/wgmma`` and Triton's sm_90a ``tl.dot`` (HGMMA
    accumulators of 8 to 64 registers)."""
    ex = ROOT / "examples"
    out = [Input(p, f"sm_{sm}", d.split("/")[0]) for d in ("ptx", "tensor/ptx", "texture/ptx")
           for p in sorted((ex / d / f"sm_{sm}").glob("*.ptx"))]
    arch = "sm_90a" if sm == 90 else f"sm_{sm}"
    if sm == 90:
        out += [Input(p, arch, "wgmma")
                for p in sorted((ex / "wgmma" / "ptx" / arch).glob("*.ptx"))]
    tri = ex / "triton" / "ptx" / arch
    out += [Input(tri / n, arch, "triton") for n in TL_DOT if (tri / n).is_file()]
    return out


def main() -> int:
    ap = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    ap.add_argument("--only", default="", help="only PTX files whose name contains this")
    ap.add_argument("--sm", default="80,90")
    ap.add_argument("--limits", default="none,32", help="comma list: none or a number")
    ap.add_argument("--listing", default="", help="print ori's and ptxas's code of this kernel")
    ap.add_argument("--cuobjdump", default=None)
    ap.add_argument("--pre", default=DEFAULT_PRE,
                    help="passes before the loop passes ('none': only loop passes + regalloc)")
    ap.add_argument("--override", action="store_true",
                    help="the limit overrides .maxntid/.reqntid/.maxnreg (ptxas "
                         "--override-directive-values, ori override-directive-values=true)")
    args = ap.parse_args()
    if shutil.which("ptxas") is None:
        print("ptxas is not on PATH (CUDA 13.0)", file=sys.stderr)
        return 2
    sms = [int(s) for s in args.sm.split(",")]
    limits = [None if x == "none" else int(x) for x in args.limits.split(",")]
    strats = strategies()
    if args.listing:
        for sm in sms:
            for inp in inputs(sm):
                path = inp.path
                if args.only in path.name and f"entry {args.listing}(" in path.read_text():
                    for lim in limits:
                        for s in strats:
                            listing(path, inp.arch, args.listing, lim, s,
                                    find_cuobjdump(args.cuobjdump), args.pre, args.override)
        return 0
    print(f"pipeline: {before_alloc(args.pre)},ori-regalloc{{...}}"
          + (" (override-directive-values)" if args.override else ""))
    rows: list[Row] = []
    t0, c0 = time.perf_counter(), time.process_time()
    for sm in sms:
        for inp in inputs(sm):
            path = inp.path
            if args.only not in path.name:
                continue
            text = path.read_text()
            for lim in limits:
                px = run_ptxas(path, inp.arch, lim, args.override)
                per: dict[str, Row] = {}
                for s in strats:
                    figs, bounds, _, proven = run_ori(text, path.name, lim, s, args.pre,
                                                      args.override)
                    for k, v in figs.items():
                        r = per.setdefault(
                            k, Row(inp.arch.removeprefix("sm_"), path.stem, k, lim, bounds.get(k)))
                        r.ori[s] = v
                        if k in proven:
                            r.proven[s] = proven[k]
                for k, r in per.items():
                    r.group = inp.group
                    if isinstance(px, str):
                        r.ptxas_error = px
                    else:
                        r.ptxas = px.get(k)
                    rows.append(r)
    wall, cpu = time.perf_counter() - t0, time.process_time() - c0

    def mark(r: Row, s: str) -> str:
        """``=`` at the lower bound, ``+`` above it but proven minimal for
        that code (alignment), ``?`` not proven; nothing if not recorded."""
        v = r.ori.get(s)
        if s not in r.proven or not isinstance(v, tuple) or v[1] + v[2]:
            return " "
        if r.bound is not None and v[0] <= r.bound:
            return "="
        return "+" if r.proven[s] else "?"

    def fmt(v: tuple[int, int, int] | str | None, m: str = " ") -> str:
        if v is None:
            return "-"
        if isinstance(v, str):
            return v
        return f"{v[0]:>3} r{m}{v[1] + v[2]:>5} B"

    head = f"{'sm':>3} {'file':<13} {'kernel':<34} {'limit':>5} {'bound':>5}"
    for s in strats:
        head += f"  {'ori ' + s:>15}"
    head += f"  {'ptxas':>15}  {'ori-ptxas':>9}"
    print(head)
    for r in rows:
        line = (f"{r.sm:>3} {r.file[:13]:<13} {r.kernel[:34]:<34} {r.limit or '-':>5} "
                f"{r.bound if r.bound is not None else '-':>5}")
        for s in strats:
            line += f"  {fmt(r.ori.get(s), mark(r, s)):>15}"
        p = r.ptxas
        pv = "-" if p is None or p.regs is None else fmt((p.regs, p.spill_stores, p.spill_loads))
        first = r.ori.get(strats[0])
        diff = (f"{first[0] - p.regs:+d}" if p and p.regs is not None and
                isinstance(first, tuple) else "-")
        line += f"  {pv:>15}  {diff:>9}"
        if r.ptxas_error:
            line += f"  ptxas: {r.ptxas_error[:100]}"
        print(line)
    print()
    groups = sorted({r.group for r in rows})
    for g in ["all", *groups] if len(groups) > 1 else groups:
        summary(rows if g == "all" else [r for r in rows if r.group == g], g, limits, strats)
    for s in strats:
        marks = [mark(r, s) for r in rows if s in r.proven]
        if marks:
            print(f"strategy {s}: at the lower bound on {marks.count('=')}/{len(marks)} "
                  f"allocations, above it but proven minimal for the allocated code on "
                  f"{marks.count('+')} (alignment), not proven on {marks.count('?')}"
                  + (f", spilled on {marks.count(' ')}" if marks.count(' ') else ""))
    print(f"\n(ori+ptxas time: {wall:.1f} s wall, {cpu:.1f} s CPU of this process)")
    return 0


def summary(rows: list[Row], group: str, limits: list[int | None], strats: list[str]) -> None:
    """Per (limit, strategy): kernels where ori <= ptxas, spill bytes, kernels
    where ori spills and ptxas does not, ptxas's refusals."""
    print(f"[{group}]")
    for lim in limits:
        pxerr = sorted({r.kernel for r in rows if r.limit == lim and r.ptxas_error})
        for s in strats:
            cmp = [r for r in rows if r.limit == lim and r.ptxas and r.ptxas.regs is not None
                   and isinstance(r.ori.get(s), tuple)]
            errs = [r for r in rows if r.limit == lim and isinstance(r.ori.get(s), str)]
            le = sum(1 for r in cmp if r.ori[s][0] <= r.ptxas.regs)  # type: ignore[index,union-attr]
            ori_sp = sum(r.ori[s][1] + r.ori[s][2] for r in cmp)  # type: ignore[index]
            px_sp = sum(r.ptxas.spill_stores + r.ptxas.spill_loads for r in cmp)  # type: ignore[union-attr]
            only = [r for r in cmp if r.ori[s][1] > 0  # type: ignore[index]
                    and r.ptxas.spill_stores == 0]  # type: ignore[union-attr]
            print(f"limit {lim or 'none':>4} strategy {s:<8}: ori <= ptxas on {le}/{len(cmp)} "
                  f"kernels; spill bytes ori {ori_sp}, ptxas {px_sp}; ori spills where ptxas "
                  f"does not: {len(only)}" + (f" ({', '.join(r.kernel for r in only)})"
                                               if only else "")
                  + (f"; {len(errs)} failed" if errs else "")
                  + (f"; ptxas refused {len(pxerr)}" if pxerr else ""))


if __name__ == "__main__":
    sys.exit(main())
