"""Pass contracts in code: option descriptions, requirements, preserved analyses
and the one way a pass writes remarks and statistics
(``docs/architecture.md``, "Passes and their contracts").

The model is LLVM's ``RegAllocGreedy.cpp``: every ``cl::opt`` carries a
description and a default, ``getRequiredProperties`` states what the input
must satisfy, ``PreservedAnalyses`` what stays valid.  An ori pass states the
same three things as class-level data that code (``ori-opt --help-passes``,
the tests, the analysis manager) reads:

**Options.**  Each option is a dataclass field made by :func:`option`, which
keeps xDSL's pass-option machinery (``-p 'pass{opt-name=..}'`` parsing,
defaults, ``get_pass_option_infos``) unchanged and adds a description::

    loop_unroll: bool = option(True, "LoopUnroll (knob 437): master enable of the pass")

:func:`option_infos` reads them back: the name as users type it
(``loop-unroll``), the type, the default and the description.

**Requirements.**  A pass sets ``REQUIRES: ClassVar[frozenset[Requirement]]``
and calls :func:`require` at the start of ``apply``.  Each
:class:`Requirement` has a cheap checker (linear in the function at most,
or one loop analysis) that raises :class:`ContractViolation` naming the pass,
the function, what is violated and which pass establishes it::

    ori-loop-unroll: @k: loop at ^bb2 is not in simplified form (no dedicated
    preheader); run ori-loop-simplify first

A requirement the pass diagnoses itself, with a message or exception class
its users rely on (``ori-stats`` on unallocated input), is listed in
``SELF_CHECKED`` too: it is part of the contract (``--help-passes`` shows
it) but :func:`require` leaves it to the pass.

**Preserved analyses.**  ``PRESERVES: ClassVar[frozenset[type]]`` as
:mod:`ori_dialect.analysis.manager` defines it (:data:`PRESERVES_ALL` for
passes that do not change the IR; :data:`CFG_ANALYSES` for passes that
rewrite operations but keep every block and edge).

**Remarks and statistics.**  :func:`emit_remark`, :func:`emit_stats` and
:func:`emit_line` write to stderr (looked up at each call, so that captured
streams work); every pass writes its diagnostics through them.  The formats
differ per pass and are part of the recorded outputs, so the helpers take
what varies as parameters instead of normalising the texts.
"""

from __future__ import annotations

import dataclasses
import sys
from collections.abc import Callable, Iterable
from enum import Enum
from typing import TYPE_CHECKING, Any, NamedTuple, TypeVar

from xdsl.dialects.builtin import ModuleOp
from xdsl.ir import Operation, SSAValue
from xdsl.passes import ModulePass
from xdsl.utils.exceptions import PassFailedException
from xdsl.utils.hints import type_repr

if TYPE_CHECKING:
    from ori_dialect.ops.func import FuncOp

# The analyses, the register types and the ops are imported where they are
# used: every pass module imports this one for ``option`` and
# ``Requirement``, and ``ori-opt -p ori-ptxas`` on an empty module should not
# load numpy and the dialect for nothing (issue 20, start-up).

T = TypeVar("T")

DOC_KEY = "doc"
"""Key of an option's description in its dataclass field's ``metadata``."""

def __getattr__(name: str) -> Any:
    # CFG_ANALYSES: ``PRESERVES`` of a pass that keeps every block and every
    # edge (it changes operations only): the block-level analyses stay
    # valid, liveness does not.  Built on first use (the note at the imports).
    if name == "CFG_ANALYSES":
        from ori_dialect.analysis.cfg import CFG  # lazy: the note at the imports
        from ori_dialect.analysis.dominators import DominatorTree  # lazy: the same
        from ori_dialect.analysis.loops import LoopInfo  # lazy: the same

        value = frozenset({CFG, DominatorTree, LoopInfo})
        globals()["CFG_ANALYSES"] = value
        return value
    raise AttributeError(f"module {__name__!r} has no attribute {name!r}")


