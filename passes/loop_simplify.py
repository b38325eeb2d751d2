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
* ``loop-inversion`` (true) and ``loop-inversion-budget`` (-1 = unset):
  accepted for compatibility; ori does not invert top-tested loops in this
  pass (``ori-loop-unroll`` reports such loops with code 13).

The convergence flag of the seed (code object +1380 bit 7) has no ori
counterpart; no edge splitting is suppressed.
"""

from __future__ import annotations

import sys
from dataclasses import dataclass
from typing import ClassVar

from xdsl.context import Context
from xdsl.dialects.builtin import ModuleOp
from xdsl.ir import Block, Operation
from xdsl.passes import ModulePass
from xdsl.utils.exceptions import PassFailedException

from ori_dialect.analysis import CFG, LoopInfo, functions_of
from ori_dialect.analysis.loops import Loop
from ori_dialect.ops.control import BraOp
from passes.loop_utils import forwarding_block, retarget_edge


def _name(func: Operation) -> str:
    return func.sym_name.data  # type: ignore[attr-defined]


def _remark(func: Operation, bid: int | None, msg: str) -> None:
    where = f" ^bb{bid}" if bid is not None else ""
    sys.stderr.write(f"remark: @{_name(func)}{where}: {msg}\n")


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
        if entry_edges:
            pre = forwarding_block(types, header)
            region.insert_block_before(pre, header)
            for src, slot in entry_edges:
                retarget_edge(src, slot, pre)
            inserted += 1
            if remarks:
                _remark(func, hid, f"inserted a preheader for {len(entry_edges)} entry edges")
    return inserted


@dataclass(frozen=True)
class LoopSimplifyPass(ModulePass):
    """Dedicated preheaders and single latches for every natural loop (phase 18)."""

    name = "ori-loop-simplify"
    PRESERVES: ClassVar[frozenset[type]] = frozenset()

    loop_make_single_entry: bool = True
    opt_level: int = 2
    loop_inversion: bool = True
    loop_inversion_budget: int = -1
    loop_peel_inversion: bool = False
    enable_single_thread_peeling_loops: bool = False
    gen_peeling_loops_for_syncs: bool = False
    assert_if_peeling_loop_for_tex_surf: bool = False
    remarks: bool = False

    def apply(self, ctx: Context, op: ModuleOp) -> None:
        if not 0 <= self.opt_level <= 5:
            raise PassFailedException(f"ori-loop-simplify: opt-level must be 0..5, got {self.opt_level}")
        if self.loop_inversion_budget < -1:
            raise PassFailedException(
                f"ori-loop-simplify: loop-inversion-budget must be -1 (unset) or >= 0, got {self.loop_inversion_budget}")
        peel = (self.opt_level in (4, 5) or self.loop_peel_inversion
                or self.enable_single_thread_peeling_loops or self.gen_peeling_loops_for_syncs)
        for func in functions_of(op):
            if peel and any(True for _ in LoopInfo.compute(func).loops):
                _remark(func, None, "loop peeling is not supported by ori; loops are not peeled")
            simplify_function(func, make_single_entry=self.loop_make_single_entry, remarks=self.remarks)


__all__ = ["LoopSimplifyPass", "simplify_function"]
