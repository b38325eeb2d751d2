"""Which register limit applies when a kernel's PTX directives and
``max-regs`` (``--maxrregcount``) disagree (issue 14; passes/regalloc/budget.py).

ptxas 13.0's rule, each figure below seen with ``ptxas -v`` on a kernel of
60 (or 230) live values:

* ``.maxntid`` / ``.reqntid`` (with ``.minnctapersm``) set a thread-count
  limit and ``--maxrregcount`` is ignored -- silently, or with ``Overriding
  global maxrregcount 32 with entry-specific value 255 computed using thread
  count`` when ``.minnctapersm`` is given;
* ``.maxnreg N`` is the limit, above or below ``--maxrregcount``
  (``Overriding global maxrregcount 32 with entry-specific value 40 of
  .maxnreg``);
* ``--override-directive-values`` makes ``--maxrregcount`` the limit;
* without directives ``--maxrregcount`` is the limit.
"""

from __future__ import annotations

import contextlib
import io

import numpy as np
import pytest
from xdsl.dialects.builtin import DenseArrayBase, IntegerAttr, ModuleOp, i32

from ori_dialect.ir.registers import RegFile
from ori_dialect.ops.func import FuncOp
from ori_dialect.ops.memory import StlOp
from ori_dialect.ptx.lower import import_ptx
from ori_dialect.testing.equivalence import apply_pipeline, check_equivalent, make_context
from ori_dialect.testing.generator import generate
from passes.pipeline import PtxasPipelinePass
from passes.regalloc.budget import compute_budget, thread_count_limit
from passes.regalloc.checker import check_module
from targets import get_target

SM80 = get_target("sm_80")


def _kernel(maxntid: tuple[int, ...] | None = None, *, reqntid: tuple[int, ...] | None = None,
            minncta: int | None = None, maxnreg: int | None = None) -> FuncOp:
    m = generate(5).module.clone()
    k = next(f for f in m.walk() if isinstance(f, FuncOp) and f.is_kernel)
    if maxntid is not None:
        k.maxntid = DenseArrayBase.from_list(i32, list(maxntid))
    if reqntid is not None:
        k.reqntid = DenseArrayBase.from_list(i32, list(reqntid))
    if minncta is not None:
        k.minnctapersm = IntegerAttr(minncta, i32)
    if maxnreg is not None:
        k.maxnreg = IntegerAttr(maxnreg, i32)
    return k


# ---- the thread-count limit ---------------------------------------------------


@pytest.mark.parametrize(("dims", "minncta", "want"), [
    ((1024, 1, 1), None, 64),
    ((768, 1, 1), None, 80),
    ((640, 1, 1), None, 96),
    ((320, 1, 1), None, 168),
    ((256, 1, 1), 4, 64),
    ((256, 1, 1), 3, 80),
    ((512, 1, 1), 3, 40),
    ((1024, 1, 1), 2, 32),
    ((100, 1, 1), 6, 80),   # 4 warps (threads round up to warps) x 6
    ((33, 1, 1), 9, 96),
    ((200, 1, 1), 2, 128),  # 14 warps: 4 per sub-partition
    ((128, 1, 1), None, 255),
    ((128, 1, 1), 1, 255),
])
def test_thread_count_limit_is_ptxas(dims: tuple[int, ...], minncta: int | None,
                                     want: int) -> None:
    d = thread_count_limit(_kernel(dims, minncta=minncta), SM80)
    assert d is not None and d.limit == want and d.warning is None


def test_thread_count_from_reqntid_dims() -> None:
    d = thread_count_limit(_kernel(reqntid=(32, 16, 1), minncta=2), SM80)
    assert d is not None and d.limit == 64


def test_out_of_range_minnctapersm_is_ignored_with_ptxas_warning(
        capsys: pytest.CaptureFixture[str]) -> None:
    k = _kernel((1024, 1, 1), minncta=4)
    b = compute_budget(k, SM80)
    assert b.limits[RegFile.R] == 64
    msg = f"Value of threads per SM for entry {k.sym_name.data} is out of range. .minnctapersm " \
          "will be ignored"
    assert b.warnings == [msg]
    assert f"ptxas warning : {msg}" in capsys.readouterr().err
    # sm_86 holds 48 warps: 1024 x 2 is out of range there, 768 x 2 is not
    sm86 = get_target("sm_86")
    assert compute_budget(_kernel((1024, 1, 1), minncta=2), sm86, quiet=True).limits[
        RegFile.R] == 64
    assert compute_budget(_kernel((768, 1, 1), minncta=2), sm86, quiet=True).limits[
        RegFile.R] == 40


