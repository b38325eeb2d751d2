"""``ori-check-regalloc``: proof that an allocated function is consistent.

Python API::

    from passes.regalloc.checker import check_function, check_module
    problems = check_module(module)          # [] when everything holds

Each problem is one line naming the function and the op.  The pass raises
one ``PassFailedException`` listing them all.

What is proved, per function:

1. **Registers.**  Every register value (block arguments, op results) carries
   a physical, non-fixed register of its type's file (alignment is checked
   by the type itself) -- except an RZ-typed value only CALLs read (a
   stack-passed argument: the callee's parameter or the CALL's operand for
   it, passes/abi/stack_args.py), which holds no register by design.
2. **Limits and reservations.**  Every register lies below the file's budget
   (:mod:`.budget`: the R limit the allocator recorded in ``ori.max_regs``
   -- ``max-regs`` or the PTX directives' limit, by ptxas's rule --, else
   the directives' and the target's) and is not reserved.
3. **No overlap.**  At every program point (:mod:`.points`) no two live
   values share a register, wide values counted by all their registers
   (checked per register on the values' live segments, linear in their
   number; each conflicting pair is reported once, at the first point the
   two share).
   Two values may share a register only when they hold the same content by
   construction: an ``ori.unpack`` result left in its part of the source, an
   ``ori.pack`` built in place from its parts, a ``MOV`` onto itself.
4. **Tied operands.**  A guarded instruction's result and its prior value
   share one register, and so do the result and source of a ``TIED`` pair
   (HGMMA's ``d`` and ``c``: one accumulator run).
5. **Edge copies.**  Every value a branch passes along an edge is in the
   register of the successor's argument (the allocator has materialised the
   parallel copies as moves before the branch or in a split edge block).
6. **Spill slots.**  Spill stores and reloads (STL/LDL tagged
   ``ori.spill_value``) are checked by a forward dataflow over local-memory
   bytes: on every path to a reload, the bytes it reads were last written by
   a spill store of the same value, so no two spilled values share a slot
   while both are live.  SMEM spills (STS/LDS tagged the same way, at
   offsets from the per-thread spill base) are checked the same way, and
   every register reload of a P/UP/UR/B value (R2P, R2UR, BMOV) reads the
   GPR home of the same value (:func:`.spill.check_spill_homes`).
7. **Asynchronous registers** (:func:`check_in_flight`).  From an HGMMA to
   the ``WARPGROUP.DEPBAR`` that completes its commit group (the claims of
   :mod:`ori_dialect.analysis.inflight`, per commit group, conservative at
   joins): no instruction writes a register of its accumulator run (the
   registers the shape writes) or of its A fragments, none reads the
   accumulator run except a later HGMMA taking it as its accumulator in
   place (D and C the same registers), and a pack, unpack or ``MOV`` of it
   moves nothing (every part in place: no instruction).  An HGMMA's D never
   shares a register with its own A.  Each violation names the
   instruction, the registers and the HGMMA.  A read the program itself
   makes before the wait (undefined in PTX) is reported the same way.
8. **Calling convention** (:func:`.abi.check_abi`, functions ``ori-abi``
   lowered).  Every pre-coloured value (argument and result copies, a
   device function's register parameters) is in its register, and no value
   live across a call is in a register the call may overwrite (its
   ``ori.abi_clobbers``).
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from typing import ClassVar

import numpy as np
from xdsl.context import Context
from xdsl.dialects.builtin import ModuleOp
from xdsl.ir import Operation, SSAValue
from xdsl.passes import ModulePass
from xdsl.utils.exceptions import PassFailedException

from ori_dialect.analysis.cfg import CFG
from ori_dialect.analysis.inflight import Claim, InFlight, has_async_ops
from ori_dialect.analysis.manager import PRESERVES_ALL
from ori_dialect.ir.instruction import OriInstruction, OriOp
from ori_dialect.ir.metadata import AsyncRole
from ori_dialect.ir.registers import OriRegisterType, RegFile, r_registers
from ori_dialect.ops.control import BraOp, CallOp
from ori_dialect.ops.func import FuncOp
from ori_dialect.ops.integer import MovOp, PackOp, UnpackOp
from ori_dialect.ops.memory import LdlOp, LdsOp, StlOp, StsOp
from passes.contract import Requirement, option, require
from passes.regalloc.abi import check_abi
from passes.regalloc.budget import compute_budget, function_target, recorded_max_regs
from passes.regalloc.points import LiveMatrix, paused_gc
from passes.regalloc.spill import check_spill_homes, smem_slot_offset
from passes.regalloc.spill_marks import SPILL_ATTR, spill_tag


def phys_slot(v: SSAValue) -> tuple[RegFile, int, int] | None:
    """(file, first register, registers) of an allocated value; None for a
    virtual value, a fixed register (RZ, PT, ...) or a non-register value."""
    t = v.type
    if not isinstance(t, OriRegisterType):
        return None
    base = t.phys_index
    if base is None or t.is_fixed:
        return None
    return t.REG_FILE, base, t.num_regs()


def _passed_in_memory(v: SSAValue) -> bool:
    """An RZ-typed value ``ori-abi`` left for a stack-passed argument
    (passes/abi/stack_args.py): the callee's parameter, read by nothing,
    or the CALL operand standing for it, read by CALLs only."""
    return all(isinstance(u.operation, CallOp) and u.operation.args
               and u.index >= len(u.operation.operands) - len(u.operation.args)
               for u in v.uses)


def _describe(op: Operation | None) -> str:
    if op is None:
        return ""
    text = str(op).strip().splitlines()[0]
    return f" at `{text[:140]}`"


@paused_gc()
def check_function(
    func: FuncOp, target: str | None = None, max_regs: int | None = None,
    *, override: bool = False,
) -> list[str]:
    """Every violation found in ``func`` (empty when the allocation is sound).
    ``max_regs`` / ``override``: the limit as ``ori-regalloc`` takes it
    (:func:`.budget.compute_budget`); unset, the limit the allocator recorded
    (``ori.max_regs``), which is the limit whatever the directives say."""
    name = f"@{func.sym_name.data}"
    out: list[str] = []
    tgt = function_target(func, target)
    if max_regs is None and (recorded := recorded_max_regs(func)) is not None:
        max_regs, override = recorded, True
    budget = compute_budget(func, tgt, max_regs, quiet=True, override=override)

    # 1 + 2: registers, limits, reservations
    values: list[tuple[SSAValue, Operation | None]] = []
    for block in func.body.blocks:
        values.extend((a, None) for a in block.args)
        for op in block.ops:
            values.extend((r, op) for r in op.results)
    ok = True
    for v, op in values:
        if not isinstance(v.type, OriRegisterType):
            continue
        ph = phys_slot(v)
        if ph is None and v.type.is_fixed and _passed_in_memory(v):
            continue
        if ph is None:
            ok = False
            what = "a fixed register" if v.type.phys_index is not None else "no physical register"
            out.append(f"{name}: value {v.name_hint or ''} of type {v.type} has {what}{_describe(op)}")
            continue
        file, base, n = ph
        lim = budget.limits.get(file, 0)
        if base + n > lim:
            out.append(
                f"{name}: {v.type} is beyond the {lim} {file.value} registers allowed{_describe(op)}"
            )
        res = budget.reserved.get(file, frozenset())
        bad = [i for i in range(base, base + n) if i in res]
        if bad:
            out.append(
                f"{name}: {v.type} uses reserved register {file.value}{bad[0]}{_describe(op)}"
            )
    if not ok:
        return out

    # 4: tied operands
    for block in func.body.blocks:
        for op in block.ops:
            if isinstance(op, OriInstruction):
                _, _guard, prior = op.operand_groups()
                for r, p in zip(op.results, prior):
                    if phys_slot(r) != phys_slot(p):
                        out.append(
                            f"{name}: guarded result in {r.type} and its tied prior value in "
                            f"{p.type} do not share a register{_describe(op)}"
                        )
                for i, j in op.tied_operands():
                    r, p = op.results[i], op.operands[j]
                    if phys_slot(r) != phys_slot(p):
                        out.append(
                            f"{name}: result {op.DSTS[i].name} in {r.type} is written into "
                            f"its tied source ({p.type}) and must share its registers"
                            f"{_describe(op)}"
                        )
    # 5: edge copies
    for block in func.body.blocks:
        term = block.last_op
        if isinstance(term, BraOp):
            edges = [(term.taken_args, term.taken)]
            if term.fallthrough is not None:
                edges.append((term.fallthrough_args, term.fallthrough))
            for args, dest in edges:
                for i, (a, d) in enumerate(zip(args, dest.args)):
                    if phys_slot(a) != phys_slot(d):
                        out.append(
                            f"{name}: edge operand #{i} in {a.type} but the successor's "
                            f"argument is in {d.type}{_describe(term)}"
                        )

    # 3: overlap at every program point, per register: the live segments
    # (:mod:`.points`) of the values in each register, swept in point order
    lm = LiveMatrix(func)
    out.extend(check_overlap(func, lm, name))

    # 6: spill slots
    out.extend(_check_spill_slots(func, lm))
    out.extend(check_spill_homes(func))
    # 7: registers of asynchronous ops in flight
    out.extend(check_in_flight(func, name))
    # 8: the calling convention (pre-coloured values, clobbers across calls)
    out.extend(check_abi(func, lm, name))
    return out


def _span(regs: Sequence[int]) -> str:
    regs = sorted(regs)
    if len(regs) == 1:
        return f"R{regs[0]}"
    if regs == list(range(regs[0], regs[-1] + 1)):
        return f"R{regs[0]}..R{regs[-1]}"
    return ", ".join(f"R{r}" for r in regs)


def _short(op: Operation) -> str:
    return f"`{str(op).strip().splitlines()[0][:100]}`"


def check_in_flight(func: FuncOp, name: str | None = None) -> list[str]:
    """Rule 7 of the module docstring on an allocated function: one line per
    instruction and claimed value it touches."""
    name = name or f"@{func.sym_name.data}"
    if not any(has_async_ops(b.ops) for b in func.body.blocks):
        return []
    cfg = CFG.compute(func)
    fl = InFlight(cfg)
    if not fl.active:
        return []
    out: list[str] = []
    for block in cfg.blocks:
        for op in block.ops:
            st = fl.before.get(op, {})
            issue = isinstance(op, OriInstruction) and op.ASYNC is AsyncRole.ISSUE
            if not st and not issue:
                continue
            # register -> (claimed value, claim) before the op
            held: dict[int, tuple[SSAValue, Claim]] = {}
            for v, c in st.items():
                for r in r_registers(v)[: c.regs]:
                    held[r] = (v, c)
            reads: set[int] = set()
            writes: set[int] = set()
            allowed_reads: set[int] = set()
            allowed_writes: set[int] = set()
            moves = (op.register_moves() if isinstance(op, OriOp) else None)
            if issue:
                assert isinstance(op, OriInstruction)
                reads.update(r for v in op.operand_groups()[0] for r in r_registers(v))
                for v, n in op.async_results():
                    writes.update(r_registers(v)[:n])
                for i, j in op.tied_operands():
                    d, c = op.results[i], op.operands[j]
                    if r_registers(d) == r_registers(c):  # accumulating in place
                        allowed_reads.update(r_registers(c))
                        allowed_writes.update(
                            r for r in r_registers(c) if r in held and held[r][0] is c)
                own = {r for v in op.async_sources() for r in r_registers(v)}
                mine = own & writes
                if mine:
                    out.append(f"{name}: {_short(op)} writes its accumulator over {_span(mine)}, "
                               "the registers of its own A fragments, which it reads "
                               "until the wait")
            elif moves is not None:
                reads.update(s for s, _ in moves if s >= 0)
                writes.update(d for _, d in moves)
            elif isinstance(op, OriOp) and op.sass_instructions() == 0:
                continue
            elif isinstance(op, BraOp):
                pass  # edge operands are moved by the edge copies (rule 5)
            else:
                srcs: list[SSAValue] = list(op.operands)
                if isinstance(op, OriInstruction):
                    s, g, _prior = op.operand_groups()  # tied priors are no reads
                    srcs = [*s, *([g] if g is not None else [])]
                reads.update(r for v in srcs for r in r_registers(v))
                writes.update(r for v in op.results for r in r_registers(v))
            by_value: dict[tuple[SSAValue, str], list[int]] = {}
            for r in sorted(reads - allowed_reads):
                hit = held.get(r)
                if hit is not None and hit[1].acc:
                    by_value.setdefault((hit[0], "reads"), []).append(r)
            for r in sorted(writes - allowed_writes):
                hit = held.get(r)
                if hit is not None:
                    by_value.setdefault((hit[0], "writes"), []).append(r)
            for (v, verb), regs in by_value.items():
                c = st[v]
                what = "accumulator" if c.acc else "A fragments"
                run = r_registers(v)[: c.regs]
                if c.acc and isinstance(c.issue, OriInstruction) and c.issue.async_results():
                    # the HGMMA's own run (the claimed value may be one of its parts)
                    d, n = c.issue.async_results()[0]
                    run = r_registers(d)[:n] or run
                out.append(
                    f"{name}: {_short(op)} {verb} {_span(regs)} of the {what} ({_span(run)}) "
                    f"of {_short(c.issue)} before the wgmma.wait_group (WARPGROUP.DEPBAR) that "
                    "completes its group")
    return out


def _overlapping_registers(
    lm: LiveMatrix, phys: list[tuple[RegFile, int, int] | None]
) -> set[tuple[RegFile, int]]:
    """The registers in which two live segments overlap (numpy: segments
    sorted by (register, start), a running maximum of the ends)."""
    files = list(RegFile)
    fidx = {f: i for i, f in enumerate(files)}
    vid_l: list[int] = []
    key_l: list[int] = []
    for vid, ph in enumerate(phys):
        if ph is None:
            continue
        file, base, n = ph
        for i in range(n):
            vid_l.append(vid)
            key_l.append(fidx[file] * 1024 + base + i)
    if not vid_l:
        return set()
    vids = np.asarray(vid_l, dtype=np.int64)
    keys = np.asarray(key_l, dtype=np.int64)
    first = lm.value_seg[vids]
    cnt = lm.value_seg[vids + 1] - first
    row = np.repeat(np.arange(vids.size), cnt)
    off = np.repeat(np.cumsum(cnt) - cnt, cnt)
    seg = np.arange(row.size) - off + first[row]
    reg = keys[row]
    st, en = lm.seg_start[seg], lm.seg_end[seg]
    order = np.lexsort((st, reg))
    reg, st, en = reg[order], st[order], en[order]
    if reg.size < 2:
        return set()
    big = int(en.max()) + 1
    reach = np.maximum.accumulate(reg * big + en)
    # the furthest end of the earlier segments of the same register (negative
    # when the register changes, since registers are sorted ascending)
    prev_end = reach[:-1] - reg[1:] * big
    hit = st[1:] < prev_end
    return {(files[k // 1024], k % 1024) for k in np.unique(reg[1:][hit]).tolist()}


def check_overlap(func: FuncOp, lm: LiveMatrix, name: str) -> list[str]:
    """Two values with different contents in one register at one point.

    Every value's live segments are listed under each register it occupies;
    a register's segments are swept by start point, and a segment that starts
    while another one of a different content is still open is a conflict,
    reported once per pair of values at the first point they share."""
    num = lm.numbering
    phys = [phys_slot(v) for v in num.values]
    flagged = _overlapping_registers(lm, phys)
    if not flagged:
        return []
    # only registers where two segments overlap need the content check
    content = value_contents(func, num.index)
    by_reg: dict[tuple[RegFile, int], list[tuple[int, int, int, object]]] = {}
    starts, ends = lm.seg_start.tolist(), lm.seg_end.tolist()
    bounds = lm.value_seg.tolist()
    for vid, ph in enumerate(phys):
        if ph is None:
            continue
        file, base, n = ph
        if not any((file, base + i) in flagged for i in range(n)):
            continue
        segs = [(starts[k], ends[k]) for k in range(bounds[vid], bounds[vid + 1])]
        for i in range(n):
            if (file, base + i) not in flagged:
                continue
            c = content.get((vid, i), (vid, i))
            lst = by_reg.setdefault((file, base + i), [])
            lst.extend((s, e, vid, c) for s, e in segs)
    found: dict[tuple[int, int], tuple[int, str]] = {}
    for (file, reg), segs in by_reg.items():
        segs.sort(key=lambda t: (t[0], t[2]))
        active: list[tuple[int, int, int, object]] = []
        for seg in segs:
            s = seg[0]
            active = [a for a in active if a[1] > s]
            for a in active:
                if a[3] != seg[3]:
                    key = (min(a[2], seg[2]), max(a[2], seg[2]))
                    if key not in found or found[key][0] > s:
                        found[key] = (s, f"{file.value}{reg}")
            active.append(seg)
    out: list[tuple[int, int, int, str]] = []
    for (va, vb), (p, reg) in found.items():
        pt = lm.points[p]
        ops = num.ops[pt.block]
        where = (
            f" at the entry of block #{pt.block}"
            if pt.op < 0
            else f" after `{str(ops[pt.op]).strip().splitlines()[0][:120]}`"
        )
        a, b = num.values[va], num.values[vb]
        msg = f"{name}: {a.type} and {b.type} are live at the same time in {reg}{where}"
        out.append((p, va, vb, msg))
    out.sort()
    return [m for *_, m in out]


def value_contents(func: FuncOp, index: dict[SSAValue, int]) -> dict[tuple[int, int], object]:
    """(value id, part) -> content id for values that alias another value's part."""
    alias: dict[tuple[int, int], tuple[int, int]] = {}
    for op in func.walk():
        if isinstance(op, UnpackOp):
            a = op.src_reg("a")
            pa = phys_slot(a) if a is not None else None
            if a is None or pa is None:
                continue
            for i, r in enumerate(op.results):
                pr = phys_slot(r)
                if pr is not None and pr[0] == pa[0] and pr[1] == pa[1] + i:
                    alias[(index[r], 0)] = (index[a], i)
        elif isinstance(op, PackOp):
            d = op.results[0]
            pd = phys_slot(d)
            if pd is None:
                continue
            for i, (_, v) in enumerate(op.slot_values()):
                if isinstance(v, SSAValue):
                    pv = phys_slot(v)
                    if pv is not None and pv[0] == pd[0] and pv[1] == pd[1] + i and v in index:
                        alias[(index[d], i)] = (index[v], 0)
        elif isinstance(op, MovOp) and not op.is_guarded:
            a = op.src_reg("a")
            if a is not None and a in index and phys_slot(a) == phys_slot(op.results[0]):
                alias[(index[op.results[0]], 0)] = (index[a], 0)

    def resolve(k: tuple[int, int], depth: int = 0) -> tuple[int, int]:
        nxt = alias.get(k)
        if nxt is None or depth > 64:
            return k
        return resolve(nxt, depth + 1)

    return {k: resolve(k) for k in alias}


