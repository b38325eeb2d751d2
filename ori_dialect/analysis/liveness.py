"""Liveness of register values: live-in / live-out bitsets per block (numpy) and
per-instruction live sets on demand.

Part of the analyses docs/architecture.md lists next to *AnalyzeControlFlow* (seed 001,
"Loop Representation in Ori IR", phase 3): the block order of the dataflow is
the post-order of the same DFS whose reverse is the RPO array ptxas stores.

**Value numbering.**  Every SSA value of an Ori register type defined in the
function -- block arguments and op results, block by block in region order,
arguments before the results of the block's first op -- gets a dense index
``0..n-1``.  The values defined in block ``b`` therefore occupy the contiguous
range ``numbering.block_range[b]``.  Constants (immediates, RZ/PT,
``c[bank][off]``) are properties, not values, and never appear.

**Block arguments are phis.**  A block's own arguments are defined at its entry
and are never live-in to it.  The operands a branch passes to a successor are
used at the end of the predecessor (on that edge), so they are live-out of the
predecessor and live-after its terminator, but not live-in to the successor
unless it uses the same value directly.

**Tied operands.**  ``ValueNumbering.tied`` pairs a result with the source
whose registers it must share: a guarded op's results and their prior
values, and the ``TIED`` slot pairs an op class declares (HGMMA writes ``d``
into ``c``'s registers); both are read from the op, never from its name.

**Asynchronous operands.**  When the blocks issue asynchronous work (an op
whose ``ASYNC`` fact is ISSUE: HGMMA), the in-flight claims of
:mod:`.inflight` are computed and every value claimed just before an op
counts as used by that op -- a *pseudo-use*, in ``op_uses`` only, never an
operand.  The value therefore stays live, and its registers taken, up to the
wait that completes its group (HGMMA's A fragments beyond the HGMMA, an
accumulator nothing reads beyond the HGMMA), which every client of the
numbering (liveness, program points, pressure, the allocators) then sees.
A pseudo-use is only added where the value's definition dominates the op,
so the form stays strict; the claims it cannot cover are listed in
``ValueNumbering.unextended`` for the allocator to refuse.

Equations (solved over a worklist seeded in post-order)::

    live_out(B) = edge_uses(B)  U  union over successors S of live_in(S)
    live_in(B)  = upward_exposed_uses(B)  U  (live_out(B) - defs(B))

Sets are rows of packed little-endian ``uint64`` words over the *global*
values only (``Liveness.universe``: bit ``i`` of word ``w`` is value
``universe[64*w + i]``): ``live_in_cbits[b]`` / ``live_out_cbits[b]``.  A
value defined and used inside one block is never live at a block boundary
and is left out of the rows (see :class:`Liveness`); ``live_in_bits`` /
``live_out_bits`` expand the rows to all values on demand.  Per-instruction
sets are derived by walking a block backwards from its live-out set
(:meth:`Liveness.walk_backward`), never stored per program point.
"""

from __future__ import annotations

import sys
from collections import deque
from collections.abc import Iterable, Iterator, Sequence
from typing import TYPE_CHECKING

import numpy as np
import numpy.typing as npt
from xdsl.dialects.builtin import DenseArrayBase
from xdsl.ir import Block, BlockArgument, Operation, OpResult, SSAValue

from ori_dialect.analysis.cfg import CFG, Edge, edge_operands
from ori_dialect.analysis.dominators import DominatorTree
from ori_dialect.analysis.inflight import InFlight
from ori_dialect.ir.instruction import OriInstruction
from ori_dialect.ir.metadata import AsyncRole
from ori_dialect.ir.registers import OriRegisterType, RegFile

if TYPE_CHECKING:
    from ori_dialect.analysis.manager import AnalysisManager

FILES: tuple[RegFile, ...] = tuple(RegFile)
"""Register files in the order used by ``ValueNumbering.file`` (R, UR, P, UP, B)."""
_FILE_INDEX: dict[RegFile, int] = {f: i for i, f in enumerate(FILES)}

Bits = npt.NDArray[np.uint64]

_LITTLE = sys.byteorder == "little"


