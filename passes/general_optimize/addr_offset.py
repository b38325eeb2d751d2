"""``addr-offset``: a constant added to an address goes into the access's
immediate offset.

Issue 19 item 3 ("immediate operands in every slot that takes them") and
seed 001 "Pipeline Placement" (phase 13 GeneralOptimizeEarly, "const
fold"): SASS memory instructions add a signed 24-bit immediate to their
address register (``LDG.E R0, [R2.64+0x10]``, ``ATOM.E.ADD.U32 R0,
[R4.64-0x200], R0``, ``LDS R0, [R9+0x100]`` in ``ptxas -arch=sm_80``
output), so ptxas never spends an instruction on ``p + K`` when ``p + K`` is
only an address.  The PTX importer (and loop unrolling, which gives each
copy of a body its ``p + k*step``) writes such an address as

* 64-bit: ``lo, hi = UNPACK p``; ``s0, c = IADD3 lo, K, RZ``; ``s1 =
  IADD3.X hi, Kh, RZ, c``; ``PACK s0, s1`` with ``Kh`` the sign extension
  of ``K`` (``0`` or ``-1``): that is ``p + sext(K)`` mod 2^64, exactly
  what the access computes from ``[p + K]``;
* 32-bit (shared, local): ``IADD3 a, K, RZ``.

A global, generic, shared or local access (``MemoryOp``, not the constant
bank) through such an address reads ``[p + offset + K]`` when the sum
stays in the signed 24-bit range; the adds die with their last use
(``ori-dead-code``).  ``p`` need not be one register value: any pair of
words known to form one 64-bit value (an ``UNPACK``, another 64-bit add, a
``c[b][o]``/``c[b][o+4]`` parameter) is re-``PACK``ed, in place once
allocated.  R1-based frame accesses are ``frame-addr``'s.

**IMAD bases.**  The wmma lowering builds fragment addresses as ``IMAD
ldm, stride, p`` with ``ldm`` a register holding a known constant (the
port is the stride's) and shared bases as ``IMAD lane, 2, smem`` with
``smem`` a ``MOV`` of the array's offset: ``[IMAD K, imm, p]`` reads ``[p
+ K*imm]`` (``.wide`` too, the product widened as the mode says), and
``[IMAD a, b, K]`` reads ``[IMAD a, b, RZ] + K`` when every use of the
IMAD is an address (the new IMAD is shared by CSE and the old one dies;
``imad_offset``).

**Reassociation.**  nvcc hoists ``q_k = z + k*1024`` out of CUB's tile
loops and adds the loop's offset ``t`` inside: ``[q_k + t]`` for sixteen
``k``, sixteen 64-bit adds per iteration and sixteen register pairs live
across the loop.  ``(z + K) + t`` is ``(z + t) + K``: the access reads
``[(z + t) + K]``, and the sixteen ``z + t`` are one after CSE (ptxas:
``LDG.E.CONSTANT R7, [R2.64+0x400]`` ... ``[R2.64+0x3c00]``).  Only done
when every use of the sum is such an address, so the old add dies and no
instruction is added.
"""

from __future__ import annotations

from collections.abc import Callable

from xdsl.dialects.builtin import IntegerAttr
from xdsl.ir import Attribute, Operation, SSAValue
from xdsl.pattern_rewriter import PatternRewriter, op_type_rewrite_pattern
from xdsl.rewriter import InsertPoint

from ori_dialect.ir.attrs import CBankAttr
from ori_dialect.ir.metadata import MemSpace
from ori_dialect.ir.registers import OriRegisterType, PredType, R32Type, R64Type
from ori_dialect.ir.slots import int_attr
from ori_dialect.ops.integer import IAdd3Op, IMadOp, PackOp, UnpackOp
from ori_dialect.ops.memory import MemoryOp
from passes.cse import cse_key
from passes.general_optimize.common import (
    CountingPattern,
    add64_slots,
    address_index,
    is_rz,
    known,
    rebuild,
    replace_op,
    unguarded,
)

