"""Definitions next to their readers: before allocation, a P-file,
32-bit or 64-bit R value's definition moves down to its first reader when
that shortens live ranges and lengthens no other (save one bounded R-for-P
trade, below).  Option ``sink-definitions`` of ``ori-regalloc``.

The P file has seven registers.  Triton's masked loads compute their masks
in a row -- eight ``and.pred`` of a loop-invariant row mask and the K mask,
then eight loads -- so nine predicates are live before the first load and
ori spilled three of them to ``P2R``/``R2P`` homes on every K step.
ptxas's listing computes each mask right before its load (seed 002
"Complementary ptxas-side Knobs" names its allocator's ``SinkRematEnable``;
the seed gives no algorithm, so the rule is ori's):

A P-file definition ``D`` moves to just before its first reader when

* it is an instruction that may move at all
  and reads no memory (:func:`passes.hoist_invariants.safety.moves_freely`),
  and defines one P value, every reader of which is later in the block;
* every register it reads is live there anyway (read at or after that
  point, or live out of the block), except
  - one P operand: over the span ``D`` moves across, the P values live
    change by (operands lengthened) - 1 <= 0;
  - a compared value ``D`` alone reads (``ISETP p, x, ..`` with ``x =
    IADD3 b, 0x1``): its definition moves with ``D``, and the registers it
    reads count as ``D``'s;
  - one R operand, in a loop (where the homes' ``P2R``/``R2P`` run on
    every iteration), where the P file overflows (more than seven live) on
    the way, fewer R registers than the function's peak are live there
    (CUB's vsmem select sweep, whose twenty predicates are live outside
    any loop, went from 64 to 65 registers before these two conditions)
    and ``D`` reads no predicate: the R register is what a ``P2R`` home
    would take there anyway.  This is ptxas's attention loop
    (``IADD3 R33, R88, 0x1`` / ``ISETP.GE.AND P0, PT, R33, ..`` / ``FSEL``,
    the column base R88 live instead of four masks).  A comparison that
    also ANDs a predicate (a B-tile mask with the column mask) would keep
    that one live at each reader; where the allocator recomputes it
    instead, every reader pays an ISETP (Triton's matmul: three more).

Otherwise no R/UR range grows, so the R count and the recomputation of
spilled comparisons at their readers (:mod:`.remat`, which needs the
compared registers live there) are as before.

Nothing moves across a call or an ``ori-abi`` argument/result copy
(:func:`_fence`).

The block is walked bottom-up, so a row of definitions that share one
operand (the K mask, the column base) moves as a whole: the last one
lengthens the shared operand, each earlier one then finds it live.  A
block's moves are kept only when one of them frees a register
(lengthens nothing): a row of moves that each trade one range for another
changes no pressure, only the order the allocator sees.

**R definitions.**  A 32-bit R definition (unguarded, no prior value)
moves to its first reader when at most one 32-bit R register it reads is
not live there anyway: its own range shrinks by one register over the
span, the operand's grows by at most one.  Triton's matmul_i8 computes the
seven B-tile row values (``IADD3 R73, R2, 0x4``) at the top of the K loop
and reads them after the A tile's loads: they held seven registers across
those loads where ptxas keeps the one row base (77 registers against
ptxas's 72; now 72).  The same walk, the same gate: a block's moves are
kept only when one of them lengthens nothing.

**64-bit R definitions** (an address pair), in a second walk over the
order the first left: one whose registers are all live at its reader
anyway moves there; one that reads a 32-bit temporary computed for it
alone moves with that temporary (``IADD3 t, row, k`` / ``IMAD.WIDE a, t,
0x2, base``), which may lengthen one 32-bit operand (a row of them shares
``k``).  A block's 64-bit moves are kept only when they lower the most R
registers live in the block: Triton's tiles compute eight addresses, then
issue eight loads (ptxas computes each at its load), and where the block
holds the function's peak that is 14 registers (matmul_f16out on sm_90a:
72 -> 64 registers, 28 -> 32 warps); where the peak is elsewhere
(attention's softmax) the moves shorten nothing that counts and only
change the order the allocator meets pairs in: aimed at the same max
live, attention's allocation went from 71 registers to 76.

Figures (benchmarks/codesize_vs_ptxas.py, Triton sm_80): 3121 -> 3077
instructions, loop bodies 896 -> 856 with the exit sinking of
``ori-hoist-invariants``; the R-for-P trade alone took matmul_tf32 from
65 registers to 61 and attention's loop from 227 to 219 instructions; the
R rule (with the comparisons joined to their PLOP3s) took the Triton R sum
from 644 to 622 and the default groups' from 2389 to 2378, no kernel
gaining one, and the CUB vsmem select sweep from 3287 instructions to
3251.
"""

from __future__ import annotations

from collections import Counter

from xdsl.ir import Block, Operation, SSAValue
from xdsl.pattern_rewriter import PatternRewriter

