"""``ori-print-loops``: print the loop structure of every function (like LLVM's
``-passes='print<loops>'``), as computed by the loop part of *AnalyzeControlFlow*
(seed 001 "Loop Representation in Ori IR", phase 3).  The IR is unchanged.

Output, per ``ori.func`` (blocks are ``^bbN``, ``N`` = index in the body)::

    loops in @k:
      loop ^bb1 depth 1: blocks ^bb1 ^bb2 latches ^bb2 exiting ^bb1 exits ^bb3 preheader ^bb0
        loop ^bb2 depth 2: ...          (children follow their parent, indented)
      irreducible edge ^bb3 -> ^bb2
      irreducible region ^bb2 ^bb3 entries ^bb2 ^bb3
      unreachable ^bb7
      loop-depth ^bb0=0 ^bb1=1 ^bb2=2 ^bb3=1

``no loops`` replaces the loop lines of a function without loops;
``preheader none`` is printed when a loop has no preheader.
"""

from __future__ import annotations

import sys
from dataclasses import dataclass
from typing import ClassVar, TextIO

from xdsl.context import Context
from xdsl.dialects.builtin import ModuleOp
from xdsl.passes import ModulePass

from ori_dialect.analysis import (
    PRESERVES_ALL,
    AnalysisManager,
    LoopInfo,
    functions_of,
)
from passes.contract import Requirement, require


def _bbs(ids: object) -> str:
    return " ".join(f"^bb{b}" for b in sorted(ids))  # type: ignore[call-overload]


def format_loops(name: str, li: LoopInfo) -> list[str]:
    """The lines ``ori-print-loops`` prints for one function."""
    lines = [f"loops in @{name}:"]
    if not li.loops:
        lines.append("  no loops")
    for lp in li.outermost_first():
        pre = f"^bb{lp.preheader}" if lp.preheader is not None else "none"
        exiting = _bbs(lp.exiting_blocks) or "none"
        exits = _bbs(lp.exit_blocks) or "none"
        lines.append(
            "  " * lp.depth + f"loop ^bb{lp.header} depth {lp.depth}: blocks {_bbs(lp.blocks)} "
            f"latches {_bbs(lp.latches)} exiting {exiting} exits {exits} preheader {pre}"
        )
    for e in li.irreducible_edges:
        lines.append(f"  irreducible edge ^bb{e.src} -> ^bb{e.dst}")
    for r in li.irreducible_regions:
        lines.append(f"  irreducible region {_bbs(r.blocks)} entries {_bbs(r.entries)}")
    if li.cfg.unreachable:
        lines.append(f"  unreachable {_bbs(li.cfg.unreachable)}")
    lines.append("  loop-depth " + " ".join(f"^bb{b}={d}" for b, d in enumerate(li.depths())))
    return lines


@dataclass(frozen=True)
class PrintLoopsPass(ModulePass):
    """Print back edges, natural loops, nesting and irreducible flow per function."""

    name = "ori-print-loops"
    # any function: the CFG analyses need no SSA values
    REQUIRES: ClassVar[frozenset[Requirement]] = frozenset()
    PRESERVES: ClassVar[frozenset[type]] = PRESERVES_ALL

    def apply(self, ctx: Context, op: ModuleOp) -> None:
        require(self, op)
        self.print_module(op, sys.stdout)

    def print_module(self, op: ModuleOp, out: TextIO) -> None:
        am = AnalysisManager()
        for func in functions_of(op):
            name = func.sym_name.data  # type: ignore[attr-defined]
            out.write("\n".join(format_loops(name, am.get(LoopInfo, func))) + "\n")
        out.flush()