OFFSET_MIN = -(1 << 23)
OFFSET_MAX = (1 << 23) - 1
"""The signed 24-bit immediate of a SASS memory address."""

_M32 = 0xFFFFFFFF


def _add_imm(op: object) -> tuple[SSAValue, int] | None:
    """``op`` is an unguarded ``IADD3 x, K, RZ`` without carry-in (a
    missing ``K`` is 0): (x, K as an unsigned word)."""
    if not isinstance(op, IAdd3Op) or not unguarded(op) or op.smod_map() or op.has_mod("x"):
        return None
    reg: SSAValue | None = None
    k = 0
    for _, v in op.slot_values():
        if isinstance(v, SSAValue):
            if reg is not None:
                return None
            reg = v
        elif isinstance(v, IntegerAttr):
            k = v.value.data & _M32
        elif not is_rz(v):
            return None
    if reg is None:
        return None
    return reg, k


Word = SSAValue | Attribute
Pair = tuple[Word, Word]
"""The low and high words of a 64-bit value."""


def _word_imm(w: Word) -> int | None:
    """An immediate word (RZ is 0) as an unsigned 32-bit value."""
    if isinstance(w, IntegerAttr):
        return w.value.data & _M32
    if is_rz(w):
        return 0
    return None


def add64(lo: Word, hi: Word) -> tuple[Pair, Pair] | None:
    """``(lo, hi)`` are the words of ``x + y`` built as ``lo, c = IADD3
    x_lo, y_lo, RZ``; ``hi = IADD3.X x_hi, y_hi, RZ, c`` (unguarded, no
    source modifiers, the second carry unused): the two addends' words,
    paired so that each pair is one 64-bit value (``coherent``)."""
    slots = add64_slots(lo, hi)
    if slots is None:
        return None
    lv, hv = slots
    for ha_name, hb_name in (("a", "b"), ("b", "a")):
        x: Pair = (lv["a"], hv[ha_name])
        y: Pair = (lv["b"], hv[hb_name])
        if coherent(x) and coherent(y):
            return x, y
    return None


def coherent(pair: Pair) -> bool:
    """``pair`` is known to be one 64-bit value: both words of one
    ``UNPACK``, the words of a 64-bit add, two immediates, or the words
    ``c[b][o]``, ``c[b][o+4]`` of a constant-bank pair."""
    lo, hi = pair
    if _word_imm(lo) is not None and _word_imm(hi) is not None:
        return True
    if isinstance(lo, CBankAttr) and isinstance(hi, CBankAttr):  # a 64-bit parameter
        return lo.bank.data == hi.bank.data and hi.offset.data == lo.offset.data + 4
    if isinstance(lo, SSAValue) and isinstance(hi, SSAValue):
        un = lo.owner
        if isinstance(un, UnpackOp) and hi.owner is un and len(un.results) == 2:
            return lo.index == 0 and hi.index == 1  # type: ignore[attr-defined]
        return add64(lo, hi) is not None
    return False


def sext_constant(pair: Pair) -> int | None:
    """``pair`` is two immediates forming the sign extension of a 32-bit
    constant: that constant (signed)."""
    k, kh = _word_imm(pair[0]), _word_imm(pair[1])
    if k is None or kh is None:
        return None
    if kh == 0 and k < (1 << 31):
        return k
    if kh == _M32 and k >= (1 << 31):
        return k - (1 << 32)
    return None


def split_constant(pair: Pair) -> tuple[Pair, int] | None:
    """``pair`` is ``z + sext(K)``: (z's words, K)."""
    sides = add64(*pair)
    if sides is None:
        return None
    for z, kp in (sides, sides[::-1]):
        k = sext_constant(kp)
        if k is not None and all(isinstance(w, SSAValue) for w in z):
            return z, k
    return None


def words(v: SSAValue) -> Pair | None:
    """The words of a 64-bit value built by ``PACK lo, hi``."""
    pack = v.owner
    if not isinstance(pack, PackOp) or not unguarded(pack) or pack.smod_map():
        return None
    parts = [x for _, x in pack.slot_values()]
    return (parts[0], parts[1]) if len(parts) == 2 else None


