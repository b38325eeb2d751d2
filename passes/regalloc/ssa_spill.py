"""Pre-spilling for ``ori-regalloc{strategy=ssa}``: lower the register
pressure of every spillable file to its budget *before* assignment.

Reference: M. Braun and S. Hack, "Register Spilling and Live-Range Splitting
for SSA-Form Programs", CC 2009 (LNCS 5501).  What is taken from the paper:

* blocks are processed in **reverse post order** and each program point
  keeps the values in registers limited to ``k`` (the file's allocatable
  registers, :mod:`.budget`);
* when a point holds more than ``k`` registers the value with the
  **furthest next use** is evicted (Belady's MIN, the paper's section 3);
* next-use distances are **global and loop-aware** (the paper's section 4.1):
  a block's exit distance of a value is the minimum over its successors of
  the successor's entry distance, and an edge leaving a loop adds
  :data:`LOOP_EXIT_DISTANCE` per loop it leaves, so a value whose next use
  lies beyond a loop exit is "far" from every point inside the loop and is
  evicted before a value used in the next iteration.

What differs from the paper (deliberately simpler, still exact on the
pressure bound):

* **Spill everywhere.**  An evicted value is spilled with the shared spiller
  (:func:`.spill.spill_value`): one store right after its definition and a
  reload right before *every* use, not only before the uses that follow the
  eviction point.  The paper keeps a value in a register wherever the set
  ``W`` still holds it and inserts reloads only where it re-enters ``W``; it
  then needs SSA reconstruction for the reloaded copies.  Here every reload
  is a fresh SSA value used by exactly one instruction, so the program stays
  in SSA form without reconstruction, at the price of more reloads.
* **No coupling of W across edges** (the paper's ``W_entry`` selection and
  the repair code on edges): with spill everywhere a value is either in a
  register over its whole (shortened) range or never, so block boundaries
  need no fix-up.
* **No rematerialisation** and spill stores are not hoisted out of loops.

**Why the bound holds.**  Program points are those of :mod:`.points`: a
block's entry (live-in plus all arguments) and the point after each op
(live-after plus all results).  Spilling ``v`` removes it from every point
of its live range except (a) its definition point (the value is written
there and stored right after), (b) the point just before an instruction
that uses it, where the reload takes its place, and (c) the point after a
branch that passes it along an edge (the reload is the edge operand).  A
value is therefore only a *candidate* at a point when it is spillable and
none of (a)-(c) applies, and the *effective* pressure of a point is its
pressure minus the candidates already chosen.  New points created by the
spill code (after each store, after each reload) hold no more registers than
the effective pressure of the old point they follow.  A point whose excess
cannot be removed by candidates (the instruction itself needs more than
``k`` registers, or everything live is a reload / an already spilled value)
is a diagnostic.  Rounds repeat until no point exceeds ``k``.

**Input invariants.**  The function is in SSA form with block arguments as
phis (liveness of :mod:`ori_dialect.analysis.liveness`), tied operands have
been split (:func:`.copies.split_ties`: a guarded result's prior value dies
at the guarded instruction) and every value is virtual.  Which files can be
spilled and which values are spillable is decided by the shared spiller and
:mod:`.classes` (reloads and spilled values are never spilled again).
"""

from __future__ import annotations

from collections.abc import Iterable
from dataclasses import dataclass, field

from xdsl.ir import SSAValue
from xdsl.utils.exceptions import PassFailedException

from ori_dialect.analysis.cfg import CFG
from ori_dialect.analysis.dominators import DominatorTree
from ori_dialect.analysis.liveness import FILES, Liveness, ValueNumbering, edge_operands
from ori_dialect.analysis.loops import LoopInfo
from ori_dialect.ir.registers import RegFile
from ori_dialect.ops.func import FuncOp
from passes.regalloc.classes import SPILLABLE_FILES, is_reload, is_spilled
from passes.regalloc.spill import next_tag, spill_value

try:  # the spiller says which register types it can spill (P/UP/UR/B via a GPR home)
    from passes.regalloc.spill import can_spill
except ImportError:  # an R-only spiller: the files of SPILLABLE_FILES decide alone

    def can_spill(v: SSAValue) -> bool:
        return True

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


@dataclass
class PreSpillResult:
    spilled: int = 0
    """Values spilled by the pre-spiller."""
    rounds: int = 0
    max_pressure: dict[RegFile, int] = field(default_factory=dict)
    """Maximum pressure per file after spilling (what assignment will need)."""


def spillable_values(num: ValueNumbering, files: Iterable[RegFile]) -> list[bool]:
    """Whether each numbered value may be spilled (the same rule as
    :func:`.classes.value_costs`: a file and type the spiller supports, not a
    reload, not already spilled, and used).  P/UP/UR/B values spilled through
    a GPR home raise the R pressure; the next pre-spill round sees the homes
    (ordinary spillable R values) and spills R as needed."""
    fs = set(files)
    out: list[bool] = []
    for i, v in enumerate(num.values):
        f = FILES[int(num.file[i])]
        out.append(
            f in fs and can_spill(v) and not is_reload(v) and not is_spilled(v) and bool(v.uses)
        )
    return out


