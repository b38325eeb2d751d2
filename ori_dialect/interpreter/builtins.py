"""Closures for the instructions the machine itself executes: memory,
special registers, barriers, warp collectives, ``ori.undef`` and NOPs.

Each builder takes the function's :class:`~.decoder.Decoder`, the op and the
op's position in its segment and returns a core ``fn(frame, idx)`` that runs
the op for the lanes ``idx`` (guards and strict-mode checks are wrapped
around it by the decoder).
"""

from __future__ import annotations

from collections.abc import Callable
from typing import TYPE_CHECKING, Any

import numpy as np

from ori_dialect.interpreter import memory as mem
from ori_dialect.interpreter.frame import (
    GLOBALTIMER_NS_PER_INSTRUCTION,
    Activation,
    Core,
    Frame,
    Term,
    nothing,
)
from ori_dialect.interpreter.gmma import GMMA_BUILDERS
from ori_dialect.interpreter.memory import Fault
from ori_dialect.interpreter.semantics.registry import InterpreterError
from ori_dialect.interpreter.tensor import TENSOR_BUILDERS
from ori_dialect.interpreter.texture import TEXTURE_BUILDERS
from ori_dialect.ir.instruction import OriInstruction
from ori_dialect.ir.metadata import MemSpace
from ori_dialect.ir.registers import is_stack_pointer
from ori_dialect.ops.frame import FrameAddrOp, FrameEnterOp, FrameLeaveOp
from ori_dialect.ops.memory import (
    AtomicOp,
    AtomOp,
    AtomsOp,
    LdcOp,
    LdgOp,
    LdlOp,
    LdOp,
    LdsOp,
    MemoryOp,
    RedOp,
    StgOp,
    StlOp,
    StOp,
    StsOp,
)
from ori_dialect.ops.special import BptOp, CS2ROp, NopOp, S2ROp, UndefOp
from ori_dialect.ops.sync import (
    AcqBulkOp,
    BarOp,
    BarRedOp,
    CReduxOp,
    MatchOp,
    MembarOp,
    PreExitOp,
    ReduxOp,
    ShflOp,
    VoteOp,
)

if TYPE_CHECKING:
    from ori_dialect.interpreter.decoder import Decoder

_M64 = (1 << 64) - 1
_M32 = (1 << 32) - 1
Addr = Callable[[Frame, np.ndarray], np.ndarray]
Builder = Callable[["Decoder", Any, int], Core]


def _operand(dec: Decoder, op: OriInstruction, name: str) -> tuple[int, Any]:
    s, c, inv = dec.sources(op)[name]
    if inv:
        raise InterpreterError(f"{op.name}: 'not' on operand '{name}' is not supported")
    return s, c


def _address(dec: Decoder, op: MemoryOp) -> Addr:
    """Per-lane byte address (int64) of ``[addr + offset]``."""
    off = op.offset()
    if is_stack_pointer(op.src("addr")):  # [R1 + offset]: the activation's frame
        m = dec.m

        def addr_sp(frame: Frame, idx: np.ndarray) -> np.ndarray:
            return m.sp[idx] + off

        return addr_sp
    s, c = _operand(dec, op, "addr")
    base_slot = next(sl for sl in op.SRCS if sl.name == "addr")
    if base_slot.types[0].BITS == 64:
        offu = np.uint64(off & _M64)
        if s >= 0:
            def addr64(frame: Frame, idx: np.ndarray) -> np.ndarray:
                return (frame[s][idx] + offu).view(np.int64)

            return addr64
        const64 = np.uint64((int(c) + off) & _M64).view(np.int64)

        def addr64c(frame: Frame, idx: np.ndarray) -> np.ndarray:
            return np.full(len(idx), const64, dtype=np.int64)

        return addr64c
    scale = op.index_scale()
    if s >= 0 and scale != 1:
        # [R.X4 + off]: the index times the scale in 32 bits, as a SHL of
        # it would have given
        def addr32x(frame: Frame, idx: np.ndarray) -> np.ndarray:
            return ((frame[s][idx].astype(np.int64) * scale) & _M32) + off

        return addr32x
    if s >= 0:
        def addr32(frame: Frame, idx: np.ndarray) -> np.ndarray:
            return frame[s][idx].astype(np.int64) + off

        return addr32
    const32 = ((int(c) * scale) & _M32) + off

    def addr32c(frame: Frame, idx: np.ndarray) -> np.ndarray:
        return np.full(len(idx), const32, dtype=np.int64)

    return addr32c