def _reg_info(t: object, cache: dict[type, tuple[int, int] | None]) -> tuple[int, int] | None:
    cls = type(t)
    try:
        return cache[cls]
    except KeyError:
        pass
    info: tuple[int, int] | None = None
    if isinstance(t, OriRegisterType):
        info = (_FILE_INDEX[cls.REG_FILE], cls.num_regs())  # type: ignore[attr-defined]
    cache[cls] = info
    return info


_PRIOR_COUNT: dict[bytes, int] = {}


def _num_prior(op: OriInstruction) -> int:
    """How many tied prior values ``op`` has (its third operand segment).

    Reads the segment-size property through a cache keyed by its raw bytes:
    going through the ``prior`` accessor costs ~10 us per op.
    """
    seg = op.properties.get("operandSegmentSizes")
    if not isinstance(seg, DenseArrayBase):
        return len(op.prior)
    raw = seg.data.data
    n = _PRIOR_COUNT.get(raw)
    if n is None:
        vals = seg.get_values()
        n = int(vals[2]) if len(vals) == 3 else len(op.prior)
        _PRIOR_COUNT[raw] = n
    return n


class ValueNumbering:
    """Dense indices for the register values of one function."""

    values: list[SSAValue]
    index: dict[SSAValue, int]
    file: npt.NDArray[np.int8]
    """Register file of each value, as an index into ``FILES``."""
    width: npt.NDArray[np.int16]
    """Registers each value occupies (``num_regs()``: 1, 2 or 4)."""
    block_range: list[tuple[int, int]]
    """Values defined in block ``b`` (its arguments, then op results) are
    ``range(*block_range[b])``."""
    ops: list[list[Operation]]
    """The ops of each block."""
    op_defs: list[list[tuple[int, ...]]]
    """Numbered results of each op, by block and position."""
    op_uses: list[list[tuple[int, ...]]]
    """Numbered operands of each op (duplicates removed), by block and position."""
    arg_ids: list[tuple[int, ...]]
    tied: dict[tuple[int, int], tuple[tuple[int, int], ...]]
    """(block, op position) -> (result, tied source) index pairs: a guarded
    op's results and their prior values, and the ``TIED`` slot pairs of an
    op that writes a result into a source's registers (HGMMA's ``d`` and
    ``c``)."""
    inflight: InFlight | None
    """The in-flight claims of asynchronous ops (:mod:`.inflight`), when the
    blocks issue any; None otherwise."""
    claimed: frozenset[int]
    """The values claimed by an asynchronous op at some point: their live
    ranges are extended over the points where they are claimed (module
    docstring, "Asynchronous operands")."""
    unextended: list[tuple[SSAValue, Operation]]
    """Claimed values whose range could not be extended to an op where they
    are still claimed, because their definition does not dominate it (the
    claim reaches a join without a block argument, or loops back to the
    definition): the registers are not reserved there."""

    def __init__(self, blocks: Sequence[Block]) -> None:
        cache: dict[type, tuple[int, int] | None] = {}
        values: list[SSAValue] = []
        index: dict[SSAValue, int] = {}
        files: list[int] = []
        widths: list[int] = []
        self.block_range = []
        self.ops = []
        self.op_defs = []
        self.op_uses = []
        self.arg_ids = []
        self.tied = {}
        self.inflight = None
        self.claimed = frozenset()
        self.unextended = []
        issues = False
        empty: tuple[int, ...] = ()
        # pass 1: definitions
        for b in blocks:
            start = len(values)
            for a in b.args:
                info = cache.get(type(a.type), 0)
                if info == 0:
                    info = _reg_info(a.type, cache)
                if info is not None and not a.type.is_fixed:  # type: ignore[attr-defined]
                    # (an RZ-typed argument holds nothing: a stack-passed
                    # parameter, passes/abi/stack_args.py)
                    index[a] = len(values)
                    values.append(a)
                    files.append(info[0])  # type: ignore[index]
                    widths.append(info[1])  # type: ignore[index]
            self.arg_ids.append(tuple(range(start, len(values))))
            ops = list(b.ops)
            defs_b: list[tuple[int, ...]] = []
            for op in ops:
                res = op.results
                if not res:
                    defs_b.append(empty)
                    continue
                if not issues and getattr(type(op), "ASYNC", None) is AsyncRole.ISSUE:
                    issues = True
                d0 = len(values)
                for r in res:
                    info = cache.get(type(r.type), 0)
                    if info == 0:
                        info = _reg_info(r.type, cache)
                    if info is not None and not r.type.is_fixed:  # type: ignore[attr-defined]
                        index[r] = len(values)
                        values.append(r)
                        files.append(info[0])  # type: ignore[index]
                        widths.append(info[1])  # type: ignore[index]
                defs_b.append(tuple(range(d0, len(values))) if len(values) > d0 else empty)
            self.ops.append(ops)
            self.op_defs.append(defs_b)
            self.block_range.append((start, len(values)))
        # pass 2: uses (operands may refer to values defined later in the region)
        get = index.get
        for bi, ops in enumerate(self.ops):
            uses_b: list[tuple[int, ...]] = []
            for k, op in enumerate(ops):
                operands = op.operands
                if not operands:
                    uses_b.append(empty)
                    continue
                u: list[int] = []
                for v in operands:
                    i = get(v)
                    if i is not None and i not in u:
                        u.append(i)
                uses_b.append(tuple(u))
                if isinstance(op, OriInstruction):
                    n_prior = _num_prior(op)
                    if n_prior:
                        pairs = tuple(
                            (get(r), get(p))
                            for r, p in zip(op.results, operands[len(operands) - n_prior :])
                        )
                        pairs = tuple((r, p) for r, p in pairs if r is not None and p is not None)
                        if pairs:
                            self.tied[(bi, k)] = pairs  # type: ignore[assignment]
                    elif op.TIED:
                        pairs = tuple(
                            (get(op.results[i]), get(operands[j])) for i, j in op.tied_operands()
                        )
                        pairs = tuple((r, p) for r, p in pairs if r is not None and p is not None)
                        if pairs:
                            self.tied[(bi, k)] = pairs  # type: ignore[assignment]
            self.op_uses.append(uses_b)
        if issues:
            self._extend_claims(blocks, index)
        self.values = values
        self.index = index
        self.file = np.array(files, dtype=np.int8)
        self.width = np.array(widths, dtype=np.int16)  # tuples up to 128 registers
        self._names: list[str] | None = None

    def _extend_claims(self, blocks: Sequence[Block], index: dict[SSAValue, int]) -> None:
        """Add every value claimed just before an op to the op's uses, where
        the value's definition dominates the op (module docstring)."""
        cfg = CFG(list(blocks))
        fl = InFlight(cfg)
        self.inflight = fl
        if not fl.active:
            return
        dom = DominatorTree(cfg)
        pos: dict[Operation, int] = {}
        claimed: set[int] = set()
        for bi, ops in enumerate(self.ops):
            for k, op in enumerate(ops):
                st = fl.before.get(op)
                if not st:
                    continue
                add: list[int] = []
                for v in st:
                    i = index.get(v)
                    if i is None:
                        continue
                    claimed.add(i)
                    if _defined_before(v, bi, k, cfg, dom, pos):
                        add.append(i)
                    else:
                        self.unextended.append((v, op))
                if add:
                    u = self.op_uses[bi][k]
                    self.op_uses[bi][k] = u + tuple(i for i in add if i not in u)
        claimed.update(index[v] for v in fl.claimed if v in index)
        self.claimed = frozenset(claimed)

    def __len__(self) -> int:
        return len(self.values)

    def names(self) -> list[str]:
        """A stable printable name per value index.

        The SSA name hint (``%i2`` -> ``i2``) when the function has one value with
        that hint; the later values sharing a hint print as ``hint#N`` and values
        without a hint as ``#N``, where ``N`` is the dense value index.
        """
        if self._names is None:
            seen: set[str] = set()
            out: list[str] = []
            for i, v in enumerate(self.values):
                h = v.name_hint
                if h is None:
                    out.append(f"#{i}")
                elif h in seen:
                    out.append(f"{h}#{i}")
                else:
                    seen.add(h)
                    out.append(h)
            self._names = out
        return self._names


