"""The CTA machine: decoding functions into closures and running them.

See the package docstring for the design.  Names used here:

* a *lane* is a thread of the CTA, by its linear index ``x + y*bx + z*bx*by``;
* ``idx`` is the sorted int array of the lanes executing one step;
* a *frame* is a list of CTA-sized numpy arrays, one per SSA value (plus
  undef shadows in strict mode) of one function activation;
* a *segment* is a run of a block's instructions ending at its terminator or
  at a ``BAR.SYNC`` (where threads may have to wait).  Segments are numbered
  in reverse post-order of their blocks; a thread's ``pc`` is its segment.
"""

from __future__ import annotations

import struct
from collections.abc import Callable, Sequence
from dataclasses import dataclass
from typing import Any

import numpy as np
from xdsl.dialects.builtin import FloatAttr, IntegerAttr, ModuleOp, StringAttr
from xdsl.ir import Attribute, Block, Operation, SSAValue

from ori_dialect.analysis.cfg import CFG
from ori_dialect.interpreter import memory as mem
from ori_dialect.interpreter.memory import Fault, GlobalMemory
from ori_dialect.interpreter.semantics.registry import InterpreterError, compile_op
from ori_dialect.ir.attrs import CBankAttr
from ori_dialect.ir.instruction import OriInstruction, Src
from ori_dialect.ir.metadata import MemSpace
from ori_dialect.ir.registers import OriRegisterType, PredType, UPredType
from ori_dialect.ops.control import BraOp, CallOp, ExitOp, PragmaOp, RetOp
from ori_dialect.ops.func import FuncOp
from ori_dialect.ops.special import UndefOp
from ori_dialect.ops.sync import BarOp

INF = 1 << 30
"""``pc`` of a thread that is not runnable (exited, returned or waiting)."""
MAX_CALL_DEPTH = 64
GLOBALTIMER_NS_PER_INSTRUCTION = 1000
"""``SR_GLOBALTIMER`` = executed instructions x this (a 1 GHz clock at 1 IPC ~ 1 ns;
scaled so that timer differences look like nanoseconds of a slow machine)."""

Frame = list[np.ndarray]
Core = Callable[[Frame, np.ndarray], None]
Term = Callable[["Activation", np.ndarray], None]

_M64 = (1 << 64) - 1


class LocatedError(InterpreterError):
    """An ``InterpreterError`` that already names its instruction and thread."""


@dataclass(frozen=True, slots=True)
class OpInfo:
    """Where an op sits, for messages."""

    func: str
    block: int
    index: int
    op: Operation

    def describe(self) -> str:
        text = str(self.op).strip().splitlines()[0] if self.op is not None else "?"
        if len(text) > 160:
            text = text[:157] + "..."
        return f"@{self.func} block {self.block} op {self.index} `{text}`"


class Segment:
    __slots__ = ("cost", "infos", "ops", "term")

    def __init__(self, ops: list[Core], infos: list[OpInfo], term: Term) -> None:
        self.ops = ops
        self.infos = infos  # one per op plus the terminator's
        self.term = term
        self.cost = len(ops) + 1


def _storage(t: Attribute) -> tuple[type[np.generic], tuple[int, ...]]:
    if isinstance(t, PredType | UPredType):
        return np.bool_, ()
    bits = t.BITS if isinstance(t, OriRegisterType) else 32
    if bits == 64:
        return np.uint64, ()
    if bits == 128:
        return np.uint32, (4,)
    return np.uint32, ()


