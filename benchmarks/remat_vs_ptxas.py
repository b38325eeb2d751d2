"""Rematerialization against ptxas on the example PTX (issue 16, item 8).

For every kernel of ``examples/ptx/sm_80|sm_90``, ``examples/tensor/ptx`` and
``examples/library/ptx`` (``--groups`` picks), in one run:

1. **max live** (R registers, ``RegisterPressure``) after ori-ptxas's phases
   before allocation (``passes/pipeline.py`` PHASES without ``ori-regalloc``
   and without the remat passes, whichever of them the lead has put there),
   then after ``ori-remat-block`` -- without a limit (target
   ``nv-remat-default-max-reg`` 70) and with the cap (``max-regs=32
   override-directive-values=true``: the 29 allocatable registers) -- and,
   when ``passes.remat`` is registered (``passes.registry.all_passes()``),
   after ``ori-remat`` (with ``remat-maxreg-ceiling`` = the same 29 under
   the cap) and after both (``ori-remat`` first);
2. **registers after ori-ptxas** without a limit, without and with remat,
   beside ``ptxas -v``'s;
3. **spill bytes** (stores + loads) under the cap, ``ori-ptxas{max-regs=32
   override-directive-values=true}`` without remat and with each remat
   variant, beside ``ptxas --maxrregcount 32 --override-directive-values
   -v``'s.

"With remat" is the explicit pipeline: ori-ptxas's phases, each with the
options ``ori-ptxas`` gives it (``PtxasPipelinePass.phase_options``), with
the remat pass(es) inserted where ``ori-remat-block`` stands in PHASES (the
machine-level pass's place: after the last LICM instance, before the
calling-convention lowering ``ori-abi`` and ``ori-regalloc``); "without"
leaves both remat passes out.

The summary line states issue 16's target: with the cap, ori (with remat)
spills no more bytes than ptxas in total, and remat never makes a kernel
spill more.  Functions ptxas does not report (device functions it inlined)
are left out of the totals.

    python benchmarks/remat_vs_ptxas.py [--groups ptx,tensor,library] [--sm 80,90]
                                        [--only SUBSTR] [--limit 32] [--strategy ssa]

Figures are printed, never asserted; ``benchmarks/README.md`` records a run.
"""

from __future__ import annotations

import argparse
import contextlib
import dataclasses
import importlib.util
import io
import re
import shutil
import subprocess
import sys
import time
from dataclasses import dataclass, field
from pathlib import Path
from types import ModuleType

ROOT = Path(__file__).resolve().parent.parent
if str(ROOT) not in sys.path:
    sys.path.insert(0, str(ROOT))

from xdsl.dialects.builtin import IntegerAttr, ModuleOp

from ori_dialect.analysis import functions_of
from ori_dialect.analysis.pressure import RegisterPressure
from ori_dialect.ir.registers import RegFile
from ori_dialect.ops.func import FuncOp
from ori_dialect.ptx.lower import import_ptx
from ori_dialect.testing.equivalence import apply_pipeline
from passes.pipeline import PHASES, PtxasPipelinePass
from passes.registry import all_passes
from passes.remat_block import RematBlockPass


def _sibling(name: str) -> ModuleType:
    """A script of this folder, loaded by path (``benchmarks`` is no package)."""
    spec = importlib.util.spec_from_file_location(f"ori_bench_{name}", Path(__file__).with_name(f"{name}.py"))
    assert spec is not None and spec.loader is not None
    mod = importlib.util.module_from_spec(spec)
    sys.modules[spec.name] = mod  # dataclasses look their module up by name
    spec.loader.exec_module(mod)
    return mod


_RA = _sibling("regalloc_vs_ptxas")
PtxasFigures = _RA.PtxasFigures
run_ptxas = _RA.run_ptxas
"""ptxas -v's figures per function (shared with ``regalloc_vs_ptxas.py``)."""

REMAT_PASSES = ("ori-remat", "ori-remat-block")

GROUPS = {
    "ptx": "examples/ptx",
    "tensor": "examples/tensor/ptx",
    "library": "examples/library/ptx",
    "triton": "examples/triton/ptx",
    "texture": "examples/texture/ptx",
    "wgmma": "examples/wgmma/ptx",
    "abi": "examples/abi/ptx",
}


