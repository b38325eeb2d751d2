"""Full and partial unrolling of a canonical rotated loop (seed 001, Step O
*EvaluateAndEmitFullUnroll* and Step P *ReplicatePartialUnroll* /
*DuplicateBody*), on ori's SSA form with block arguments.

The loop (header ``H``, single latch ``L`` whose guarded branch has the back
edge on one side and the only exit edge on the other, dedicated preheader
``PH``) is copied block by block; a copy's back edge goes to the next copy's
header, so the values the back edge carries become the next copy's header
arguments.  Three shapes are produced:

* **full** (factor == known trip count ``T``): ``T`` copies in a chain, the
  exit tests of the first ``T-1`` copies and the back edge deleted (the last
  copy branches to the exit); the header arguments are replaced by the
  incoming values, straight chains of blocks are merged, integer adds of
  constants (the IV chain) are folded to ``mov`` and the dead compares
  removed ("fold the IV, delete the back edge").
* **partial, known trip count**: ``R = T mod F`` prologue copies before the
  loop (the seed's *DuplicateBody* remainder copies), then a loop of ``F``
  copies of which only the last keeps the exit test -- after the prologue the
  remaining trip count is a multiple of ``F`` so the other tests always
  continue.
* **partial, unknown trip count, power-of-two remainder** (the default for
  ``F > 2`` and ``lt/le/gt/ge`` exit tests; :func:`unroll_unknown_pow2`):
  the seed's Step O Phase 4 -- a loop of ``F`` copies with one exit test,
  entered while at least ``F`` iterations are left (the exit test evaluated
  ``F-2`` strides ahead), then ``levels = 31 - CLZ(F-1)`` epilogue stages
  of ``2^k`` copies each (``k = levels .. 1``, each behind its own test) and
  the original loop for the last iteration; the copies of one group, a
  straight chain, are merged into one block, so phase 29 sees the copies'
  address and IV steps together (``add-chain``, ``addr-offset``).  No
  runtime trip count (no division) is needed: "at least ``j`` iterations
  left" is the exit test ``j-2`` strides ahead,
  which is exact while the IV does not wrap; a guard on the IV (within
  ``span * stride`` of the compare's wrap point) sends loops near the wrap
  point to the original loop, which tests every iteration.
* **partial, unknown trip count, exit tests** (``F == 2``, ``eq/ne`` tests,
  a stride too large for the wrap guard, or
  ``unknown-trip-remainder=exit-tests``): a loop of ``F`` copies each
  keeping its exit test.  This handles every trip count, including wrap-
  around, without any remainder code.

Values defined in the loop and used after it without block arguments are
first routed through new arguments of the exit block (LCSSA), so every copy
can pass its own version.
"""

from __future__ import annotations

from collections.abc import Sequence

from xdsl.dialects.builtin import IntegerAttr
from xdsl.ir import Block, Operation, Region, SSAValue

from ori_dialect.builder import PT, RZ
from ori_dialect.ir.instruction import OriInstruction
from ori_dialect.ir.registers import PredType
from ori_dialect.ops.control import BraOp, PragmaOp
from ori_dialect.ops.integer import IAdd3Op, MovOp
from ori_dialect.ops.predicate import ISetPOp
from passes.loop_unroll.ivs import IVInfo, Reject
from passes.loop_utils import const_u32, make_uncond, retarget_edge, signed_imm32


def route_escaping_values(blocks: Sequence[Block], latch: Block, exit_slot: int) -> None:
    """LCSSA: pass loop values used outside the loop through new arguments of
    the exit block.  Raises :class:`Reject` (17) when the exit block has other
    predecessors."""
    loop = set(blocks)
    escaping: list[SSAValue] = []
    for b in blocks:
        vals: list[SSAValue] = list(b.args)
        for op in b.ops:
            vals.extend(op.results)
        for v in vals:
            if any(u.operation.parent_block() not in loop for u in v.uses):
                escaping.append(v)
    if not escaping:
        return
    term = latch.last_op
    assert isinstance(term, BraOp)
    exit_b = term.successors[exit_slot]
    n_in = sum(1 for u in exit_b.uses)  # successor uses: one per edge
    if n_in != 1:
        raise Reject(17, "irregular loop: a value defined in the loop is used after it and the "
                     "exit block has other predecessors")
    args = list(term.edge_args(exit_slot))
    for v in escaping:
        new = exit_b.insert_arg(v.type, len(exit_b.args))
        v.replace_uses_with_if(new, lambda u: u.operation.parent_block() not in loop)
        args.append(v)
    retarget_edge(latch, exit_slot, exit_b, args)


