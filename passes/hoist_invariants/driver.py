"""The LICM driver: guard, loop walk, boundary analysis, per-block policy,
preheader find-or-create and instruction movement (seed 001 "Guard Function
(sub_7DDB50)", "LICM Outer Loop (sub_8FF780)", "Per-Block Knob 381 Policy",
"Multi-Depth Loop Handling" and "Instruction Movement (sub_8F7AE0)").

Per function: the master switch and the invocation limit, then more than
two blocks (the guard).  Loops are visited innermost first (post-order of
the loop forest, the seed's walk from the last RPO entry).  Per loop:

1. boundary analysis: a block other than the header entered from outside
   the loop skips it; a loop with inner loops (multi-depth) is skipped when
   it contains a barrier or an indirect jump, or when multi-depth hoisting
   (knob 220) is off;
2. the HoistLate policy of the header (knob 381): 0 always, 1 only a loop
   without inner loops, 3 never, with the per-block override string;
3. the header's block must not be the function's entry (a preheader must
   be able to exist);
4. stages 2-4 (:mod:`.engine`) over the whole loop; the invariants of the
   mid blocks (at the loop's own depth, neither header nor back-edge
   block), which ptxas's driver does not visit, are dropped unless
   :mod:`.mid_blocks` lets them move;
5. stages 1 and 5 (:mod:`.budget`, :mod:`.profitability`) block by block in
   reverse post-order; a block stage 5 rejects keeps its invariants, and so
   does everything that uses them;
6. the invariants move, in program order, to the end of the dedicated
   preheader (``ori-loop-simplify``'s form), or of a preheader created on
   the first move: a new block appended to the function that takes the
   header's block arguments and receives every entry edge; moved copies of
   one value merge into the first (:func:`.mid_blocks.merge_copies`).

Blocks of an inner loop (multi-depth) take part when the seed's nested-hoist
condition holds for the child loop that contains them::

    allow_nested = not DisableNestedHoist and child has no inner loop
                   and child body weight > 1 and child has one entry edge
                   and child body weight < child header weight x max_iterations

(the seed writes ``is_simple_loop``, which contradicts multi-depth; ori reads
it as the child loop being simple; ``max_iterations`` is
MaxMidHeaderSizeRateForAggressiveHoist, 0 = unlimited).

**Fixed point.**  The seed walks the loops once.  Hoisting shrinks a loop,
which changes stage 5's denominators, so a second run could find more; ori
repeats the walk until it moves nothing, so that the pass is idempotent
(issue 15: a second run hoists nothing).  Every round moves at least one
instruction to a shallower loop depth, so the repetition ends.
"""

from __future__ import annotations

from dataclasses import dataclass, field

from xdsl.ir import Block, Operation

from ori_dialect.analysis import LoopInfo
from ori_dialect.analysis.loops import Loop
from ori_dialect.ops.control import BraOp
from passes.hoist_invariants.budget import (
    BACK_EDGE,
    CONDITIONAL,
    DOMINATED,
    HEADER,
    BudgetKnobs,
    block_weight,
    hoist_budget,
)
from passes.hoist_invariants.engine import BlockInfo, mark_invariants, prune
from passes.hoist_invariants.mid_blocks import merge_copies, restrict_mid_blocks
from passes.hoist_invariants.profitability import is_profitable
from passes.hoist_invariants.safety import loop_memory
from passes.loop_simplify import has_dedicated_preheader
from passes.loop_utils import forwarding_block, retarget_edge

NEVER, ALWAYS, INNER_ONLY = 3, 0, 1


@dataclass(frozen=True)
class DriverKnobs:
    budget: BudgetKnobs
    policy: int
    overrides: dict[int, int]
    multi_depth: bool
    disable_nested: bool
    max_iterations: int
    set_based: bool
    mid_block_low_latency: bool = False
    """EnableHoistLowLatencyInstMidBlock (:mod:`.mid_blocks`)."""
    hoist_duplicates: bool = True
    """ori's hoist-duplicates (:mod:`.mid_blocks`)."""