# ---------------------------------------------------------------------------
# options


def option(default: T, doc: str) -> T:
    """A pass option: a dataclass field with ``default`` and a description.

    Typed as returning ``T`` (as :func:`dataclasses.field` is) so that
    ``x: int = option(3, "...")`` type-checks.  Defaults must be immutable
    (``int``, ``float``, ``bool``, ``str``, ``None``, tuples), as xDSL's pass
    options are.
    """
    if not doc.strip():
        raise ValueError("a pass option needs a description")
    return dataclasses.field(default=default, metadata={DOC_KEY: doc})  # type: ignore[return-value]


class OptionInfo(NamedTuple):
    """One option of a pass as ``--help-passes`` shows it."""

    name: str
    """As users type it in ``-p 'pass{name=..}'`` (kebab-case)."""
    type: str
    default: str
    """As users would type it (``true``, ``0.25``, ``""`` for an empty string);
    ``unset`` for ``None``."""
    doc: str


def format_default(value: object) -> str:
    if value is None:
        return "unset"
    if isinstance(value, bool):
        return "true" if value else "false"
    if isinstance(value, str):
        return value if value else '""'
    if isinstance(value, tuple):
        return ",".join(format_default(v) for v in value)  # pyright: ignore[reportUnknownVariableType, reportUnknownArgumentType]
    return str(value)


def option_infos(pass_cls: type[ModulePass]) -> list[OptionInfo]:
    """Name, type, default and description of every option of ``pass_cls``."""
    out: list[OptionInfo] = []
    for f in dataclasses.fields(pass_cls):
        if f.default is not dataclasses.MISSING:
            default = format_default(f.default)
        elif f.default_factory is not dataclasses.MISSING:
            default = format_default(f.default_factory())
        else:
            default = "required"
        # under ``from __future__ import annotations`` the type is its source text
        typ = f.type if isinstance(f.type, str) else type_repr(f.type)
        out.append(OptionInfo(f.name.replace("_", "-"), typ, default,
                              str(f.metadata.get(DOC_KEY, ""))))
    return out


def summary(pass_cls: type[ModulePass]) -> str:
    """The first line of the pass class's docstring."""
    doc = (pass_cls.__doc__ or "").strip()
    return doc.splitlines()[0].strip().replace("``", "") if doc else ""


# ---------------------------------------------------------------------------
# requirements


class ContractViolation(PassFailedException):
    """The input is outside what the pass accepts (a requirement does not hold).

    The fuzz runner (``ori_dialect.testing.fuzz``) counts it as 'not
    applicable', not as a failure of the pass."""

    not_applicable = True


class Requirement(Enum):
    """What a pass may require of its input.  The value is the phrase
    ``--help-passes`` shows."""

    SSA = "SSA form"
    """Every operand is defined in its function, and before its use when
    defined in the same block (dominance across blocks is the verifier's)."""
    UNALLOCATED = "unallocated registers"
    """No value has a physical register yet (fixed registers RZ/PT/URZ/UPT
    aside): the input of register allocation and of the SSA rewrites."""
    ALLOCATED = "allocated registers"
    """Every register value has a physical register (``ori-regalloc`` ran)."""
    LOOP_SIMPLIFIED = "loop-simplified form"
    """Every natural loop has a dedicated preheader (its only entry edge,
    from a block whose only out-edge it is) and a single latch."""
    TARGET = "target attribute"
    """The module names its SM target (``ori.target``)."""

    @property
    def remedy(self) -> str:
        """What establishes the requirement, as the diagnostic's last words."""
        return _REMEDY[self]


_REMEDY: dict[Requirement, str] = {
    Requirement.SSA: "the PTX importer and the ori builder produce SSA form",
    Requirement.UNALLOCATED: "run this pass before ori-regalloc",
    Requirement.ALLOCATED: "run ori-regalloc first",
    Requirement.LOOP_SIMPLIFIED: "run ori-loop-simplify first",
    Requirement.TARGET: "set one with ori-opt --target",
}