def _defined_before(v: SSAValue, b: int, k: int, cfg: CFG, dom: DominatorTree,
                    pos: dict[Operation, int]) -> bool:
    """Whether ``v``'s definition dominates op ``k`` of block ``b``."""
    if isinstance(v, BlockArgument):
        db = cfg.index.get(v.block)
        return db is not None and dom.dominates(db, b)
    assert isinstance(v, OpResult)
    blk = v.op.parent_block()
    db = cfg.index.get(blk) if blk is not None else None
    if db is None:
        return False
    if db != b:
        return dom.dominates(db, b)
    if not pos:
        for ops_b in (list(x.ops) for x in cfg.blocks):
            pos.update((o, j) for j, o in enumerate(ops_b))
    return pos.get(v.op, k) < k


def _set_bits(rows: Bits, row_ids: Sequence[int], idx: Sequence[int]) -> None:
    if not idx:
        return
    r = np.asarray(row_ids, dtype=np.int64)
    i = np.asarray(idx, dtype=np.int64)
    bits = np.left_shift(np.uint64(1), (i & 63).astype(np.uint64))
    # OR the bits of each word together first, then update each word once:
    # ``np.bitwise_or.at`` on the 2-D array cost time in proportion to the
    # array's size (rows x words), quadratic over a large function
    flat = r * rows.shape[1] + (i >> 6)
    order = np.argsort(flat, kind="stable")
    flat, bits = flat[order], bits[order]
    first = np.flatnonzero(np.concatenate(([True], flat[1:] != flat[:-1])))
    if not rows.flags.c_contiguous:  # reshape would copy: the update would be lost
        raise ValueError("_set_bits needs a C-contiguous array")
    view = rows.reshape(-1)
    view[flat[first]] |= np.bitwise_or.reduceat(bits, first)


