"""``ori-ptxas``'s occupancy retune (passes/occupancy_retune.py): a kernel
whose ``ori-remat-block`` copies were aimed at occupancy and whose
allocation leaves registers to spare within its warps is compiled again,
aimed higher, and kept only for fewer loop-weighted instructions at the
same warps; results unchanged (the interpreter runs every Triton example
after ``ori-ptxas`` in tests/ptx/test_triton_examples.py)."""

from __future__ import annotations

import contextlib
import io
from pathlib import Path

from xdsl.dialects.builtin import IntegerAttr, ModuleOp

from ori_dialect.analysis import functions_of
from ori_dialect.ops.func import FuncOp
from ori_dialect.ptx.lower import import_ptx
from ori_dialect.testing.equivalence import apply_pipeline
from passes.occupancy_retune import (
    STEP_COST,
    STEP_TRIALS,
    PhaseRunner,
    RetuneKernel,
    retune_kernel,
    weighted_instructions,
)
from targets.descriptor import SMTarget
from targets.occupancy import kernel_warps
from targets.registry import get_target

ROOT = Path(__file__).resolve().parents[3]
BF16 = ROOT / "examples/triton/ptx/sm_80/matmul_bf16.ptx"
SAXPY = ROOT / "examples/ptx/sm_80/saxpy.ptx"


def _compile(path: Path, spec: str) -> tuple[FuncOp, str]:
    m = import_ptx(path.read_text(), str(path))
    err = io.StringIO()
    with contextlib.redirect_stderr(err):
        apply_pipeline(m, spec)
    (func,) = [f for f in functions_of(m) if isinstance(f, FuncOp)]
    return func, err.getvalue()


def _regs(func: FuncOp) -> int:
    return func.attributes["ori.num_regs"].value.data  # type: ignore[attr-defined]


def test_spare_registers_buy_back_loop_copies() -> None:
    on, _ = _compile(BF16, "ori-ptxas")
    off, _ = _compile(BF16, "ori-ptxas{occupancy-retune=false}")
    t = get_target("sm_80")
    # matmul_bf16: 54 registers without, 55 with; 36 warps either way
    assert _regs(off) < _regs(on)
    assert kernel_warps(t, _regs(on), 64) == kernel_warps(t, _regs(off), 64) == 36
    assert weighted_instructions(on) < weighted_instructions(off)


def test_remark_and_one_set_of_stats() -> None:
    _, err = _compile(BF16, "ori-ptxas{remarks=true stats=true}")
    assert "ori-ptxas: @matmul_bf16: remark: ori-remat-block rerun at max live" in err
    assert "36 -> 36 resident warps" in err
    # the stats describe the kernel kept, once
    assert err.count("ptxas info    : Used ") == 1
    assert "Used 55 registers" in err


def test_two_registers_above_a_step_are_worth_a_rerun() -> None:
    # matmul: allocated at 42 registers (40 warps), two above the 48-warp
    # step; aimed two lower it takes 40
    path = ROOT / "examples/triton/ptx/sm_80/matmul.ptx"
    on, _ = _compile(path, "ori-ptxas")
    off, _ = _compile(path, "ori-ptxas{occupancy-retune=false}")
    t = get_target("sm_80")
    assert (_regs(off), _regs(on)) == (42, 40)
    assert kernel_warps(t, _regs(on), 128) == 48 > kernel_warps(t, _regs(off), 128)
    # the step may cost at most STEP_COST of the loop-weighted instructions
    assert weighted_instructions(on) <= weighted_instructions(off) * (1 + STEP_COST)


def test_aimed_kernel_without_slack_untouched() -> None:
    # matmul_i8 (sm_80): ori-remat-block aims its copies at occupancy, and
    # the allocation ends at 64 registers, the 32-warp step's highest and
    # eight above the 36-warp step: no rerun either way
    path = ROOT / "examples/triton/ptx/sm_80/matmul_i8.ptx"
    on, err = _compile(path, "ori-ptxas{remarks=true}")
    off, _ = _compile(path, "ori-ptxas{occupancy-retune=false}")
    assert "rerun at max live" not in err
    assert _regs(on) == _regs(off) == 64
    assert weighted_instructions(on) == weighted_instructions(off)


def _kernel_at(regs: int, reached: int) -> tuple[RetuneKernel, ModuleOp, FuncOp]:
    m = import_ptx(SAXPY.read_text(), str(SAXPY))
    (func,) = [f for f in functions_of(m) if isinstance(f, FuncOp)]
    snapshot = m.clone()
    (src,) = [f for f in functions_of(snapshot) if isinstance(f, FuncOp)]
    tgt = get_target("sm_90a")
    assert isinstance(tgt, SMTarget)
    return RetuneKernel(func, tgt, None, regs, weighted_instructions(func), 0, reached), snapshot, src


def _runner(regs_at: dict[int, int], seen: list[int]) -> PhaseRunner:
    """A stand-in for the phases from ori-remat-block on: the allocation
    each max-live target ends at (the code itself unchanged)."""
    def run(m: ModuleOp, targets: dict[str, int]) -> None:
        ((name, target),) = targets.items()
        seen.append(target)
        for f in functions_of(m):
            if isinstance(f, FuncOp) and f.sym_name.data == name:
                f.attributes["ori.num_regs"] = IntegerAttr(regs_at[target], 32)
    return run


def test_step_up_aims_lower_by_what_is_missing() -> None:
    # 66 registers (28 warps on sm_90a), two above the 32-warp step; the
    # allocation follows the target less than one for one (Triton's
    # matmul_i8 on sm_90a before 64-bit definitions were sunk): 73 -> 66,
    # 71 -> 65, 70 -> 65, 69 -> 64
    k, snapshot, src = _kernel_at(66, 75)
    seen: list[int] = []
    run = _runner({73: 66, 71: 65, 70: 65, 69: 64}, seen)
    retune_kernel(k, src, snapshot, 200, run)
    assert seen == [73, 71, 70, 69]
    assert (k.regs, k.reached, k.warps) == (64, 69, 32)


def test_step_up_gives_up_after_step_trials() -> None:
    k, snapshot, src = _kernel_at(66, 75)
    seen: list[int] = []
    run = _runner(dict.fromkeys(range(40, 120), 66), seen)
    retune_kernel(k, src, snapshot, 200, run)
    # each run still 2 above the step: aimed 2 lower each time, STEP_TRIALS
    # runs; then the spare registers below 72 (28 warps' highest) are
    # tried higher, and no run is cheaper: the kernel stays as it was
    assert seen[:STEP_TRIALS] == [73, 71, 69, 67]
    assert all(t > 75 for t in seen[STEP_TRIALS:])
    assert (k.regs, k.reached) == (66, 75)
