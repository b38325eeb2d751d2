"""Atomics, barriers, fences and warp collectives.

* ``atom``/``red`` -> ``ori.atom`` (``.global`` and generic addresses: ATOM.E
  takes a generic address, and a global address is a generic one),
  ``ori.atoms`` (``.shared``), ``ori.red`` (``red.global``/generic).  Ori has no
  shared-memory RED, so ``red.shared`` is an ``ori.atoms`` whose result nobody
  reads.  The Ori type is the PTX type with the signedness that matters:
  ``add and or xor exch cas`` do not depend on it (``u32``/``u64``), ``min``
  and ``max`` do (``s32 u32 s64 u64``; ``.b32``/``.b64`` are rejected as PTX
  does), ``inc``/``dec`` exist for ``.u32`` only.  Floating point: ``add.f32``
  (flushes subnormals, as PTX specifies), ``add.f64`` and
  ``add.noftz.{f16x2,bf16x2}``.  Not supported: 16-bit and 128-bit atomics
  (``cas.b16``, ``exch/cas.b128``, ``add.noftz.f16``), ``min``/``max`` on
  half types, vector atomics (``.v2/.v4/.v8``), ``.shared::cluster`` and
  ``.mmio``.
* Memory semantics: Ori's atomics carry a scope but no ordering, so
  ``.release`` puts an ``ori.membar`` of the atomic's scope before the atomic,
  ``.acquire`` one after it and ``.acq_rel`` both (a fence on either side is
  at least as strong as the ordering PTX asks for); ``.relaxed`` (the
  default) adds none.  ``.cluster`` scope becomes ``gpu`` (the next wider
  scope Ori has).
* ``bar{.cta}.sync``/``barrier{.cta}.sync{.aligned}`` ``a{, b}`` -> ``ori.bar``
  ``sync`` with barrier ``a`` and optional thread count ``b``;
  ``bar.arrive``/``barrier.arrive`` ``a, b`` -> ``ori.bar arv``.  The
  reduction forms ``bar.red.popc.u32`` / ``bar.red.{and,or}.pred`` (CUDA's
  ``__syncthreads_count/and/or``) -> ``ori.bar_red``; a guarded one is
  unsupported.
* ``bar.warp.sync membermask`` -> ``ori.membar cta``.  Ori has no WARPSYNC:
  lanes of a warp that reach the same instruction run it together (the
  interpreter reconverges them at the join of their paths), so what is left
  of ``bar.warp.sync`` is its memory ordering among the participating lanes;
  a CTA-scope fence gives that and keeps passes from moving memory accesses
  across it (a lane's store before it must stay visible to another lane's
  load after it).
* ``membar.cta/.gl/.sys`` and ``fence{.sc,.acq_rel}.{cta,cluster,gpu,sys}``
  -> ``ori.membar`` of that scope (``gl`` and ``cluster`` -> ``gpu``).  Ori's
  MEMBAR is a full fence, so ``.sc`` and ``.acq_rel`` both map to it.
  ``fence.proxy.*``, ``fence.mbarrier_init`` and ``membar.proxy`` are
  unsupported.
* ``shfl.sync.{up,down,bfly,idx}.b32 d{|p}, a, b, c, membermask`` ->
  ``ori.shfl`` with ``lane = b`` and ``clamp = c`` unchanged: ``ori.shfl``
  takes PTX's packed ``c`` (clamp in bits 0-4, segment mask in bits 8-12) and
  computes the source lane and the predicate exactly as the PTX ISA's
  pseudo-code does (an out-of-range source lane gives the lane its own ``a``
  and ``p`` = false).
* ``vote.sync.{all,any,uni}.pred`` -> ``ori.vote`` ``all``/``any``/``eq`` with
  its predicate result; ``vote.sync.ballot.b32`` -> ``ori.vote any`` with its
  ballot result; ``!p`` sources become the op's ``not`` source modifier.
  With a member mask other than an immediate full mask (cooperative groups'
  tiles vote in parts of a warp at once), the vote is computed from ballots
  ANDed with the mask (``_vote_masked``).
  ``activemask.b32 d`` -> ``ori.vote any d, PT`` (the ballot of the executing
  lanes).
* ``redux.sync.{add,min,max}.{u32,s32}`` and ``redux.sync.{and,or,xor}.b32
  d, a, membermask`` (sm_80+) -> ``ori.redux`` ``sum``/``min``/``max`` (with
  the type: SASS prints ``REDUX.SUM.S32``, ``REDUX.MIN.S32``, ``REDUX.MAX``)
  and ``and``/``or``/``xor`` (``REDUX``, ``REDUX.OR``, ``REDUX.XOR``); the
  other type pairings are errors, as in ptxas.  ``redux.sync.{min,max}
  {.abs}{.NaN}.f32`` -> ``ori.credux`` (``CREDUX.MIN.F32``, ...) where the
  target allows it: ptxas 13.0 accepts it for sm_100a/sm_103a only, which
  are not ori targets, so the frontend reports the target error ptxas gives.
  ptxas writes REDUX's result to a uniform register and moves it to a GPR;
  ori's result is a GPR standing for both (``ori_dialect/ops/sync.py``).
* ``match.{any,all}.sync.{b32,b64} d{|p}, a, membermask`` (sm_70+) ->
  ``ori.match`` ``any``/``all`` (``.u64`` for ``b64``), the predicate of
  ``match.all`` as its second result.
* ``redux.sync`` and ``match.sync`` keep their ``membermask`` as the op's
  ``mask`` source: cooperative groups' tiles run one reduction per part of
  a warp, each with its own mask, all at once (ptxas separates them with
  ``WARPSYNC.EXCLUSIVE``).
* ``shfl.sync`` keeps a ``membermask`` that is not known to be the full
  warp as ``ori.shfl``'s ``mask`` source (cooperative groups' tiles, as for
  ``redux.sync``).
* The ``membermask`` of ``bar.warp.sync`` (and a full ``vote.sync`` or
  ``shfl.sync`` mask) names the lanes that must execute the instruction
  together; a valid PTX program
  has them all there, and Ori's collectives act on exactly the lanes that
  execute them, so the mask only needs to be a valid operand.  The
  deprecated forms without ``.sync`` (sm_6x only) are unsupported.
* ``griddepcontrol.wait`` -> ``ori.acqbulk`` (``ACQBULK``) and
  ``griddepcontrol.launch_dependents`` -> ``ori.preexit`` (``PREEXIT``),
  sm_90+ as in ptxas: ordering points in the single-grid model.
* ``trap`` -> ``ori.bpt trap 0x1`` (``BPT.TRAP 0x1``, as ptxas emits it); the
  code after it stays (nvcc's PTX continues after ``trap``).
* ``nanosleep`` and ``prefetch``/``prefetchu`` emit nothing (their operands
  are still checked): a sleep of any length in ``[0, 2t]`` is allowed, so
  zero is a valid one, and a prefetch only moves data between caches (it
  never faults or changes a value).  ``discard`` is unsupported: it makes
  the memory's contents indeterminate, an observable effect Ori cannot
  express.
"""

