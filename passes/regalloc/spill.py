"""Spill code (seed 000 "Spilling Overview", "Spill codegen sub_94F150", the
slot compaction of "Guidance consumption", and the SMEM spill mode of
"Per-Class Driver" / "Spill / Retry Control Block").

**Where a spilled value lives, per register file.**

* ``R`` values go to memory: ``STL [RZ + slot], v`` right after the
  definition (a block argument: at the top of its block) and an ``LDL`` into
  a fresh value right before each instruction that uses it (before the
  branch for an edge operand).  In the SMEM mode (below) the same happens
  with ``STS``/``LDS`` at a per-thread address in shared memory.
* ``P`` and ``UP`` values go to a GPR: ``P2R r, RZ, 0x1, p`` after the
  definition and ``R2P p', r, 0x1`` before each use.  The GPR ``r`` (the
  value's *home*) is an ordinary R value: when the R file is full too it is
  spilled to memory in a later round, so the predicate ends up in local
  memory through its home.  ptxas packs up to seven predicates into one GPR
  with the same two opcodes (R2P is seed 000's "Predicate register unpack",
  opcode 22); so does ori after each spill round (:mod:`.pred_pack`,
  ``pack-predicates``): a fresh home is threaded into an older one still
  read below it (``P2R h', h, 1<<j, p``) and reloads read their bit
  (``R2P p', h', 1<<j``).  For a
  ``UP`` value the SASS sequence would go through the uniform datapath
  (``UP2UR``/``R2UR``); ori's interpreter keeps uniform registers per thread,
  so the P2R/R2P pair is exact there.
* ``UR`` values go to a GPR: ``MOV r, ur`` (a GPR instruction reads a
  uniform register through its constant-bank port) and ``R2UR ur', r``
  before each use -- seed 000 "Spill codegen ... special handling for
  uniform registers" and seed 003's "separate spill path" of uniform
  registers.  A 64-bit UR value is split with ``ori.unpack`` into two R32
  homes and rebuilt with two ``R2UR`` and an ``ori.pack``.  128-bit UR values
  are not spilled (no such value is produced by any ori op).
* ``B`` values (convergence barrier registers, seed 000's separate class 9)
  go to a GPR with ``BMOV.32 r, b`` and come back with ``BMOV.32 b', r``.

Every op the spiller inserts carries ``ori.spill_value = ID`` (stores,
reloads) or ``ori.spill_home = ID`` (the op defining a GPR home); reloads
and values already spilled are never spilled again, so every SPILL retry
makes progress.

**Slots.**  While allocating, each memory-spilled value has its own
provisional slot.  After allocation :func:`layout_spill_area` computes the
memory liveness of every slot (live from a spill store to the reloads that
can follow it; a store occupies its slot even when nothing reloads it) and
gives values that are never live together the same bytes, first fit with
natural alignment, then patches the offsets -- the seed's relocation of
spill offsets into compacted gaps.  The local spill area starts after the
function's own local variables (``ori.local_bytes``, 16-byte aligned) and
after the static spill areas of the functions it calls (static layout: one
activation of a function that cannot reach itself is live at a time),
rounded up to its widest slot: a callee's area may end at any multiple of 4.
Addresses are ``[RZ+offset]``; the local variables themselves and a
recursive function's slots live in the activation's frame below R1
(ops/frame.py, :mod:`.frame`).

**SMEM mode** (knob 619 "SMEM spill enable", ``smem-spilling`` of
``ori-regalloc``; the PTX ``.pragma "enable_smem_spilling"`` of CUDA 13.0
turns it on for one kernel).  Conditions, each failure falling back to
local memory with a remark:

* the function must be a kernel -- the seed's assertion "Smem spilling
  should not be enabled when functions use abi": a device function works
  under the calling convention.  A kernel that makes calls keeps the mode
  for its own spills (ptxas 13.0 does the same: a ``__launch_bounds__``
  kernel calling a ``__noinline__`` function reports ``10240 bytes smem``
  while the callee spills to local memory);
* neither the kernel nor a function it calls may touch shared memory
  (LDS/STS/ATOMS, shared or generic RED/ATOM, generic LD/ST): ori IR does
  not record whether a kernel uses *dynamic* shared memory, which starts
  right after the static part, where the spill area goes (ptxas 13.0 stops
  with "Pragma 'enable_smem_spilling' is not allowed for dynamic SMEM");
* the spill area must fit: ``threads * per-thread area`` after the kernel's
  static shared memory within the 48 KiB static shared-memory limit (and
  the target's per-block limit).  (With launch bounds ptxas 13.0 reserves
  less: the kernel's whole shared memory, static part included, stayed at
  80 bytes per thread on sm_80, 72 on sm_90 and 104 on sm_100/sm_120 in
  experiments with 64..256 threads and 4..16 CTAs per SM; the rule behind
  it is in no seed, and ori does not imitate it.)  ``threads`` is the product of
  ``.reqntid``/``.maxntid``, else the target's thread limit per block (as
  ptxas assumes without launch bounds).  Slots that do not fit go to local
  memory with a remark (ptxas: "If adequate shared memory is not available,
  any remaining spills fall back to local memory"); with less than 4 bytes
  per thread the mode is not applicable at all.

Layout (as ptxas 13.0 lays it out, structure of arrays: with
``__launch_bounds__(128)`` its spill stores are ``STS [R0+0x80*k]`` with
``R0 = tid * 4`` and ``-v`` reports ``10240 bytes smem`` for 20 words per
thread; without launch bounds it reports ``49152 bytes smem`` and spills the
rest to local memory): slots are compacted per thread as for local memory;
the slots of each access width ``w`` (16, 8, 4 bytes) have a region of their
own, compacted per thread as for local memory; the slot at offset ``o``
(a multiple of ``w``) of the region starting at per-thread offset ``r``
holds thread ``t``'s value at ``base + (r + o) * T + t * w``, ``T`` the
threads the area is laid out for, ``t`` the linear thread id ``x + ntid.x *
(y + ntid.y * z)`` and ``base`` the kernel's static shared size rounded up
to 16.  Within a region this maps (thread, byte) one-to-one onto shared
memory, so threads that diverge never clobber each other's slots (with
mixed widths in one region a b64 slot of thread ``t`` would share bytes
with a b32 slot of thread ``2t+1``), and a warp's 32-bit accesses hit 32
consecutive words (no bank conflicts).  The per-thread address ``base + t * w`` is computed
right before every SMEM spill access (``S2R SR_TID``, ``IMAD``; ops tagged
``ori.smem_spill_base``; reloads of one width that follow each other share
it), like a reload: kept in a register across the
whole kernel it would take one register everywhere, and the SPILL retries
then needed many more rounds to make room for it (ptxas keeps ``tid * 4``
in a register).  The kernel's ``ori.shared_bytes`` grows by ``threads * S``
so the interpreter allocates it; the launch must not exceed the launch
bounds (as on the hardware).

**Figures** (``ptxas -v`` wording): *spill stores* / *spill loads* are the
bytes the local-memory spill instructions access (static counts); the
*stack frame* is the function's local variables plus its spill area; SMEM
spills are reported apart (``ori.smem_spill_bytes``: shared bytes reserved
per CTA, seed 004's ``SSpillB``).
"""

