"""The CTA machine: runs the segments the decoder built.

See the package docstring for the design.  :class:`Machine` holds one
launch's state -- thread geometry, memories, constant banks, barriers, the
decoded functions (:mod:`.decoder`) and the pool of activations
(:mod:`.frame`) -- and schedules the threads: it repeatedly runs the lowest
segment any runnable thread is at, for all threads there, and turns every
failure into an error naming the instruction and the thread.
"""

from __future__ import annotations

import numpy as np
from xdsl.dialects.builtin import IntegerAttr, ModuleOp, StringAttr

from ori_dialect.interpreter import memory as mem
from ori_dialect.interpreter.builtins import BAR_RED_OPS
from ori_dialect.interpreter.decoder import Decoder
from ori_dialect.interpreter.device_runtime import DEFAULT_HEAP_BYTES, DeviceHeap
from ori_dialect.interpreter.frame import INF, Activation, ExitedInCall, OpInfo, Segment
from ori_dialect.interpreter.gmma import GmmaGroups
from ori_dialect.interpreter.memory import Fault, GlobalMemory
from ori_dialect.interpreter.physical import shared_preserved
from ori_dialect.interpreter.semantics.registry import InterpreterError
from ori_dialect.interpreter.tensor import AsyncCopies
from ori_dialect.interpreter.texture import Texture
from ori_dialect.ir.metadata import MemSpace
from ori_dialect.ops.func import FuncOp, RuntimeFuncOp
from ori_dialect.ops.uniform_calls import UniformWriters

MAX_CALL_DEPTH = 64
_M32 = np.int64(0xFFFFFFFF)


