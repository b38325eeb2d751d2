"""Copies: splitting tied operands and placing unpacks before allocation,
and lowering the edge parallel copies to moves after it.

**Unpacks next to their readers.**  An ``ori.unpack`` costs nothing when
its parts get the wide value's registers, which the allocator can give only
where the wide value dies at the unpack.  Passes that rewrite a reader of a
part to read an earlier unpack (CSE, general-optimize's ``add-chain``: the
last copy of an unrolled body steps the first copy's pointer) leave the
unpack far above its readers while the wide value is still read below it
(the copies' loads): two register pairs, and two moves.
:func:`unpacks_to_readers` moves each unpack down to just before its
first reader in its block (the terminator when every reader is
elsewhere): the parts then live only where they are read, the wide value
no longer than it did or up to the unpack, so no point needs a register
more -- when every part is read (an unpack with a dead part stays: the
wide value would hold two registers where the read part held one).  The
allocator's colouring is heuristic, so a kernel may still come out
differently: on the 135 example kernels this saves 313 instructions and
changes no register total (codesize_vs_ptxas: 5 kernels lose one
register, CUB's vsmem radix-sort kernel gains 5, already above ptxas's);
moving only unpacks whose wide value is read below them saved 160.  A
function issuing asynchronous MMAs is left to :mod:`.inflight`, which
places the unpacks of accumulators in flight.

**Tied operands.**  A guarded result must share its prior value's register.
When the prior value is still live after the guarded instruction (or is the
prior of two results) :func:`split_ties` gives the instruction a fresh copy
of it, so result and prior never interfere; where that prior is also a
source of the instruction, the source reads the copy as well, so the
instruction needs no more registers at once than before the split.  A
prior that is a constant (``MOV`` of an immediate or a ``c[][]`` word: the
0 every masked load of a Triton tile falls back to) is not copied but
written again next to each instruction, and the last reader gets the
original moved down to it, so no register holds the constant across the
loads (ptxas zeroes each load register in place).  A
``TIED`` source (an op class's fact: HGMMA writes ``d`` into ``c``) is
copied in the same cases, and also when the op reads it in another slot,
which then keeps the original: HGMMA's A must not share ``d``'s registers.

**Edge copies.**  After assignment, every branch operand whose register
differs from the successor argument's register needs a copy on that edge.
The copies of one edge form a *parallel copy*; :func:`lower_edge_copies`
sequentialises it at 32-bit register granularity (wide values are split
in place with ``ori.unpack`` and rebuilt in place with ``ori.pack``, which
cost nothing on the hardware since they move no data):

* a move whose destination is no pending move's source is emitted first
  (``MOV``, ``UMOV``, or ``PLOP3`` for predicates);
* when only cycles remain, one register of a cycle is saved in a free
  register of its file (one not live on the edge and below the registers
  already used), or -- when there is none -- the cycle is broken with the
  three-XOR swap (``LOP3`` lut 0x3c for R, ``PLOP3`` for P/UP); a UR
  cycle, which has no swap here, takes a free UR above those used when
  none below is free (the UR count limits no occupancy; the fuzzer's
  program 1521, whose uniform values rotate on an edge where every UR
  below the peak is live, failed here); with no UR free at all it is a
  diagnostic.

Copies of an unconditional branch go before it.  A conditional branch's
edge that needs copies is split by a new block holding them -- unless it is
the only edge needing copies and they write no register the other edge
reads (its target's live-in values and arguments, what it passes, the
guard): then they go before the branch too, and the edge needs no block
and no ``BRA`` of its own (ptxas has no ``MOV; BRA`` blocks).  When they
do write registers the other edge reads, they still go before the branch
if the copy has no cycle: the copies into those registers under the
branch's condition for their edge (``@P MOV R7, R34``; a guarded result is
its tied prior when the guard is false, so the other edge sees its
registers unchanged), and the other edge's reads of the values there read
the guarded copies' results -- a renaming that needs every such read to be
below the other edge's target (its only predecessor the branch; above the
branch too when the two are in no common loop), and, when the branch is in
a loop, the value to be defined in that loop (the copy reads it as its
prior on every iteration).
"""

from __future__ import annotations

from collections.abc import Sequence

from xdsl.ir import Block, Operation, SSAValue
from xdsl.utils.exceptions import PassFailedException

