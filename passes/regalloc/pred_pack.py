"""Spilled predicates packed into shared GPR homes (seed 000 "Spilling
Overview" and the "Predicate register unpack" opcode R2P: ptxas keeps up to
seven spilled predicates in one GPR, one bit each).

:mod:`.spill` gives each spilled P/UP value its own home, ``P2R h, RZ, 0x1,
p`` right after the definition, and reloads it with ``R2P p', h, 0x1``
before each use.  After a spill round, :func:`pack_predicate_homes` threads
such a fresh home into an older one that is still read below it: the home
becomes ``P2R h', h_old, 1<<j, p`` (bit ``j`` free in ``h_old``; the other
bits pass through), its reloads read bit ``j`` (``R2P p', h', 1<<j``), and
every reload of the older home that the new one dominates reads ``h'``
instead -- so ``h_old`` dies at ``h'`` and one register holds both.  A home
holds at most :data:`MAX_BITS` predicates (P0-P6: what ``R2P PR, h, mask``
can write back).

Input invariants: SSA; the homes still unallocated, each read only by its
R2P reloads (a home already spilled to memory, or one feeding a block
argument (:mod:`.phi_spill`), is left alone).  Values and their reloads keep
their spill tags: the allocation checker follows the chain to the bit each
reload reads (:func:`home_bits`).

The figures do not change: one home definition per spilled predicate, one
reload per use; the register count does (CUB's select sweep on sm_90 wrote
32 single-bit homes).
"""

from __future__ import annotations

from collections.abc import Callable

from xdsl.ir import Block, Operation, OpResult, SSAValue

from ori_dialect.analysis.cfg import CFG
from ori_dialect.analysis.dominators import DominatorTree
from ori_dialect.ir.registers import OriRegisterType, PredType, RegFile
from ori_dialect.ops.predicate import P2ROp, R2POp
from passes.regalloc.spill_marks import HOME_ATTR, home_tag

MAX_BITS = 7
"""Predicates per home: R2P writes P0-P6 back from bits 0-6."""


def single_bit(mask: int) -> int | None:
    """The bit a one-bit ``mask`` sets, else None."""
    return mask.bit_length() - 1 if mask > 0 and mask & (mask - 1) == 0 else None


def home_predicate(home: P2ROp) -> tuple[int, SSAValue] | None:
    """The one predicate ``home`` writes into its result: (bit, value)."""
    j = single_bit(home.src_int("mask") or 0)
    if j is None:
        return None
    p = home.src(f"p{j}")
    return (j, p) if isinstance(p, SSAValue) else None


def home_bits(v: SSAValue, follow: Callable[[OpResult], list[SSAValue]] | None = None,
              depth: int = 0) -> dict[int, int] | None:
    """Bit -> spill tag of the predicates GPR home ``v`` holds (None when ``v``
    is no predicate home).  ``follow`` maps a memory reload to the values
    stored to its slot (the home spilled to memory in a later round)."""
    if not isinstance(v, OpResult) or depth > 64:
        return None
    op = v.op
    if isinstance(op, P2ROp) and (tag := home_tag(op)) is not None:
        got = home_predicate(op)
        if got is None:
            return None
        a = op.src("a")
        bits: dict[int, int] = {}
        if isinstance(a, SSAValue):
            inner = home_bits(a, follow, depth + 1)
            if inner is None:
                return None
            bits.update(inner)
        bits[got[0]] = tag
        return bits
    if follow is not None:
        stored = follow(v)
        if stored:
            found = [home_bits(s, follow, depth + 1) for s in stored]
            if all(b is not None and b == found[0] for b in found):
                return found[0]
    return None


def _fresh_home(op: Operation) -> bool:
    """A single-predicate home (:mod:`.spill`'s ``P2R h, RZ, 0x1, p``) read
    only by its reloads."""
    return (isinstance(op, P2ROp) and HOME_ATTR in op.attributes
            and not isinstance(op.src("a"), SSAValue) and op.src_int("mask") == 1
            and home_predicate(op) is not None and _only_reloads(op.results[0]))


def _only_reloads(h: SSAValue) -> bool:
    return bool(h.uses) and all(
        isinstance(u.operation, R2POp) and len(u.operation.results) == 1
        and single_bit(u.operation.src_int("mask") or 0) is not None for u in h.uses)