def _zero_of(t: Attribute) -> Any:
    dt, shape = _storage(t)
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
    from ori_dialect.analysis.dominators import DominatorTree
    from ori_dialect.analysis.loops import Loop, LoopInfo

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
        for bi in self.order:
            self._decode_block(bi)
        self.entry_seg = self.seg_start[0]
        self.arg_slots = [self.slot[a] for a in self.blocks[0].args]
        self.ret_types = list(func.function_type.outputs.data)

    # ---- slots ----------------------------------------------------------
    def _new_slot(self, v: SSAValue) -> None:
        self.slot[v] = len(self.storage)
        self.storage.append(_storage(v.type))

    def _track_undef(self) -> None:
        tracked: set[SSAValue] = set()
        for b in self.blocks:
            for op in b.ops:
                if isinstance(op, UndefOp):
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

    def new_frame(self, n: int) -> Frame:
        if self.m.physical:
            from ori_dialect.interpreter.physical import physical_frame

            return physical_frame(self, n)
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
                if isinstance(op, CallOp):
                    core = self._call(op)
                    return self._strict_uses(op, list(op.args), core)
                raise InterpreterError(f"the interpreter has no semantics for {op.name}")
            core = self._instruction(op, k)
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
        return self._strict_uses(op, uses, core)

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

    def _strict_uses(self, op: Operation, uses: Sequence[SSAValue], core: Core) -> Core:
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
        from ori_dialect.interpreter import builtins

        build = builtins.BUILDERS.get(type(op))
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
        if callee not in m.func_ops:
            raise InterpreterError(f"call to unknown function @{callee}")
        args = [self.slot[a] for a in op.args]
        dsts = [self.slot[r] for r in op.res]

        def call(frame: Frame, idx: np.ndarray) -> None:
            res = m.call(callee, idx, [frame[s][idx] for s in args])
            for d, r in zip(dsts, res):
                frame[d][idx] = r

        return call

    # ---- terminators ------------------------------------------------------------
    def _edge(self, args: Sequence[SSAValue], dest: Block) -> Core | None:
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
            c0 = self._edge(op.taken_args, op.taken)
            if op.guard is None:
                def jump(act: Activation, idx: np.ndarray) -> None:
                    if c0 is not None:
                        c0(act.frame, idx)
                    act.pc[idx] = t0

                return jump
            assert op.fallthrough is not None
            t1 = self.seg_start[self.cfg.index[op.fallthrough]]
            c1 = self._edge(op.fallthrough_args, op.fallthrough)
            gs = self.slot[op.guard]
            neg = op.guard_neg is not None
            gcheck = self._strict_uses(op, [op.guard], _nothing)

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
        if isinstance(op, ExitOp):
            if not self.func.is_kernel:
                raise InterpreterError("ori.exit in a device function is not supported")

            def exit_(act: Activation, idx: np.ndarray) -> None:
                m.exited[idx] = True
                act.pc[idx] = INF

            return exit_
        if isinstance(op, RetOp):
            vals = [self.slot[v] for v in op.values]
            check = self._strict_uses(op, list(op.values), _nothing)

            def ret(act: Activation, idx: np.ndarray) -> None:
                check(act.frame, idx)
                for r, s in zip(act.ret, vals):
                    r[idx] = act.frame[s][idx]
                act.pc[idx] = INF

            return ret
        if isinstance(op, BarOp):
            from ori_dialect.interpreter.builtins import bar_sync_term

            return bar_sync_term(self, op, seg_id)
        raise InterpreterError(f"the interpreter has no semantics for terminator {op.name}")


def _nothing(frame: Frame, idx: np.ndarray) -> None:
    return None


def _raiser(message: str) -> Core:
    def fail(frame: Frame, idx: np.ndarray) -> None:
        raise InterpreterError(message)

    return fail


def _is_bar_sync(op: Operation) -> bool:
    return isinstance(op, BarOp) and op.mod("mode") == "sync"


class Activation:
    """One running function instance: its frame and per-thread position."""

    __slots__ = ("dec", "frame", "pc", "ret", "wait_bar", "wait_count", "wait_site")

    def __init__(self, dec: Decoder, n: int) -> None:
        self.dec = dec
        self.frame = dec.new_frame(n)
        self.pc = np.full(n, INF, dtype=np.int64)
        self.wait_bar = np.full(n, -1, dtype=np.int64)
        self.wait_count = np.full(n, -1, dtype=np.int64)
        self.wait_site = np.full(n, -1, dtype=np.int64)
        self.ret = [np.zeros((n, *_storage(t)[1]), dtype=_storage(t)[0]) for t in dec.ret_types]


