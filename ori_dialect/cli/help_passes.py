"""``ori-opt --help-passes [NAME]``: every ori pass with its contract and options.

What is printed is read from the pass classes (``passes.contract``): the first
line of the class docstring, ``REQUIRES`` (a requirement the pass diagnoses
itself is marked so), ``PRESERVES``, and for each option its name as typed in
``-p 'pass{name=value}'``, its type, its default and its description
(``docs/architecture.md``, "Passes and their contracts")::

    ori-dead-code -- Dead-code elimination (module docstring).
      requires:  SSA form
      preserves: CFG, DominatorTree, LoopInfo
      options:
        dead-loads: bool = true
            ori: remove unused loads with the default (weak) ordering as well; ...
"""

from __future__ import annotations

import textwrap
from collections.abc import Callable, Mapping

from xdsl.passes import ModulePass

from passes.contract import option_infos, preserves_text, requirements_of, summary

WIDTH = 100
"""Descriptions are wrapped to this many columns."""


def format_pass(pass_cls: type[ModulePass]) -> list[str]:
    """The help lines of one pass."""
    lines = [f"{pass_cls.name} -- {summary(pass_cls)}" if summary(pass_cls) else pass_cls.name]
    self_checked = frozenset(getattr(pass_cls, "SELF_CHECKED", frozenset()))
    reqs = sorted(requirements_of(pass_cls), key=lambda r: r.value)
    req_text = ", ".join(
        r.value + (" (diagnosed by the pass)" if r in self_checked else "") for r in reqs
    )
    lines.append(f"  requires:  {req_text or 'nothing'}")
    lines.append(
        f"  preserves: {preserves_text(frozenset(getattr(pass_cls, 'PRESERVES', frozenset())))}"
    )
    infos = option_infos(pass_cls)
    if not infos:
        lines.append("  options:   none")
        return lines
    lines.append("  options:")
    for info in infos:
        lines.append(f"    {info.name}: {info.type} = {info.default}")
        lines.extend(textwrap.wrap(info.doc or "(no description)", WIDTH,
                                   initial_indent=" " * 8, subsequent_indent=" " * 8))
    return lines


def format_passes(
    factories: Mapping[str, Callable[[], type[ModulePass]]], name: str | None = None
) -> str:
    """Help for every pass of ``factories`` (registry order), or for ``name`` only.

    Raises KeyError for a name that is not registered."""
    if name:
        return "\n".join(format_pass(factories[name]())) + "\n"
    blocks = ["\n".join(format_pass(f())) for f in factories.values()]
    return "\n\n".join(blocks) + "\n"


__all__ = ["WIDTH", "format_pass", "format_passes"]
