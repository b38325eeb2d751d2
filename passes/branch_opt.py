"""``ori-branch-opt``: branch simplification, ptxas's phase 15 *OriBranchOpt*
(seed 001 "Pipeline Placement": "branch simplification (may change loop
shape)", between GeneralOptimizeEarly (13) and the first dead-code pass
(16)).

The seed names the phase and its place, not its rules; ori's are the ones
issue 19 asks for, each a rewrite of the CFG that keeps every value and
every memory access of every thread:

1. **Same target**: a guarded ``BRA`` whose two edges reach one block with
   the same arguments becomes an unguarded one.
2. **Empty blocks**: a block (not the entry) holding nothing but an
   unguarded ``BRA`` is bypassed -- each predecessor branches straight to
   its target, the arguments it passed substituted into the forwarded ones
   -- and removed; not when a block it dominates reads its arguments
   directly (they would have no definition left).
3. **Straight-line chains**: a block ending in an unguarded ``BRA`` to a
   block that has no other predecessor absorbs that block (its arguments
   become the values passed): no branch is left between them.  This also
   removes every ``BRA`` to the next block that the importer's one block per
   PTX label leaves.
4. **Branch over one instruction** (``predicate-single`` option, default on):
   ``@P BRA J`` around a block ``S`` that holds one instruction and then
   branches to ``J`` becomes that instruction guarded by the branch's
   condition (negated as the edge needs) -- SASS predication, the form
   ptxas's listings show for an ``if`` with a one-instruction body.  When
   the instruction defines the value that ``S`` passes to ``J`` in place of
   what the branch passed, that value becomes the guarded instruction's tied
   prior (DESIGN.md "Predication": a guarded result is the prior value when
   the guard is false).  Profitability: one instruction executed under a
   guard costs at most what the taken branch cost, and saves one or two
   ``BRA``; a body of more instructions, or one that is a call, a barrier,
   a warp-collective op, already guarded, or that defines more than one
   value or a value read elsewhere, stays a branch.

A ``BRA`` that still targets the block right after it is no instruction in
the listing (``BraOp.sass_instructions``; the ``ori-asm`` printer shows it as
a comment): block order is the layout.

Not modelled: ptxas's branch-direction heuristics (which edge falls
through), jump threading through blocks with instructions, and the if/else
(two one-instruction arms) form of predication (ptxas's phase 63).

Input invariants: SSA ``ori.func`` bodies whose blocks end in ``ori.bra``
(other terminators -- ``BRX``, ``EXIT``, ``RET`` -- are left alone and keep
the blocks they reach).  ``remarks=true`` prints per function the count of
each rewrite; ``stats=true`` the module totals.
"""

from __future__ import annotations

from collections import Counter
from dataclasses import dataclass
from typing import ClassVar

from xdsl.context import Context
from xdsl.dialects.builtin import ModuleOp
from xdsl.ir import Block, Region, SSAValue
from xdsl.passes import ModulePass

from ori_dialect.analysis import functions_of
from ori_dialect.ir.instruction import OriInstruction
from ori_dialect.ops.control import BraOp, CallOp
from passes.contract import Requirement, emit_remark, emit_stats, option, require

RULES = ("same-target", "empty-block", "merged", "predicated")
"""The rewrites, in the order of the module docstring (remark and stats keys)."""


def _preds(b: Block) -> list[BraOp] | None:
    """The ``ori.bra`` ops that branch to ``b`` (one entry per edge), or None
    when another kind of terminator reaches it."""
    out: list[BraOp] = []
    for use in b.uses:
        if not isinstance(use.operation, BraOp):
            return None
        out.append(use.operation)
    return out


def _replace_term(old: BraOp, new: BraOp) -> None:
    blk = old.parent_block()
    assert blk is not None
    blk.insert_op_before(new, old)
    old.detach()
    old.erase()


def _with_edge(term: BraOp, target: Block, new_target: Block,
               new_args: list[SSAValue]) -> BraOp:
    """``term`` with each edge to ``target`` sent to ``new_target`` with ``new_args``."""
    taken, targs = term.taken, list(term.taken_args)
    fall, fargs = term.fallthrough, list(term.fallthrough_args)
    if taken is target:
        taken, targs = new_target, new_args
    if fall is target:
        fall, fargs = new_target, new_args
    return BraOp(taken, targs, guard=term.guard, guard_neg=term.guard_neg is not None,
                 fallthrough=fall, fallthrough_args=fargs)


def fold_same_target(b: Block) -> bool:
    t = b.last_op
    if not isinstance(t, BraOp) or t.fallthrough is not t.taken:
        return False
    if list(t.taken_args) != list(t.fallthrough_args):
        return False
    _replace_term(t, BraOp(t.taken, list(t.taken_args)))
    return True


def bypass_empty(b: Block, entry: Block) -> bool:
    t = b.first_op
    if b is entry or t is None or t is not b.last_op or not isinstance(t, BraOp):
        return False
    if t.guard is not None or t.taken is b:
        return False
    if any(u.operation is not t for a in b.args for u in a.uses):
        return False  # a block it dominates reads its arguments directly
    preds = _preds(b)
    if not preds:
        return False
    target = t.taken
    for p in dict.fromkeys(preds):  # each predecessor once (both edges at once)
        args_in = list(p.taken_args) if p.taken is b else list(p.fallthrough_args)
        if p.taken is b and p.fallthrough is b and list(p.taken_args) != list(p.fallthrough_args):
            return False  # two edges with different values: keep the block
        subst = dict(zip(b.args, args_in))
        fwd = [subst.get(a, a) for a in t.taken_args]
        _replace_term(p, _with_edge(p, b, target, fwd))
    _erase_block(b)
    return True