class Machine:
    """Runs the CTAs of one kernel launch (see the package docstring)."""

    def __init__(
        self,
        module: ModuleOp,
        block: tuple[int, int, int],
        grid: tuple[int, int, int],
        *,
        target: str,
        strict: bool = False,
        max_steps: int = 50_000_000,
        shared_bytes: int = 0,
        local_bytes: int = 64 * 1024,
        const_banks: dict[int, bytes] | None = None,
        max_warps_per_sm: int = 64,
        physical: bool = False,
    ) -> None:
        self.module = module
        self.physical = physical
        """Store values by physical register (see :mod:`.physical`)."""
        self.target = target
        self.strict = strict
        self.max_steps = max_steps
        self.steps = 0
        self.block = block
        self.grid = grid
        self.n = block[0] * block[1] * block[2]
        self.shared_bytes = shared_bytes
        self.local_bytes = -(-local_bytes // 16) * 16
        self.global_mem = GlobalMemory()
        self.banks: dict[int, np.ndarray] = {}
        self._bank_sizes: dict[int, int] = {}
        for b, data in (const_banks or {}).items():
            self.set_bank(b, data)
        if 0 not in self.banks:
            self.set_bank(0, bytes(mem.CBANK_SIZE))
        self.nwarpid = max_warps_per_sm
        self.func_ops: dict[str, FuncOp] = {}
        for op in module.walk():
            if isinstance(op, FuncOp):
                self.func_ops[op.sym_name.data] = op
        self.decoded: dict[str, Decoder] = {}
        self.pool: dict[tuple[str, int], Activation] = {}
        self.depth = 0
        # thread geometry
        lin = np.arange(self.n, dtype=np.int64)
        bx, by, _ = block
        self.tid = (
            (lin % bx).astype(np.uint32),
            ((lin // bx) % by).astype(np.uint32),
            (lin // (bx * by)).astype(np.uint32),
        )
        lane = (lin & 31).astype(np.uint32)
        self.laneid = lane
        self.warpid = (lin >> 5).astype(np.uint32)
        one = np.uint64(1)
        lt = ((one << lane.astype(np.uint64)) - one).astype(np.uint32)
        le = ((one << (lane.astype(np.uint64) + one)) - one).astype(np.uint32)
        self.lanemask = {
            "SR_EQMASK": (one << lane.astype(np.uint64)).astype(np.uint32),
            "SR_LTMASK": lt,
            "SR_LEMASK": le,
            "SR_GTMASK": ~le,
            "SR_GEMASK": ~lt,
        }
        # per-CTA state
        self.ctaid = (0, 0, 0)
        self.exited = np.zeros(self.n, dtype=bool)
        self.icount = np.zeros(self.n, dtype=np.uint64)
        self.shared = np.zeros(0, dtype=np.uint8)
        self._local: np.ndarray | None = None
        self.bar_arrived = [0] * 16

    # ---- memories ------------------------------------------------------------
    def set_bank(self, b: int, data: bytes) -> None:
        if not 0 <= b < 18:
            raise InterpreterError(f"constant bank {b} out of range 0..17")
        if len(data) > mem.CBANK_SIZE:
            raise InterpreterError(f"constant bank {b} is larger than 64 KiB")
        buf = np.zeros(max(16, -(-len(data) // 16) * 16), dtype=np.uint8)
        buf[: len(data)] = np.frombuffer(bytes(data), dtype=np.uint8)
        self.banks[b] = buf
        self._bank_sizes[b] = len(data)

    def bank(self, b: int) -> np.ndarray:
        buf = self.banks.get(b)
        if buf is None:
            raise InterpreterError(
                f"constant bank {b} is not provided (pass const_banks={{{b}: ...}} to run_kernel)"
            )
        return buf[: self._bank_sizes[b]]

    @property
    def local(self) -> np.ndarray:
        if self._local is None:
            self._local = np.zeros(self.n * self.local_bytes, dtype=np.uint8)
        return self._local

    def resolve(self, space: MemSpace, a: np.ndarray, lanes: np.ndarray, nb: int,
                what: str) -> list[mem.Group]:
        """Byte buffers and offsets of the addresses ``a`` (int64) of ``lanes``."""
        try:
            return self._resolve(space, a, lanes, nb, what)
        except Fault as e:
            if e.thread is None and e.position is not None:
                e.thread = int(lanes[e.position])
            raise

    def _resolve(self, space: MemSpace, a: np.ndarray, lanes: np.ndarray, nb: int,
                 what: str) -> list[mem.Group]:
        if space is MemSpace.GLOBAL:
            mem.check_align(a, nb, f"global {what}")
            return self.global_mem.resolve(a, nb, f"global {what}")
        if space is MemSpace.SHARED:
            mem.check_align(a, nb, f"shared {what}")
            mem.check_window(a, nb, self.shared_bytes, f"shared {what}", "shared")
            return [(None, self.shared, a)]
        if space is MemSpace.LOCAL:
            mem.check_align(a, nb, f"local {what}")
            mem.check_window(a, nb, self.local_bytes, f"local {what}", "local")
            return [(None, self.local, lanes * self.local_bytes + a)]
        # generic: split into the windows
        sh = (a >= mem.SHARED_WINDOW) & (a < mem.SHARED_WINDOW + mem.WINDOW_SIZE)
        lo = (a >= mem.LOCAL_WINDOW) & (a < mem.LOCAL_WINDOW + mem.WINDOW_SIZE)
        other = ~(sh | lo)
        if other.all():
            return self._resolve(MemSpace.GLOBAL, a, lanes, nb, what)
        groups: list[mem.Group] = []
        for mask, sp, base in ((other, MemSpace.GLOBAL, 0),
                               (sh, MemSpace.SHARED, mem.SHARED_WINDOW),
                               (lo, MemSpace.LOCAL, mem.LOCAL_WINDOW)):
            pos = np.flatnonzero(mask)
            if not len(pos):
                continue
            try:
                sub = self._resolve(sp, a[pos] - base, lanes[pos], nb, what)
            except Fault as e:
                if e.position is not None:
                    e.position = int(pos[e.position])
                raise
            for p, buf, offs in sub:
                groups.append((pos if p is None else pos[p], buf, offs))
        return groups

    def load(self, space: MemSpace, a: np.ndarray, lanes: np.ndarray, width: str) -> np.ndarray:
        groups = self.resolve(space, a, lanes, mem.WIDTH_BYTES[width], "load")
        if len(groups) == 1 and groups[0][0] is None:
            return mem.load(groups[0][1], groups[0][2], width)
        out = mem.empty_like_width(len(a), width)
        for pos, buf, offs in groups:
            out[pos] = mem.load(buf, offs, width)
        return out

    def store(self, space: MemSpace, a: np.ndarray, lanes: np.ndarray, width: str,
              vals: np.ndarray) -> None:
        groups = self.resolve(space, a, lanes, mem.WIDTH_BYTES[width], "store")
        for pos, buf, offs in groups:
            mem.store(buf, offs, width, vals if pos is None else vals[pos])

    def atomic(self, space: MemSpace, a: np.ndarray, lanes: np.ndarray, op: str, ty: str,
               b: np.ndarray, c: np.ndarray | None) -> np.ndarray:
        nb = 8 if ty.endswith("64") else 4
        groups = self.resolve(space, a, lanes, nb, f"atomic {op}.{ty}")
        out = np.zeros(len(a), dtype=np.uint64 if nb == 8 else np.uint32)
        for pos, buf, offs in groups:
            if pos is None:
                out[:] = mem.atomic(buf, offs, op, ty, b, c)
            else:
                out[pos] = mem.atomic(buf, offs, op, ty, b[pos],
                                      None if c is None else c[pos])
        return out

    # ---- decoding -----------------------------------------------------------------
    def decoder(self, name: str) -> Decoder:
        dec = self.decoded.get(name)
        if dec is None:
            func = self.func_ops.get(name)
            if func is None:
                raise InterpreterError(f"no ori.func named @{name}")
            dec = Decoder(self, func)
            self.decoded[name] = dec
        return dec

    def activation(self, name: str) -> Activation:
        key = (name, self.depth)
        act = self.pool.get(key)
        if act is None:
            act = Activation(self.decoder(name), self.n)
            self.pool[key] = act
        return act

    # ---- running ------------------------------------------------------------------
    def run_grid(self, kernel: str) -> None:
        gx, gy, gz = self.grid
        dec = self.decoder(kernel)
        for name in self.func_ops:  # decode everything up front (clock tracking)
            self.decoder(name)
        del dec
        for z in range(gz):
            for y in range(gy):
                for x in range(gx):
                    self.run_cta(kernel, (x, y, z))

    def run_cta(self, kernel: str, ctaid: tuple[int, int, int]) -> None:
        self.ctaid = ctaid
        self.exited[:] = False
        self.icount[:] = 0
        self.shared = np.zeros(max(16, -(-self.shared_bytes // 16) * 16), dtype=np.uint8)
        self._local = None
        self.bar_arrived = [0] * 16
        self.depth = 0
        act = self.activation(kernel)
        act.pc[:] = act.dec.entry_seg
        act.wait_bar[:] = -1
        self.run(act)

    def call(self, name: str, idx: np.ndarray, args: list[np.ndarray]) -> list[np.ndarray]:
        if self.depth + 1 > MAX_CALL_DEPTH:
            raise InterpreterError(
                f"call depth limit {MAX_CALL_DEPTH} exceeded calling @{name} "
                "(unbounded recursion?)"
            )
        self.depth += 1
        try:
            act = self.activation(name)
            dec = act.dec
            if len(args) != len(dec.arg_slots):
                raise InterpreterError(f"@{name} takes {len(dec.arg_slots)} arguments")
            for s, v in zip(dec.arg_slots, args):
                act.frame[s][idx] = v
            act.pc[:] = INF
            act.wait_bar[:] = -1
            act.pc[idx] = dec.entry_seg
            self.run(act)
            return [r[idx] for r in act.ret]
        finally:
            self.depth -= 1

    def run(self, act: Activation) -> None:
        """Run ``act`` until all its threads returned or exited."""
        pc = act.pc
        segs = act.dec.segments
        frame = act.frame
        icount = self.icount
        while True:
            cur = int(pc.min())
            if cur >= INF:
                if self._idle(act):
                    continue
                return
            idx = np.flatnonzero(pc == cur)
            seg = segs[cur]
            self.steps += seg.cost * len(idx)
            if self.steps > self.max_steps:
                raise self.error(
                    seg.infos[0], idx,
                    f"step limit of {self.max_steps} thread-instructions exceeded "
                    "(an endless loop? raise max_steps)",
                )
            k = 0
            try:
                for fn in seg.ops:
                    fn(frame, idx)
                    k += 1
                seg.term(act, idx)
            except LocatedError:
                raise
            except Fault as e:
                raise self.error(seg.infos[k], idx if e.thread is None else e.thread,
                                 e.message) from None
            except InterpreterError as e:
                raise self.error(seg.infos[k], idx, str(e)) from None
            except Exception as e:  # never let a bare numpy/Python error escape
                raise self.error(seg.infos[k], idx,
                                 f"internal error: {type(e).__name__}: {e}") from e
            icount[idx] += np.uint64(seg.cost)

    # ---- barriers ----------------------------------------------------------------
    def bar_arrive(self, act: Activation, lanes: np.ndarray, bar: int, count: int,
                   site: int) -> None:
        act.pc[lanes] = INF
        act.wait_bar[lanes] = bar
        act.wait_count[lanes] = count
        act.wait_site[lanes] = site
        self.bar_arrived[bar] += len(lanes)
        self._try_release(act, bar)

    def bar_arv(self, bar: int, count: int, lanes: np.ndarray) -> None:
        self.bar_arrived[bar] += len(lanes)
        del count  # checked against the waiting side when it syncs

    def _try_release(self, act: Activation, bar: int) -> bool:
        waiting = np.flatnonzero(act.wait_bar == bar)
        if not len(waiting):
            return False
        counts = act.wait_count[waiting]
        if (counts >= 0).any():
            expected = int(counts.max())
            if self.bar_arrived[bar] < expected:
                return False
            self.bar_arrived[bar] -= expected
        else:
            live = self.n - int(self.exited.sum())
            if len(waiting) != live:
                return False
            sites = act.wait_site[waiting]
            if (sites != sites[0]).any():
                other = waiting[sites != sites[0]]
                first = waiting[sites == sites[0]]
                seg = act.dec.segments[int(sites[0])]
                oseg = act.dec.segments[int(act.wait_site[other[0]])]
                raise self.error(
                    seg.infos[-1], first,
                    f"barrier reached by only part of the CTA: barrier {bar} here is reached "
                    f"by {len(first)} thread(s), but {self.threads(other)} wait on barrier "
                    f"{bar} at a different instruction, {oseg.infos[-1].describe()} "
                    "(threads diverged around a barrier)",
                )
            self.bar_arrived[bar] = 0
        act.pc[waiting] = act.wait_site[waiting] + 1
        act.wait_bar[waiting] = -1
        return True

    def _idle(self, act: Activation) -> bool:
        """No runnable thread: release a barrier or report the deadlock."""
        waiting_mask = act.wait_bar >= 0
        if not waiting_mask.any():
            return False
        bars = np.unique(act.wait_bar[waiting_mask])
        for b in bars:
            if self._try_release(act, int(b)):
                return True
        b = int(bars[0])
        here = np.flatnonzero(act.wait_bar == b)
        seg = act.dec.segments[int(act.wait_site[here[0]])]
        counts = act.wait_count[here]
        if (counts >= 0).any():
            raise self.error(
                seg.infos[-1], here,
                f"barrier reached by only part of the CTA: barrier {b} expects "
                f"{int(counts.max())} threads, only {self.bar_arrived[b]} arrived and no "
                "other thread can run",
            )
        missing = np.flatnonzero(~self.exited & (act.wait_bar != b))
        parts = []
        for t in missing[:6]:
            wb = int(act.wait_bar[t])
            if wb >= 0:
                ws = act.dec.segments[int(act.wait_site[t])].infos[-1]
                parts.append(f"{self.thread(int(t))} waits on barrier {wb} at {ws.describe()}")
            else:
                parts.append(f"{self.thread(int(t))} is outside this call (in a caller)")
        more = f" and {len(missing) - 6} more" if len(missing) > 6 else ""
        raise self.error(
            seg.infos[-1], here,
            f"barrier reached by only part of the CTA: barrier {b} is reached by "
            f"{len(here)} of {self.n - int(self.exited.sum())} non-exited threads; "
            f"missing: {'; '.join(parts)}{more}",
        )

    # ---- messages -----------------------------------------------------------------
    def thread(self, t: int) -> str:
        bx, by, _ = self.block
        cx, cy, cz = self.ctaid
        return (f"thread ctaid ({cx},{cy},{cz}) tid ({t % bx},{(t // bx) % by},"
                f"{t // (bx * by)})")

    def threads(self, lanes: np.ndarray) -> str:
        if len(lanes) == 1:
            return self.thread(int(lanes[0]))
        return f"{len(lanes)} threads ({self.thread(int(lanes[0]))}, ...)"

    def error(self, info: OpInfo, who: np.ndarray | int, message: str) -> LocatedError:
        if isinstance(who, int | np.integer):
            whom = self.thread(int(who))
        else:
            whom = self.thread(int(who[0]))
            if len(who) > 1:
                whom += f" (and {len(who) - 1} other threads executing together)"
        return LocatedError(f"in {info.describe()}: {whom}: {message}")


def kernel_target(module: ModuleOp, target: str | None) -> str:
    if target is not None:
        return target
    t = module.attributes.get("ori.target")
    return t.data if isinstance(t, StringAttr) else "sm_80"


__all__ = [
    "INF",
    "MAX_CALL_DEPTH",
    "Activation",
    "Decoder",
    "LocatedError",
    "Machine",
    "OpInfo",
    "Segment",
]
