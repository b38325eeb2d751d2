"""Assignment in dominance order for ``ori-regalloc{strategy=ssa}``.

Reference: S. Hack, D. Grund and G. Goos, "Register Allocation for Programs
in SSA-Form", CC 2006, and Braun & Hack 2009 (section 2): the interference
graph of a strict SSA program is chordal, and colouring the values in the
order of their definitions along a pre-order walk of the dominator tree is a
perfect elimination order -- when a value is defined, every already coloured
value that interferes with it is live at its definition point.  A greedy
assignment that frees the registers of values at their last use therefore
needs exactly the maximum register pressure (for one-register values).

The walk, per block in dominator-tree pre-order (unreachable blocks last):

1. the registers of the block's live-in values are occupied (they were
   defined in dominating blocks and are already assigned);
2. the block arguments (phis) get registers, then, for each op, the
   registers of values that are not in the point after it (:mod:`.points`:
   values that die at the op, dead results of the previous op) are freed
   and the op's results get registers.  A guarded result takes its tied
   prior value's register (the prior dies at the op: :func:`.copies.split_ties`).
3. Edge operands and the successor's arguments are not constrained to one
   register: the edge parallel copies (:func:`.copies.lower_edge_copies`)
   reconcile them after assignment.

**Choosing a register.**  Candidates are the free aligned slots of the
file's allowed registers (:mod:`.budget`: reserved registers never appear).
In order of preference: a *hint* (the register of a coalescing partner: an
edge operand / block argument pair or a ``MOV``'s source) below the current
high-water mark; a free slot below the high-water mark whose aligned
*buddy* (the other half of the enclosing double-width aligned block) is
occupied or not allowed -- filling holes keeps aligned pairs and quads free
for wide values; the lowest free slot below the high-water mark; the lowest
free slot overall (which raises the mark as little as possible).

**Bound.**  For one-register values the registers used are exactly the
lowest ``P`` allowed registers of the file, ``P`` being the maximum pressure
(the mark only rises when every allowed register below it is taken, and at
most ``P - 1`` other values are then live).  Wide values (``r64`` an aligned
pair, ``r128`` an aligned quad, also in UR) need aligned free slots, which
fragmentation can deny even when the pressure fits: then the assignment
fails at that value (:class:`AssignFailure`) and the strategy lowers that
file's pre-spill target by the value's width and retries, so the final
register count is at most the budget but may exceed the pressure by the
alignment waste.  No bound better than the budget is claimed with wide
values (the retries show in ``FunctionResult.attempts``).

**Input invariants.**  Strict SSA (every use dominated by its definition;
block arguments are the phis), tied operands split, every value virtual, and
the pressure of every file within its allowed registers (the pre-spiller's
job; a file whose pressure exceeds them cannot be assigned).
"""

from __future__ import annotations

from dataclasses import dataclass, field

from xdsl.utils.exceptions import PassFailedException

from ori_dialect.analysis.dominators import DominatorTree
from ori_dialect.analysis.liveness import FILES, Liveness, edge_operands
from ori_dialect.ir.registers import RegFile
from ori_dialect.ops.integer import MovOp
from passes.regalloc.ssa_spill import block_points


class AssignFailure(Exception):
    """No aligned free slot for a value (fragmentation, see the module docstring)."""

    def __init__(self, file: RegFile, value: int, width: int, block: int) -> None:
        super().__init__(f"no free aligned {width}-register slot in {file.value} (block #{block})")
        self.file = file
        self.value = value
        self.width = width
        self.block = block


@dataclass
class Assignment:
    reg: dict[int, int] = field(default_factory=dict)
    """value index -> base register."""
    peak: dict[RegFile, int] = field(default_factory=dict)
    """Per file: highest register used + 1."""
    used: dict[RegFile, set[int]] = field(default_factory=dict)
    """Per file: every register some value occupies."""


def dominance_order(dom: DominatorTree) -> list[int]:
    """Blocks in dominator-tree pre-order, unreachable blocks last."""
    out: list[int] = []
    if dom.cfg.num_blocks and dom.cfg.rpo:
        stack = [dom.cfg.rpo[0]]
        while stack:
            b = stack.pop()
            out.append(b)
            stack.extend(reversed(dom.children[b]))
    out.extend(dom.unreachable)
    return out