def _lanes_value(s: int, c: Any, frame: Frame, idx: np.ndarray) -> np.ndarray:
    if s >= 0:
        return frame[s][idx]
    return np.broadcast_to(np.asarray(c), (len(idx), *np.shape(c)))


def _load(space: MemSpace) -> Builder:
    def build(dec: Decoder, op: MemoryOp, k: int) -> Core:
        width = op.mod("width") or "b32"
        addr = _address(dec, op)
        d = dec.slot[op.results[0]]
        m = dec.m

        def load(frame: Frame, idx: np.ndarray) -> None:
            frame[d][idx] = m.load(space, addr(frame, idx), idx, width)

        return load

    return build


def _store(space: MemSpace) -> Builder:
    def build(dec: Decoder, op: MemoryOp, k: int) -> Core:
        width = op.mod("width") or "b32"
        addr = _address(dec, op)
        vs, vc = _operand(dec, op, "value")
        m = dec.m

        def store(frame: Frame, idx: np.ndarray) -> None:
            m.store(space, addr(frame, idx), idx, width, _lanes_value(vs, vc, frame, idx))

        return store

    return build


def _ldc(dec: Decoder, op: LdcOp, k: int) -> Core:
    width = op.mod("width") or "b32"
    nb = mem.WIDTH_BYTES[width]
    _, bank = _operand(dec, op, "bank")
    b = int(bank)
    addr = _address(dec, op)
    d = dec.slot[op.results[0]]
    m = dec.m

    def ldc(frame: Frame, idx: np.ndarray) -> None:
        buf = m.bank(b)  # raises when the bank is missing
        a = addr(frame, idx)
        try:
            mem.check_align(a, nb, f"constant-bank {b} load")
            mem.check_window(a, nb, len(buf), f"constant-bank {b} load", f"constant bank {b}")
        except Fault as e:
            if e.position is not None:
                e.thread = int(idx[e.position])
            raise
        frame[d][idx] = mem.load(m.banks[b], a, width)

    return ldc


def _atomic(space: MemSpace) -> Builder:
    def build(dec: Decoder, op: AtomicOp, k: int) -> Core:
        opn = op.mod("op") or "add"
        ty = op.mod("type") or "s32"
        dt = np.uint64 if ty.endswith("64") else np.uint32
        z = np.zeros(1, dtype=dt)
        mem.atomic_result(opn, ty, z, z, z)  # unsupported combinations fail here
        addr = _address(dec, op)
        vs, vc = _operand(dec, op, "value")
        srcs = dec.sources(op)
        cs, cc = srcs["swap"][:2] if "swap" in srcs else (-2, None)
        d = dec.slot[op.results[0]] if op.results else -1
        m = dec.m

        def atomic(frame: Frame, idx: np.ndarray) -> None:
            n = len(idx)
            b = frame[vs][idx] if vs >= 0 else np.full(n, vc, dtype=dt)
            c = None
            if cs >= 0:
                c = frame[cs][idx]
            elif cs == -1:
                c = np.full(n, cc, dtype=dt)
            old = m.atomic(space, addr(frame, idx), idx, opn, ty, b, c)
            if d >= 0:
                frame[d][idx] = old

        return atomic

    return build


# ----------------------------------------------------------------------
# special registers, undef, nops
# ----------------------------------------------------------------------
def _s2r(dec: Decoder, op: S2ROp, k: int) -> Core:
    sr = op.mod("sr") or ""
    dim = "XYZ".index(op.mod("dim") or "X")
    d = dec.slot[op.results[0]]
    m = dec.m
    kk = np.uint64(k)
    table: np.ndarray | None = None
    if sr == "SR_TID":
        table = m.tid[dim]
    elif sr == "SR_LANEID":
        table = m.laneid
    elif sr == "SR_WARPID":
        table = m.warpid
    elif sr in m.lanemask:
        table = m.lanemask[sr]
    if table is not None:
        tab = table

        def from_table(frame: Frame, idx: np.ndarray) -> None:
            frame[d][idx] = tab[idx]

        return from_table
    if sr == "SR_CTAID":
        def ctaid(frame: Frame, idx: np.ndarray) -> None:
            frame[d][idx] = np.uint32(m.ctaid[dim])

        return ctaid
    fixed = {"SR_NWARPID": m.nwarpid, "SR_SMID": 0, "SR_NSMID": 1}
    if sr in fixed:
        value = np.uint32(fixed[sr])

        def const(frame: Frame, idx: np.ndarray) -> None:
            frame[d][idx] = value

        return const
    scale = np.uint64(mem_scale(sr))
    shift = np.uint64(32 if sr.endswith("HI") else 0)

    def clock(frame: Frame, idx: np.ndarray) -> None:
        t = (m.icount[idx] + kk) * scale
        frame[d][idx] = ((t >> shift) & np.uint64(0xFFFFFFFF)).astype(np.uint32)

    return clock


