"""``ori-strength-reduce``: phase 21, *OriStrengthReduce* (seed 001,
"Pipeline Placement": "induction variable strength reduction"; "Phase 22
(unrolling) runs after strength reduction so that induction variable
simplifications are already applied, avoiding redundant computation in
unrolled copies").

The seeds name the phase and its place (after loop simplification, 18,
before unrolling, 22) but give no algorithm; ori's is the classic one
(Cocke and Kennedy, "An algorithm for reduction of operator strength",
CACM 1977; Allen, Cocke and Kennedy, "Reduction of operator strength",
1981), restricted to what is exact on 32-bit registers.

**Input invariants.**  SSA form, unallocated registers.  Loops in the
canonical form ``ori-loop-simplify`` gives (a dedicated preheader ending in
an unguarded ``BRA`` to the header, one latch ending in a ``BRA``); other
loops are left alone with a remark.

**Basic IVs.**  A header argument ``i`` whose back-edge value is an
unguarded ``IADD3 i, s, RZ`` (any operand order), the stride ``s``
loop-invariant: an immediate, a ``c[bank][offset]`` operand or a value
defined outside the loop.

**Derived values.**  The single result of an unguarded op inside the loop
that is affine in the basic IVs modulo 2^32, built from them and
loop-invariant operands by

* ``IADD3`` without ``.X`` (a derived operand may be negated; an invariant
  one may also be inverted: it only adds a constant);
* ``IMAD`` (``.LO``, no ``.X``): one factor derived, the other invariant, the
  addend derived or invariant;
* ``LEA`` (not ``.HI``, no ``.X``): ``(a << k) + b``, ``a`` derived;
* ``SHF.L`` (not ``.HI``) and ``SHL`` by an immediate below 32: the low word
  is ``lo << k`` whatever the high word.

For every such ``f``, ``f(i + s) = f(i) + L(s)`` with ``L`` linear, so the
value can be carried around the loop instead of recomputed.  A *root* is a
derived value read by something other than a derived op (a memory access,
a compare, a value leaving the loop); its *cone* is the derived ops it is
computed from.

**The rewrite** of a root ``r``: a new header argument ``d`` (SSA name hint
``sr``); the preheader passes ``f(init)`` -- the cone cloned with every IV
replaced by its initial value, so the same ops compute it -- and the latch
passes ``d + L(s)``, ``L(s)`` folded to an immediate when the strides and
the multipliers are constants, else computed once in the preheader.  Every
read of ``r`` reads ``d``; the cone ops nothing reads any more go.

**Profitability.**  ``d`` costs one register across the loop and one add
per iteration, so a root is reduced only when the ops it frees (the cone
ops that no unreduced root and no other reader still needs) number at
least ``1 + min-gain`` (default ``min-gain=1``: every reduction shortens
the loop body).  Roots are tried in program order, repeatedly, so a cone
shared by several roots goes once they are all reduced.  ``min-gain=0``
(a debug knob) reduces roots that only move an op to the latch, and
``min-gain=-1`` every root: the rare paths for the fuzzer.
``outer-loops=false`` reduces innermost loops only: in a loop that contains
loops the new value stays live through the inner loops, where register
pressure peaks.  Measured on the 135 example kernels
(``benchmarks/codesize_vs_ptxas.py``) reducing outer loops too is better
(three tensor-core kernels need 1 to 3 fewer registers, one CUB radix-sort
kernel one more), so it is the default.

**Families.**  Reduced roots that differ only by a constant (``x + 0x100``,
``x + 0x200`` of the same ``x``, as nvcc's unrolled shared-memory stores
compute them) share one carried value: the first in program order gets the
new header argument and the others read ``d + K`` (one IADD3 where the root
was, which phase 29's address-offset rule folds into the access).

**Not done** (remarks with ``remarks=true``): the 64-bit ``IMAD.WIDE`` of an
IV is not turned into a pointer increment -- the sign or zero extension
commutes with the IV step only when the IV provably does not wrap, and a
64-bit increment costs two adds where ``IMAD.WIDE`` is one; ptxas 13.0 too
keeps ``IMAD.WIDE`` per iteration in such loops (``cuobjdump -sass`` of a
grid-stride loop).  The exit test keeps reading the basic IV (no linear
function test replacement).

``remarks=true`` prints one remark per reduced root and per loop that is
skipped; ``stats=true`` the module totals.
"""

from collections import Counter
from collections.abc import Callable
from dataclasses import dataclass
from typing import ClassVar

from xdsl.context import Context
from xdsl.dialects.builtin import ModuleOp
from xdsl.ir import BlockArgument, Operation, SSAValue
from xdsl.passes import ModulePass
from xdsl.utils.exceptions import PassFailedException

from ori_dialect.analysis import functions_of
from ori_dialect.analysis.cfg import CFG
from ori_dialect.analysis.dominators import DominatorTree
from ori_dialect.analysis.loops import LoopInfo
from ori_dialect.ops.func import FuncOp
from passes.contract import Requirement, emit_remark, emit_stats, flush_diagnostics, option, require
from passes.loop_utils import signed_imm32
from passes.strength_reduce.affine import candidates, family, loop_shape, select_roots
from passes.strength_reduce.rewrite import Emitter, Step, carry, offset_from, sweep