@dataclass
class LoopOutcome:
    hoisted: int = 0
    preheader: Block | None = None
    reason: str | None = None
    created: bool = False
    """The preheader was created by this pass."""
    propagated: int = 0
    revoked: int = 0
    merged: int = 0
    """Moved copies merged into an identical moved instruction."""


@dataclass
class FunctionReport:
    remarks: list[tuple[int, str]] = field(default_factory=list)
    hoisted: int = 0
    loops_hoisted: int = 0
    loops_not: int = 0
    rounds: int = 0


def _child_containing(lp: Loop, li: LoopInfo, b: int) -> Loop | None:
    inner = li.loop_for(b)
    while inner is not None and inner.parent is not lp:
        inner = inner.parent
    return inner


def nested_allowed(child: Loop, li: LoopInfo, k: DriverKnobs,
                   weights: dict[int, int] | None = None) -> bool:
    """The seed's nested-hoist condition for the blocks of ``child``
    (``weights``: block weights already counted, by block index)."""
    if k.disable_nested or child.children:
        return False
    blocks = li.cfg.blocks
    w = weights if weights is not None else {}

    def weight(b: int) -> int:
        if b not in w:
            w[b] = block_weight(blocks[b])
        return w[b]

    header_w = weight(child.header)
    body_w = sum(weight(b) for b in child.blocks if b != child.header)
    entries = [p for p in li.cfg.preds[child.header] if p not in child.blocks]
    if body_w <= 1 or len(entries) != 1:
        return False
    return k.max_iterations == 0 or body_w < header_w * k.max_iterations


def boundary_reason(lp: Loop, li: LoopInfo, ids: dict[Block, int]) -> str | None:
    """The seed's boundary analysis (sub_74D720): why the whole loop is skipped."""
    cfg = li.cfg
    for b in sorted(lp.blocks):
        if b != lp.header and any(p not in lp.blocks for p in cfg.preds[b]):
            return f"^bb{ids[cfg.blocks[b]]} is entered from outside the loop"
    if lp.children:
        mem = loop_memory([cfg.blocks[b] for b in lp.blocks])
        if mem.barrier:
            return "barrier in a multi-depth loop"
        if mem.indirect_jump:
            return "indirect jump (BRX) in a multi-depth loop"
    return None


def block_infos(lp: Loop, li: LoopInfo, k: DriverKnobs,
                weights: dict[int, int] | None = None) -> list[BlockInfo]:
    cfg, dom = li.cfg, li.domtree
    exiting = lp.exiting_blocks
    out: list[BlockInfo] = []
    # one verdict per inner loop, not one per block of it (the sums of its
    # weights made this quadratic in the inner loop's size, issue 20)
    allowed: dict[int, bool] = {}
    for b in cfg.rpo:
        if b not in lp.blocks:
            continue
        if b == lp.header:
            mode = HEADER
        elif b in lp.latches:
            mode = BACK_EDGE
        elif all(dom.dominates(b, latch) for latch in lp.latches):
            mode = DOMINATED
        else:
            mode = CONDITIONAL
        guaranteed = bool(exiting) and all(dom.dominates(b, e) for e in exiting) and all(
            dom.dominates(b, latch) for latch in lp.latches)
        eligible = True
        if li.depth(b) > lp.depth:
            child = _child_containing(lp, li, b)
            if child is None:
                eligible = False
            else:
                if child.header not in allowed:
                    allowed[child.header] = nested_allowed(child, li, k, weights)
                eligible = allowed[child.header]
        mid = li.depth(b) == lp.depth and mode in (DOMINATED, CONDITIONAL)
        out.append(BlockInfo(cfg.blocks[b], mode, guaranteed, eligible, mid))
    return out


