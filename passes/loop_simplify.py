"""``ori-loop-simplify``: phase 18, *OriLoopSimplification* (seed 001,
"Phase 18 -- OriLoopSimplification").

Puts every natural loop into the canonical form the later loop passes
(``ori-loop-unroll``, pipelining, LICM) assume:

* **single latch** (the seed's *CanonicalizeBackEdges*, sub_789BE0): when
  several back edges enter a header, a new block is inserted that takes the
  header's block arguments and branches to the header; every back edge is
  redirected to it with the values it passed.  It runs even when
  ``loop-make-single-entry=false``, as in the seed.
* **dedicated preheader** (*LoopMakeSingleEntry*, knob 487, and
  *InsertPreheaderIfNeeded*, sub_9253C0): when the header does not have
  exactly one predecessor outside the loop whose only successor is the header,
  a new block (the header's argument types, branching to the header) is
  inserted before the header and every entry edge is redirected to it.

Loops that cannot be put in canonical form are left alone and reported on
stderr (``remark: @f ^bbN: loop not canonicalized: ...``): a loop whose
header is the function's entry block (an entry block cannot get a
predecessor) and irreducible regions (no natural loop, several entries).
With ``remarks=true`` every change is reported too.

The pass is idempotent: a canonical loop is not touched.

Knobs (seed 001 "Related Knobs", kebab case, the seed's defaults):

* ``loop-make-single-entry`` (true): preheader insertion (the master enable).
* ``opt-level`` (2): ptxas peels loops at -O4/-O5 (*PeelOuterEdges*,
  sub_7753F0); ``loop-peel-inversion``, ``enable-single-thread-peeling-loops``,
  ``gen-peeling-loops-for-syncs``, ``assert-if-peeling-loop-for-tex-surf``
  (all off).  ori does not peel: asking for peeling (opt level 4 or 5, or
  any of the peeling knobs) prints one remark per function saying peeling is
  not supported, and the loops are canonicalized without it.
* ``loop-inversion`` (true) and ``loop-inversion-budget`` (-1 = unset, no
  limit; else the most header instructions that may be copied): **loop
  inversion**.  The seed lists ``LoopInversion`` among phase 18's knobs,
  enabled by default, and the unroller (phase 22, Step C) only handles loops
  whose latch ends in a conditional branch (code 13 otherwise) -- so the
  canonical form that leaves phase 18 is the bottom-tested (do-while) loop,
  and ori inverts by default.  A *top-tested* loop (one latch ending in an
  unconditional branch to a header that ends in a guarded branch with one
  successor outside the loop) gets a copy of its header in the preheader
  (the guard: does the loop run at all) and one at the end of the latch (the
  bottom test); the header's in-loop successor becomes the new header (split
  off first when it has other predecessors) and gets a preheader of its own.
  A guard on constants that always enters becomes a plain branch.  Loops
  that cannot be inverted are reported (``top-tested loop not inverted:
  ...``): the header is the function entry block, no dedicated preheader
  (``loop-make-single-entry=false``), the header exceeds
  ``loop-inversion-budget``, the header uses a convergence barrier register
  (the seed suppresses edge transformations in convergent code), or a header
  value is used after the loop while the exit block has other predecessors.
  ``ori-loop-unroll`` rejects loops left top-tested with code 13.

A preheader inserted for a single entry edge passes the edge's values on
directly (no block arguments), so the IV analysis sees constant initial
values behind a guard; for several entry edges it takes the header's
argument types and forwards them.

The convergence flag of the seed (code object +1380 bit 7) has no ori
counterpart; no edge splitting is suppressed.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import ClassVar

from xdsl.context import Context
from xdsl.dialects.builtin import ModuleOp
from xdsl.ir import Block, Operation, SSAValue
from xdsl.passes import ModulePass
from xdsl.utils.exceptions import PassFailedException

from ori_dialect.analysis import CFG, LoopInfo, functions_of
from ori_dialect.analysis.loops import Loop
from ori_dialect.ir.registers import BarrierType
from ori_dialect.ops.control import BraOp, PragmaOp
from passes.contract import Requirement, emit_remark, option, require
from passes.loop_utils import (
    delete_dead,
    fold_isetp,
    forwarding_block,
    make_uncond,
    rebuild_bra,
    retarget_edge,
)


def _name(func: Operation) -> str:
    return func.sym_name.data  # type: ignore[attr-defined]


def _remark(func: Operation, bid: int | None, msg: str) -> None:
    emit_remark(_name(func), msg, block=bid)


def has_dedicated_preheader(cfg: CFG, lp: Loop) -> bool:
    """One entry edge, from a block whose only out-edge it is (an unguarded
    ``ori.bra``).  ``Loop.preheader`` also accepts a guarded branch naming the
    header twice; ori's canonical form does not."""
    ins = [e for e in cfg.in_edges[lp.header] if e.src not in lp.blocks]
    return len(ins) == 1 and len(cfg.out_edges[ins[0].src]) == 1


