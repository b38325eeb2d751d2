"""Generated programs an allocator preparation rule has work in, and the
check that a pipeline keeps their results."""

from __future__ import annotations

import functools
from collections.abc import Callable

from xdsl.ir import Operation

from ori_dialect.analysis import functions_of
from ori_dialect.testing.equivalence import assert_pass_preserves
from ori_dialect.testing.generator import generate


@functools.cache
def seeds_where(rule: Callable[[Operation], int], seeds: range) -> tuple[int, ...]:
    """The seeds of ``seeds`` whose generated program ``rule`` (run on a
    clone, per function, returning how much it did) changes."""
    return tuple(s for s in seeds
                 if sum(rule(f) for f in functions_of(generate(s).module.clone())))


def keeps_results(seed: int, pipeline: str) -> None:
    """``pipeline`` leaves generated program ``seed``'s results unchanged
    in the interpreter (two inputs)."""
    prog = generate(seed)
    assert_pass_preserves(prog.module, pipeline, prog.kernel, prog.input_factory, n=2)