def _value_of(pair: Pair, before_op: Operation, rewriter: PatternRewriter) -> SSAValue:
    """A 64-bit value with the words of ``pair``: the ``UNPACK``ed value
    itself, or a new ``PACK`` (in place once allocated)."""
    lo, hi = pair
    if isinstance(lo, SSAValue) and isinstance(lo.owner, UnpackOp) and hi is not None \
            and isinstance(hi, SSAValue) and hi.owner is lo.owner:
        return lo.owner.operands[0]
    pack = PackOp.make([lo, hi], [R64Type.unallocated()])  # type: ignore[list-item]
    rewriter.insert(pack, InsertPoint.before(before_op))
    return pack.results[0]


def _add_pairs(z: Pair, t: Pair, before_op: Operation, rewriter: PatternRewriter) -> SSAValue:
    """New ops computing the 64-bit ``z + t`` (the importer's form)."""
    lo = IAdd3Op.make([z[0], t[0], R32Type.fixed()],  # type: ignore[list-item]
                      [R32Type.unallocated(), PredType.unallocated()])
    hi = IAdd3Op.make([z[1], t[1], R32Type.fixed(), lo.results[1]],  # type: ignore[list-item]
                      [R32Type.unallocated()], mods="x")
    pack = PackOp.make([lo.results[0], hi.results[0]], [R64Type.unallocated()])
    for new in (lo, hi, pack):
        rewriter.insert(new, InsertPoint.before(before_op))
    return pack.results[0]


def narrow_offset(v: SSAValue) -> tuple[SSAValue, int] | None:
    """``v`` is ``IADD3 a, K, RZ`` (no carry-out read): (a, K signed)."""
    add = _add_imm(v.owner)
    if add is None:
        return None
    a, k = add
    if not isinstance(a.type, R32Type):
        return None
    return a, _signed(k)


def imad_offset(v: SSAValue) -> tuple[SSAValue | None, int] | None:
    """``v`` is an unguarded plain ``IMAD`` with a constant part ``K`` (signed):

    * ``IMAD K1, imm, c`` (``.wide`` too) with ``K1`` a known constant: the
      product is ``K``, the rest is ``c`` -- (c, K);
    * ``IMAD a, b, K`` (32-bit) with ``K`` a known constant that could not
      be an immediate (the port is ``b``'s), when every use of ``v`` is an
      address: the rest is ``IMAD a, b, RZ``, built by the caller -- (None, K).

    ptxas: ``IMAD.SHL.U32 R26, R9, 0x2, RZ``; ``LDSM.16.MT88.4 R12,
    [R26+0x200]`` for the second wmma fragment's shared base."""
    op = v.owner
    if not isinstance(op, IMadOp) or not op.is_plain() or op.has_mod("x") or len(op.results) != 1:
        return None
    mode = op.mod("mode") or "lo"
    a, b, c = op.src("a"), op.src("b"), op.src("c")
    if mode == "hi" or not isinstance(a, SSAValue) or c is None:
        return None
    ka = known(a) if isinstance(a.type, R32Type) else None
    if ka is not None and isinstance(b, IntegerAttr) and isinstance(c, SSAValue):
        x, y = int(ka), b.value.data & _M32
        if mode == "wide" and op.mod("sign") != "u32":
            x, y = _signed(x), _signed(y)
        k = x * y
        if mode == "lo":
            k = _signed(k & _M32)
        return c, k
    if mode == "lo" and isinstance(c, SSAValue) and _only_addresses(v):
        kc = known(c)
        if kc is not None:
            return None, _signed(int(kc))
    return None


def _signed(x: int) -> int:
    x &= _M32
    return x - (1 << 32) if x >= (1 << 31) else x


