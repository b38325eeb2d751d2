"""Sub-register hints (passes/regalloc/coalesce.py): an ``ori.pack`` part and
the wide value it builds, an ``ori.unpack`` result and its source prefer the
registers that put the part in place, so the pseudo-op costs no instruction
(``sass_instructions() == 0``) -- as ptxas updates the halves of a 64-bit
pointer in place (``IADD3 R2, P0, R2, -0x10, RZ`` / ``IADD3.X R3, R3, ...``)."""

from __future__ import annotations

import contextlib
import io
from pathlib import Path

import pytest
from xdsl.parser import Parser

from ori_dialect.analysis import LoopInfo, functions_of
from ori_dialect.asm_printer import format_module
from ori_dialect.ops.integer import MovOp, PackOp, UnpackOp
from ori_dialect.ptx.lower import import_ptx
from ori_dialect.testing.equivalence import apply_pipeline, make_context

ROOT = Path(__file__).resolve().parents[3]


def _compiled(strategy: str) -> object:
    m = import_ptx((ROOT / "examples/ptx/sm_80/loops.ptx").read_text())
    with contextlib.redirect_stderr(io.StringIO()):
        apply_pipeline(m, f"ori-ptxas{{strategy={strategy}}}")
    return m


@pytest.mark.parametrize("strategy", ("fatpoint",))
def test_loop_pointer_halves_stay_in_place(strategy: str) -> None:
    """Every PACK/UNPACK inside a loop of loops.ptx is in place with the
    default strategy (each costs a MOV per part otherwise: 25 instructions
    over the loop bodies of loops_vs_ptxas.py's kernels before the hints).
    ``strategy=ssa``'s exact search minimises the register count and does
    not keep hints (its greedy walk does: 19 of the 22 with
    ``ssa-search-budget=0``)."""
    m = _compiled(strategy)
    seen = 0
    for func in functions_of(m):
        li = LoopInfo.compute(func)
        for b in {b for lp in li.loops for b in lp.blocks}:
            for op in li.cfg.blocks[b].ops:
                if isinstance(op, PackOp | UnpackOp):
                    seen += 1
                    assert op.sass_instructions() == 0, f"{strategy}: {op}"
    assert seen >= 10


def test_listing_prints_in_place_ops_as_comments() -> None:
    text = format_module(_compiled("fatpoint"))  # type: ignore[arg-type]
    assert "// UNPACK R2, R3, R2 ;  no instruction: in place" in text
    assert "// PACK R2, R2, R3 ;  no instruction: in place" in text


_HAND = """
builtin.module attributes {ori.target = "sm_80"} {
  ori.func kernel @k() attributes {params = [#ori.param<8, align 8, at 0x0>]} {
    %a = ori.ldc b64 0x0, [RZ + 0x160] : () -> !ori.r64<R2>
    %lo, %hi = ori.unpack %a : (!ori.r64<R2>) -> (!ori.r32<R2>, !ori.r32<R3>)
    %x, %y = ori.unpack %a : (!ori.r64<R2>) -> (!ori.r32<R2>, !ori.r32<R4>)
    %p = ori.pack %lo, %hi : (!ori.r32<R2>, !ori.r32<R3>) -> !ori.r64<R2>
    %q = ori.pack %lo, RZ : (!ori.r32<R2>) -> !ori.r64<R6>
    %m = ori.mov %lo : (!ori.r32<R2>) -> !ori.r32<R2>
    %n = ori.mov %lo : (!ori.r32<R2>) -> !ori.r32<R5>
    ori.exit
  }
}
"""


def test_sass_instructions_counts_the_moves() -> None:
    m = Parser(make_context(), _HAND, "hand").parse_module()
    counts = [op.sass_instructions() for op in m.walk()
              if isinstance(op, PackOp | UnpackOp | MovOp)]
    # in place; one part moved; in place; both parts moved (RZ needs a MOV);
    # a MOV onto itself; a real MOV
    assert counts == [0, 1, 0, 2, 0, 1]