from __future__ import annotations

from dataclasses import dataclass, field

from xdsl.dialects.builtin import DenseArrayBase, DictionaryAttr, IntegerAttr, i32
from xdsl.ir import BlockArgument, Operation, OpResult, SSAValue

from ori_dialect.analysis.cfg import CFG
from ori_dialect.ir.attrs import CBankAttr
from ori_dialect.ir.instruction import OriInstruction
from ori_dialect.ir.metadata import MemSpace
from ori_dialect.ir.registers import (
    BarrierType,
    OriRegisterType,
    PredType,
    R32Type,
    RegFile,
    UR32Type,
    UR64Type,
)
from ori_dialect.ops.control import CallOp, PragmaOp
from ori_dialect.ops.func import FuncOp
from ori_dialect.ops.integer import IMadOp, LeaOp, MovOp, PackOp, UnpackOp
from ori_dialect.ops.memory import LdlOp, LdsOp, MemoryOp, StlOp, StsOp
from ori_dialect.ops.predicate import P2ROp, R2POp
from ori_dialect.ops.regmove import BMovOp, R2UROp
from ori_dialect.ops.special import S2ROp
from passes.regalloc.pred_pack import home_bits
from passes.regalloc.spill_marks import (
    HOME_ATTR,
    SMEM_BASE_ATTR,
    SPILL_ATTR,
    SPILL_LOADS,
    SPILL_STORES,
    home_tag,
    remat_tag,
    spill_tag,
)

SMEM_SPILL_PRAGMA = "enable_smem_spilling"
SMEM_THREADS_ATTR = "ori.smem_spill_threads"
"""Function attribute: the threads per CTA the SMEM spill area is laid out for."""
STATIC_SMEM_LIMIT = 48 * 1024
"""Static shared memory a kernel may declare (bytes)."""

