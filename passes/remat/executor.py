"""The block executor (seed 002, "Block-Level Executor", sub_1CE67D0): for
each selected candidate and each site, the chain is cloned right before the
first user of the candidate in the site's block and every use of the
candidate in that block reads the clone.

Names (the seed's prefixes, as SSA name hints): a clone in a block none of
whose strict dominators got one is ``remat_<name>`` -- the value was live-in
and is recomputed from scratch; a clone in a block dominated by another
site's clone is ``uclone_<name>`` -- the value already has a (rematerialized)
definition in the block's dominance chain and a local copy shortens the live
range instead of reusing it.  Sites are visited in dominator-tree pre-order,
so every ``uclone_`` follows the ``remat_`` it could have reused.

Within a round, a chain op already cloned in a block before the insertion
point (another candidate's chain: the two halves of one 64-bit value share
their compare) is reused rather than cloned again, and a clone is made only
of the chain ops that the clone still needs.

The originals are left in place until every candidate of the round has been
cloned (a later candidate's chain may clone one of them); :func:`sweep` then
erases the ops of the chains whose results lost every use, as
``ori-dead-code`` would.
"""

from __future__ import annotations

from dataclasses import dataclass

from xdsl.ir import Block, Operation, SSAValue

from ori_dialect.analysis.dominators import DominatorTree
from passes.dead_code import has_effect
from passes.remat.cost import Candidate


@dataclass(frozen=True)
class Clone:
    block: int
    name: str
    """The name hint given to the clone of the candidate's value."""


def _first_user(block: Block, v: SSAValue) -> Operation:
    users = {u.operation for u in v.uses}
    for op in block.ops:
        if op in users:
            return op
    raise AssertionError("a site without a user")  # pragma: no cover


def _hint(prefix: str, v: SSAValue) -> str:
    return prefix + (v.name_hint or "v")


def preorder(dom: DominatorTree) -> list[int]:
    """Reachable block ids in dominator-tree pre-order."""
    out: list[int] = []
    if not dom.cfg.rpo:
        return out
    stack = [dom.cfg.rpo[0]]
    while stack:
        b = stack.pop()
        out.append(b)
        stack.extend(reversed(dom.children[b]))
    return out


Memo = dict[tuple[Block, Operation], Operation]
"""The clones made so far in a round, by (block, original op): a later
candidate whose chain shares an op (the two halves of one 64-bit value,
say) reuses the clone when it precedes its own insertion point."""


def _reusable(c: Candidate, block: Block, anchor: Operation, memo: Memo | None
              ) -> dict[Operation, Operation]:
    """The chain ops (but the candidate's own) already cloned in ``block``
    before ``anchor`` this round."""
    assert c.chain is not None
    if memo is None:
        return {}
    out: dict[Operation, Operation] = {}
    for op in c.chain.ops:
        prev = memo.get((block, op))
        if prev is not None and op is not c.value.owner and prev.is_before_in_block(anchor):
            out[op] = prev
    return out


def _needed(c: Candidate, reuse: dict[Operation, Operation]) -> list[Operation]:
    """The chain ops the clone of ``c`` needs, in chain order: the
    candidate's def and, transitively, the defs of the operands of needed
    ops that are not reused."""
    assert c.chain is not None
    ops = c.chain.ops
    in_chain = set(ops)
    need = {c.value.owner}
    for op in reversed(ops):
        if op in need and op not in reuse:
            need.update(w.owner for w in op.operands if w.owner in in_chain)
    return [op for op in ops if op in need]


def execute(c: Candidate, blocks: list[Block], dom: DominatorTree,
            prefix: str | None = None, memo: Memo | None = None) -> list[Clone]:
    """Clone ``c``'s chain at each of its sites; the clones made.  ``prefix``
    names every clone (NLO's ``nloNewAdd``) instead of ``remat_`` / ``uclone_``."""
    assert c.chain is not None
    out: list[Clone] = []
    done: list[int] = []
    order = {b: i for i, b in enumerate(preorder(dom))}
    for site in sorted(c.sites, key=lambda s: order[s.block]):
        b = site.block
        pre = prefix or ("uclone_" if any(dom.strictly_dominates(d, b) for d in done)
                         else "remat_")
        block = blocks[b]
        anchor = _first_user(block, c.value)
        mapping: dict[SSAValue, SSAValue] = {}
        made: set[Operation] = set()
        reuse = _reusable(c, block, anchor, memo)
        for op in _needed(c, reuse):
            new = reuse.get(op)
            if new is None:
                new = op.clone(value_mapper=mapping)
                for old_r, new_r in zip(op.results, new.results, strict=True):
                    new_r.name_hint = prefix if prefix else _hint(pre, old_r)
                block.insert_op_before(new, anchor)
                made.add(new)
                if memo is not None:
                    memo[(block, op)] = new
            for old_r, new_r in zip(op.results, new.results, strict=True):
                mapping[old_r] = new_r
        nv = mapping[c.value]
        clones = made
        for use in list(c.value.uses):
            user = use.operation
            if user.parent_block() is block and user not in clones:
                user.operands[use.index] = nv
        done.append(b)
        out.append(Clone(b, nv.name_hint or ""))
    return out


def sweep(ops: list[Operation]) -> int:
    """Erase the ops of ``ops`` (and, transitively, their operands' defining
    ops among ``ops``) whose results lost every use; the count erased."""
    erased = 0
    pending = set(ops)
    changed = True
    while changed:
        changed = False
        for op in list(pending):
            if op.parent_block() is None:
                pending.discard(op)
                continue
            if not any(r.uses for r in op.results) and not has_effect(op):
                blk = op.parent_block()
                assert blk is not None
                blk.erase_op(op)
                pending.discard(op)
                erased += 1
                changed = True
    return erased


__all__ = ["Clone", "Memo", "execute", "preorder", "sweep"]
