"""How instruction semantics plug into the interpreter.

The interpreter executes a CTA's threads together: every register value is a
numpy array with one element per thread ("lane") of the threads currently
executing, so one Python-level step runs an instruction for many threads.
Semantics are *compiled* once per op: a compiler reads the op's modifiers,
source modifiers and constants up front and returns a plain function that
only does array arithmetic.

Value representation (all values are bit patterns):

=================  ===============================================
register type      array
=================  ===============================================
``!ori.r32/ur32``  ``np.uint32``, shape ``(n,)``
``!ori.r64/ur64``  ``np.uint64``, shape ``(n,)`` (low word = first register)
``!ori.r128``      ``np.uint32``, shape ``(n, 4)`` (element 0 = first register)
``!ori.p/up``      ``np.bool_``, shape ``(n,)``
=================  ===============================================

A compiled function receives one value per *present* source slot, in slot
order.  Register operands arrive as arrays of the executing lanes; constants
arrive already materialised as numpy scalars of the slot's representation
(integer immediates as ``np.uint32`` -- negative ones two's-complement -- or
``np.uint64`` for a 64-bit slot; float immediates as their IEEE bit pattern;
``c[bank][off]`` as the bank's word(s); RZ as 0; PT as ``np.True_``).  The
``not`` source modifier of predicate slots is applied before the call; the
``neg``/``abs`` modifiers are the semantics' business (their meaning depends on
the op: integer or float negation).  The function returns a tuple with one
array per result the op has (``len(op.results)``), each broadcast to the lane
count ``n`` it is given.
"""

from __future__ import annotations

import importlib
import pkgutil
from collections.abc import Callable, Sequence
from typing import Any, TypeVar

from xdsl.ir import Operation
from xdsl.utils.exceptions import DiagnosticException

OpFn = Callable[[Sequence[Any], int], tuple[Any, ...]]
"""A compiled op: ``fn(sources, n) -> results`` (``n`` is the lane count)."""

Compiler = Callable[[Any], OpFn]

_COMPILERS: dict[type[Operation], Compiler] = {}

_C = TypeVar("_C", bound=Compiler)


class InterpreterError(DiagnosticException):
    """An error of the interpreted program (or of the interpreter's coverage)."""


def compiles(*op_types: type[Operation]) -> Callable[[_C], _C]:
    """Register a compiler for one or more op classes."""

    def register(fn: _C) -> _C:
        for t in op_types:
            if t in _COMPILERS:
                raise ValueError(f"semantics for {t.name} registered twice")
            _COMPILERS[t] = fn
        return fn

    return register


def compile_op(op: Operation) -> OpFn:
    """The compiled semantics of ``op``; an ``InterpreterError`` if there are none."""
    _load_all()
    compiler = _COMPILERS.get(type(op))
    if compiler is None:
        raise InterpreterError(f"the interpreter has no semantics for {op.name}")
    return compiler(op)


def has_semantics(op_type: type[Operation]) -> bool:
    _load_all()
    return op_type in _COMPILERS


_LOADED = False


def _load_all() -> None:
    """Import the semantics modules (they register themselves)."""
    global _LOADED
    if _LOADED:
        return
    _LOADED = True
    # lazy: the semantics modules import this registry to register their
    # compilers, so they are found and loaded on the first look-up (a plugin
    # scan of this package), not imported here at module top.
    import ori_dialect.interpreter.semantics as pkg

    for mod in pkgutil.iter_modules(pkg.__path__):
        if mod.name != "registry":
            importlib.import_module(f"{pkg.__name__}.{mod.name}")