_WIDTH_MOD = {1: "", 2: "b64", 4: "b128"}
PROVISIONAL_BASE = 1 << 20


def next_tag(func: Operation) -> int:
    """A tag no spill store, reload, home or rematerialized clone carries yet."""
    tags = [
        t for op in func.walk()
        if (t := spill_tag(op)) is not None or (t := home_tag(op)) is not None
        or (t := remat_tag(op)) is not None
    ]
    return max(tags, default=-1) + 1


@dataclass
class SmemSpill:
    """SMEM spill mode for one kernel (module docstring)."""

    threads: int
    """Threads per CTA the area is laid out for."""
    dims: tuple[int, int, int] | None
    """Launch bounds, when the kernel states them."""
    ntid_offset: int
    """Byte offset of ``ntid.x`` in constant bank 0."""
    limit: int
    """Largest ``ori.shared_bytes`` the kernel may reach."""
    remarks: list[str] = field(default_factory=list)


def smem_requested(func: Operation, option: bool) -> bool:
    """The pass option, or the kernel's ``enable_smem_spilling`` pragma."""
    if option:
        return True
    prag = func.attributes.get("ori.pragmas")
    if prag is not None and SMEM_SPILL_PRAGMA in str(prag):
        return True
    return any(
        isinstance(op, PragmaOp) and op.text.data == SMEM_SPILL_PRAGMA for op in func.walk()
    )


