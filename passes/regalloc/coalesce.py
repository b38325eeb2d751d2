"""Allocation units: tied operands and coalescing (seed 000 "Register
Coalescing Engine", "Register Assignment: ... propagate through alias chain").

Values are merged with a union-find into units that share one register:

* **mandatory**: a guarded instruction's result and its tied prior value
  (:func:`.copies.split_ties` first copies a prior that is still live after
  the instruction, so the two never interfere), a ``TIED`` result and
  source (HGMMA's ``d`` and ``c``), and an HGMMA accumulator in flight
  handed over along a branch edge and the block argument that takes it
  (where they do not interfere; :mod:`.inflight`);
* **optional** (``coalescing=true``, knob RegAllocCoalescing): a value a
  branch passes along an edge with the successor's argument, and a ``MOV``'s
  result with its register source.  Candidates are tried by decreasing block
  frequency and merged when their units have the same register type and are
  never live at the same program point (so sharing the register is sound).
  A candidate that cannot be merged becomes a *hint*: the fat-point scan
  prefers the partner's register through its secondary cost.  A retry of a
  file (``coalesce`` names the files still merged: the driver drops a file
  once a trial failed in it coalesced) merges none of that file's
  candidates but keeps them as hints: a hint is a tie-break among free
  registers and never makes a unit fail (codesize_vs_ptxas: 39460 -> 37813 instructions
  when the retries of large kernels kept their PACK/UNPACK parts in place).
* **repack hints** (in every trial): ``y = PACK(UNPACK(x))`` rebuilds
  ``x`` word for word (the ABI's copy of a 64-bit argument into its
  parameter registers, of a 64-bit result out of them): ``x`` and ``y``
  prefer each other's register (:func:`repack_pairs`);
* **sub-register hints** (in every trial): an ``ori.pack``
  part and the wide value it builds, an ``ori.unpack`` result and its
  source.  They never merge (the types differ); each side prefers the
  register that puts the part in place (part ``i`` at the wide value's
  base + ``i``), so the pseudo-op costs no ``MOV`` -- the seed's coalescing
  of sub-register copies ("Register Coalescing Engine"), which is how
  ptxas's 64-bit adds update the halves of the pair in place
  (``IADD3 R2, P0, R2, -0x10, RZ`` / ``IADD3.X R3, R3, -0x1, ...``);
  likewise a ``PACK`` of consecutive words of one ``UNPACK`` and the
  unpacked value (:func:`slice_pairs`: an MMA's B pair read in place from
  an ``LDSM`` quad).

The seed's alias chain (``vreg+36``) is the union-find parent here: assigning
the unit assigns every value in it.
"""

from __future__ import annotations

from collections.abc import Iterator

import numpy as np
from xdsl.ir import Operation, SSAValue

from ori_dialect.analysis.liveness import FILES, ValueNumbering, edge_operands
from ori_dialect.ir.registers import RegFile
from ori_dialect.ops.integer import MovOp, PackOp, UnpackOp
from passes.regalloc.classes import Unit, value_alignments
from passes.regalloc.points import LiveMatrix, Segments


class _UF:
    def __init__(self, n: int) -> None:
        self.p = list(range(n))

    def find(self, a: int) -> int:
        p = self.p
        while p[a] != a:
            p[a] = p[p[a]]
            a = p[a]
        return a