from __future__ import annotations

import dataclasses
from typing import TYPE_CHECKING

from xdsl.ir import OpResult, SSAValue

from ori_dialect.ir.instruction import OriInstruction
from ori_dialect.ir.registers import PredType, R32Type, R64Type
from ori_dialect.ops.integer import Lop3Op
from ori_dialect.ops.memory import AtomOp, AtomsOp, RedOp
from ori_dialect.ops.predicate import ISetPOp
from ori_dialect.ops.special import BptOp
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
from ori_dialect.ptx import ast
from ori_dialect.ptx.lower.data import address
from ori_dialect.ptx.lower.gmma import lower_fence_proxy_async
from ori_dialect.ptx.lower.handlers import lowers
from ori_dialect.ptx.lower.types import is_signed, reg_class, type_bits

if TYPE_CHECKING:
    from ori_dialect.ptx.lower.builder import LoweringBuilder

PT = PredType.fixed()
RZ = R32Type.fixed()

_SEMS = ("relaxed", "acquire", "release", "acq_rel")
_SCOPES = {"cta": "cta", "cluster": "gpu", "gpu": "gpu", "sys": "sys"}
_ATOM_OPS = ("add", "min", "max", "inc", "dec", "and", "or", "xor", "exch", "cas")
_RED_OPS = ("add", "min", "max", "inc", "dec", "and", "or", "xor")
_INT32 = ("b32", "u32", "s32")
_INT64 = ("b64", "u64", "s64")
_ALL_TYPES = frozenset([*_INT32, *_INT64, "f32", "f64", "f16x2", "bf16x2", "f16", "bf16",
                        "b16", "u16", "s16", "b128", "f16x2", "e4m3x2"])