def mem_scale(sr: str) -> int:
    return GLOBALTIMER_NS_PER_INSTRUCTION if sr.startswith("SR_GLOBALTIMER") else 1


def _cs2r(dec: Decoder, op: CS2ROp, k: int) -> Core:
    d = dec.slot[op.results[0]]
    m = dec.m
    wide = op.mod("width") != "b32"
    if op.mod("sr") == "SRZ":
        zero = np.uint64(0) if wide else np.uint32(0)

        def srz(frame: Frame, idx: np.ndarray) -> None:
            frame[d][idx] = zero

        return srz
    kk = np.uint64(k)

    def clock(frame: Frame, idx: np.ndarray) -> None:
        t = m.icount[idx] + kk
        frame[d][idx] = t if wide else (t & np.uint64(0xFFFFFFFF)).astype(np.uint32)

    return clock


def _undef(dec: Decoder, op: UndefOp, k: int) -> Core:
    d = dec.slot[op.results[0]]
    sh = dec.shadow.get(d, -1)
    if "ori.abi_save" in op.attributes:
        # a callee save's source (regalloc/callee_saves.py): the register
        # already holds the caller's value (physical mode), nothing to write
        return _nop(dec, op, k)

    def undef(frame: Frame, idx: np.ndarray) -> None:
        frame[d][idx] = 0
        if sh >= 0:
            frame[sh][idx] = True

    return undef


def _nop(dec: Decoder, op: OriInstruction, k: int) -> Core:
    def nop(frame: Frame, idx: np.ndarray) -> None:
        return None

    return nop


# ----------------------------------------------------------------------
# barriers
# ----------------------------------------------------------------------
def _uniform(spec: tuple[int, Any], frame: Frame, lanes: np.ndarray, what: str) -> int:
    s, c = spec
    if s < 0:
        return int(c)
    v = frame[s][lanes]
    diff = v != v[0]
    if diff.any():
        t = int(lanes[int(np.flatnonzero(diff)[0])])
        raise Fault(f"{what} differs between the threads executing the barrier", thread=t)
    return int(v[0])


def _bar_operands(dec: Decoder, op: BarOp) -> tuple[tuple[int, Any], tuple[int, Any] | None]:
    srcs = dec.sources(op)
    bid = srcs["id"][:2]
    count = srcs["count"][:2] if "count" in srcs else None
    return bid, count


def _check_bar(bid: int, cnt: int, lanes: np.ndarray) -> None:
    if not 0 <= bid <= 15:
        raise Fault(f"barrier id {bid} out of range 0..15", thread=int(lanes[0]))
    if cnt == 0 or cnt > 1024:
        raise Fault(f"barrier thread count {cnt} out of range 1..1024", thread=int(lanes[0]))


def _bar_arv(dec: Decoder, op: BarOp, k: int) -> Core:
    bid_spec, count_spec = _bar_operands(dec, op)
    if count_spec is None:
        raise InterpreterError("ori.bar arv needs a thread count")
    m = dec.m

    def arv(frame: Frame, idx: np.ndarray) -> None:
        bid = _uniform(bid_spec, frame, idx, "barrier id")
        cnt = _uniform(count_spec, frame, idx, "barrier thread count")
        _check_bar(bid, cnt, idx)
        m.bar_arv(bid, cnt, idx)

    return arv