_SHARED_KEY = 1 << 32


def _check_spill_slots(func: FuncOp, lm: LiveMatrix) -> list[str]:
    cfg = lm.cfg
    num = lm.numbering
    if not any(spill_tag(op) is not None for op in func.walk()):
        return []
    name = f"@{func.sym_name.data}"
    State = dict[int, int]  # byte offset -> spilled value id
    TOP = None
    ins: list[State | None] = [TOP] * cfg.num_blocks
    ins[0] = {}
    outs: list[State | None] = [TOP] * cfg.num_blocks
    problems: list[str] = []

    def transfer(b: int, st: State, report: bool) -> State:
        st = dict(st)
        for op in num.ops[b]:
            if isinstance(op, StlOp | LdlOp | StsOp | LdsOp):
                tag = spill_tag(op)
                base = op.src("addr")
                # SMEM spill slots: per-thread offsets, kept apart from local bytes
                off = (
                    smem_slot_offset(func, op) + _SHARED_KEY
                    if isinstance(op, StsOp | LdsOp) else op.offset()
                )
                nb = op.access_bytes()
                absolute = not isinstance(base, SSAValue)
                if isinstance(op, StlOp | StsOp):
                    if tag is not None:
                        for i in range(off, off + nb):
                            st[i] = tag
                    elif absolute:
                        for i in range(off, off + nb):
                            st.pop(i, None)
                elif tag is not None and report:
                    bad = [i for i in range(off, off + nb) if st.get(i) != tag]
                    if bad:
                        problems.append(
                            f"{name}: spill reload of value #{tag} from "
                            f"{'shared' if off >= _SHARED_KEY else 'local'} offset "
                            f"{off % _SHARED_KEY:#x} "
                            f"may read bytes not last written by its spill store{_describe(op)}"
                        )
        return st

    order = cfg.rpo
    changed = True
    rounds = 0
    while changed and rounds < 4 * len(order) + 8:
        changed = False
        rounds += 1
        for b in order:
            preds = [p for p in cfg.preds[b] if outs[p] is not None]
            if b == 0:
                st: State = {}
            elif not preds:
                continue
            else:
                st = dict(outs[preds[0]])  # type: ignore[arg-type]
                for p in preds[1:]:
                    o = outs[p]
                    assert o is not None
                    st = {k: v for k, v in st.items() if o.get(k) == v}
            if ins[b] != st or outs[b] is None:
                ins[b] = st
                new = transfer(b, st, False)
                if new != outs[b]:
                    outs[b] = new
                    changed = True
    for b in order:
        if ins[b] is not None:
            transfer(b, ins[b], True)  # type: ignore[arg-type]
    return problems