def _file(op: P2ROp) -> RegFile | None:
    got = home_predicate(op)
    t = got[1].type if got is not None else None
    return t.REG_FILE if isinstance(t, OriRegisterType) else None


def pack_predicate_homes(func: Operation) -> int:
    """Thread fresh predicate homes into older ones (module docstring).
    Returns the number of homes packed."""
    # the cheap gate (most spill rounds spill no predicate): stop at the second home
    homes = (op for op in func.walk() if isinstance(op, P2ROp) and HOME_ATTR in op.attributes)
    if next(homes, None) is None or next(homes, None) is None:
        return 0
    cfg = CFG.compute(func)  # type: ignore[arg-type]
    dom = DominatorTree(cfg)
    index: dict[Block, dict[Operation, int]] = {}

    def pos(op: Operation) -> tuple[Block, int]:
        b = op.parent_block()
        assert b is not None
        at = index.get(b)
        if at is None or op not in at:  # built, or rebuilt after an insertion
            at = index[b] = {o: i for i, o in enumerate(b.ops)}
        return b, at[op]

    def dominates(a: Operation, b: Operation) -> bool:
        """``a`` runs before ``b`` on every path to ``b`` (``a`` before ``b``
        in one block)."""
        (ba, ia), (bb, ib) = pos(a), pos(b)
        if ba is bb:
            return ia < ib
        ka, kb = cfg.index.get(ba), cfg.index.get(bb)
        return ka is not None and kb is not None and dom.dominates(ka, kb)

    # chain heads: homes read by their reloads only, in program order
    heads: list[tuple[P2ROp, dict[int, int]]] = []
    packed = 0
    order = [op for b in cfg.blocks for op in b.ops
             if isinstance(op, P2ROp) and HOME_ATTR in op.attributes]
    for op in order:
        assert isinstance(op, P2ROp)
        if _fresh_home(op):
            target = _pick(op, heads, dominates)
            if target is not None:
                head, bits = target
                op = _thread(op, head, bits, dominates)
                heads.remove(target)
                packed += 1
        if _only_reloads(op.results[0]):
            bits = home_bits(op.results[0])
            if bits is not None:
                heads.append((op, bits))
    return packed


def _pick(op: P2ROp, heads: list[tuple[P2ROp, dict[int, int]]],
          dominates: Callable[[Operation, Operation], bool]
          ) -> tuple[P2ROp, dict[int, int]] | None:
    """The latest head with a free bit that ``op`` follows on every path and
    that is still read below ``op`` (else threading would only lengthen its
    life)."""
    f = _file(op)
    for head, bits in reversed(heads):
        if len(bits) >= MAX_BITS or _file(head) is not f or not dominates(head, op):
            continue
        if any(dominates(op, u.operation) for u in head.results[0].uses):
            return head, bits
    return None


def _thread(op: P2ROp, head: P2ROp, bits: dict[int, int],
            dominates: Callable[[Operation, Operation], bool]) -> P2ROp:
    """Replace fresh home ``op`` by ``P2R h', head, 1<<j, p``; its reloads
    read bit ``j``, the head's reloads below it read ``h'``."""
    j = min(b for b in range(MAX_BITS) if b not in bits)
    got = home_predicate(op)
    assert got is not None
    p = got[1]
    pt = PredType.fixed()
    new = P2ROp.make([head.results[0], 1 << j, *([pt] * j), p],
                     attributes=dict(op.attributes))
    blk = op.parent_block()
    assert blk is not None
    blk.insert_op_before(new, op)
    h_new = new.results[0]
    for use in list(op.results[0].uses):
        rel = use.operation
        assert isinstance(rel, R2POp)
        rb = rel.parent_block()
        assert rb is not None
        rep = R2POp.make([h_new, 1 << j], [rel.results[0].type],
                         attributes=dict(rel.attributes))
        rb.insert_op_before(rep, rel)
        rel.results[0].replace_all_uses_with(rep.results[0])
        rel.detach()
        rel.erase()
    op.detach()
    op.erase()
    for use in list(head.results[0].uses):
        if use.operation is not new and dominates(new, use.operation):
            use.operation.operands[use.index] = h_new
    return new


__all__ = ["MAX_BITS", "home_bits", "home_predicate", "pack_predicate_homes", "single_bit"]
