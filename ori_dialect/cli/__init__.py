"""Command-line tools of ori (``ori-opt``)."""

from __future__ import annotations

__all__: list[str] = []