def _erase_block(b: Block) -> None:
    for op in reversed(list(b.ops)):
        op.detach()
        op.erase()
    region = b.parent
    assert isinstance(region, Region)
    region.detach_block(b)
    b.erase()


def merge_chain(a: Block, entry: Block) -> bool:
    t = a.last_op
    if not isinstance(t, BraOp) or t.guard is not None:
        return False
    b = t.taken
    if b is a or b is entry:
        return False
    preds = _preds(b)
    if preds is None or len(preds) != 1:
        return False
    for arg, v in zip(list(b.args), list(t.taken_args)):
        arg.replace_all_uses_with(v)
    t.detach()
    t.erase()
    for op in list(b.ops):
        op.detach()
        a.add_op(op)
    for arg in reversed(list(b.args)):
        b.erase_arg(arg)
    region = b.parent
    assert isinstance(region, Region)
    region.detach_block(b)
    b.erase()
    return True


def _guardable(op: OriInstruction) -> bool:
    cls = type(op)
    return (op.operand_groups()[1] is None and not op.successors and not op.regions
            and not isinstance(op, CallOp) and not cls.IS_BARRIER and not cls.WARP_COLLECTIVE
            and not cls.SIDE_EFFECTS and len(op.results) <= 1)


def predicate_single(a: Block) -> bool:
    t = a.last_op
    if not isinstance(t, BraOp) or t.guard is None or t.fallthrough is None:
        return False
    for s, on_true in ((t.taken, True), (t.fallthrough, False)):
        j = t.fallthrough if on_true else t.taken
        args_a = list(t.fallthrough_args if on_true else t.taken_args)
        assert j is not None
        if s is a or s is j or len(list(s.args)) or _preds(s) != [t]:
            continue
        ops = list(s.ops)
        if len(ops) != 2 or not isinstance(ops[0], OriInstruction):
            continue
        op, br = ops[0], ops[1]
        if not isinstance(br, BraOp) or br.guard is not None or br.taken is not j:
            continue
        if not _guardable(op):
            continue
        args_s = list(br.taken_args)
        prior: SSAValue | None = None
        ok = True
        for x, y in zip(args_a, args_s):
            if x is y:
                continue
            if op.results and y is op.results[0] and (prior is None or prior is x):
                prior = x
                continue
            ok = False
            break
        if not ok:
            continue
        if op.results:
            r = op.results[0]
            if any(u.operation is not br for u in r.uses):
                continue
            if prior is None:
                continue  # the result reaches nothing: DCE's job, not a guard's
        neg = (t.guard_neg is not None) != (not on_true)
        values = [v for _, v in op.slot_values()]
        guarded = type(op).make(
            values,  # type: ignore[arg-type]
            [r.type for r in op.results],
            mods=op.mods.data if op.mods is not None else "",
            smods=op.smod_map(), guard=t.guard, guard_neg=neg,
            prior=[prior] if prior is not None else [],
            attributes=dict(op.attributes),
        )
        a.insert_op_before(guarded, t)
        new_args = [guarded.results[0] if (op.results and y is op.results[0]) else x
                    for x, y in zip(args_a, args_s)]
        _replace_term(t, BraOp(j, new_args))
        if op.results:
            op.results[0].replace_all_uses_with(guarded.results[0])
        _erase_block(s)
        return True
    return False


def simplify_function(region: Region, predicate: bool) -> Counter[str]:
    """Apply the rules to a fixed point; returns how often each fired."""
    done: Counter[str] = Counter()
    changed = True
    while changed:
        changed = False
        entry = region.blocks.first
        assert entry is not None
        for b in list(region.blocks):
            if b.parent is None:
                continue  # removed earlier in this sweep
            if fold_same_target(b):
                done["same-target"] += 1
                changed = True
            if bypass_empty(b, entry):
                done["empty-block"] += 1
                changed = True
                continue
            while merge_chain(b, entry):
                done["merged"] += 1
                changed = True
            if predicate and predicate_single(b):
                done["predicated"] += 1
                changed = True
    return done


@dataclass(frozen=True)
class BranchOptPass(ModulePass):
    """Branch simplification (phase 15, OriBranchOpt); the rules are in the module docstring."""

    name = "ori-branch-opt"
    REQUIRES: ClassVar[frozenset[Requirement]] = frozenset({Requirement.SSA})
    PRESERVES: ClassVar[frozenset[type]] = frozenset()

    predicate_single: bool = option(
        True, "ori: turn a branch around a one-instruction block into that instruction "
        "guarded by the branch condition (rule 4)")
    remarks: bool = option(False, "ori: print per function how often each rule fired")
    stats: bool = option(False, "ori: print the module totals to stderr")

    def apply(self, ctx: Context, op: ModuleOp) -> None:
        require(self, op)
        total: Counter[str] = Counter()
        for f in functions_of(op):
            body = f.regions[0] if f.regions else None
            if body is None or body.blocks.first is None:
                continue
            done = simplify_function(body, self.predicate_single)
            total.update(done)
            if self.remarks and done:
                emit_remark(f.sym_name.data,  # type: ignore[attr-defined]
                            "branch-opt " + " ".join(f"[{k}={done[k]}]" for k in RULES if done[k]),
                            pass_name=self.name)
        if self.stats:
            emit_stats(self.name, " ".join(f"[{k}={total[k]}]" for k in RULES))


__all__ = ["RULES", "BranchOptPass", "simplify_function"]
