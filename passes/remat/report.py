"""What ``ori-remat`` says (seed 002, "Diagnostic Strings", adapted to
ori's names): the ``dump-remat`` levels, remarks and statistics.

All lines go to stderr through ``passes.contract`` (``emit_line`` /
``emit_remark`` / ``emit_stats``):

* ``ori-remat: Skip rematerialization on @k`` whenever ``no-remat`` excludes
  a function (the seed prints it unconditionally), and ``ori-remat: warning:
  no-remat names @f, ...`` for a name that is no function of the module.
* ``dump-remat`` ``N >= 1``: ``ori-remat: @k: <text>``, the driver's
  decisions (the max live-in with its block, the register target and how it
  was found, one line per iteration); ``>= 2`` adds ``Block ^bbN: live-in = M`` for every
  block each iteration; ``>= 3`` one line per candidate (rematerializable or
  why not, the filter that rejected it, selected, each clone with its
  ``remat_`` / ``uclone_`` name); ``>= 4`` ``%v: Total pull-in cost = C
  (base B x use factor U)`` per candidate.
* ``dump-remat-iv``, ``dump-remat-load``, ``dump-simplify-live-out``: the
  same for IV demotion (``demoteIV``, ``newBaseIV``, ``iv_base_clone_``,
  ``substIV``), the load phase and NLO (``nloNewBit``, ``nloNewAdd``).
* ``remarks=true``: one ``remark: @k: ...`` line per rematerialized value,
  demoted IV and simplified live-out value, and one per transformation left
  undone (a reverted round, an IV whose range cannot be proven).
* ``stats=true``: ``ori-remat: @k: [max live A -> B] [max live-in C -> D]
  [target T] [rematerialized N] [clones M] [demoted IVs I] [live-out
  simplified L]`` per function.
"""

from __future__ import annotations

from dataclasses import dataclass, field

from passes.contract import emit_line, emit_remark

PASS = "ori-remat"


def label(name: str) -> str:
    """A value's name in the dumps: ``%hint``, or ``#N`` (its value number)
    for a value without a name hint (``ValueNumbering.names``)."""
    return name if name.startswith("#") else "%" + name


@dataclass
class Report:
    """Diagnostics of one function, printed as they happen."""

    func: str
    dump: int = 0
    dump_iv: int = 0
    dump_load: int = 0
    dump_nlo: bool = False
    remarks: bool = False
    counts: dict[str, int] = field(default_factory=lambda: {
        "rematerialized": 0, "clones": 0, "demoted IVs": 0, "live-out simplified": 0})
    phase: str = "main"
    """``main`` or ``load``: which dump level the candidate lines obey."""

    def line(self, text: str) -> None:
        emit_line(f"{PASS}: @{self.func}: {text}")

    def at(self, level: int) -> bool:
        """The driver's dump level reaches ``level`` (the load phase's own
        level while it runs)."""
        return (self.dump_load if self.phase == "load" else self.dump) >= level

    def dump_line(self, level: int, text: str) -> None:
        if self.at(level):
            self.line(text)

    def iv(self, text: str) -> None:
        if self.dump_iv:
            self.line(text)

    def nlo(self, text: str) -> None:
        if self.dump_nlo:
            self.line(text)

    def remark(self, text: str, block: int | None = None) -> None:
        if self.remarks:
            emit_remark(self.func, text, block=block)


__all__ = ["PASS", "Report", "label"]
