"""Text table of registered targets, for ``ori-opt --list-targets``."""

from __future__ import annotations

from collections.abc import Callable, Iterable

from targets.descriptor import SMTarget
from targets.registry import list_targets


def _fmt_limit(value: int | None) -> str:
    return "-" if value is None else str(value)


_COLUMNS: tuple[tuple[str, Callable[[SMTarget], str]], ...] = (
    ("name", lambda t: t.name),
    ("sm", lambda t: str(t.sm)),
    ("family", lambda t: t.family),
    ("gen", lambda t: str(t.abi_generation)),
    ("R", lambda t: str(t.reg_limit("R"))),
    ("UR", lambda t: str(t.reg_limit("UR"))),
    ("P", lambda t: str(t.reg_limit("P"))),
    ("UP", lambda t: str(t.reg_limit("UP"))),
    ("B", lambda t: str(t.reg_limit("B"))),
    ("abi_min_regs", lambda t: _fmt_limit(t.abi_min_regs)),
    ("warps/SM", lambda t: str(t.max_warps_per_sm)),
    ("smem/SM", lambda t: f"{t.smem_per_sm // 1024}K"),
)


def format_target_table(targets: Iterable[SMTarget] | None = None) -> str:
    """A stable, column-aligned text table, one line per target.

    ``targets`` defaults to :func:`list_targets`; given explicitly, the
    function reads nothing but its argument (keeps ``--list-targets`` output
    testable).  Rows are sorted by (sm, name); the result ends with a newline.
    """
    rows_in = list_targets() if targets is None else sorted(targets, key=lambda t: (t.sm, t.name))
    header = [title for title, _ in _COLUMNS]
    rows = [[render(t) for _, render in _COLUMNS] for t in rows_in]
    widths = [max(len(r[i]) for r in [header, *rows]) for i in range(len(header))]
    lines = [
        "  ".join(cell.ljust(w) for cell, w in zip(r, widths, strict=True)).rstrip()
        for r in [header, *rows]
    ]
    return "\n".join(lines) + "\n"