def bar_sync_term(dec: Decoder, op: BarOp, seg_id: int) -> Term:
    """``BAR.SYNC`` ends a segment: its threads wait until the barrier completes."""
    bid_spec, count_spec = _bar_operands(dec, op)
    srcs, guard, _ = op.operand_groups()
    uses = [*srcs, *([guard] if guard is not None else [])]
    check = dec.strict_uses(op, uses, nothing)
    gs = dec.slot[guard] if guard is not None else -1
    neg = "guard_neg" in op.properties
    m = dec.m
    nxt = seg_id + 1

    def sync(act: Activation, idx: np.ndarray) -> None:
        frame = act.frame
        check(frame, idx)
        lanes = idx
        if gs >= 0:
            g = frame[gs][idx]
            if neg:
                g = ~g
            act.pc[idx[~g]] = nxt
            lanes = idx[g]
            if not len(lanes):
                return
        bid = _uniform(bid_spec, frame, lanes, "barrier id")
        cnt = -1 if count_spec is None else _uniform(count_spec, frame, lanes,
                                                       "barrier thread count")
        _check_bar(bid, cnt, lanes)
        m.bar_arrive(act, lanes, bid, cnt, seg_id)

    return sync


# ----------------------------------------------------------------------
# warp collectives
# ----------------------------------------------------------------------
def _shfl(dec: Decoder, op: ShflOp, k: int) -> Core:
    mode = op.mod("mode") or "idx"
    a_s, a_c = _operand(dec, op, "a")
    b_s, b_c = _operand(dec, op, "lane")
    c_s, c_c = _operand(dec, op, "clamp")
    d = dec.slot[op.results[0]]
    p = dec.slot[op.results[1]] if len(op.results) > 1 else -1
    m = dec.m
    strict = m.strict
    masked = "mask" in dec.sources(op)
    mask_s, mask_c = _operand(dec, op, "mask") if masked else (-1, None)

    def shfl(frame: Frame, idx: np.ndarray) -> None:
        n = len(idx)
        if masked:
            member_groups(dec, op, frame, idx)  # checks each lane's mask (faults)
        lane = idx & 31
        b = (frame[b_s][idx].astype(np.int64) if b_s >= 0 else np.int64(b_c)) & 31
        c = frame[c_s][idx].astype(np.int64) if c_s >= 0 else np.int64(c_c)
        cval = c & 31
        segmask = (c >> 8) & 31
        max_lane = (lane & segmask) | (cval & ~segmask)
        min_lane = lane & segmask
        if mode == "up":
            j = lane - b
            ok = j >= max_lane
        elif mode == "down":
            j = lane + b
            ok = j <= max_lane
        elif mode == "bfly":
            j = lane ^ b
            ok = j <= max_lane
        else:
            j = min_lane | (b & ~segmask)
            ok = j <= max_lane
        ok = np.broadcast_to(ok, (n,))
        src = idx - lane + np.where(ok, j, lane)
        pos = np.searchsorted(idx, src)
        posc = np.minimum(pos, n - 1)
        active = idx[posc] == src
        if masked:
            # a source lane outside the reader's member mask is undefined
            # (PTX ISA 9.7.8.6): treated as a lane that does not execute it
            mk = _lane_values(mask_s, mask_c, frame, idx).astype(np.int64)
            active &= ((mk >> (src & 31)) & 1) == 1
        if a_s >= 0:
            full = frame[a_s]
            own = full[idx]
            vals = full[np.minimum(src, len(full) - 1)]
            if not active.all():
                bad = ~active
                if strict:
                    t = int(np.flatnonzero(bad)[0])
                    raise Fault(
                        f"SHFL reads lane {int(src[t]) & 31} of warp {int(idx[t]) >> 5}, "
                        "which is not executing this instruction"
                        + (" in this thread's membermask" if masked else "")
                        + " (undefined on hardware)",
                        thread=int(idx[t]),
                    )
                vals = np.where(bad, own, vals)
            frame[d][idx] = vals
        else:
            frame[d][idx] = a_c
        if p >= 0:
            frame[p][idx] = ok

    return shfl


def _vote(dec: Decoder, op: VoteOp, k: int) -> Core:
    mode = op.mod("mode") or "any"
    a_s, a_c, inv = dec.sources(op)["a"]
    d = dec.slot[op.results[0]]
    p = dec.slot[op.results[1]] if len(op.results) > 1 else -1

    def vote(frame: Frame, idx: np.ndarray) -> None:
        n = len(idx)
        a = frame[a_s][idx] if a_s >= 0 else np.full(n, bool(a_c))
        if inv:
            a = ~a
        warp = idx >> 5
        first = np.ones(n, dtype=bool)
        first[1:] = warp[1:] != warp[:-1]
        group = np.cumsum(first) - 1
        bits = np.where(a, np.uint64(1) << (idx & 31).astype(np.uint64), np.uint64(0))
        ballot = np.zeros(int(group[-1]) + 1, dtype=np.uint64)
        np.add.at(ballot, group, bits)
        frame[d][idx] = ballot[group].astype(np.uint32)
        if p >= 0:
            cnt = np.bincount(group)
            yes = np.bincount(group, weights=a.astype(np.float64)).astype(np.int64)
            if mode == "all":
                red = yes == cnt
            elif mode == "any":
                red = yes > 0
            else:
                red = (yes == cnt) | (yes == 0)
            frame[p][idx] = red[group]

    return vote