def smem_spill_setup(func: Operation, target: object) -> SmemSpill | str:
    """The SMEM spill mode of ``func`` or, when the seed's conditions rule it
    out, the reason (the caller falls back to local memory with a remark)."""
    assert isinstance(func, FuncOp)
    if not func.is_kernel:
        return "a device function takes part in the calling convention (seed 000: 'Smem "\
            "spilling should not be enabled when functions use abi')"
    for f in _reachable(func):
        for op in f.walk():
            if isinstance(op, MemoryOp) and getattr(op, "SPACE", None) in (
                MemSpace.SHARED, MemSpace.GENERIC,
            ):
                who = "the kernel" if f is func else f"@{f.sym_name.data}, which it calls,"
                return (
                    f"{who} accesses shared memory ({op.name}); ori does not know the kernel's "
                    "dynamic shared memory, which would start where the spill area goes"
                )
    dims: tuple[int, int, int] | None = None
    for arr in (func.reqntid, func.maxntid):
        if isinstance(arr, DenseArrayBase):
            vals = [int(x) for x in arr.get_values()]
            vals = (vals + [1, 1, 1])[:3]
            dims = (vals[0], vals[1], vals[2])
            break
    threads = dims[0] * dims[1] * dims[2] if dims else int(target.max_threads_per_block)  # type: ignore[attr-defined]
    limit = min(STATIC_SMEM_LIMIT, int(getattr(target, "max_smem_per_block", STATIC_SMEM_LIMIT)))
    static_attr = func.attributes.get("ori.shared_bytes")
    static = static_attr.value.data if isinstance(static_attr, IntegerAttr) else 0
    cap = max(limit - -(-static // 16) * 16, 0) // threads
    if cap < 4:
        return (
            f"{threads} threads leave {cap} bytes of shared memory per thread after "
            f"{static} static bytes (limit {limit})"
        )
    layout = target.cbank0  # type: ignore[attr-defined]
    return SmemSpill(threads, dims, int(layout.ntid), limit)


def smem_base_ops(smem: SmemSpill, width: int) -> list[Operation]:
    """The ops computing ``linear tid * width + base`` for an SMEM spill
    access of ``width`` bytes (the last one's result); ``base`` is patched by
    :func:`layout_spill_area`."""
    mark = {SMEM_BASE_ATTR: IntegerAttr(0, i32)}
    ops: list[Operation] = []

    def add(op: Operation) -> SSAValue:
        ops.append(op)
        return op.results[0]

    tid: SSAValue = add(S2ROp.make([], mods="SR_TID.X", attributes=dict(mark)))
    if smem.dims is None or smem.dims[1] * smem.dims[2] != 1:
        # linear id x + ntid.x * (y + ntid.y * z), ntid from constant bank 0
        ty = add(S2ROp.make([], mods="SR_TID.Y", attributes=dict(mark)))
        tz = add(S2ROp.make([], mods="SR_TID.Z", attributes=dict(mark)))
        yz = add(IMadOp.make([tz, CBankAttr(0, smem.ntid_offset + 4), ty], attributes=dict(mark)))
        tid = add(IMadOp.make([yz, CBankAttr(0, smem.ntid_offset), tid], attributes=dict(mark)))
    # tid * width + base as LEA (width is 4, 8 or 16): the shift is an
    # immediate field of its own, so the patched base takes the one constant port
    add(LeaOp.make([tid, R32Type.fixed(), width.bit_length() - 1],
                   attributes={SMEM_BASE_ATTR: IntegerAttr(1, i32)}))
    return ops


def _reachable(func: Operation) -> list[Operation]:
    """``func`` and every function of its module it calls, transitively."""
    module = func.parent_op()
    by_name = {
        f.sym_name.data: f for f in (module.walk() if module is not None else ()) if isinstance(f, FuncOp)
    }
    out = [func]
    todo = [func]
    while todo:
        f = todo.pop()
        for op in f.walk():
            if isinstance(op, CallOp):
                for name in op.possible_callees(by_name):
                    callee = by_name[name]
                    if callee not in out:
                        out.append(callee)
                        todo.append(callee)
    return out


def _users(v: SSAValue) -> list[Operation]:
    users: list[Operation] = []
    for use in list(v.uses):
        if use.operation not in users:
            users.append(use.operation)
    return users


def _insert_after_def(v: SSAValue, ops: list[Operation]) -> None:
    if isinstance(v, BlockArgument):
        blk = v.block
        at = blk.first_op
        for op in ops:
            if at is None:
                blk.add_op(op)
            else:
                blk.insert_op_before(op, at)
        return
    assert isinstance(v, OpResult)
    blk = v.op.parent_block()
    assert blk is not None
    anchor = v.op
    for op in ops:
        blk.insert_op_after(op, anchor)
        anchor = op


def _replace_use(user: Operation, old: SSAValue, new: SSAValue) -> None:
    for k, o in enumerate(user.operands):
        if o is old:
            user.operands[k] = new


def spill_value(
    v: SSAValue, tag: int, smem: SmemSpill | None = None
) -> tuple[int, int]:
    """Insert the spill of ``v`` (module docstring).  Returns (store, reload)
    counts: memory stores/loads for an R value, home definitions / reload
    instructions for the other files.  ``smem`` selects the SMEM mode for R
    values."""
    t = v.type
    assert isinstance(t, OriRegisterType)
    f = t.REG_FILE
    if f is RegFile.R:
        return _spill_to_memory(v, tag, smem)
    if f in (RegFile.P, RegFile.UP):
        return _spill_via_gpr(
            v, tag,
            lambda attrs: [P2ROp.make([R32Type.fixed(), 1, v], attributes=attrs)],
            lambda homes, attrs: [R2POp.make([homes[0], 1], [type(t).unallocated()],
                                             attributes=attrs)],
        )
    if f is RegFile.B:
        return _spill_via_gpr(
            v, tag,
            lambda attrs: [BMovOp.make([v], [R32Type.unallocated()], attributes=attrs)],
            lambda homes, attrs: [BMovOp.make([homes[0]], [BarrierType.unallocated()],
                                              attributes=attrs)],
        )
    if f is RegFile.UR and t.BITS == 32:
        return _spill_via_gpr(
            v, tag,
            lambda attrs: [MovOp.make([v], [R32Type.unallocated()], attributes=attrs)],
            lambda homes, attrs: [R2UROp.make([homes[0]], [UR32Type.unallocated()],
                                              attributes=attrs)],
        )
    if f is RegFile.UR and t.BITS == 64:
        def reload64(homes: list[SSAValue], attrs: dict[str, IntegerAttr]) -> list[Operation]:
            lo = R2UROp.make([homes[0]], [UR32Type.unallocated()], attributes=dict(attrs))
            hi = R2UROp.make([homes[1]], [UR32Type.unallocated()], attributes=dict(attrs))
            pk = PackOp.make([lo.results[0], hi.results[0]], [UR64Type.unallocated()],
                             attributes=dict(attrs))
            return [lo, hi, pk]

        return _spill_via_gpr(
            v, tag,
            lambda attrs: [UnpackOp.make([v], [R32Type.unallocated()] * 2, attributes=attrs)],
            reload64,
        )
    raise ValueError(f"ori-regalloc: no spill path for a {t} value")


def _spill_via_gpr(
    v: SSAValue,
    tag: int,
    make_home: object,
    make_reload: object,
) -> tuple[int, int]:
    users = _users(v)
    home_ops: list[Operation] = make_home({HOME_ATTR: IntegerAttr(tag, i32)})  # type: ignore[operator]
    _insert_after_def(v, home_ops)
    homes = list(home_ops[-1].results)
    reloads = 0
    for user in users:
        ops: list[Operation] = make_reload(homes, {SPILL_ATTR: IntegerAttr(tag, i32)})  # type: ignore[operator]
        ub = user.parent_block()
        assert ub is not None
        for op in ops:
            ub.insert_op_before(op, user)
        _replace_use(user, v, ops[-1].results[0])
        reloads += 1
    return 1, reloads


def _smem_address(
    smem: SmemSpill | None, width: int, before: Operation | None = None
) -> tuple[list[Operation], SSAValue | OriRegisterType]:
    """The address operand of a spill access (``RZ`` for local memory) and
    the ops computing it.  SMEM: the per-thread base is rematerialised before
    every access, like a reload, so it never holds a register across the
    kernel; a reload right after another SMEM reload of the same width
    (several reloads feeding one instruction) reuses that one's base."""
    if smem is None:
        return [], R32Type.fixed()
    prev = before.prev_op if before is not None else None
    if isinstance(prev, LdsOp) and SPILL_ATTR in prev.attributes \
            and prev.access_bytes() == width:
        b = prev.src("addr")
        if isinstance(b, OpResult) and isinstance(
            a := b.op.attributes.get(SMEM_BASE_ATTR), IntegerAttr
        ) and a.value.data == 1:
            return [], b
    ops = smem_base_ops(smem, width)
    return ops, ops[-1].results[0]


def mem_store_ops(v: SSAValue, tag: int, smem: SmemSpill | None) -> list[Operation]:
    """The spill store of R value ``v`` to slot ``tag`` (``STL``, or ``STS``
    with its address ops in the SMEM mode), not yet inserted."""
    t = v.type
    assert isinstance(t, OriRegisterType)
    pre, base = _smem_address(smem, 4 * t.num_regs())
    store_cls: type[OriInstruction] = StsOp if smem is not None else StlOp
    st = store_cls.make([base, PROVISIONAL_BASE + 16 * tag, v], mods=_WIDTH_MOD[t.num_regs()],
                        attributes={SPILL_ATTR: IntegerAttr(tag, i32)})
    return [*pre, st]


def mem_reload_ops(
    t: OriRegisterType, tag: int, smem: SmemSpill | None, user: Operation
) -> list[Operation]:
    """The reload of slot ``tag`` (an R value of type ``t``) to insert right
    before ``user``; the last op's result is the reloaded value."""
    pre, base = _smem_address(smem, 4 * t.num_regs(), user)
    load_cls: type[OriInstruction] = LdsOp if smem is not None else LdlOp
    ld = load_cls.make([base, PROVISIONAL_BASE + 16 * tag], [type(t).unallocated()],
                       mods=_WIDTH_MOD[t.num_regs()], attributes={SPILL_ATTR: IntegerAttr(tag, i32)})
    return [*pre, ld]


def _spill_to_memory(v: SSAValue, tag: int, smem: SmemSpill | None) -> tuple[int, int]:
    t = v.type
    assert isinstance(t, OriRegisterType)
    users = _users(v)
    _insert_after_def(v, mem_store_ops(v, tag, smem))
    reloads = 0
    for user in users:
        ops = mem_reload_ops(t, tag, smem, user)
        ub = user.parent_block()
        assert ub is not None
        for op in ops:
            ub.insert_op_before(op, user)
        _replace_use(user, v, ops[-1].results[0])
        reloads += 1
    return 1, reloads


# ---------------------------------------------------------------------------
# slots
# ---------------------------------------------------------------------------


def _is_mem_spill(op: Operation) -> bool:
    return isinstance(op, SPILL_STORES + SPILL_LOADS) and SPILL_ATTR in op.attributes


def _slot_conflicts(
    func: Operation, kinds: tuple[type[Operation], ...]
) -> tuple[dict[int, int], set[tuple[int, int]]]:
    """Width in bytes of every tag and the pairs of tags live at the same time
    (spill stores/reloads of the op classes ``kinds``)."""
    blocks = list(func.regions[0].blocks)
    cfg = CFG(blocks)
    width: dict[int, int] = {}
    ops_of: list[list[tuple[Operation, int, bool]]] = []
    for b in blocks:
        lst = []
        for op in b.ops:
            t = spill_tag(op)
            if t is not None and isinstance(op, kinds) and isinstance(op, MemoryOp):
                lst.append((op, t, isinstance(op, SPILL_STORES)))
                width[t] = op.access_bytes()
        ops_of.append(lst)
    n = len(blocks)
    live_in: list[set[int]] = [set() for _ in range(n)]
    changed = True
    while changed:
        changed = False
        for b in reversed(range(n)):
            out: set[int] = set()
            for s in cfg.succs[b]:
                out |= live_in[s]
            cur = set(out)
            for _op, t, is_store in reversed(ops_of[b]):
                if is_store:
                    cur.discard(t)
                else:
                    cur.add(t)
            if cur != live_in[b]:
                live_in[b] = cur
                changed = True
    conflicts: set[tuple[int, int]] = set()
    for b in range(n):
        cur = set()
        for s in cfg.succs[b]:
            cur |= live_in[s]
        for _op, t, is_store in reversed(ops_of[b]):
            if is_store:
                for o in cur:
                    if o != t:
                        conflicts.add((min(o, t), max(o, t)))
                cur.discard(t)
            else:
                cur.add(t)
        snapshot = sorted(cur)
        for i, a in enumerate(snapshot):
            for c in snapshot[i + 1 :]:
                conflicts.add((a, c))
    return width, conflicts


def _place(width: dict[int, int], conflicts: set[tuple[int, int]]) -> dict[int, int]:
    placed: dict[int, int] = {}
    for t in sorted(width, key=lambda t: (-width[t], t)):
        w = width[t]
        off = 0
        while True:
            clash = False
            for o, po in placed.items():
                if (min(o, t), max(o, t)) in conflicts and po < off + w and off < po + width[o]:
                    clash = True
                    off = max(off, -(-(po + width[o]) // w) * w)
            if not clash:
                break
        placed[t] = off
    return placed


def _compact(func: Operation, base: int, kinds: tuple[type[Operation], ...]) -> tuple[int, int]:
    """Place the slots of ``kinds`` from ``base`` rounded up to the widest
    slot: (area size, start of the area).  The rounding matters where the
    area follows the callees' frames (static frame layout), which need not
    end on a multiple of 8 or 16: an ``STL.64`` at a 4-byte boundary is a
    misaligned access on the hardware as in the interpreter."""
    width, conflicts = _slot_conflicts(func, kinds)
    if not width:
        return 0, base
    widest = max(width.values())
    base = -(-base // widest) * widest
    placed = _place(width, conflicts)
    size = max(placed[t] + width[t] for t in placed)
    for op in list(func.walk()):
        t = spill_tag(op)
        if t is not None and isinstance(op, kinds) and isinstance(op, OriInstruction):
            set_const(op, "offset", base + placed[t])
    return size, base


def compact_slots(func: Operation, base: int) -> int:
    """Assign final local-memory offsets from ``base``; returns the area's size."""
    return _compact(func, base, (StlOp, LdlOp))[0]


def set_const(op: OriInstruction, name: str, value: int) -> None:
    """Set the immediate slot ``name`` of ``op`` (a spill slot offset, the
    SMEM base) in place."""
    consts = op.const_map()
    consts[name] = IntegerAttr(value, i32)
    op.properties["consts"] = DictionaryAttr(consts)


@dataclass
class SpillArea:
    local_bytes: int
    """Size of the local-memory spill area (0 when none)."""
    smem_bytes: int
    """Shared memory reserved for SMEM spills per CTA (0 when none)."""
    smem_per_thread: int
    """Per-thread SMEM spill area (bytes)."""
    remarks: list[str]
    local_base: int = 0
    """Where the local-memory spill area starts: the base asked for, rounded
    up to the widest slot (:func:`_compact`)."""


def layout_spill_area(func: Operation, local_base: int, smem: SmemSpill | None) -> SpillArea:
    """Compact the spill slots (local and shared) and patch every offset.
    SMEM slots that do not fit in the shared memory left (per thread:
    ``(limit - base) // threads``) go to local memory -- ptxas: "If adequate
    shared memory is not available, any remaining spills fall back to local
    memory"."""
    remarks: list[str] = []
    smem_bytes = per_thread = 0
    if any(isinstance(op, StsOp | LdsOp) and _is_mem_spill(op) for op in func.walk()):
        assert smem is not None
        static_attr = func.attributes.get("ori.shared_bytes")
        static = static_attr.value.data if isinstance(static_attr, IntegerAttr) else 0
        base = -(-static // 16) * 16
        cap = max(smem.limit - base, 0) // smem.threads
        width, conflicts = _slot_conflicts(func, (StsOp, LdsOp))
        # One region per access width (16, 8, then 4 bytes), each compacted
        # on its own: thread t's slot at o in the region of width w is at
        # (region + o) * T + t * w, a one-to-one map of (thread, byte) to
        # shared bytes.  Mixing widths in one region would not be: a b64
        # slot of thread t at o * T + 8t shares bytes with the b32 slot of
        # thread 2t+1 at o * T + 4(2t+1), and threads that diverge are at
        # different points, where different slots are live.
        placed: dict[int, int] = {}
        keep: set[int] = set()
        cum = need = 0
        for w in sorted({width[t] for t in width}, reverse=True):
            group = {t: width[t] for t in width if width[t] == w}
            sub = _place(group, {c for c in conflicts if c[0] in group and c[1] in group})
            need += max(sub[t] + w for t in sub)
            kept = {t for t in sub if cum + sub[t] + w <= cap}
            for t in kept:
                placed[t] = cum + sub[t]
            keep |= kept
            cum += max((sub[t] + w for t in kept), default=0)
        move = set(width) - keep
        if move:
            remarks.append(
                f"SMEM spilling: {len(move)} of {len(placed)} spilled values do not fit in the "
                f"{cap} bytes per thread left for {smem.threads} threads ({need} needed): "
                "they go to local memory"
            )
            _smem_to_local(func, move)
        if keep:
            per_thread = cum
            for op in func.walk():
                t = spill_tag(op)
                if t in keep and isinstance(op, StsOp | LdsOp):
                    # structure of arrays: the slot's bytes of all threads lie together
                    set_const(op, "offset", placed[t] * smem.threads)
                a = op.attributes.get(SMEM_BASE_ATTR)
                if isinstance(a, IntegerAttr) and a.value.data == 1 and base:
                    assert isinstance(op, LeaOp)
                    set_const(op, "b", base)
            smem_bytes = smem.threads * per_thread
            func.attributes["ori.shared_bytes"] = IntegerAttr(base + smem_bytes, i32)
            func.attributes[SMEM_THREADS_ATTR] = IntegerAttr(smem.threads, i32)
    local_area, start = _compact(func, local_base, (StlOp, LdlOp))
    return SpillArea(local_area, smem_bytes, per_thread, remarks, start)


def _smem_to_local(func: Operation, tags: set[int]) -> None:
    """Turn the SMEM spill stores/reloads of ``tags`` into their local-memory
    twins and drop the base computations left without a use."""
    for op in list(func.walk()):
        if not (isinstance(op, StsOp | LdsOp) and _is_mem_spill(op) and spill_tag(op) in tags):
            continue
        mods = op.mod("width") or ""
        mods = "" if mods == "b32" else mods
        attrs = dict(op.attributes)
        if isinstance(op, StsOp):
            data = op.src("value")
            new: Operation = StlOp.make([R32Type.fixed(), op.offset(), data], mods=mods,
                                        attributes=attrs)
        else:
            new = LdlOp.make([R32Type.fixed(), op.offset()], [op.results[0].type], mods=mods,
                             attributes=attrs)
        blk = op.parent_block()
        assert blk is not None
        blk.insert_op_before(new, op)
        if op.results:
            op.results[0].replace_all_uses_with(new.results[0])
        blk.erase_op(op)
    base_ops = [op for op in func.walk() if SMEM_BASE_ATTR in op.attributes]
    for op in reversed(base_ops):
        if all(not r.uses for r in op.results):
            blk = op.parent_block()
            assert blk is not None
            blk.erase_op(op)


def spill_figures(func: Operation) -> tuple[int, int]:
    """Bytes accessed by the local-memory spill stores and reloads."""
    stores = loads = 0
    for op in func.walk():
        if spill_tag(op) is None:
            continue
        if isinstance(op, StlOp):
            stores += op.access_bytes()
        elif isinstance(op, LdlOp):
            loads += op.access_bytes()
    return stores, loads


def smem_spill_figures(func: Operation) -> tuple[int, int]:
    """Bytes accessed by the shared-memory spill stores and reloads."""
    stores = loads = 0
    for op in func.walk():
        if spill_tag(op) is None:
            continue
        if isinstance(op, StsOp):
            stores += op.access_bytes()
        elif isinstance(op, LdsOp):
            loads += op.access_bytes()
    return stores, loads


# ---------------------------------------------------------------------------
# checks (used by ori-check-regalloc)
# ---------------------------------------------------------------------------


def smem_slot_offset(func: Operation, op: OriInstruction) -> int:
    """Per-thread offset of an SMEM spill access (its immediate divided by
    the threads the area is laid out for)."""
    a = func.attributes.get(SMEM_THREADS_ATTR)
    threads = a.value.data if isinstance(a, IntegerAttr) and a.value.data > 0 else 1
    return (op.src_int("offset") or 0) // threads


def check_spill_homes(func: Operation) -> list[str]:
    """Every register reload tagged ``#t`` (R2P, R2UR, BMOV into B, the pack
    of a UR64 reload) reads the GPR home defined for ``#t`` -- directly, or
    through memory spill reloads of that home -- and every SMEM spill
    store/reload addresses through the per-thread SMEM base."""
    name = f"@{func.sym_name.data}"  # type: ignore[attr-defined]
    out: list[str] = []
    stored_by_tag: dict[int, list[SSAValue]] = {}
    for op in func.walk():
        t = spill_tag(op)
        if t is not None and isinstance(op, SPILL_STORES):
            v = op.src("value")
            if isinstance(v, SSAValue):
                stored_by_tag.setdefault(t, []).append(v)

    def home_of(v: SSAValue, depth: int = 0) -> int | None:
        if not isinstance(v, OpResult) or depth > 16:
            return None
        h = home_tag(v.op)
        if h is not None:
            return h
        t = spill_tag(v.op)
        if t is not None and isinstance(v.op, SPILL_LOADS):
            homes = {home_of(s, depth + 1) for s in stored_by_tag.get(t, [])}
            return homes.pop() if len(homes) == 1 else None
        return None

    def follow(v: OpResult) -> list[SSAValue]:
        t = spill_tag(v.op)
        return stored_by_tag.get(t, []) if t is not None and isinstance(v.op, SPILL_LOADS) else []

    seen: dict[int, tuple[int, Operation]] = {}
    for op in func.walk():
        if isinstance(op, StsOp | LdsOp) and _is_mem_spill(op):
            # the (thread, byte) -> shared byte map is one-to-one only while
            # every per-thread byte belongs to slots of a single width
            w = op.access_bytes()
            start = smem_slot_offset(func, op)
            for i in range(start, start + w):
                prev = seen.setdefault(i, (w, op))
                if prev[0] != w:
                    out.append(
                        f"{name}: SMEM spill slots of {prev[0]} and {w} bytes share per-thread "
                        f"byte {i} (other threads' slots would overlap): {str(op).strip()[:120]}"
                    )
                    break
    for op in func.walk():
        t = spill_tag(op)
        if t is None:
            continue
        if isinstance(op, StsOp | LdsOp):
            b = op.src("addr")
            ok = (
                isinstance(b, OpResult) and isinstance(b.op, LeaOp)
                and isinstance(a := b.op.attributes.get(SMEM_BASE_ATTR), IntegerAttr)
                and a.value.data == 1 and 1 << (b.op.src_int("shift") or 0) == op.access_bytes()
            )
            if not ok:
                out.append(f"{name}: SMEM spill access of value #{t} does not address through "
                           f"the per-thread spill base (thread id x access width): "
                           f"{str(op).strip()[:120]}")
            continue
        if isinstance(op, R2POp):
            # a predicate home may hold several spilled predicates, one bit
            # each (pred_pack.py): the bit the reload reads must be #t's
            mask = op.src_int("mask") or 0
            j = mask.bit_length() - 1
            bits = home_bits(op.operands[0], follow)
            got = None if bits is None else bits.get(j)
            if mask & (mask - 1) or got != t:
                what = ("no spill home" if bits is None else
                        f"bit {j} of a home that holds no predicate there" if got is None else
                        f"the home of #{got}")
                out.append(f"{name}: register reload of spilled value #{t} reads {what}: "
                           f"{str(op).strip()[:120]}")
            continue
        if isinstance(op, R2UROp | BMovOp):
            srcs = [op.operands[0]]
        elif isinstance(op, PackOp):
            continue  # its parts are R2UR reloads, checked themselves
        else:
            continue
        for s in srcs:
            h = home_of(s)
            if h != t:
                out.append(f"{name}: register reload of spilled value #{t} reads "
                           f"{'no spill home' if h is None else f'the home of #{h}'}: "
                           f"{str(op).strip()[:120]}")
    return out


__all__ = [
    "HOME_ATTR",
    "SMEM_BASE_ATTR",
    "SMEM_SPILL_PRAGMA",
    "SMEM_THREADS_ATTR",
    "SmemSpill",
    "SpillArea",
    "check_spill_homes",
    "compact_slots",
    "layout_spill_area",
    "mem_reload_ops",
    "mem_store_ops",
    "next_tag",
    "set_const",
    "smem_base_ops",
    "smem_requested",
    "smem_slot_offset",
    "smem_spill_figures",
    "smem_spill_setup",
    "spill_figures",
    "spill_tag",
    "spill_value",
]
_ = PredType
