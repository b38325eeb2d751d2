"""IV demotion (seed 002, "IV Demotion", sub_1CD74B0, ``remat-iv``): a
64-bit loop induction variable whose values provably fit 32 bits is carried
around the loop in one register instead of two.

**The pattern** (what the PTX importer makes of ``add.s64`` / ``setp.*.s64``
on a loop counter, before or after ``ori-general-optimize``): a header block
argument ``%i : !ori.r64`` of a loop with one preheader edge and one latch
edge into the header, where

* the preheader passes a constant ``c0`` (an op whose ``constant_value`` is
  known: ``ori.pack RZ, 0x0``);
* the latch passes ``next = ori.pack lo', hi'`` with ``lo', c = ori.iadd3
  lo(i), s_lo, RZ`` and ``hi' = ori.iadd3 x hi(i), s_hi, RZ, c`` (``lo(i)``,
  ``hi(i)`` the results of an ``ori.unpack %i``; ``s_lo``, ``s_hi``
  constants): ``next = i + s`` with the 64-bit step ``s = s_hi:s_lo``;
* the latch leaves the loop on a 64-bit compare of ``next`` (or of ``%i``)
  with a constant ``N``: ``q = ori.isetp CMP.u32 lo, N_lo, PT`` and ``p =
  ori.isetp CMP[.u32] ex hi, N_hi, PT, q``, the back edge taken when ``p``
  (or its negation) holds.

**The overflow proof** is :mod:`.iv_proof`'s.

**The rewrite** (the seed's names as SSA name hints):

* ``newBaseIV``: a new ``!ori.r32`` header argument;
* ``iv_base_clone_<i>``: ``ori.mov lo(c0)`` in the preheader, passed for it;
* ``demoteIV``: ``lo'`` (the low-word add, now reading ``newBaseIV``), passed
  back along the latch edge -- the truncation of ``next``;
* ``substIV``: where the old IV was split, its low word is ``newBaseIV`` and
  its high word ``ori.mov 0x0`` (values ``>= 0``) or ``ori.shr newBaseIV,
  0x1f`` (the sign); any other use of ``%i`` reads ``ori.pack newBaseIV,
  hi`` built right before it.

``%i`` and its edge operands go; ``next`` dies unless used elsewhere (the
64-bit compare keeps reading ``lo'`` and ``hi'``, which hold the same
values as before).  Levels: 1-2 (basic) demote only IVs whose every value
is ``>= 0`` and whose uses (and ``next``'s, bar the back edge) are all
``ori.unpack``; 3 (extended) rebuilds wide uses with ``substIV``; 4 and more
(full, the default) also demote IVs taking negative values.  The seed's
level 5+ "aggressive mode" names no pattern; ori treats it as 4.
"""

from __future__ import annotations

from xdsl.dialects.builtin import IntegerAttr
from xdsl.ir import Attribute, Block, BlockArgument, Operation, SSAValue

from ori_dialect.analysis.cfg import CFG
from ori_dialect.analysis.dominators import DominatorTree
from ori_dialect.analysis.liveness import edge_operands
from ori_dialect.analysis.loops import Loop, LoopInfo
from ori_dialect.ir.instruction import OriInstruction
from ori_dialect.ir.registers import OriRegisterType, PredType, R32Type, R64Type
from ori_dialect.ops.control import BraOp
from ori_dialect.ops.func import FuncOp
from ori_dialect.ops.integer import IAdd3Op, MovOp, PackOp, ShrOp, UnpackOp
from ori_dialect.ops.predicate import ISetPOp
from passes.general_optimize.common import known
from passes.loop_utils import rebuild_bra
from passes.remat.driver import restore
from passes.remat.executor import sweep
from passes.remat.iv_proof import NotDemoted, Test, WideIV, value_range
from passes.remat.knobs import RematKnobs
from passes.remat.measure import measure
from passes.remat.report import Report, label