@dataclass
class Row:
    sm: str
    group: str
    file: str
    kernel: str
    ml: int = 0
    """Max live before remat."""
    ml_after: dict[str, int] = field(default_factory=dict)
    """variant -> max live after it, without a limit."""
    ml_capped: dict[str, int] = field(default_factory=dict)
    """variant -> max live after it, with the cap."""
    regs: dict[str, int | str] = field(default_factory=dict)
    """variant -> registers after allocation without a limit (or an error)."""
    spill: dict[str, int | str] = field(default_factory=dict)
    """variant -> spill bytes under the cap (or an error)."""
    ptxas: PtxasFigures | None = None
    ptxas_capped: PtxasFigures | None = None


def kebab(opts: dict[str, object]) -> str:
    def val(v: object) -> str:
        return ("true" if v else "false") if isinstance(v, bool) else str(v)
    inner = " ".join(f"{k.replace('_', '-')}={val(v)}" for k, v in opts.items())
    return "{" + inner + "}" if inner else ""


def phase_spec(limit: int | None, strategy: str = "fatpoint") -> tuple[str, str]:
    """(the phases before the machine-level remat pass's place, the phases
    after it -- ``ori-abi`` and ``ori-regalloc`` -- with their options) as
    ``ori-ptxas{strategy=S}`` runs them, remat passes left out."""
    pp = PtxasPipelinePass(max_regs=limit, override_directive_values=limit is not None,
                           strategy=strategy)
    names = [p.pass_name for p in PHASES]
    cut = names.index("ori-remat-block") if "ori-remat-block" in names else names.index(
        "ori-regalloc")
    pre = [pp.phase_text(p) for p in PHASES[:cut] if p.pass_name not in REMAT_PASSES]
    post = [pp.phase_text(p) for p in PHASES[cut:] if p.pass_name not in REMAT_PASSES]
    return ",".join(pre), ",".join(post)


def variants(limit: int | None, target: int | None) -> dict[str, str]:
    """variant -> the remat passes it runs before allocation."""
    registry = all_passes()
    block = "ori-remat-block" + (kebab({"max_regs": limit, "override_directive_values": True})
                                 if limit is not None else "")
    out = {"none": "", "rb": block}
    if "ori-remat" in registry:
        fields = {f.name for f in dataclasses.fields(registry["ori-remat"]())}
        ir = "ori-remat"
        if limit is not None and target is not None and "remat_maxreg_ceiling" in fields:
            ir += kebab({"remat_maxreg_ceiling": target})
        out["rm"] = ir
        out["both"] = f"{ir},{block}"
    return out


def r_max(module: ModuleOp) -> dict[str, int]:
    return {f.sym_name.data: RegisterPressure.compute(f).max[RegFile.R]  # type: ignore[attr-defined]
            for f in functions_of(module)}


def allocated(module: ModuleOp) -> dict[str, tuple[int, int]]:
    """function -> (registers, spill bytes) as ori-regalloc recorded them."""
    def ival(f: FuncOp, a: str) -> int:
        v = f.attributes.get(a)
        return v.value.data if isinstance(v, IntegerAttr) else 0
    return {f.sym_name.data: (ival(f, "ori.num_regs"),
                              ival(f, "ori.spill_stores") + ival(f, "ori.spill_loads"))
            for f in functions_of(module) if isinstance(f, FuncOp)}


def quiet_apply(module: ModuleOp, spec: str) -> None:
    if spec:
        with contextlib.redirect_stderr(io.StringIO()):
            apply_pipeline(module, spec)


