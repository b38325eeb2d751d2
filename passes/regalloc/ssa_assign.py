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
edge operand / block argument pair or a ``MOV``'s source; or the register
that puts an ``ori.pack``/``ori.unpack`` part in place in its wide value,
looked up through the wide value's own partners while it has no register
yet; :mod:`.ssa_search` minimises the count and may undo it) below the
current high-water mark; a free slot below the high-water mark whose aligned
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
fails at that value (:class:`AssignFailure`, naming the values that occupy
each aligned slot it could take) and the strategy spills the values of one
such slot -- or, where none can be spilled, lowers that file's pre-spill
target by the value's width -- and retries, so the final
register count is at most the budget but may exceed the pressure by the
alignment waste.  No bound better than the budget is claimed with wide
values (the retries show in ``FunctionResult.attempts``).  Measured on the
113 functions of generated programs 200..259 without a limit (r64 addresses
everywhere): 106 use no register above the lowest ``P`` allowed ones, 6 one
more, 1 two more; no fragmentation retry was needed.  Where the greedy
result is above that bound, :mod:`.ssa_search` looks for an assignment
with fewer registers and proves the count it keeps minimal (on the example
kernels it reaches the bound or proves the rest is alignment on all of
them).

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
from passes.regalloc.classes import value_alignments
from passes.regalloc.coalesce import sub_register_pairs


class AssignFailure(Exception):
    """No aligned free slot for a value (fragmentation, see the module docstring)."""

    def __init__(self, file: RegFile, value: int, width: int, block: int,
                 blockers: list[list[int]] | None = None, held: list[int] | None = None) -> None:
        super().__init__(f"no free aligned {width}-register slot in {file.value} (block #{block})")
        self.file = file
        self.value = value
        self.width = width
        self.block = block
        self.blockers = blockers or []
        """Per aligned slot the value could take: the values occupying it
        there (the strategy spills one slot's worth, ssa_driver.py)."""
        self.held = held or []
        """Every value holding a register of the file there."""


@dataclass
class Assignment:
    reg: dict[int, int] = field(default_factory=dict)
    """value index -> base register."""
    peak: dict[RegFile, int] = field(default_factory=dict)
    """Per file: highest register used + 1."""
    used: dict[RegFile, set[int]] = field(default_factory=dict)
    """Per file: every register some value occupies."""
    events: list[tuple[int, int, object]] = field(default_factory=list)
    """The walk of the recorded file (``assign(record=...)``) for
    :mod:`.ssa_search`: ``(WALK_RESET, block, live-in values)``,
    ``(WALK_GIVE, value, tied prior or -1)``, ``(WALK_RELEASE, value, 0)``."""
    partners: dict[int, list[int]] = field(default_factory=dict)
    """Coalescing partners (hints) of each value."""


WALK_RESET, WALK_GIVE, WALK_RELEASE = 0, 1, 2


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


def _sub_partners(lv: Liveness) -> dict[int, list[tuple[int, int]]]:
    """Sub-register partners ``(other, delta)`` of each value: its register
    is best at ``other``'s + ``delta`` (:func:`.coalesce.sub_register_pairs`)."""
    out: dict[int, list[tuple[int, int]]] = {}
    for part, whole, i in sub_register_pairs(lv.numbering):
        out.setdefault(part, []).append((whole, i))
        out.setdefault(whole, []).append((part, -i))
    return out


def _periodic(width: int, period: int, size: int) -> int:
    """Bits ``b`` of ``0..size-1`` with ``b % period < width``."""
    m = 0
    for b in range(0, size, period):
        m |= ((1 << width) - 1) << b
    return m


_SIZE = 256
# 8..128: the register tuples of warpgroup MMA accumulators (TUPLE_TYPES)
_WIDTHS = (1, 2, 4, 8, 16, 32, 64, 128)
_ALIGNED = {w: _periodic(1, w, _SIZE) for w in _WIDTHS}
"""Bases aligned to each width."""
_LOWER = {w: _periodic(w, 2 * w, _SIZE) for w in _WIDTHS}
"""Bases whose aligned buddy (``base ^ w``) lies above them."""