_LO, _HI = -(1 << 31), 1 << 31
_M32, _M64 = 0xFFFFFFFF, (1 << 64) - 1


def _signed64(x: int) -> int:
    x &= _M64
    return x - (1 << 64) if x >> 63 else x


def _const32(v: SSAValue | Attribute | None) -> int | None:
    if isinstance(v, IntegerAttr):
        return v.value.data & _M32
    if isinstance(v, OriRegisterType) and v.is_fixed:
        return 0
    if isinstance(v, SSAValue):
        x = known(v)
        return None if x is None else int(x) & _M32
    return None


def _unpacked(v: SSAValue, i: SSAValue, part: int) -> bool:
    op = v.owner
    return isinstance(op, UnpackOp) and op.src("a") is i and v.index == part  # type: ignore[union-attr]


def _edge_slot(term: Operation, dest: Block) -> int:
    slots = [k for k, s in enumerate(term.successors) if s is dest]
    if len(slots) != 1:
        raise NotDemoted("the loop is entered or continued on more than one edge from a block")
    return slots[0]


def recognise_iv(arg: BlockArgument, lp: Loop, cfg: CFG) -> WideIV:
    header = cfg.blocks[lp.header]
    if lp.preheader is None or len(lp.latches) != 1 or len(cfg.in_edges[lp.header]) != 2:
        raise NotDemoted("the loop has no dedicated preheader and single latch (ori-loop-simplify)")
    pre, latch = cfg.blocks[lp.preheader], cfg.blocks[lp.latches[0]]
    pre_term, latch_term = pre.last_op, latch.last_op
    assert pre_term is not None and latch_term is not None
    init_v = edge_operands(pre_term, _edge_slot(pre_term, header))[arg.index]
    nxt = edge_operands(latch_term, _edge_slot(latch_term, header))[arg.index]
    d = init_v.owner
    c0 = d.constant_value(init_v.index) if isinstance(d, OriInstruction) else None  # type: ignore[union-attr]
    if not isinstance(c0, int) or isinstance(c0, bool):
        raise NotDemoted("the initial value is not a constant")
    pk = nxt.owner
    if not isinstance(pk, PackOp) or not pk.is_plain() or len(pk.operands) != 2:
        raise NotDemoted("the latch does not pass the IV plus a constant step")
    lo2, hi2 = pk.operands
    la, ha = lo2.owner, hi2.owner
    if not (isinstance(la, IAdd3Op) and isinstance(ha, IAdd3Op) and la.is_plain() and ha.is_plain()
            and lo2.index == 0 and not la.has_mod("x") and ha.has_mod("x")
            and len(la.results) >= 2 and ha.src("ci0") is la.results[1]
            and ha.src("ci1") is None and la.src("ci0") is None
            and _const32(la.src("c")) == 0 and _const32(ha.src("c")) == 0):
        raise NotDemoted("the latch does not pass the IV plus a constant step")
    s_lo, s_hi = _const32(la.src("b")), _const32(ha.src("b"))
    a_lo, a_hi = la.src("a"), ha.src("a")
    if (s_lo is None or s_hi is None or not isinstance(a_lo, SSAValue)
            or not isinstance(a_hi, SSAValue) or not _unpacked(a_lo, arg, 0)
            or not _unpacked(a_hi, arg, 1)):
        raise NotDemoted("the latch does not pass the IV plus a constant step")
    step = _signed64(s_hi << 32 | s_lo)
    if step == 0:
        raise NotDemoted("the step is 0")
    test = _exit_test(latch_term, header, arg, lo2, hi2)
    return WideIV(lp, arg, _signed64(c0), d if isinstance(d, Operation) else None, step, la,
                  nxt, test)