from ori_dialect.analysis.cfg import CFG
from ori_dialect.analysis.dominators import DominatorTree
from ori_dialect.analysis.inflight import has_async_ops
from ori_dialect.analysis.liveness import Liveness
from ori_dialect.analysis.loops import LoopInfo
from ori_dialect.ir.instruction import OriInstruction
from ori_dialect.ir.registers import (
    OriRegisterType,
    PredType,
    R32Type,
    RegFile,
    UPredType,
    UR32Type,
)
from ori_dialect.ops.control import BraOp
from ori_dialect.ops.integer import Lop3Op, MovOp, PackOp, UnpackOp
from ori_dialect.ops.predicate import PLop3Op

_SCALAR = {RegFile.R: R32Type, RegFile.UR: UR32Type, RegFile.P: PredType, RegFile.UP: UPredType}


def copy_ops(v: SSAValue, result_type: OriRegisterType | None = None) -> tuple[list[Operation], SSAValue]:
    """Ops computing a copy of ``v`` (of ``v``'s type, or ``result_type``)."""
    t = v.type
    assert isinstance(t, OriRegisterType)
    rt = result_type or type(t).unallocated()
    f = t.REG_FILE
    if f.is_predicate:
        op = PLop3Op.make([v, type(t).fixed(), type(t).fixed(), 0xF0], [rt])
        return [op], op.results[0]
    n = t.num_regs()
    if f in (RegFile.R, RegFile.UR) and n == 1:
        op = MovOp.make([v], [rt])
        return [op], op.results[0]
    if f in (RegFile.R, RegFile.UR) and (f is RegFile.R or n == 2):
        part = _SCALAR[f].unallocated()
        un = UnpackOp.make([v], [part] * n)
        movs = [MovOp.make([p], [part]) for p in un.results]
        pk = PackOp.make([m.results[0] for m in movs], [rt])
        return [un, *movs, pk], pk.results[0]
    raise PassFailedException(f"ori-regalloc: cannot copy a value of type {t}")


def unpacks_to_readers(func: Operation) -> int:
    """Move every ``ori.unpack`` down to just before its first reader in its
    block (module docstring).  Returns the number of unpacks moved."""
    moved = 0
    blocks = list(func.regions[0].blocks)
    if any(has_async_ops(b.ops) for b in blocks):
        return 0
    for block in blocks:
        ops = list(block.ops)
        pos = {op: i for i, op in enumerate(ops)}
        for op in ops:
            if not isinstance(op, UnpackOp) or op.operand_groups()[1] is not None:
                continue
            if any(not r.uses for r in op.results):
                continue  # the wide value would outlive the one part read
            readers = [pos[u.operation] for r in op.results for u in r.uses
                       if u.operation.parent_block() is block]
            term = block.last_op
            assert term is not None
            first = min(readers, default=pos[term])
            if first <= pos[op] + 1:
                continue
            op.detach()
            block.insert_op_before(op, ops[first])
            moved += 1
    return moved