def _ori_type(ctx: LoweringBuilder, ins: ast.Instruction, op: str, t: str, noftz: bool) -> str:
    """The Ori ``type`` modifier of atomic ``op`` on PTX type ``t``."""
    if t in ("b16", "u16", "s16", "f16", "bf16", "b128"):
        ctx.unsupported(ins, f"{type_bits(t)}-bit atomics (Ori's atomics are 32 or 64 bits wide)")
    if t in ("f16x2", "bf16x2"):
        if op != "add":
            ctx.unsupported(ins, f"atomic {op} on .{t}")
        if not noftz:
            ctx.error(f"atom.add.{t} requires the '.noftz' modifier", ins)
        return t
    wide = t in _INT64 or t == "f64"
    if op in ("and", "or", "xor", "exch", "cas"):
        # Bitwise: any 32/64-bit type names the same bits.
        return "u64" if wide else "u32"
    if op == "add":
        if t in ("f32", "f64"):
            return t
        return "u64" if wide else "u32"
    if op in ("min", "max"):
        if t in ("s32", "u32", "s64", "u64"):
            return t
        ctx.error(f"atomic {op} needs a signed or unsigned integer type, not .{t}", ins)
    # inc / dec
    if t != "u32":
        ctx.error(f"atomic {op} requires the .u32 type", ins)
    return t


def _dst(d: ast.Operand) -> ast.Operand | None:
    return d if isinstance(d, ast.Register) and d.name != "_" else None


def _set_result(ctx: LoweringBuilder, d: ast.Operand | None, v: SSAValue, signed: bool) -> None:
    """Define PTX destination ``d`` from the result of an op built by ``emit_effect``."""
    if d is None:
        return
    assert isinstance(d, ast.Register)
    var = ctx.lookup(d.name, d)
    if reg_class(var.type) is type(v.type):
        ctx.set(d, v, guarded=True)
    else:
        # A resize is an op of its own: ``set`` wraps it in a guarded move.
        ctx.set(d, v, signed=signed)


def _fence(ctx: LoweringBuilder, scope: str) -> None:
    ctx.emit_effect(MembarOp, [], [], mods=scope)


