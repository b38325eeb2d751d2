"""Issue 17 item 7: generated programs with calls (``GenOptions(abi_calls=
True, frames=True)``: device functions of 1 to 14 parameters, nested calls,
calls through function pointers, a local array in every activation's frame)
compute the same before ``ori-abi``, after it, and after
``ori-ptxas`` in the interpreter's physical-register mode, where a lowered
caller's scratch registers are clobbered at every call.  A small sample by
default; 300 programs under ``-m fuzz``."""

from __future__ import annotations

import pytest

from ori_dialect.ir.registers import OriRegisterType, RegFile
from ori_dialect.testing.equivalence import check_generated
from ori_dialect.testing.generator import GenOptions

OPTS = GenOptions(abi_calls=True, frames=True)


def _check(seed: int) -> dict[str, int]:
    prog, _ = check_generated(seed, OPTS, "ori-abi")
    return dict(prog.features)


def test_generated_programs_have_calls() -> None:
    feats = [_check(s) for s in range(4)]
    assert all(f.get("call", 0) + f.get("call_indirect", 0) for f in feats)
    assert sum(f.get("local", 0) for f in feats) > 0


def test_stack_argument_loads_stay_above_the_frame() -> None:
    """Program 397's @dev1 takes its 13th argument on the stack and opens a
    16-byte frame whose first word it stores at [R1]: the argument's LDL
    [R1] (offset from the caller's R1) must not move below the frame's
    enter or that store (it read the stored word, caught by this program)."""
    from ori_dialect.ops.frame import FrameEnterOp
    from ori_dialect.ops.func import FuncOp
    from ori_dialect.ops.memory import LdlOp

    _, after = check_generated(397, OPTS, "ori-abi")
    dev1 = next(f for f in after.walk() if isinstance(f, FuncOp) and f.sym_name.data == "dev1")
    ops = list(dev1.entry_block.ops)
    enter = next(i for i, op in enumerate(ops) if isinstance(op, FrameEnterOp))
    loads = [i for i, op in enumerate(ops) if isinstance(op, LdlOp)
             and "ori.abi_stack_arg" in op.attributes]
    assert loads and all(i < enter for i in loads)


@pytest.mark.fuzz
def test_generated_programs_with_calls_through_ori_ptxas() -> None:
    total: dict[str, int] = {}
    for seed in range(100, 400):
        for k, v in _check(seed).items():
            total[k] = total.get(k, 0) + v
    assert total.get("call_indirect", 0) > 0 and total.get("call", 0) > 0
    assert total.get("local", 0) > 0


def test_uniform_edge_copies_stay_unguarded_under_a_p_branch() -> None:
    """Program 267's kernel keeps a UR value across calls to generated
    device functions (which write no uniform register) and feeds it to a
    block argument on the taken edge of a branch on a P predicate, whose
    other edge reads the register: regalloc's copies may not go before the
    branch as a ``@P0 MOV UR1, UR2`` (a uniform op takes a UP guard only;
    passes/regalloc/copies.py ``_guarded_plan``)."""
    prog, after = check_generated(267, OPTS, "ori-ptxas")
    assert prog.features.get("call", 0) > 0
    assert any(isinstance(r.type, OriRegisterType) and r.type.REG_FILE is RegFile.UR
               for op in after.walk() for r in op.results)