def _exit_test(term: Operation, header: Block, arg: SSAValue, lo2: SSAValue,
               hi2: SSAValue) -> Test:
    why = "the loop does not exit on a 64-bit compare of the IV with a constant"
    if not isinstance(term, BraOp) or term.guard is None or len(term.successors) != 2:
        raise NotDemoted(why)
    p_op, q_v = term.guard.owner, None
    if not isinstance(p_op, ISetPOp) or not p_op.is_plain() or not p_op.has_mod("ex"):
        raise NotDemoted(why)
    q_v = p_op.src("cin")
    q_op = q_v.owner if isinstance(q_v, SSAValue) else None
    if not isinstance(q_op, ISetPOp) or not q_op.is_plain() or q_op.has_mod("ex"):
        raise NotDemoted(why)
    pt = PredType.fixed()
    cmp = p_op.mod("cmp")
    if (p_op.src("c") != pt or q_op.src("c") != pt or q_op.mod("cmp") != cmp
            or q_op.mod("sign") != "u32" or p_op.mod("bop") != "and" or q_op.mod("bop") != "and"
            or cmp not in ("lt", "le", "gt", "ge", "ne") or term.guard.index != 0
            or q_v.index != 0):  # type: ignore[union-attr]
        raise NotDemoted(why)
    lo, hi = q_op.src("a"), p_op.src("a")
    n_lo, n_hi = _const32(q_op.src("b")), _const32(p_op.src("b"))
    if n_lo is None or n_hi is None:
        raise NotDemoted(why)
    if lo is lo2 and hi is hi2:
        reads_next = True
    elif isinstance(lo, SSAValue) and isinstance(hi, SSAValue) and _unpacked(lo, arg, 0) \
            and _unpacked(hi, arg, 1):
        reads_next = False
    else:
        raise NotDemoted(why)
    neg = term.guard_neg is not None
    cont = (not neg) if term.successors[0] is header else neg
    unsigned = p_op.mod("sign") == "u32"
    bound = (n_hi << 32 | n_lo) if unsigned else _signed64(n_hi << 32 | n_lo)
    return Test(lo, hi, q_op, p_op, reads_next, cont, cmp, unsigned, bound)  # type: ignore[arg-type]


def _uses_ok(iv: WideIV, level: int, nonneg: bool) -> None:
    if not nonneg and level < 4:
        raise NotDemoted(f"the IV takes negative values (remat-iv={level} < 4)")
    if level >= 3:
        return
    if any(not isinstance(u.operation, UnpackOp) for u in iv.arg.uses):
        raise NotDemoted(f"the IV has a 64-bit use (remat-iv={level} < 3)")
    if len(list(iv.next.uses)) > 1:
        raise NotDemoted(f"the incremented IV has a 64-bit use (remat-iv={level} < 3)")


def _demote(iv: WideIV, cfg: CFG, nonneg: bool, rep: Report) -> int:
    lp, arg = iv.loop, iv.arg
    header = cfg.blocks[lp.header]
    pre, latch = cfg.blocks[lp.preheader or 0], cfg.blocks[lp.latches[0]]
    hint = arg.name_hint or "iv"
    j = header.insert_arg(R32Type.unallocated(), len(header.args))
    j.name_hint = "newBaseIV"

    def high(anchor: Operation) -> SSAValue:
        blk = anchor.parent_block()
        assert blk is not None
        h = MovOp.make([0]) if nonneg else ShrOp.make([j, 31])
        h.results[0].name_hint = "substIV"
        blk.insert_op_before(h, anchor)
        return h.results[0]

    subst = 0
    for use in list(arg.uses):
        user = use.operation
        blk = user.parent_block()
        assert blk is not None
        if isinstance(user, UnpackOp) and len(user.results) == 2:
            lo_r, hi_r = user.results
            if hi_r.uses:
                hi_r.replace_all_uses_with(high(user))
            lo_r.replace_all_uses_with(j)
            blk.erase_op(user)
        else:
            wide = PackOp.make([j, high(user)], [R64Type.unallocated()])
            wide.results[0].name_hint = "substIV"
            blk.insert_op_before(wide, user)
            user.operands[use.index] = wide.results[0]
        subst += 1
    base = MovOp.make([iv.init & _M32])
    base.results[0].name_hint = f"iv_base_clone_{hint}"
    pre_term, latch_term = pre.last_op, latch.last_op
    assert isinstance(pre_term, BraOp) and isinstance(latch_term, BraOp)
    pre.insert_op_before(base, pre_term)
    demoted = iv.low_add.results[0]
    demoted.name_hint = "demoteIV"
    for term, val in ((pre_term, base.results[0]), (latch_term, demoted)):
        slot = _edge_slot(term, header)
        args = [list(term.edge_args(k)) for k in range(len(term.successors))]
        del args[slot][arg.index]
        args[slot].append(val)
        rebuild_bra(term, args=args)
    old_next = iv.next.owner
    header.erase_arg(arg)
    sweep([o for o in (old_next, iv.init_op) if isinstance(o, Operation)])
    rep.iv(f"Loop ^bb{lp.header}: demoteIV %demoteIV, newBaseIV %newBaseIV, "
           f"iv_base_clone_ %iv_base_clone_{hint}, substIV x {subst}")
    return subst