def _lane_values(s: int, c: Any, frame: Frame, idx: np.ndarray) -> np.ndarray:
    if s >= 0:
        return frame[s][idx]
    return np.full(len(idx), c)


def member_groups(dec: Decoder, op: OriInstruction, frame: Frame, idx: np.ndarray,
                  ) -> tuple[np.ndarray, int, np.ndarray]:
    """The groups of a collective with a member mask (REDUX, MATCH): lanes of
    one warp with the same ``mask`` act together.  Returns each lane's group
    number, the number of groups and each lane's bit (``1 << lane``, uint64).
    Raises a fault, as the PTX ISA leaves it undefined, when a lane is not in
    its own mask or its mask names a lane of the CTA that does not execute
    the instruction with it."""
    s, c = _operand(dec, op, "mask")
    mask = _lane_values(s, c, frame, idx).astype(np.uint64)
    lane = (idx & 31).astype(np.uint64)
    bit = np.uint64(1) << lane
    key = ((idx >> 5).astype(np.uint64) << np.uint64(32)) | mask
    _, inv = np.unique(key, return_inverse=True)
    ng = int(inv.max()) + 1
    ballot = np.zeros(ng, dtype=np.uint64)
    np.bitwise_or.at(ballot, inv, bit)
    # lanes past the end of the CTA do not exist: a full mask on a partial warp is fine
    n_cta = dec.m.n
    first = (idx - (idx & 31)).astype(np.int64)
    exist = (np.uint64(1) << np.minimum(n_cta - first, 32).astype(np.uint64)) - np.uint64(1)
    outside = (mask & bit) == 0
    # a lane outside its own mask is the first thing to report: it also
    # spoils its mask-mates' check
    bad = outside if outside.any() else (mask & exist) != ballot[inv]
    if bad.any():
        j = int(np.flatnonzero(bad)[0])
        what = (f"thread is not in its membermask {int(mask[j]):#x}" if not mask[j] & bit[j]
                else f"membermask {int(mask[j]):#x} names lanes that do not execute it with "
                f"this thread (executing: {int(ballot[inv[j]]):#x})")
        raise Fault(f"{type(op).SASS}: {what} (undefined in the PTX ISA)", thread=int(idx[j]))
    return inv, ng, bit


_REDUCE: dict[str, Any] = {
    "and": np.bitwise_and, "or": np.bitwise_or, "xor": np.bitwise_xor,
    "min": np.minimum, "max": np.maximum,
}
_IDENTITY = {"and": -1, "or": 0, "xor": 0}


def _redux(dec: Decoder, op: ReduxOp, k: int) -> Core:
    """REDUX over each member group (the op's docstring)."""
    opn = op.mod("op") or "and"
    signed = op.mod("type") == "s32"
    a_s, a_c = _operand(dec, op, "a")
    d = dec.slot[op.results[0]]

    def redux(frame: Frame, idx: np.ndarray) -> None:
        inv, ng, _ = member_groups(dec, op, frame, idx)
        a = _lane_values(a_s, a_c, frame, idx).astype(np.uint32)
        if opn == "sum":
            acc = np.zeros(ng, dtype=np.uint64)
            np.add.at(acc, inv, a.astype(np.uint64))
            red = (acc & np.uint64(0xFFFFFFFF)).astype(np.uint32)
        elif opn in ("min", "max"):
            vals = a.view(np.int32).astype(np.int64) if signed else a.astype(np.int64)
            acc = np.full(ng, (1 << 40) if opn == "min" else -(1 << 40), dtype=np.int64)
            _REDUCE[opn].at(acc, inv, vals)
            red = (acc & 0xFFFFFFFF).astype(np.uint32)
        else:
            acc32 = np.full(ng, _IDENTITY[opn], dtype=np.int64).astype(np.uint32)
            _REDUCE[opn].at(acc32, inv, a)
            red = acc32
        frame[d][idx] = red[inv]

    return redux