@dataclass(frozen=True)
class StrengthReducePass(ModulePass):
    """Derived induction variables carried around loops (module docstring)."""

    name = "ori-strength-reduce"

    REQUIRES: ClassVar[frozenset[Requirement]] = frozenset(
        {Requirement.SSA, Requirement.UNALLOCATED})
    PRESERVES: ClassVar[frozenset[type]] = frozenset()

    min_gain: int = option(
        1, "ori: ops a reduction must remove from the loop beyond the add it costs "
           "(0: also reductions that only move an op; -1: every root, a debug knob)")
    outer_loops: bool = option(
        True, "ori: reduce in loops that contain loops too (false: innermost loops only; the "
              "new value is then live through the inner loops)")
    remarks: bool = option(False, "ori: print one remark per reduced root and per skipped loop")
    stats: bool = option(False, "ori: print the module's totals to stderr")

    def apply(self, ctx: Context, op: ModuleOp) -> None:
        if self.min_gain < -1:
            raise PassFailedException(
                f"ori-strength-reduce: min-gain must be -1 or more, got {self.min_gain}")
        require(self, op)
        totals: Counter[str] = Counter()
        for func in functions_of(op):
            assert isinstance(func, FuncOp)
            totals.update(self.run_function(func, self._remark(func)))
        if self.stats:
            emit_stats(self.name, " ".join(f"[{k}={totals[k]}]" for k in
                                           ("loops", "roots", "reduced", "offsets", "ops removed",
                                            "ops added", "wide kept")))
        if self.remarks or self.stats:
            flush_diagnostics()

    def _remark(self, func: FuncOp) -> Callable[[int | None, str], None]:
        def say(block: int | None, msg: str) -> None:
            if self.remarks:
                emit_remark(func.sym_name.data, msg, block=block)
        return say

    def run_function(self, func: FuncOp,
                     say: Callable[[int | None, str], None] = lambda b, m: None) -> Counter[str]:
        counts: Counter[str] = Counter()
        region = func.regions[0]
        if region.first_block is None:
            return counts
        cfg = CFG.compute(func)
        dom = DominatorTree(cfg)
        li = LoopInfo(cfg, dom)
        rpo = [cfg.blocks[b] for b in cfg.rpo]
        for lp in li.innermost_first():
            shape = loop_shape(cfg, lp)
            if isinstance(shape, str):
                say(lp.header, f"strength reduction skipped: {shape}")
                continue
            if not shape.strides:
                continue
            if lp.children and not self.outer_loops:
                say(lp.header, "strength reduction skipped: the loop contains loops "
                               "(outer-loops=false)")
                continue
            counts["loops"] += 1
            order = [b for b in rpo if b in shape.blocks]
            c = candidates(shape, order)
            counts["roots"] += len(c.roots)
            if c.wide:
                counts["wide kept"] += c.wide
                say(lp.header, f"{c.wide} IMAD.WIDE of an induction variable kept (a 64-bit "
                               "pointer increment needs a no-wrap proof and costs two adds)")
            chosen = select_roots(c, self.min_gain)
            if not chosen:
                continue
            em = Emitter(shape.preheader)
            memo: dict[SSAValue, Step] = {}
            pre_ops = len(shape.preheader.ops)
            body_before = sum(len(b.ops) for b in shape.blocks)
            # Families and leaders are read before anything changes; leaders are
            # rewritten last-first, so a leader's cone still holds the roots it
            # reads (a rewrite replaces a root's uses, the cones' included).
            keys: dict[SSAValue, object] = {}
            fams = [(r, *family(r, keys)) for r in chosen]
            texts = {r: f"{r.name} ({_describe(r)})" for r in chosen}
            leaders: dict[object, tuple[Operation, int]] = {}
            for r, fam, k in fams:
                leaders.setdefault(fam, (r, k))
            carried: dict[Operation, BlockArgument] = {}
            for r, fam, k in reversed(fams):
                if leaders[fam][0] is r:
                    carried[r] = carry(r, c, shape, em, memo)
            for r, fam, k in fams:
                lead, k0 = leaders[fam]
                if lead is r:
                    say(lp.header, f"strength-reduced {texts[r]} into a loop-carried value")
                    continue
                d = carried[lead]
                offset_from(r, d, k - k0)
                counts["offsets"] += 1
                say(lp.header, f"strength-reduced {texts[r]} into %{d.name_hint} + {signed_imm32(k - k0)}")
            sweep(c.ops)
            sweep(em.created)  # constants a fold made unnecessary
            body_after = sum(len(b.ops) for b in shape.blocks)
            counts["reduced"] += len(chosen)
            counts["ops removed"] += body_before - body_after
            counts["ops added"] += len(shape.preheader.ops) - pre_ops
        return counts


def _describe(op: Operation) -> str:
    r = op.results[0]
    return f"%{r.name_hint}" if r.name_hint else "unnamed"


__all__ = ["StrengthReducePass"]