def demote_ivs(func: FuncOp, k: RematKnobs, rep: Report) -> int:
    """Demote every 64-bit IV of ``func`` that fits 32 bits; the count demoted."""
    done = 0
    told: set[tuple[int, int]] = set()
    """(header block, argument index) of the IVs already reported: each
    rewrite (or undo) rebuilds the loop's blocks, so the walk starts over."""
    while True:  # one IV at a time: each rewrite changes the header's arguments
        cfg = CFG.compute(func)
        loops = LoopInfo(cfg, DominatorTree(cfg))
        found = None
        for lp in loops.innermost_first():
            header = cfg.blocks[lp.header]
            for arg in header.args:
                if not isinstance(arg.type, R64Type) or arg.type.phys_index is not None:
                    continue
                if (lp.header, arg.index) in told:
                    continue
                name = label(arg.name_hint or f"#arg{arg.index}")
                try:
                    iv = recognise_iv(arg, lp, cfg)
                    lo, hi = value_range(iv)
                    _uses_ok(iv, k.remat_iv, lo >= 0)
                except NotDemoted as e:
                    rep.iv(f"Loop ^bb{lp.header}: IV {name} not demoted: {e}")
                    rep.remark(f"64-bit IV {name} not demoted: {e}", block=lp.header)
                    told.add((lp.header, arg.index))
                    continue
                rep.iv(f"Loop ^bb{lp.header}: IV {name}: init {iv.init}, step {iv.step}, "
                       f"values {lo}..{hi}: (val + 0x80000000) <= 0xFFFFFFFF")
                found = (iv, lo >= 0, name, lo, hi)
                break
            if found:
                break
        if found is None:
            return done
        iv, nonneg, name, lo, hi = found
        before = measure(func).max_live
        snapshot = func.clone()
        _demote(iv, cfg, nonneg, rep)
        after = measure(func).max_live
        if after > before:
            # the 64-bit rebuilds at wide uses can need more registers than the
            # wide IV did: leave it as it was
            restore(func, snapshot)
            told.add((iv.loop.header, iv.arg.index))
            msg = f"64-bit IV {name} not demoted: max live {before} -> {after}"
            rep.iv(f"Loop ^bb{iv.loop.header}: IV {name} demotion undone: max live "
                   f"{before} -> {after}")
            rep.remark(msg, block=iv.loop.header)
            continue
        rep.counts["demoted IVs"] += 1
        rep.remark(f"demoted 64-bit IV {name} to 32 bits (values {lo}..{hi})",
                   block=iv.loop.header)
        done += 1


__all__ = ["NotDemoted", "WideIV", "demote_ivs", "recognise_iv", "value_range"]
