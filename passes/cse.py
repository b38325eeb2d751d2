"""``ori-cse``: the partial common-subexpression elimination of phase 29,
*GeneralOptimize* (seed 001, "Pipeline Placement": phase 35 "runs after
GeneralOptimize at phase 29, which performs partial CSE, giving it common
subexpressions to hoist"; "Why Four Instances?": "CSE eliminates redundant
expressions, exposing loop-invariant results").

The seed names the effect, not the algorithm; ori's is dominator-scoped
value numbering (the classic scoped hash table over the dominator tree):
walking the tree in pre-order, an op whose *key* equals that of an op in a
dominating position is removed and its results' uses read the dominating
op's results.  The key is everything that fixes the results: the op name,
the SSA operands (guard and tied prior included, so a guarded op matches
only the same guard, sense and prior), the properties (modifiers,
immediates, constant-bank operands) and the result types.

**Partial.**  What takes part, read from the op facts (docs/architecture.md
"Op facts"), never from opcode names:

* ``is_side_effect_free()`` ops that read no memory, or read only the
  constant bank (``MemSpace.CONST``: read-only while a kernel runs, so two
  ``LDC`` of one address agree);
* not ``is_volatile`` (a clock read differs between two executions);
* ops with results, without successors or regions;
* **constants** (``constant_value()`` known: ``MOV 0x4``, a ``PACK`` of
  immediates) and constant-bank loads (``LDC``) only within one block,
  and only with a copy at most ``constant-window`` instructions (default
  :data:`CONSTANT_WINDOW`) before them in that block.  Merging two
  far-apart copies of a value that one cheap instruction recomputes would
  keep a register live between them -- rematerialization's trade, not
  CSE's; close together (an unrolled loop body's copies) merging them
  saves the registers LICM would otherwise spend on each hoisted copy.
  A copy beyond the window stays and is the one later copies merge into.
  Why a window inside one block: ``dfma_div_sqrt`` (examples/cuda/fp64.cu)
  is one block in which the f64 division's exponent constants
  (``0x3ff00000``, ``-0x3ff``) reappear about 100 instructions later in the
  square root; merged, they stayed live through the division's peak (28
  registers, ptxas 27); recomputed there, 26 registers for two ``MOV``
  instructions.
  On the 136 sm_80 example kernels a window of 64 changed only that
  kernel's registers (and 2 instructions in one CUB kernel); 32 and 16
  lowered 3 and 13 more kernels by one register each at the same resident
  warps for 30 and 77 more instructions (benchmarks/README.md).

Loads of global, shared, local or generic memory never take part (a store
in between may change them; ori has no memory SSA).

Input invariants: SSA ``ori.func`` bodies with virtual or physical
registers (only SSA uses are rewritten).  Unreachable blocks are left alone.

``remarks=true`` prints per function ``cse [removed=N]``; ``stats=true`` the
module total.
"""

from __future__ import annotations

from collections.abc import Hashable, Sequence
from dataclasses import dataclass
from typing import ClassVar

from xdsl.context import Context
from xdsl.dialects.builtin import ModuleOp
from xdsl.ir import Operation, SSAValue
from xdsl.passes import ModulePass
from xdsl.utils.exceptions import PassFailedException

from ori_dialect.analysis.cfg import CFG
from ori_dialect.analysis.dominators import DominatorTree
from ori_dialect.ir.instruction import OriInstruction
from ori_dialect.ir.metadata import MemSpace
from passes.contract import CFG_ANALYSES, Requirement, count_per_function, option, require

_IGNORED_ATTRIBUTES = frozenset({"loc"})
"""Discardable attributes that do not affect the results (the PTX source line)."""


def cse_key(op: Operation, operands: Sequence[SSAValue] | None = None) -> Hashable | None:
    """The value-numbering key of ``op``, or None when it does not take part
    (module docstring, "Partial").  ``operands`` replaces ``op.operands`` in
    the key (a caller that numbers values through classes of its own)."""
    if not isinstance(op, OriInstruction) or not op.results or op.successors or op.regions:
        return None
    cls = type(op)
    if not cls.is_side_effect_free() or op.is_volatile:
        return None
    if cls.MEM.reads and cls.SPACE is not MemSpace.CONST:
        return None
    props = tuple(sorted(op.properties.items()))
    attrs = tuple(sorted((k, v) for k, v in op.attributes.items()
                         if k not in _IGNORED_ATTRIBUTES))
    srcs = tuple(op.operands if operands is None else operands)
    return (op.name, srcs, props, attrs, tuple(r.type for r in op.results))