class LocatedError(InterpreterError):
    """An ``InterpreterError`` that already names its instruction and thread."""


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
        heap_bytes: int = DEFAULT_HEAP_BYTES,
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
        self.runtime_funcs: set[str] = set()
        """The module's ``ori.runtime_func`` declarations (:mod:`.device_runtime`)."""
        for op in module.walk():
            if isinstance(op, FuncOp):
                self.func_ops[op.sym_name.data] = op
            elif isinstance(op, RuntimeFuncOp):
                self.runtime_funcs.add(op.sym_name.data)
        # the static spill areas (regalloc/spill.py) lie at the bottom of
        # local memory, below every function's ori.stack_frame figure: the
        # frames below R1 must stay above them (builtins' frame_enter)
        self.stack_floor = max((a.value.data for f in self.func_ops.values()
                                if isinstance(a := f.attributes.get("ori.stack_frame"), IntegerAttr)),
                               default=0)
        self._uniform_writers: UniformWriters | None = None
        self.heap_bytes = heap_bytes
        self.heap: DeviceHeap | None = None
        """The device heap, made by the launch's first ``malloc``."""
        self.printf_out: list[str] = []
        """What ``vprintf`` printed, one entry per call and thread."""
        # Device functions have code addresses (memory.CODE_BASE) so that a
        # function pointer is a plain 64-bit value; .global variables get theirs
        # when run_kernel allocates them (``symbols``).
        self.code_addr: dict[str, int] = {
            n: mem.CODE_BASE + mem.CODE_STRIDE * k for k, n in enumerate(self.func_ops)}
        self.func_at: dict[int, str] = {a: n for n, a in self.code_addr.items()}
        self.symbols: dict[str, int] = {}
        """Addresses of the module's ``.global`` variables (set by ``run_kernel``)."""
        self.textures: dict[int, Texture] = {}
        """Texture objects by handle (set by ``run_kernel``, :mod:`.texture`)."""
        self.decoded: dict[str, Decoder] = {}
        self.pool: dict[tuple[str, int], Activation] = {}
        self._shared: dict[str, list[int]] = {}
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
        self.running: list[Activation] = []
        """The activations being run, innermost last (a call runs its callee
        inside the caller's segment)."""
        self.icount = np.zeros(self.n, dtype=np.uint64)
        self.shared = np.zeros(0, dtype=np.uint8)
        self._local: np.ndarray | None = None
        self.sp = np.full(self.n, self.local_bytes, dtype=np.int64)
        """Each thread's stack pointer R1 (ops/frame.py): ``local_bytes`` at
        the start, as ``c[0x0][stack_init]`` says; frames grow down."""
        self.bar_arrived = [0] * 16
        self.async_copies = AsyncCopies()
        self.gmma = GmmaGroups()
        """HGMMA commit groups and in-flight accumulators (:mod:`.gmma`)."""
        """LDGSTS copies not yet completed by a DEPBAR (:mod:`.tensor`)."""

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
            # LDS/STS/ATOMS compute [R + imm] in 32 bits: a register "below" the
            # variable's base plus a larger offset wraps (CUB's BlockExchange
            # scatter does this), so the offset is taken mod 2^32 as the hardware does.
            a = a & _M32
            mem.check_align(a, nb, f"shared {what}")
            mem.check_window(a, nb, self.shared_bytes, f"shared {what}", "shared")
            if self.async_copies.pending:  # a race with a copy not yet waited for
                self.async_copies.check(a, nb, what)
            return [(None, self.shared, a)]
        if space is MemSpace.LOCAL:
            a = a & _M32  # LDL/STL: 32-bit offsets wrap as for shared memory
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

    def device_heap(self) -> DeviceHeap:
        """The launch's device heap (allocated in global memory on first use)."""
        if self.heap is None:
            self.heap = DeviceHeap(self.global_mem.allocate(max(self.heap_bytes, 1)),
                                   self.heap_bytes)
        return self.heap

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
        self.sp[:] = self.local_bytes
        self.bar_arrived = [0] * 16
        self.async_copies.reset(self.n)
        self.gmma.reset(self.n)
        self.depth = 0
        act = self.activation(kernel)
        act.pc[:] = act.dec.entry_seg
        act.wait_bar[:] = -1
        self.run(act)

    def call(self, name: str, idx: np.ndarray, args: list[np.ndarray],
             caller_regs: np.ndarray | None = None) -> list[np.ndarray]:
        """Run ``name`` for the threads ``idx``; ``caller_regs`` (physical
        mode) is the caller's R file, whose preserved registers the callee
        shares when its callee saves are emitted (:func:`.physical.shared_preserved`)."""
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
            own = getattr(act.frame, "r_file", None)
            cols = self.shared_cols(name) if caller_regs is not None and own is not None else []
            if cols:
                own[np.ix_(idx, cols)] = caller_regs[np.ix_(idx, cols)]
            act.pc[:] = INF
            act.wait_bar[:] = -1
            act.pc[idx] = dec.entry_seg
            self.run(act)
            if cols:
                caller_regs[np.ix_(idx, cols)] = own[np.ix_(idx, cols)]
            return [r[idx] for r in act.ret]
        finally:
            self.depth -= 1

    def shared_cols(self, name: str) -> list[int]:
        cols = self._shared.get(name)
        if cols is None:
            cols = self._shared[name] = shared_preserved(self.func_ops[name])
        return cols

    def symbol_address(self, name: str) -> int:
        """The address ``ori.addr @name`` stands for: a variable's or a function's."""
        a = self.symbols.get(name)
        if a is None:
            a = self.code_addr.get(name)
        if a is None:
            raise InterpreterError(f"@{name} is neither a .global variable nor a function "
                                   "of the module")
        return a

    def uniform_writers(self) -> UniformWriters:
        """Which calls may write the uniform file (built when first asked
        for: only physical mode's call clobbers ask)."""
        if self._uniform_writers is None:
            self._uniform_writers = UniformWriters(self.func_ops)
        return self._uniform_writers

    def function_at(self, addr: int) -> str:
        """The function whose code address ``addr`` is (an indirect call's target)."""
        name = self.func_at.get(addr)
        if name is None:
            where = ""
            if mem.CODE_BASE <= addr < mem.CODE_BASE + mem.CODE_STRIDE * (len(self.func_at) + 1):
                where = " (inside the code range, but not the start of a function)"
            raise InterpreterError(
                f"indirect call through {addr:#x}, which is not the address of a "
                f"function{where}")
        return name

    def run(self, act: Activation) -> None:
        """Run ``act`` until all its threads returned or exited."""
        self.running.append(act)
        try:
            self._run(act)
        finally:
            self.running.pop()

    def _run(self, act: Activation) -> None:
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
            except ExitedInCall:
                idx = self._after_exit_in_call(act, seg, idx, k)
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

    def _after_exit_in_call(self, act: Activation, seg: Segment, idx: np.ndarray,
                            k: int) -> np.ndarray:
        """Op ``k`` of ``seg``, a call, ended some of ``idx`` (``exit`` in a
        device function): they leave ``act`` for good, and the rest of the
        segment runs for the others (again, if another call ends more).
        Returns the threads that are left."""
        while True:
            gone = self.exited[idx]
            act.pc[idx[gone]] = INF
            idx = idx[~gone]
            k += 1
            if not len(idx):
                return idx
            try:
                for fn in seg.ops[k:]:
                    fn(act.frame, idx)
                    k += 1
                seg.term(act, idx)
                return idx
            except ExitedInCall:
                continue
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
        arrived = len(waiting)  # threads counted towards this release (bar.arrive too)
        if (counts >= 0).any():
            expected = int(counts.max())
            if self.bar_arrived[bar] < expected:
                return False
            self.bar_arrived[bar] -= expected
            arrived = expected
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
        self._bar_reduce(act, bar, waiting, arrived)
        act.pc[waiting] = act.wait_site[waiting] + 1
        act.wait_bar[waiting] = -1
        return True

    def _bar_reduce(self, act: Activation, bar: int, waiting: np.ndarray, arrived: int) -> None:
        """``ori.bar_red``: the released threads' reduction into their result
        slots (PTX ISA 9.7.13.1: the reduction is over the threads that take
        part in the barrier; ``bar.red`` must not meet ``bar.sync`` or
        ``bar.arrive`` on the same barrier, nor another reduction)."""
        ops = act.red_op[waiting]
        if (ops < 0).all():
            return
        seg = act.dec.segments[int(act.wait_site[waiting[0]])]
        if (ops < 0).any() or arrived > len(waiting):
            plain = waiting[ops < 0]
            raise self.error(
                seg.infos[-1], waiting[ops >= 0],
                f"barrier {bar}: a barrier reduction (bar.red) meets "
                + (f"a plain bar.sync of {self.threads(plain)}" if len(plain)
                   else "bar.arrive") + " on the same barrier (undefined in the PTX ISA)")
        if (ops != ops[0]).any():
            other = waiting[ops != ops[0]]
            raise self.error(
                seg.infos[-1], waiting[ops == ops[0]],
                f"barrier {bar}: bar.red.{BAR_RED_OPS[int(ops[0])]} meets "
                f"bar.red.{BAR_RED_OPS[int(act.red_op[other[0]])]} of {self.threads(other)} "
                "(undefined in the PTX ISA)")
        vals = act.red_val[waiting]
        op = BAR_RED_OPS[int(ops[0])]
        res: np.generic
        if op == "popc":
            res = np.uint32(int(vals.sum()))
        elif op == "and":
            res = np.bool_(vals.all())
        else:
            res = np.bool_(vals.any())
        dsts = act.red_dst[waiting]
        for d in np.unique(dsts).tolist():
            act.frame[d][waiting[dsts == d]] = res
        act.red_op[waiting] = -1
        act.red_dst[waiting] = -1

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


__all__ = ["MAX_CALL_DEPTH", "LocatedError", "Machine", "kernel_target"]