def simplify_function(
    func: Operation,
    *,
    make_single_entry: bool = True,
    remarks: bool = False,
) -> int:
    """Canonicalize the loops of ``func``; returns the number of blocks inserted."""
    region = func.regions[0]
    if region.first_block is None:
        return 0
    li = LoopInfo.compute(func)
    cfg = li.cfg
    blocks = cfg.blocks
    # Plan with Block objects first: every edge has one destination, so the
    # edges retargeted for one header never belong to another header's plan.
    plans: list[tuple[Block, list[tuple[Block, int]], list[tuple[Block, int]], int]] = []
    for lp in li.loops:
        h = lp.header
        back = [(blocks[e.src], e.slot) for e in cfg.in_edges[h] if e.src in lp.blocks]
        need_latch = len(lp.latches) > 1
        entry_edges: list[tuple[Block, int]] = []
        if make_single_entry and not has_dedicated_preheader(cfg, lp):
            if h == cfg.entry:
                _remark(func, h, "loop not canonicalized: the header is the function entry block "
                        "(no preheader can be inserted)")
            else:
                entry_edges = [(blocks[e.src], e.slot) for e in cfg.in_edges[h] if e.src not in lp.blocks]
                if any(not isinstance(b.last_op, BraOp) for b, _ in entry_edges):
                    _remark(func, h, "loop not canonicalized: an entry edge does not come from ori.bra")
                    entry_edges = []
        if need_latch and any(not isinstance(b.last_op, BraOp) for b, _ in back):
            _remark(func, h, "loop not canonicalized: a back edge does not come from ori.bra")
            back = []
            need_latch = False
        if need_latch or entry_edges:
            plans.append((blocks[h], back if need_latch else [], entry_edges, h))
    for r in li.irreducible_regions:
        _remark(func, min(r.entries), "irreducible region not canonicalized: entered at "
                + " ".join(f"^bb{b}" for b in r.entries))
    inserted = 0
    for header, back, entry_edges, hid in plans:
        types = [a.type for a in header.args]
        if back:
            latch = forwarding_block(types, header)
            last_src = max(back, key=lambda e: region.get_block_index(e[0]))[0]
            region.insert_block_after(latch, last_src)
            for src, slot in back:
                retarget_edge(src, slot, latch)
            inserted += 1
            if remarks:
                _remark(func, hid, f"merged {len(back)} back edges into a single latch")
        if len(entry_edges) == 1:
            # One entry edge: the preheader passes the edge's values on directly
            # (they dominate it), so the IV analysis still sees the initial
            # values (e.g. a ``mov`` of a constant behind a zero-trip guard).
            src, slot = entry_edges[0]
            term = src.last_op
            assert isinstance(term, BraOp)
            pre = Block()
            pre.add_op(BraOp(header, list(term.edge_args(slot))))
            region.insert_block_before(pre, header)
            retarget_edge(src, slot, pre, [])
        elif entry_edges:
            pre = forwarding_block(types, header)
            region.insert_block_before(pre, header)
            for src, slot in entry_edges:
                retarget_edge(src, slot, pre)
        if entry_edges:
            inserted += 1
            if remarks:
                _remark(func, hid, f"inserted a preheader for {len(entry_edges)} entry edges")
    return inserted


