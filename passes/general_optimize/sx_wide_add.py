"""``sx-wide-add``: ``base + (int64)i`` on a register base is one
``IMAD.WIDE i, 0x1, base``.

Seed 001 "Pipeline Placement" (phase 13 GeneralOptimizeEarly, phase 29
GeneralOptimize) and issue 19 item 3.  A byte address ``base + (int64)i``
imports as ``lo, c = IADD3 i, b0, RZ`` and, once ``lea-sx32`` took the
sign word (lea_sx32.py), ``hi = LEA.HI.X.SX32 i, b1, 0x1, c``: two
instructions, the form ptxas writes too (``IADD3 R24, P1, R25, R54, RZ`` /
``LEA.HI.X.SX32 R25, R25, R40, 0x1, P1`` in Triton's matmul_i8 K loop, 16
such pairs per iteration).  ``IMAD.WIDE d, i, 0x1, b`` -- the signed form
``sext64(i) * 1 + b`` -- is the same 64-bit sum in one instruction and
writes no carry predicate, as ptxas's own ``IMAD.WIDE R30, R83, 0x2, R46``
for 16-bit elements; ori's rule (fewer instructions, no P register for the
carry; an ``IMAD`` issues once like an ``IADD3``).

``p = PACK(lo, hi)`` with ``lo, c = IADD3 {i, b0}, RZ`` (unguarded, no
source modifiers, ``c`` read only by the ``LEA``, its second carry unread)
and ``hi = LEA.HI.X.SX32 i, b1, 0x1, c`` (unguarded, the same register
``i``), ``lo`` and ``hi`` read only by the PACK, ``b0`` and ``b1``
registers, becomes ``p = IMAD.WIDE i, 0x1, PACK(b0, b1)`` -- the parts of
an ``UNPACK`` read as the value they came from, else one ``PACK`` right
after the later of their definitions (shared by every add on that base;
the allocator puts its parts in place, so it costs no instruction).  The
old ops die (``dead-code``).  A constant-bank base stays as it is: the
``IMAD.WIDE`` would read two constant ports -- and so does a base whose
words are constants or ``LDC`` loads, which the constant sweep puts in the
add's ports (Triton-style kernels load a base pointer with ``LDC``: a PACK
of those words would cost two MOVs where the ports cost nothing).
"""

from __future__ import annotations

from xdsl.dialects.builtin import IntegerAttr
from xdsl.ir import Block, Operation, OpResult, SSAValue
from xdsl.pattern_rewriter import PatternRewriter, op_type_rewrite_pattern
from xdsl.rewriter import InsertPoint

from ori_dialect.ir.registers import R32Type, R64Type
from ori_dialect.ops.integer import IAdd3Op, IMadOp, LeaHiSx32Op, PackOp, UnpackOp
from ori_dialect.ops.memory import LdcOp
from passes.general_optimize.common import CountingPattern, is_rz, known, replace_op, unguarded


def _only_reader(v: SSAValue, op: Operation) -> bool:
    return all(u.operation is op for u in v.uses)


def _halves(pack: PackOp) -> tuple[SSAValue, SSAValue, SSAValue] | None:
    """``(i, b0, b1)`` of the add whose words ``pack`` joins, or None."""
    parts = [v for _, v in pack.slot_values()]
    if len(parts) != 2 or not all(isinstance(v, OpResult) for v in parts):
        return None
    lo, hi = parts
    assert isinstance(lo, OpResult) and isinstance(hi, OpResult)
    add, lea = lo.op, hi.op
    if not isinstance(add, IAdd3Op) or not isinstance(lea, LeaHiSx32Op) or lo.index != 0:
        return None
    if not (unguarded(add) and unguarded(lea)) or add.smod_map() or lea.smod_map():
        return None
    if add.has_mod("x") or not lea.has_mod("x"):
        return None
    co, co1 = add.dst("co0"), add.dst("co1")
    if co is None or lea.src("ci") is not co or (co1 is not None and co1.uses):
        return None
    if not (_only_reader(lo, pack) and _only_reader(hi, pack) and _only_reader(co, lea)):
        return None
    shift = lea.src("shift")
    i, b1 = lea.src("a"), lea.src("b")
    if not (isinstance(shift, IntegerAttr) and shift.value.data == 1):
        return None
    if not isinstance(i, SSAValue) or not isinstance(b1, SSAValue):
        return None
    vals = {s.name: v for s, v in add.slot_values()}
    if set(vals) != {"a", "b", "c"} or not is_rz(vals["c"]):
        return None
    if vals["a"] is i:
        b0 = vals["b"]
    elif vals["b"] is i:
        b0 = vals["a"]
    else:
        return None
    if not isinstance(b0, SSAValue) or not isinstance(b0.type, R32Type):
        return None
    if not isinstance(b1.type, R32Type) or not isinstance(i.type, R32Type):
        return None
    if any(_port_word(b) for b in (b0, b1)):
        return None
    return i, b0, b1


