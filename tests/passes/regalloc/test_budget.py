"""Register budgets (passes/regalloc/budget.py): the ptxas register-count rule,
the profile lower bound, and seed 000's occupancy-aware budget model
(piecewise table and linear fast path) with hand-computed figures."""

from __future__ import annotations

import pytest
from xdsl.dialects.builtin import IntegerAttr

from ori_dialect.ir.registers import RegFile
from ori_dialect.ops.func import FuncOp
from ori_dialect.testing.equivalence import apply_pipeline
from ori_dialect.testing.generator import generate
from passes.regalloc.budget import (
    BudgetModel,
    compute_budget,
    hidden_regs,
    plan_occupancy_budget,
    profile_lower_bound,
    register_count,
)
from targets import get_target


def _kernel(seed: int = 5) -> FuncOp:
    m = generate(seed).module.clone()
    return next(f for f in m.walk() if isinstance(f, FuncOp) and f.is_kernel)


# ---- piecewise table (sub_937E90) -------------------------------------------


def test_default_table_is_the_seeds() -> None:
    # [y0, x1, y1, x2, y2, x3, y3] = [A, max threads, A, threshold, A, 255-adj, B]
    assert BudgetModel().table() == (0.2, 119.0, 0.2, 160.0, 0.2, 255.0, 1.0)


@pytest.mark.parametrize(
    ("x", "want"),
    [
        (0, 0.2),  # segment 1 (flat: y0 == y1)
        (118, 0.2),
        (119, 0.2),  # segment 2 (flat: y1 == y2)
        (159.9, 0.2),
        (160, 0.2),  # segment 3 starts at A
        (207.5, 0.6),  # 0.2 + 0.8 * 47.5 / 95
        (236, 0.84),  # 0.2 + 0.8 * 76 / 95
        (255, 1.0),  # at and above x3: B
        (400, 1.0),
    ],
)
def test_piecewise_fraction(x: float, want: float) -> None:
    assert BudgetModel().fraction(x) == pytest.approx(want)


def test_piecewise_with_other_knobs() -> None:
    m = BudgetModel(coeff_a=0.5, coeff_b=0.9, pressure_threshold=100, limit=200.0)
    assert m.fraction(150) == pytest.approx(0.7)  # 0.5 + 0.4 * 50 / 100
    assert m.fraction(99) == pytest.approx(0.5)
    assert m.fraction(250) == pytest.approx(0.9)
    # total_threads above x: flat at y0 (the seed's first test)
    assert BudgetModel(total_threads=300.0).fraction(250) == pytest.approx(0.2)


# ---- linear fast path -------------------------------------------------------


def test_linear_model_figures() -> None:
    m = BudgetModel()
    x_min, y_min, slope = m.linear(256, 2048)
    assert (x_min, y_min) == (256.0, 0.3)
    assert slope == pytest.approx(0.7 / 1792)  # (B - C) / (max - min)
    assert m.linear_fraction(256, 256, 2048) == pytest.approx(0.3)
    assert m.linear_fraction(2048, 256, 2048) == pytest.approx(1.0)
    assert m.linear_fraction(1152, 256, 2048) == pytest.approx(0.65)
    # a degenerate range gives B
    assert m.linear_fraction(512, 512, 512) == pytest.approx(1.0)


# ---- register count and budget ----------------------------------------------


def test_register_count_rule() -> None:
    sm80, sm60 = get_target("sm_80"), get_target("sm_60")
    assert hidden_regs(sm80) == 2 and hidden_regs(sm60) == 0
    res = frozenset({1, 253, 254})
    assert register_count(sm80, -1, res) == 4  # `ret;` on sm_80: "Used 4 registers"
    assert register_count(sm80, 5, res) == 8  # highest R5 -> 8 (ptxas k1)
    assert register_count(sm80, 41, res) == 44  # highest R41 -> 44 (ptxas k39)
    assert register_count(sm60, -1, frozenset({1})) == 2  # sm_60 `ret;`: 2
    assert register_count(sm80, -1, frozenset({0, 1, 2, 3})) == 6  # ABI: R0-R3 counted


def test_budget_reserves_the_two_withheld_registers() -> None:
    f = _kernel()
    b = compute_budget(f, get_target("sm_80"), 32, quiet=True)
    assert b.limits[RegFile.R] == 32
    assert b.reserved[RegFile.R] == frozenset({1, 30, 31})
    assert max(b.allowed(RegFile.R)) == 29  # ptxas at --maxrregcount 32: R29
    b60 = compute_budget(f, get_target("sm_60"), 32, quiet=True)
    assert b60.reserved[RegFile.R] == frozenset({1})


def test_profile_lower_bound(capsys: pytest.CaptureFixture[str]) -> None:
    f = _kernel()
    assert profile_lower_bound(get_target("sm_90")) == 24
    assert profile_lower_bound(get_target("sm_60")) is None
    b = compute_budget(f, get_target("sm_80"), 16, lower_bound=True)
    assert b.limits[RegFile.R] == 24
    assert b.warnings == [
        "For profile sm_80 adjusting per thread register count of 16 to lower bound of 24"
    ]
    assert "ptxas warning : For profile sm_80 adjusting" in capsys.readouterr().err
    # off (the default): kept, with a note
    assert compute_budget(f, get_target("sm_80"), 16).limits[RegFile.R] == 16
    assert "ptxas would raise it to 24" in capsys.readouterr().err
    # sm_60 has no such bound
    assert compute_budget(f, get_target("sm_60"), 16, lower_bound=True).limits[RegFile.R] == 16