def _clone_copy(region: Region, blocks: Sequence[Block], header: Block, next_header: Block,
                after: Block) -> tuple[Block, dict[Block, Block]]:
    """Clone ``blocks`` (dominance order, header first) after ``after``; edges to
    ``header`` go to ``next_header``.  Returns the copy's header and block map."""
    bmap: dict[Block, Block] = {}
    vmap: dict[SSAValue, SSAValue] = {}
    for b in blocks:
        nb = Block(arg_types=[a.type for a in b.args])
        bmap[b] = nb
        for a, na in zip(b.args, nb.args):
            vmap[a] = na
    succ_map = dict(bmap)
    succ_map[header] = next_header
    pos = after
    for b in blocks:
        nb = bmap[b]
        region.insert_block_after(nb, pos)
        pos = nb
    for b in blocks:
        nb = bmap[b]
        for op in b.ops:
            if isinstance(op, PragmaOp):
                continue
            nb.add_op(op.clone(value_mapper=vmap, block_mapper=succ_map))
    return bmap[header], bmap


def _is_pure(op: Operation) -> bool:
    return (isinstance(op, OriInstruction) and bool(op.results) and not op.MEM.reads
            and not op.MEM.writes and not op.SIDE_EFFECTS and not op.IS_BARRIER
            and not op.WARP_COLLECTIVE)


def _fold_iadd3(op: IAdd3Op) -> Operation | None:
    if op.guard is not None or op.smod_map() or op.mod_tokens() or len(op.results) != 1:
        return None
    total = 0
    for _, x in op.slot_values():
        if isinstance(x, SSAValue):
            c = const_u32(x)
            if c is None:
                return None
            total += c
        elif isinstance(x, IntegerAttr):
            total += x.value.data
        elif not getattr(x, "is_fixed", False):
            return None
    total &= 0xFFFFFFFF
    imm = total - (1 << 32) if total >= 1 << 31 else total
    return MovOp.make([imm], [op.results[0].type])


def cleanup(blocks: list[Block]) -> None:
    """Fold constant ``iadd3`` chains and delete dead pure instructions."""
    for b in blocks:
        for op in list(b.ops):
            if isinstance(op, IAdd3Op):
                new = _fold_iadd3(op)
                if new is not None:
                    b.insert_op_before(new, op)
                    op.results[0].replace_all_uses_with(new.results[0])
                    b.erase_op(op)
    changed = True
    while changed:
        changed = False
        for b in blocks:
            for op in reversed(list(b.ops)):
                if _is_pure(op) and all(not r.uses for r in op.results):
                    b.erase_op(op)
                    changed = True


def _merge_chains(region: Region, blocks: list[Block]) -> list[Block]:
    """Substitute the arguments of blocks with a single incoming edge and merge a
    block into its predecessor when that one branches only to it."""
    live = list(blocks)
    for b in list(live):
        preds = [u.operation for u in b.uses]
        if len(preds) != 1 or not isinstance(preds[0], BraOp):
            continue
        br = preds[0]
        slot = next(i for i, s in enumerate(br.successors) if s is b)
        if br.guard is not None:
            continue
        vals = list(br.edge_args(slot))
        pred_block = br.parent_block()
        assert pred_block is not None
        if pred_block is b:
            continue
        for a, v in zip(list(b.args), vals):
            a.replace_all_uses_with(v)
        pred_block.erase_op(br)
        for op in list(b.ops):
            op.detach()
            pred_block.add_op(op)
        while b.args:
            b.erase_arg(b.args[-1])
        region.detach_block(b)
        b.erase()
        live.remove(b)
    return live


