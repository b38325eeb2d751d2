"""The ``xdsl.universe`` entry point: makes stock ``xdsl-opt`` see the ori
dialect, every ori pass and the ``ori-asm`` output target."""

from __future__ import annotations

from xdsl.ir import Dialect
from xdsl.universe import Universe
from xdsl.utils.target import Target

from passes.registry import all_passes


def _dialect() -> Dialect:
    from ori_dialect.dialect import Ori  # lazy: xDSL loads a universe's dialects on demand

    return Ori


def _asm_target() -> type[Target]:
    from ori_dialect.asm_printer import OriAsmTarget  # lazy: as the dialect, on demand

    return OriAsmTarget


ORI_UNIVERSE = Universe(
    all_dialects={"ori": _dialect},
    all_passes=all_passes(),
    all_targets={"ori-asm": _asm_target},
)