def _func_name(func: FuncOp) -> str:
    return func.sym_name.data


def _values(func: FuncOp) -> Iterable[SSAValue]:
    for op in func.walk():
        yield from op.results
        for r in op.regions:
            for b in r.blocks:
                yield from b.args


def _violates_ssa(func: FuncOp) -> str | None:
    # One walk in program order.  An operand defined by an op of the same
    # block must have been visited already; any other definition must be a
    # block argument of this function's region or an op in one of its blocks
    # (ori.func is the only op with a region).  Kept to a parent lookup and a
    # set test per operand: it runs at the start of every pass.
    region = func.body
    blocks = set(region.blocks)
    for block in region.blocks:
        seen: set[Operation] = set()
        for op in block.ops:
            for i, v in enumerate(op.operands):
                owner = v.owner
                parent = owner.parent
                if parent is block:
                    if owner not in seen:
                        return f"operand {i} of {op.name} is used before its definition"
                elif parent is not region and parent not in blocks:
                    return f"operand {i} of {op.name} is not defined in the function"
            seen.add(op)
    return None


def _violates_unallocated(func: FuncOp) -> str | None:
    from ori_dialect.ir.registers import OriRegisterType  # lazy: see the note at the imports

    for v in _values(func):
        t = v.type
        if isinstance(t, OriRegisterType) and t.phys_index is not None and not t.is_fixed:
            return f"a value already has the physical register {t.register_name.data}"
    return None


def _violates_allocated(func: FuncOp) -> str | None:
    from ori_dialect.ir.registers import OriRegisterType  # lazy: see the note at the imports

    for v in _values(func):
        t = v.type
        if isinstance(t, OriRegisterType) and t.phys_index is None:
            return f"a value of type {type(t).__name__} has no physical register"
    return None


def _violates_loop_simplified(func: FuncOp) -> str | None:
    from ori_dialect.analysis.loops import LoopInfo  # lazy: see the note at the imports

    li = LoopInfo.compute(func)
    cfg = li.cfg
    for lp in li.loops:
        if lp.preheader is None or len(cfg.out_edges[lp.preheader]) != 1:
            why = "no dedicated preheader"
        elif len(lp.latches) != 1:
            why = f"{len(lp.latches)} latches"
        else:
            continue
        return f"loop at ^bb{lp.header} is not in simplified form ({why})"
    return None


def _violates_target(func: FuncOp) -> str | None:
    return None if func.target_name() is not None else "the module has no ori.target attribute"


_CHECKERS: dict[Requirement, Callable[[FuncOp], str | None]] = {
    Requirement.SSA: _violates_ssa,
    Requirement.UNALLOCATED: _violates_unallocated,
    Requirement.ALLOCATED: _violates_allocated,
    Requirement.LOOP_SIMPLIFIED: _violates_loop_simplified,
    Requirement.TARGET: _violates_target,
}


def violation(req: Requirement, func: FuncOp) -> str | None:
    """What in ``func`` violates ``req``, or None when it holds."""
    return _CHECKERS[req](func)


def check_function(pass_name: str, func: FuncOp, reqs: Iterable[Requirement]) -> None:
    """Raise :class:`ContractViolation` for the first requirement ``func`` violates."""
    for req in sorted(reqs, key=lambda r: list(Requirement).index(r)):
        why = violation(req, func)
        if why is not None:
            raise ContractViolation(f"{pass_name}: @{_func_name(func)}: {why}; {req.remedy}")


def require(pass_: ModulePass, module: ModuleOp) -> None:
    """Check the requirements ``pass_`` declares (``REQUIRES`` less
    ``SELF_CHECKED``) on every function of ``module``."""
    reqs = requirements_of(pass_) - frozenset(getattr(pass_, "SELF_CHECKED", frozenset()))
    if not reqs:
        return
    for func in _functions(module):
        check_function(pass_.name, func, reqs)


