"""The CUDA examples' launch table for the passes' equivalence tests.

Every launch of ``tests/ptx/test_import_examples.py`` (``LAUNCHES``, numpy
references included), its test id, the example modules imported once and
after a pipeline (cached per session), and the interpreter check of one
launch before and after a transformation (strict: byte-identical outputs).
"""

from __future__ import annotations

import contextlib
import copy
import functools
import io
from pathlib import Path
from typing import Any

import numpy as np
from xdsl.dialects.builtin import ModuleOp

from ori_dialect.testing.equivalence import apply_pipeline, check_equivalent


@functools.cache
def _table() -> Any:
    from tests.ptx import test_import_examples as ex  # lazy: the launch table imports every example

    return ex


def launches(stems: set[str] | None = None) -> list[Any]:
    """The launches, or those of the example files named by ``stems``."""
    return [la for la in _table().LAUNCHES if stems is None or Path(la.file).stem in stems]


def launch_id(launch: Any) -> str:
    return f"{Path(launch.file).stem}.{launch.kernel}"


def example_rel(launch: Any, arch: str) -> str:
    """The launch's PTX file under ``examples/ptx``: ``sm_80/loops.ptx``."""
    return f"{arch}/{Path(launch.file).stem}.ptx"


@functools.cache
def after_pipeline(rel: str, pipeline: str = "") -> ModuleOp:
    """The example ``rel`` imported and, unless ``pipeline`` is empty, put
    through it (remarks swallowed; the result verified).  Cached: callers
    that change the module clone it first."""
    m = _table().imported_example(rel)
    if not pipeline:
        return m
    m = m.clone()
    with contextlib.redirect_stderr(io.StringIO()):
        apply_pipeline(m, pipeline)
    m.verify()
    return m


def check_launch(before: ModuleOp, after: ModuleOp, launch: Any, title: str) -> None:
    """The launch's outputs are byte-identical on ``before`` and ``after``."""
    args = launch.make_args(np.random.default_rng(launch.seed))
    check_equivalent(before, after, launch.kernel, [[copy.deepcopy(a) for a in args]],
                     grid=launch.grid, block=launch.block, shared_bytes=launch.shared_bytes,
                     strict=True, title=title)


__all__ = ["after_pipeline", "check_launch", "example_rel", "launch_id", "launches"]