def _loop_blocks(li: LoopInfo, lp: Loop) -> set[Block]:
    return {li.cfg.blocks[b] for b in lp.blocks}


def _top_tested(li: LoopInfo, lp: Loop) -> tuple[Block, Block, int] | None:
    """``(latch, header, in_slot)`` when ``lp`` is top-tested: one latch ending
    in an unconditional ``ori.bra`` to the header, and a header (not the latch)
    ending in a guarded ``ori.bra`` with one successor inside the loop (slot
    ``in_slot``) and one outside.  None for any other shape."""
    if len(lp.latches) != 1 or lp.latches[0] == lp.header:
        return None
    blocks = li.cfg.blocks
    latch, header = blocks[lp.latches[0]], blocks[lp.header]
    lt, ht = latch.last_op, header.last_op
    if not isinstance(lt, BraOp) or lt.guard is not None or lt.successors[0] is not header:
        return None
    if not isinstance(ht, BraOp) or ht.guard is None or ht.fallthrough is None:
        return None
    inside = [li.cfg.index.get(s) in lp.blocks for s in ht.successors]
    if inside.count(True) != 1:
        return None
    return latch, header, inside.index(True)


def _uses_barrier(op: Operation) -> bool:
    return any(isinstance(v.type, BarrierType) for v in (*op.operands, *op.results))


def _clone_header_into(dest: Block, header: Block, args: list[SSAValue]) -> BraOp:
    """Replace ``dest``'s terminator by a copy of ``header``'s instructions and
    branch, with the header's arguments bound to ``args``.  Returns the copied
    branch."""
    old = dest.last_op
    assert isinstance(old, BraOp)
    dest.erase_op(old)
    vmap: dict[SSAValue, SSAValue] = dict(zip(header.args, args))
    new: Operation | None = None
    for op in header.ops:
        if isinstance(op, PragmaOp):
            continue
        new = op.clone(value_mapper=vmap)
        dest.add_op(new)
    assert isinstance(new, BraOp)
    return new


