"""Wall-clock totals per step for ``ori-opt --time-passes``.

xDSL's own ``--time-passes`` times only the top-level passes of ``-p``, so
``-p ori-ptxas`` would show one line for the whole pipeline.  ori-opt turns
this recorder on instead; the driver records parsing, verification and
printing, and :class:`passes.pipeline.PtxasPipelinePass` records each of its
phases under ``ori-ptxas/<phase>``.  When the recorder is off (every other
use of the passes) :func:`timed` costs one global lookup.
"""

from __future__ import annotations

import time
from collections.abc import Iterator
from contextlib import contextmanager

_totals: dict[str, float] | None = None


def enable() -> None:
    """Start recording (clears what was recorded before)."""
    global _totals
    _totals = {}


def disable() -> None:
    global _totals
    _totals = None


def enabled() -> bool:
    return _totals is not None


@contextmanager
def timed(name: str) -> Iterator[None]:
    """Add the wall time of the ``with`` body to ``name``'s total."""
    if _totals is None:
        yield
        return
    start = time.perf_counter()
    try:
        yield
    finally:
        _totals[name] = _totals.get(name, 0.0) + time.perf_counter() - start


def add(name: str, seconds: float) -> None:
    """Add ``seconds`` to ``name``'s total (no-op when off)."""
    if _totals is not None:
        _totals[name] = _totals.get(name, 0.0) + seconds


def totals() -> dict[str, float]:
    """What was recorded, in first-recorded order (empty when off)."""
    return dict(_totals or {})


def format_report(recorded: dict[str, float]) -> str:
    """The report ori-opt prints on stderr: one ``seconds  step`` line per
    step, nested phases indented under their pipeline, then the total of the
    top-level steps."""
    lines = ["===== ori-opt --time-passes (wall seconds) ====="]
    total = 0.0
    for name, secs in recorded.items():
        nested = "/" in name
        if not nested:
            total += secs
        lines.append(f"{secs:10.4f}  {'  ' if nested else ''}{name}")
    lines.append(f"{total:10.4f}  total")
    return "\n".join(lines) + "\n"


__all__ = ["add", "disable", "enable", "enabled", "format_report", "timed", "totals"]
