"""Parts read after their PACK are read from the wide value: before
allocation, ``w = PACK a, b`` whose parts are read again after it gets
``a', b' = UNPACK w`` right after it, and the later reads (those the PACK
dominates) read ``a'``/``b'``.  Option ``pack-parts`` of ``ori-regalloc``.

A 64-bit pointer stepped in 32-bit halves -- ``IADD3 lo, P0, lo, d`` /
``IADD3.X hi, hi, d', P0`` -- is packed for each access that needs the
pair, and the next step reads the halves again.  Left so, the halves and
the pair are three values live together after every PACK: the pair needs
an even-aligned register pair of its own unless the fat-point scan
happens to give the halves such a pair first, and where it does not the
PACK costs a ``MOV`` per half.  cp_async_double_buffer (its unrolled copy
loop steps the output pointer four times per iteration) kept the halves
in R15/R23 and packed them into R12:R13 at each store: 26 registers
(ptxas 25 on sm_90).  Read from the pair, the halves die at the PACK, the
pair is the one value live across the access, and an UNPACK of it costs
nothing where its parts take the pair's registers -- which the
sub-register hints ask for (:mod:`.coalesce`), and
:func:`.copies.unpacks_to_readers` then moves it down to its first reader.
This is how ptxas's listings step such pointers: the pair's halves in
place (``IADD3 R12, P0, R12, UR9, RZ`` / ``IADD3.X R13, R13, UR8, RZ,
P0``).  On the 136 example kernels (sm_80 and sm_90 alike):
cp_async_double_buffer 26 -> 24 registers and its loop 146 -> 142
instructions, dfma_div_sqrt 26 -> 24
registers, CUB's histogram sweeps 54 -> 53, no count higher; 6
instructions fewer on each target (Thrust's two sorts 4 and 2 more).

Which PACKs: unguarded ``ori.pack`` into the R file whose parts are R-file
values (no immediate, no fixed register; at least two parts, each one
value at most once) and at least one of whose parts is read by an
instruction the PACK dominates other than the PACK itself.  A read the
PACK does not dominate (the other side of a branch, a loop's entry edge)
keeps the part.

Input invariants: SSA ``ori.func`` bodies with virtual registers.
"""

from __future__ import annotations

from xdsl.ir import Operation, SSAValue

from ori_dialect.analysis.cfg import CFG
from ori_dialect.analysis.dominators import DominatorTree
from ori_dialect.ir.registers import OriRegisterType, RegFile
from ori_dialect.ops.integer import PackOp, UnpackOp


def _plain_part(v: object) -> bool:
    return (isinstance(v, SSAValue) and isinstance(v.type, OriRegisterType)
            and v.type.REG_FILE is RegFile.R and not v.type.is_fixed
            and v.type.num_regs() == 1)


def _after(op: Operation, user: Operation, pos: dict[Operation, int], cfg: CFG,
           dom: DominatorTree) -> bool:
    """``op`` dominates ``user`` and comes before it (``pos``: positions in
    ``op``'s block)."""
    blk, ub = op.parent_block(), user.parent_block()
    if ub is blk:
        return pos.get(user, -1) > pos[op]
    a, b = cfg.index.get(blk), cfg.index.get(ub)  # type: ignore[arg-type]
    return a is not None and b is not None and dom.dominates(a, b)


def parts_from_packs(func: Operation) -> int:
    """Give every qualifying PACK an UNPACK the later reads of its parts
    read (module docstring).  Returns the number of UNPACKs added."""
    cfg = CFG.compute(func)
    if not cfg.num_blocks:
        return 0
    dom = DominatorTree(cfg)
    added = 0
    for block in cfg.blocks:
        pos = {op: i for i, op in enumerate(block.ops)}
        for op in list(block.ops):
            if not isinstance(op, PackOp) or op.operand_groups()[1] is not None:
                continue
            w = op.results[0]
            wt = w.type
            if not isinstance(wt, OriRegisterType) or wt.REG_FILE is not RegFile.R or wt.is_fixed:
                continue
            parts = [v for _, v in op.slot_values()]
            if len(parts) < 2 or not all(_plain_part(p) for p in parts) \
                    or len(set(parts)) != len(parts):
                continue

            reads = {p: [u for u in p.uses  # type: ignore[union-attr]
                         if u.operation is not op and _after(op, u.operation, pos, cfg, dom)]
                     for p in parts}
            if not any(reads.values()):
                continue
            un = UnpackOp.make([w], [type(p.type).unallocated() for p in parts])  # type: ignore[union-attr]
            block.insert_op_after(un, op)
            for k, p in enumerate(parts):
                for use in reads[p]:
                    use.operation.operands[use.index] = un.results[k]
            added += 1
    return added


__all__ = ["parts_from_packs"]
