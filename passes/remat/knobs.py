"""The knobs of ``ori-remat`` as one frozen record, their checks, and the
``no-remat`` exclusion list (seed 002, "IR-Level Knobs").

The pass's options (``passes/remat/__init__.py``) carry the seed's names and
defaults; :func:`validate` turns a bad value into one message (the pass
raises it as a ``PassFailedException``: one diagnostic, no traceback).
"""

from __future__ import annotations

import re
from dataclasses import dataclass

_NAME = re.compile(r"^@?[A-Za-z_$.][A-Za-z0-9_$.]*$")


@dataclass(frozen=True)
class RematKnobs:
    """Every knob the sub-passes read (names as in the seed, snake case)."""

    do_remat: int = 3
    remat_iv: int = 4
    remat_load: int = 1
    remat_single_cost_limit: int = 6000
    remat_loop_trip: int = 20
    remat_gep_cost: int = 6000
    remat_use_limit: int = 10
    remat_max_live_limit: int = 10
    remat_maxreg_ceiling: int = 0
    remat_for_occ: int = 120
    remat_lli_factor: int = 10
    remat_ignore_single_cost: bool = False
    remat_move: bool = False
    simplify_live_out: int = 2
    max_recurse_depth: int = 8
    dump_remat: int = 0
    dump_remat_iv: int = 0
    dump_remat_load: int = 0
    dump_simplify_live_out: bool = False
    remarks: bool = False
    stats: bool = False


_RANGES: dict[str, tuple[int, int | None, str]] = {
    "do_remat": (0, 3, "0 (off), 1 (conservative), 2 (normal) or 3 (full)"),
    "remat_iv": (0, None, ">= 0 (0 off, 1-2 basic, 3 extended, 4 full)"),
    "remat_load": (0, 1, "0 (off) or 1 (on)"),
    "remat_single_cost_limit": (0, None, ">= 0"),
    "remat_loop_trip": (1, None, ">= 1"),
    "remat_gep_cost": (0, None, ">= 0"),
    "remat_use_limit": (0, None, ">= 0"),
    "remat_max_live_limit": (1, None, ">= 1"),
    "remat_maxreg_ceiling": (0, 255, "0 (uncapped) or 1..255"),
    "remat_for_occ": (0, 1000, "0 (off) or a percentage 1..1000"),
    "remat_lli_factor": (1, None, ">= 1"),
    "simplify_live_out": (0, None, ">= 0 (0 off, 1 basic, 2 full, 3+ extended)"),
    "max_recurse_depth": (1, 50, "1..50"),
    "dump_remat": (0, None, ">= 0"),
    "dump_remat_iv": (0, None, ">= 0"),
    "dump_remat_load": (0, None, ">= 0"),
}


def validate(k: RematKnobs) -> str | None:
    """The first bad knob value, as the diagnostic's text; None when all are good."""
    for field, (lo, hi, want) in _RANGES.items():
        v = getattr(k, field)
        if v < lo or (hi is not None and v > hi):
            return f"{field.replace('_', '-')} must be {want}, got {v}"
    return None


def parse_no_remat(text: str) -> list[str] | str:
    """``no-remat``: comma-separated function names (an optional ``@`` each,
    blanks around the commas ignored) -> the names; a malformed list -> the
    diagnostic's text."""
    if not text.strip():
        return []
    names: list[str] = []
    for item in text.split(","):
        item = item.strip()
        if not _NAME.match(item):
            return (f"malformed no-remat '{text}': expected comma-separated function names "
                    f"(e.g. \"k1,@k2\"), got '{item}'")
        names.append(item.lstrip("@"))
    return names


__all__ = ["RematKnobs", "parse_no_remat", "validate"]
