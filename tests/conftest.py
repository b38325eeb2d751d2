"""Shared pytest fixtures: an xDSL context with the ori dialect loaded."""

from __future__ import annotations

import io

import pytest
from xdsl.context import Context
from xdsl.dialects.builtin import Builtin, ModuleOp
from xdsl.parser import Parser
from xdsl.printer import Printer

from ori_dialect.dialect import Ori


def make_context() -> Context:
    ctx = Context()
    ctx.load_dialect(Builtin)
    ctx.load_dialect(Ori)
    return ctx


def parse(text: str) -> ModuleOp:
    return Parser(make_context(), text).parse_module()


def show(op: object, generic: bool = False) -> str:
    s = io.StringIO()
    Printer(stream=s, print_generic_format=generic).print_op(op)  # type: ignore[arg-type]
    return s.getvalue()


def cfg_text(succs: list[list[int]]) -> str:
    """A kernel whose block ``i`` branches to ``succs[i]`` (0: exit, 1: BRA, 2: guarded BRA)."""
    lines = ["builtin.module {", "  ori.func kernel @k() {", "  ^bb0:"]
    lines.append("    %z = ori.mov 0x0 : () -> !ori.r32")
    lines.append("    %p = ori.isetp lt.u32 %z, %z, PT : (!ori.r32, !ori.r32) -> !ori.p")
    for i, ss in enumerate(succs):
        if i:
            lines.append(f"  ^bb{i}:")
        if not ss:
            lines.append("    ori.exit")
        elif len(ss) == 1:
            lines.append(f"    ori.bra ^bb{ss[0]}")
        else:
            lines.append(f"    ori.bra if %p : !ori.p, ^bb{ss[0]}, ^bb{ss[1]}")
    lines += ["  }", "}"]
    return "\n".join(lines)



@pytest.fixture
def ctx() -> Context:
    return make_context()