def invert_loop(func: Operation, li: LoopInfo, lp: Loop, budget: int) -> str | None:
    """Rotate the top-tested loop ``lp`` into a guard and a bottom-tested loop
    (seed 001 phase 18, knob ``LoopInversion``); returns None on success, or
    why the loop was left alone.

    The header ``H`` (its instructions and its exit test) is copied twice:
    into the preheader, where it becomes the guard deciding whether the loop
    runs at all, and onto the end of the latch, where it becomes the
    bottom test whose true side is the new back edge.  ``H`` is then dead and
    deleted; its in-loop successor ``S`` is the new header.  The header's
    instructions run exactly as often as before (once on entry plus once per
    back edge), so instructions with effects may be copied too.  Values of
    ``H`` used in the body become new arguments of ``S``; values of ``H``
    used after the loop become new arguments of the exit block."""
    shape = _top_tested(li, lp)
    assert shape is not None
    latch, header, in_slot = shape
    cfg = li.cfg
    region = func.regions[0]
    if lp.header == cfg.entry:
        return "the header is the function entry block"
    if not has_dedicated_preheader(cfg, lp):
        return "no dedicated preheader"
    pre = cfg.blocks[next(e.src for e in cfg.in_edges[lp.header] if e.src not in lp.blocks)]
    n_ops = sum(1 for op in header.ops if not isinstance(op, PragmaOp)) - 1
    if budget >= 0 and n_ops > budget:
        return f"the header has {n_ops} instructions (loop-inversion-budget={budget})"
    if any(_uses_barrier(op) for op in header.ops):
        # the seed suppresses edge transformations in convergent code (+1380 bit 7)
        return "the header uses a convergence barrier register"
    loop = _loop_blocks(li, lp)
    term = header.last_op
    assert isinstance(term, BraOp)
    out_slot = 1 - in_slot
    exit_b = term.successors[out_slot]
    h_vals: list[SSAValue] = list(header.args)
    for op in header.ops:
        h_vals.extend(op.results)
    used_after = [v for v in h_vals if any(u.operation.parent_block() not in loop for u in v.uses)]
    if used_after and sum(1 for _ in exit_b.uses) != 1:
        return "a header value is used after the loop and the exit block has other predecessors"
    # the new header: the in-loop successor, split off when it has other predecessors
    s_in = term.successors[in_slot]
    if sum(1 for _ in s_in.uses) != 1:
        fwd = forwarding_block([a.type for a in s_in.args], s_in)
        region.insert_block_after(fwd, header)
        term = retarget_edge(header, in_slot, fwd)
        s_in = fwd
        loop.add(fwd)
    body = loop - {header}
    # SSA repair: header values used in the body / after the loop travel as arguments
    in_extra: list[SSAValue] = []
    out_extra: list[SSAValue] = []
    for v in h_vals:
        if any(u.operation.parent_block() in body for u in v.uses):
            a = s_in.insert_arg(v.type, len(s_in.args))
            v.replace_uses_with_if(a, lambda u: u.operation.parent_block() in body)
            in_extra.append(v)
        if any(u.operation.parent_block() not in loop for u in v.uses):
            a = exit_b.insert_arg(v.type, len(exit_b.args))
            v.replace_uses_with_if(a, lambda u: u.operation.parent_block() not in loop)
            out_extra.append(v)
    if in_extra or out_extra:
        args = [list(term.edge_args(i)) for i in range(2)]
        args[in_slot] += in_extra
        args[out_slot] += out_extra
        term = rebuild_bra(term, None, args)
    # the guard (in the preheader) and the bottom test (at the end of the latch)
    lt = latch.last_op
    assert isinstance(lt, BraOp)
    bottom = _clone_header_into(latch, header, list(lt.edge_args(0)))
    assert bottom.successors[in_slot] is s_in
    pt = pre.last_op
    assert isinstance(pt, BraOp)
    n_before = len(list(pre.ops)) - 1
    guard = _clone_header_into(pre, header, list(pt.edge_args(0)))
    # a guard that always enters (constant init and bound) becomes a plain branch
    taken = fold_isetp(guard.guard) if guard.guard is not None else None
    if taken is not None:
        enter_when_p = (in_slot == 0) != (guard.guard_neg is not None)
        if taken == enter_when_p:
            make_uncond(pre, in_slot)
            delete_dead(list(pre.ops)[n_before:])
    # the pragmas that marked the loop now mark its new header
    first = s_in.first_op
    for op in list(header.ops):
        if isinstance(op, PragmaOp):
            op.detach()
            if first is None:
                s_in.add_op(op)
            else:
                s_in.insert_op_before(op, first)
    # the old header has no predecessor left
    region.detach_block(header)
    header.erase(safe_erase=False)
    return None


def invert_function(func: Operation, *, budget: int = -1, remarks: bool = False) -> int:
    """Invert every top-tested loop of ``func``; returns how many were inverted.
    Loops are taken outermost first (an inner loop's header copies then land in
    the outer loop's body, which is already rotated)."""
    if func.regions[0].first_block is None:
        return 0
    li = LoopInfo.compute(func)
    todo = [li.cfg.blocks[lp.header] for lp in li.outermost_first() if _top_tested(li, lp)]
    done = 0
    for hb in todo:
        li = LoopInfo.compute(func)
        hid = li.cfg.index.get(hb)
        lp = li.loop_with_header(hid) if hid is not None else None
        if lp is None or _top_tested(li, lp) is None:
            continue
        why = invert_loop(func, li, lp, budget)
        if why is not None:
            _remark(func, hid, f"top-tested loop not inverted: {why}")
        else:
            done += 1
            if remarks:
                _remark(func, hid, "inverted a top-tested loop (guard + bottom test)")
    return done