def bits_to_indices(row: Bits) -> npt.NDArray[np.intp]:
    """Indices of the set bits of one packed row, ascending.

    Only the non-zero words are unpacked: rows are sparse in large functions
    (a block's live set is a small part of all values), and unpacking every
    word made per-block queries cost O(values) each."""
    words = np.flatnonzero(row)
    if not words.size:
        return words
    sub = row[words]
    if not _LITTLE:  # pragma: no cover - big-endian hosts
        sub = sub.astype("<u8")
    bits = np.unpackbits(sub.view(np.uint8), bitorder="little").reshape(words.size, 64)
    w, b = np.nonzero(bits)
    return words[w] * 64 + b


def indices_to_bits(idx: Iterable[int], nwords: int) -> Bits:
    row = np.zeros(nwords, dtype=np.uint64)
    i = np.fromiter(idx, dtype=np.int64)
    if i.size:
        np.bitwise_or.at(row, i >> 6, np.left_shift(np.uint64(1), (i & 63).astype(np.uint64)))
    return row


def rows_to_indices(rows: Bits) -> list[list[int]]:
    """The set bits of every packed row of a matrix, ascending per row.

    Only the non-zero words are unpacked, so the cost is the number of words
    plus the number of set bits, never rows x 64 x words."""
    bi, wi = np.nonzero(rows)
    out: list[list[int]] = [[] for _ in range(rows.shape[0])]
    if not bi.size:
        return out
    words = rows[bi, wi]
    if not _LITTLE:  # pragma: no cover - big-endian hosts
        words = words.astype("<u8")
    bits = np.unpackbits(words.view(np.uint8), bitorder="little").reshape(bi.size, 64)
    r, c = np.nonzero(bits)
    blk = bi[r]
    vals = (wi[r] * 64 + c).tolist()
    bounds = np.searchsorted(blk, np.arange(rows.shape[0] + 1)).tolist()
    for b in range(rows.shape[0]):
        if bounds[b] < bounds[b + 1]:
            out[b] = vals[bounds[b] : bounds[b + 1]]
    return out


def _keep_mask(lo: int, hi: int) -> tuple[int, int, Bits]:
    """``(w0, w1, keep)``: the words ``w0:w1`` of a row and, for them, a mask
    clearing bits ``lo..hi-1`` (``lo < hi``) and keeping every other bit."""
    w0, w1 = lo >> 6, ((hi - 1) >> 6) + 1
    nbits = (w1 - w0) << 6
    clear = ((1 << (hi - lo)) - 1) << (lo - (w0 << 6))
    keep = ((1 << nbits) - 1) ^ clear
    words = np.frombuffer(keep.to_bytes(nbits >> 3, "little"), dtype="<u8")
    return w0, w1, words.astype(np.uint64)


