"""The decoder: one ``ori.func`` turned into segments of closures.

See the package docstring for the design.  Names used here:

* a *lane* is a thread of the CTA, by its linear index ``x + y*bx + z*bx*by``;
* ``idx`` is the sorted int array of the lanes executing one step;
* a *frame* is a list of CTA-sized numpy arrays, one per SSA value (plus
  undef shadows in strict mode) of one function activation (:mod:`.frame`);
* a *segment* is a run of a block's instructions ending at its terminator or
  at a ``BAR.SYNC`` (where threads may have to wait).  Segments are numbered
  in the loop-aware reverse post-order of their blocks (:func:`schedule_order`);
  a thread's ``pc`` is its segment.

The decoder only builds closures; running them, the memories and the
barriers are the business of :class:`~.machine.Machine`, which the closures
reach through ``Decoder.m``.
"""

from __future__ import annotations

import struct
from collections.abc import Callable, Sequence
from typing import TYPE_CHECKING, Any

import numpy as np
from xdsl.dialects.builtin import ArrayAttr, FloatAttr, IntegerAttr
from xdsl.ir import Attribute, Block, Operation, SSAValue

from ori_dialect.analysis.cfg import CFG
from ori_dialect.analysis.dominators import DominatorTree
from ori_dialect.analysis.loops import Loop, LoopInfo
from ori_dialect.analysis.uniformity import is_terminal
from ori_dialect.interpreter.builtins import BUILDERS, bar_red_term, bar_sync_term
from ori_dialect.interpreter.device_runtime import RUNTIME_IMPLS
from ori_dialect.interpreter.frame import (
    INF,
    Activation,
    Core,
    ExitedInCall,
    Frame,
    OpInfo,
    Segment,
    Term,
    nothing,
    storage_of,
)
from ori_dialect.interpreter.gmma import AccumulatorHazards
from ori_dialect.interpreter.memory import Fault
from ori_dialect.interpreter.physical import RegisterLayout, physical_frame, register_layout
from ori_dialect.interpreter.semantics.registry import InterpreterError, compile_op
from ori_dialect.interpreter.uniform_check import needs_check, uniform_checked
from ori_dialect.ir.attrs import CBankAttr
from ori_dialect.ir.instruction import OriInstruction, Src
from ori_dialect.ir.registers import (
    OriRegisterType,
    PredType,
    RegFile,
    UPredType,
    same_register_classes,
)
from ori_dialect.ops.control import BraOp, BrxOp, CallIndirectOp, CallOp, ExitOp, PragmaOp, RetOp
from ori_dialect.ops.func import FuncOp
from ori_dialect.ops.module_vars import AddrOp
from ori_dialect.ops.special import UndefOp
from ori_dialect.ops.sync import BarOp, BarRedOp

if TYPE_CHECKING:
    from ori_dialect.interpreter.machine import Machine

_M64 = (1 << 64) - 1


def _zero_of(t: Attribute) -> Any:
    dt, shape = storage_of(t)
    return np.zeros(shape, dtype=dt) if shape else dt(0)


def _is_pred_slot(slot: Src) -> bool:
    return bool(slot.types) and all(t in (PredType, UPredType) for t in slot.types)