def is_block_local(op: OriInstruction) -> bool:
    """A constant or a constant-bank load: merged only with a copy in the
    same block."""
    if type(op).SPACE is MemSpace.CONST:
        return True
    return any(op.constant_value(i) is not None for i in range(len(op.results)))


CONSTANT_WINDOW = 64
"""Default ``constant-window``: how many instructions back in its block a
constant's copy may be and still be merged (module docstring)."""


def merge_into(op: Operation, prev: Operation) -> None:
    """Erase ``op``, a repeat of ``prev``: its readers read ``prev``'s results."""
    for old, new in zip(op.results, prev.results, strict=True):
        old.replace_all_uses_with(new)
    op.detach()
    op.erase()


def cse_function(func: Operation, constant_window: int = CONSTANT_WINDOW) -> int:
    """Remove the ops of ``func`` that repeat a dominating op; the count
    removed.  ``constant_window`` bounds the distance, in instructions of one
    block, over which a constant is merged (0: no bound)."""
    cfg = CFG.compute(func)
    dom = DominatorTree(cfg)
    if not cfg.num_blocks or not cfg.rpo:
        return 0
    scoped: dict[Hashable, Operation] = {}
    removed = 0
    # pre-order over the dominator tree; ("exit", b) pops b's scope
    work: list[tuple[bool, int]] = [(True, cfg.rpo[0])]
    added: dict[int, list[Hashable]] = {}
    while work:
        enter, b = work.pop()
        if not enter:
            for k in added.pop(b, ()):
                del scoped[k]
            continue
        mine: list[Hashable] = []
        # block-local keys -> (position in the block, the copy kept)
        local: dict[Hashable, tuple[int, Operation]] = {}
        for pos, op in enumerate(list(cfg.blocks[b].ops)):
            key = cse_key(op)
            if key is None:
                continue
            assert isinstance(op, OriInstruction)
            if is_block_local(op):
                near = local.get(key)
                if near is None or (constant_window and pos - near[0] > constant_window):
                    local[key] = (pos, op)
                    continue
                merge_into(op, near[1])
                removed += 1
                continue
            prev = scoped.get(key)
            if prev is None:
                scoped[key] = op
                mine.append(key)
                continue
            merge_into(op, prev)
            removed += 1
        added[b] = mine
        work.append((False, b))
        work.extend((True, c) for c in reversed(dom.children[b]))
    return removed


@dataclass(frozen=True)
class CsePass(ModulePass):
    """Partial CSE by dominator-scoped value numbering (phase 29's, seed 001).

    The rules are in the module docstring."""

    name = "ori-cse"
    REQUIRES: ClassVar[frozenset[Requirement]] = frozenset({Requirement.SSA})
    # only ops without successors are removed: blocks and edges stay
    PRESERVES: ClassVar[frozenset[type]] = CFG_ANALYSES

    remarks: bool = option(
        False, "ori: print one line per function with the count of removed ops to stderr")
    stats: bool = option(False, "ori: print the module's count of removed ops to stderr")
    constant_window: int = option(
        CONSTANT_WINDOW, "ori: a constant (an immediate, a constant-bank load) merges only with "
        "a copy at most this many instructions before it in its block; 0: any copy in the block")

    def apply(self, ctx: Context, op: ModuleOp) -> None:
        if self.constant_window < 0:
            raise PassFailedException(
                f"{self.name}: constant-window must be >= 0, got {self.constant_window}")
        require(self, op)
        count_per_function(op, lambda f: cse_function(f, self.constant_window),
                           pass_name=self.name, label="cse",
                           remarks=self.remarks, stats=self.stats)


@dataclass(frozen=True)
class CseLatePass(CsePass):
    """The same CSE as phase 58, *GeneralOptimizeLate* (seed 001 "OriLoopFusion":
    "Phase 59 runs after GeneralOptimizeLate (phase 58)").

    Why ori-ptxas runs it: ``ori-hoist-invariants-early`` (35) moves every
    unrolled copy of an invariant computation into the same preheader -- 16
    copies of one divisor's reciprocal, 28 ``MOV 0x0`` in CUB's histogram
    sweep -- and each copy then holds a register across the whole loop.  Once
    they share a block they are common subexpressions, and a GeneralOptimize
    round after LICM merges them (max live 174 -> 87 on that kernel)."""

    name = "ori-cse-late"


__all__ = ["CONSTANT_WINDOW", "CseLatePass", "CsePass", "cse_function", "cse_key",
           "is_block_local", "merge_into"]