def unroll_loop(
    region: Region,
    blocks: Sequence[Block],
    header: Block,
    latch: Block,
    preheader: Block,
    back_slot: int,
    exit_slot: int,
    factor: int,
    trip_count: int | None,
    *,
    allow_full: bool = True,
) -> str:
    """Unroll; returns ``"full"`` or ``"partial"``.  ``blocks`` in dominance
    order, header first."""
    route_escaping_values(blocks, latch, exit_slot)
    lterm = latch.last_op
    assert isinstance(lterm, BraOp)
    exit_b = lterm.successors[exit_slot]
    blocks = list(blocks)
    last = max(blocks, key=region.get_block_index)
    full = trip_count is not None and factor >= trip_count
    if full:
        assert trip_count is not None
        factor = trip_count
        full = allow_full
    # main copies 1..F-1, built last first so each knows its successor
    next_h = header
    copies: list[tuple[Block, dict[Block, Block]]] = []
    for _ in range(factor - 1):
        h, bmap = _clone_copy(region, blocks, header, next_h, last)
        copies.insert(0, (h, bmap))
        next_h = h
    all_latches = [latch, *[bm[latch] for _, bm in copies]]
    touched: list[Block] = list(blocks) + [b for _, bm in copies for b in bm.values()]
    pro: list[Block] = []
    if trip_count is not None and not full:
        rem = trip_count % factor
        nxt = header
        for _ in range(rem):
            h, bmap = _clone_copy(region, blocks, header, nxt, preheader)
            make_uncond(bmap[latch], back_slot)
            pro = list(bmap.values()) + pro
            nxt = h
        if rem:
            retarget_edge(preheader, 0, nxt)
    if copies:
        all_latches[0] = retarget_edge(latch, back_slot, copies[0][0]).parent_block()  # type: ignore[assignment]
    if full:
        for lt in all_latches[:-1]:
            make_uncond(lt, back_slot)
        make_uncond(all_latches[-1], exit_slot)
        # the exit block joins the chain when the loop was its only predecessor
        # (an outer loop whose inner loop is gone may become single-block)
        touched = [preheader, *touched, exit_b]
        # the header keeps only the preheader's edge: drop the pragma, fold
        for op in list(header.ops):
            if isinstance(op, PragmaOp):
                header.erase_op(op)
        touched = _merge_chains(region, touched)
        cleanup(touched)
        return "full"
    if trip_count is not None:
        # drop the intermediate exit tests of the main copies
        for lt in all_latches[:-1]:
            make_uncond(lt, back_slot)
        # the copies merge into the header: its dead compares go too
        touched = [header, *_merge_chains(region, [b for b in touched if b is not header])]
        if pro:
            pro = _merge_chains(region, [preheader, *pro])
            cleanup(pro)
    cleanup(touched)
    return "partial"


_S32 = (-(1 << 31), (1 << 31) - 1)
_U32 = (0, (1 << 32) - 1)


def pow2_levels(factor: int) -> int:
    """The seed's ``31 - CLZ(factor - 1)``: the largest ``k`` with ``2^k <= factor-1``."""
    return (factor - 1).bit_length() - 1


def pow2_limit(iv: IVInfo, factor: int) -> int | None:
    """The IV bound that keeps every compare of the power-of-two scheme free
    of wrap-around (``iv <= limit`` for a rising IV, ``>=`` for a falling
    one), or None when the scheme does not apply: an ``eq``/``ne`` exit test
    (not monotone) or a span that no 32-bit start value admits."""
    if iv.cmp not in ("lt", "le", "gt", "ge"):
        return None
    # the largest IV offset (in strides) any group or epilogue compare reads
    span = max(factor - 2, 2 * (1 << pow2_levels(factor)) - 3) + (1 if iv.test_next else 0)
    lo, hi = _U32 if iv.unsigned else _S32
    d = span * iv.step
    limit = hi - d if iv.step > 0 else lo - d
    if not lo <= limit <= hi:
        return None
    return limit


def _test_block(region: Region, after: Block, header: Block, iv: IVInfo, latch_term: BraOp,
                offset: int, then_b: Block, else_b: Block) -> Block:
    """A block with the header's argument types that runs the loop's exit test
    on the IV ``offset`` strides ahead (no body): to ``then_b`` when the loop
    would continue there, else to ``else_b``; both get the block's arguments."""
    b = Block(arg_types=[a.type for a in header.args])
    region.insert_block_after(b, after)
    v = b.args[iv.iv_index]
    side = iv.increment.results[0] if iv.test_next else header.args[iv.iv_index]
    base = offset + (1 if iv.test_next else 0)
    w = IAdd3Op.make([v, signed_imm32(base * iv.step), RZ], [v.type])
    b.add_op(w)
    cmp = iv.compare.clone(value_mapper={side: w.results[0]})
    b.add_op(cmp)
    back = iv.back_slot
    succs: list[Block] = [then_b, else_b] if back == 0 else [else_b, then_b]
    b.add_op(BraOp(succs[0], list(b.args), guard=cmp.results[0], guard_neg=latch_term.guard_neg is not None,
                   fallthrough=succs[1], fallthrough_args=list(b.args)))
    return b