def _atomic(ctx: LoweringBuilder, ins: ast.Instruction, red: bool) -> None:
    space = "generic"
    sem = "relaxed"
    scope = ""
    op = ""
    t = ""
    noftz = False
    cache_hint = False
    ops = _RED_OPS if red else _ATOM_OPS
    for m in ins.modifiers:
        if m in ("global", "shared", "shared::cta"):
            space = "shared" if m.startswith("shared") else m
        elif m in _SEMS:
            sem = m
        elif m in _SCOPES:
            scope = _SCOPES[m]
        elif m in ops:
            op = m
        elif m in _ALL_TYPES:
            t = m
        elif m == "noftz":
            noftz = True
        elif m in ("v2", "v4", "v8"):
            ctx.unsupported(ins, "vector atomics")
        elif m == "L2::cache_hint":
            cache_hint = True  # a cache policy operand follows; it only steers caching
        elif m.startswith("L2::"):
            continue  # cache-eviction hints: no effect on values
        else:
            ctx.unsupported(ins, f"modifier '.{m}'")
    if not op or not t:
        ctx.error(f"{ins.opcode} needs an operation and a type", ins)
    ori_t = _ori_type(ctx, ins, op, t, noftz)
    nsrc = 2 if op == "cas" else 1
    ops_in = list(ins.operands)
    if cache_hint:
        if not ops_in:
            ctx.error(".L2::cache_hint needs a cache-policy operand", ins)
        ops_in = ops_in[:-1]
    want = (1 if red else 2) + nsrc
    if len(ops_in) != want:
        ctx.error(f"{ins.opcode}.{op} takes {want} operands", ins)
    if red:
        d: ast.Operand | None = None
        a, *vals = ops_in
    else:
        d0, a, *vals = ops_in
        d = _dst(d0)
    wide = ori_t.endswith("64")
    rt = (R64Type if wide else R32Type).unallocated()
    src_t = t if t not in ("f16x2", "bf16x2") else "b32"
    if wide or t in ("f32", "f16x2", "bf16x2"):
        value: SSAValue | int | float = ctx.value(vals[0], src_t)
    else:
        value = ctx.src(vals[0], src_t)
    srcs: list[SSAValue | int | float] = []
    base, off = address(ctx, a, space)
    srcs = [base, off, value]
    if op == "cas":
        srcs.append(ctx.value(vals[1], src_t))
    mods = f"{op}.{ori_t}" + (f".{scope}" if scope else "")
    fence_scope = scope or "gpu"
    if sem in ("release", "acq_rel"):
        _fence(ctx, fence_scope)
    if red and space != "shared":
        ctx.emit_effect(RedOp, srcs, [], mods=mods)
    else:
        cls = AtomsOp if space == "shared" else AtomOp
        res = ctx.emit_effect(cls, srcs, [rt], mods=mods, dsts=[d]).results[0]
        _set_result(ctx, d, res, is_signed(t))
    if sem in ("acquire", "acq_rel"):
        _fence(ctx, fence_scope)


@lowers("atom")
def lower_atom(ctx: LoweringBuilder, ins: ast.Instruction) -> None:
    _atomic(ctx, ins, red=False)


@lowers("red")
def lower_red(ctx: LoweringBuilder, ins: ast.Instruction) -> None:
    _atomic(ctx, ins, red=True)


# ----------------------------------------------------------------------------
# barriers and fences


@lowers("bar", "barrier")
def lower_bar(ctx: LoweringBuilder, ins: ast.Instruction) -> None:
    mods = [m for m in ins.modifiers if m not in ("cta", "aligned")]
    if mods == ["warp", "sync"] and ins.opcode == "bar":
        if len(ins.operands) != 1:
            ctx.error("bar.warp.sync takes a member mask", ins)
        ctx.src(ins.operands[0], "b32")  # checked, see the module docstring
        ctx.emit_effect(MembarOp, [], [], mods="cta")
        return
    if mods and mods[0] == "red":
        _bar_red(ctx, ins, mods)
        return
    if "cluster" in mods:
        ctx.unsupported(ins, "cluster barriers")
    if mods not in (["sync"], ["arrive"]):
        ctx.unsupported(ins)
    arrive = mods == ["arrive"]
    n = len(ins.operands)
    if n not in (1, 2) or (arrive and n != 2):
        ctx.error(f"{ins.opcode}.{mods[0]} takes a barrier id" + (" and a thread count" if arrive
                                                                   else " and an optional count"),
                  ins)
    srcs = [ctx.src(o, "u32") for o in ins.operands]
    if isinstance(srcs[0], int) and not 0 <= srcs[0] <= 15:
        ctx.error(f"barrier id {srcs[0]} out of range 0..15", ins)
    if n == 2 and isinstance(srcs[1], int) and (srcs[1] == 0 or srcs[1] % 32 or srcs[1] > 1024):
        ctx.error(f"barrier thread count {srcs[1]} must be a non-zero multiple of 32, at most 1024",
                  ins)
    ctx.emit_effect(BarOp, srcs, [], mods="arv" if arrive else "sync")


