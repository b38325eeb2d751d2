"""The table of PTX instruction lowerings.

A lowering is a function ``(ctx, ins) -> None`` registered for one or more
PTX opcodes (the part before the first dot) with :func:`lowers`.  It reads
``ins.modifiers`` and ``ins.operands``, emits Ori ops through ``ctx`` (a
:class:`~ori_dialect.ptx.lower.builder.LoweringBuilder`) and defines the
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
    from ori_dialect.ptx.lower.builder import LoweringBuilder

Lowering = Callable[["LoweringBuilder", "ast.Instruction"], None]

LOWERINGS: dict[str, Lowering] = {}


def lowers(*opcodes: str) -> Callable[[Lowering], Lowering]:
    def register(fn: Lowering) -> Lowering:
        for op in opcodes:
            if op in _FLOAT:  # a float lowering came first: this one takes the other types
                if op in _OTHER:
                    raise RuntimeError(f"two PTX lowerings registered for '{op}'")
                _OTHER[op] = fn
                continue
            if op in LOWERINGS:
                raise RuntimeError(f"two PTX lowerings registered for '{op}'")
            LOWERINGS[op] = fn
        return fn

    return register


# Opcodes shared by integer and float instructions (``add.s32`` / ``add.f32``,
# ``setp.lt.s32`` / ``setp.lt.f32``) have two lowerings in different modules;
# ``lowers_float`` registers the float one and a dispatcher picks by the
# instruction's type modifier, whatever order the modules register in.
FLOAT_TYPES = frozenset(["f16", "bf16", "f32", "f64", "f16x2", "bf16x2"])
_FLOAT: dict[str, Lowering] = {}
_OTHER: dict[str, Lowering] = {}


def _dispatcher(op: str) -> Lowering:
    # Whether the instruction is float-typed depends on its modifiers only:
    # remembered per modifier tuple.
    is_float: dict[tuple[str, ...], bool] = {}

    def dispatch(ctx: LoweringBuilder, ins: ast.Instruction) -> None:
        mods = ins.modifiers
        f = is_float.get(mods) if type(mods) is tuple else None
        if f is None:
            f = any(m in FLOAT_TYPES for m in mods)
            if type(mods) is tuple:
                is_float[mods] = f
        if f:
            _FLOAT[op](ctx, ins)
            return
        other = _OTHER.get(op)
        if other is None:
            ctx.unsupported(ins)
        other(ctx, ins)

    return dispatch


def lowers_float(*opcodes: str) -> Callable[[Lowering], Lowering]:
    """Register the lowering of the float-typed forms of shared opcodes."""

    def register(fn: Lowering) -> Lowering:
        for op in opcodes:
            if op in _FLOAT:
                raise RuntimeError(f"two PTX float lowerings registered for '{op}'")
            _FLOAT[op] = fn
            prev = LOWERINGS.get(op)
            if prev is not None:
                _OTHER[op] = prev
            LOWERINGS[op] = _dispatcher(op)
        return fn

    return register


__all__ = ["FLOAT_TYPES", "LOWERINGS", "Lowering", "lowers", "lowers_float"]
