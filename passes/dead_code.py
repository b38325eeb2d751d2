"""``ori-dead-code``: phase 16, *OriPerformLiveDeadFirst* (seed 001,
"Pipeline Placement": "Phase 16 OriPerformLiveDeadFirst -- DCE removes dead
loop bodies").

Removes every op whose results are all unused and that has no effect
besides its results, repeating until nothing changes (removing an op can
make the definitions of its operands dead; the walk goes backwards through
each block so a chain dies in one sweep, and sweeps repeat for values used
across blocks).

What has an effect is read from the metadata each op class declares once
(docs/architecture.md "Op facts"), never from opcode names:

* ops that are not ``is_side_effect_free()`` always stay: ``MEM.writes``
  (stores, atomics, ``MEMBAR``), ``SIDE_EFFECTS`` (calls, barriers,
  ``SHFL``/``VOTE``, ``NOP``, ``EXIT``), ``IS_BARRIER`` and
  ``WARP_COLLECTIVE``;
* terminators and ops with successors or regions (branches, returns) stay;
* an op with no results stays (``ori.pragma`` markers, stores);
* loads (``MEM.reads`` only) are removed when unused, as a compiler may --
  except loads with an ordering semantic (``acquire``/``strong``/...,
  anything but the default ``weak``), which order other memory accesses --
  and only while ``dead-loads=true`` (the default).

Predicate results are results like any other: an ``IADD3`` whose sum and
carry-outs are all unused is dead.  A guarded op whose results are unused is
dead too (its tied prior values lose a use).

Input invariants: SSA ``ori.func`` bodies (any stage; allocated code works
too, since only unused SSA results are considered).  Unused block arguments
stay: removing one means rewriting every branch that passes it, and the
register allocator gives an unused argument no register-pressure cost past
its edge copy.

``remarks=true`` prints one line per function with the count of removed
ops; ``stats=true`` prints the module total.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import ClassVar

from xdsl.context import Context
from xdsl.dialects.builtin import ModuleOp
from xdsl.ir import Operation
from xdsl.passes import ModulePass
from xdsl.traits import IsTerminator

from ori_dialect.ir.instruction import OriInstruction, OriOp
from passes.contract import CFG_ANALYSES, Requirement, count_per_function, option, require


def has_effect(op: Operation, *, dead_loads: bool = True) -> bool:
    """Whether removing ``op`` (with unused results) could change the program."""
    if not op.results or op.successors or op.regions or op.has_trait(IsTerminator):
        return True
    if not isinstance(op, OriOp):
        return True  # not ours: no metadata to trust
    cls = type(op)
    if not cls.is_side_effect_free():  # docs/architecture.md "Op facts"
        return True
    if cls.MEM.reads:
        if not dead_loads:
            return True
        if isinstance(op, OriInstruction) and op.is_ordered():
            return True
    return False


@dataclass(frozen=True)
class DeadCodePass(ModulePass):
    """Dead-code elimination: remove unused ops without effects, to a fixed point (phase 16).

    The rules are in the module docstring."""

    name = "ori-dead-code"
    REQUIRES: ClassVar[frozenset[Requirement]] = frozenset({Requirement.SSA})
    # only ops without successors are removed: blocks and edges stay
    PRESERVES: ClassVar[frozenset[type]] = CFG_ANALYSES

    dead_loads: bool = option(
        True, "ori: remove unused loads with the default (weak) ordering as well; loads with "
        "an ordering semantic always stay")
    remarks: bool = option(
        False, "ori: print one line per function with the count of removed ops to stderr")
    stats: bool = option(False, "ori: print the module's count of removed ops to stderr")

    def apply(self, ctx: Context, op: ModuleOp) -> None:
        require(self, op)
        count_per_function(op, self.run_function, pass_name=self.name, label="dead-code",
                           remarks=self.remarks, stats=self.stats)

    def run_function(self, func: Operation) -> int:
        removed = 0
        body = func.regions[0]
        changed = True
        while changed:
            changed = False
            for block in reversed(list(body.blocks)):
                op = block.last_op
                while op is not None:
                    prev = op.prev_op
                    if not any(r.uses for r in op.results) and not has_effect(
                        op, dead_loads=self.dead_loads
                    ):
                        op.detach()
                        op.erase()
                        removed += 1
                        changed = True
                    op = prev
        return removed


__all__ = ["DeadCodePass", "has_effect"]
