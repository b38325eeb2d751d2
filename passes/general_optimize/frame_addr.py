"""``frame-addr``: frame addresses folded into their uses.

Seed 001 "Pipeline Placement" (phase 13 GeneralOptimizeEarly, "const
fold"): a frame address is ``R1 + o`` (``ori.frame_addr o``, ops/frame.py),
known up to the stack pointer, so what PTX adds to it folds like a constant.
ptxas 13.0 addresses a local array element at a fixed index as ``STL
[R1+0x4], R5`` (``cuobjdump -sass`` of examples/ptx/sm_80/calls.ptx); the
importer writes ``add.u64 %rd, %SP, 4`` as a 64-bit add of the frame
address and a constant and then ``STL [%rd]``.

* ``IADD3 frame_addr(o), K, RZ`` with ``K >= 0`` -> ``frame_addr(o + K)``.
  Its carry-out is false: a frame address is below the thread's local
  memory size, at most ``2^24`` bytes (``FrameAddrOp``'s offset bound and
  the interpreter's ``local_bytes``), so ``o + K < 2^25`` never reaches
  ``2^32``; a carry-out that is read becomes the constant ``PT``-false
  (``PLOP3``), and the high half's ``IADD3.X`` then folds.
* ``LDL``/``STL [frame_addr(o) + off]`` -> ``[R1 + o + off]``: the access
  needs no register for its address.

Only non-negative offsets fold (a negative one would wrap below the frame).
"""

from __future__ import annotations

from xdsl.dialects.builtin import IntegerAttr
from xdsl.ir import Operation, SSAValue
from xdsl.pattern_rewriter import PatternRewriter, op_type_rewrite_pattern

from ori_dialect.ir.registers import PredType, stack_pointer
from ori_dialect.ops.frame import FrameAddrOp
from ori_dialect.ops.integer import IAdd3Op
from ori_dialect.ops.memory import LdlOp, StlOp
from ori_dialect.ops.predicate import PLop3Op
from passes.general_optimize.common import (
    CountingPattern,
    before,
    erase_replaced,
    is_rz,
    replace_op,
    unguarded,
)

_MAX_OFFSET = 1 << 24
"""``FrameAddrOp``'s and a local access's offset bound."""


def _frame_offset(v: SSAValue | object) -> int | None:
    if isinstance(v, SSAValue) and isinstance(v.owner, FrameAddrOp):
        return v.owner.offset()
    return None


class FrameAddressAdd(CountingPattern):
    """``IADD3 frame_addr(o), K, RZ`` -> ``frame_addr(o + K)`` (module docstring)."""

    ROOTS = (IAdd3Op,)

    @op_type_rewrite_pattern
    def match_and_rewrite(self, op: IAdd3Op, rewriter: PatternRewriter) -> None:
        if not unguarded(op) or op.smod_map() or op.has_mod("x"):
            return
        vals = {s.name: v for s, v in op.slot_values()}
        if set(vals) != {"a", "b", "c"} or not is_rz(vals["c"]):
            return
        for x, k in ((vals["a"], vals["b"]), (vals["b"], vals["a"])):
            o = _frame_offset(x)
            if o is None or not isinstance(k, IntegerAttr):
                continue
            n = o + k.value.data
            if k.value.data < 0 or n >= _MAX_OFFSET:
                return
            fa = FrameAddrOp.make([n], [op.results[0].type])
            news: list[Operation] = [fa]
            values: list[SSAValue] = [fa.results[0]]
            for r in op.results[1:]:  # carry-outs: false (module docstring)
                pt = PredType.fixed()
                p = PLop3Op.make([pt, pt, pt, 0x00], [r.type])
                news.append(p)
                values.append(p.results[0])
            rewriter.insert(news, before(op))
            erase_replaced(rewriter, op, values)
            self.counts["frame-addr"] += 1
            return


class FrameAddressAccess(CountingPattern):
    """``LDL``/``STL [frame_addr(o) + off]`` -> ``[R1 + o + off]``."""

    ROOTS = (LdlOp, StlOp)

    @op_type_rewrite_pattern
    def match_and_rewrite(self, op: LdlOp | StlOp, rewriter: PatternRewriter) -> None:
        base = op.src("addr")
        o = _frame_offset(base)
        if o is None:
            return
        n = o + op.offset()
        if not 0 <= n < _MAX_OFFSET:
            return
        srcs: list[SSAValue | object] = [stack_pointer(), n]
        if isinstance(op, StlOp):
            srcs.append(op.src("value"))
        _, guard, prior = op.operand_groups()
        new = type(op).make(srcs,  # type: ignore[arg-type]
                            [r.type for r in op.results],
                            mods=op.mods.data if op.mods is not None else "",
                            smods=op.smod_map(), guard=guard,
                            guard_neg="guard_neg" in op.properties, prior=list(prior),
                            attributes=dict(op.attributes))
        replace_op(rewriter, op, new)
        self.counts["frame-addr"] += 1


__all__ = ["FrameAddressAccess", "FrameAddressAdd"]