def test_no_directives_no_limit() -> None:
    assert thread_count_limit(_kernel(), SM80) is None
    assert compute_budget(_kernel(), SM80, quiet=True).limits[RegFile.R] == 255


# ---- max-regs against the directives ------------------------------------------


def test_max_regs_applies_without_directives(capsys: pytest.CaptureFixture[str]) -> None:
    b = compute_budget(_kernel(), SM80, 32)
    assert b.limits[RegFile.R] == 32 and not b.remarks
    assert "ignored" not in capsys.readouterr().err


def test_max_regs_ignored_under_maxntid(capsys: pytest.CaptureFixture[str]) -> None:
    k = _kernel((128, 1, 1))
    b = compute_budget(k, SM80, 32)
    assert b.limits[RegFile.R] == 255
    (remark,) = b.remarks
    assert remark.startswith("max-regs 32 ignored: the kernel's .maxntid sets its register "
                             "limit (255, from the thread count)")
    assert f"ori-regalloc: @{k.sym_name.data}: remark: {remark}" in capsys.readouterr().err
    # and below the thread-count limit too (1024 threads: 64)
    assert compute_budget(_kernel((1024, 1, 1)), SM80, 200, quiet=True).limits[
        RegFile.R] == 64
    # .reqntid the same
    b = compute_budget(_kernel(reqntid=(128, 1, 1)), SM80, 32, quiet=True)
    assert b.limits[RegFile.R] == 255 and "the kernel's .reqntid" in b.remarks[0]


def test_max_regs_ignored_remark_quotes_ptxas_where_ptxas_speaks() -> None:
    b = compute_budget(_kernel((128, 1, 1), minncta=1), SM80, 32, quiet=True)
    assert b.remarks[0].startswith(
        "max-regs 32 ignored: Overriding global maxrregcount 32 with entry-specific value "
        "255 computed using thread count (as ptxas -v")
    b = compute_budget(_kernel(maxnreg=40), SM80, 32, quiet=True)
    assert b.limits[RegFile.R] == 40  # ptxas: .maxnreg wins, even above --maxrregcount
    assert b.remarks[0].startswith(
        "max-regs 32 ignored: Overriding global maxrregcount 32 with entry-specific value "
        "40 of .maxnreg (as ptxas -v")
    assert compute_budget(_kernel(maxnreg=40), SM80, 64, quiet=True).limits[RegFile.R] == 40


@pytest.mark.parametrize(("kw", "max_regs"), [
    ({"maxntid": (128, 1, 1)}, 32),
    ({"maxntid": (1024, 1, 1)}, 128),  # above the thread-count limit of 64
    ({"maxntid": (256, 1, 1), "minncta": 4}, 128),
    ({"maxnreg": 40}, 32),
    ({"maxnreg": 40}, 128),  # above .maxnreg (ptxas: 72 registers used)
    ({"maxnreg": 40, "maxntid": (128, 1, 1)}, 32),
])
def test_override_directive_values_applies_max_regs(kw: dict[str, object],
                                                    max_regs: int) -> None:
    b = compute_budget(_kernel(**kw), SM80, max_regs, quiet=True,  # type: ignore[arg-type]
                       override=True)
    assert b.limits[RegFile.R] == max_regs and not b.remarks


def test_ptxas_pipeline_passes_the_option() -> None:
    p = PtxasPipelinePass(max_regs=32, override_directive_values=True)
    assert p.phase_options("ori-regalloc")["override_directive_values"] is True
    assert "override_directive_values" not in PtxasPipelinePass(max_regs=32).phase_options(
        "ori-regalloc")


# ---- end to end: ori-ptxas on a PTX kernel ------------------------------------

_N = 40


