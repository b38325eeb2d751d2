"""Constants written at the edges that pass them: before allocation, a
constant read only as branch-edge operands (block-argument values) and
defined in another block is written again right before each branch that
passes it.  Option ``edge-constants`` of ``ori-regalloc``.

Loop-invariant code motion and CSE leave one ``MOV R47, -0x1`` in a
kernel's preheader for every place a loop body joins "no bin" into a block
argument; each join then copies it (``MOV R27, R47``).  In CUB's histogram
sweeps the -1 fed 46 joins and held a register through the whole sweep
loop, across its 64 calls of ``__ori_udivmod64``, where the callee's
registers are closed to it.  Written at the edge (``MOV R27, -0x1``), the
constant costs the same one instruction as the copy did, and its register
is free everywhere else: the sweeps 55 -> 54 registers (ptxas 52 and 54),
2 instructions fewer each.  ptxas's SASS of that kernel writes the -1 at
the joins (``IMAD.MOV.U32 R23, RZ, RZ, -0x1``, 84 of them).

**Where.**  A result of an instruction the allocator's own
rematerialization may clone (:func:`.remat.remat_source`: no register
operand, speculatable, no memory but the constant bank, not a uniform-
datapath form, which may not run in divergent code) whose every use is an
edge operand of a branch in another block, each edge one of:

* an unguarded branch: the clone goes right before it;
* a guarded branch that is the only way into its target: the block
  argument goes and the clone is written at the top of the target (the
  one path that needs it);
* a guarded branch into a join whose other incoming values are not live
  into the branch's other successor (:func:`_copy_fits`): the clone goes
  before the branch, where the allocator can give it the argument's
  register, as it places such an edge's copy.  Where another incoming
  value is live there -- the sweeps' 0 joined with a running count -- the
  clone would need a copy of its own, and the constant is left alone (the
  first version took it too: 52 more copies in the sweeps).

Each such operand gets its own clone (a branch passing the value twice
needs two registers either way); the original goes.

**Cost.**  A use whose argument could have shared the constant's register
(at most one of them: the constant stays live across the others) cost no
instruction before and costs one now -- but then the constant was live
from its block to that edge, so the trade is a register over that span
for at most one instruction; a use that needed the copy costs the same.
The clones are ordinary definitions (not marked as rematerialized).  On
the 136 sm_80 example kernels: 8 instructions fewer, registers lower on
the two sweeps and ``sgemm_tiled16`` (19 -> 18), higher nowhere.

Input invariants: SSA ``ori.func`` bodies with virtual registers.
"""

from __future__ import annotations

from xdsl.ir import Block, Operation, OpResult, SSAValue

from ori_dialect.analysis.cfg import CFG, edge_operands
from ori_dialect.analysis.liveness import Liveness
from ori_dialect.ops.control import BraOp
from passes.regalloc.remat import remat_source


def _edge_target(bra: BraOp, index: int) -> tuple[Block, int] | None:
    """The block and argument number operand ``index`` of ``bra`` feeds."""
    arg = bra.dest_arg(index)
    return None if arg is None else (arg.block, arg.index)


def _sole_predecessor(bra: BraOp, target: Block) -> bool:
    """``bra`` is the only way into ``target``, along one edge."""
    if bra.taken is target and bra.fallthrough is target:
        return False
    for use in target.uses:
        if use.operation is not bra:
            return False
    return True


def _copy_fits(v: SSAValue, bra: BraOp, target: Block, k: int, cfg: CFG,
               live_in: list[set[SSAValue]]) -> bool:
    """A clone written before the guarded ``bra`` is live on the way to its
    other successor too.  It can share the register of ``target``'s
    argument ``k`` (be the edge's copy, where ori places copies before a
    branch) only when no other value flowing into that argument is live
    into the other successor: there such a value (a loop counter joined
    with the constant) holds the register.  ``v`` itself, passed on other
    edges too, is written there by clones of its own."""
    other = bra.fallthrough if bra.taken is target else bra.taken
    if other is None or other is target:
        return True
    o = cfg.index[other]
    for e in cfg.in_edges[cfg.index[target]]:
        term = cfg.blocks[e.src].last_op
        if term is bra or term is None:
            continue
        ops = edge_operands(term, e.slot)
        if k < len(ops) and ops[k] is not v and ops[k] in live_in[o]:
            return False
    return True


def _edge_uses(v: SSAValue, cfg: CFG, live_in: list[set[SSAValue]],
               ) -> list[tuple[BraOp, int]] | None:
    """The (branch, operand index) pairs passing ``v`` to a block argument,
    or None when some use of ``v`` is anything else, a branch in the block
    defining ``v``, or a guarded branch to a block it is not the only way
    into (module docstring, "Where")."""
    home = v.owner.parent_block() if isinstance(v, OpResult) else None
    out: list[tuple[BraOp, int]] = []
    for use in v.uses:
        op = use.operation
        if not isinstance(op, BraOp) or op.parent_block() is home:
            return None
        dest = _edge_target(op, use.index)
        if dest is None:
            return None  # the guard
        if (op.guard is not None and not _sole_predecessor(op, dest[0])
                and not _copy_fits(v, op, *dest, cfg, live_in)):
            return None
        out.append((op, use.index))
    return out


def _into_block(const: Operation, bra: BraOp, target: Block, k: int) -> None:
    """Argument ``k`` of ``target`` (entered only from ``bra``) becomes a
    clone of ``const`` at the top of ``target``."""
    arg = target.args[k]
    clone = const.clone()
    first = target.first_op
    if first is None:
        target.add_op(clone)
    else:
        target.insert_op_before(clone, first)
    arg.replace_all_uses_with(clone.results[0])
    targs, fargs = list(bra.taken_args), list(bra.fallthrough_args)
    if bra.taken is target:
        del targs[k]
    else:
        del fargs[k]
    new = BraOp(bra.taken, targs, guard=bra.guard, guard_neg=bra.guard_neg is not None,
                fallthrough=bra.fallthrough, fallthrough_args=fargs)
    new.attributes.update(bra.attributes)
    blk = bra.parent_block()
    assert blk is not None
    blk.insert_op_before(new, bra)
    bra.detach()
    bra.erase()
    target.erase_arg(arg)


def constants_to_edges(func: Operation) -> int:
    """Write each qualifying constant at the edges passing it (module
    docstring).  Returns the number of clones placed."""
    cfg = CFG.compute(func)
    live = Liveness(cfg)
    live_in = [set(live.live_in_values(b)) for b in range(cfg.num_blocks)]
    plans: list[OpResult] = []
    for block in func.regions[0].blocks:
        for op in block.ops:
            if len(op.results) != 1 or not op.results[0].uses:
                continue
            v = op.results[0]
            if remat_source(v) is op and _edge_uses(v, cfg, live_in):
                plans.append(v)
    placed = 0
    for v in plans:
        # one use at a time: rebuilding a guarded branch renumbers its
        # operands (and may drop another constant's use of it)
        while v.uses:
            use = next(iter(v.uses))
            bra = use.operation
            assert isinstance(bra, BraOp)
            dest = _edge_target(bra, use.index)
            assert dest is not None
            if bra.guard is None or not _sole_predecessor(bra, dest[0]):
                clone = v.op.clone()
                blk = bra.parent_block()
                assert blk is not None
                blk.insert_op_before(clone, bra)
                bra.operands[use.index] = clone.results[0]
            else:
                _into_block(v.op, bra, *dest)
            placed += 1
        v.op.detach()
        v.op.erase()
    return placed


__all__ = ["constants_to_edges"]
