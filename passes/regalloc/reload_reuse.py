"""Redundant reloads after assignment: a spill reload or rematerialized
clone that writes a register with the value the register already holds.

The spiller reloads before every use (seed 000 "Spilling Overview": spill
everywhere, a reload per use) and :mod:`.remat` clones a definition before
every user, so a value read by several instructions in a row is reloaded
again for each one.  Once registers are assigned, the reloads of one value
often land in the same register: CUB's select sweep reloaded one predicate
from its home (``R2P P0, R35, 0x1``) before each of eight comparisons that
read ``P0`` and wrote other predicates, and Triton's matmul recomputed its
column mask (``ISETP.LT.AND P0, PT, R34, c[0x0][0x17c], PT``) eight times
in a row.  ptxas keeps such a value in its register across the uses.

Input invariants: an allocated function (every value has its physical
register), edge copies lowered.  Within each block, in order, the pass
keeps the reloads, clones and spill stores whose registers are unchanged
since: an unguarded reload (``ori.spill_value`` on an ``R2P``, ``LDL`` or
``LDS``) or clone (``ori.spill_remat``) that repeats one of them -- same
op, modifiers, constants, source registers and destination register; for
a load, the same spilled value into the same register, which a store of
it from that register leaves there too (``STL [RZ], R0; LDL R0, [RZ]``:
the spiller stores at the definition and reloads at the next use) -- is
erased and its readers read the earlier one's value, which is the same
register.  A predicate's home store (``P2R h, a, 1<<j, ..., p``) leaves
the predicate in its P register too: a reload of bit ``j`` of ``h`` into
that register (``R2P P0, h, 1<<j``) is erased while neither register has
been written since (Triton's attention loop stored each K mask to its
home and reloaded it into P0 for the load right below).  A write to any
register of an entry (a result, a guarded result too) drops it; a memory write, a call or a barrier drops the
entries that read memory (a spill slot may be stored again); a call drops
everything.  Nothing else moves, so no live range and no register changes:
the allocation stays valid for ``ori-check-regalloc``.
"""

from __future__ import annotations

from xdsl.ir import Attribute, Block, Operation, SSAValue

from ori_dialect.ir.instruction import OriInstruction, OriOp
from ori_dialect.ir.registers import OriRegisterType
from ori_dialect.ops.control import CallOp
from ori_dialect.ops.memory import LdlOp, LdsOp, StlOp, StsOp
from ori_dialect.ops.predicate import P2ROp, R2POp
from passes.regalloc.pred_pack import home_predicate, single_bit
from passes.regalloc.spill_marks import HOME_ATTR, PHI_ATTR, REMAT_ATTR, SPILL_ATTR

Reg = tuple[str, int]


def _regs(v: SSAValue) -> frozenset[Reg]:
    t = v.type
    if not isinstance(t, OriRegisterType):
        return frozenset()
    f = t.REG_FILE.value
    return frozenset((f, i) for i in t.phys_range())


def _reloads(op: Operation) -> bool:
    """A reload or clone the pass may find repeated."""
    if not isinstance(op, OriInstruction) or op.is_guarded or len(op.results) != 1:
        return False
    a = op.attributes
    if REMAT_ATTR in a:
        return True
    return SPILL_ATTR in a and isinstance(op, R2POp | LdlOp | LdsOp)


def _key(op: OriInstruction) -> tuple[object, ...]:
    if type(op).MEM.reads:
        # a slot may not be laid out yet: the spilled value's tag names it
        return ("slot", str(op.attributes.get(SPILL_ATTR)), str(op.results[0].type))
    props = tuple(sorted((k, str(v)) for k, v in op.properties.items()))
    srcs = tuple(str(o.type) for o in op.operands)
    return (op.name, props, srcs, str(op.results[0].type))


def _stored(op: Operation) -> SSAValue | None:
    """The value an unguarded spill store writes to its value's slot (not a
    memory phi's store: its slot takes several values)."""
    if not isinstance(op, StlOp | StsOp) or op.is_guarded:
        return None
    a = op.attributes
    if SPILL_ATTR not in a or PHI_ATTR in a:
        return None
    v = op.src("value")
    return v if isinstance(v, SSAValue) else None


def _home_store(op: Operation) -> tuple[tuple[object, ...], SSAValue] | None:
    """For an unguarded predicate home store ``P2R h, a, 1<<j, ..., p``: the
    key of a reload of bit ``j`` of ``h`` into ``p``'s register, and ``p``."""
    if not isinstance(op, P2ROp) or op.is_guarded or HOME_ATTR not in op.attributes:
        return None
    got = home_predicate(op)
    if got is None or not _regs(got[1]):
        return None
    return _bit_key(op.results[0], got[0], got[1].type), got[1]


def _bit_key(home: SSAValue, bit: int, pred: Attribute) -> tuple[object, ...]:
    return ("bit", str(home.type), bit, str(pred))


def _reload_bit_key(op: Operation) -> tuple[object, ...] | None:
    """The key of an unguarded one-bit reload ``R2P p, h, 1<<j``."""
    if not isinstance(op, R2POp) or op.is_guarded or len(op.results) != 1:
        return None
    h, bit = op.src("a"), single_bit(op.src_int("mask") or 0)
    if not isinstance(h, SSAValue) or bit is None:
        return None
    return _bit_key(h, bit, op.results[0].type)


def _reuse_in_block(block: Block) -> int:
    # key -> (the value, the registers it reads and writes, reads memory)
    avail: dict[tuple[object, ...], tuple[SSAValue, frozenset[Reg], bool]] = {}
    erased = 0
    for op in list(block.ops):
        bit_key = _reload_bit_key(op)
        if bit_key is not None and bit_key in avail:
            op.results[0].replace_all_uses_with(avail[bit_key][0])
            op.detach()
            op.erase()
            erased += 1
            continue
        if _reloads(op):
            assert isinstance(op, OriInstruction)
            key = _key(op)
            hit = avail.get(key)
            if hit is not None:
                op.results[0].replace_all_uses_with(hit[0])
                op.detach()
                op.erase()
                erased += 1
                continue
        if isinstance(op, CallOp):
            avail.clear()
            continue
        written: set[Reg] = set()
        for r in op.results:
            written |= _regs(r)
        if written:
            avail = {k: e for k, e in avail.items() if not (e[1] & written)}
        cls = type(op)
        if isinstance(op, OriOp) and (cls.MEM.writes or cls.SIDE_EFFECTS or cls.IS_BARRIER):
            avail = {k: e for k, e in avail.items() if not e[2]}
        stored = _home_store(op)
        if stored is not None:
            # the predicate stored is still in its register
            avail[stored[0]] = (stored[1], _regs(stored[1]) | _regs(op.results[0]), False)
        v = _stored(op)
        if v is not None:
            # the register stored still holds the slot's value
            key = ("slot", str(op.attributes.get(SPILL_ATTR)), str(v.type))
            avail[key] = (v, _regs(v), True)
        if _reloads(op):
            assert isinstance(op, OriInstruction)
            reads: set[Reg] = set()
            for o in op.operands:
                reads |= _regs(o)
            res = _regs(op.results[0])
            if not (reads & res):  # a reload that overwrites its source repeats nothing
                avail[_key(op)] = (op.results[0], frozenset(reads | res), bool(cls.MEM.reads))
    return erased


def reuse_reloads(func: Operation) -> int:
    """Erase the repeated reloads and clones of ``func`` (module docstring);
    returns how many were erased."""
    return sum(_reuse_in_block(b) for r in func.regions for b in r.blocks)


__all__ = ["reuse_reloads"]
