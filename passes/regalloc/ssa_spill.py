"""Pre-spilling for ``ori-regalloc{strategy=ssa}``: lower the register
pressure of every spillable file to its budget *before* assignment.

Reference: M. Braun and S. Hack, "Register Spilling and Live-Range Splitting
for SSA-Form Programs", CC 2009 (LNCS 5501).  What is taken from the paper:

* blocks are processed in **reverse post order**, each program point in
  order, and the registers in use at a point are limited to ``k`` (the
  file's allocatable registers, :mod:`.budget`);
* when a point holds more than ``k`` registers the value with the
  **furthest next use** is evicted there (Belady's MIN, the paper's
  section 3), wide values counting their width;
* next-use distances are **global and loop-aware** (section 4.1): a block's
  exit distance of a value is the minimum over its successors of the
  successor's entry distance, and an edge leaving a loop adds
  :data:`LOOP_EXIT_DISTANCE` per loop it leaves, so a value whose next use
  lies beyond a loop exit is "far" from every point inside the loop and is
  evicted before a value used in the next iteration;
* an evicted value is **stored once, right after its definition**, and
  **reloaded before the uses that can follow the eviction** -- the uses
  reachable from the eviction point without passing the definition again
  (around a loop's back edge included).  Uses before the eviction keep the
  value in its register.

What differs from the paper (simpler, same pressure bound):

* every reload is a fresh SSA value used by exactly **one** instruction
  (the shared spiller's reloads, :func:`.spill.spill_value`): the paper lets
  a reloaded value serve later uses while it stays in ``W`` and repairs SSA
  form afterwards; here there is nothing to repair, at the price of one
  reload per use after the eviction;
* no ``W_entry`` selection at block entries and no coupling code on edges:
  a value's register range only ever shrinks from its original live range
  (from the definition to the uses that kept it), so no block boundary
  needs a fix-up;
* the shared spiller emits the store and a reload before *every* use
  (:func:`.spill.spill_value`, used as is); the reloads of the uses that
  keep the register are then taken out again (:func:`_reattach`);
* rematerialisation only of definitions that read no register (with
  ``remat-enable``, :mod:`.remat`): such an evicted value is cloned before
  each use a reload would serve; spill stores are not moved out of loops.

**Why the bound holds.**  Program points are those of :mod:`.points`: a
block's entry (live-in plus all arguments) and the point after each op
(live-after plus all results).  The plan keeps, per value, the set of uses
that still read its register; its register range is recomputed from them (an
SSA value's range in a block is one interval).  A value is a *candidate*
for eviction at a point when it is spillable, not defined there, and the
instruction right after the point does not read its register (for the point
after a branch: the branch does not pass it along an edge); evicting it
removes it from that point and from every point from which no kept use is
reachable, and adds its reload to the point just before each reloaded use
(and after the branch for an edge operand) -- where the value itself was
counted before, so no point's count ever grows.  Points created by the spill
code (after the store, after each reload) hold no more than the point they
follow.  The reloads of an op's operands are placed after the previous
op's dead results, which hold their point only, so a point counts the
larger of the two, not their sum.

**Aligned slots.**  With the allowed registers (``prespill(allowed=...)``,
as the strategy calls it) a point is also over when its values do not fit
the aligned pairs and quads of the allowed registers (:class:`Slots`); only
wide values are evicted for that.  Registers alone miscount: R0, R2, R3, R4
are four registers but one aligned pair.

**Points eviction cannot relieve.**  A point that holds the operands the
next op reads besides what the previous op defined has no candidate (the
one is read next, the other is defined there).  Its spillable values are
then spilled everywhere -- a store after the definition, a reload before
every use -- and the next round sees the point again: the definition's
store and the next op's reloads now lie between, one instruction's needs at
a time (issue 13: at the file's minimum, :func:`.budget.minimum_limits`,
allocation does not fail).  A point whose excess nothing can remove (the
instruction alone needs more than ``k`` registers, or everything live there
is a reload / a spilled value) is a diagnostic.  P/UP/UR/B values spilled through a GPR home
raise the R pressure; rounds repeat until no point exceeds its file's ``k``.

**Input invariants.**  The function is in strict SSA form with block
arguments as phis (liveness of :mod:`ori_dialect.analysis.liveness`), tied
operands have been split (:func:`.copies.split_ties`: a guarded result's
prior value dies at the guarded instruction) and every value is virtual.
Which files can be spilled and which values are spillable is decided by the
shared spiller and :mod:`.classes` (reloads and spilled values are never
spilled again).
"""