def schedule_order(cfg: CFG) -> list[int]:
    """The reachable blocks in reverse post-order with every natural loop's
    blocks contiguous and before the loop's exit blocks.

    Plain RPO may place a loop exit before blocks of the loop body; the
    scheduler runs the lowest position first, so a thread that left the loop
    would run ahead instead of waiting for the rest of its warp.  Here each
    loop is collapsed into one node while ordering its surroundings, then
    ordered recursively (back edges to its header ignored)."""
    if len(cfg.rpo) <= 1:
        return list(cfg.rpo)
    li = LoopInfo(cfg, DominatorTree(cfg))
    out: list[int] = []
    reachable = frozenset(cfg.rpo)

    def region(blocks: frozenset[int], entry: int, children: list[Loop], is_loop: bool) -> None:
        rep: dict[int, int] = {}
        child_at: dict[int, Loop] = {}
        for lp in children:
            child_at[lp.header] = lp
            for b in lp.blocks:
                rep[b] = lp.header

        def succs(node: int) -> list[int]:
            if node in child_at:
                targets = [e.dst for e in child_at[node].exit_edges]
            else:
                targets = list(cfg.succs[node])
            res: list[int] = []
            for t in targets:
                if t not in blocks or (is_loop and t == entry):
                    continue
                r = rep.get(t, t)
                if r != node and r not in res:
                    res.append(r)
            return res

        post: list[int] = []
        seen = {entry}
        stack = [(entry, iter(succs(entry)))]
        while stack:
            node, it = stack[-1]
            for nxt in it:
                if nxt not in seen:
                    seen.add(nxt)
                    stack.append((nxt, iter(succs(nxt))))
                    break
            else:
                stack.pop()
                post.append(node)
        for node in reversed(post):
            lp = child_at.get(node)
            if lp is None:
                out.append(node)
            else:
                region(lp.blocks, lp.header, lp.children, True)

    region(reachable, 0, li.top_level, False)
    if len(out) != len(reachable):  # irreducible leftovers: keep every block
        out += [b for b in cfg.rpo if b not in set(out)]
    return out


