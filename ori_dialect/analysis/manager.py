"""A small cached analysis manager in the LLVM style (docs/architecture.md "Analyses";
the analyses themselves re-create seed 001's *AnalyzeControlFlow*, phase 3).

An **analysis** is any class with a classmethod
``compute(func, am) -> instance``; it may ask ``am`` for the analyses it
builds on (``LoopInfo`` asks for ``CFG`` and ``DominatorTree``).  Results are
cached per function, keyed by the ``FuncOp`` object itself::

    am = AnalysisManager()
    loops = am.get(LoopInfo, func)        # computes CFG, DominatorTree, LoopInfo
    am.get(LoopInfo, func) is loops       # True: cached

**How a pass states what it preserves.**  A pass class sets
``PRESERVES: ClassVar[frozenset[type]]`` to the analysis classes whose results
stay valid after it ran; :data:`PRESERVES_ALL` means it changed nothing (print
passes).  A pass without the attribute preserves nothing.
:func:`run_and_invalidate` applies a pass to a module and then drops, for
every function of the module, each cached result the pass does not preserve::

    class MyPass(ModulePass):
        name = "ori-my-pass"
        PRESERVES: ClassVar[frozenset[type]] = frozenset({CFG, DominatorTree, LoopInfo})
        ...

    run_and_invalidate(MyPass(), module, am)

A pass that drives the manager itself calls ``am.invalidate(func, preserved)``
after changing ``func``.
"""

from __future__ import annotations

from collections.abc import Iterable
from typing import Any, Protocol, TypeVar

from xdsl.context import Context
from xdsl.dialects.builtin import ModuleOp
from xdsl.ir import Operation
from xdsl.passes import ModulePass

from ori_dialect.ir.traits import OriCallable

T = TypeVar("T")


class Analysis(Protocol):
    """What the manager needs of an analysis class."""

    @classmethod
    def compute(cls, func: Operation, am: AnalysisManager) -> Any: ...


class AllAnalyses:
    """Marker: stands for every analysis in a ``PRESERVES`` set."""


PRESERVES_ALL: frozenset[type] = frozenset({AllAnalyses})
"""``PRESERVES`` value of a pass that does not change the IR."""


class AnalysisManager:
    """Computes analyses on demand and caches them per function."""

    def __init__(self) -> None:
        self._cache: dict[Operation, dict[type, object]] = {}
        self.computed: int = 0
        """How many analysis results were computed (for tests and statistics)."""

    def get(self, analysis: type[T], func: Operation) -> T:
        """The result of ``analysis`` on ``func``, computed at most once until invalidated."""
        per = self._cache.setdefault(func, {})
        res = per.get(analysis)
        if res is None:
            res = analysis.compute(func, self)  # type: ignore[attr-defined]
            self.computed += 1
            # compute() may have invalidated or refilled the cache meanwhile
            self._cache.setdefault(func, {})[analysis] = res
        return res  # type: ignore[return-value]

    def cached(self, analysis: type[T], func: Operation) -> T | None:
        """The cached result, or None; never computes."""
        return self._cache.get(func, {}).get(analysis)  # type: ignore[return-value]

    def invalidate(self, func: Operation, preserved: Iterable[type] = ()) -> None:
        """Drop every cached result for ``func`` whose class is not in ``preserved``."""
        keep = frozenset(preserved)
        if AllAnalyses in keep:
            return
        per = self._cache.get(func)
        if per is None:
            return
        for k in [k for k in per if k not in keep]:
            del per[k]
        if not per:
            del self._cache[func]

    def invalidate_all(self) -> None:
        self._cache.clear()


def preserved_by(pass_: ModulePass | type[ModulePass]) -> frozenset[type]:
    """The ``PRESERVES`` set a pass declares (empty when it declares none)."""
    return frozenset(getattr(pass_, "PRESERVES", frozenset()))


def functions_of(module: Operation) -> list[Operation]:
    """Every ``ori.func`` in ``module`` (walks nested ops; a function is an op
    with the ``OriCallable`` trait and a body, so the analyses need not import
    the ops; an ``ori.runtime_func`` declaration has no body to work on)."""
    found: list[Operation] = []
    # Pre-order, as module.walk() would list them, without entering function
    # bodies (functions do not nest): a walk of every op cost each pass
    # 0.5 s on a 30k-instruction kernel (issue 20).
    stack = [module]
    while stack:
        op = stack.pop()
        if op.get_trait(OriCallable) is not None:
            if op.regions and op.regions[0].first_block is not None:
                found.append(op)
            continue
        for region in reversed(op.regions):
            for block in reversed(region.blocks):
                stack.extend(reversed(block.ops))
    return found


def run_and_invalidate(
    pass_: ModulePass, module: ModuleOp, am: AnalysisManager, ctx: Context | None = None
) -> None:
    """Apply ``pass_`` to ``module`` and invalidate what it does not preserve, for
    every function cached in ``am`` (functions the pass erased included)."""
    pass_.apply(ctx if ctx is not None else Context(), module)
    keep = preserved_by(pass_)
    for func in list(am._cache):  # pyright: ignore[reportPrivateUsage]
        am.invalidate(func, keep)


__all__ = [
    "PRESERVES_ALL",
    "AllAnalyses",
    "Analysis",
    "AnalysisManager",
    "functions_of",
    "preserved_by",
    "run_and_invalidate",
]