def _bar_red(ctx: LoweringBuilder, ins: ast.Instruction, mods: list[str]) -> None:
    """``bar{.cta}.red.popc.u32 d, a{, b}, {!}c`` and ``bar{.cta}.red.{and,or}.pred
    p, a{, b}, {!}c`` (also spelled ``barrier{.cta}.red``; PTX ISA 9.7.13.1 "bar,
    barrier") -> ``ori.bar_red`` (BAR.RED with its B2R.RESULT, see the op)."""
    if mods not in (["red", "popc", "u32"], ["red", "and", "pred"], ["red", "or", "pred"]):
        ctx.error(f"expected {ins.opcode}.red.popc.u32 or {ins.opcode}.red.{{and,or}}.pred", ins)
    if ctx.guard is not None:
        ctx.unsupported(ins, "a guarded barrier reduction (branch around it)")
    n = len(ins.operands)
    if n not in (3, 4):
        ctx.error(f"{ins.opcode}.red takes d, a barrier id, an optional thread count and "
                  "{!}c", ins)
    d, *ids, c = ins.operands
    srcs = [ctx.src(o, "u32") for o in ids]
    if isinstance(srcs[0], int) and not 0 <= srcs[0] <= 15:
        ctx.error(f"barrier id {srcs[0]} out of range 0..15", ins)
    if n == 4 and isinstance(srcs[1], int) and (srcs[1] == 0 or srcs[1] % 32 or srcs[1] > 1024):
        ctx.error(f"barrier thread count {srcs[1]} must be a non-zero multiple of 32, at most 1024",
                  ins)
    pv, neg = _pred_source(ctx, c)
    popc = mods[1] == "popc"
    rt = R32Type.unallocated() if popc else PredType.unallocated()
    op = ctx.emit_effect(BarRedOp, [srcs[0], pv, *srcs[1:]], [rt], mods=mods[1],
                         smods={"a": "not"} if neg else None, dsts=[_dst(d)])
    _set_result(ctx, _dst(d), op.results[0], False)


@lowers("membar")
def lower_membar(ctx: LoweringBuilder, ins: ast.Instruction) -> None:
    scopes = {"cta": "cta", "gl": "gpu", "sys": "sys"}
    if len(ins.modifiers) != 1 or ins.modifiers[0] not in scopes:
        ctx.unsupported(ins, "only membar.cta/.gl/.sys are supported")
    if ins.operands:
        ctx.error("membar takes no operands", ins)
    _fence(ctx, scopes[ins.modifiers[0]])


@lowers("fence")
def lower_fence(ctx: LoweringBuilder, ins: ast.Instruction) -> None:
    mods = list(ins.modifiers)
    if mods[:2] == ["proxy", "async"]:
        lower_fence_proxy_async(ctx, ins)  # the wgmma operand fence (lower/gmma.py)
        return
    if mods and mods[0] in ("proxy", "mbarrier_init", "op_restrict"):
        ctx.unsupported(ins, "proxy and mbarrier fences")
    if mods and mods[0] in ("sc", "acq_rel"):
        mods = mods[1:]
    if len(mods) != 1 or mods[0] not in _SCOPES:
        ctx.unsupported(ins, "expected fence{.sc,.acq_rel}.{cta,cluster,gpu,sys}")
    if ins.operands:
        ctx.error("fence takes no operands", ins)
    _fence(ctx, _SCOPES[mods[0]])


# ----------------------------------------------------------------------------
# warp collectives


def _need_sync(ctx: LoweringBuilder, ins: ast.Instruction) -> list[str]:
    mods = list(ins.modifiers)
    if "sync" not in mods:
        ctx.unsupported(ins, f"{ins.opcode} without .sync (deprecated; PTX allows it only "
                        "before sm_70)")
    mods.remove("sync")
    return mods


