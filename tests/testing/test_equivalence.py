"""The interpreter-based equivalence checker catches broken transformations
and reports the first differing byte, the input seed and both IRs."""

from __future__ import annotations

from collections.abc import Iterator
from dataclasses import dataclass

import numpy as np
import pytest
from xdsl.context import Context
from xdsl.dialects.builtin import DictionaryAttr, IntegerAttr, ModuleOp
from xdsl.passes import ModulePass

from ori_dialect.builder import PT, RZ, FuncBuilder, module
from ori_dialect.ir.registers import r64
from ori_dialect.ops import IAdd3Op
from ori_dialect.testing import LaunchInputs, generate
from ori_dialect.testing.equivalence import (
    BothFailedError,
    EquivalenceError,
    apply_pipeline,
    assert_pass_preserves,
    check_equivalent,
    module_text,
)
from passes import registry
from tests.conftest import parse


def small_kernel(imm: int = 0x100) -> ModuleOp:
    """out[tid] = tid + imm, stored only by threads 3 and up."""
    fb = FuncBuilder("k", kernel=True, params=[(8, 8)])
    tid = fb.s2r(mods="SR_TID.X")
    v = fb.iadd3(tid, imm, RZ)
    p = fb.isetp(tid, 3, PT, mods="ge.u32")
    out = fb.ldc(0, RZ, 0x160, mods="b64", types=[r64])
    fb.stg(fb.imad(tid, 4, out, mods="wide.u32", types=[r64]), 0, v, guard=p)
    fb.exit()
    m = module(fb.func, target="sm_80")
    m.verify()
    return m


def launch(seed: int) -> LaunchInputs:
    rng = np.random.default_rng(seed)
    out = rng.integers(0, 2**32, size=32, dtype=np.uint64).astype(np.uint32)
    return LaunchInputs((out,), (1, 1, 1), (32, 1, 1), 0, seed)


def test_identical_modules_pass() -> None:
    m = small_kernel()
    check_equivalent(m, m.clone(), "k", [launch(1), launch(2)])
    p = generate(4)
    check_equivalent(p.module, p.module.clone(), p.kernel, [p.inputs(7), p.inputs(8)])


def test_hand_mutated_immediate_is_caught() -> None:
    before = small_kernel()
    text = module_text(before)
    assert "ori.iadd3 %0, 0x100, RZ" in text
    after = parse(text.replace("0x100", "0x200"))
    with pytest.raises(EquivalenceError) as ei:
        check_equivalent(before, after, "k", [launch(41)])
    msg = str(ei.value)
    # threads 0..2 do not store; thread 3 stores 0x103 vs 0x203: byte 1 of element 3
    assert "input seed 41" in msg
    assert "argument #0, element 3, byte offset 13 (0x01 vs 0x02)" in msg
    assert "before 0x103 (259), after 0x203 (515)" in msg
    assert "---- IR before ----" in msg and "---- IR after ----" in msg
    assert "0x100" in msg and "0x200" in msg
    d = ei.value.difference
    assert d is not None and (d.seed, d.arg_index, d.element_index, d.byte_offset) == (41, 0, 3, 13)
    assert isinstance(ei.value, AssertionError)


def test_bare_argument_lists_need_geometry() -> None:
    m = small_kernel()
    out = np.zeros(32, np.uint32)
    check_equivalent(m, m, "k", [[out]], grid=1, block=32)
    with pytest.raises(TypeError):
        check_equivalent(m, m, "k", [[out]])


def test_failure_on_one_side_only() -> None:
    before = small_kernel()
    # the mutated kernel stores 64 KiB past the buffer: a fault in the interpreter
    bad = parse(module_text(before).replace("wide.u32 %0, 0x4,", "wide.u32 %0, 0x4000,"))
    with pytest.raises(EquivalenceError) as ei:
        check_equivalent(before, bad, "k", [launch(5)])
    msg = str(ei.value)
    assert "failed on one side only" in msg
    assert "before: ok" in msg and "after:" in msg
    assert ei.value.difference is not None and ei.value.difference.after_error


def test_both_sides_failing_is_reported() -> None:
    bad = parse(module_text(small_kernel()).replace("wide.u32 %0, 0x4,", "wide.u32 %0, 0x4000,"))
    with pytest.raises(BothFailedError):
        check_equivalent(bad, bad, "k", [launch(5)])


# ---- assert_pass_preserves with registered passes ---------------------------


@dataclass(frozen=True)
class BumpIAdd3Pass(ModulePass):
    """A deliberately wrong 'optimization': adds 1 to every IADD3 immediate."""

    name = "test-bump-iadd3"

    def apply(self, ctx: Context, op: ModuleOp) -> None:
        for o in op.walk():
            if isinstance(o, IAdd3Op):
                c = o.const_map()
                b = c.get("b")
                if isinstance(b, IntegerAttr):
                    c["b"] = IntegerAttr(b.value.data + 1, b.type)
                    o.properties["consts"] = DictionaryAttr(c)


@pytest.fixture
def bump_pass() -> Iterator[str]:
    registry.register_pass(BumpIAdd3Pass.name, lambda: BumpIAdd3Pass)
    try:
        yield BumpIAdd3Pass.name
    finally:
        registry.unregister_pass(BumpIAdd3Pass.name)


def test_print_passes_preserve_a_generated_program() -> None:
    p = generate(11)
    after = assert_pass_preserves(p.module, "ori-print-loops,ori-print-liveness", p.kernel,
                                  p.input_factory, n=2)
    assert module_text(after) == module_text(p.module)


def test_assert_pass_preserves_catches_a_broken_pass(bump_pass: str) -> None:
    m = small_kernel()
    with pytest.raises(EquivalenceError) as ei:
        assert_pass_preserves(m, bump_pass, "k", lambda rng: launch(int(rng.integers(100))), n=2,
                              seed=9)
    msg = str(ei.value)
    assert msg.startswith(bump_pass)
    assert "input seed 9" in msg and "0x101" in msg  # the mutated IR is printed
    # the original is untouched
    assert "0x100" in module_text(m) and "0x101" not in module_text(m)


def test_unknown_pass_name() -> None:
    with pytest.raises(ValueError, match="Unrecognized passes"):
        apply_pipeline(small_kernel(), "no-such-pass")


def test_endless_loop_after_is_stopped() -> None:
    """A transformation that makes the kernel loop forever fails fast: the
    transformed module may only run a bounded multiple of the original's steps."""
    before = small_kernel()
    fb = FuncBuilder("k", kernel=True, params=[(8, 8)])
    loop = fb.block()
    fb.bra(loop)
    with fb.at(loop):
        fb.iadd3(fb.mov(1), 2, RZ)
        fb.bra(loop)
    after = module(fb.func, target="sm_80")
    after.verify()
    with pytest.raises(EquivalenceError, match="failed on one side only"):
        check_equivalent(before, after, "k", [launch(3)])