def find_or_create_preheader(func: Operation, lp: Loop, li: LoopInfo) -> tuple[Block, bool]:
    """The dedicated preheader of ``lp``, or a new one (appended to the
    function's region) that receives every entry edge.  Returns (block, created)."""
    cfg = li.cfg
    header = cfg.blocks[lp.header]
    if has_dedicated_preheader(cfg, lp):
        src = next(e.src for e in cfg.in_edges[lp.header] if e.src not in lp.blocks)
        return cfg.blocks[src], False
    pre = forwarding_block([a.type for a in header.args], header)
    func.regions[0].add_block(pre)
    entries = [e for e in cfg.in_edges[lp.header] if e.src not in lp.blocks]
    for e in entries:
        retarget_edge(cfg.blocks[e.src], e.slot, pre)
    return pre, True


def hoist_loop(func: Operation, lp: Loop, li: LoopInfo, ids: dict[Block, int],
               k: DriverKnobs) -> LoopOutcome:
    """Stages 1-5 and the movement for one loop.  ``ids``: block numbers for
    the remarks (the function as the pass received it)."""
    out = LoopOutcome()
    cfg = li.cfg
    hid = ids[cfg.blocks[lp.header]]
    why = boundary_reason(lp, li, ids)
    if why is None and lp.children and not k.multi_depth:
        why = "multi-depth loop (multi-depth-hoist=false)"
    if why is not None:
        out.reason = why
        return out
    policy = k.overrides.get(hid, k.overrides.get(-1, k.policy))
    if policy == NEVER:
        out.reason = "hoist-late policy 3 (never)"
        return out
    if policy == INNER_ONLY and lp.children:
        out.reason = "hoist-late policy 1 (inner loops only) and the loop contains loops"
        return out
    if lp.header == cfg.entry:
        out.reason = "the header is the function's entry block (no preheader can exist)"
        return out
    blocks = cfg.blocks
    weights = {b: block_weight(blocks[b]) for b in lp.blocks}
    header_w = weights[lp.header]
    body_w = sum(w for b, w in weights.items() if b != lp.header)
    infos = block_infos(lp, li, k, weights)
    marking = mark_invariants(infos, set_based=k.set_based)
    out.propagated, out.revoked = marking.propagated, marking.revoked
    inv = marking.invariant
    in_mid = restrict_mid_blocks(inv, infos, low_latency=k.mid_block_low_latency,
                                 duplicates=k.hoist_duplicates)
    if not inv:
        if in_mid:
            out.reason = (f"its {in_mid} invariant instruction{'s' if in_mid != 1 else ''} "
                          f"{'are' if in_mid != 1 else 'is'} in mid blocks (between the "
                          f"header and the back edge; ptxas does not visit them)")
        elif marking.blocked:
            reasons = ", ".join(f"{n} {r}" for r, n in sorted(marking.blocked.items()))
            out.reason = f"no movable invariant instruction ({reasons})"
        else:
            out.reason = "no invariant instruction"
        return out
    rejected: str | None = None
    # prune reaches its fixed point in one scan (infos are in RPO and SSA
    # definitions dominate their uses), so it is rerun only after a block's
    # instructions were dropped: once per block made this quadratic in the
    # loop's size (7 s of cub_device's 26 s, issue 20).
    dirty = True
    for info in infos:
        if dirty:
            prune(inv, infos)
            dirty = False
        if not any(op in inv for op in info.block.ops):
            continue
        budget = hoist_budget(k.budget, is_simple=not lp.children, hoist_mode=info.hoist_mode,
                              num_back_edges=len(lp.latches),
                              is_inner=li.depth(cfg.index[info.block]) > lp.depth)
        verdict = is_profitable(info.block.ops, inv, pass_id=k.budget.pass_id, budget=budget,
                                is_hoist_safe=info.hoist_mode != CONDITIONAL,
                                header_weight=header_w, body_weight=body_w)
        if not verdict.profitable:
            for op in info.block.ops:
                inv.discard(op)
            dirty = True
            if rejected is None:
                rejected = f"not profitable in ^bb{ids[info.block]}: {verdict.text()}"
    if dirty:
        prune(inv, infos)
    moving = [op for info in infos for op in info.block.ops if op in inv]
    if not moving:
        out.reason = rejected or "no invariant instruction"
        return out
    pre, out.created = find_or_create_preheader(func, lp, li)
    term = pre.last_op
    assert isinstance(term, BraOp)
    for op in moving:
        op.detach()
        pre.insert_op_before(op, term)
    out.merged = merge_copies(moving)
    out.hoisted = len(moving)
    out.preheader = pre
    return out