@lowers("shfl")
def lower_shfl(ctx: LoweringBuilder, ins: ast.Instruction) -> None:
    mods = _need_sync(ctx, ins)
    if len(mods) != 2 or mods[0] not in ("up", "down", "bfly", "idx") or mods[1] != "b32":
        ctx.error("expected shfl.sync.{up,down,bfly,idx}.b32", ins)
    if len(ins.operands) != 5:
        ctx.error("shfl.sync takes d{|p}, a, b, c, membermask", ins)
    d, a, b, c, membermask = ins.operands
    if not isinstance(d, ast.Register):
        ctx.error("shfl.sync's destination must be a register", d)
    mask = ctx.src(membermask, "b32")
    srcs = [ctx.value(a, "b32"), ctx.src(b, "b32"), ctx.src(c, "b32")]
    if _known_mask(mask) != 0xFFFFFFFF:
        srcs.append(mask)  # a tile's mask: the lanes that exchange together (the op)
    dreg = _dst(dataclasses.replace(d, pair=None))
    types = [R32Type.unallocated()]
    dsts: list[ast.Operand | None] = [dreg]
    preg: ast.Register | None = None
    if d.pair is not None:
        preg = ast.Register(d.pair)
        types.append(PredType.unallocated())
        dsts.append(_dst(preg))
    op = ctx.emit_effect(ShflOp, srcs, types, mods=mods[0], dsts=dsts)
    _set_result(ctx, dreg, op.results[0], False)
    if preg is not None:
        _set_result(ctx, _dst(preg), op.results[1], False)


def _pred_source(ctx: LoweringBuilder, a: ast.Operand) -> tuple[SSAValue, bool]:
    """A predicate source and whether it is negated (``!p``)."""
    if isinstance(a, ast.Immediate):
        v = ctx.value(a, "pred")
        return v, False
    if not isinstance(a, ast.Register):
        ctx.error("expected a predicate register", a)
    return ctx.value(dataclasses.replace(a, negated=False), "pred"), a.negated


_LUT_AND = 0xC0  # LOP3 table of a & b


@lowers("vote")
def lower_vote(ctx: LoweringBuilder, ins: ast.Instruction) -> None:
    mods = _need_sync(ctx, ins)
    modes = {"all": "all", "any": "any", "uni": "eq"}
    ballot = mods == ["ballot", "b32"]
    if not ballot and (len(mods) != 2 or mods[0] not in modes or mods[1] != "pred"):
        ctx.error("expected vote.sync.{all,any,uni}.pred or vote.sync.ballot.b32", ins)
    if len(ins.operands) != 3:
        ctx.error("vote.sync takes d, {!}a, membermask", ins)
    d, a, membermask = ins.operands
    mask = ctx.src(membermask, "b32")
    pv, neg = _pred_source(ctx, a)
    smods = {"a": "not"} if neg else None
    if _known_mask(mask) != 0xFFFFFFFF:
        _vote_masked(ctx, d, pv, smods, mask, "ballot" if ballot else mods[0])
        return
    if ballot:
        op = ctx.emit_effect(VoteOp, [pv], [R32Type.unallocated()], mods="any", smods=smods,
                             dsts=[_dst(d)])
        _set_result(ctx, _dst(d), op.results[0], False)
        return
    op = ctx.emit_effect(VoteOp, [pv], [R32Type.unallocated(), PredType.unallocated()],
                         mods=modes[mods[0]], smods=smods, dsts=[None, _dst(d)])
    _set_result(ctx, _dst(d), op.results[1], False)


def _known_mask(mask: SSAValue | float) -> int | None:
    """The member mask's value when it is known while importing: an
    immediate, or a register set by ``mov`` of one (nvcc's usual form of a
    full mask)."""
    if isinstance(mask, int):
        return mask & 0xFFFFFFFF
    if isinstance(mask, SSAValue) and isinstance(mask.owner, OriInstruction):
        v = mask.owner.constant_value(mask.index) if isinstance(mask, OpResult) else None
        return v if isinstance(v, int) and not isinstance(v, bool) else None
    return None