def unroll_unknown_pow2(region: Region, blocks: Sequence[Block], header: Block, latch: Block,
                        preheader: Block, iv: IVInfo, factor: int, limit: int) -> None:
    """Partial unroll by ``factor`` of a loop with an unknown trip count, with
    the seed's power-of-two epilogue decomposition (Step O Phase 4 of
    *EvaluateAndEmitFullUnroll*: ``levels = 31 - CLZ(factor-1)``, for
    ``k = levels .. 1`` a test block and ``2^k`` body copies).

    Layout (``r`` = body executions left, at least 1 on every block entry)::

        PH -> G:  iv within `limit`?  yes -> C, no -> the original loop
        C:        the exit test `factor-2` strides ahead continues?
                  yes (r >= factor) -> M, no (r <= factor-1) -> E_levels
        M:        `factor` copies, only the last keeps its exit test
                  (continue -> G, leave -> exit)
        E_k:      the exit test `2^k - 2` strides ahead continues?
                  yes (r >= 2^k) -> `2^k` copies, the last keeping its test
                  (continue -> E_k-1, leave -> exit); no -> E_k-1
        E_0:      the original loop: with one iteration left it runs once
                  and its own exit test leaves

    The exit test is monotone (``lt/le/gt/ge``) and ``limit`` keeps every
    IV value the tests read from wrapping, so "continues ``j`` strides ahead"
    means "at least ``j+1`` more iterations".  An IV outside ``limit``
    (near the wrap point) runs the original loop, which tests every
    iteration: exact for every trip count.  The original loop is also the
    last stage E_0 (ptxas's last stage is a single copy, but ori needs the
    loop for the wrap case anyway, and one body less is one copy less:
    364 SASS instructions over the 135 example kernels)."""
    route_escaping_values(blocks, latch, iv.exit_slot)
    lterm = latch.last_op
    assert isinstance(lterm, BraOp)
    last = max(blocks, key=region.get_block_index)
    back, ex = iv.back_slot, iv.exit_slot
    old_blocks = set(region.blocks)

    def chain(n: int, nxt: Block, keep_last: bool) -> Block:
        """``n`` copies in a chain (intermediate tests dropped); the last one's
        back edge goes to ``nxt`` (``keep_last``) or it always leaves."""
        h = nxt
        for i in range(n):
            h, bmap = _clone_copy(region, blocks, header, h, last)
            if i > 0:
                make_uncond(bmap[latch], back)
            elif not keep_last:
                make_uncond(bmap[latch], ex)
        return h

    # the guard G must exist before M (M's last copy branches back to it)
    g = Block(arg_types=[a.type for a in header.args])
    region.insert_block_after(g, last)
    # epilogue, smallest stage first; E_0 is the original loop (docstring)
    entry = header
    for k in range(1, pow2_levels(factor) + 1):
        body = chain(1 << k, entry, keep_last=True)
        entry = _test_block(region, last, header, iv, lterm, (1 << k) - 2, body, entry)
    main = chain(factor, g, keep_last=True)
    check = _test_block(region, last, header, iv, lterm, factor - 2, main, entry)
    # G: the wrap guard, on the IV itself
    v = g.args[iv.iv_index]
    sign = "u32" if iv.unsigned else "s32"
    ok = ISetPOp.make([v, signed_imm32(limit), PT], [PredType.unallocated()], mods=f"{'le' if iv.step > 0 else 'ge'}.{sign}")
    g.add_op(ok)
    g.add_op(BraOp(check, list(g.args), guard=ok.results[0], fallthrough=header,
                   fallthrough_args=list(g.args)))
    retarget_edge(preheader, 0, g)
    # the dropped exit tests leave dead compares in the copies; the copies
    # of one group are a straight chain: one block each
    made = [b for b in region.blocks if b not in old_blocks]
    cleanup(_merge_chains(region, made))


__all__ = ["cleanup", "pow2_levels", "pow2_limit", "route_escaping_values", "unroll_loop",
           "unroll_unknown_pow2"]