def split_ties(func: Operation) -> int:
    """Give guarded instructions private copies of prior values that are
    still needed after them.  Returns the number of copies made."""
    lv = Liveness(CFG.compute(func))
    index = lv.numbering.index
    # one backward walk per block (a walk per guarded op was quadratic in the
    # block's length); copies are then made in program order
    found: dict[Operation, list[tuple[int, SSAValue, int]]] = {}
    for b in range(lv.cfg.num_blocks):
        for _k, op, live in lv.walk_backward(b):
            if not isinstance(op, OriInstruction):
                continue
            if op.TIED:
                # a result written into a source's registers (HGMMA's d over
                # c): the source gets a private copy when it outlives the op,
                # when it is tied twice, or when the op reads it in another
                # slot too (HGMMA's A must stay apart from d)
                tseen: set[SSAValue] = set()
                for _i, j in op.tied_operands():
                    p = op.operands[j]
                    others = any(q is p for m, q in enumerate(op.operands) if m != j)
                    if index.get(p) in live or p in tseen or others:
                        found.setdefault(op, []).append((j, p, 0))
                    tseen.add(p)
            srcs, guard, prior = op.operand_groups()
            if not prior:
                continue
            seen: set[SSAValue] = set()
            base = len(srcs) + (1 if guard is not None else 0)
            for i, p in enumerate(prior):
                if index.get(p) in live and p not in seen:
                    found.setdefault(op, []).append((base + i, p, base))
                elif p in seen:
                    found.setdefault(op, []).append((base + i, p, 0))
                seen.add(p)
    todo = [(op, k, p, n) for ops in lv.numbering.ops for op in ops for k, p, n in found.get(op, ())]
    constants: set[Operation] = set()
    for op, k, p, n in todo:
        const = _constant_def(p)
        if const is not None:
            # a constant prior (the 0 of Triton's masked loads) is written
            # again into each private register: no register holds the shared
            # constant across the loads (ptxas zeroes each load register in
            # place: PRMT R20, RZ, 0x7610, R20)
            c_op = const.clone()
            ops, c = [c_op], c_op.results[0]
            constants.add(const)
        else:
            ops, c = copy_ops(p)
        block = op.parent_block()
        assert block is not None
        block.insert_ops_before(ops, op)
        op.operands[k] = c
        # A prior that outlives the op and is also one of its sources (or
        # its guard) is read through the copy too: the op then needs one
        # register for both, as it did before the split, rather than one
        # more -- the copy of an operand that is live at the op anyway is
        # what budget.minimum_limits counts on (issue 13: allocation at the
        # minimum; seed 000 "Register Classes": sources are read before the
        # guarded result is written, so the copy may serve as both)
        for j in range(n):
            if op.operands[j] is p:
                op.operands[j] = c
    for const in constants:
        users = {use.operation for use in const.results[0].uses}
        if not users:
            const.detach()
            const.erase()
            continue
        # the readers left (the last load, whose prior dies there) take the
        # constant right where they need it
        block = const.parent_block()
        first = const.next_op
        while first is not None and first not in users:
            first = first.next_op
        if first is not None and all(u.parent_block() is block for u in users) \
                and first is not const.next_op:
            const.detach()
            assert block is not None
            block.insert_op_before(const, first)
    return len(todo)


def _constant_def(v: SSAValue) -> Operation | None:
    """The unguarded ``MOV`` of a constant (an immediate or a ``c[][]``
    word: no register operand) defining ``v``, else None."""
    op = v.owner
    if not isinstance(op, MovOp) or op.operand_groups()[1] is not None or op.operands:
        return None
    return op if len(op.results) == 1 else None


def _phys(v: SSAValue) -> tuple[RegFile, int, int]:
    t = v.type
    assert isinstance(t, OriRegisterType) and t.phys_index is not None
    return t.REG_FILE, t.phys_index, t.num_regs()