_CANONICAL_NAN = np.uint32(0x7FFFFFFF)


def _credux(dec: Decoder, op: CReduxOp, k: int) -> Core:
    """CREDUX over each member group (the op's docstring).  Floats are
    ordered through an integer key (sign-magnitude to two's complement) so
    that -0.0 < +0.0 and the result is one of the inputs, bit for bit."""
    opn = op.mod("op") or "min"
    use_abs = opn.endswith("abs")
    is_min = opn.startswith("min")
    nan_mode = op.mod("nan") == "nan"
    a_s, a_c = _operand(dec, op, "a")
    d = dec.slot[op.results[0]]
    worst = np.int64(1 << 40) if is_min else np.int64(-(1 << 40))

    def credux(frame: Frame, idx: np.ndarray) -> None:
        inv, ng, _ = member_groups(dec, op, frame, idx)
        bits = _lane_values(a_s, a_c, frame, idx).astype(np.uint32)
        if use_abs:
            bits = bits & np.uint32(0x7FFFFFFF)
        isnan = (bits & np.uint32(0x7FFFFFFF)) > np.uint32(0x7F800000)
        s = bits.view(np.int32).astype(np.int64)
        key = np.where(s >= 0, s, s ^ np.int64(0x7FFFFFFF))
        key = np.where(isnan, worst, key)
        red = np.full(ng, worst, dtype=np.int64)
        (np.minimum if is_min else np.maximum).at(red, inv, key)
        nans = np.zeros(ng, dtype=np.int64)
        np.add.at(nans, inv, isnan.astype(np.int64))
        counts = np.bincount(inv, minlength=ng)
        back = np.where(red >= 0, red, red ^ np.int64(0x7FFFFFFF))
        back = (back & 0xFFFFFFFF).astype(np.uint32)
        nan_out = (nans > 0) if nan_mode else (nans == counts)
        out = np.where(nan_out, _CANONICAL_NAN, back)
        frame[d][idx] = out[inv]

    return credux


def _match(dec: Decoder, op: MatchOp, k: int) -> Core:
    """MATCH over each member group (the op's docstring)."""
    mode_all = op.mod("mode") == "all"
    a_s, a_c = _operand(dec, op, "a")
    d = dec.slot[op.results[0]]
    p = dec.slot[op.results[1]] if len(op.results) > 1 else -1

    def match(frame: Frame, idx: np.ndarray) -> None:
        inv, ng, bit = member_groups(dec, op, frame, idx)
        a = _lane_values(a_s, a_c, frame, idx)
        if mode_all:
            first = np.unique(inv, return_index=True)[1]  # a lane of each group
            same = np.ones(ng, dtype=bool)
            np.logical_and.at(same, inv, a == a[first][inv])
            ballot = np.zeros(ng, dtype=np.uint64)
            np.bitwise_or.at(ballot, inv, bit)
            frame[d][idx] = np.where(same, ballot, np.uint64(0))[inv].astype(np.uint32)
            if p >= 0:
                frame[p][idx] = same[inv]
            return
        # lanes x lanes equality within each group (at most 32 lanes a group)
        eq = (inv[:, None] == inv[None, :]) & (a[:, None] == a[None, :])
        mask = (eq * bit[None, :]).sum(axis=1, dtype=np.uint64)
        frame[d][idx] = mask.astype(np.uint32)

    return match


def _bpt(dec: Decoder, op: BptOp, k: int) -> Core:
    code = op.src_int("code") or 0

    def bpt(frame: Frame, idx: np.ndarray) -> None:
        raise Fault(f"trap: BPT.TRAP {code:#x} executed, the kernel is aborted "
                    f"({len(idx)} thread(s) trapped here)", thread=int(idx[0]))

    return bpt


def _bar(dec: Decoder, op: BarOp, k: int) -> Core:
    if op.mod("mode") == "arv":
        return _bar_arv(dec, op, k)
    raise InterpreterError("ori.bar sync must end a segment")  # the decoder splits there


def _bar_red(dec: Decoder, op: BarRedOp, k: int) -> Core:
    raise InterpreterError("ori.bar_red must end a segment")  # the decoder splits there


BAR_RED_OPS = ("popc", "and", "or")
"""``ori.bar_red`` reductions by code (``Activation.red_op``)."""