def _lowest(m: int) -> int:
    return (m & -m).bit_length() - 1


class FileSlots:
    """Occupancy of one register file during the walk, as bit masks (bit
    ``r`` is register ``r``)."""

    def __init__(self, allowed: list[int]) -> None:
        self.ok = 0
        for r in allowed:
            self.ok |= 1 << r
        self.occ = 0
        self.mark = 0
        self.used = 0

    def slots(self, w: int, align: int = 0) -> int:
        """Bases of the free ``w``-register slots at a multiple of ``align``
        (0: ``w``; a register tuple's type says 4)."""
        f = self.ok & ~self.occ
        run = 1  # f: bases of `run` free registers in a row, doubled up to w
        while run < w:
            f &= f >> run
            run *= 2
        a = align or w
        if w not in _ALIGNED or a not in _ALIGNED:
            raise ValueError(f"ssa assignment: no slots of width {w}")
        return f & _ALIGNED[a]

    def free_slot(self, base: int, w: int, align: int = 0) -> bool:
        return bool((self.slots(w, align) >> base) & 1)

    def choose(self, w: int, hints: list[int], align: int = 0) -> int | None:
        s = self.slots(w, align)
        if not s:
            return None
        below = s & ((1 << max(self.mark - w + 1, 0)) - 1)
        for h in hints:
            if (below >> h) & 1:
                return h
        if below and align not in (0, w):
            # a register tuple at a quad: the lowest (no buddy structure)
            return _lowest(below)
        if below:
            # a slot whose aligned buddy is taken or not allowed: fills a hole
            lower = _LOWER[w]
            buddy_free = ((s >> w) & lower) | ((s << w) & ~lower)
            holes = below & ~buddy_free
            return _lowest(holes if holes else below)
        return _lowest(s)

    def take(self, base: int, w: int) -> None:
        bits = ((1 << w) - 1) << base
        self.occ |= bits
        self.used |= bits
        self.mark = max(self.mark, base + w)

    def release(self, base: int, w: int) -> None:
        self.occ &= ~(((1 << w) - 1) << base)


def _dying(lv: Liveness, b: int) -> tuple[list[int], list[list[int]]]:
    """Values to free before each op of block ``b`` is assigned: the block
    arguments nothing reads (before op 0), the dead results of the previous
    op, and the op's sources that are not live after it (the difference
    between consecutive points of :mod:`.points`)."""
    num = lv.numbering
    ops = num.ops[b]
    out: list[list[int]] = [[] for _ in ops]
    dead_defs: list[list[int]] = [[] for _ in ops]
    live_before: set[int] = set(lv.live_out(b))
    for k, _op, live in lv.walk_backward(b):
        out[k] = [v for v in num.op_uses[b][k] if v not in live]
        dead_defs[k] = [v for v in num.op_defs[b][k] if v not in live]
        live_before = live
    for k in range(1, len(ops)):
        out[k].extend(dead_defs[k - 1])
    dead_args = [a for a in num.arg_ids[b] if a not in live_before] if ops else []
    return dead_args, out


