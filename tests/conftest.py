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


@pytest.fixture
def ctx() -> Context:
    return make_context()
