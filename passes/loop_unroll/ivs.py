"""Induction-variable, bound and trip-count analysis for ``ori-loop-unroll``
(seed 001, Step M *AnalyzeIV* / *ExtractBound* / *VerifyStride* and Step N
*DetectConstantIV*), on ori's SSA form.

The loop must be in the rotated (do-while) form with one latch whose
terminator is a guarded ``ori.bra`` with the back edge on one side and the
loop exit on the other.  ``ori-loop-simplify`` puts top-tested (``while``)
loops in this form (loop inversion): the header's test is copied to the end
of the latch, so ``while (i < n) {...; i += s}`` is seen here as a do-while
loop testing the incremented IV, behind a guard in the preheader.  The latch predicate must be an ``ori.isetp``
(``and`` with ``PT``, no ``ex``) comparing

* the IV (a header block argument ``iv``) or its increment
  ``next = ori.iadd3 iv, STEP, RZ`` (any operand order, ``STEP`` an integer
  immediate), with ``next`` passed back to ``iv`` along the back edge, against
* a loop-invariant bound: an immediate, a ``c[bank][offset]`` operand or a
  value defined outside the loop.

The initial value is what the preheader passes for ``iv``.  When it is an
``ori.mov`` of an immediate and the bound is an immediate (or such a mov),
the trip count is *known*: it is found by running the exit test on 32-bit
values exactly as the hardware would (so unsigned wrap near 2^32, negative
strides and ``ne`` tests are exact); a loop that does not exit within
:data:`MAX_SIM` iterations is treated as having an unknown trip count.

Rejection codes follow the seed's table: 14 (no IV / not an analysable
compare), 15 (the compare is not an integer compare), 16 (bound or stride
extraction failed), 17 (no dedicated preheader: the seed's "IV definition
block has several predecessors"), 18 (the bound is the initial value, or is
defined inside the loop), 19 (stride direction contradicts the exit test;
checked for unknown trip counts only: a known trip count is exact).
"""

from __future__ import annotations

from dataclasses import dataclass

from xdsl.dialects.builtin import IntegerAttr
from xdsl.ir import Block, BlockArgument, Operation, OpResult, SSAValue

from ori_dialect.ir.attrs import CBankAttr
from ori_dialect.ir.registers import OriRegisterType, PredType, R32Type, UPredType
from ori_dialect.ops.control import BraOp
from ori_dialect.ops.integer import IAdd3Op
from ori_dialect.ops.predicate import DSetPOp, FSetPOp, ISetPOp
from passes.loop_utils import compare_u32, const_u32

MAX_SIM = 1 << 16
"""Longest trip count found by simulation; longer loops count as unknown."""

_MASK = 0xFFFFFFFF
_INVERT = {"lt": "ge", "ge": "lt", "le": "gt", "gt": "le", "eq": "ne", "ne": "eq"}
_SWAP = {"lt": "gt", "gt": "lt", "le": "ge", "ge": "le", "eq": "eq", "ne": "ne"}


class Reject(Exception):
    """A rejection with the seed's code."""

    def __init__(self, code: int, reason: str) -> None:
        super().__init__(reason)
        self.code = code
        self.reason = reason


@dataclass
class IVInfo:
    iv_index: int
    """Index of the IV among the header's block arguments."""
    step: int
    """Signed stride per iteration."""
    test_next: bool
    """The exit test reads ``iv + step`` (True) or ``iv`` (False)."""
    cmp: str
    """Comparison under which the loop *continues*, IV on the left."""
    unsigned: bool
    bound: SSAValue | int | CBankAttr
    init: SSAValue
    init_const: int | None
    bound_const: int | None
    back_slot: int
    exit_slot: int
    increment: Operation
    compare: Operation
    trip_count: int | None = None

    @property
    def known(self) -> bool:
        return self.trip_count is not None




def simulate_trips(init: int, step: int, test_next: bool, cmp: str, unsigned: bool, bound: int,
                   limit: int = MAX_SIM) -> int | None:
    """Body executions of the do-while loop, or None when above ``limit``."""
    v = init & _MASK
    for n in range(1, limit + 1):
        x = (v + step) & _MASK if test_next else v
        if not compare_u32(cmp, unsigned, x, bound):
            return n
        v = (v + step) & _MASK
    return None


def _defined_in(v: SSAValue, blocks: set[Block]) -> bool:
    if isinstance(v, BlockArgument):
        return v.block in blocks
    if isinstance(v, OpResult):
        return v.op.parent_block() in blocks
    return False


def _increment_of(v: SSAValue, iv: SSAValue) -> int | None:
    """``step`` when ``v = iadd3 iv, step, RZ`` (any order), else None."""
    if not isinstance(v, OpResult) or not isinstance(v.op, IAdd3Op):
        return None
    op = v.op
    if op.guard is not None or op.smod_map() or op.mod_tokens() or v.index != 0:
        return None
    regs: list[SSAValue] = []
    step = 0
    for slot, x in op.slot_values():
        if isinstance(x, SSAValue):
            regs.append(x)
        elif isinstance(x, IntegerAttr):
            step += x.value.data
        elif isinstance(x, OriRegisterType) and x.is_fixed:
            continue  # RZ
        else:
            return None
    if regs != [iv]:
        return None
    step = ((step + (1 << 31)) & _MASK) - (1 << 31)
    return step