def hoist_function(func: Operation, k: DriverKnobs, *, max_rounds: int = 64) -> FunctionReport:
    """Hoist invariants out of every loop of ``func`` (guard checked by the caller)."""
    rep = FunctionReport()
    region = func.regions[0]
    ids = {b: i for i, b in enumerate(region.blocks)}
    outcomes: dict[Block, LoopOutcome] = {}
    first_order: list[Block] = []
    revisit: set[Block] | None = None
    """Headers of the loops a later round visits: those that hoisted in the
    round before, and the loops around them (whose preheader blocks received
    the ops).  No other loop's blocks or operand definitions changed, so it
    would decide as it did (issue 20: a second full round only to find
    nothing left made the pass superlinear)."""
    for _ in range(max_rounds):
        rep.rounds += 1
        li = LoopInfo.compute(func)
        post = list(li.innermost_first())
        if not first_order:
            first_order = [li.cfg.blocks[lp.header] for lp in post]
        touched: set[Block] = set()
        # By height (leaves first), the post-order within a height: a created
        # preheader changes only its own loop's entry edges and the blocks of
        # the loops around it, which are all of a greater height, so the loop
        # info is recomputed when a height starts after one was created --
        # once per nesting level, not once per created preheader (issue 20).
        # Each loop still comes after its children, and its decision reads
        # only its own nest, so the result is the post-order's.
        height: dict[int, int] = {}
        for lp in post:
            height[lp.header] = 1 + max((height[c.header] for c in lp.children), default=-1)
        order = [(height[lp.header], li.cfg.blocks[lp.header])
                 for lp in sorted(post, key=lambda lp: height[lp.header])
                 if revisit is None or li.cfg.blocks[lp.header] in revisit]
        moved = False
        stale = False
        level = 0
        for h, hb in order:
            if stale and h != level:
                li = LoopInfo.compute(func)
                stale = False
            level = h
            hid = li.cfg.index.get(hb)
            lp = li.loop_with_header(hid) if hid is not None else None
            if lp is None:
                continue
            res = hoist_loop(func, lp, li, ids, k)
            agg = outcomes.setdefault(hb, LoopOutcome(reason=res.reason))
            if res.hoisted:
                moved = True
                outer: Loop | None = lp
                while outer is not None:
                    touched.add(li.cfg.blocks[outer.header])
                    outer = outer.parent
                agg.hoisted += res.hoisted
                agg.merged += res.merged
                agg.preheader = res.preheader
            if res.created:
                # a created preheader changes the CFG (and the outer loops'
                # blocks); it is numbered after the blocks the pass received
                assert res.preheader is not None
                ids[res.preheader] = len(ids)
                stale = True
        if not moved:
            break
        revisit = touched
    for hb in first_order:
        o = outcomes.get(hb)
        if o is None:
            continue
        if o.hoisted:
            assert o.preheader is not None
            rep.loops_hoisted += 1
            rep.hoisted += o.hoisted
            plural = "s" if o.hoisted != 1 else ""
            text = (f"hoisted {o.hoisted} instruction{plural} from ^bb{ids[hb]} to "
                    f"^bb{ids[o.preheader]}")
            if o.merged:
                text += f" ({o.merged} duplicate cop{'ies' if o.merged != 1 else 'y'} merged away)"
            rep.remarks.append((ids[hb], text))
        else:
            rep.loops_not += 1
            rep.remarks.append((ids[hb], f"not hoisted: {o.reason or 'no invariant instruction'}"))
    return rep


__all__ = ["DriverKnobs", "FunctionReport", "LoopOutcome", "boundary_reason", "hoist_function",
           "hoist_loop", "nested_allowed"]