def _functions(module: Operation) -> Iterable[FuncOp]:
    # Does not descend into function bodies (module.walk() would visit every op).
    # The ops are imported at the first op met: none for an empty module.
    func_op: type[FuncOp] | None = None
    todo = [module]
    while todo:
        op = todo.pop()
        for region in op.regions:
            for block in region.blocks:
                for inner in block.ops:
                    if func_op is None:
                        from ori_dialect.ops.func import FuncOp as func_op  # lazy: the note
                    if isinstance(inner, func_op):
                        yield inner
                    elif inner.regions:
                        todo.append(inner)


def requirements_of(pass_: ModulePass | type[ModulePass]) -> frozenset[Requirement]:
    return frozenset(getattr(pass_, "REQUIRES", frozenset()))


def preserves_text(preserved: frozenset[type]) -> str:
    """``PRESERVES`` as ``--help-passes`` shows it."""
    from ori_dialect.analysis.manager import PRESERVES_ALL, AllAnalyses  # lazy: the note

    if AllAnalyses in preserved or preserved == PRESERVES_ALL:
        return "all analyses (does not change the IR)"
    if not preserved:
        return "nothing"
    return ", ".join(sorted(t.__name__ for t in preserved))


# ---------------------------------------------------------------------------
# remarks and statistics


def emit_line(line: str) -> None:
    """Write one preformatted diagnostic line to stderr."""
    sys.stderr.write(line + "\n")


def emit_remark(func: str, msg: str, *, block: int | None = None,
                pass_name: str | None = None) -> None:
    """One remark about function ``@func``.

    Without ``pass_name``: ``remark: @f: msg``, or ``remark: @f ^bbN: msg``
    with ``block`` (the loop passes); with it: ``<pass>: @f: remark: msg``
    (``ori-regalloc``)."""
    if pass_name is not None:
        emit_line(f"{pass_name}: @{func}: remark: {msg}")
    else:
        where = f" ^bb{block}" if block is not None else ""
        emit_line(f"remark: @{func}{where}: {msg}")


def emit_stats(pass_name: str, text: str) -> None:
    """One module-level statistics line: ``<pass>: text``."""
    emit_line(f"{pass_name}: {text}")


def flush_diagnostics() -> None:
    """Flush stderr (passes whose remarks interleave with stdout listings)."""
    sys.stderr.flush()


def count_per_function(
    module: ModuleOp, run: Callable[[FuncOp], int], *, pass_name: str, label: str,
    remarks: bool, stats: bool, key: str = "removed",
) -> int:
    """Run ``run`` on every function of ``module`` and report what it counted:
    with ``remarks`` one ``label [key=N]`` remark per function, with
    ``stats`` the module total as ``pass_name: [key=N]``.  Returns the total."""
    total = 0
    for func in _functions(module):
        n = run(func)
        total += n
        if remarks:
            emit_remark(_func_name(func), f"{label} [{key}={n}]")
    if stats:
        emit_stats(pass_name, f"[{key}={total}]")
    if remarks or stats:
        flush_diagnostics()
    return total


def describe(pass_cls: type[ModulePass]) -> dict[str, Any]:
    """Everything ``--help-passes`` shows about one pass."""
    return {
        "name": pass_cls.name,
        "summary": summary(pass_cls),
        "requires": sorted(r.value for r in requirements_of(pass_cls)),
        "preserves": preserves_text(frozenset(getattr(pass_cls, "PRESERVES", frozenset()))),
        "options": option_infos(pass_cls),
    }


__all__ = [
    "CFG_ANALYSES",  # noqa: F822 -- made on first use by __getattr__
    "DOC_KEY",
    "ContractViolation",
    "OptionInfo",
    "Requirement",
    "check_function",
    "count_per_function",
    "describe",
    "emit_line",
    "emit_remark",
    "emit_stats",
    "flush_diagnostics",
    "format_default",
    "option",
    "option_infos",
    "preserves_text",
    "require",
    "requirements_of",
    "summary",
    "violation",
]