def _partners(lv: Liveness) -> dict[int, list[int]]:
    """Coalescing partners of each value: edge operand <-> argument, MOV
    source <-> result (hints only, never constraints)."""
    num = lv.numbering
    part: dict[int, list[int]] = {}

    def add(a: int, b: int) -> None:
        if a != b and num.width[a] == num.width[b] and num.file[a] == num.file[b]:
            part.setdefault(a, []).append(b)
            part.setdefault(b, []).append(a)

    for b in range(lv.cfg.num_blocks):
        ops = num.ops[b]
        if ops and ops[-1].successors:
            term = ops[-1]
            for slot, dest in enumerate(term.successors):
                for v, a in zip(edge_operands(term, slot), dest.args):
                    iv, ia = num.index.get(v), num.index.get(a)
                    if iv is not None and ia is not None:
                        add(iv, ia)
        for op in ops:
            if isinstance(op, MovOp) and not op.is_guarded:
                s = op.src_reg("a")
                if s is not None and s in num.index and op.results[0] in num.index:
                    add(num.index[s], num.index[op.results[0]])
    return part


class _File:
    """Occupancy of one register file during the walk."""

    def __init__(self, allowed: list[int]) -> None:
        self.allowed = sorted(allowed)
        self.ok = set(allowed)
        self.occ: set[int] = set()
        self.mark = 0
        self.used: set[int] = set()

    def free_slot(self, base: int, w: int) -> bool:
        return base % w == 0 and all(
            base + i in self.ok and base + i not in self.occ for i in range(w)
        )

    def buddy_blocked(self, base: int, w: int) -> bool:
        bud = base ^ w
        return any(bud + i not in self.ok or bud + i in self.occ for i in range(w))

    def choose(self, w: int, hints: list[int]) -> int | None:
        for h in hints:
            if h + w <= self.mark and self.free_slot(h, w):
                return h
        below_hole = below = None
        for r in self.allowed:
            if r + w > self.mark:
                break
            if self.free_slot(r, w):
                if self.buddy_blocked(r, w):
                    below_hole = r
                    break
                if below is None:
                    below = r
        if below_hole is not None:
            return below_hole
        if below is not None:
            return below
        for r in self.allowed:
            if r + w > self.mark and self.free_slot(r, w):
                return r
        return None

    def take(self, base: int, w: int) -> None:
        for i in range(w):
            self.occ.add(base + i)
            self.used.add(base + i)
        self.mark = max(self.mark, base + w)

    def release(self, base: int, w: int) -> None:
        for i in range(w):
            self.occ.discard(base + i)


def assign(lv: Liveness, allowed: dict[RegFile, list[int]]) -> Assignment:
    """Registers for every numbered value of the function (module docstring).
    Raises :class:`AssignFailure` when a value finds no aligned free slot."""
    cfg = lv.cfg
    num = lv.numbering
    dom = DominatorTree(cfg)
    width = num.width.tolist()
    fil = num.file.tolist()
    files = [_File(allowed.get(f, [])) for f in FILES]
    partners = _partners(lv)
    reg: dict[int, int] = {}
    for b in dominance_order(dom):
        for st in files:
            st.occ.clear()
        for v in lv.live_in(b):
            base = reg.get(v)
            if base is None:
                raise PassFailedException(
                    f"ori-regalloc{{strategy=ssa}}: a value live into block #{b} is not "
                    "defined in a block dominating it (the strategy needs strict SSA)"
                )
            files[fil[v]].take(base, width[v])
        pts = block_points(lv, b)

        def give(v: int, fixed: int | None = None, blk: int = b) -> None:
            st = files[fil[v]]
            w = width[v]
            if fixed is not None:
                base: int | None = fixed
                if not st.free_slot(fixed, w):
                    raise AssertionError(
                        f"ssa assignment: tied register {FILES[fil[v]].value}{fixed} is not free"
                    )
            else:
                hints = [reg[p] for p in partners.get(v, ()) if p in reg]
                base = st.choose(w, hints)
            if base is None:
                raise AssignFailure(FILES[fil[v]], v, w, blk)
            st.take(base, w)
            reg[v] = base

        for a in num.arg_ids[b]:
            give(a)
        cur = pts[0]
        for k in range(len(num.ops[b])):
            nxt = pts[k + 1]
            for v in cur - nxt:
                files[fil[v]].release(reg[v], width[v])
            tied = dict(num.tied.get((b, k), ()))
            defs = num.op_defs[b][k]
            for v in defs:
                p = tied.get(v)
                if p is not None:
                    give(v, reg[p])
            for v in defs:
                if v not in tied:
                    give(v)
            cur = nxt
    res = Assignment(reg=reg)
    for f, st in zip(FILES, files):
        res.peak[f] = max(st.used) + 1 if st.used else 0
        res.used[f] = st.used
    return res


__all__ = ["AssignFailure", "Assignment", "assign", "dominance_order"]