def analyze(header: Block, latch: Block, loop_blocks: set[Block], preheader: Block | None) -> IVInfo:
    """The IV of the loop ``header``..``latch``; raises :class:`Reject`."""
    term = latch.last_op
    assert isinstance(term, BraOp) and term.guard is not None and term.fallthrough is not None
    succs = list(term.successors)
    back_slot = 0 if succs[0] is header else 1
    exit_slot = 1 - back_slot
    p = term.guard
    if not isinstance(p.type, PredType | UPredType) or not isinstance(p, OpResult):
        raise Reject(14, "the latch predicate is not computed by a compare")
    cmp_op = p.op
    if isinstance(cmp_op, FSetPOp | DSetPOp):
        raise Reject(15, "the exit test is a floating-point compare (IV is not an integer)")
    if not isinstance(cmp_op, ISetPOp) or p.index != 0:
        raise Reject(14, f"the latch predicate comes from {cmp_op.name}, not an ori.isetp")
    if cmp_op.guard is not None or cmp_op.has_mod("ex") or cmp_op.mod("bop") != "and":
        raise Reject(14, "the exit compare is guarded, chained or combines predicates")
    c = cmp_op.src("c")
    if not (isinstance(c, PredType) and c.is_fixed) or "c" in cmp_op.smod_map():
        raise Reject(14, "the exit compare combines another predicate")
    cmp = cmp_op.mod("cmp") or ""
    unsigned = cmp_op.mod("sign") == "u32"
    if cmp not in _INVERT:
        raise Reject(14, f"unsupported compare '{cmp}'")
    a, b = cmp_op.src("a"), cmp_op.src("b")
    back_args = list(term.edge_args(back_slot))

    def match(x: object) -> tuple[int, int, bool, Operation] | None:
        if not isinstance(x, SSAValue):
            return None
        for k, arg in enumerate(header.args):
            if k >= len(back_args):
                break
            nxt = back_args[k]
            step = _increment_of(nxt, arg)
            if step is None:
                continue
            if x is nxt:
                return k, step, True, nxt.op  # type: ignore[union-attr]
            if x is arg:
                return k, step, False, nxt.op  # type: ignore[union-attr]
        return None

    m = match(a)
    bound: object = b
    if m is None:
        m = match(b)
        bound = a
        cmp = _SWAP[cmp]
    if m is None:
        for arg, nxt in zip(header.args, back_args):
            if (isinstance(nxt, OpResult) and isinstance(nxt.op, IAdd3Op)
                    and arg in nxt.op.operand_groups()[0] and (a in (arg, nxt) or b in (arg, nxt))):
                raise Reject(16, "bound extraction failed: the IV stride is not a constant")
        raise Reject(14, "no induction variable (header argument updated by iadd3 with a constant "
                     "stride) feeds the exit compare")
    k, step, test_next, inc = m
    if not isinstance(header.args[k].type, R32Type):
        raise Reject(15, "the IV is not a 32-bit integer register")
    if step == 0:
        raise Reject(19, "the IV stride is zero")
    # the guard: which predicate value continues the loop
    neg = term.guard_neg is not None
    takes_back_when_p = (back_slot == 0) != neg
    if not takes_back_when_p:
        cmp = _INVERT[cmp]
    # bound
    if isinstance(bound, SSAValue):
        if _defined_in(bound, loop_blocks):
            raise Reject(18, "the bound is redefined inside the loop body")
    elif isinstance(bound, IntegerAttr):
        bound = bound.value.data
    elif not isinstance(bound, CBankAttr):
        raise Reject(16, "the bound is not an immediate, constant-bank operand or invariant value")
    if preheader is None:
        raise Reject(17, "irregular loop: no dedicated preheader (run ori-loop-simplify)")
    pterm = preheader.last_op
    assert isinstance(pterm, BraOp)
    init = pterm.edge_args(0)[k]
    if isinstance(bound, SSAValue) and bound is init:
        raise Reject(18, "the IV's initial value register is its limit register")
    info = IVInfo(k, step, test_next, cmp, unsigned, bound, init, const_u32(init),  # type: ignore[arg-type]
                  const_u32(bound), back_slot, exit_slot, inc, cmp_op)  # type: ignore[arg-type]
    if info.init_const is not None and info.bound_const is not None:
        info.trip_count = simulate_trips(info.init_const, step, test_next, cmp, unsigned, info.bound_const)
    if info.trip_count is None:
        up = step > 0
        if (up and cmp in ("gt", "ge", "eq")) or (not up and cmp in ("lt", "le", "eq")):
            raise Reject(19, f"the stride sign ({'+' if up else '-'}) contradicts the exit test "
                         f"(continues while iv {cmp} bound)")
    return info


__all__ = ["MAX_SIM", "IVInfo", "Reject", "analyze", "simulate_trips"]