class Decoder:
    """Turns one ``ori.func`` into segments of closures for one launch."""

    def __init__(self, machine: Machine, func: FuncOp) -> None:
        self.m = machine
        self.func = func
        self.name = func.sym_name.data
        self.blocks: list[Block] = list(func.body.blocks)
        self.cfg = CFG(self.blocks)
        self.slot: dict[SSAValue, int] = {}
        self.storage: list[tuple[type[np.generic], tuple[int, ...]]] = []
        for b in self.blocks:
            for a in b.args:
                self._new_slot(a)
            for op in b.ops:
                for r in op.results:
                    self._new_slot(r)
        self.shadow: dict[int, int] = {}
        # accumulators an HGMMA may still be computing (uses checked: interpreter/gmma.py)
        self.acc_hazards = AccumulatorHazards(self, [op for b in self.blocks for op in b.ops])
        if machine.strict:
            self._track_undef()
        # segment numbering in loop-contiguous reverse post-order
        self.order = schedule_order(self.cfg)
        self.seg_start: dict[int, int] = {}
        n = 0
        for bi in self.order:
            self.seg_start[bi] = n
            n += 1 + sum(1 for op in self.blocks[bi].ops if _is_bar_sync(op))
        self.segments: list[Segment] = [None] * n  # type: ignore[list-item]
        self.terminal_segs = np.zeros(max(n, 1), dtype=bool)
        """Segments of blocks that only exit (interpreter/uniform_check.py)."""
        for bi in self.order:
            if is_terminal(self.blocks[bi]):
                self.terminal_segs[self.seg_start[bi]] = True
        for bi in self.order:
            self._decode_block(bi)
        self.entry_seg = self.seg_start[0]
        self.arg_slots = [self.slot[a] for a in self.blocks[0].args]
        self.ret_types = list(func.function_type.outputs.data)
        self.phys_layout: RegisterLayout | None = None
        """Each slot's physical register, in physical mode (:mod:`.physical`)."""

    # ---- slots ----------------------------------------------------------
    def _new_slot(self, v: SSAValue) -> None:
        self.slot[v] = len(self.storage)
        self.storage.append(storage_of(v.type))

    def _track_undef(self) -> None:
        tracked: set[SSAValue] = set()
        for b in self.blocks:
            for op in b.ops:
                # a callee save's source names the caller's register, not an
                # undefined value (regalloc/callee_saves.py)
                if isinstance(op, UndefOp) and "ori.abi_save" not in op.attributes:
                    tracked.update(op.results)
        changed = True
        while changed:
            changed = False
            for b in self.blocks:
                for op in b.ops:
                    pairs: list[tuple[SSAValue, SSAValue]] = []
                    if isinstance(op, BraOp):
                        pairs += zip(op.taken_args, op.taken.args)
                        if op.fallthrough is not None:
                            pairs += zip(op.fallthrough_args, op.fallthrough.args)
                    elif isinstance(op, OriInstruction):
                        pairs += zip(op.operand_groups()[2], op.results)
                    for s, d in pairs:
                        if s in tracked and d not in tracked:
                            tracked.add(d)
                            changed = True
        for v in sorted(tracked, key=lambda v: self.slot[v]):
            self.shadow[self.slot[v]] = len(self.storage)
            self.storage.append((np.bool_, ()))

    def terminal_pc(self, pcs: np.ndarray) -> np.ndarray:
        """Which of ``pcs`` are at a segment that only exits."""
        t = self.terminal_segs
        return (pcs < len(t)) & t[np.minimum(pcs, len(t) - 1)]

    def new_frame(self, n: int) -> Frame:
        if self.m.physical:
            if self.phys_layout is None:  # computed on first use: it may raise
                self.phys_layout = register_layout(self.name, self.slot, len(self.storage))
            return physical_frame(self.storage, self.phys_layout, n)
        return [np.zeros((n, *shape), dtype=dt) for dt, shape in self.storage]

    # ---- operands -------------------------------------------------------
    def const(self, op: Operation, slot: Src, v: Attribute) -> Any:
        """A constant operand materialised as the registry docstring says."""
        if isinstance(v, OriRegisterType):
            return np.True_ if isinstance(v, PredType | UPredType) else _zero_of(v)
        # the op states the width (docs/architecture.md "Op facts")
        bits = op.slot_bits(slot) if isinstance(op, OriInstruction) else 32
        if isinstance(v, IntegerAttr):
            x = v.value.data
            return np.uint64(x & _M64) if bits == 64 else np.uint32(x & 0xFFFFFFFF)
        if isinstance(v, FloatAttr):
            if slot.imm == "f64" or bits == 64:
                return np.uint64(struct.unpack("<Q", struct.pack("<d", v.value.data))[0])
            return np.uint32(struct.unpack("<I", struct.pack("<f", v.value.data))[0])
        if isinstance(v, CBankAttr):
            nb = 8 if bits == 64 else 4
            buf = self.m.bank(v.bank.data)
            off = v.offset.data
            if off + nb > len(buf):
                raise InterpreterError(
                    f"constant c[{v.bank.data:#x}][{off:#x}] lies outside the bank "
                    f"({len(buf)} bytes)"
                )
            raw = bytes(buf[off : off + nb])
            return np.uint64(int.from_bytes(raw, "little")) if nb == 8 else np.uint32(
                int.from_bytes(raw, "little")
            )
        raise InterpreterError(f"cannot materialise constant {v}")

    def sources(self, op: OriInstruction) -> dict[str, tuple[int, Any, bool]]:
        """Each present slot by name: (slot index or -1, constant, invert)."""
        out: dict[str, tuple[int, Any, bool]] = {}
        smods = op.smod_map()
        for slot, v in op.slot_values():
            inv = _is_pred_slot(slot) and "not" in smods.get(slot.name, "").split(".")
            if isinstance(v, SSAValue):
                out[slot.name] = (self.slot[v], None, inv)
            else:
                c = self.const(op, slot, v)
                if inv:
                    c = np.bool_(not c)
                out[slot.name] = (-1, c, False)
        return out

    # ---- blocks -----------------------------------------------------------
    def _decode_block(self, bi: int) -> None:
        block = self.blocks[bi]
        ops = list(block.ops)
        seg_id = self.seg_start[bi]
        cores: list[Core] = []
        infos: list[OpInfo] = []
        ops = [op for op in ops if not isinstance(op, PragmaOp)]  # markers, no code
        for i, op in enumerate(ops):
            info = OpInfo(self.name, bi, i, op)
            last = i == len(ops) - 1
            if last or _is_bar_sync(op):
                term = self._term(op, info, seg_id, len(cores))
                self.segments[seg_id] = Segment(cores, [*infos, info], term)
                seg_id += 1
                cores, infos = [], []
                continue
            cores.append(self._core(op, info, len(cores)))
            infos.append(info)

    def _core(self, op: Operation, info: OpInfo, k: int) -> Core:
        try:
            if not isinstance(op, OriInstruction):
                if isinstance(op, CallIndirectOp):
                    core = self.acc_hazards.uses(op.name, [op.target, *op.args],
                                                 list(op.res), self._call_indirect(op))
                    return self.strict_uses(op, [op.target, *op.args], core)
                if isinstance(op, CallOp):
                    core = self.acc_hazards.uses(op.name, list(op.args), list(op.res),
                                                 self._call(op))
                    return self.strict_uses(op, list(op.args), core)
                if isinstance(op, AddrOp):
                    return self._addr(op)
                raise InterpreterError(f"the interpreter has no semantics for {op.name}")
            core = self.acc_hazards.op(op, self._instruction(op, k))
            return self._wrap(op, core)
        except InterpreterError as e:
            return _raiser(str(e))
        except Exception as e:  # noqa: BLE001 -- malformed op: reported when executed
            return _raiser(f"cannot decode this op: {type(e).__name__}: {e}")

    def _wrap(self, op: OriInstruction, core: Core) -> Core:
        srcs, guard, prior = op.operand_groups()
        if guard is not None:
            core = self._guarded(op, core, guard, prior)
        uses = [*srcs, *([guard] if guard is not None else [])]
        core = self.strict_uses(op, uses, core)
        if needs_check(op):
            core = uniform_checked(self, op, core)
        return core

    def _guarded(self, op: OriInstruction, core: Core, guard: SSAValue,
                 prior: Sequence[SSAValue]) -> Core:
        gs = self.slot[guard]
        neg = "guard_neg" in op.properties
        pairs = [(self.slot[r], self.slot[p]) for r, p in zip(op.results, prior)]
        sh = self.shadow
        shadows: list[tuple[int, int]] = []  # (result shadow, prior shadow or -1)
        for r, p in zip(op.results, prior):
            rs = self.slot[r]
            if rs in sh:
                shadows.append((sh[rs], sh.get(self.slot[p], -1)))

        def guarded(frame: Frame, idx: np.ndarray) -> None:
            g = frame[gs][idx]
            if neg:
                g = ~g
            if g.all():
                core(frame, idx)
                for d, _ in shadows:
                    frame[d][idx] = False
                return
            for d, p in pairs:
                frame[d][idx] = frame[p][idx]
            for d, p in shadows:
                frame[d][idx] = frame[p][idx] if p >= 0 else False
            sub = idx[g]
            if len(sub):
                core(frame, sub)
                for d, _ in shadows:
                    frame[d][sub] = False

        return guarded

    def strict_uses(self, op: Operation, uses: Sequence[SSAValue], core: Core) -> Core:
        """``core`` preceded, in strict mode, by the check that none of ``uses``
        holds an undefined value for the executing lanes."""
        if not self.shadow:
            return core
        checks = [(k, self.shadow[self.slot[v]]) for k, v in enumerate(uses)
                  if self.slot.get(v, -1) in self.shadow]
        if not checks:
            return core

        def checked(frame: Frame, idx: np.ndarray) -> None:
            for k, s in checks:
                bad = frame[s][idx]
                if bad.any():
                    t = int(idx[int(np.flatnonzero(bad)[0])])
                    raise Fault(
                        f"use of an undefined value (from ori.undef) as operand #{k}",
                        thread=t,
                    )
            core(frame, idx)

        return checked

    # ---- instructions --------------------------------------------------------
    def _instruction(self, op: OriInstruction, k: int) -> Core:
        build = BUILDERS.get(type(op))
        if build is not None:
            return build(self, op, k)
        fn = compile_op(op)
        srcs = self.sources(op)
        spec = [(s, c) for s, c, _ in srcs.values()]
        invert = [i for i, (s, _, inv) in enumerate(srcs.values()) if inv]
        dsts = [self.slot[r] for r in op.results]
        if not invert and len(dsts) == 1:
            d = dsts[0]

            def run1(frame: Frame, idx: np.ndarray) -> None:
                frame[d][idx] = fn([frame[s][idx] if s >= 0 else c for s, c in spec], len(idx))[0]

            return run1

        def run(frame: Frame, idx: np.ndarray) -> None:
            vals = [frame[s][idx] if s >= 0 else c for s, c in spec]
            for i in invert:
                vals[i] = ~vals[i]
            res = fn(vals, len(idx))
            for dd, r in zip(dsts, res):
                frame[dd][idx] = r

        return run

    def _call(self, op: CallOp) -> Core:
        m = self.m
        callee = op.callee.root_reference.data
        args = [self.slot[a] for a in op.args]
        dsts = [self.slot[r] for r in op.res]
        if callee in m.runtime_funcs:
            return self._call_runtime(callee, args, dsts)
        if callee not in m.func_ops:
            raise InterpreterError(f"call to unknown function @{callee}")

        exited = m.exited
        clobber = self._clobber(dsts, op)
        out = op.stack_out()  # R1 moves down around the call (ops/control.py)

        def call(frame: Frame, idx: np.ndarray) -> None:
            m.sp[idx] -= out
            res = m.call(callee, idx, [frame[s][idx] for s in args],
                         getattr(frame, "r_file", None))
            m.sp[idx] += out
            clobber(frame, idx)
            for d, r in zip(dsts, res):
                frame[d][idx] = r
            if exited[idx].any():  # ``exit`` in the callee ended these threads
                raise ExitedInCall

        return call

    def _clobber(self, dsts: list[int], op: CallOp) -> Callable[[Frame, np.ndarray], None]:
        """Physical mode, in a function ``ori-abi`` lowered: after a call
        every register the callee may overwrite holds garbage -- the call's
        ``ori.abi_clobbers`` (what ``ori-regalloc`` recorded from the
        callees' allocation), else every scratch register of the caller's
        resolved ``abi`` -- so a value the allocator left there across the
        call is caught (seed 003 "Scratch Data Registers"), and every UR/UP
        register when the callee may write the uniform file; the call's
        results are written afterwards."""
        func = self.func
        abi = getattr(func, "abi", None)
        done = func.attributes.get("ori.abi_resolved")
        if not self.m.physical or abi is None or not (
                isinstance(done, IntegerAttr) and done.value.data == 1):
            return lambda frame, idx: None
        scratch = abi.fields().scratch or {}
        masks = op.attributes.get("ori.abi_clobbers")
        if isinstance(masks, ArrayAttr) and len(masks.data) == 2:
            bits = [m.data for m in masks.data]  # type: ignore[union-attr]
            scratch = {f: frozenset(i for i in range(b.bit_length()) if b >> i & 1)
                       for f, b in zip((RegFile.R, RegFile.P), bits)}
        if self.m.uniform_writers().may_write(op):
            # a callee that may write UR/UP: the caller's uniform values are
            # garbage after the call too (ori_dialect/ops/uniform_calls.py)
            scratch = {**scratch, RegFile.UR: frozenset(range(64)),
                       RegFile.UP: frozenset(range(8))}
        keep = set(dsts)
        todo: dict[tuple[object, int, int], tuple[int, list[int]]] = {}

        def pick(frame: Frame) -> list[tuple[int, list[int]]]:
            if self.phys_layout is None:
                return []
            for s, loc in enumerate(self.phys_layout):
                if loc is None or s in keep:
                    continue
                file, base, bits = loc
                regs = scratch.get(file, frozenset())
                # the columns of a quad or tuple slot that are scratch (a
                # tuple may reach into the preserved registers)
                cols = [i for i in range(max(bits // 32, 1)) if base + i in regs]
                if cols:
                    todo.setdefault((file, base, bits), (s, cols))
            return list(todo.values())

        slots: list[tuple[int, list[int]]] | None = None

        def clobber(frame: Frame, idx: np.ndarray) -> None:
            nonlocal slots
            if slots is None:
                slots = pick(frame)
            for s, cols in slots:
                a = frame[s]
                if a.dtype == np.bool_:
                    a[idx] = ~a[idx]
                elif a.ndim == 2:  # a quad or tuple: (threads, registers)
                    a[np.ix_(idx, cols)] = np.uint32(0xDEADBEEF)
                elif a.dtype == np.uint64 and cols != [0, 1]:
                    # a pair with one half clobbered (a callee's clobber set
                    # need not cover whole pairs): only that half
                    keep_bits = np.uint64(0xFFFFFFFF00000000 if cols == [0] else 0xFFFFFFFF)
                    a[idx] = (a[idx] & keep_bits) | (np.uint64(0xDEADBEEFDEADBEEF) & ~keep_bits)
                else:
                    a[idx] = np.array(0xDEADBEEFDEADBEEF).astype(a.dtype)
        return clobber

    def _call_runtime(self, callee: str, args: list[int], dsts: list[int]) -> Core:
        """A call to a CUDA device-runtime function (``ori.runtime_func``): its
        Python implementation in :mod:`.device_runtime`."""
        m = self.m
        impl = RUNTIME_IMPLS.get(callee)
        if impl is None:
            raise InterpreterError(f"the device runtime function @{callee} is not supported")

        def call(frame: Frame, idx: np.ndarray) -> None:
            res = impl(m, idx, [frame[s][idx] for s in args])
            for d, r in zip(dsts, res):
                frame[d][idx] = r

        return call

    def _addr(self, op: AddrOp) -> Core:
        d = self.slot[op.res]
        m = self.m
        name = op.symbol_name
        m.symbol_address(name)  # an unknown symbol fails when executed, via _core

        def addr(frame: Frame, idx: np.ndarray) -> None:
            frame[d][idx] = np.uint64(m.symbol_address(name))

        return addr

    def _call_indirect(self, op: CallIndirectOp) -> Core:
        """A call through a code address (:data:`.memory.CODE_BASE`): the lanes
        are grouped by target and each group calls its function; a value that
        is no function's address, or a function whose parameters differ from
        the call's prototype, is an error."""
        m = self.m
        ts = self.slot[op.target]
        args = [self.slot[a] for a in op.args]
        dsts = [self.slot[r] for r in op.res]
        arg_types = [a.type for a in op.args]
        res_types = [r.type for r in op.res]
        sizes = (None if op.params is None else [p.size.data for p in op.params.data],
                 None if op.returns is None else [p.size.data for p in op.returns.data])
        checked: set[str] = set()
        clobber = self._clobber(dsts, op)
        out = op.stack_out()

        def check(name: str) -> None:
            f = m.func_ops[name]
            ft = f.function_type
            if f.is_kernel:
                raise InterpreterError(f"indirect call to kernel entry @{name}")
            ok = same_register_classes(ft.inputs.data, arg_types) and same_register_classes(
                ft.outputs.data, res_types)
            for want, have in zip(sizes, (f.params, f.returns)):
                if ok and want is not None and have is not None:
                    ok = want == [p.size.data for p in have.data]
            if not ok:
                raise InterpreterError(
                    f"indirect call to @{name}, whose type {ft} does not match the call's "
                    f"prototype ({', '.join(map(str, arg_types))}) -> "
                    f"({', '.join(map(str, res_types))})")
            checked.add(name)

        def call(frame: Frame, idx: np.ndarray) -> None:
            tv = frame[ts][idx]
            for t in np.unique(tv):
                name = m.function_at(int(t))
                if name not in checked:
                    check(name)
                sub = idx[tv == t]
                m.sp[sub] -= out
                res = m.call(name, sub, [frame[s][sub] for s in args],
                             getattr(frame, "r_file", None))
                m.sp[sub] += out
                clobber(frame, sub)
                for d, r in zip(dsts, res):
                    frame[d][sub] = r

        return call

    # ---- terminators ------------------------------------------------------------
    def _edge(self, branch: Operation, args: Sequence[SSAValue], dest: Block) -> Core | None:
        return self.acc_hazards.edge(branch, args, dest, self._edge_copy(args, dest))

    def _edge_copy(self, args: Sequence[SSAValue], dest: Block) -> Core | None:
        pairs = [(self.slot[d], self.slot[s]) for s, d in zip(args, dest.args)]
        sh = self.shadow
        for s, d in zip(args, dest.args):
            ds = self.slot[d]
            if ds in sh:
                ss = self.slot[s]
                pairs.append((sh[ds], sh.get(ss, -1)))
        if not pairs:
            return None
        dsts = [d for d, _ in pairs]
        srcs = [s for _, s in pairs]

        def copy(frame: Frame, lanes: np.ndarray) -> None:
            vals = [frame[s][lanes] if s >= 0 else False for s in srcs]
            for d, v in zip(dsts, vals):
                frame[d][lanes] = v

        return copy

    def _term(self, op: Operation, info: OpInfo, seg_id: int, k: int) -> Term:
        try:
            return self._term_inner(op, info, seg_id, k)
        except Exception as e:  # noqa: BLE001 -- reported when executed
            r = _raiser(str(e) if isinstance(e, InterpreterError)
                        else f"cannot decode this op: {type(e).__name__}: {e}")

            def bad(act: Activation, idx: np.ndarray) -> None:
                r(act.frame, idx)

            return bad

    def _term_inner(self, op: Operation, info: OpInfo, seg_id: int, k: int) -> Term:
        m = self.m
        if isinstance(op, BraOp):
            t0 = self.seg_start[self.cfg.index[op.taken]]
            c0 = self._edge(op, op.taken_args, op.taken)
            if op.guard is None:
                def jump(act: Activation, idx: np.ndarray) -> None:
                    if c0 is not None:
                        c0(act.frame, idx)
                    act.pc[idx] = t0

                return jump
            assert op.fallthrough is not None
            t1 = self.seg_start[self.cfg.index[op.fallthrough]]
            c1 = self._edge(op, op.fallthrough_args, op.fallthrough)
            gs = self.slot[op.guard]
            neg = op.guard_neg is not None
            gcheck = self.strict_uses(op, [op.guard], nothing)

            def branch(act: Activation, idx: np.ndarray) -> None:
                frame = act.frame
                gcheck(frame, idx)
                g = frame[gs][idx]
                if neg:
                    g = ~g
                if g.all():
                    if c0 is not None:
                        c0(frame, idx)
                    act.pc[idx] = t0
                    return
                t = idx[g]
                f = idx[~g]
                if len(t):
                    if c0 is not None:
                        c0(frame, t)
                    act.pc[t] = t0
                if c1 is not None:
                    c1(frame, f)
                act.pc[f] = t1

            return branch
        if isinstance(op, BrxOp):
            return self._brx(op)
        if isinstance(op, ExitOp):
            # In a device function too: the thread ends, and the machine drops
            # it from its callers (``ExitedInCall``).
            def exit_(act: Activation, idx: np.ndarray) -> None:
                m.exited[idx] = True
                act.pc[idx] = INF

            return exit_
        if isinstance(op, RetOp):
            vals = [self.slot[v] for v in op.values]
            check = self.strict_uses(op, list(op.values),
                                     self.acc_hazards.uses(op.name, list(op.values), [], nothing))

            def ret(act: Activation, idx: np.ndarray) -> None:
                check(act.frame, idx)
                for r, s in zip(act.ret, vals):
                    r[idx] = act.frame[s][idx]
                act.pc[idx] = INF

            return ret
        if isinstance(op, BarOp):
            return bar_sync_term(self, op, seg_id)
        if isinstance(op, BarRedOp):
            return bar_red_term(self, op, seg_id)
        raise InterpreterError(f"the interpreter has no semantics for terminator {op.name}")


    def _brx(self, op: BrxOp) -> Term:
        """BRX: each thread goes to ``targets[index]`` (no edge arguments)."""
        segs = np.array([self.seg_start[self.cfg.index[t]] for t in op.targets], dtype=np.int64)
        n = len(segs)
        xs = self.slot[op.index]
        check = self.strict_uses(op, [op.index],
                                 self.acc_hazards.uses(op.name, [op.index], [], nothing))

        def brx(act: Activation, idx: np.ndarray) -> None:
            check(act.frame, idx)
            i = act.frame[xs][idx].astype(np.int64)
            bad = i >= n
            if bad.any():
                j = int(np.flatnonzero(bad)[0])
                raise Fault(
                    f"BRX index {int(i[j])} is outside its {n}-entry target list "
                    "(undefined in the PTX ISA)",
                    thread=int(idx[j]),
                )
            act.pc[idx] = segs[i]

        return brx


def _raiser(message: str) -> Core:
    def fail(frame: Frame, idx: np.ndarray) -> None:
        raise InterpreterError(message)

    return fail


def _is_bar_sync(op: Operation) -> bool:
    return (isinstance(op, BarOp) and op.mod("mode") == "sync") or isinstance(op, BarRedOp)


__all__ = ["Decoder", "schedule_order"]