def _ptx(directives: str) -> str:
    """A kernel keeping ``_N`` loaded values live (as test_budget's pressure
    kernel), with ``directives`` between its parameters and its body."""
    body = [".version 8.0\n.target sm_80\n.address_size 64\n",
            f".visible .entry k(.param .u64 p)\n{directives}\n{{\n",
            f"  .reg .b32 %r<{_N + 3}>; .reg .b64 %a<4>;\n",
            "  ld.param.u64 %a1, [p]; cvta.to.global.u64 %a2, %a1;\n",
            "  mov.u32 %r0, %tid.x; mul.wide.u32 %a3, %r0, 4; add.s64 %a3, %a2, %a3;\n"]
    body += [f"  ld.global.u32 %r{i}, [%a3+{128 * i}];\n" for i in range(1, _N + 1)]
    body.append(f"  mov.b32 %r{_N + 1}, 0;\n")
    for i in range(_N, 0, -1):
        body.append(f"  mul.lo.s32 %r{_N + 1}, %r{_N + 1}, 3; "
                    f"xor.b32 %r{_N + 1}, %r{_N + 1}, %r{i};\n")
    body.append(f"  st.global.u32 [%a3], %r{_N + 1};\n  ret;\n}}\n")
    return "".join(body)


def _compile(directives: str, spec: str) -> tuple[ModuleOp, ModuleOp, str]:
    m = import_ptx(_ptx(directives), "k.ptx")
    after = m.clone()
    err = io.StringIO()
    with contextlib.redirect_stderr(err):
        apply_pipeline(after, spec, make_context())
    after.verify()
    assert not check_module(after)
    args = [np.arange(32 * 128 * (_N + 1) // 4, dtype=np.uint32)]
    check_equivalent(m, after, "k", [args], grid=1, block=32, physical_after=True,
                     title=f"{directives or 'no directives'} {spec}")
    return m, after, err.getvalue()


def _figure(m: ModuleOp, name: str) -> int:
    k = next(f for f in m.walk() if isinstance(f, FuncOp))
    a = k.attributes[name]
    assert isinstance(a, IntegerAttr)
    return a.value.data


def _spills(m: ModuleOp) -> int:
    return sum(1 for op in m.walk() if isinstance(op, StlOp))


@pytest.mark.parametrize("strategy", ["fatpoint", "ssa"])
def test_maxntid_kernel_ignores_max_regs_unless_overridden(strategy: str) -> None:
    _, free, err = _compile(".maxntid 128, 1, 1", f"ori-ptxas{{max-regs=24 strategy={strategy}}}")
    assert "max-regs 24 ignored: the kernel's .maxntid" in err
    assert _figure(free, "ori.max_regs") == 255
    assert _figure(free, "ori.num_regs") > 24 and _spills(free) == 0
    _, capped, err = _compile(".maxntid 128, 1, 1", f"ori-ptxas{{max-regs=24 strategy={strategy} "
                              "override-directive-values=true}")
    assert "ignored" not in err
    assert _figure(capped, "ori.max_regs") == 24
    assert _figure(capped, "ori.num_regs") <= 24 and _spills(capped) > 0


@pytest.mark.parametrize("strategy", ["fatpoint", "ssa"])
def test_kernel_without_launch_bounds_takes_max_regs(strategy: str) -> None:
    _, capped, err = _compile("", f"ori-ptxas{{max-regs=24 strategy={strategy}}}")
    assert "ignored" not in err
    assert _figure(capped, "ori.max_regs") == 24
    assert _figure(capped, "ori.num_regs") <= 24 and _spills(capped) > 0


def test_maxnreg_kernel_keeps_its_limit_under_max_regs() -> None:
    _, m, err = _compile(".maxnreg 32", "ori-ptxas{max-regs=24}")
    assert "Overriding global maxrregcount 24 with entry-specific value 32 of .maxnreg" in err
    assert _figure(m, "ori.max_regs") == 32 and _figure(m, "ori.num_regs") <= 32
    _, m, _ = _compile(".maxnreg 32", "ori-ptxas{max-regs=24 override-directive-values=true}")
    assert _figure(m, "ori.max_regs") == 24