class _ParallelCopy:
    """Emits one edge's parallel copy before ``anchor`` (see module docstring)."""

    def __init__(self, anchor: Operation, sources: Sequence[SSAValue], free: dict[RegFile, list[int]]) -> None:
        self.anchor = anchor
        self.block = anchor.parent_block()
        self.cur: dict[tuple[RegFile, int], SSAValue] = {}
        self.src_of: dict[tuple[RegFile, int], tuple[SSAValue, int]] = {}
        for v in sources:
            f, b, n = _phys(v)
            for i in range(n):
                self.src_of.setdefault((f, b + i), (v, i))
        self.unpacked: set[SSAValue] = set()
        self.free = free
        self.guarded: dict[tuple[RegFile, int], SSAValue] = {}
        """Destinations written under ``guard`` (``_guarded_plan``), each with
        the value the register holds for the other edge: the tied prior."""
        self.guard: tuple[SSAValue, bool] | None = None
        self.renamed: dict[SSAValue, SSAValue] = {}
        """The other edge's value -> the guarded copy's result."""

    def emit(self, op: Operation) -> Operation:
        assert self.block is not None
        self.block.insert_op_before(op, self.anchor)
        return op

    def value(self, key: tuple[RegFile, int]) -> SSAValue:
        v = self.cur.get(key)
        if v is not None:
            return v
        src, _ = self.src_of[key]
        f, b, n = _phys(src)
        if n == 1:
            self.cur[key] = src
            return src
        if src not in self.unpacked:
            self.unpacked.add(src)
            un = self.emit(UnpackOp.make([src], [_SCALAR[f].physical(b + i) for i in range(n)]))
            for i, r in enumerate(un.results):
                self.cur.setdefault((f, b + i), r)
        return self.cur[key]

    def move(self, f: RegFile, d: int, s: int) -> None:
        src = self.value((f, s))
        t = _SCALAR[f].physical(d)
        old = self.guarded.get((f, d))
        kw: dict[str, object] = {}
        if old is not None:
            assert self.guard is not None
            kw = {"guard": self.guard[0], "guard_neg": self.guard[1], "prior": [old]}
        if f.is_predicate:
            op = PLop3Op.make([src, type(t).fixed(), type(t).fixed(), 0xF0], [t], **kw)  # type: ignore[arg-type]
        else:
            op = MovOp.make([src], [t], **kw)  # type: ignore[arg-type]
        self.cur[(f, d)] = self.emit(op).results[0]
        if old is not None:
            self.renamed[old] = self.cur[(f, d)]

    def xor_swap(self, f: RegFile, d: int, s: int) -> None:
        a, b = self.value((f, d)), self.value((f, s))
        td, ts = _SCALAR[f].physical(d), _SCALAR[f].physical(s)

        def x(p: SSAValue, q: SSAValue, t: OriRegisterType) -> SSAValue:
            if f.is_predicate:
                op = PLop3Op.make([p, q, type(t).fixed(), 0x3C], [t])
            else:
                op = Lop3Op.make([p, q, R32Type.fixed(), 0x3C], [t])
            return self.emit(op).results[0]

        t1 = x(a, b, td)
        t2 = x(t1, b, ts)
        t3 = x(t1, t2, td)
        self.cur[(f, d)] = t3
        self.cur[(f, s)] = t2

    def run(self, moves: dict[tuple[RegFile, int], tuple[RegFile, int]]) -> None:
        pending = {d: s for d, s in moves.items() if d != s}
        while pending:
            srcs = set(pending.values())
            ready = [d for d in pending if d not in srcs]
            if ready:
                for d in ready:
                    s = pending.pop(d)
                    self.move(d[0], d[1], s[1])
                continue
            d = next(iter(pending))
            f = d[0]
            free = self.free.get(f, [])
            if free:
                t = free[0]
                self.move(f, t, d[1])
                for k, s in list(pending.items()):
                    if s == d:
                        pending[k] = (f, t)
                continue
            if f is RegFile.UR:
                raise PassFailedException(
                    "ori-regalloc: a cycle of uniform-register copies on an edge needs a free "
                    "uniform register, and none is left"
                )
            s = pending.pop(d)
            self.xor_swap(f, d[1], s[1])
            for k, src in list(pending.items()):
                if src == d:
                    pending[k] = s
            # the swap also put d's old content into s
            if pending.get(s) == s:
                del pending[s]

    def result_for(self, v: SSAValue, arg: SSAValue) -> SSAValue:
        f, b, n = _phys(v)
        _, ab, _ = _phys(arg)
        if b == ab:
            return v
        if n == 1:
            return self.cur[(f, ab)]
        parts = [self.cur[(f, ab + i)] for i in range(n)]
        return self.emit(PackOp.make(parts, [arg.type])).results[0]


def _other_edge_registers(term: BraOp, slot: int,
                          live_in: dict[Block, list[SSAValue]]) -> set[tuple[RegFile, int]]:
    """The registers the edge other than ``slot`` of ``term`` reads after
    the branch: its target's live-in values and arguments, the values it
    passes, and the branch's guard."""
    other = term.fallthrough if slot == 0 else term.taken
    assert other is not None
    vals = [*live_in.get(other, []), *other.args, *term.edge_args(1 - slot)]
    if term.guard is not None:
        vals.append(term.guard)
    out: set[tuple[RegFile, int]] = set()
    for v in vals:
        f, b, n = _phys(v)
        out.update((f, b + i) for i in range(n))
    return out


def _acyclic(moves: dict[tuple[RegFile, int], tuple[RegFile, int]]) -> bool:
    """The parallel copy needs no temporary or swap (no cycle of moves)."""
    pending = {d: s for d, s in moves.items() if d != s}
    while pending:
        srcs = set(pending.values())
        ready = [d for d in pending if d not in srcs]
        if not ready:
            return False
        for d in ready:
            del pending[d]
    return True


