"""``pack-unpack``: cancel the 64-bit pair shuffles the PTX importer writes.

Seed 001 "Pipeline Placement" (phase 13 GeneralOptimizeEarly, "const fold +
copy prop"): ptxas hands its loop passes code in which a 64-bit value is a
register pair, never a pair built and taken apart again; a kernel parameter
pair is read as two 32-bit words (``LDC R4, c[0x0][0x160]`` /
``c[0x0][0x164]``, or straight from the bank by the instruction using it).

* ``UNPACK(PACK(a, b))`` gives ``a, b`` back (a constant part becomes a
  ``MOV`` of it, which const-prop then folds);
* ``PACK(UNPACK(x))`` (the parts in order, same type) is ``x``;
* an ``UNPACK`` of a 64-bit ``LDC.64 c[b][o]`` (RZ index) becomes the two
  32-bit loads ``LDC c[b][o]`` / ``LDC c[b][o+4]``;
* an MMA accumulator built by a ``PACK`` of zeros is read as RZ
  (``zero-accumulator``).
"""

from __future__ import annotations

from xdsl.dialects.builtin import IntegerAttr
from xdsl.ir import Operation, SSAValue
from xdsl.pattern_rewriter import PatternRewriter, op_type_rewrite_pattern
from xdsl.utils.exceptions import VerifyException

from ori_dialect.ir.attrs import CBankAttr
from ori_dialect.ir.registers import R32Type
from ori_dialect.ops.integer import MovOp, PackOp, UnpackOp
from ori_dialect.ops.memory import LdcOp
from ori_dialect.ops.tensor import HmmaOp, ImmaOp
from passes.general_optimize.common import (
    CountingPattern,
    before,
    erase_replaced,
    is_rz,
    rebuild,
    replace_op,
    unguarded,
)


class UnpackOfPack(CountingPattern):
    """``UNPACK(PACK(..))`` -> the parts; ``UNPACK(LDC.64 c[b][o])`` -> two LDCs."""

    ROOTS = (UnpackOp,)

    @op_type_rewrite_pattern
    def match_and_rewrite(self, op: UnpackOp, rewriter: PatternRewriter) -> None:
        if not unguarded(op):
            return
        a = op.src_reg("a")
        if a is None:
            return
        d = a.owner
        if isinstance(d, PackOp) and unguarded(d) and not d.smod_map():
            self._parts(op, d, rewriter)
        elif (
            isinstance(d, LdcOp)
            and unguarded(d)
            and d.mod("width") == "b64"
            and d.has_rz_index()
            and len(op.results) == 2
            and all(isinstance(r.type, R32Type) for r in op.results)
        ):
            self._split_ldc(op, d, rewriter)

    def _parts(self, op: UnpackOp, d: PackOp, rewriter: PatternRewriter) -> None:
        parts = [v for _, v in d.slot_values()]
        if len(parts) != len(op.results):
            return
        news: list[Operation] = []
        repl: list[SSAValue] = []
        for r, p in zip(op.results, parts):
            if isinstance(p, SSAValue):
                if p.type != r.type:
                    return
                repl.append(p)
            elif isinstance(p, IntegerAttr | CBankAttr) and isinstance(r.type, R32Type):
                m = MovOp.make([p], [r.type])
                news.append(m)
                repl.append(m.results[0])
            else:
                return
        if news:
            rewriter.insert(news, before(op))
        erase_replaced(rewriter, op, repl)
        self.counts["pack-unpack"] += 1

    def _split_ldc(self, op: UnpackOp, d: LdcOp, rewriter: PatternRewriter) -> None:
        bank, off = d.src_int("bank"), d.offset()
        assert bank is not None
        lo = LdcOp.make([bank, R32Type.fixed(), off], [R32Type.unallocated()],
                        attributes=dict(d.attributes))
        hi = LdcOp.make([bank, R32Type.fixed(), off + 4], [R32Type.unallocated()],
                        attributes=dict(d.attributes))
        try:
            lo.verify()
            hi.verify()
        except VerifyException:
            return
        rewriter.insert([lo, hi], before(op))
        erase_replaced(rewriter, op, [lo.results[0], hi.results[0]])
        self.counts["ldc64-split"] += 1


class PackOfUnpack(CountingPattern):
    """``PACK(UNPACK(x))`` with the parts in order and the same type -> ``x``."""

    ROOTS = (PackOp,)

    @op_type_rewrite_pattern
    def match_and_rewrite(self, op: PackOp, rewriter: PatternRewriter) -> None:
        if not unguarded(op) or op.smod_map():
            return
        parts = [v for _, v in op.slot_values()]
        if not parts or not all(isinstance(p, SSAValue) for p in parts):
            return
        u = parts[0].owner  # type: ignore[union-attr]
        if not isinstance(u, UnpackOp) or not unguarded(u):
            return
        if list(u.results) != parts:
            return
        x = u.src_reg("a")
        if x is None or x.type != op.results[0].type:
            return
        erase_replaced(rewriter, op, [x])
        self.counts["pack-unpack"] += 1


class ZeroAccumulator(CountingPattern):
    """An MMA's accumulator ``C`` built by a ``PACK`` of zeros is RZ: the
    SASS form of a zero accumulator (``HMMA.16816.F32 R36, R28, R32, RZ``
    in ptxas's code for Triton's attention kernel), where the PACK costs
    one MOV per word."""

    ROOTS = (HmmaOp, ImmaOp)

    @op_type_rewrite_pattern
    def match_and_rewrite(self, op: HmmaOp | ImmaOp, rewriter: PatternRewriter) -> None:
        c = op.src_reg("c")
        d = c.owner if c is not None else None
        if not isinstance(d, PackOp) or not unguarded(d) or d.smod_map():
            return
        parts = [v for _, v in d.slot_values()]
        if not all(is_rz(v) or isinstance(v, IntegerAttr) and v.value.data == 0 for v in parts):
            return
        vals = [R32Type.fixed() if slot.name == "c" else v for slot, v in op.slot_values()]
        new = rebuild(op, vals)
        if new is None:
            return
        replace_op(rewriter, op, new)
        self.counts["zero-accumulator"] += 1


__all__ = ["PackOfUnpack", "UnpackOfPack", "ZeroAccumulator"]