def build_units(
    lm: LiveMatrix,
    cost: np.ndarray,
    spillable: np.ndarray,
    loop_iterations: float,
    coalesce: bool | frozenset[RegFile],
) -> tuple[list[Unit], np.ndarray]:
    """The units of the function and the unit id of every value.

    ``coalesce``: merge optional candidates (True), keep them all as hints
    (False), or merge only those of the named register files."""
    num = lm.numbering
    nv = len(num)
    uf = _UF(nv)
    # the live points of each union-find root (live segments, :mod:`.points`)
    masks: dict[int, Segments] = {}
    typ = [type(v.type) for v in num.values]

    def mask(r: int) -> Segments:
        m = masks.get(r)
        if m is None:
            m = lm.segments(r)
            masks[r] = m
        return m

    def union(a: int, b: int) -> int:
        ra, rb = uf.find(a), uf.find(b)
        if ra == rb:
            return ra
        m = mask(ra) | mask(rb)
        uf.p[rb] = ra
        masks[ra] = m
        masks.pop(rb, None)
        return ra

    tied_vals: set[int] = set()
    for pairs in num.tied.values():
        for r, p in pairs:
            union(r, p)
            tied_vals.update((r, p))
    # an HGMMA accumulator in flight handed over along a branch edge shares
    # the block argument's registers (the edge copy would move it before
    # its wait: passes/regalloc/inflight.py), coalescing or not
    if num.inflight is not None:
        for v, a in num.inflight.handovers():
            iv, ia = num.index.get(v), num.index.get(a)
            if iv is None or ia is None or typ[iv] is not typ[ia]:
                continue
            ra, rb = uf.find(iv), uf.find(ia)
            if ra != rb and not mask(ra).intersects(mask(rb)):
                union(iv, ia)
                tied_vals.update((iv, ia))

    hints: list[tuple[int, int]] = []
    # Sub-register and copy hints are tie-breaks among free registers: they
    # never make a unit fail, so they are kept when a later trial gives up
    # merging (``coalesce`` false: every candidate becomes a hint).
    sub_hints: list[tuple[int, int, int]] = sub_register_pairs(num) + slice_pairs(num)
    hints += repack_pairs(num)
    cands: list[tuple[float, int, int]] = []
    for b in range(lm.cfg.num_blocks):
        ops = num.ops[b]
        freq = float(loop_iterations) ** int(lm.depth[lm.block_entry[b]])
        if ops and ops[-1].successors:
            term: Operation = ops[-1]
            for slot, dest in enumerate(term.successors):
                for v, a in zip(edge_operands(term, slot), dest.args):
                    iv, ia = num.index.get(v), num.index.get(a)
                    if iv is not None and ia is not None:
                        cands.append((freq, iv, ia))
        for op in ops:
            if isinstance(op, MovOp) and not op.is_guarded:
                a = op.src_reg("a")
                if a is not None and a in num.index and op.results[0] in num.index:
                    pair = (num.index[a], num.index[op.results[0]])
                    if "ori.abi_copy" in op.attributes:
                        # an ABI copy (passes/abi/lower.py) stays -- joined,
                        # its fixed register would cover the whole value --
                        # but prefers its partner's register where free
                        hints.append(pair)
                    else:
                        cands.append((freq, *pair))
    cands.sort(key=lambda c: -c[0])
    merge_files = (frozenset(FILES) if coalesce is True
                   else frozenset() if coalesce is False else coalesce)
    file_of = num.file
    for _, a, b in cands:
        ra, rb = uf.find(a), uf.find(b)
        if ra == rb:
            continue
        if FILES[file_of[a]] not in merge_files:
            hints.append((a, b))  # a retry merges nothing: hints only
            continue
        if typ[a] is not typ[b] or bool(spillable[ra]) != bool(spillable[rb]):
            hints.append((a, b))
            continue
        if mask(ra).intersects(mask(rb)):
            hints.append((a, b))
            continue
        union(a, b)

    roots: dict[int, int] = {}
    members: list[list[int]] = []
    unit_list: list[int] = []
    find = uf.find
    for v in range(nv):
        r = find(v)
        u = roots.get(r)
        if u is None:
            u = len(members)
            roots[r] = u
            members.append([])
        members[u].append(v)
        unit_list.append(u)
    unit_of = np.asarray(unit_list, dtype=np.int64).reshape(nv)
    # plain lists: per-element numpy access costs more than the work here
    file_l = num.file.tolist()
    width_l = num.width.tolist()
    align_l = value_alignments(num.values)
    cost_l = cost.tolist()
    spill_l = spillable.tolist()
    units: list[Unit] = []
    for r, u in roots.items():
        vals = members[u]
        v0 = vals[0]
        if len(vals) > 1:
            pts = mask(r)
            c = float(cost[vals].sum())
            sp = bool(spillable[vals].any())
            tied = any(v in tied_vals for v in vals)
        else:
            pts = lm.segments(v0)
            c = cost_l[v0]
            sp = bool(spill_l[v0])
            tied = v0 in tied_vals
        units.append(
            Unit(
                id=u,
                values=vals,
                file=FILES[file_l[v0]],
                width=width_l[v0],
                align=align_l[v0],
                points=pts,
                cost=c,
                spillable=sp,
                tied=tied,
            )
        )
    units.sort(key=lambda u: u.id)
    for a, b in hints:
        ua, ub = int(unit_of[a]), int(unit_of[b])
        if ua != ub:
            units[ua].hints.append(ub)
            units[ub].hints.append(ua)
    for part, whole, i in sub_hints:
        up, uw = int(unit_of[part]), int(unit_of[whole])
        if up != uw:
            units[up].offset_hints.append((uw, i))
            units[uw].offset_hints.append((up, -i))
    return units, unit_of