def _guarded_plan(term: BraOp, slot: int, clash: set[tuple[RegFile, int]],
                  live_in: dict[Block, list[SSAValue]], loops: LoopInfo,
                  ) -> dict[tuple[RegFile, int], SSAValue] | None:
    """For copies of edge ``slot`` that overwrite registers ``clash`` the other
    edge reads: the value each such register holds for the other edge, when
    the copies can go before the branch guarded by its condition -- the
    other edge then sees the registers unchanged, and its reads of those
    values read the guarded copies' results instead (a renaming: every read
    after the branch must be in a block the other edge's target dominates,
    and that target must have no other predecessor; when the branch and the
    target are in one loop, a read in the branch's block or above it comes
    after the branch too, so every read must be below the target; a copy
    into a UR/UP register needs a branch on a UP).  None when not."""
    if term.guard is None or loops.irreducible_edges:
        return None
    dom = loops.domtree
    other = term.fallthrough if slot == 0 else term.taken
    block = term.parent_block()
    assert other is not None and block is not None
    cfg = dom.cfg
    bi, oi = cfg.index.get(block), cfg.index.get(other)
    if bi is None or oi is None or other is block or [e.src for e in cfg.in_edges[oi]] != [bi]:
        return None
    g = _phys(term.guard)
    if (g[0], g[1]) in clash:
        return None  # a copy would change the guard of the copies after it
    if any(f.is_uniform for f, _ in clash) and not g[0].is_uniform:
        return None  # a uniform copy (UMOV) takes a UP guard only, the branch reads a P
    held: dict[tuple[RegFile, int], SSAValue] = {}
    for v in [*live_in.get(other, []), *term.edge_args(1 - slot)]:
        f, b, n = _phys(v)
        for i in range(n):
            if (f, b + i) in clash:
                if n != 1:
                    return None  # a wide value: its part would need a PACK
                held[(f, b + i)] = v
    if set(held) != clash:
        return None  # other.args clash: those are written by the edge itself
    lp = loops.loop_for(bi)
    cyclic = lp is not None and lp.contains(oi)
    for v in held.values():
        # the guarded copy reads the value as its prior each time the branch
        # runs: in a loop, a value from before the loop would be live around
        # it next to the copy's result, in the same register
        home = v.owner.parent_block() if isinstance(v.owner, Operation) else v.owner
        di = cfg.index.get(home) if isinstance(home, Block) else None
        if lp is not None and (di is None or not lp.contains(di)):
            return None
        for use in v.uses:
            op = use.operation
            if op is term:
                continue
            ub = op.parent_block()
            ui = cfg.index.get(ub) if ub is not None else None
            if ui is None:
                return None  # in a block made for another edge's copies
            if dom.dominates(oi, ui) or (not cyclic and dom.dominates(ui, bi)):
                continue
            return None
    return held


def _rename(renamed: dict[SSAValue, SSAValue], term: BraOp, slot: int, block: Block,
            dom: DominatorTree, live_in: dict[Block, list[SSAValue]]) -> None:
    """Reads of the other edge's values after the branch read the guarded
    copies' results (equal there: the guard is false on that edge); so do
    the live-in lists of the blocks after it, which the copies of later
    branches consult (a later guarded copy that took the old value as its
    prior kept it live next to the renamed one, in the same register: a
    generated program of tests/passes/regalloc/test_spill.py's SMEM fuzz)."""
    cfg = dom.cfg
    bi = cfg.index[block]
    for blk, vals in live_in.items():
        i = cfg.index.get(blk)
        if blk is block or i is None or dom.dominates(i, bi):
            continue
        if any(v in renamed for v in vals):
            live_in[blk] = [renamed.get(v, v) for v in vals]
    for old, new in renamed.items():
        for use in list(old.uses):
            op = use.operation
            if op is term:
                if use.index in _edge_operand_indices(term, 1 - slot):
                    op.operands[use.index] = new
                continue
            ub = op.parent_block()
            assert ub is not None
            if ub is block or dom.dominates(cfg.index[ub], bi):
                continue  # before the branch
            op.operands[use.index] = new


def _edge_operand_indices(term: BraOp, slot: int) -> range:
    """Positions in ``term``'s operands of the values edge ``slot`` passes."""
    n_guard = 1 if term.guard is not None else 0
    n_taken = len(term.taken_args)
    if slot == 0:
        return range(n_guard, n_guard + n_taken)
    return range(n_guard + n_taken, len(term.operands))


