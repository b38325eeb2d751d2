"""Warpgroup MMA accumulators in flight: the form the allocator takes them in.

An HGMMA (``ori.hgmma``) runs asynchronously: until the ``WARPGROUP.DEPBAR``
that completes its commit group no instruction may read or write its
accumulator registers (except a later HGMMA accumulating in place) or write
the registers of its A fragments (PTX ISA 9.7.15.7;
:mod:`ori_dialect.analysis.inflight` computes these *claims*).  The
allocator meets that with four pieces, for both strategies:

1. **One register run for D and C**: ``HgmmaOp.TIED`` (``d`` over ``c``), read
   by the liveness numbering like a guarded op's prior value
   (:func:`.copies.split_ties` copies ``c`` where it outlives the HGMMA).
2. **The accumulator as one value while in flight** (this module,
   :func:`normalize_in_flight`, before anything else): the PTX import packs
   the accumulator list into a tuple before each HGMMA (``ori.pack``) and
   unpacks it right after (``ori.unpack``); a pack or unpack of an
   accumulator in flight is a move on the GPU unless allocation puts every
   part in place, and nothing guarantees that.  So, until nothing changes:

   * **chains**: an HGMMA whose ``c`` packs, in order, the parts of one
     unpacked tuple of its type (the previous HGMMA's ``d``; the padding
     registers of a wider tuple, which HGMMA neither reads nor writes, may
     be anything) takes that tuple itself, and any pack of all the parts of
     one unpacked tuple, in order, is that tuple (:func:`fold_chains`);
   * **edges**: where the accumulator is in flight across a branch edge
     (a loop issuing HGMMAs without waiting), the parts the edge passes to
     block arguments become one tuple argument; the other edges pass a pack
     of what they passed, built before their branch (outside the window),
     and the block unpacks the tuple for the old arguments' other uses
     (:func:`tuple_arguments`);
   * **unpacks**: an unpack of an accumulator in flight moves after the
     first wait on the way to each use that completes its group (a copy of
     it per such wait; one without uses goes) (:func:`sink_unpacks`), unless
     one of its uses comes before every such wait (a read of the
     accumulator in flight by the program).

   What remains is a pack or unpack in a window that the program reads
   before the wait (undefined in PTX), which the allocator does not make
   right (see 4).  The form is made here rather than in the PTX import so
   that whatever reaches the allocator -- after the loop passes, CSE and
   hoisting, or written by hand -- gets it, and the interpreter's SSA mode
   keeps the import's one value per PTX register.
3. **Registers kept until the wait**: the liveness numbering extends every
   claimed value over the points where it is claimed (the A fragments past
   the HGMMA, an accumulator nothing reads), so no other value is given
   those registers; claimed values are never spilled (a spill store of an
   accumulator in flight reads it, and the registers of a reload are not
   the run's), and the fat-point strategy coalesces an accumulator handed
   over along an edge with the block argument that takes it
   (:mod:`.coalesce`).
4. **A check after assignment** (:func:`check_after_assignment`): the
   allocated function is checked as ``ori-check-regalloc`` does
   (:func:`.checker.check_in_flight`); a violation the allocation made is a
   diagnostic, never a hazard in the output.  A function that itself reads
   an accumulator in flight (a PTX read before the wait, which the
   interpreter reports at run time) is not held to it: a remark names the
   first such read.  Claims the numbering cannot cover -- a claim reaching
   a join without a block argument, or a value defined again while it is in
   flight (a loop issuing HGMMAs with A in registers and no wait) -- are a
   diagnostic before allocation.
"""

from __future__ import annotations

from xdsl.ir import Block, Operation, OpResult, SSAValue
from xdsl.utils.exceptions import PassFailedException

from ori_dialect.analysis.cfg import CFG
from ori_dialect.analysis.dominators import DominatorTree
from ori_dialect.analysis.inflight import InFlight, has_async_ops
from ori_dialect.analysis.liveness import ValueNumbering
from ori_dialect.ir.instruction import OriInstruction
from ori_dialect.ir.metadata import AsyncRole
from ori_dialect.ir.registers import OriRegisterType, R32Type
from ori_dialect.ops.control import BraOp
from ori_dialect.ops.func import FuncOp
from ori_dialect.ops.integer import PackOp, UnpackOp
from passes.regalloc.checker import check_in_flight

_MAX_ROUNDS = 64


def _first_line(op: Operation) -> str:
    return str(op).strip().splitlines()[0][:140]


def _issuing(func: FuncOp) -> bool:
    return any(has_async_ops(b.ops) for b in func.body.blocks)