from ori_dialect.analysis.cfg import CFG
from ori_dialect.analysis.dominators import DominatorTree
from ori_dialect.analysis.liveness import Liveness
from ori_dialect.analysis.loops import LoopInfo
from ori_dialect.ir.instruction import OriInstruction
from ori_dialect.ir.registers import OriRegisterType, PredType, R32Type, R64Type, RegFile
from ori_dialect.ops.control import CallOp
from ori_dialect.ops.predicate import ISetPOp, PLop3Op
from passes.abi.lower import ABI_COPY_ATTR
from passes.general_optimize.setp_combine import CombineSetp
from passes.hoist_invariants.profitability import scoreboarded_results
from passes.hoist_invariants.safety import moves_freely


def _is_reg(v: SSAValue) -> bool:
    t = v.type
    return isinstance(t, OriRegisterType) and not t.is_fixed


def _movable_def(op: Operation) -> bool:
    """One result, and :func:`~passes.hoist_invariants.safety.moves_freely`."""
    return isinstance(op, OriInstruction) and len(op.results) == 1 and moves_freely(op)


def _r_candidate(op: Operation) -> bool:
    """A 32- or 64-bit R definition the walk may move: unguarded, no prior
    value, and of fixed latency (an S2R or a MUFU moved next to its reader
    would stall it)."""
    if not _movable_def(op) or not isinstance(op.results[0].type, R32Type | R64Type):
        return False
    _, guard, prior = op.operand_groups()  # type: ignore[attr-defined]
    return guard is None and not prior and scoreboarded_results(op) == 0


def _candidate(op: Operation) -> bool:
    """A P-file definition the walk may move."""
    return _movable_def(op) and isinstance(op.results[0].type, PredType)


def _fence(op: Operation) -> bool:
    """Nothing moves across a call or an ABI copy (``ori-abi``'s
    pre-coloured argument and result registers): a value moved between an
    argument's copy and its call needed a register where the calling
    convention had taken them all (``abi_indirect``: no colouring)."""
    return isinstance(op, CallOp) or ABI_COPY_ATTR in op.attributes


P_REGISTERS = 7
"""P0-P6: beyond this many predicates live at once, the allocator gives some
of them ``P2R`` homes (one R register for up to seven)."""


def _pressure(ops: list[Operation], live_out: set[SSAValue]) -> dict[Operation, tuple[int, int]]:
    """(P values, R registers) live just before each op of a block whose
    ops are ``ops`` in that order."""
    live = {v for v in live_out if _is_reg(v)}
    out: dict[Operation, tuple[int, int]] = {}
    for op in reversed(ops):
        live.difference_update(op.results)
        live.update(v for v in op.operands if _is_reg(v))
        p = r = 0
        for v in live:
            t = v.type
            assert isinstance(t, OriRegisterType)
            if isinstance(t, PredType):
                p += 1
            elif t.REG_FILE is RegFile.R:
                r += t.num_regs()
        out[op] = (p, r)
    return out