def _only_addresses(v: SSAValue) -> bool:
    """Every use of ``v`` is the address of a (non-constant-bank) access:
    all of them will fold, so the add that built ``v`` dies."""
    for use in v.uses:
        user = use.operation
        if not isinstance(user, MemoryOp) or user.SPACE is MemSpace.CONST:
            return False
        vals = user.slot_values()
        i = address_index(vals)
        if i is None or vals[i][1] is not v:
            return False
    return True


def _single_use(pair: Pair) -> bool:
    return all(isinstance(w, SSAValue) and sum(1 for _ in w.uses) == 1 for w in pair)


class AddressOffset(CountingPattern):
    """``[p + K] + off`` -> ``[p + off + K]``; ``[(z + K) + t] + off`` ->
    ``[(z + t) + off + K]`` (module docstring)."""

    ROOTS = (MemoryOp,)

    @op_type_rewrite_pattern
    def match_and_rewrite(self, op: MemoryOp, rewriter: PatternRewriter) -> None:
        if op.SPACE is MemSpace.CONST:
            return
        vals = op.slot_values()
        i = address_index(vals)
        if i is None or i + 1 >= len(vals) or vals[i + 1][0].name != "offset":
            return
        base = vals[i][1]
        if not isinstance(base, SSAValue) or not isinstance(base.type, OriRegisterType):
            return
        build: Callable[[], SSAValue] | None = None
        product = imad_offset(base)
        if product is not None:
            build, k = self._imad(product, base, rewriter)
        elif base.type.BITS == 32:
            found = narrow_offset(base)
            if found is None:
                return
            new_base, k = found
        else:
            plan = self._wide(base, op, rewriter)
            if plan is None:
                return
            build, k = plan
        # a scaled index ([x * 4 + off], scaled_index.py): (x + K) * 4 is
        # x * 4 + 4K
        new_off = op.offset() + k * op.index_scale()
        if not OFFSET_MIN <= new_off <= OFFSET_MAX:
            return
        if build is not None:
            new_base = build()
        values: list[SSAValue | Attribute] = [v for _, v in vals]
        values[i] = new_base
        values[i + 1] = int_attr(new_off)
        new = rebuild(op, values)
        if new is None:
            return
        replace_op(rewriter, op, new)
        self.counts["addr-offset"] += 1

    @staticmethod
    def _imad(product: tuple[SSAValue | None, int], base: SSAValue,
              rewriter: PatternRewriter) -> tuple[Callable[[], SSAValue], int]:
        """The base without its constant part ``k`` (``imad_offset``)."""
        rest, k = product
        if rest is not None:
            return (lambda: rest), k
        imad = base.owner
        assert isinstance(imad, IMadOp)

        def strip() -> SSAValue:
            new = rebuild(imad, [R32Type.fixed() if s.name == "c" else v
                                 for s, v in imad.slot_values()])
            assert new is not None
            prev = imad.prev_op
            key = cse_key(new)
            if prev is not None and key is not None and cse_key(prev) == key:
                return prev.results[0]  # built for another access already
            rewriter.insert(new, InsertPoint.before(imad))
            return new.results[0]
        return strip, k

    @staticmethod
    def _wide(base: SSAValue, op: Operation,
              rewriter: PatternRewriter) -> tuple[Callable[[], SSAValue], int] | None:
        pair = words(base)
        if pair is None:
            return None
        sc = split_constant(pair)
        if sc is not None:
            z, k = sc
            return (lambda: _value_of(z, op, rewriter)), k
        # (z + K) + t: only when every use of the sum is an address, so the
        # old add dies and the new z + t (shared by CSE) replaces it
        sides = add64(*pair)
        if sides is None or not _only_addresses(base) or not _single_use(pair):
            return None
        for s_, t in (sides, sides[::-1]):
            if not all(isinstance(w, SSAValue) for w in t):
                continue
            inner = split_constant(s_)
            if inner is None:
                continue
            z, k = inner
            return (lambda z=z, t=t: _add_pairs(z, t, op, rewriter)), k
        return None


__all__ = ["OFFSET_MAX", "OFFSET_MIN", "AddressOffset", "add64", "narrow_offset", "split_constant"]