def normalize_in_flight(func: FuncOp) -> int:
    """Put ``func``'s accumulators in flight into one value each (module
    docstring, 2).  Returns the number of rewrites."""
    if not _issuing(func):
        return 0
    total = 0
    for _ in range(_MAX_ROUNDS):
        n = tuple_arguments(func, InFlight(CFG.compute(func)))
        n += fold_chains(func)
        n += sink_unpacks(func, InFlight(CFG.compute(func)))
        if not n:
            break
        total += n
    return total


# ----------------------------------------------------------------------------- chains


def _unpacked_parts(parts: list[SSAValue | object], n: int, want: type) -> SSAValue | None:
    """The tuple whose unpack gives ``parts[0..n-1]`` as its results 0..n-1,
    when it has type ``want``; None otherwise."""
    if n <= 0 or len(parts) < n:
        return None
    first = parts[0]
    if not isinstance(first, OpResult) or not isinstance(first.op, UnpackOp):
        return None
    un = first.op
    if len(un.results) < n or any(parts[i] is not un.results[i] for i in range(n)):
        return None
    src = un.src_reg("a")
    if src is None or type(src.type) is not want:
        return None
    return src


def _erase_if_dead(op: Operation) -> int:
    if any(r.uses for r in op.results):
        return 0
    blk = op.parent_block()
    if blk is None:
        return 0
    blk.erase_op(op)
    return 1


def fold_chains(func: FuncOp) -> int:
    """An issued op's tied source that packs the parts of one unpacked tuple
    of its type, in order over the registers the op writes, is that tuple
    (module docstring, "chains").  Returns the number of folds."""
    done = 0
    for block in func.body.blocks:
        for op in list(block.ops):
            if isinstance(op, PackOp):
                # pack(unpack(t)) over all of t's registers is t, wherever it is read
                parts: list[SSAValue | object] = [v for _, v in op.slot_values()]
                whole = op.results[0]
                t = _unpacked_parts(parts, len(parts), type(whole.type))
                if t is not None and len(parts) == len(parts[0].op.results):  # type: ignore[union-attr]
                    whole.replace_all_uses_with(t)
                    done += 1
                    un = parts[0].op  # type: ignore[union-attr]
                    _erase_if_dead(op)
                    _erase_if_dead(un)
                continue
            if not isinstance(op, OriInstruction) or op.ASYNC is not AsyncRole.ISSUE:
                continue
            written = dict(enumerate(n for _, n in op.async_results()))
            for i, j in op.tied_operands():
                c = op.operands[j]
                if not isinstance(c, OpResult) or not isinstance(c.op, PackOp):
                    continue
                pack = c.op
                parts = [v for _, v in pack.slot_values()]
                t = _unpacked_parts(parts, written.get(i, len(parts)), type(c.type))
                if t is None:
                    continue
                op.operands[j] = t
                done += 1
                un = parts[0].op  # type: ignore[union-attr]
                _erase_if_dead(pack)
                _erase_if_dead(un)
    return done


# ----------------------------------------------------------------------------- edges


def _preds(func: FuncOp, s: Block) -> list[tuple[BraOp, int]] | None:
    """Every (branch, successor slot) entering ``s``; None when a terminator
    other than ``ori.bra`` enters it."""
    out: list[tuple[BraOp, int]] = []
    for b in func.body.blocks:
        term = b.last_op
        if term is None:
            continue
        for slot, dest in enumerate(term.successors):
            if dest is s:
                if not isinstance(term, BraOp):
                    return None
                out.append((term, slot))
    return out


def _rebuild_branch(term: BraOp, args: dict[int, list[SSAValue]]) -> BraOp:
    """``term`` with the edge operands of the slots in ``args`` replaced."""
    taken_args = args.get(0, list(term.taken_args))
    fall_args = args.get(1, list(term.fallthrough_args))
    nb = BraOp(
        term.taken, taken_args, guard=term.guard, guard_neg=term.guard_neg is not None,
        fallthrough=term.fallthrough,
        fallthrough_args=fall_args if term.fallthrough is not None else (),
    )
    nb.attributes.update(term.attributes)
    blk = term.parent_block()
    assert blk is not None
    blk.insert_op_before(nb, term)
    blk.erase_op(term)
    return nb


def _arg_run(fl: InFlight, cfg: CFG, term: BraOp, slot: int) -> tuple[dict[int, int], SSAValue] | None:
    """``({part: argument position}, accumulator)``: the arguments that edge
    ``slot`` of ``term`` fills with parts of one accumulator in flight at
    the edge (the parts of its unpack, which hold the claim; each part
    passed once), if any."""
    b = cfg.index[term.parent_block()]  # type: ignore[index]
    st = fl.exit[b]
    ops = list(term.edge_args(slot))
    runs: dict[UnpackOp, dict[int, int]] = {}
    for k, o in enumerate(ops):
        c = st.get(o)
        if c is None or not c.acc or not isinstance(o, OpResult) or not isinstance(o.op, UnpackOp):
            continue
        if sum(1 for x in ops if x is o) != 1:
            continue
        runs.setdefault(o.op, {})[o.index] = k
    for un, pos in runs.items():
        acc = un.src_reg("a")
        if acc is not None:
            return pos, acc
    return None