def _plan(block: Block, live_out: set[SSAValue], pressure: dict[Operation, tuple[int, int]],
          r_peak: int, in_loop: bool, wide: bool = False) -> list[tuple[list[Operation], Operation]]:
    """The moves (definitions, the op they go before) for ``block``, in the
    order to apply them; [] when none frees a register.  ``pressure``:
    :func:`_pressure`; ``r_peak``: the function's most R registers live.
    ``wide``: the 64-bit R definitions alone, kept only where they lower
    the block's most R registers live (module docstring)."""
    order = list(block.ops)
    pos = {op: i for i, op in enumerate(order)}
    # fences before each op: nothing moves across one, so an op's count
    # never changes and a span holds a fence iff its ends' counts differ
    seg: dict[Operation, int] = {}
    n = 0
    for o in order:
        seg[o] = n
        n += _fence(o)
    moves: list[tuple[list[Operation], Operation]] = []
    frees = False

    def live_at(v: SSAValue, at: int, skip: set[Operation]) -> bool:
        if v in live_out:
            return True
        return any(u.operation not in skip and u.operation in pos and pos[u.operation] >= at
                   for u in v.uses)

    for op in reversed(list(block.ops)):
        if wide != (_r_candidate(op) and isinstance(op.results[0].type, R64Type)):
            continue
        if _r_candidate(op):
            users = [u.operation for u in op.results[0].uses]
            if not users or any(u not in pos for u in users):
                continue
            first = min(users, key=pos.__getitem__)
            t = pos[first]
            if t <= pos[op] + 1 or _fence(op) or seg[first] != seg[op]:
                continue
            ext = [v for v in dict.fromkeys(op.operands) if _is_reg(v) and not live_at(v, t, {op})]
            if any(not isinstance(v.type, R32Type) for v in ext) or len(ext) > 1:
                continue
            group = [op]
            if ext and isinstance(op.results[0].type, R64Type):
                # a pair for one register gains nothing, unless that one is
                # a temporary computed for this op alone: both move (Triton's
                # B-tile addresses, ``IADD3 t, row, k`` / ``IMAD.WIDE a, t,
                # 0x2, base``), lengthening at most one 32-bit operand of
                # the temporary (a row of them shares ``k``)
                d = ext[0].owner
                if not (sum(1 for _ in ext[0].uses) == 1 and isinstance(d, Operation)
                        and d in pos and _r_candidate(d) and seg[d] == seg[op]):
                    continue
                ext = [w for w in dict.fromkeys(d.operands)
                       if _is_reg(w) and not live_at(w, t, {op, d})]
                if any(not isinstance(w.type, R32Type) for w in ext) or len(ext) > 1:
                    continue
                group.insert(0, d)
            frees = frees or not ext
            _move_before(order, pos, group, first)
            moves.append((group, first))
            continue
        if not _candidate(op):
            continue
        users = [u.operation for u in op.results[0].uses]
        if not users or any(u not in pos for u in users):
            continue  # unread, or read in another block
        first = min(users, key=pos.__getitem__)
        t = pos[first]
        if t <= pos[op] + 1 or _fence(op) or seg[first] != seg[op]:
            continue
        group = [op]
        longer_p = longer_r = 0
        for v in dict.fromkeys(op.operands):
            if not _is_reg(v) or live_at(v, t, {op}):
                continue
            if isinstance(v.type, PredType):
                longer_p += 1
                continue
            d = v.owner
            if (sum(1 for _ in v.uses) == 1 and isinstance(d, Operation) and d.parent_block() is block
                    and d in pos and _movable_def(d)
                    and seg[d] == seg[op]):
                # the compared value goes with the comparison (its one reader)
                group.insert(0, d)
                for w in dict.fromkeys(d.operands):
                    if _is_reg(w) and not live_at(w, t, {op, d}):
                        if isinstance(w.type, PredType):
                            longer_p += 1
                        else:
                            longer_r += 1
                continue
            longer_r += 1
        if longer_p > 1 or longer_r > 1:
            continue
        if longer_r:
            # one R range for a predicate only where the P file overflows
            # on the way: a home would take an R register there anyway
            span = [pressure.get(o, (0, 0)) for o in order[pos[op]:t]]
            if (not in_loop or longer_p
                    or any(isinstance(v.type, PredType) and _is_reg(v) for v in op.operands)
                    or max(p for p, _ in span) <= P_REGISTERS
                    or max(r for _, r in span) >= r_peak):
                continue
        frees = frees or (longer_p == 0 and longer_r == 0)
        _move_before(order, pos, group, first)
        moves.append((group, first))
    if wide and moves and max(r for _, r in _pressure(order, live_out).values()) >= max(
            (r for _, r in pressure.values()), default=0):
        return []
    return moves if frees else []


def _move_before(order: list[Operation], pos: dict[Operation, int], group: list[Operation],
                 first: Operation) -> None:
    """Move ``group`` (in its order) right before ``first`` in the planned
    ``order``, keeping ``pos`` (op -> index) in step."""
    for g in group:
        i = pos[g]
        order.pop(i)
        at = pos[first] if pos[first] < i else pos[first] - 1
        order.insert(at, g)
        for k in range(min(i, at), len(order)):
            pos[order[k]] = k


def definitions_to_readers(func: Operation) -> int:
    """Move P-file, 32-bit and 64-bit R definitions down to their first
    readers (module docstring).  Returns the number of definitions moved."""
    cfg = CFG.compute(func)
    lv = Liveness(cfg)
    depth = LoopInfo(cfg, DominatorTree(cfg)).depths()
    values = lv.numbering.values
    moved = 0
    outs = [{values[i] for i in lv.live_out(b)} for b in range(lv.cfg.num_blocks)]
    pressure = [_pressure(list(block.ops), outs[b]) for b, block in enumerate(lv.cfg.blocks)]
    r_peak = max((r for per in pressure for _, r in per.values()), default=0)
    readers: list[Operation] = []
    for b, block in enumerate(lv.cfg.blocks):
        for group, before in _plan(block, outs[b], pressure[b], r_peak, depth[b] > 0):
            for op in group:
                op.detach()
                block.insert_op_before(op, before)
                moved += 1
            if isinstance(before, PLop3Op):
                readers.append(before)
        # then the address pairs, on the order the moves above left (an
        # op's move does not change what is live out of its block)
        wide = _pressure(list(block.ops), outs[b])
        for group, before in _plan(block, outs[b], wide, r_peak, depth[b] > 0, wide=True):
            for op in group:
                op.detach()
                block.insert_op_before(op, before)
                moved += 1
    _combine(readers)
    return moved


def _combine(readers: list[Operation]) -> None:
    """A comparison moved next to the PLOP3 that alone reads it becomes
    that PLOP3 (:mod:`passes.general_optimize.setp_combine`: ``ISETP.CMP.AND
    d, a, b, q`` for ``PLOP3 d, (a CMP b), q``), which the pass could not do
    while other instructions stood between them."""
    pattern = CombineSetp(Counter())
    for op in readers:
        if op.parent is None:
            continue
        setps = [v.owner for v in op.operands if isinstance(v.owner, ISetPOp)]
        pattern.match_and_rewrite(op, PatternRewriter(op))
        for d in setps:
            if d.parent is not None and not any(r.uses for r in d.results):
                d.detach()
                d.erase()


__all__ = ["definitions_to_readers"]