@dataclass(frozen=True)
class LoopSimplifyPass(ModulePass):
    """Dedicated preheaders, single latches and inverted (bottom-tested) loops (phase 18)."""

    name = "ori-loop-simplify"
    REQUIRES: ClassVar[frozenset[Requirement]] = frozenset({Requirement.SSA})
    PRESERVES: ClassVar[frozenset[type]] = frozenset()

    loop_make_single_entry: bool = option(
        True, "LoopMakeSingleEntry (knob 487): insert dedicated preheaders (the master "
        "enable; single latches are made even when off)")
    opt_level: int = option(
        2, "ptxas -O level, 0..5: at 4 and 5 ptxas peels loops (PeelOuterEdges); ori does "
        "not peel and says so in a remark")
    loop_inversion: bool = option(
        True, "LoopInversion: rotate top-tested loops into bottom-tested ones (guard in the "
        "preheader, test at the latch), as the unroller expects")
    loop_inversion_budget: int = option(
        -1, "LoopInversionBudget: the most header instructions inversion may copy; "
        "-1 = unset, no limit")
    loop_peel_inversion: bool = option(
        False, "LoopPeelInversion: loop peeling combined with inversion; ori does not peel "
        "(a remark says so)")
    enable_single_thread_peeling_loops: bool = option(
        False, "EnableSingleThreadPeelingLoops: peeling for single-thread paths; ori does not "
        "peel (a remark says so)")
    gen_peeling_loops_for_syncs: bool = option(
        False, "GenPeelingLoopsForSyncs: peeling loops around sync instructions; ori does not "
        "peel (a remark says so)")
    assert_if_peeling_loop_for_tex_surf: bool = option(
        False, "AssertIfPeelingLoopForTexSurf: debug assertion when peeling a loop for "
        "texture/surface ops; accepted, no effect (ori does not peel)")
    remarks: bool = option(
        False, "ori: also report every change (merged latches, inserted preheaders, inverted "
        "loops) on stderr; loops left alone are always reported")

    def apply(self, ctx: Context, op: ModuleOp) -> None:
        if not 0 <= self.opt_level <= 5:
            raise PassFailedException(f"ori-loop-simplify: opt-level must be 0..5, got {self.opt_level}")
        if self.loop_inversion_budget < -1:
            raise PassFailedException(
                f"ori-loop-simplify: loop-inversion-budget must be -1 (unset) or >= 0, got {self.loop_inversion_budget}")
        require(self, op)
        peel = (self.opt_level in (4, 5) or self.loop_peel_inversion
                or self.enable_single_thread_peeling_loops or self.gen_peeling_loops_for_syncs)
        for func in functions_of(op):
            if peel and any(True for _ in LoopInfo.compute(func).loops):
                _remark(func, None, "loop peeling is not supported by ori; loops are not peeled")
            simplify_function(func, make_single_entry=self.loop_make_single_entry, remarks=self.remarks)
            # Inversion needs the dedicated preheader (its guard copy goes there),
            # so it runs only with loop-make-single-entry; the rotated loop's new
            # header then gets its own preheader from a second round.
            if self.loop_inversion and self.loop_make_single_entry and invert_function(
                    func, budget=self.loop_inversion_budget, remarks=self.remarks):
                simplify_function(func, make_single_entry=True, remarks=self.remarks)


__all__ = ["LoopSimplifyPass", "invert_function", "invert_loop", "simplify_function"]