def bar_red_term(dec: Decoder, op: BarRedOp, seg_id: int) -> Term:
    """``BAR.RED`` ends a segment like ``BAR.SYNC``; each arriving thread
    leaves its predicate, the reduction's code and its result slot in the
    activation, and the machine writes the reduction over all the threads the
    barrier releases into their result slots (``Machine.bar_reduce``)."""
    bid_spec, count_spec = _bar_operands(dec, op)
    a_slot, a_const, a_inv = dec.sources(op)["a"]
    srcs, _, _ = op.operand_groups()
    check = dec.strict_uses(op, list(srcs), nothing)
    dst = dec.slot[op.results[0]]
    code = BAR_RED_OPS.index(op.mod("op") or "")
    m = dec.m

    def red(act: Activation, idx: np.ndarray) -> None:
        frame = act.frame
        check(frame, idx)
        bid = _uniform(bid_spec, frame, idx, "barrier id")
        cnt = -1 if count_spec is None else _uniform(count_spec, frame, idx,
                                                       "barrier thread count")
        _check_bar(bid, cnt, idx)
        v = frame[a_slot][idx] if a_slot >= 0 else np.full(len(idx), bool(a_const))
        act.red_val[idx] = ~v if a_inv else v
        act.red_op[idx] = code
        act.red_dst[idx] = dst
        m.bar_arrive(act, idx, bid, cnt, seg_id)

    return red


def _frame_move(sign: int) -> Builder:
    """``R1 -= size`` (enter) or ``R1 += size`` (leave) for the active lanes."""
    def build(dec: Decoder, op: OriInstruction, k: int) -> Core:
        assert isinstance(op, FrameEnterOp | FrameLeaveOp)
        delta = sign * op.size()
        m = dec.m
        name = op.name

        def move(frame: Frame, idx: np.ndarray) -> None:
            sp = m.sp[idx] + delta
            if delta < 0 and (sp < m.stack_floor).any():
                raise InterpreterError(
                    f"{name}: the stack overflows the thread's local memory "
                    f"({m.local_bytes} bytes, the static spill areas taking the first "
                    f"{m.stack_floor}; run_kernel(local_bytes=...) gives more)")
            m.sp[idx] = sp

        return move

    return build


def _frame_addr(dec: Decoder, op: OriInstruction, k: int) -> Core:
    assert isinstance(op, FrameAddrOp)
    d = dec.slot[op.results[0]]
    off = op.offset()
    m = dec.m

    def frame_addr(frame: Frame, idx: np.ndarray) -> None:
        frame[d][idx] = (m.sp[idx] + off).astype(np.uint32)

    return frame_addr


BUILDERS: dict[type, Builder] = {
    FrameEnterOp: _frame_move(-1),
    FrameLeaveOp: _frame_move(1),
    FrameAddrOp: _frame_addr,
    LdgOp: _load(MemSpace.GLOBAL),
    StgOp: _store(MemSpace.GLOBAL),
    LdsOp: _load(MemSpace.SHARED),
    StsOp: _store(MemSpace.SHARED),
    LdlOp: _load(MemSpace.LOCAL),
    StlOp: _store(MemSpace.LOCAL),
    LdOp: _load(MemSpace.GENERIC),
    StOp: _store(MemSpace.GENERIC),
    LdcOp: _ldc,
    AtomOp: _atomic(MemSpace.GENERIC),
    RedOp: _atomic(MemSpace.GENERIC),
    AtomsOp: _atomic(MemSpace.SHARED),
    S2ROp: _s2r,
    CS2ROp: _cs2r,
    UndefOp: _undef,
    NopOp: _nop,
    MembarOp: _nop,
    BarOp: _bar,
    BarRedOp: _bar_red,
    ShflOp: _shfl,
    VoteOp: _vote,
    ReduxOp: _redux,
    CReduxOp: _credux,
    MatchOp: _match,
    # Single-grid model: every prerequisite grid has completed before this one
    # runs, so griddepcontrol's waits and signals have nothing left to do.
    AcqBulkOp: _nop,
    PreExitOp: _nop,
    BptOp: _bpt,
    **TEXTURE_BUILDERS,
    **GMMA_BUILDERS,
    **TENSOR_BUILDERS,
}

__all__ = ["BAR_RED_OPS", "BUILDERS", "bar_red_term", "bar_sync_term", "member_groups"]