from __future__ import annotations

from bisect import bisect_left
from collections.abc import Iterable
from dataclasses import dataclass, field

from xdsl.ir import Operation, OpResult, SSAValue

from ori_dialect.analysis.cfg import CFG
from ori_dialect.analysis.dominators import DominatorTree
from ori_dialect.analysis.liveness import FILES, Liveness, ValueNumbering, edge_operands
from ori_dialect.analysis.loops import LoopInfo
from ori_dialect.analysis.pressure import RegisterPressure
from ori_dialect.ir.registers import RegFile
from ori_dialect.ops.func import FuncOp
from passes.regalloc.classes import SPILLABLE_FILES
from passes.regalloc.pred_pack import pack_predicate_homes
from passes.regalloc.remat import remat_source, rematerialize
from passes.regalloc.result import allocation_failure
from passes.regalloc.spill import SmemSpill, next_tag, spill_value
from passes.regalloc.spill_marks import (
    SMEM_BASE_ATTR,
    can_spill,
    is_spill_reload,
    is_spilled_value,
    spill_tag,
)

INF = 1 << 60
LOOP_EXIT_DISTANCE = 100_000
"""Distance added per loop an edge leaves (Braun & Hack section 4.1: "uses
behind a loop exit are far")."""


def block_points(lv: Liveness, b: int) -> list[set[int]]:
    """The program points of block ``b`` in order: entry, then after each op
    (the point model of :mod:`.points`)."""
    num = lv.numbering
    ops = num.ops[b]
    pts: list[set[int]] = [set() for _ in range(len(ops) + 1)]
    live_before: set[int] = set(lv.live_out(b))
    for k, _op, live in lv.walk_backward(b):
        pts[k + 1] = set(live) | set(num.op_defs[b][k])
        live_before = live  # after the last step: live before op 0
    if ops:
        live_before = set(live_before)
    pts[0] = live_before | set(num.arg_ids[b])
    return pts


def edge_operand_ids(num: ValueNumbering, b: int) -> set[int]:
    """Numbered values the terminator of ``b`` passes along its edges."""
    ops = num.ops[b]
    out: set[int] = set()
    if ops and ops[-1].successors:
        term = ops[-1]
        for slot in range(len(term.successors)):
            out.update(num.index[v] for v in edge_operands(term, slot) if v in num.index)
    return out


class NextUse:
    """Loop-aware next-use distances (Braun & Hack section 4.1).

    ``exit_dist[b][v]``: instructions from the end of block ``b`` to the next
    use of ``v`` (for ``v`` live into a successor), with
    :data:`LOOP_EXIT_DISTANCE` added per loop left on the way.  Computed as a
    shortest-path fixpoint (all weights are non-negative)."""

    def __init__(self, lv: Liveness) -> None:
        cfg = lv.cfg
        num = lv.numbering
        loops = LoopInfo(cfg, DominatorTree(cfg))
        n = cfg.num_blocks
        first_use: list[dict[int, int]] = []
        for b in range(n):
            fu: dict[int, int] = {}
            for k, uses in enumerate(num.op_uses[b]):
                for v in uses:
                    fu.setdefault(v, k)
            first_use.append(fu)
        live_in = [set(lv.live_in(b)) for b in range(n)]
        weight: dict[tuple[int, int], int] = {}
        for b in range(n):
            for s in cfg.succs[b]:
                left = 0
                lp = loops.loop_for(b)
                while lp is not None:
                    if not lp.contains(s):
                        left += 1
                    lp = lp.parent
                weight[(b, s)] = left * LOOP_EXIT_DISTANCE
        entry: list[dict[int, int]] = [{} for _ in range(n)]
        exit_: list[dict[int, int]] = [{} for _ in range(n)]
        order = cfg.postorder() + cfg.unreachable
        changed = True
        rounds = 0
        while changed and rounds < 4 * n + 8:
            changed = False
            rounds += 1
            for b in order:
                out: dict[int, int] = {}
                for s in cfg.succs[b]:
                    w = weight[(b, s)]
                    es = entry[s]
                    for v in live_in[s]:
                        d = es.get(v, INF)
                        if d < INF:
                            d += w
                        if d < out.get(v, INF):
                            out[v] = d
                exit_[b] = out
                nb = len(num.ops[b])
                fu = first_use[b]
                new: dict[int, int] = {}
                for v in live_in[b]:
                    if v in fu:
                        new[v] = fu[v]
                    else:
                        d = out.get(v, INF)
                        new[v] = d + nb if d < INF else INF
                if new != entry[b]:
                    entry[b] = new
                    changed = True
        self.entry_dist = entry
        self.exit_dist = exit_