def run_file(path: Path, arch: str, group: str, limit: int, strategy: str) -> list[Row]:
    m = import_ptx(path.read_text(), path.name)
    pre, alloc = phase_spec(None, strategy)
    pre_c, alloc_c = phase_spec(limit, strategy)
    quiet_apply(m, pre)  # the phases' options do not depend on the limit
    assert pre == pre_c
    before = r_max(m)
    kernels = [f for f in functions_of(m) if isinstance(f, FuncOp)]
    target = min((RematBlockPass(max_regs=limit, override_directive_values=True).target_of(f)
                  for f in kernels), default=None)
    rows = {k: Row(arch.removeprefix("sm_"), group, path.stem, k, v) for k, v in before.items()}
    for capped, lim, alloc_spec in ((False, None, alloc), (True, limit, alloc_c)):
        for name, spec in variants(lim, target).items():
            mv = m.clone()
            try:
                quiet_apply(mv, spec)
                after = r_max(mv)
                quiet_apply(mv, alloc_spec)
                figs: dict[str, tuple[int, int] | str] = dict(allocated(mv))
            except Exception as e:  # noqa: BLE001 -- reported per kernel, the run goes on
                after = {}
                figs = {k: f"error: {str(e).splitlines()[0][:60]}" for k in rows}
            for k, r in rows.items():
                if name != "none":
                    (r.ml_capped if capped else r.ml_after)[name] = after.get(k, r.ml)
                v = figs.get(k)
                if v is None:
                    continue
                if capped:
                    r.spill[name] = v if isinstance(v, str) else v[1]
                else:
                    r.regs[name] = v if isinstance(v, str) else v[0]
    for lim in (None, limit):
        px = run_ptxas(path, arch, lim, override=lim is not None)
        for k, r in rows.items():
            fig = None if isinstance(px, str) else px.get(k)
            if lim is None:
                r.ptxas = fig
            else:
                r.ptxas_capped = fig
    return list(rows.values())


def inputs(sm: int, groups: list[str]) -> list[tuple[Path, str, str]]:
    """The PTX files of ``groups`` for ``sm`` (an ``sm_90a`` folder, as
    Triton's sm_90 output uses, counts as sm_90), with their arch."""
    out = []
    for g in groups:
        if g not in GROUPS:
            raise SystemExit(f"unknown group {g!r} (known: {', '.join(GROUPS)})")
        for arch in (f"sm_{sm}", f"sm_{sm}a"):
            for p in sorted((ROOT / GROUPS[g] / arch).glob("*.ptx")):
                out.append((p, arch, g))
    return out


def commit() -> str:
    p = subprocess.run(["git", "rev-parse", "--short", "HEAD"], cwd=ROOT, capture_output=True,
                       text=True, check=False)
    dirty = subprocess.run(["git", "status", "--porcelain", "--untracked-files=no"], cwd=ROOT,
                           capture_output=True, text=True, check=False).stdout.strip()
    return p.stdout.strip() + (" (+ uncommitted changes)" if dirty else "")


def main() -> int:
    ap = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    ap.add_argument("--groups", default="ptx,tensor,library")
    ap.add_argument("--sm", default="80,90")
    ap.add_argument("--only", default="", help="only PTX files whose name contains this")
    ap.add_argument("--limit", type=int, default=32)
    ap.add_argument("--strategy", default="fatpoint", help="ori-ptxas's strategy: fatpoint or ssa")
    args = ap.parse_args()
    if shutil.which("ptxas") is None:
        print("ptxas is not on PATH (CUDA 13.0)", file=sys.stderr)
        return 2
    groups = [g for g in args.groups.split(",") if g]
    lim = args.limit
    names = list(variants(lim, lim - 3))
    pre, alloc = phase_spec(lim, args.strategy)
    print(f"commit {commit()}; ptxas {ptxas_version()}")
    print(f"before remat: {pre}")
    print(f"remat variants (then {alloc}): "
          + "; ".join(f"{n} = {s or '-'}" for n, s in variants(lim, lim - 3).items()))
    rows: list[Row] = []
    t0 = time.perf_counter()
    for sm in (int(s) for s in args.sm.split(",")):
        for path, arch, group in inputs(sm, groups):
            if args.only in path.name:
                rows += run_file(path, arch, group, lim, args.strategy)
    wall = time.perf_counter() - t0
    table(rows, names, lim)
    summary(rows, names, lim)
    print(f"\n({len(rows)} functions, {wall:.0f} s)")
    return 0


def ptxas_version() -> str:
    p = subprocess.run(["ptxas", "--version"], capture_output=True, text=True, check=False)
    m = re.search(r"\bV(\d+\.\d+\.\d+)", p.stdout)
    return m.group(1) if m else "?"


def short(name: str, w: int = 40) -> str:
    """A long (mangled) name as its start and end: CUB's kernels differ at the end."""
    return name if len(name) <= w else name[:w - 22] + ".." + name[-20:]