def _same_unpack(parts: dict[int, SSAValue], want: type) -> SSAValue | None:
    """The tuple of type ``want`` whose unpack gives ``parts`` (part index ->
    value) at their indices; None when there is none."""
    src: SSAValue | None = None
    for i, v in parts.items():
        if not isinstance(v, OpResult) or not isinstance(v.op, UnpackOp) or v.index != i:
            return None
        t = v.op.src_reg("a")
        if t is None or type(t.type) is not want or (src is not None and t is not src):
            return None
        src = t
    return src


def tuple_arguments(func: FuncOp, fl: InFlight) -> int:
    """Block arguments that take parts of an accumulator in flight on some
    edge become one tuple argument (module docstring, "edges").  Returns the
    number of blocks rewritten (at most one per call)."""
    if not fl.active:
        return 0
    cfg = fl.cfg
    for s in func.body.blocks:
        if not s.args:
            continue
        preds = _preds(func, s)
        if not preds:
            continue
        found = None
        for term, slot in preds:
            found = _arg_run(fl, cfg, term, slot)
            if found is not None:
                break
        if found is None:
            continue
        pos, acc = found
        tuple_type = acc.type
        assert isinstance(tuple_type, OriRegisterType)
        width = tuple_type.num_regs()
        x = s.insert_arg(tuple_type, len(s.args))
        # every edge into s passes one tuple for the run: the tuple whose
        # parts it passed, else a pack of them (built before its branch)
        by_term: dict[BraOp, dict[int, list[SSAValue]]] = {}
        for term, slot in preds:
            ops = list(term.edge_args(slot))
            parts = {i: ops[k] for i, k in pos.items()}
            t = _same_unpack(parts, type(tuple_type))
            if t is None:
                slots = [parts.get(i, R32Type.fixed()) for i in range(width)]
                pk = PackOp.make(slots, [type(tuple_type).unallocated()])
                blk = term.parent_block()
                assert blk is not None
                blk.insert_op_before(pk, term)
                t = pk.results[0]
            keep = [o for k, o in enumerate(ops) if k not in pos.values()]
            by_term.setdefault(term, {})[slot] = [*keep, t]
        # the old arguments' uses read an unpack of the tuple
        un = UnpackOp.make([x], [R32Type.unallocated()] * width)
        first = s.first_op
        if first is None:
            s.add_op(un)
        else:
            s.insert_op_before(un, first)
        for i, k in pos.items():
            s.args[k].replace_all_uses_with(un.results[i])
        for term, slot_args in by_term.items():
            _rebuild_branch(term, slot_args)
        for k in sorted(pos.values(), reverse=True):
            s.erase_arg(s.args[k])
        _erase_if_dead(un)
        return 1
    return 0


# ----------------------------------------------------------------------------- unpacks


def _covering_wait(fl: InFlight, dom: DominatorTree, cfg: CFG, un: UnpackOp, acc: SSAValue,
                   use_op: Operation) -> Operation | None:
    """The first wait on the dominator path from ``un`` to ``use_op`` after
    which ``acc`` is no longer claimed (None: the use is in the window)."""
    ub = cfg.index[un.parent_block()]  # type: ignore[index]
    xb = cfg.index[use_op.parent_block()]  # type: ignore[index]
    chain = [xb]
    while chain[-1] != ub:
        d = dom.idom(chain[-1])
        if d is None:
            return None
        chain.append(d)
    for b in reversed(chain):
        started = b != ub
        for op in cfg.blocks[b].ops:
            if op is un:
                started = True
                continue
            if op is use_op:
                return None
            if not started:
                continue
            if getattr(type(op), "ASYNC", None) is AsyncRole.WAIT:
                after = fl.claims_after(op)
                # the claim is the accumulator's, or its parts' once unpacked
                if acc not in after and not any(r in after for r in un.results):
                    return op
    return None