@dataclass(frozen=True)
class Slots:
    """The aligned structure of one file's allowed registers: ``regs``
    allowed registers, ``pairs`` aligned pairs and ``quads`` aligned quads
    with every register allowed.  Aligned slots nest (a quad holds two
    pairs), so values of 1, 2 and 4 registers -- ``n1``, ``n2``, ``n4`` of
    them -- fit at once exactly when ``n4 <= quads``, ``2 n4 + n2 <= pairs``
    and ``n1 + 2 n2 + 4 n4 <= regs`` (widest first, lowest slot first,
    as :func:`.budget.minimum_limits` places them)."""

    regs: int
    pairs: int
    quads: int

    @staticmethod
    def of(allowed: Iterable[int]) -> Slots:
        a = set(allowed)

        def count(w: int) -> int:
            return sum(1 for b in a if b % w == 0 and all(b + i in a for i in range(w)))

        return Slots(len(a), count(2), count(4))

    def fits(self, total: int, n2: int, n4: int) -> bool:
        return n4 <= self.quads and 2 * n4 + n2 <= self.pairs and total <= self.regs

    def safe_total(self, widths: set[int]) -> int:
        """The largest register count every mix of ``widths`` fits in."""
        out = self.regs
        if 2 in widths:
            out = min(out, 2 * self.pairs + 1)
        if 4 in widths:
            out = min(out, 4 * self.quads + 3, 4 * (self.pairs // 2) + 3)
        return out


@dataclass
class PreSpillResult:
    spilled: int = 0
    """Values spilled by the pre-spiller."""
    rematerialized: int = 0
    """Of those, the values recomputed at their uses instead (:mod:`.remat`)."""
    rounds: int = 0
    max_pressure: dict[RegFile, int] = field(default_factory=dict)
    """Maximum pressure per file after spilling (what assignment will need)."""
    liveness: Liveness | None = None
    """Liveness of the function as left by the last round (nothing changed
    after it was computed)."""


def spillable_values(num: ValueNumbering, files: Iterable[RegFile]) -> list[bool]:
    """Whether each numbered value may be spilled (the same rule as
    :func:`.classes.value_costs`: a file and type the spiller supports, not a
    reload, not already spilled, used, and never held by an asynchronous op
    in flight -- ``ValueNumbering.claimed``, :mod:`.inflight`).  P/UP/UR/B values spilled through
    a GPR home raise the R pressure; the next pre-spill round sees the homes
    (ordinary spillable R values) and spills R as needed."""
    fs = set(files)
    out: list[bool] = []
    claimed = num.claimed
    for i, v in enumerate(num.values):
        f = FILES[int(num.file[i])]
        out.append(
            f in fs and can_spill(v) and not is_spill_reload(v) and not is_spilled_value(v)
            and bool(v.uses) and i not in claimed
        )
    return out


@dataclass
class _Val:
    """Planning state of one value: where it is defined, which instructions
    use it (``True`` for an edge operand of a terminator), which of those
    uses still read its register, and its register range per block
    (inclusive point interval)."""

    file: int
    width: int
    def_b: int
    def_j: int
    users: dict[tuple[int, int], bool]
    kept: set[tuple[int, int]]
    iv: dict[int, tuple[int, int]] = field(default_factory=dict)


def _ranges(val: _Val, npts: list[int], preds: list[list[int]]) -> dict[int, tuple[int, int]]:
    """Register range of ``val`` from its kept uses (SSA: one interval per
    block, from the definition or the block entry to the last use or the
    block exit).  ``npts[b]`` is the index of block ``b``'s last point."""
    iv: dict[int, tuple[int, int]] = {val.def_b: (val.def_j, val.def_j)}
    stack: list[int] = []

    def need(b: int, j: int) -> None:
        cur = iv.get(b)
        if cur is None:
            iv[b] = (val.def_j if b == val.def_b else 0, j)
            if b != val.def_b:
                stack.append(b)
        elif j > cur[1]:
            iv[b] = (cur[0], j)

    for (b, k) in val.kept:
        # an op's source is needed at the point before it; an edge operand
        # at the point after the branch (it is live out)
        need(b, npts[b] if val.users[(b, k)] else k)
    while stack:
        b = stack.pop()
        for p in preds[b]:
            need(p, npts[p])
    return iv


def _candidate(val: _Val, spillable: bool, f: int, b: int, j: int, n: int) -> bool:
    """Whether evicting ``val`` at point ``j`` of block ``b`` (``n`` ops)
    lowers the pressure there: spillable, not defined there, and the next
    instruction does not read its register (after the branch: the branch
    does not pass it along an edge)."""
    if val.file != f or not spillable or (val.def_b, val.def_j) == (b, j):
        return False
    if j < n:
        return (b, j) not in val.kept
    return not ((b, n - 1) in val.kept and val.users[(b, n - 1)])


def initial_state(
    lv: Liveness,
) -> tuple[list[_Val], list[list[set[int]]], list[list[list[int]]]]:
    """Per value its definition, uses and register range; per point the live
    values and the per-file register counts.  The ranges are rebuilt from the
    uses (:func:`_ranges`) and agree with :func:`block_points`."""
    cfg = lv.cfg
    num = lv.numbering
    nb = cfg.num_blocks
    nfiles = len(FILES)
    width = num.width.tolist()
    file = num.file.tolist()
    npts = [len(num.ops[b]) for b in range(nb)]
    preds = cfg.preds
    vals: list[_Val] = []
    def_at: list[tuple[int, int]] = [(-1, -1)] * len(num)
    for b in range(nb):
        for a in num.arg_ids[b]:
            def_at[a] = (b, 0)
        for k, defs in enumerate(num.op_defs[b]):
            for v in defs:
                def_at[v] = (b, k + 1)
    users: list[dict[tuple[int, int], bool]] = [{} for _ in range(len(num))]
    for b in range(nb):
        eops = edge_operand_ids(num, b)
        last = npts[b] - 1
        for k, uses in enumerate(num.op_uses[b]):
            for v in uses:
                users[v][(b, k)] = k == last and v in eops
    for v in range(len(num)):
        db, dj = def_at[v]
        val = _Val(file[v], width[v], db, dj, users[v], set(users[v]))
        val.iv = _ranges(val, npts, preds)
        vals.append(val)
    # ---- points: live sets and per-file counts ----
    pts: list[list[set[int]]] = [[set() for _ in range(npts[b] + 1)] for b in range(nb)]
    press: list[list[list[int]]] = [
        [[0] * nfiles for _ in range(npts[b] + 1)] for b in range(nb)
    ]
    for v, val in enumerate(vals):
        for b, (lo, hi) in val.iv.items():
            for j in range(lo, hi + 1):
                pts[b][j].add(v)
                press[b][j][val.file] += val.width
    return vals, pts, press


def _next_use(
    v: int, j: int, n: int, use_pos: dict[int, list[int]], exit_dist: dict[int, int]
) -> int:
    """Instructions from point ``j`` of a block with ``n`` ops (the point
    before op ``j``) to the next use of ``v``: in the block, else past its
    end by the loop-aware exit distance."""
    ks = use_pos.get(v)
    if ks:
        i = bisect_left(ks, j)
        if i < len(ks):
            return ks[i] - j + 1
    d = exit_dist.get(v, INF)
    return n - j + 1 + d if d < INF else INF


@dataclass
class SpillPlan:
    """The decisions of one pre-spill round."""

    evicted: list[int] = field(default_factory=list)
    """Values to spill, in eviction order."""
    kept: dict[int, set[tuple[int, int]]] = field(default_factory=dict)
    """Per evicted value: the (block, op) uses that keep its register."""
    peak: dict[RegFile, int] = field(default_factory=dict)
    """Maximum pressure per file once the plan is applied."""
    forced: list[int] = field(default_factory=list)
    """Values to spill everywhere (a store after the definition, a reload
    before every use): the spillable values of a point that eviction cannot
    relieve (below)."""


def plan_spills(
    func: FuncOp,
    lv: Liveness,
    limits: dict[RegFile, int],
    spillable: list[bool],
    report: dict[RegFile, int] | None = None,
    slots: dict[RegFile, Slots] | None = None,
) -> SpillPlan:
    """One round of eviction decisions (module docstring).  ``report`` is the
    register count a failure names (the budget; default ``limits``).  With
    ``slots`` a point of file ``f`` is also over when its values do not fit
    the aligned slots of ``slots[f]`` (a 64-bit value needs an aligned pair,
    a 128-bit one a quad: counting registers alone let a point hold two
    pairs where the allowed registers have one)."""
    cfg = lv.cfg
    num = lv.numbering
    nb = cfg.num_blocks
    nfiles = len(FILES)
    width = num.width.tolist()
    lim = [limits.get(f, INF) for f in FILES]
    npts = [len(num.ops[b]) for b in range(nb)]  # last point index = number of ops
    preds = cfg.preds
    vals, pts, press = initial_state(lv)
    nu = NextUse(lv)
    plan = SpillPlan()
    slot_of: list[Slots | None] = [(slots or {}).get(f) for f in FILES]
    # per point and file: the 2- and 4-register values (for the slot test)
    wide: list[list[list[list[int]]]] = [
        [[[0, 0] for _ in range(nfiles)] for _ in range(npts[b] + 1)] for b in range(nb)
    ] if any(slot_of) else []
    if wide:
        for v, val in enumerate(vals):
            if val.width >= 2 and slot_of[val.file] is not None:
                k = 0 if val.width == 2 else 1
                for b, (lo, hi) in val.iv.items():
                    for j in range(lo, hi + 1):
                        wide[b][j][val.file][k] += 1

    # per point and file: the registers of the previous op's dead results
    # and of the reloads placed there.  A dead result holds its point only
    # (points.py) and the reloads are inserted after it, so the two never
    # hold registers together: the count at the point is the larger of its
    # registers without the reloads and its registers without the dead
    # results, not their sum
    dead = [[[0] * nfiles for _ in range(npts[b] + 1)] for b in range(nb)]
    rel = [[[0] * nfiles for _ in range(npts[b] + 1)] for b in range(nb)]
    for v, val in enumerate(vals):
        if not val.users and val.iv.get(val.def_b) == (val.def_j, val.def_j):
            dead[val.def_b][val.def_j][val.file] += val.width

    def count(b: int, j: int, f: int) -> int:
        return press[b][j][f] - min(dead[b][j][f], rel[b][j][f])

    def over(b: int, j: int, f: int) -> bool:
        c = count(b, j, f)
        if c > lim[f]:
            return True
        sl = slot_of[f]
        if sl is None:
            return False
        n2, n4 = wide[b][j][f]
        return not sl.fits(c, n2, n4)

    def helps(v: int, b: int, j: int, f: int) -> bool:
        """Whether evicting ``v`` can relieve point (b, j): any value when
        the count is over, else (only the aligned slots are short) a value
        of 2 or 4 registers, a 4-register one when the quads are short."""
        if count(b, j, f) > lim[f]:
            return True
        sl = slot_of[f]
        assert sl is not None
        n2, n4 = wide[b][j][f]
        if n4 > sl.quads:
            return width[v] == 4
        if 2 * n4 + n2 > sl.pairs:
            return width[v] >= 2
        return True

    def bump(b: int, j: int, f: int, w: int, d: int) -> None:
        press[b][j][f] += w * d
        if w >= 2 and slot_of[f] is not None:
            wide[b][j][f][0 if w == 2 else 1] += d

    def evict(v: int, b: int, j: int) -> None:
        val = vals[v]
        if v not in plan.kept:
            plan.evicted.append(v)
        # kept uses reachable from point (b, j) without passing the definition
        hit = [u for u in val.kept if u[0] == b and u[1] >= j]
        if val.iv[b][1] == npts[b]:
            seen: set[int] = set()
            work = [s for s in cfg.succs[b]]
            while work:
                s = work.pop()
                if s in seen or s == val.def_b:
                    continue
                r = val.iv.get(s)
                if r is None or r[0] != 0:
                    continue
                seen.add(s)
                hit.extend(u for u in val.kept if u[0] == s)
                if r[1] == npts[s]:
                    work.extend(cfg.succs[s])
        for u in hit:
            val.kept.discard(u)
        plan.kept[v] = val.kept
        old = val.iv
        new = _ranges(val, npts, preds)
        f, w = val.file, val.width
        for ob, (lo, hi) in old.items():
            nlo, nhi = new.get(ob, (1, 0))
            for jj in range(lo, hi + 1):
                if not nlo <= jj <= nhi:
                    pts[ob][jj].discard(v)
                    bump(ob, jj, f, w, -1)
        val.iv = new
        # each reload takes the value's place before its use (and after the
        # branch for an edge operand)
        for (ub, k) in set(hit):
            bump(ub, k, f, w, 1)
            rel[ub][k][f] += w
            if val.users[(ub, k)]:
                bump(ub, npts[ub], f, w, 1)
        assert v not in pts[b][j]

    peak = [0] * nfiles
    forced: set[int] = set()
    for b in [*cfg.rpo, *cfg.unreachable]:
        ops = num.ops[b]
        n = npts[b]
        use_pos: dict[int, list[int]] | None = None
        exit_b = nu.exit_dist[b]
        for j in range(n + 1):
            for f in range(nfiles):
                if not over(b, j, f):
                    peak[f] = max(peak[f], count(b, j, f))
                    continue
                if use_pos is None:
                    use_pos = {}
                    for k, uses in enumerate(num.op_uses[b]):
                        for v in uses:
                            use_pos.setdefault(v, []).append(k)

                keyed = sorted(
                    (-_next_use(v, j, n, use_pos, exit_b), -width[v], v)
                    for v in pts[b][j]
                    if _candidate(vals[v], spillable[v], f, b, j, n)
                )
                cs = [v for _, _, v in keyed]
                for v in cs:
                    if not over(b, j, f):
                        break
                    if helps(v, b, j, f):
                        evict(v, b, j)
                if over(b, j, f):
                    # Eviction cannot relieve a point that holds what the
                    # next instruction reads besides what the previous one
                    # defines (neither is a candidate there).  Spilling them
                    # everywhere can: the definition is stored right after
                    # it and the next instruction's operands are reloaded
                    # after that store, one instruction's needs at a time,
                    # as the fat-point strategy's spiller ends up doing
                    # (issue 13: allocation at the minimum never fails).
                    stuck = [v for v in pts[b][j] if vals[v].file == f and spillable[v]]
                    if stuck:
                        # the next round sees the point again, with these spilled
                        for v in stuck:
                            if v not in forced:
                                forced.add(v)
                                plan.forced.append(v)
                        continue
                    ff = FILES[f]
                    where = (
                        f"at the entry of block #{b}" if j == 0
                        else f"after `{str(ops[j - 1]).strip().splitlines()[0][:100]}`"
                    )
                    aligned = " (in aligned pairs and quads)" if count(b, j, f) <= lim[f] else ""
                    why = (
                        f"{count(b, j, f)} {ff.value} registers{aligned} are needed {where} "
                        "and nothing live there can be spilled"
                        if ff in SPILLABLE_FILES
                        else f"{count(b, j, f)} {ff.value} registers are live {where} and "
                        f"{ff.value} values cannot be spilled"
                    )
                    raise allocation_failure(func, (report or limits).get(ff, lim[f]), why)
                peak[f] = max(peak[f], count(b, j, f))
    plan.peak = {FILES[f]: peak[f] for f in range(nfiles)}
    return plan


def _reattach(v: SSAValue, users: list[Operation], tag: int) -> None:
    """Give ``users`` back the register of ``v`` after :func:`.spill.spill_value`
    reloaded it before every use: their reload operands become ``v`` again
    and the reload ops left without a use (a reload sequence may be several
    ops, all tagged ``tag``, and an SMEM reload's address computation is
    tagged ``ori.smem_spill_base``) are erased."""

    def ours(op: Operation) -> bool:
        return spill_tag(op) == tag or SMEM_BASE_ATTR in op.attributes

    dead: list[Operation] = []
    for user in users:
        for k, o in enumerate(user.operands):
            if isinstance(o, OpResult) and spill_tag(o.op) == tag:
                user.operands[k] = v
                dead.append(o.op)
    while dead:
        op = dead.pop()
        if op.parent is None or not op.results or any(r.uses for r in op.results):
            continue
        srcs = [o.op for o in op.operands if isinstance(o, OpResult) and ours(o.op)]
        op.detach()
        op.erase()
        dead.extend(srcs)


def prespill(
    func: FuncOp,
    limits: dict[RegFile, int],
    files: Iterable[RegFile] | None = None,
    max_rounds: int = 16,
    report: dict[RegFile, int] | None = None,
    smem: SmemSpill | None = None,
    allowed: dict[RegFile, list[int]] | None = None,
    remat: bool = False,
    pack: bool = True,
) -> PreSpillResult:
    """Spill until no program point of ``func`` needs more than
    ``limits[f]`` registers of any file ``f`` (files without a limit are not
    bounded) -- and, with ``allowed``, until the values of every point fit
    the aligned pairs and quads of ``allowed[f]`` (:class:`Slots`).  Only
    files in ``files`` (default: the spiller's
    :data:`.classes.SPILLABLE_FILES`) are spilled; excess pressure in another
    file is a diagnostic naming ``report[f]`` (default ``limits[f]``) as the
    register count.  ``smem`` selects the shared spiller's SMEM mode for R
    values; with ``remat`` an evicted value whose definition reads no
    register is recomputed instead (:mod:`.remat`); with ``pack`` spilled
    predicates share GPR homes (:mod:`.pred_pack`)."""
    spill_files = set(SPILLABLE_FILES if files is None else files)
    slots = {f: Slots.of(a) for f, a in (allowed or {}).items() if f in (RegFile.R, RegFile.UR)}
    res = PreSpillResult()
    while True:
        res.rounds += 1
        lv = Liveness(CFG.compute(func))
        num = lv.numbering
        # fast path: no point above any limit (the same point model, counted
        # incrementally by analysis/pressure.py), and below the count at
        # which some mix of the file's wide values could miss an aligned slot
        mx = RegisterPressure(lv).max
        safe = dict(limits)
        for f, sl in slots.items():
            fi = FILES.index(f)
            ws = {int(w) for w in set(num.width[num.file == fi].tolist())} if len(num) else set()
            safe[f] = min(limits.get(f, INF), sl.safe_total(ws))
        if all(mx.get(f, 0) <= safe.get(f, INF) for f in FILES):
            res.max_pressure = dict(mx)
            res.liveness = lv
            return res
        spillable = spillable_values(num, spill_files)
        plan = plan_spills(func, lv, limits, spillable, report, slots)
        if not plan.evicted and not plan.forced:
            res.max_pressure = plan.peak
            res.liveness = lv
            return res
        if res.rounds > max_rounds:
            raise allocation_failure(
                func, (report or limits).get(RegFile.R, 0),
                f"pressure still above the budget after {max_rounds} spill rounds",
            )
        tag = next_tag(func)
        vals: list[SSAValue] = num.values
        forced = set(plan.forced)
        for v in [*plan.evicted, *(v for v in plan.forced if v not in plan.kept)]:
            keep = [] if v in forced else [num.ops[b][k] for (b, k) in sorted(plan.kept[v])]
            if remat and remat_source(vals[v]) is not None:
                # a clone before each reloaded use, like a reload (remat.py)
                rematerialize(vals[v], tag, keep)
                res.rematerialized += 1
            else:
                spill_value(vals[v], tag, smem)
                if keep:
                    _reattach(vals[v], keep, tag)
            tag += 1
            res.spilled += 1
        if pack:
            pack_predicate_homes(func)


__all__ = [
    "LOOP_EXIT_DISTANCE",
    "NextUse",
    "PreSpillResult",
    "Slots",
    "SpillPlan",
    "block_points",
    "edge_operand_ids",
    "initial_state",
    "plan_spills",
    "prespill",
    "spillable_values",
]