def _vote_masked(ctx: LoweringBuilder, d: ast.Operand, pv: SSAValue,
                 smods: dict[str, str] | None, mask: SSAValue | float, mode: str) -> None:
    """``vote.sync`` with a member mask that may not be the whole warp:
    cooperative groups' tiles vote in parts of a warp at once, each with its
    own mask, while VOTE counts every lane that executes it.  The vote is
    taken from ballots restricted to the mask: ``ballot = VOTE(p) & mask``;
    ``any``: ballot != 0; ``all``: ballot == (executing lanes & mask);
    ``uni``: either of the two (a valid program has every lane of the mask
    there)."""
    r32 = R32Type.unallocated()
    b = ctx.emit_effect(VoteOp, [pv], [r32], mods="any", smods=smods, dsts=[None]).results[0]
    bm = ctx.emit1(Lop3Op, [b, mask, RZ, _LUT_AND])
    if mode == "ballot":
        ctx.set(d, bm)
        return
    act = ctx.emit_effect(VoteOp, [PT], [r32], mods="any", dsts=[None]).results[0]
    am = ctx.emit1(Lop3Op, [act, mask, RZ, _LUT_AND])
    if mode == "any":
        p = ctx.emit1(ISetPOp, [bm, 0, PT], mods="ne.u32.and")
    elif mode == "all":
        p = ctx.emit1(ISetPOp, [bm, am, PT], mods="eq.u32.and")
    else:
        none = ctx.emit1(ISetPOp, [bm, 0, PT], mods="eq.u32.and")
        p = ctx.emit1(ISetPOp, [bm, am, none], mods="eq.u32.or")
    ctx.set(d, p)


@lowers("activemask")
def lower_activemask(ctx: LoweringBuilder, ins: ast.Instruction) -> None:
    if list(ins.modifiers) != ["b32"] or len(ins.operands) != 1:
        ctx.error("expected activemask.b32 d", ins)
    d = _dst(ins.operands[0])
    op = ctx.emit_effect(VoteOp, [PT], [R32Type.unallocated()], mods="any", dsts=[d])
    _set_result(ctx, d, op.results[0], False)


def _need_sm(ctx: LoweringBuilder, ins: ast.Instruction, sm: int) -> None:
    if ctx.target.sm < sm:
        ctx.error(f"{ins.opcode} requires .target sm_{sm} or higher (target is "
                  f"{ctx.target.name})", ins)


# redux.sync operation -> (ori.redux op, the PTX types it takes)
_REDUX_OPS = {
    "add": ("sum", ("u32", "s32")), "min": ("min", ("u32", "s32")),
    "max": ("max", ("u32", "s32")), "and": ("and", ("b32",)), "or": ("or", ("b32",)),
    "xor": ("xor", ("b32",)),
}


@lowers("redux")
def lower_redux(ctx: LoweringBuilder, ins: ast.Instruction) -> None:
    mods = _need_sync(ctx, ins)
    _need_sm(ctx, ins, 80)
    if len(ins.operands) != 3:
        ctx.error("redux.sync takes d, a, membermask", ins)
    d, a, membermask = ins.operands
    mask = ctx.src(membermask, "b32")
    flags = {m for m in mods if m in ("abs", "NaN")}
    rest = [m for m in mods if m not in flags]
    if len(rest) != 2 or rest[0] not in _REDUX_OPS:
        ctx.error("expected redux.sync.{add,min,max,and,or,xor}.type", ins)
    opn, t = rest
    if t == "f32":
        if opn not in ("min", "max"):
            ctx.error(f"Incorrect type '.f32' for operation '.{opn}' in instruction 'redux'", ins)
        if not (ctx.target.sm >= 100 and ctx.target.name[-1] in "af"):
            ctx.error(f"redux.sync .f32 is not supported on target {ctx.target.name} (ptxas "
                      "13.0 accepts it for sm_100a and sm_103a only)", ins)
        mod = opn + ("abs" if "abs" in flags else "") + ".f32" + (".nan" if "NaN" in flags
                                                                    else "")
        op = ctx.emit_effect(CReduxOp, [ctx.value(a, "f32"), mask], [R32Type.unallocated()],
                             mods=mod, dsts=[_dst(d)])
        _set_result(ctx, _dst(d), op.results[0], False)
        return
    if flags:
        ctx.error(f"'.{min(flags)}' is for redux.sync.{{min,max}}.f32 only", ins)
    ori_op, types = _REDUX_OPS[opn]
    if t not in types:
        ctx.error(f"Incorrect type '.{t}' for operation '.{opn}' in instruction 'redux'", ins)
    # Only min/max depend on the signedness; SASS still spells REDUX.SUM.S32.
    sign = "s32" if t == "s32" and ori_op in ("sum", "min", "max") else "u32"
    mod = ori_op if sign == "u32" else f"{ori_op}.{sign}"
    if mod == "and":
        mod = ""  # SASS's default operation
    op = ctx.emit_effect(ReduxOp, [ctx.value(a, "b32"), mask], [R32Type.unallocated()], mods=mod,
                         dsts=[_dst(d)])
    _set_result(ctx, _dst(d), op.results[0], t == "s32")