def check_module(module: ModuleOp, target: str | None = None) -> list[str]:
    out: list[str] = []
    for op in module.walk():
        if isinstance(op, FuncOp):
            out.extend(check_function(op, target))
    return out


@dataclass(frozen=True)
class CheckRegAllocPass(ModulePass):
    """Check an allocated module: fail with every violation of the allocation.

    What is checked is in the module docstring."""

    name = "ori-check-regalloc"
    REQUIRES: ClassVar[frozenset[Requirement]] = frozenset({Requirement.ALLOCATED})
    # NotAllocated (module-wide, its own message) is what users and the fuzz
    # runner see; a partly allocated function is one of the reported problems
    SELF_CHECKED: ClassVar[frozenset[Requirement]] = frozenset({Requirement.ALLOCATED})
    PRESERVES: ClassVar[frozenset[type]] = PRESERVES_ALL

    target: str | None = option(
        None, "SM target whose register limits are checked (sm_80, sm_90a, ...); unset = the "
        "module's ori.target, else sm_80")

    def apply(self, ctx: Context, op: ModuleOp) -> None:
        require(self, op)
        if not _any_allocated(op):
            raise NotAllocated(
                "ori-check-regalloc: no value of the module has a physical register "
                "(run ori-regalloc first)"
            )
        problems = check_module(op, self.target)
        if problems:
            raise PassFailedException(
                "register allocation check failed:\n  " + "\n  ".join(problems)
            )


class NotAllocated(PassFailedException):
    """The module has not been allocated at all (the fuzz runner counts this
    as 'not applicable', see ``ori_dialect.testing.fuzz``)."""

    not_applicable = True


def _any_allocated(module: ModuleOp) -> bool:
    for op in module.walk():
        for r in op.results:
            t = r.type
            if isinstance(t, OriRegisterType) and t.phys_index is not None and not t.is_fixed:
                return True
    return False


def format_problems(problems: Sequence[str]) -> str:
    return "\n".join(problems)


__all__ = [
    "SPILL_ATTR",
    "CheckRegAllocPass",
    "NotAllocated",
    "check_function",
    "check_in_flight",
    "check_module",
    "check_overlap",
    "phys_slot",
    "value_contents",
]
