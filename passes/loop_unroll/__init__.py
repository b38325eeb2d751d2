"""``ori-loop-unroll``: phase 22, *OriLoopUnrolling* (seed 001, "Phase 22 --
OriLoopUnrolling").

The driver follows the seed's *RunUnrolling* (sub_1390B30) step by step:

* entry guards: ``loop-unroll=false`` or a function of at most 2 blocks
  returns at once;
* loops are visited innermost first (post-order of the loop forest, the
  seed's reverse RPO); loops created by copying an outer loop's body are
  not revisited;
* **A/B** the ``nounroll`` pragma (``ori.pragma "nounroll"`` in the header)
  applies to the loop it marks (ori does not spread it to sibling blocks; a
  nested nounroll loop counts in ``inner_nounroll_cnt``);
* **C** the single latch must end in a conditional ``ori.bra`` (code 13).
  ``ori-loop-simplify`` inverts top-tested loops into this form by default
  (``loop-inversion``, seed phase 18's ``LoopInversion`` knob); a loop left
  top-tested gets code 13 with a reason saying so.  Several latches or a
  latch branch that does not leave the loop: code 17 (the seed skips such
  loops silently; ori reports them as irregular);
* **D** nounroll pragma, or a convergence barrier register (``!ori.b``) used
  in the loop (the seed's convergence constraint): code 11;
* **E** hot-loop estimate, **F** body scan (an exit from a block other than
  the latch: code 17), **G** budget, **H** the per-block override string
  ``loop-unroll-factor-override`` (``-N-`` / ``-`` skip: code 11; ``+N+`` /
  ``+`` force), **I** ``ori.pragma "unroll"`` in the header forces, **J** the
  non-innermost filter (code 7) -- see :mod:`.decision`;
* **K** factor selection: by default a model of what ptxas does (full
  unrolling up to a measured trip limit, partial factors from a copy budget,
  no unrolling of loops with calls or inner loops; code 24), see
  :func:`.decision.ptxas_factor` and ``passes/loop_unroll/DEVIATIONS.md``;
  **L** ``loop-unroll-factor`` override;
* **M** IV analysis, bound extraction and stride verification (codes 14-19)
  -- :mod:`.ivs`;
* **N/O** constant trip count, overflow guard on ``stride * (factor-1)``
  (32-bit signed for ``.s32`` exit compares, unsigned for ``.u32``; code 24;
  ``disable-partial-unroll-overflow-check``), budget loop (``factor *
  remaining <= unroll-budget``, halving; ``seed-literal=true`` only), full
  unroll;
* **P** partial unroll, or code 24 when no factor >= 2 is left.  A known
  trip count ``T`` gets ``T mod F`` prologue copies (the seed's
  *DuplicateBody* remainder copies) and a loop of ``F`` copies with one exit
  test.  An unknown trip count gets the seed's power-of-two epilogue
  (Step O Phase 4, "only when factor > 2"; ``unknown-trip-remainder=pow2``,
  the default) for ``lt/le/gt/ge`` exit tests, or a loop of ``F`` copies
  each keeping its exit test (``unknown-trip-remainder=exit-tests``, factor
  2, ``eq/ne`` tests).  Deviations: the seed applies Phase 4 only to
  "outermost" loops without a convergence direction swap; ori applies it to
  every loop it unrolls (convergence loops are rejected with code 11
  anyway), and adds a guard on the IV that sends loops whose IV is within a
  few strides of the compare's wrap point to the original loop (the seed's
  static ``DisablePartialUnrollOverflowCheck`` guard only checks
  ``stride * (factor-1)``).  See :mod:`.transform` for the layouts.

The unroll-knob gates for loop shapes: ``unroll-multi-block-loops``,
``unroll-variable-bounds`` and ``loop-unroll-unknown-multi-block`` (a
multi-block loop with an unknown trip count is not unrolled by default):
code 24.

Remarks (``remarks=true``, stderr)::

    remark: @k ^bb2: unrolled by 4 (partial)
    remark: @k ^bb5: unrolled by 3 (full)
    remark: @k ^bb7: not unrolled (code 11): nounroll pragma
    remark: @k: [partially unrolled loops=1] [non-unrolled loops=1]

``^bbN`` is the header's index in the function as the pass received it
(also the ``N`` of the override string).  The last line (the seed's DUMPIR
statistics) is also printed with ``stats=true``.

``seed-literal=true`` keeps the seed's literal text where it disagrees with
ptxas's behaviour: known trip counts above 2 are rejected with code 12, a
full unroll needs a single-block body with a foldable operation (otherwise
the factor-``T`` copies keep their back edge), unknown trip counts take the
K1..K4 factors and Step N halves factors against ``unroll-budget``.  Every
such disagreement, with the ptxas kernels that show it, is listed in
``passes/loop_unroll/DEVIATIONS.md`` (measured by
``benchmarks/unroll_vs_ptxas.py``).

Knobs accepted with the seed's defaults but without an effect (the seed
does not say where ptxas uses them): ``unroll-flexable-full-limit``,
``unroll-small-loop-limit``, ``loop-unroll-large-part-of-shader-pct``,
``unroll-inst-limit``, ``unroll-preg-threshold``,
``unroll-extra-inst-per-percent-saving``, ``loop-unroll-num-extra-inst-base``,
``epilogue-loop-unroll-count``, ``unroll-unknown-inst-limit``,
``unroll-tex3d-percent-saved-threshold``, ``unroll-profiled-cold-insts-scale``,
``loop-unroll-extra-foldable-ldc-weight``, ``loop-unroll-foldable-addr-weight``,
``loop-unroll-num-inst-small-loop``, ``loop-unroll-single-loop-saved-pct-factor``.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import ClassVar

from xdsl.context import Context
from xdsl.dialects.builtin import ModuleOp
from xdsl.ir import Block, Operation
from xdsl.passes import ModulePass
from xdsl.utils.exceptions import PassFailedException

from ori_dialect.analysis import LoopInfo, functions_of
from ori_dialect.analysis.uniformity import Uniformity
from ori_dialect.ops.control import BraOp, PragmaOp
from ori_dialect.ops.func import FuncOp
from passes.contract import (
    Requirement,
    emit_remark,
    flush_diagnostics,
    option,
    require,
)
from passes.loop_unroll.decision import (
    is_hot,
    override_for,
    parse_override,
    remaining_budget,
    scan_body,
    select_factor,
)
from passes.loop_unroll.ivs import IVInfo, Reject, analyze
from passes.loop_unroll.transform import pow2_limit, unroll_loop, unroll_unknown_pow2


def _pragmas(b: Block) -> set[str]:
    out: set[str] = set()
    for op in b.ops:
        if isinstance(op, PragmaOp):
            out.add(op.text.data)
    return out


_NO_EFFECT = "accepted with the seed's default, no effect (the seed does not say where ptxas uses it)"


@dataclass
class FunctionStats:
    full: int = 0
    partial: int = 0
    non_unrolled: int = 0
    remarks: list[tuple[int, str]] = field(default_factory=list)
    """(header block id as the pass received the function, remark text)."""


@dataclass(frozen=True)
class LoopUnrollPass(ModulePass):
    """Full and partial loop unrolling with the seed's decision algorithm (phase 22)."""

    name = "ori-loop-unroll"
    REQUIRES: ClassVar[frozenset[Requirement]] = frozenset({Requirement.SSA})
    # Loops not in simplified or rotated form are rejected one by one with a
    # code (13, 17) and a remark, not refused as a whole: no LOOP_SIMPLIFIED.
    PRESERVES: ClassVar[frozenset[type]] = frozenset()

    # context knobs (sub_1389AF0)
    unroll_budget: int = option(
        140, "UnrollBudget: instruction budget of unrolling; scales the partial-unroll copy "
        "budget of the ptxas model (x unroll-budget / 140); with seed-literal=true Step N "
        "halves a factor until factor x body cost fits it")
    unroll_flexable_full_limit: float = option(0.25, f"UnrollFlexableFullLimit: {_NO_EFFECT}")
    unroll_unknown_count: int = option(
        4, "UnrollUnknownCount: the factor for a loop with an unknown trip count (the ptxas "
        "model; K2/K3 with seed-literal=true); at least 1")
    unroll_small_loop_limit: int = option(4, f"UnrollSmallLoopLimit: {_NO_EFFECT}")
    loop_unroll_large_part_of_shader_pct: float = option(
        0.4, f"LoopUnrollLargePartOfShaderPct: {_NO_EFFECT}")
    unroll_inst_limit: float = option(20.0, f"UnrollInstLimit: {_NO_EFFECT}")
    unroll_preg_threshold: int = option(50, f"UnrollPregThreshold: {_NO_EFFECT}")
    unroll_extra_inst_per_percent_saving: int = option(
        2, f"UnrollExtraInstPerPercentSaving: {_NO_EFFECT}")
    unroll_full_inst_limit: int = option(
        200, "UnrollFullInstLimit: budget of full unrolling of a known trip count (the ptxas "
        "model's trip limit scales by unroll-full-inst-limit / 200; seed-literal=true: "
        "unroll-full-inst-limit / trip > body cost); above 0")
    loop_unroll_num_extra_inst_base: int = option(
        46, f"LoopUnrollNumExtraInstBase: {_NO_EFFECT}")
    # boolean / integer knobs
    loop_unroll: bool = option(True, "LoopUnroll (knob 437): master enable of the pass")
    loop_unroll_non_innermost: bool = option(
        True, "LoopUnrollNonInnermost (knob 894): allow unrolling a loop that contains loops "
        "(Step J, code 7 when off; seed-literal=true: the K4 fallback factor 2)")
    unroll_multi_block_loops: bool = option(
        True, "UnrollMultiBlockLoops (knob 897): allow unrolling a loop of several blocks "
        "(code 24 when off)")
    unroll_variable_bounds: bool = option(
        True, "UnrollVariableBounds (knob 902): allow unrolling a loop whose trip count is "
        "not a constant (code 24 when off)")
    loop_unroll_factor: int = option(
        0, "LoopUnrollFactor (knob 896): unroll every accepted loop by this factor "
        "(Step L); 0 = the heuristic factor")
    epilogue_loop_unroll_count: int = option(0, f"EpilogueLoopUnrollCount (knob 895): {_NO_EFFECT}")
    loop_unroll_num_inst_tex: int = option(
        0, "LoopUnrollNumInstTex (knob 900): texture instruction budget of the seed-literal "
        "K1 step; 0 = min(5 x texture instructions + 22, 100)")
    disable_partial_unroll_overflow_check: bool = option(
        False, "DisablePartialUnrollOverflowCheck (knob 903): skip the check that "
        "stride x (factor-1) fits the exit compare's type (Step O, code 24)")
    # string knob 427 and knob 898
    loop_unroll_factor_override: str = option(
        "", "LoopUnrollFactor per-block override string (knob 427): -N- skips the loop whose "
        "header is ^bbN, +N+ forces it, - skips all, + forces all (Step H)")
    inner_nounroll_budget_scale: float = option(
        0.5, "Knob 898: body-cost penalty per nested nounroll loop (Step G, "
        "scale x inner nounroll count); at least 0")
    # remaining table knobs
    unroll_unknown_inst_limit: int = option(0, f"UnrollUnknownInstLimit: {_NO_EFFECT}")
    unroll_tex3d_percent_saved_threshold: int = option(
        0, f"UnrollTex3DPercentSavedThreshold: {_NO_EFFECT}")
    unroll_profiled_cold_insts_scale: int = option(
        0, f"UnrollProfiledColdInstsScale: {_NO_EFFECT}")
    loop_unroll_extra_foldable_ldc_weight: int = option(
        0, f"LoopUnrollExtraFoldableLdcWeight: {_NO_EFFECT}")
    loop_unroll_foldable_addr_weight: int = option(
        0, f"LoopUnrollFoldableAddrWeight: {_NO_EFFECT}")
    loop_unroll_num_inst_small_loop: int = option(
        0, f"LoopUnrollNumInstSmallLoop: {_NO_EFFECT}")
    loop_unroll_single_loop_saved_pct_factor: int = option(
        0, f"LoopUnrollSingleLoopSavedPctFactor: {_NO_EFFECT}")
    loop_unroll_unknown_multi_block: bool = option(
        False, "LoopUnrollUnknownMultiBlock: allow unrolling a multi-block loop with an "
        "unknown trip count (code 24 when off)")
    # ori's own
    force_factor_log2: int = option(
        2, "ori: forced loops (+N+, +, ori.pragma \"unroll\") use factor "
        "1 << force-factor-log2 (the seed's ctx.force_factor); 1..6")
    seed_literal: bool = option(
        False, "ori: keep the seed's literal text where it disagrees with ptxas (known trip "
        "counts above 2 rejected with code 12, K1..K4 factors, Step N halving; "
        "passes/loop_unroll/DEVIATIONS.md)")
    unknown_trip_remainder: str = option(
        "pow2", "ori: remainder of a partial unroll with an unknown trip count: pow2 (the "
        "seed's power-of-two epilogue, for factors above 2 and lt/le/gt/ge exit tests) or "
        "exit-tests (every copy keeps its exit test)")
    remarks: bool = option(
        False, "ori: print one remark per loop (unrolled by N, or not unrolled with its "
        "code and reason) and the per-function counts to stderr")
    stats: bool = option(
        False, "ori: print the per-function counts of partially and not unrolled loops to "
        "stderr (the seed's DUMPIR statistics)")

    def _validate(self) -> None:
        def bad(msg: str) -> PassFailedException:
            return PassFailedException(f"ori-loop-unroll: {msg}")

        for name in ("unroll_budget", "unroll_full_inst_limit", "loop_unroll_factor",
                     "epilogue_loop_unroll_count", "loop_unroll_num_inst_tex",
                     "unroll_preg_threshold", "unroll_small_loop_limit", "unroll_unknown_inst_limit",
                     "loop_unroll_num_extra_inst_base"):
            if getattr(self, name) < 0:
                raise bad(f"{name.replace('_', '-')} must be >= 0, got {getattr(self, name)}")
        if self.unroll_full_inst_limit == 0:
            raise bad("unroll-full-inst-limit must be > 0")
        if self.unroll_unknown_count < 1:
            raise bad(f"unroll-unknown-count must be >= 1, got {self.unroll_unknown_count}")
        if not 1 <= self.force_factor_log2 <= 6:
            raise bad(f"force-factor-log2 must be 1..6 (a forced factor of 2..64), got {self.force_factor_log2}")
        if self.inner_nounroll_budget_scale < 0:
            raise bad("inner-nounroll-budget-scale must be >= 0")
        if self.unknown_trip_remainder not in ("pow2", "exit-tests"):
            raise bad(f"unknown-trip-remainder must be pow2 or exit-tests, got '{self.unknown_trip_remainder}'")
        try:
            parse_override(self.loop_unroll_factor_override)
        except ValueError as e:
            raise bad(str(e)) from None

    def apply(self, ctx: Context, op: ModuleOp) -> None:
        self._validate()
        if not self.loop_unroll:
            return
        require(self, op)
        single_block = {f.sym_name.data for f in functions_of(op)
                        if isinstance(f, FuncOp) and len(list(f.body.blocks)) == 1}
        for func in functions_of(op):
            st = self.run_function(func, single_block)
            if self.remarks:
                for bid, msg in st.remarks:
                    emit_remark(func.sym_name.data, msg, block=bid)  # type: ignore[attr-defined]
            if (self.remarks or self.stats) and (st.full or st.partial or st.non_unrolled):
                emit_remark(func.sym_name.data, f"[partially unrolled loops={st.partial}] "  # type: ignore[attr-defined]
                            f"[non-unrolled loops={st.non_unrolled}]")
        if self.remarks or self.stats:
            flush_diagnostics()

    # ------------------------------------------------------------------
    def run_function(self, func: Operation, single_block: set[str]) -> FunctionStats:
        st = FunctionStats()
        region = func.regions[0]
        blocks0 = list(region.blocks)
        if len(blocks0) <= 2:
            return st
        ids = {b: i for i, b in enumerate(blocks0)}
        li = LoopInfo.compute(func)
        post = list(li.innermost_first())
        # Loops by height (leaves first), each height in the post-order: a
        # loop's decision depends only on its own nest, so this visits every
        # loop after its children as the post-order does, and the loop info
        # is stale for no loop of a height until the height is done (below).
        # The remarks keep the post-order.
        height: dict[int, int] = {}
        for lp in post:
            height[lp.header] = 1 + max((height[c.header] for c in lp.children), default=-1)
        rank = {li.cfg.blocks[lp.header]: i for i, lp in enumerate(post)}
        order = [li.cfg.blocks[lp.header]
                 for lp in sorted(post, key=lambda lp: (height[lp.header], rank[li.cfg.blocks[lp.header]]))]
        remarks: list[tuple[int, int, str]] = []
        # Blocks of the loops unrolled since the loop info was computed.  Only
        # an unroll changes the CFG (a rejection is raised before any change),
        # and it changes its loop's blocks and the blocks around it (its
        # preheader and exit may merge with their neighbours).  A later loop
        # that contains none of them -- every loop but the ancestors of an
        # unrolled one, the innermost-first order having visited its
        # descendants -- keeps its blocks, inner edges and nesting in the old
        # loop info, and its preheader is read from the IR
        # (``_live_preheader``), so the info is recomputed only when a height
        # starts (its loops are the ancestors of the loops just unrolled):
        # once per nesting level, not once per loop.
        dirty: set[Block] = set()
        for hb in order:
            hid = li.cfg.index.get(hb)
            lp = li.loop_with_header(hid) if hid is not None else None
            if dirty and (lp is None or any(li.cfg.blocks[b] in dirty for b in lp.blocks)):
                li = LoopInfo.compute(func)
                dirty.clear()
                hid = li.cfg.index.get(hb)
                lp = li.loop_with_header(hid) if hid is not None else None
            if lp is None:
                continue
            bid = ids[hb]
            body = {li.cfg.blocks[b] for b in lp.blocks}
            try:
                factor, kind = self.unroll_one(func, li, lp, ids, single_block)
            except Reject as r:
                st.non_unrolled += 1
                remarks.append((rank[hb], bid, f"not unrolled (code {r.code}): {r.reason}"))
                continue
            dirty |= body
            if kind == "full":
                st.full += 1
            else:
                st.partial += 1
            remarks.append((rank[hb], bid, f"unrolled by {factor} ({kind})"))
        st.remarks = [(bid, msg) for _, bid, msg in sorted(remarks)]
        return st

    def unroll_one(self, func: Operation, li: LoopInfo, lp, ids: dict[Block, int],  # type: ignore[no-untyped-def]
                   single_block: set[str]) -> tuple[int, str]:
        cfg = li.cfg
        blocks = cfg.blocks
        header = blocks[lp.header]
        loop_set = {blocks[b] for b in lp.blocks}
        ordered = [blocks[b] for b in cfg.rpo if b in lp.blocks]
        multiblock = len(ordered) > 1
        # ---- Step C: structure ----
        if len(lp.latches) != 1:
            raise Reject(17, f"irregular loop: {len(lp.latches)} latches (run ori-loop-simplify)")
        latch = blocks[lp.latches[0]]
        term = latch.last_op
        if not isinstance(term, BraOp) or term.guard is None or term.fallthrough is None:
            ht = header.last_op
            if (isinstance(ht, BraOp) and ht.guard is not None
                    and sum(1 for s in ht.successors if s not in loop_set) == 1):
                raise Reject(13, "the latch does not end in a conditional branch: top-tested loop "
                             "not inverted (ori-loop-simplify, loop-inversion)")
            raise Reject(13, "the latch does not end in a conditional branch (not a rotated loop)")
        if sum(1 for s in term.successors if s is header) != 1 or any(
                s in loop_set and s is not header for s in term.successors):
            raise Reject(17, "irregular loop: the latch's conditional branch does not leave the loop")
        # ---- Step D: nounroll / convergence ----
        pragmas = _pragmas(header)
        if "nounroll" in pragmas:
            raise Reject(11, "nounroll pragma")
        # IV analysis runs early (the trip count feeds E and K); its rejection is
        # reported at Step M, in the seed's order.
        pre = _live_preheader(header, loop_set)
        iv: IVInfo | None = None
        iv_err: Reject | None = None
        try:
            iv = analyze(header, latch, loop_set, pre)
        except Reject as r:
            iv_err = r
        trip = iv.trip_count if iv is not None else None
        # ---- Step F: body scan ----
        nested_nounroll = sum(
            1 for other in li.loops
            if other is not lp and other.header in lp.blocks and "nounroll" in _pragmas(blocks[other.header]))
        info = scan_body(ordered, latch, loop_set, header.args[iv.iv_index] if iv else None,
                         single_block, nested_nounroll)
        if info.convergence:
            raise Reject(11, "convergence constraint (a convergence barrier is used in the loop)")
        if (not self.seed_literal and trip is None and (info.atomic_count or info.fence_count)
                and not Uniformity(func).is_uniform(term.guard)):
            # DEVIATIONS.md 8: measured, ptxas leaves these loops rolled
            raise Reject(11, "convergence constraint (threads leave the loop at different "
                         "iterations and it holds an atomic or a memory fence)")
        # ---- Step E: hot-loop estimate ----
        hot = is_hot(lp.depth, trip)
        if info.has_cross_edges:
            raise Reject(17, "irregular loop: an edge leaves the loop from a block other than the latch")
        # ---- Step G: budget ----
        remaining = remaining_budget(info, self.inner_nounroll_budget_scale)
        # ---- Step H/I: override string and pragma force ----
        force = False
        ov = override_for(self.loop_unroll_factor_override, ids[header])
        if ov == "skip":
            raise Reject(11, "skipped by loop-unroll-factor-override")
        if ov == "force" or "unroll" in pragmas:
            force = True
        # ---- Step J: non-innermost filter ----
        if (lp.children and not self.loop_unroll_non_innermost and not force
                and 10 * info.tex_count < remaining):
            raise Reject(7, f"non-innermost loop: body cost {remaining} exceeds 10 x "
                         f"{info.tex_count} texture instructions")
        # ---- Step K: factor selection ----
        choice = select_factor(
            force=force, force_factor_log2=self.force_factor_log2, trip_count=trip,
            remaining=remaining, info=info, hot=hot, multiblock=multiblock,
            allow_non_innermost=self.loop_unroll_non_innermost,
            full_inst_limit=self.unroll_full_inst_limit, unknown_count=self.unroll_unknown_count,
            num_inst_tex=self.loop_unroll_num_inst_tex, literal=self.seed_literal,
            unroll_budget=self.unroll_budget)
        if choice.code:
            raise Reject(choice.code, choice.reason)
        factor = choice.factor
        # ---- Step L: knob override ----
        overridden = self.loop_unroll_factor > 0
        if overridden:
            factor = self.loop_unroll_factor
        # ---- Step M: IV analysis ----
        if iv_err is not None:
            raise iv_err
        assert iv is not None and pre is not None
        if trip is None:
            if not self.unroll_variable_bounds:
                raise Reject(24, "unknown trip count (unroll-variable-bounds=false)")
            if multiblock and not self.loop_unroll_unknown_multi_block:
                raise Reject(24, "multi-block loop with an unknown trip count "
                             "(loop-unroll-unknown-multi-block=false)")
        if multiblock and not self.unroll_multi_block_loops:
            raise Reject(24, "multi-block loop (unroll-multi-block-loops=false)")
        full = trip is not None and factor >= trip
        # ---- Step N: budget loop for partial factors (seed-literal only: the
        # default ptxas model of decision.ptxas_factor already sized the factor) ----
        if not full and not force and not overridden and self.seed_literal:
            while factor >= 2 and factor * max(remaining, 1) > self.unroll_budget:
                factor //= 2
        if full:
            factor = trip  # type: ignore[assignment]
        # ---- Step O: overflow guard ----
        if factor >= 2 and not self.disable_partial_unroll_overflow_check:
            total = iv.step * (factor - 1)
            ok = -(1 << 31) <= total < (1 << 31) if not iv.unsigned else abs(total) < (1 << 32)
            if not ok:
                raise Reject(24, f"stride {iv.step} x (factor-1) = {total} overflows")
        allow_full = True
        if full and self.seed_literal:
            allow_full = not multiblock and info.foldable_ldc_count > 0
        if not full and factor < 2:
            raise Reject(24, "budget exceeded after all factor reduction attempts "
                         f"(body cost {remaining}, unroll-budget {self.unroll_budget})")
        region = func.regions[0]
        if trip is None and factor > 2 and self.unknown_trip_remainder == "pow2":
            # seed Step O Phase 4: power-of-two epilogue, only for factor > 2
            limit = pow2_limit(iv, factor)
            if limit is not None:
                unroll_unknown_pow2(region, ordered, header, latch, pre, iv, factor, limit)
                return factor, "partial"
        kind = unroll_loop(region, ordered, header, latch, pre, iv.back_slot, iv.exit_slot,
                           factor, trip, allow_full=allow_full)
        return factor, kind


def _live_preheader(header: Block, loop_set: set[Block]) -> Block | None:
    """The loop's dedicated preheader (``loop_simplify.has_dedicated_preheader``:
    the one block outside the loop that branches to the header, with that
    unguarded branch as its only edge), read from the IR as it is now: the
    loop info may predate the unroll of an earlier sibling loop, which can
    merge the block before this loop into its own chain (``run_function``)."""
    preds = [u.operation for u in header.uses if u.operation.parent_block() not in loop_set]
    if len(preds) != 1:
        return None
    br = preds[0]
    if not isinstance(br, BraOp) or br.guard is not None or br.fallthrough is not None:
        return None
    return br.parent_block()


__all__ = ["LoopUnrollPass"]
