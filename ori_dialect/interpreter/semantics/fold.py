"""Compile-time evaluation of an op with constant sources: the one entry
point through which passes fold (docs/architecture.md "Op facts").

It runs the same compiled semantics function the interpreter runs, on one
lane, so a fold is bit-exact with execution by construction.  It lives in the
semantics layer so that a pass folds without importing the interpreter's
machine.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

import numpy as np
from xdsl.ir import Operation

from ori_dialect.interpreter.semantics.registry import compile_op


def fold_op(op: Operation, sources: Sequence[Any]) -> tuple[Any, ...] | None:
    """``op``'s results for the materialised constant ``sources`` (one per
    present source slot, as the registry docstring describes, a predicate's
    ``not`` already applied), each a one-lane array; None when the op has no
    semantics or evaluating it fails."""
    try:
        fn = compile_op(op)
        with np.errstate(all="ignore"):
            return fn(list(sources), 1)
    except Exception:  # noqa: BLE001 -- no semantics or an evaluation error: no fold
        return None


__all__ = ["fold_op"]