def table(rows: list[Row], names: list[str], lim: int) -> None:
    rem = [n for n in names if n != "none"]

    def f(v: object, w: int) -> str:
        if v is None:
            return f"{'-':>{w}}"
        if isinstance(v, str):
            return f"{'err':>{w}}"
        return f"{v:>{w}}"

    def cols(vals: list[object], w: int) -> str:
        return "".join(f(v, w) for v in vals)

    def heads(vals: list[str], w: int) -> str:
        return "".join(f"{v:>{w}}" for v in vals)

    print(f"{'':>52}| max live{'':>{5 * len(rem) - 3}}| registers{'':>{5 * len(rem) + 1}}"
          f"| max live @{lim}{'':>{5 * len(rem) - 6}}| spill bytes @{lim}")
    print(f"{'sm':>3} {'group':<7} {'kernel':<40}|" + heads(["ori", *rem], 5) + " |"
          + heads(["ori", *rem, "ptxas"], 5) + " |" + heads(["ori", *rem], 5) + " |"
          + heads(["ori", *rem, "ptxas"], 7))
    for r in rows:
        pr = r.ptxas.regs if r.ptxas else None
        ps = (r.ptxas_capped.spill_stores + r.ptxas_capped.spill_loads
              if r.ptxas_capped and r.ptxas_capped.regs is not None else None)
        print(f"{r.sm:>3} {r.group:<7} {short(r.kernel):<40}|"
              + cols([r.ml, *(r.ml_after.get(n) for n in rem)], 5) + " |"
              + cols([r.regs.get("none"), *(r.regs.get(n) for n in rem), pr], 5) + " |"
              + cols([r.ml, *(r.ml_capped.get(n) for n in rem)], 5) + " |"
              + cols([r.spill.get("none"), *(r.spill.get(n) for n in rem), ps], 7))


def summary(rows: list[Row], names: list[str], lim: int) -> None:
    rem = [n for n in names if n != "none"]
    cmp = [r for r in rows if r.ptxas_capped is not None and r.ptxas_capped.regs is not None
           and all(isinstance(r.spill.get(n), int) for n in names)]
    ptx_total = sum(r.ptxas_capped.spill_stores + r.ptxas_capped.spill_loads  # type: ignore[union-attr]
                    for r in cmp)
    print()
    print(f"with --maxrregcount {lim} / max-regs={lim} (override-directive-values), "
          f"{len(cmp)} functions ptxas reports:")
    totals = {n: sum(int(r.spill[n]) for r in cmp) for n in names}  # type: ignore[arg-type]
    print("  spill bytes: " + ", ".join(f"ori {n} {totals[n]}" for n in names)
          + f", ptxas {ptx_total}")
    for n in rem:
        worse = [r for r in cmp if int(r.spill[n]) > int(r.spill["none"])]  # type: ignore[arg-type]
        better = [r for r in cmp if int(r.spill[n]) < int(r.spill["none"])]  # type: ignore[arg-type]
        mlc = [r for r in rows if r.ml_capped.get(n, r.ml) < r.ml]
        print(f"  {n}: max live lower on {len(mlc)} functions at the cap "
              f"(sum {sum(r.ml for r in rows)} -> {sum(r.ml_capped.get(n, r.ml) for r in rows)}); "
              f"spills less on {len(better)}, more on {len(worse)}"
              + (": " + ", ".join(f"{r.sm}/{short(r.kernel)} {r.spill['none']}->{r.spill[n]}"
                                  for r in worse) if worse else ""))
        print(f"  target ({n}): ori spills no more than ptxas in total: "
              f"{'met' if totals[n] <= ptx_total else 'NOT met'} ({totals[n]} vs {ptx_total}); "
              f"remat never makes a kernel spill more: {'met' if not worse else 'NOT met'}")
    nocap = [r for r in rows if r.ptxas is not None and r.ptxas.regs is not None
             and all(isinstance(r.regs.get(n), int) for n in names)]
    print(f"without a limit, {len(nocap)} functions: registers "
          + ", ".join(f"ori {n} {sum(int(r.regs[n]) for r in nocap)}" for n in names)  # type: ignore[arg-type]
          + f", ptxas {sum(r.ptxas.regs for r in nocap)}")  # type: ignore[union-attr, misc]


if __name__ == "__main__":
    raise SystemExit(main())
