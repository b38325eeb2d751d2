"""ori: the Ori IR of ptxas 13.0 re-created on xDSL.

``ori_dialect`` holds the IR (register types, attributes, ops), its analyses,
the assembly printer and the command-line tools.  Passes live in the
top-level ``passes`` package and SM targets in ``targets``.

``Ori`` and ``RegFile`` are loaded on first access (PEP 562): importing a
submodule such as ``ori_dialect.cli.ori_opt`` must not build every op class
of the dialect, which is most of ``ori-opt``'s start-up on an input that
does not use it.
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

if TYPE_CHECKING:
    from ori_dialect.dialect import Ori
    from ori_dialect.ir.registers import RegFile


def __getattr__(name: str) -> Any:
    if name == "Ori":
        from ori_dialect.dialect import Ori  # lazy: built on first use (docstring)

        return Ori
    if name == "RegFile":
        from ori_dialect.ir.registers import RegFile  # lazy: built on first use (docstring)

        return RegFile
    raise AttributeError(f"module 'ori_dialect' has no attribute {name!r}")


__all__ = ["Ori", "RegFile"]
