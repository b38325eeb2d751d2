"""Unpacks move down to their first reader before allocation
(``copies.unpacks_to_readers``): the unrolled-loop shape where a pointer's
words are unpacked above loads that still read the pointer allocates with
no move, an unpack with an unread part stays, and ``ori-ptxas`` (with
general-optimize's ``add-chain``, which makes such unpacks) keeps the
results of generated programs.  That its allocations of library code stay
valid is checked on every library file by
tests/ptx/test_library_examples.py (``test_compiles_with_ori_ptxas``)."""

from __future__ import annotations

import contextlib
import io

from xdsl.parser import Parser

from ori_dialect.ops.integer import UnpackOp
from ori_dialect.testing.equivalence import apply_pipeline, check_equivalent, make_context
from ori_dialect.testing.generator import generate
from passes.regalloc.checker import check_module
from passes.regalloc.copies import unpacks_to_readers

BODY = """
builtin.module attributes {ori.target = "sm_80"} {
  ori.func @f(%p: !ori.r64, %q: !ori.r64) -> !ori.r64 {
    %lo, %hi = ori.unpack %p : (!ori.r64) -> (!ori.r32, !ori.r32)
    %dlo, %dhi = ori.unpack %q : (!ori.r64) -> (!ori.r32, !ori.r32)
    %a = ori.ldg [%p] : (!ori.r64) -> !ori.r32
    %b = ori.ldg [%p + 0x4] : (!ori.r64) -> !ori.r32
    %s = ori.iadd3 %a, %b, %dlo : (!ori.r32, !ori.r32, !ori.r32) -> !ori.r32
    ori.stg [%p + 0x8], %s : (!ori.r64, !ori.r32) -> ()
    %l1, %c = ori.iadd3 %lo, 0x10, RZ : (!ori.r32) -> (!ori.r32, !ori.p)
    %h1 = ori.iadd3 x %hi, 0x0, RZ, %c : (!ori.r32, !ori.p) -> !ori.r32
    %r = ori.pack %l1, %h1 : (!ori.r32, !ori.r32) -> !ori.r64
    ori.ret %r : !ori.r64
  }
}
"""


def _module():  # type: ignore[no-untyped-def]
    return Parser(make_context(), BODY).parse_module()


def test_unpack_moves_to_its_first_reader_and_one_with_a_dead_part_stays() -> None:
    m = _module()
    func = next(iter(m.body.block.ops))
    assert unpacks_to_readers(func) == 1
    ops = list(func.regions[0].blocks.first.ops)  # type: ignore[union-attr]
    un = [op for op in ops if isinstance(op, UnpackOp)]
    # %q's unpack (its high word unread) stays first; %p's sits before the add
    assert un[0].operands[0].name_hint == "q"
    assert ops.index(un[1]) == ops.index(un[1].results[0].first_use.operation) - 1  # type: ignore[union-attr]
    assert unpacks_to_readers(func) == 0


def test_the_pointer_step_allocates_in_place() -> None:
    m = _module()
    with contextlib.redirect_stderr(io.StringIO()):
        apply_pipeline(m, "ori-regalloc")
    assert not check_module(m)
    # %p's words are its own registers: the unpack moves nothing (without
    # the rule the loads keep %p live across it and the words take R10, R9)
    un = next(op for op in m.walk() if isinstance(op, UnpackOp)
              and op.operands[0].name_hint == "p")
    assert un.sass_instructions() == 0


def test_generated_programs_keep_their_results() -> None:
    for seed in range(8):
        prog = generate(seed)
        after = prog.module.clone()
        with contextlib.redirect_stderr(io.StringIO()):
            apply_pipeline(after, "ori-ptxas")
        assert not check_module(after), f"seed {seed}"
        check_equivalent(prog.module, after, prog.kernel, [prog.inputs(seed + 1)],
                         physical_after=True, title=f"unpacks to readers, seed {seed}")
