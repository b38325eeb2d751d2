"""Carrying out a selection: seed 002 "Algorithm Overview" step 7 *Execute*
and "Instruction Replacement (sub_21810D0)".

For each selected candidate and each of its sites the chain is cloned right
before the site's anchor (operands first; a chain op reads the copies made
before it at that site), and the site's reads are rewritten to the copy of
the candidate -- the seed's "clone the defining instruction at use sites"
and "replace register references" (each copy is a new SSA value: "create a
new virtual register of the same class").  The seed's "clear from live-out
bitmap" and "propagate backward through predecessors" are what SSA
liveness recomputes by itself.  Then the "now-dead original definitions"
are removed: each candidate's definition once nothing reads it, and, from
there, any definition that only fed removed ones and has no effect besides
its result (``passes.dead_code.has_effect``; guarded definitions stay).

Copies that go before one instruction share what their chains have in
common: the two halves of a 64-bit value read by one instruction make one
copy of the low ``IADD3`` (the high half's chain has it for the carry), and
a constant two copies read is loaded once.  A copy's trailing optional
results that nothing reads are dropped (the carry-outs of a low half
copied without its high half): a copy defines no register it does not
need.

Copies are named ``remat_<name>`` after the value they recompute (the
prefix of the seed's "Diagnostic Strings").

Everything is recorded in a :class:`Journal` so that the driver can undo a
round that did not lower the pressure (:meth:`Journal.rollback`) or make it
final (:meth:`Journal.commit`, which erases the removed definitions).
"""

from __future__ import annotations

from xdsl.ir import Block, Operation, SSAValue

from passes.dead_code import has_effect
from passes.general_optimize.imad_add import fused, product
from passes.remat_block.candidates import Candidate, is_multidef

PREFIX = "remat_"


class Journal:
    """Undo log of one round."""

    def __init__(self) -> None:
        self.inserted: list[Operation] = []
        self.rewrites: list[tuple[Operation, int, SSAValue]] = []
        self.removed: list[tuple[Operation, Block, Operation | None]] = []
        self.copies: dict[SSAValue, list[int]] = {}
        """Candidate value -> blocks that got a copy of it."""
        self.cloned = 0
        """Instructions the round added (a copy two candidates share counts
        once; an add that takes a product into its ``IMAD`` none)."""
        self.made: dict[SSAValue, int] = {}
        """Candidate value -> the instructions its copies added (one shared
        with an earlier candidate's copy counts for that one)."""

    def rollback(self) -> None:
        for op, block, nxt in reversed(self.removed):
            if nxt is None:
                block.add_op(op)
            else:
                block.insert_op_before(op, nxt)
        for op, i, old in reversed(self.rewrites):
            op.operands[i] = old
        for op in reversed(self.inserted):
            op.detach()
            op.erase()
        self.inserted.clear()
        self.rewrites.clear()
        self.removed.clear()
        self.copies.clear()
        self.cloned = 0
        self.made.clear()

    def commit(self) -> None:
        for op, _, _ in self.removed:
            op.erase()
        self.removed.clear()


def _copy_name(v: SSAValue) -> str:
    return PREFIX + (v.name_hint or "v")


def execute(selection: list[Candidate]) -> Journal:
    """Clone, rewrite and remove dead originals; returns the undo log."""
    j = Journal()
    # (anchor, original) -> its copy there: the two halves of a 64-bit value
    # pulled to one place share the copy of the instruction whose carry
    # the high half reads
    made: dict[tuple[Operation, Operation], Operation] = {}
    for c in selection:
        blocks: list[int] = []
        for site in c.sites:
            block = site.anchor.parent
            assert block is not None
            mapping: dict[SSAValue, SSAValue] = {}
            for op in site.chain[:-1] if site.fuse is not None else site.chain:
                new = made.get((site.anchor, op))
                if new is None:
                    new = op.clone(value_mapper=dict(mapping), clone_name_hints=False)
                    for old_r, new_r in zip(op.results, new.results, strict=True):
                        new_r.name_hint = _copy_name(old_r)
                    block.insert_op_before(new, site.anchor)
                    j.inserted.append(new)
                    j.cloned += 1
                    j.made[c.value] = j.made.get(c.value, 0) + 1
                    made[(site.anchor, op)] = new
                mapping.update(zip(op.results, new.results, strict=True))
            if site.fuse is not None:
                _fuse(c.value, site.fuse, mapping, j)
            else:
                copy = mapping[c.value]
                for op, i in site.uses:
                    j.rewrites.append((op, i, op.operands[i]))
                    op.operands[i] = copy
            blocks.append(site.block)
        j.copies[c.value] = blocks
    for k, new in enumerate(j.inserted):
        j.inserted[k] = _trimmed(new)
    for c in selection:
        _remove_dead(c.value.owner, j)  # type: ignore[arg-type]
    return j


def _trimmed(op: Operation) -> Operation:
    """``op`` without the trailing optional results nothing reads (the
    carry-outs of a copied low half whose high half was not copied with
    it): a copy defines no register it does not need."""
    dsts = getattr(type(op), "DSTS", ())
    keep = len(op.results)
    while (keep > 0 and keep <= len(dsts) and dsts[keep - 1].optional
           and not any(True for _ in op.results[keep - 1].uses)):
        keep -= 1
    if keep == len(op.results):
        return op
    new = type(op).create(operands=list(op.operands),
                          result_types=[r.type for r in op.results[:keep]],
                          properties=dict(op.properties), attributes=dict(op.attributes))
    for old_r, new_r in zip(op.results, new.results):
        new_r.name_hint = old_r.name_hint
        old_r.replace_all_uses_with(new_r)
    block = op.parent
    assert block is not None
    block.insert_op_before(new, op)
    op.detach()
    op.erase()
    return new


def _fuse(v: SSAValue, add: Operation, mapping: dict[SSAValue, SSAValue], j: Journal) -> None:
    """Replace ``add`` (which reads ``v``, a product) by the ``IMAD`` that
    computes the product's copy and the sum at once (:mod:`.candidates`'
    ``fusing_add``); journalled like any copy and rewrite."""
    ab = product(v.owner)  # type: ignore[arg-type]
    assert ab is not None
    a, b = (mapping.get(x, x) if isinstance(x, SSAValue) else x for x in ab)
    new = fused(add, v, a, b)  # type: ignore[arg-type]
    assert new is not None, "fusing_add checked this form"
    block = add.parent
    assert block is not None
    new.results[0].name_hint = add.results[0].name_hint
    block.insert_op_before(new, add)
    j.inserted.append(new)
    for use in list(add.results[0].uses):
        j.rewrites.append((use.operation, use.index, add.results[0]))
        use.operation.operands[use.index] = new.results[0]
    j.removed.append((add, block, add.next_op))
    add.detach()


def _remove_dead(op: Operation, j: Journal) -> None:
    work = [op]
    while work:
        op = work.pop()
        block = op.parent
        if block is None or any(_read(r) for r in op.results):
            continue
        if has_effect(op) or is_multidef_any(op):
            continue
        j.removed.append((op, block, op.next_op))
        op.detach()
        for v in op.operands:
            owner = v.owner
            if isinstance(owner, Operation) and not _read(v):
                work.append(owner)


def is_multidef_any(op: Operation) -> bool:
    return any(is_multidef(r) for r in op.results)


def _read(v: SSAValue) -> bool:
    """Something in the function (not a removed op) reads ``v``."""
    return any(u.operation.parent is not None for u in v.uses)


__all__ = ["PREFIX", "Journal", "execute"]