def assign(lv: Liveness, allowed: dict[RegFile, list[int]],
           record: RegFile | None = None) -> Assignment:
    """Registers for every numbered value of the function (module docstring).
    Raises :class:`AssignFailure` when a value finds no aligned free slot.
    ``record``: keep the walk of that file in ``Assignment.events``."""
    cfg = lv.cfg
    num = lv.numbering
    dom = DominatorTree(cfg)
    width = num.width.tolist()
    align = value_alignments(num.values)
    fil = num.file.tolist()
    files = [FileSlots(allowed.get(f, [])) for f in FILES]
    partners = _partners(lv)
    subs = _sub_partners(lv)
    reg: dict[int, int] = {}
    rec = FILES.index(record) if record is not None else -1
    events: list[tuple[int, int, object]] = []
    # per file: register -> the value in it now (for AssignFailure.blockers)
    hold: list[dict[int, int]] = [{} for _ in FILES]

    def occupy(v: int, base: int) -> None:
        files[fil[v]].take(base, width[v])
        for r in range(base, base + width[v]):
            hold[fil[v]][r] = v

    def blockers(fi: int, w: int, a: int) -> list[list[int]]:
        ok = files[fi].ok
        out: list[list[int]] = []
        for base in range(0, _SIZE - w + 1, a):
            if all((ok >> (base + i)) & 1 for i in range(w)):
                out.append(sorted({hold[fi][r] for r in range(base, base + w) if r in hold[fi]}))
        return out

    def give(v: int, blk: int, fixed: int | None = None) -> None:
        st = files[fil[v]]
        w, a = width[v], align[v]
        if fixed is not None:
            base: int | None = fixed
            if not st.free_slot(fixed, w, a):
                raise AssertionError(
                    f"ssa assignment: tied register {FILES[fil[v]].value}{fixed} is not free"
                )
        else:
            hints = [reg[p] for p in partners.get(v, ()) if p in reg]
            for p, delta in subs.get(v, ()):
                # the wide partner, else its coalescing partners (a PACK
                # result passed to a loop header's argument)
                for q in (p, *partners.get(p, ())):
                    if q in reg and reg[q] + delta >= 0:
                        hints.append(reg[q] + delta)
                        break
            base = st.choose(w, hints, a)
        if base is None:
            raise AssignFailure(FILES[fil[v]], v, w, blk, blockers(fil[v], w, a),
                                sorted(set(hold[fil[v]].values())))
        occupy(v, base)
        reg[v] = base
        if fil[v] == rec:
            events.append((WALK_GIVE, v, -1 if fixed is None else tied_of[v]))

    def free(v: int) -> None:
        files[fil[v]].release(reg[v], width[v])
        for r in range(reg[v], reg[v] + width[v]):
            if hold[fil[v]].get(r) == v:
                del hold[fil[v]][r]
        if fil[v] == rec:
            events.append((WALK_RELEASE, v, 0))

    tied_of: dict[int, int] = {}

    for b in dominance_order(dom):
        for st in files:
            st.occ = 0
        for h in hold:
            h.clear()
        live_in = lv.live_in(b)
        for v in live_in:
            base = reg.get(v)
            if base is None:
                raise PassFailedException(
                    f"ori-regalloc{{strategy=ssa}}: a value live into block #{b} is not "
                    "defined in a block dominating it (the strategy needs strict SSA)"
                )
            occupy(v, base)
        if rec >= 0:
            events.append((WALK_RESET, b, tuple(v for v in live_in if fil[v] == rec)))
        dead_args, dying = _dying(lv, b)
        for a in num.arg_ids[b]:
            give(a, b)
        for v in dead_args:
            free(v)
        for k, defs in enumerate(num.op_defs[b]):
            for v in dying[k]:
                free(v)
            if not defs:
                continue
            tied = dict(num.tied.get((b, k), ()))
            for v in defs:
                p = tied.get(v)
                if p is not None:
                    tied_of[v] = p
                    give(v, b, reg[p])
            for v in defs:
                if v not in tied:
                    give(v, b)
    res = Assignment(reg=reg, events=events, partners=partners)
    for f, st in zip(FILES, files):
        res.peak[f] = st.used.bit_length()
        res.used[f] = {r for r in range(st.used.bit_length()) if (st.used >> r) & 1}
    return res


__all__ = [
    "WALK_GIVE",
    "WALK_RELEASE",
    "WALK_RESET",
    "AssignFailure",
    "Assignment",
    "FileSlots",
    "assign",
    "dominance_order",
]
