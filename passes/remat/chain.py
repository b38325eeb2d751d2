"""Rematerializability through the def chain (seed 002, "Main Algorithm"
step 5, sub_1CD06C0 "Determines if a value can be recomputed"; the walk is
bounded by ``max-recurse-depth``).

A candidate ``v`` is recomputed in every block that uses it other than its
defining block (the *sites*), right before the first user there.  Its
*chain* is the list of ops cloned at each site, operands first:

* ``v``'s own defining op, always;
* for each register operand ``w`` of a chain op: nothing when ``w`` is
  **available** at every site -- live just before the first user of ``v``
  there, so using it again extends no live range -- else ``w``'s defining
  op, recursively, up to ``max-recurse-depth`` ops deep (``do-remat=1``,
  conservative: depth 1, every operand must be available).

An op may be cloned when it asks for it (docs/architecture.md "Op facts";
never a table of names): an ``OriOp`` without successors or regions,
unguarded (a guarded op would drag its guard and prior value along) and not
``is_volatile``; then either ``REMATERIALIZABLE`` and ``is_speculatable()``
and reading no memory, or -- in the load phase (``remat-load``) --
``is_read_only_load()`` (LDC, ``ld.global.nc``: the clone runs where the
original, which dominates it, already ran, with the same address).  A plain
register copy (``is_register_copy()``) only with ``remat-move``.

Availability is exact: ``w`` is live before position ``k`` of block ``B``
iff it is defined before ``k`` (live-in, an argument of ``B`` or a result of
an earlier op) and still used at or after ``k`` (live-out, or a use at a
position ``>= k``).
"""

from __future__ import annotations

from dataclasses import dataclass, field

from xdsl.ir import Block, Operation, SSAValue

from ori_dialect.ir.instruction import OriInstruction, OriOp
from passes.remat.measure import LiveIn


@dataclass(frozen=True)
class Site:
    block: int
    pos: int
    """Position of the first user of the candidate in ``block``."""


class Availability:
    """Exact 'is ``w`` live before op ``k`` of block ``b``' over one liveness."""

    def __init__(self, info: LiveIn) -> None:
        self.info = info
        self._in: dict[int, set[int]] = {}
        self._out: dict[int, set[int]] = {}
        self._last: dict[int, dict[int, int]] = {}
        self._defs: dict[int, dict[int, int]] = {}

    def _block(self, b: int) -> None:
        lv = self.info.liveness
        num = lv.numbering
        self._in[b] = set(lv.live_in(b))
        self._out[b] = set(lv.live_out(b))
        last: dict[int, int] = {}
        defs: dict[int, int] = dict.fromkeys(num.arg_ids[b], -1)
        for k, (d, u) in enumerate(zip(num.op_defs[b], num.op_uses[b])):
            for x in u:
                last[x] = k
            for x in d:
                defs[x] = k
        self._last[b] = last
        self._defs[b] = defs

    def live_before(self, vid: int, b: int, k: int) -> bool:
        if b not in self._in:
            self._block(b)
        defined = vid in self._in[b] or self._defs[b].get(vid, k) < k
        return defined and (vid in self._out[b] or self._last[b].get(vid, -1) >= k)


def clone_refusal(op: Operation, *, loads: bool, moves: bool) -> str | None:
    """Why ``op`` may not be cloned (None: it may)."""
    if not isinstance(op, OriOp) or op.successors or op.regions:
        return f"{op.name} is not an instruction"
    cls = type(op)
    if isinstance(op, OriInstruction):
        if op.is_guarded:
            return f"{op.name} is guarded"
        if op.is_volatile:
            return f"{op.name} is volatile"
        if op.is_register_copy() and not moves:
            return "a register copy (remat-move=false)"
        if cls.MEM.reads:
            if not op.is_read_only_load():
                return f"{op.name} reads writable memory"
            return None if loads else f"{op.name} is a load (load phase only)"
    elif cls.MEM.reads:
        return f"{op.name} reads memory"
    if not cls.REMATERIALIZABLE:
        return f"{op.name} is not rematerializable"
    if not cls.is_speculatable():
        return f"{op.name} has effects"
    return None


@dataclass
class Chain:
    ops: list[Operation] = field(default_factory=list)
    """The ops to clone at each site, operands first (the candidate's def last)."""
    free: set[SSAValue] = field(default_factory=set)
    """Operands the clones read where they are (available at every site)."""


def use_sites(v: SSAValue, def_block: Block, info: LiveIn) -> list[Site] | str:
    """The blocks other than ``def_block`` that use ``v``, each with the
    position of its first user (in block-id order), or why there are none
    to work with."""
    index = info.cfg.index
    pos: dict[int, int] = {}
    for use in v.uses:
        op = use.operation
        blk = op.parent_block()
        if blk is None or blk is def_block:
            continue
        b = index[blk]
        if info.cfg.rpo_index[b] < 0:
            return "used in an unreachable block"
        k = info.liveness.position(op)[1]
        if b not in pos or k < pos[b]:
            pos[b] = k
    if not pos:
        return "no use outside its block"
    return [Site(b, k) for b, k in sorted(pos.items())]


def build_chain(value: SSAValue, sites: list[Site], avail: Availability, *,
                depth: int, loads: bool, moves: bool) -> Chain | str:
    """The chain of ``value`` for ``sites``, or why it cannot be recomputed."""
    index = avail.info.liveness.numbering.index
    names = avail.info.liveness.numbering.names()
    chain = Chain()
    seen: set[Operation] = set()

    def name(v: SSAValue) -> str:
        i = index.get(v)
        return "%" + (names[i] if i is not None else "?")

    def visit(v: SSAValue, level: int) -> str | None:
        if level > 0:
            vid = index.get(v)
            if vid is not None and all(avail.live_before(vid, s.block, s.pos) for s in sites):
                chain.free.add(v)
                return None
        op = v.owner
        if not isinstance(op, Operation):
            return (f"{name(v)} is a block argument" if level == 0 else
                    f"operand {name(v)} (a block argument) is not live at every use")
        if op in seen:
            return None
        if level >= depth:
            return f"operand {name(v)} is not live at every use (max-recurse-depth={depth})"
        why = clone_refusal(op, loads=loads, moves=moves)
        if why is not None:
            return why if level == 0 else f"operand {name(v)}: {why}"
        for w in op.operands:
            r = visit(w, level + 1)
            if r is not None:
                return r
        seen.add(op)
        chain.ops.append(op)
        return None

    why = visit(value, 0)
    return chain if why is None else why


__all__ = ["Availability", "Chain", "Site", "build_chain", "clone_refusal", "use_sites"]