def lower_edge_copies(
    func: Operation,
    live_in: dict[Block, list[SSAValue]],
    allowed: dict[RegFile, list[int]],
    peak: dict[RegFile, int],
) -> int:
    """Materialise every edge's parallel copy (module docstring).  Returns the
    number of copy instructions emitted."""
    emitted = 0
    region = func.regions[0]
    cfg0 = CFG.compute(func)
    loops = LoopInfo(cfg0, DominatorTree(cfg0))
    for block in list(region.blocks):
        term = block.last_op
        if not isinstance(term, BraOp):
            continue
        edges = [(0, term.taken, list(term.taken_args))]
        if term.fallthrough is not None:
            edges.append((1, term.fallthrough, list(term.fallthrough_args)))
        new_args: dict[int, list[SSAValue]] = {}
        new_dest: dict[int, Block] = {}
        needing = [e for e in edges
                   if not all(_phys(a) == _phys(d) for a, d in zip(e[2], e[1].args))]
        for slot, dest, args in needing:
            occupied: dict[RegFile, set[int]] = {}
            for v in [*live_in.get(dest, []), *args, *dest.args]:
                f, b, n = _phys(v)
                occupied.setdefault(f, set()).update(range(b, b + n))
            # A conditional branch whose other edge needs no copies: the
            # copies may go before the branch when they write no register
            # that edge (or the branch's guard) still reads -- no block and
            # no BRA of their own (the MOV; BRA blocks ptxas does not have).
            hoist = False
            guarded: dict[tuple[RegFile, int], SSAValue] | None = None
            moves: dict[tuple[RegFile, int], tuple[RegFile, int]] = {}
            for v, d in zip(args, dest.args):
                f, b, n = _phys(v)
                _, db, _ = _phys(d)
                for i in range(n):
                    moves[(f, db + i)] = (f, b + i)
            if term.fallthrough is not None and len(needing) == 1:
                keep = _other_edge_registers(term, slot, live_in)
                writes = {d for d, s in moves.items() if d != s}
                if not writes & keep:
                    hoist = True
                elif _acyclic(moves):
                    # the copies that overwrite what the other edge reads go
                    # under the branch's condition for this edge
                    guarded = _guarded_plan(term, slot, writes & keep, live_in, loops)
                    hoist = guarded is not None
                if hoist:
                    for f, r in keep:
                        occupied.setdefault(f, set()).add(r)
            free = {
                f: [r for r in regs if r not in occupied.get(f, set()) and r < peak.get(f, 0)]
                for f, regs in allowed.items()
            }
            # a UR cycle has no swap: it may take a uniform register above
            # those used (the UR count sets no occupancy; R, P and UP cycles
            # are swapped instead)
            free[RegFile.UR] = free.get(RegFile.UR, []) + [
                r for r in allowed.get(RegFile.UR, ())
                if r not in occupied.get(RegFile.UR, set()) and r >= peak.get(RegFile.UR, 0)]
            if term.fallthrough is None or hoist:
                anchor: Operation = term
                target_block = block
            else:
                target_block = Block()
                region.insert_block_after(target_block, block)
                anchor = BraOp(dest, [])
                target_block.add_op(anchor)
            pc = _ParallelCopy(anchor, args, free)
            if guarded:
                assert term.guard is not None
                # true when edge ``slot`` is taken: the taken edge when the
                # (possibly negated) guard holds
                pc.guarded = guarded
                pc.guard = (term.guard, (term.guard_neg is not None) != (slot == 1))
            before = len(list(target_block.ops))
            pc.run(moves)
            if pc.renamed:
                _rename(pc.renamed, term, slot, block, loops.domtree, live_in)
            result = [pc.result_for(v, d) for v, d in zip(args, dest.args)]
            emitted += len(list(target_block.ops)) - before
            if term.fallthrough is None or hoist:
                new_args[slot] = result
            else:
                jump = BraOp(dest, result)
                target_block.insert_op_before(jump, anchor)
                target_block.erase_op(anchor)
                new_args[slot] = []
                new_dest[slot] = target_block
        if new_args:
            taken = new_dest.get(0, term.taken)
            targs = new_args.get(0, list(term.taken_args))
            fall = new_dest.get(1, term.fallthrough) if term.fallthrough is not None else None
            fargs = new_args.get(1, list(term.fallthrough_args))
            nb = BraOp(
                taken, targs, guard=term.guard,
                guard_neg=term.guard_neg is not None,
                fallthrough=fall, fallthrough_args=fargs if fall is not None else (),
            )
            nb.attributes.update(term.attributes)
            block.insert_op_before(nb, term)
            block.erase_op(term)
    return emitted


__all__ = ["copy_ops", "lower_edge_copies", "split_ties", "unpacks_to_readers"]