@lowers("match")
def lower_match(ctx: LoweringBuilder, ins: ast.Instruction) -> None:
    mods = _need_sync(ctx, ins)
    _need_sm(ctx, ins, 70)
    if len(mods) != 2 or mods[0] not in ("any", "all") or mods[1] not in ("b32", "b64"):
        ctx.error("expected match.{any,all}.sync.{b32,b64}", ins)
    mode, t = mods
    if len(ins.operands) != 3:
        ctx.error("match.sync takes d{|p}, a, membermask", ins)
    d, a, membermask = ins.operands
    if not isinstance(d, ast.Register):
        ctx.error("match.sync's destination must be a register", d)
    mask = ctx.src(membermask, "b32")
    dreg = _dst(dataclasses.replace(d, pair=None))
    types = [R32Type.unallocated()]
    dsts: list[ast.Operand | None] = [dreg]
    preg: ast.Register | None = None
    if d.pair is not None:
        if mode != "all":
            ctx.error("only match.all.sync has a predicate destination 'd|p'", d)
        preg = ast.Register(d.pair)
        types.append(PredType.unallocated())
        dsts.append(_dst(preg))
    mod = mode + (".u64" if t == "b64" else "")
    op = ctx.emit_effect(MatchOp, [ctx.value(a, t), mask], types, mods=mod, dsts=dsts)
    _set_result(ctx, dreg, op.results[0], False)
    if preg is not None:
        _set_result(ctx, _dst(preg), op.results[1], False)


@lowers("griddepcontrol")
def lower_griddepcontrol(ctx: LoweringBuilder, ins: ast.Instruction) -> None:
    kinds = {"wait": AcqBulkOp, "launch_dependents": PreExitOp}
    if len(ins.modifiers) != 1 or ins.modifiers[0] not in kinds:
        ctx.error("expected griddepcontrol.wait or griddepcontrol.launch_dependents", ins)
    _need_sm(ctx, ins, 90)
    if ins.operands:
        ctx.error("griddepcontrol takes no operands", ins)
    ctx.emit_effect(kinds[ins.modifiers[0]], [], [])


@lowers("trap")
def lower_trap(ctx: LoweringBuilder, ins: ast.Instruction) -> None:
    if ins.modifiers or ins.operands:
        ctx.error("trap takes no modifiers or operands", ins)
    ctx.emit_effect(BptOp, [1], [], mods="trap")


# ----------------------------------------------------------------------------
# hints


@lowers("nanosleep")
def lower_nanosleep(ctx: LoweringBuilder, ins: ast.Instruction) -> None:
    if list(ins.modifiers) != ["u32"] or len(ins.operands) != 1:
        ctx.error("expected nanosleep.u32 t", ins)
    ctx.src(ins.operands[0], "u32")  # checked; a sleep of 0 ns is a valid one


@lowers("prefetch", "prefetchu")
def lower_prefetch(ctx: LoweringBuilder, ins: ast.Instruction) -> None:
    if len(ins.operands) != 1 or not isinstance(ins.operands[0], ast.Address):
        ctx.error(f"{ins.opcode} takes one address", ins)
    base = ins.operands[0].base
    if isinstance(base, ast.Register) and not ctx.is_special(base.name):
        ctx.lookup(base.name, base)  # checked; prefetches have no effect on values


@lowers("discard")
def lower_discard(ctx: LoweringBuilder, ins: ast.Instruction) -> None:
    ctx.unsupported(ins, "discard makes memory contents indeterminate, which Ori cannot express")


__all__ = [
    "lower_atom", "lower_bar", "lower_griddepcontrol", "lower_match", "lower_redux", "lower_shfl",
    "lower_trap", "lower_vote",
]