def test_lower_bound_option_end_to_end() -> None:
    m = generate(5).module.clone()
    apply_pipeline(m, "ori-regalloc{max-regs=16 profile-lower-bound=true}")
    k = next(f for f in m.walk() if isinstance(f, FuncOp) and f.is_kernel)
    mr = k.attributes["ori.max_regs"]
    assert isinstance(mr, IntegerAttr) and mr.value.data == 24


# ---- the model in the allocator ---------------------------------------------

_PTX = """.version 8.0
.target sm_80
.address_size 64
.visible .entry k60(.param .u64 p) {
  .reg .b32 %r<70>; .reg .b64 %a<4>;
  ld.param.u64 %a1, [p]; cvta.to.global.u64 %a2, %a1;
  mov.u32 %r0, %tid.x; mul.wide.u32 %a3, %r0, 4; add.s64 %a3, %a2, %a3;
"""


def _pressure_kernel(n: int) -> str:
    body = [_PTX]
    body += [f"  ld.global.u32 %r{i}, [%a3+{8 * i}];\n" for i in range(1, n + 1)]
    body.append(f"  mov.b32 %r{n + 1}, 0;\n")
    for i in range(n, 0, -1):
        body.append(f"  mul.lo.s32 %r{n + 1}, %r{n + 1}, 3; xor.b32 %r{n + 1}, %r{n + 1}, %r{i};\n")
    body.append(f"  st.global.u32 [%a3], %r{n + 1};\n  ret; }}\n")
    return "".join(body)


def test_occupancy_budget_squeezes_a_high_pressure_kernel(
    capsys: pytest.CaptureFixture[str],
) -> None:
    from ori_dialect.ptx.lower import import_ptx

    text = _pressure_kernel(60)
    m = import_ptx(text, "k60.ptx")
    k = next(f for f in m.walk() if isinstance(f, FuncOp))
    tgt = get_target("sm_80")
    plan = plan_occupancy_budget(k, tgt, compute_budget(k, tgt, quiet=True), BudgetModel(limit=253.0))
    # 60 loads + the accumulator + the 64-bit address live, + R1 + 2 withheld
    assert plan.demand > 52 and plan.fraction == pytest.approx(0.2)
    assert plan.squeeze and plan.target_regs == 51  # floor(256 * 0.2)
    apply_pipeline(m, "ori-regalloc{occupancy-budget=true}")
    k = next(f for f in m.walk() if isinstance(f, FuncOp))
    nr = k.attributes["ori.num_regs"]
    assert isinstance(nr, IntegerAttr) and nr.value.data <= 51
    sp = k.attributes["ori.spill_stores"]
    assert isinstance(sp, IntegerAttr) and sp.value.data > 0
    err = capsys.readouterr().err
    assert "squeezed the R budget from 255 to 51 registers" in err
    assert "aimed at 36 warps per SM (56%)" in err  # sm_80: 51 regs -> 36 warps
    # without the option the same kernel keeps its registers and does not spill
    m2 = import_ptx(text, "k60.ptx")
    apply_pipeline(m2, "ori-regalloc")
    k2 = next(f for f in m2.walk() if isinstance(f, FuncOp))
    assert k2.attributes["ori.spill_stores"] == IntegerAttr(0, 32)


def test_occupancy_budget_leaves_a_small_kernel_alone() -> None:
    f = _kernel()
    tgt = get_target("sm_80")
    plan = plan_occupancy_budget(f, tgt, compute_budget(f, tgt, quiet=True), BudgetModel())
    assert not plan.squeeze and plan.target_regs == 255 and plan.aimed_regs == plan.demand


def test_unknown_budget_model_is_a_diagnostic() -> None:
    from xdsl.utils.exceptions import PassFailedException

    m = generate(5).module.clone()
    with pytest.raises(PassFailedException, match="budget-model must be"):
        apply_pipeline(m, "ori-regalloc{occupancy-budget=true budget-model=cubic}")


# ---- ori-stats against ptxas -v ---------------------------------------------


@pytest.mark.parametrize("sm", [80, 90])
def test_used_line_matches_ptxas_apart_from_the_count(sm: int) -> None:
    """On examples whose kernels use only their own shared memory, ori-stats's
    ``Used`` line equals ptxas's once the register count is masked: barriers,
    cumulative stack size, smem and cmem[0] (sm_80 only) agree."""
    import io
    import re
    import shutil
    import subprocess
    from pathlib import Path

    from ori_dialect.ptx.lower import import_ptx
    from passes.stats import print_stats

    if shutil.which("ptxas") is None:
        pytest.skip("ptxas is not on PATH")
    root = Path(__file__).resolve().parents[3] / "examples" / "ptx" / f"sm_{sm}"

    def used_lines(text: str) -> dict[str, str]:
        out: dict[str, str] = {}
        cur = ""
        for line in text.splitlines():
            m = re.search(r"Function properties for (\S+)", line)
            if m:
                cur = m.group(1)
            if line.startswith("ptxas info    : Used"):
                out[cur] = re.sub(r"Used \d+ registers", "Used N registers", line.rstrip())
        return out

    compared = 0
    for name in ("calls", "histogram", "saxpy"):
        path = root / f"{name}.ptx"
        px = subprocess.run(["ptxas", f"-arch=sm_{sm}", "-v", str(path), "-o", "/dev/null"],
                            capture_output=True, text=True, check=True).stderr
        m = import_ptx(path.read_text(), path.name)
        apply_pipeline(m, "ori-loop-simplify,ori-loop-unroll,ori-regalloc")
        buf = io.StringIO()
        print_stats(m, buf)
        ours, theirs = used_lines(buf.getvalue()), used_lines(px)
        assert ours.keys() == theirs.keys()
        for k in ours:
            assert ours[k] == theirs[k], k
            compared += 1
    assert compared >= 3