def sink_unpacks(func: FuncOp, fl: InFlight) -> int:
    """Unpacks of an accumulator in flight move after the wait that
    completes it on the way to each use (module docstring, "unpacks").
    Returns the number of unpacks moved, copied or erased."""
    if not fl.active:
        return 0
    cfg = fl.cfg
    dom: DominatorTree | None = None
    done = 0
    for block in func.body.blocks:
        for op in list(block.ops):
            if not isinstance(op, UnpackOp):
                continue
            acc = op.src_reg("a")
            c = fl.claims_before(op).get(acc) if acc is not None else None
            if acc is None or c is None or not c.acc:
                continue
            uses = [(u.operation, u.index) for r in op.results for u in list(r.uses)]
            if not uses:
                block.erase_op(op)
                done += 1
                continue
            if dom is None:
                dom = DominatorTree(cfg)
            by_wait: dict[Operation, list[tuple[Operation, int]]] = {}
            for user, k in uses:
                w = _covering_wait(fl, dom, cfg, op, acc, user)
                if w is None:
                    # the program reads the accumulator in flight (undefined
                    # in PTX): the unpack stays as it is, for all its uses
                    by_wait.clear()
                    break
                by_wait.setdefault(w, []).append((user, k))
            if not by_wait:
                continue
            for w, users in by_wait.items():
                clone = UnpackOp.make([acc], [r.type for r in op.results])
                wb = w.parent_block()
                assert wb is not None
                wb.insert_op_after(clone, w)
                for user, k in users:
                    old = user.operands[k]
                    assert isinstance(old, OpResult) and old.op is op
                    user.operands[k] = clone.results[old.index]
                done += 1
            _erase_if_dead(op)
    return done


# ----------------------------------------------------------------------------- checks


def program_reads(func: FuncOp) -> list[str]:
    """The function's own reads of an accumulator in flight (after
    :func:`normalize_in_flight`), one line each: PTX leaves them undefined."""
    if not _issuing(func):
        return []
    fl = InFlight(CFG.compute(func))
    return [f"`{_first_line(op)}` reads an HGMMA accumulator before the wgmma.wait_group "
            "(WARPGROUP.DEPBAR) that completes it" for op, _v in fl.reads]


def claim_problems(func: FuncOp, num: ValueNumbering) -> list[str]:
    """Values defined again while claimed, and claims the numbering could not
    cover (``ValueNumbering.unextended``), as diagnostics (one per value)."""
    out: list[str] = []
    seen: set[SSAValue] = set()
    fl = num.inflight
    if fl is None:
        return out

    def what(v: SSAValue, op: Operation) -> str:
        c = fl.before.get(op, {}).get(v)
        return "accumulator" if c is None or c.acc else "A fragments"

    for op, v in fl.redefined:
        if v in seen:
            continue
        seen.add(v)
        out.append(
            f"@{func.sym_name.data}: `{_first_line(op)}` defines {v.type} again while an HGMMA "
            f"still {'writes' if what(v, op) == 'accumulator' else 'reads'} it as its "
            f"{what(v, op)} (no wgmma.wait_group between the HGMMA and the next definition: "
            "one value, one register)")
    for v, op in num.unextended:
        if v in seen:
            continue
        seen.add(v)
        out.append(
            f"@{func.sym_name.data}: {v.type}, the {what(v, op)} of an HGMMA in flight, is "
            f"not defined on every path to `{_first_line(op)}` (the wait that completes it "
            "is past a join without a block argument for it, or a loop back to its "
            "definition)")
    return out


def prepare(func: FuncOp) -> list[str]:
    """Before allocation: :func:`normalize_in_flight`, then the function's
    own reads of an accumulator in flight (:func:`program_reads`)."""
    if not _issuing(func):
        return []
    normalize_in_flight(func)
    return program_reads(func)


def refuse_unkept_claims(func: FuncOp, reads: list[str]) -> None:
    """After the tied sources are split: raise the claims the numbering
    cannot cover (:func:`claim_problems`) as one diagnostic -- unless the
    function reads an accumulator in flight itself (``reads``: then nothing
    is promised, :func:`check_after_assignment`)."""
    if not _issuing(func) or reads:
        return
    problems = claim_problems(func, ValueNumbering(list(func.body.blocks)))
    if problems:
        raise PassFailedException(
            "ori-regalloc: registers an HGMMA holds until its wait cannot be kept:\n  "
            + "\n  ".join(problems))


def check_after_assignment(func: FuncOp, reads: list[str]) -> list[str]:
    """The violations of the in-flight rule in the allocated ``func``
    (:func:`.checker.check_in_flight`), raised as one diagnostic, unless the
    function reads an accumulator in flight itself (``reads``, from
    :func:`program_reads`: then a remark names the first read and is
    returned)."""
    if reads:
        return [(f"{reads[0]}: undefined in PTX; the allocation does not keep the "
                 "HGMMA's registers for it")]
    problems = check_in_flight(func)
    if problems:
        raise PassFailedException(
            f"ori-regalloc: @{func.sym_name.data}: the allocation lets instructions touch the "
            "registers of an HGMMA before the wait that completes it (not emitted):\n  "
            + "\n  ".join(problems))
    return []


__all__ = [
    "check_after_assignment",
    "claim_problems",
    "fold_chains",
    "normalize_in_flight",
    "prepare",
    "program_reads",
    "refuse_unkept_claims",
    "sink_unpacks",
    "tuple_arguments",
]