def sub_register_pairs(num: ValueNumbering) -> list[tuple[int, int, int]]:
    """``(part, whole, i)`` for every ``ori.pack`` / ``ori.unpack``: the
    numbered part value belongs in register ``i`` of the numbered wide
    value (same register file only)."""
    out: list[tuple[int, int, int]] = []
    index, file = num.index, num.file
    for ops in num.ops:
        for op in ops:
            if isinstance(op, PackOp):
                whole = index.get(op.results[0])
                parts = [v for _, v in op.slot_values()]
            elif isinstance(op, UnpackOp):
                a = op.src_reg("a")
                whole = index.get(a) if a is not None else None
                parts = list(op.results)
            else:
                continue
            if whole is None:
                continue
            for i, p in enumerate(parts):
                ip = index.get(p) if isinstance(p, SSAValue) else None
                if ip is not None and file[ip] == file[whole]:
                    out.append((ip, whole, i))
    return out


def _repacks(num: ValueNumbering) -> Iterator[tuple[PackOp, UnpackOp, int]]:
    """``(y, u, k)`` for every ``y = PACK`` whose parts are the consecutive
    results ``k..`` of one ``u = UNPACK``."""
    for ops in num.ops:
        for op in ops:
            if not isinstance(op, PackOp):
                continue
            parts = [v for _, v in op.slot_values()]
            src = parts[0].owner if parts and isinstance(parts[0], SSAValue) else None
            if not isinstance(src, UnpackOp):
                continue
            k = parts[0].index  # type: ignore[union-attr]
            words = src.results[k:k + len(parts)]
            if len(words) == len(parts) and all(p is r for p, r in zip(parts, words)):
                yield op, src, k


def slice_pairs(num: ValueNumbering) -> list[tuple[int, int, int]]:
    """``(y, x, k)`` for every ``y = PACK`` of the consecutive words ``k..``
    of one ``UNPACK(x)``, fewer than all of them, with ``k`` a multiple of
    ``y``'s alignment: ``y`` is the slice of ``x`` that starts at word
    ``k`` (an MMA's B pairs taken from an ``LDSM`` quad: ptxas reads
    ``HMMA.16816.F32 R16, R20, R26, R16`` straight from ``LDSM ... R24``).
    ``y`` and ``x`` then prefer the registers that put the slice in place;
    through the parts alone the hint reaches ``y`` only once they are
    placed, which they are not when ``y`` is coloured first."""
    out: list[tuple[int, int, int]] = []
    index, file = num.index, num.file
    for op, src, k in _repacks(num):
        y = op.results[0]
        if len(src.results) == len(op.slot_values()) or k % y.type.alignment():  # type: ignore[attr-defined]
            continue
        a = src.src_reg("a")
        ix = index.get(a) if a is not None else None
        iy = index.get(y)
        if ix is not None and iy is not None and file[ix] == file[iy]:
            out.append((iy, ix, k))
    return out


def repack_pairs(num: ValueNumbering) -> list[tuple[int, int]]:
    """``(x, y)`` for every ``y = PACK(UNPACK(x))`` whose parts are ``x``'s
    words in order: ``y`` is ``x`` again (an ABI parameter or result copy
    of a 64-bit value), so each prefers the other's register.  The
    sub-register hints alone reach the partner in two steps, through parts
    that are not placed yet when the wide value is."""
    out: list[tuple[int, int]] = []
    index = num.index
    for op, src, k in _repacks(num):
        if k or len(src.results) != len(op.slot_values()):
            continue
        a = src.src_reg("a")
        ix = index.get(a) if a is not None else None
        iy = index.get(op.results[0])
        if ix is not None and iy is not None and a.type == op.results[0].type:
            out.append((ix, iy))
    return out


__all__ = ["build_units", "repack_pairs", "slice_pairs", "sub_register_pairs"]
