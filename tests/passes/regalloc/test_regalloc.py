"""ori-regalloc on generated programs: the checker passes and the allocated
program, run in the interpreter's physical-register mode, gives the same
results as the SSA program (spills and parallel copies included)."""

from __future__ import annotations

import pytest
from xdsl.dialects.builtin import IntegerAttr

from ori_dialect.interpreter import run_kernel
from ori_dialect.ir.registers import OriRegisterType
from ori_dialect.ops.func import FuncOp
from ori_dialect.testing.equivalence import apply_pipeline, check_equivalent
from ori_dialect.testing.generator import generate
from passes.regalloc.checker import check_module


def _alloc_and_check(seed: int, max_regs: int | None) -> tuple[int, int]:
    prog = generate(seed)
    after = prog.module.clone()
    spec = "ori-regalloc" + (f"{{max-regs={max_regs}}}" if max_regs else "")
    apply_pipeline(after, spec)
    after.verify()
    problems = check_module(after)
    assert not problems, f"seed {seed}: " + "\n".join(problems)
    check_equivalent(prog.module, after, prog.kernel, [prog.inputs(seed + 1)],
                     physical_after=True, title=f"seed {seed} max-regs {max_regs}")
    funcs = [f for f in after.walk() if isinstance(f, FuncOp)]
    spill = sum(f.attributes["ori.spill_stores"].value.data for f in funcs)  # type: ignore[union-attr]
    regs = max(f.attributes["ori.num_regs"].value.data for f in funcs)  # type: ignore[union-attr]
    return spill, regs


@pytest.mark.parametrize("seed", range(12))
def test_generated_unlimited(seed: int) -> None:
    _alloc_and_check(seed, None)


@pytest.mark.parametrize("seed", range(100, 112))
def test_generated_forced_spills(seed: int) -> None:
    _alloc_and_check(seed, 16 + 4 * (seed % 5))


@pytest.mark.fuzz
def test_regalloc_fuzz_300() -> None:
    spilled = 0
    for seed in range(1000, 1150):
        _alloc_and_check(seed, None)
    for seed in range(2000, 2150):
        s, _ = _alloc_and_check(seed, 16 + (seed % 17))
        spilled += s > 0
    assert spilled >= 50


def test_checker_detects_a_clobbered_register() -> None:
    """Give two simultaneously live values the same register: the checker
    reports it."""
    prog = generate(3)
    after = prog.module.clone()
    apply_pipeline(after, "ori-regalloc")
    assert not check_module(after)
    kernel = next(f for f in after.walk() if isinstance(f, FuncOp) and f.is_kernel)
    # find two R32 values live at once and put the second in the first's register
    from passes.regalloc.points import LiveMatrix

    lm = LiveMatrix(kernel)
    num = lm.numbering
    pair = None
    for p in range(len(lm.points)):
        ids = [int(i) for i in lm.values_at(p)
               if num.values[int(i)].type.name == "ori.r32"]  # type: ignore[attr-defined]
        if len(ids) >= 2:
            pair = ids[:2]
            break
    assert pair is not None
    a, b = (num.values[i] for i in pair)
    t = a.type
    assert isinstance(t, OriRegisterType)
    b._type = t  # type: ignore[attr-defined]
    assert any("live at the same time" in m for m in check_module(after))


def test_impossible_limit_is_a_diagnostic() -> None:
    from xdsl.utils.exceptions import PassFailedException

    prog = generate(5)
    m = prog.module.clone()
    with pytest.raises(PassFailedException, match="Register allocation failed with register count of '2'"):
        apply_pipeline(m, "ori-regalloc{max-regs=2}")


def test_limit_above_target_is_a_diagnostic() -> None:
    from xdsl.utils.exceptions import PassFailedException

    prog = generate(5)
    with pytest.raises(PassFailedException, match="exceeds the 255 registers"):
        apply_pipeline(prog.module.clone(), "ori-regalloc{max-regs=300}")


def test_abi_minimum_warning(capsys: pytest.CaptureFixture[str]) -> None:
    """A device function (here from the calls example, imported from PTX) is
    raised to the ABI minimum with warning 7016."""
    from pathlib import Path

    from ori_dialect.ptx.lower import import_ptx

    path = Path(__file__).resolve().parents[3] / "examples" / "ptx" / "sm_80" / "calls.ptx"
    m = import_ptx(path.read_text(), path.name)
    assert any(isinstance(f, FuncOp) and not f.is_kernel for f in m.walk())
    apply_pipeline(m, "ori-regalloc{max-regs=16}")
    assert "warning 7016: regcount 16 specified below abi_minimum of 24" in capsys.readouterr().err
    dev = next(f for f in m.walk() if isinstance(f, FuncOp) and not f.is_kernel)
    assert isinstance(dev.attributes["ori.max_regs"], IntegerAttr)
    assert dev.attributes["ori.max_regs"].value.data == 24
    assert not check_module(m)


def test_physical_mode_needs_allocated_registers() -> None:
    """Physical mode refuses unallocated values (it cannot give them storage);
    after allocation both modes agree on the same program."""
    from ori_dialect.interpreter import InterpreterError

    prog = generate(1)
    inp = prog.inputs(1)
    with pytest.raises(InterpreterError):
        run_kernel(prog.module, prog.kernel, inp.grid, inp.block, list(inp.args),
                   inp.shared_bytes, physical=True)
    after = prog.module.clone()
    apply_pipeline(after, "ori-regalloc")
    a = run_kernel(after, prog.kernel, inp.grid, inp.block, list(inp.args), inp.shared_bytes)
    b = run_kernel(after, prog.kernel, inp.grid, inp.block, list(inp.args), inp.shared_bytes,
                   physical=True)
    assert all((x == y).all() if hasattr(x, "all") else x == y for x, y in zip(a, b))


def test_uniform_copy_cycle_takes_a_register_above_the_peak() -> None:
    """The fuzzer's program 1521: uniform values rotate on an edge where
    every UR below the peak is live, and UR copies have no swap; the cycle
    is broken through a free UR above the peak (passes/regalloc/copies.py)
    instead of failing with "a cycle of uniform-register copies on an edge
    needs a free uniform register"."""
    prog = generate(1521)
    after = prog.module.clone()
    apply_pipeline(after, "ori-ptxas")
    assert not check_module(after)
    check_equivalent(prog.module, after, prog.kernel, [prog.inputs(k) for k in range(2)],
                     physical_after=True, title="ori-ptxas on program 1521")
