"""The table of PTX instruction lowerings.

A lowering is a function ``(ctx, ins) -> None`` registered for one or more
PTX opcodes (the part before the first dot) with :func:`lowers`.  It reads
``ins.modifiers`` and ``ins.operands``, emits Ori ops through ``ctx`` (a
:class:`~ori_dialect.ptx.lower.function.FunctionLowering`) and defines the
destination registers with ``ctx.set``.  A lowering that meets a form it
does not handle calls ``ctx.unsupported(ins, why)``: the import stops with a
diagnostic naming the instruction and its line -- nothing is ever dropped.

The handler modules register themselves when :mod:`ori_dialect.ptx.lower`
is imported.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import TYPE_CHECKING

if TYPE_CHECKING:
    from ori_dialect.ptx import ast
    from ori_dialect.ptx.lower.function import FunctionLowering

Lowering = Callable[["FunctionLowering", "ast.Instruction"], None]

LOWERINGS: dict[str, Lowering] = {}


def lowers(*opcodes: str) -> Callable[[Lowering], Lowering]:
    def register(fn: Lowering) -> Lowering:
        for op in opcodes:
            if op in LOWERINGS:
                raise RuntimeError(f"two PTX lowerings registered for '{op}'")
            LOWERINGS[op] = fn
        return fn

    return register


__all__ = ["LOWERINGS", "Lowering", "lowers"]
