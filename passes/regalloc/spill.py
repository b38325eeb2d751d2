"""Spill code to local memory (seed 000 "Spilling Overview", "Spill codegen
sub_94F150", and the slot compaction of "Guidance consumption").

* A spilled value ``v`` is stored right after its definition
  (``STL [RZ + slot], v``; a block argument at the top of its block) and
  reloaded into a fresh value right before each instruction that uses it
  (``LDL``; before the branch for an edge operand).  Spill STL/LDL carry
  ``ori.spill_value = ID``; reloads and spilled values are never spilled
  again, so every SPILL retry makes progress.
* While allocating, each spilled value has its own provisional slot.  After
  allocation :func:`compact_slots` computes the local-memory liveness of
  every slot (live from a spill store to the reloads that can follow it; a
  store occupies its slot even when nothing reloads it) and gives values
  that are never live together the same bytes, first fit with natural
  alignment, then patches the STL/LDL offsets -- the seed's relocation of
  spill offsets into compacted gaps.
* The spill area starts after the function's own local variables
  (``ori.local_bytes``, 16-byte aligned) and after the frames of the
  functions it calls (a static frame layout: local memory is per thread and
  the interpreter shares it between activations), so no callee's spills
  overwrite the caller's.  A recursive function that needs spill slots is a
  diagnostic.
* Figures (``ptxas -v`` wording): *spill stores* / *spill loads* are the
  bytes the spill STL / LDL instructions access (static counts); the *stack
  frame* is the function's local variables plus its spill area.
"""

from __future__ import annotations

from xdsl.dialects.builtin import IntegerAttr, i32
from xdsl.ir import Block, BlockArgument, Operation, OpResult, SSAValue

from ori_dialect.analysis.cfg import CFG
from ori_dialect.ir.instruction import OriInstruction
from ori_dialect.ir.registers import OriRegisterType, R32Type
from ori_dialect.ops.memory import LdlOp, StlOp
from passes.regalloc.classes import SPILL_ATTR

_WIDTH_MOD = {1: "", 2: "b64", 4: "b128"}
PROVISIONAL_BASE = 1 << 20


def spill_tag(op: Operation) -> int | None:
    a = op.attributes.get(SPILL_ATTR)
    return a.value.data if isinstance(a, IntegerAttr) else None


def next_tag(func: Operation) -> int:
    tags = [t for op in func.walk() if (t := spill_tag(op)) is not None]
    return max(tags, default=-1) + 1


def spill_value(v: SSAValue, tag: int) -> tuple[int, int]:
    """Insert the store and reloads of ``v``.  Returns (store, reload) counts."""
    t = v.type
    assert isinstance(t, OriRegisterType)
    n = t.num_regs()
    mods = _WIDTH_MOD[n]
    off = PROVISIONAL_BASE + 16 * tag
    attrs = {SPILL_ATTR: IntegerAttr(tag, i32)}
    users: list[Operation] = []
    for use in list(v.uses):
        if use.operation not in users:
            users.append(use.operation)
    st = StlOp.make([R32Type.fixed(), off, v], mods=mods, attributes=attrs)
    if isinstance(v, BlockArgument):
        blk = v.block
        first = blk.first_op
        if first is None:
            blk.add_op(st)
        else:
            blk.insert_op_before(st, first)
    else:
        assert isinstance(v, OpResult)
        blk = v.op.parent_block()
        assert blk is not None
        blk.insert_op_after(st, v.op)
    reloads = 0
    for user in users:
        ld = LdlOp.make([R32Type.fixed(), off], [type(t).unallocated()], mods=mods,
                        attributes=dict(attrs))
        ub = user.parent_block()
        assert ub is not None
        ub.insert_op_before(ld, user)
        r = ld.results[0]
        for k, o in enumerate(user.operands):
            if o is v:
                user.operands[k] = r
        reloads += 1
    return 1, reloads


def _slot_conflicts(func: Operation) -> tuple[dict[int, int], set[tuple[int, int]]]:
    """Width in bytes of every tag and the pairs of tags live at the same time."""
    blocks = list(func.regions[0].blocks)
    cfg = CFG(blocks)
    width: dict[int, int] = {}
    ops_of: list[list[tuple[Operation, int]]] = []
    for b in blocks:
        lst = []
        for op in b.ops:
            t = spill_tag(op)
            if t is not None and isinstance(op, StlOp | LdlOp):
                lst.append((op, t))
                width[t] = op.access_bytes()
        ops_of.append(lst)
    n = len(blocks)
    live_in: list[set[int]] = [set() for _ in range(n)]
    changed = True
    while changed:
        changed = False
        for b in reversed(range(n)):
            out: set[int] = set()
            for s in cfg.succs[b]:
                out |= live_in[s]
            cur = set(out)
            for op, t in reversed(ops_of[b]):
                if isinstance(op, StlOp):
                    cur.discard(t)
                else:
                    cur.add(t)
            if cur != live_in[b]:
                live_in[b] = cur
                changed = True
    conflicts: set[tuple[int, int]] = set()
    for b in range(n):
        cur = set()
        for s in cfg.succs[b]:
            cur |= live_in[s]
        for op, t in reversed(ops_of[b]):
            if isinstance(op, StlOp):
                for o in cur:
                    if o != t:
                        conflicts.add((min(o, t), max(o, t)))
                cur.discard(t)
            else:
                cur.add(t)
        snapshot = sorted(cur)
        for i, a in enumerate(snapshot):
            for c in snapshot[i + 1 :]:
                conflicts.add((a, c))
    return width, conflicts


def compact_slots(func: Operation, base: int) -> int:
    """Assign final offsets from ``base``; returns the spill area's size in bytes."""
    width, conflicts = _slot_conflicts(func)
    if not width:
        return 0
    placed: dict[int, int] = {}
    for t in sorted(width, key=lambda t: (-width[t], t)):
        w = width[t]
        off = 0
        while True:
            clash = False
            for o, po in placed.items():
                if (min(o, t), max(o, t)) in conflicts and po < off + w and off < po + width[o]:
                    clash = True
                    off = max(off, -(-(po + width[o]) // w) * w)
            if not clash:
                break
        placed[t] = off
    size = max(placed[t] + width[t] for t in placed)
    for op in list(func.walk()):
        t = spill_tag(op)
        if t is not None and isinstance(op, StlOp | LdlOp):
            _set_offset(op, base + placed[t])
    return size


def _set_offset(op: OriInstruction, off: int) -> None:
    from xdsl.dialects.builtin import DictionaryAttr

    consts = op.const_map()
    consts["offset"] = IntegerAttr(off, i32)
    op.properties["consts"] = DictionaryAttr(consts)


def spill_figures(func: Operation) -> tuple[int, int]:
    stores = loads = 0
    for op in func.walk():
        if spill_tag(op) is None:
            continue
        if isinstance(op, StlOp):
            stores += op.access_bytes()
        elif isinstance(op, LdlOp):
            loads += op.access_bytes()
    return stores, loads


__all__ = ["compact_slots", "next_tag", "spill_figures", "spill_value"]
_ = Block