def _fail(func: FuncOp, count: int, why: str) -> PassFailedException:
    # the seed's error text (seed 000, "Core Fat-Point Allocator"), as the
    # fat-point driver words it
    return PassFailedException(
        f"@{func.sym_name.data}: Register allocation failed with register count of "
        f"'{count}' ({why})"
    )


def choose_spills(
    func: FuncOp,
    lv: Liveness,
    limits: dict[RegFile, int],
    spillable: list[bool],
    report: dict[RegFile, int] | None = None,
) -> tuple[list[int], dict[RegFile, int]]:
    """One round of eviction decisions (module docstring): the values to spill
    and the maximum effective pressure per file after spilling them.
    ``report`` is the register count a failure names (the budget; default
    ``limits``)."""
    cfg = lv.cfg
    num = lv.numbering
    nu = NextUse(lv)
    width = num.width.tolist()
    file = num.file.tolist()
    lim = [limits.get(f, INF) for f in FILES]
    chosen: set[int] = set()
    order: list[int] = []
    peak = [0] * len(FILES)
    for b in [*cfg.rpo, *cfg.unreachable]:
        ops = num.ops[b]
        n = len(ops)
        pts = block_points(lv, b)
        # next-use position (relative to the block start) of every value at
        # each point, computed backwards; the point after op k sees uses > k
        nxt: dict[int, int] = {v: n + d for v, d in nu.exit_dist[b].items() if d < INF}
        dists: list[dict[int, int]] = [{} for _ in range(n + 1)]
        for k in range(n - 1, -1, -1):
            dists[k + 1] = {v: nxt.get(v, INF) - k for v in pts[k + 1]}
            for v in num.op_uses[b][k]:
                nxt[v] = k
        dists[0] = {v: nxt.get(v, INF) + 1 for v in pts[0]}
        edge_ops = edge_operand_ids(num, b)
        for j, pt in enumerate(pts):
            defined = set(num.arg_ids[b]) if j == 0 else set(num.op_defs[b][j - 1])
            blocked = set(num.op_uses[b][j]) if j < n else edge_ops
            tot = [0] * len(FILES)
            cands: list[list[int]] = [[] for _ in FILES]
            for v in pt:
                f = file[v]
                tot[f] += width[v]
                if spillable[v] and v not in defined and v not in blocked:
                    if v in chosen:
                        tot[f] -= width[v]
                    else:
                        cands[f].append(v)
            for f in range(len(FILES)):
                if tot[f] <= lim[f]:
                    peak[f] = max(peak[f], tot[f])
                    continue
                dist = dists[j]
                cs = sorted(cands[f], key=lambda v: (-dist.get(v, INF), -width[v], v))
                for v in cs:
                    if tot[f] <= lim[f]:
                        break
                    chosen.add(v)
                    order.append(v)
                    tot[f] -= width[v]
                if tot[f] > lim[f]:
                    ff = FILES[f]
                    where = (
                        f"at the entry of block #{b}" if j == 0
                        else f"after `{str(ops[j - 1]).strip().splitlines()[0][:100]}`"
                    )
                    why = (
                        f"{tot[f]} {ff.value} registers are needed {where} and nothing "
                        "live there can be spilled"
                        if ff in SPILLABLE_FILES
                        else f"{tot[f]} {ff.value} registers are live {where} and "
                        f"{ff.value} values cannot be spilled"
                    )
                    raise _fail(func, (report or limits).get(ff, lim[f]), why)
                peak[f] = max(peak[f], tot[f])
    return order, {FILES[f]: peak[f] for f in range(len(FILES))}


def prespill(
    func: FuncOp,
    limits: dict[RegFile, int],
    files: Iterable[RegFile] | None = None,
    max_rounds: int = 16,
    report: dict[RegFile, int] | None = None,
) -> PreSpillResult:
    """Spill until no program point of ``func`` needs more than
    ``limits[f]`` registers of any file ``f`` (files without a limit are not
    bounded).  Only files in ``files`` (default: the spiller's
    :data:`.classes.SPILLABLE_FILES`) are spilled; excess pressure in another
    file is a diagnostic naming ``report[f]`` (default ``limits[f]``) as the
    register count."""
    spill_files = set(SPILLABLE_FILES if files is None else files)
    res = PreSpillResult()
    while True:
        res.rounds += 1
        lv = Liveness(CFG.compute(func))
        num = lv.numbering
        spillable = spillable_values(num, spill_files)
        order, peak = choose_spills(func, lv, limits, spillable, report)
        if not order:
            res.max_pressure = peak
            return res
        if res.rounds > max_rounds:
            raise _fail(
                func, (report or limits).get(RegFile.R, 0),
                f"pressure still above the budget after {max_rounds} spill rounds",
            )
        tag = next_tag(func)
        vals: list[SSAValue] = num.values
        for v in order:
            spill_value(vals[v], tag)
            tag += 1
            res.spilled += 1


__all__ = [
    "LOOP_EXIT_DISTANCE",
    "NextUse",
    "PreSpillResult",
    "block_points",
    "choose_spills",
    "edge_operand_ids",
    "prespill",
    "spillable_values",
]