class Liveness:
    """Live-in / live-out sets of every block and per-instruction queries.

    **Bitset universe.**  The block-level sets are solved over the *global*
    values only (``universe``): the values upward-exposed in some block (used
    there before any definition in that block -- every value used outside its
    defining block is one) and the operands a terminator passes along an edge.
    No other value can be live-in or live-out of any block: ``live_in(B)`` is
    built from ``upward_exposed_uses(B)`` and ``live_out(B)``, ``live_out(B)``
    from ``edge_uses(B)`` and the successors' live-in, so by induction over the
    solver every set lies inside their union.  A value defined and used only
    inside one block (most values) is handled by the per-block backward walk.
    The rows are therefore ``blocks x |universe|`` bits instead of
    ``blocks x values``: on a 100k-instruction function about a quarter of the
    values are global and the bitsets shrink fourfold, and the per-block
    queries return the same (full) value indices as before.
    """

    cfg: CFG
    numbering: ValueNumbering
    nwords: int
    """Words of a row over *all* values (the width of :attr:`live_in_bits`)."""
    universe: npt.NDArray[np.int64]
    """The global value indices, ascending: bit ``j`` of a compact row is value
    ``universe[j]``."""
    cwords: int
    """Words of a compact row."""
    live_in_cbits: Bits
    """``(num_blocks, cwords)`` compact live-in rows (bits index ``universe``)."""
    live_out_cbits: Bits
    """``(num_blocks, cwords)`` compact live-out rows, edge operands included."""
    iterations: int
    """Block visits the worklist solver needed."""

    def __init__(self, cfg: CFG, numbering: ValueNumbering | None = None) -> None:
        self.cfg = cfg
        num = numbering if numbering is not None else ValueNumbering(cfg.blocks)
        self.numbering = num
        n = cfg.num_blocks
        nv = len(num)
        self.nwords = max(1, (nv + 63) >> 6)
        index = num.index

        # upward-exposed uses and edge uses per block (full value indices)
        gen_rows: list[int] = []
        gen_idx: list[int] = []
        eu_rows: list[int] = []
        eu_idx: list[int] = []
        for b in range(n):
            live: set[int] = set()
            for defs, uses in zip(reversed(num.op_defs[b]), reversed(num.op_uses[b])):
                if defs:
                    live.difference_update(defs)
                if uses:
                    live.update(uses)
            live.difference_update(num.arg_ids[b])
            gen_rows.extend([b] * len(live))
            gen_idx.extend(live)
            ops = num.ops[b]
            if ops and ops[-1].successors:
                term = ops[-1]
                seen: set[int] = set()
                for slot in range(len(term.successors)):
                    for v in edge_operands(term, slot):
                        i = index.get(v)
                        if i is not None and i not in seen:
                            seen.add(i)
                            eu_rows.append(b)
                            eu_idx.append(i)

        # the universe and the full -> compact map (-1: never live at a block boundary)
        gen_full = np.asarray(gen_idx, dtype=np.int64)
        eu_full = np.asarray(eu_idx, dtype=np.int64)
        universe = np.unique(np.concatenate((gen_full, eu_full)))
        self.universe = universe
        compact = np.full(nv + 1, -1, dtype=np.int64)
        compact[universe] = np.arange(universe.size, dtype=np.int64)
        self._compact = compact
        cwords = max(1, (int(universe.size) + 63) >> 6)
        self.cwords = cwords

        gen = np.zeros((n, cwords), dtype=np.uint64)
        _set_bits(gen, gen_rows, compact[gen_full].tolist())
        has_eu = sorted(set(eu_rows))
        eu: dict[int, Bits] = {}
        if has_eu:
            eu_all = np.zeros((n, cwords), dtype=np.uint64)
            _set_bits(eu_all, eu_rows, compact[eu_full].tolist())
            eu = {b: eu_all[b] for b in has_eu}

        # kill masks: the global values a block defines are a contiguous compact
        # range (block_range is contiguous and the universe ascending)
        bounds = np.asarray(num.block_range, dtype=np.int64).reshape(-1, 2)
        c_lo = np.searchsorted(universe, bounds[:, 0]).tolist() if n else []
        c_hi = np.searchsorted(universe, bounds[:, 1]).tolist() if n else []
        kill: list[tuple[int, int, Bits] | None] = [
            _keep_mask(lo, hi) if lo < hi else None for lo, hi in zip(c_lo, c_hi)
        ]

        live_in = np.zeros((n, cwords), dtype=np.uint64)
        live_out = np.zeros((n, cwords), dtype=np.uint64)
        succs = cfg.succs
        preds = cfg.preds
        order = cfg.postorder() + cfg.unreachable
        queued = [True] * n
        work = deque(order)
        tmp = np.empty(cwords, dtype=np.uint64)
        visits = 0
        bor = np.bitwise_or
        while work:
            b = work.popleft()
            queued[b] = False
            visits += 1
            out = live_out[b]
            ss = succs[b]
            if ss:
                out[:] = live_in[ss[0]]
                for s in ss[1:]:
                    bor(out, live_in[s], out=out)
            else:
                out[:] = 0
            e_b = eu.get(b)
            if e_b is not None:
                bor(out, e_b, out=out)
            tmp[:] = out
            k = kill[b]
            if k is not None:
                tmp[k[0] : k[1]] &= k[2]
            bor(tmp, gen[b], out=tmp)
            row = live_in[b]
            if not np.array_equal(tmp, row):
                row[:] = tmp
                for p in preds[b]:
                    if not queued[p]:
                        queued[p] = True
                        work.append(p)
        self.live_in_cbits = live_in
        self.live_out_cbits = live_out
        self.iterations = visits
        self._op_pos: dict[Operation, tuple[int, int]] | None = None
        self._full_in: Bits | None = None
        self._full_out: Bits | None = None

    def _expand(self, rows: Bits) -> Bits:
        full = np.zeros((rows.shape[0], self.nwords), dtype=np.uint64)
        rr: list[int] = []
        ii: list[int] = []
        for b, idx in enumerate(rows_to_indices(rows)):
            rr.extend([b] * len(idx))
            ii.extend(idx)
        if ii:
            _set_bits(full, rr, self.universe[np.asarray(ii, dtype=np.int64)].tolist())
        return full

    @property
    def live_in_bits(self) -> Bits:
        """``(num_blocks, nwords)`` live-in rows over all values, built on first
        use (``blocks x values`` bits: prefer :meth:`live_in` /
        :meth:`live_in_lists` on large functions)."""
        if self._full_in is None:
            self._full_in = self._expand(self.live_in_cbits)
        return self._full_in

    @property
    def live_out_bits(self) -> Bits:
        """``(num_blocks, nwords)`` live-out rows over all values, built on first
        use (see :attr:`live_in_bits`)."""
        if self._full_out is None:
            self._full_out = self._expand(self.live_out_cbits)
        return self._full_out

    @classmethod
    def compute(cls, func: Operation, am: AnalysisManager | None = None) -> Liveness:
        if am is None:
            return cls(CFG.compute(func))
        return cls(am.get(CFG, func))

    # ------------------------------------------------------------------
    # block-level queries
    # ------------------------------------------------------------------
    def _bid(self, block: Block | int) -> int:
        return block if isinstance(block, int) else self.cfg.index[block]

    def live_in_array(self, block: Block | int) -> npt.NDArray[np.int64]:
        """Value indices live on entry to ``block``, ascending, as an array."""
        return self.universe[bits_to_indices(self.live_in_cbits[self._bid(block)])]

    def live_out_array(self, block: Block | int) -> npt.NDArray[np.int64]:
        """Value indices live on exit from ``block``, ascending, as an array."""
        return self.universe[bits_to_indices(self.live_out_cbits[self._bid(block)])]

    def live_in(self, block: Block | int) -> list[int]:
        """Value indices live on entry to ``block`` (ascending)."""
        return self.live_in_array(block).tolist()

    def live_out(self, block: Block | int) -> list[int]:
        """Value indices live on exit from ``block`` (ascending), edge operands included."""
        return self.live_out_array(block).tolist()

    def _lists(self, rows: Bits) -> list[list[int]]:
        u = self.universe.tolist()
        return [[u[j] for j in r] for r in rows_to_indices(rows)]

    def live_in_lists(self) -> list[list[int]]:
        """:meth:`live_in` of every block, by block id (one pass over the bitsets)."""
        return self._lists(self.live_in_cbits)

    def live_out_lists(self) -> list[list[int]]:
        """:meth:`live_out` of every block, by block id (one pass over the bitsets)."""
        return self._lists(self.live_out_cbits)

    def live_in_values(self, block: Block | int) -> list[SSAValue]:
        vals = self.numbering.values
        return [vals[i] for i in self.live_in(block)]

    def live_out_values(self, block: Block | int) -> list[SSAValue]:
        vals = self.numbering.values
        return [vals[i] for i in self.live_out(block)]

    def _test(self, bits: Bits, value: SSAValue, block: Block | int) -> bool:
        i = self.numbering.index.get(value)
        if i is None:
            return False
        j = int(self._compact[i])
        if j < 0:  # not global: never live at a block boundary
            return False
        return bool((int(bits[self._bid(block), j >> 6]) >> (j & 63)) & 1)

    def is_live_in(self, value: SSAValue, block: Block | int) -> bool:
        return self._test(self.live_in_cbits, value, block)

    def is_live_out(self, value: SSAValue, block: Block | int) -> bool:
        return self._test(self.live_out_cbits, value, block)

    def live_on_edge(self, edge: Edge) -> list[int]:
        """Values live along ``edge``: the successor's live-in plus the operands
        the edge passes (which become the successor's arguments)."""
        s = set(self.live_in(edge.dst))
        term = self.numbering.ops[edge.src][-1]
        idx = self.numbering.index
        s.update(idx[v] for v in edge_operands(term, edge.slot) if v in idx)
        return sorted(s)

    # ------------------------------------------------------------------
    # per-instruction queries
    # ------------------------------------------------------------------
    def position(self, op: Operation) -> tuple[int, int]:
        """(block id, position in block) of ``op``."""
        if self._op_pos is None:
            self._op_pos = {
                o: (b, k) for b, ops in enumerate(self.numbering.ops) for k, o in enumerate(ops)
            }
        return self._op_pos[op]

    def walk_backward(self, block: Block | int) -> Iterator[tuple[int, Operation, set[int]]]:
        """Walk ``block`` from its terminator to its first op, yielding
        ``(position, op, live_after)`` where ``live_after`` holds the value indices
        live just after ``op``.

        The set is the walker's own state: it is updated in place (defs of
        ``op`` removed, its operands added) when the walk resumes, so copy it
        to keep it and never modify it.  After the last op the set holds the
        values live before the first op (live-in plus the used block arguments).
        """
        b = self._bid(block)
        num = self.numbering
        live: set[int] = set(self.live_out(b))
        defs_b = num.op_defs[b]
        uses_b = num.op_uses[b]
        ops = num.ops[b]
        for k in range(len(ops) - 1, -1, -1):
            yield k, ops[k], live
            d = defs_b[k]
            if d:
                live.difference_update(d)
            u = uses_b[k]
            if u:
                live.update(u)

    def live_after_ids(self, op: Operation) -> set[int]:
        b, k = self.position(op)
        for pos, _, live in self.walk_backward(b):
            if pos == k:
                return set(live)
        raise AssertionError("unreachable")  # pragma: no cover

    def live_before_ids(self, op: Operation) -> set[int]:
        b, k = self.position(op)
        live = self.live_after_ids(op)
        live.difference_update(self.numbering.op_defs[b][k])
        live.update(self.numbering.op_uses[b][k])
        return live

    def live_after(self, op: Operation) -> set[SSAValue]:
        """Values live just after ``op`` (for a terminator: the block's live-out)."""
        vals = self.numbering.values
        return {vals[i] for i in self.live_after_ids(op)}

    def live_before(self, op: Operation) -> set[SSAValue]:
        """Values live just before ``op``: live-after minus its results plus its operands."""
        vals = self.numbering.values
        return {vals[i] for i in self.live_before_ids(op)}

    def names(self, ids: Iterable[int]) -> list[str]:
        """Printable names (see :meth:`ValueNumbering.names`) of value indices, sorted
        by index."""
        nm = self.numbering.names()
        return [nm[i] for i in sorted(ids)]


__all__ = [
    "FILES",
    "Liveness",
    "ValueNumbering",
    "bits_to_indices",
    "edge_operands",
    "indices_to_bits",
    "rows_to_indices",
]