def _port_word(v: SSAValue) -> bool:
    """``v`` is a constant or a constant-bank word: the constant sweep puts it
    in the add's own port, where it costs no register and no instruction,
    while a PACK of it would cost a MOV per word."""
    return isinstance(v.owner, LdcOp) or known(v) is not None


def _base(b0: SSAValue, b1: SSAValue, root: Operation,
          rewriter: PatternRewriter) -> SSAValue | None:
    """The 64-bit value whose words are ``b0``, ``b1``: an UNPACK's source,
    an existing PACK of them, or a new PACK after the later definition."""
    if (isinstance(b0, OpResult) and isinstance(b1, OpResult) and b0.op is b1.op
            and isinstance(b0.op, UnpackOp) and (b0.index, b1.index) == (0, 1)
            and len(b0.op.results) == 2):
        src = b0.op.operands[0]
        if isinstance(src.type, R64Type):
            return src
    for use in b0.uses:
        p = use.operation
        if (isinstance(p, PackOp) and [v for _, v in p.slot_values()] == [b0, b1]
                and isinstance(p.results[0].type, R64Type) and _reusable(p, b0, root)):
            return p.results[0]
    point = _after_definitions(b0, b1)
    if point is None:
        return None
    new = PackOp.make([b0, b1], [R64Type.unallocated()])
    rewriter.insert(new, point)
    return new.results[0]


def _position(v: SSAValue) -> tuple[Block, Operation | None] | None:
    """The block ``v`` is defined in and its defining op (None: an argument)."""
    if isinstance(v, OpResult):
        blk = v.op.parent_block()
        return (blk, v.op) if blk is not None else None
    owner = v.owner
    return (owner, None) if isinstance(owner, Block) else None


def _after_definitions(b0: SSAValue, b1: SSAValue) -> InsertPoint | None:
    """Right after the later of the two definitions, when both are in one
    block (arguments count as its start); None otherwise."""
    p0, p1 = _position(b0), _position(b1)
    if p0 is None or p1 is None or p0[0] is not p1[0]:
        return None
    block = p0[0]
    ops = list(block.ops)
    idx = {op: k for k, op in enumerate(ops)}
    last = max((p for p in (p0[1], p1[1]) if p is not None), key=lambda o: idx[o], default=None)
    if last is None:
        first = block.first_op
        return InsertPoint.before(first) if first is not None else InsertPoint.at_end(block)
    return InsertPoint.after(last)


def _reusable(pack: Operation, b0: SSAValue, root: Operation) -> bool:
    """An existing ``pack`` of the two words serves ``root`` when it is in
    their block (which dominates ``root``: ``root`` reads them) and, in
    ``root``'s own block, before it."""
    p0 = _position(b0)
    blk = pack.parent_block()
    if p0 is None or blk is not p0[0]:
        return False
    if root.parent_block() is not blk:
        return True
    ops = list(blk.ops)
    return ops.index(pack) < ops.index(root)


class SignedWideAdd(CountingPattern):
    """``PACK(IADD3 i, b0; LEA.HI.X.SX32 i, b1, 0x1)`` -> ``IMAD.WIDE i,
    0x1, PACK(b0, b1)`` (module docstring)."""

    ROOTS = (PackOp,)

    @op_type_rewrite_pattern
    def match_and_rewrite(self, pack: PackOp, rewriter: PatternRewriter) -> None:
        if not isinstance(pack.results[0].type, R64Type) or not unguarded(pack):
            return
        found = _halves(pack)
        if found is None:
            return
        i, b0, b1 = found
        base = _base(b0, b1, pack, rewriter)
        if base is None:
            return
        new = IMadOp.make([i, 1, base], [R64Type.unallocated()], mods="wide")
        new.verify()
        replace_op(rewriter, pack, new)
        self.counts["sx-wide-add"] += 1


__all__ = ["SignedWideAdd"]
