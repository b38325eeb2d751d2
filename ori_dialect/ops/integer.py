"""Integer ALU instructions.

Semantics are stated on 32-bit two's-complement values with wrap-around
(SASS; PTX ISA 9.x for the operations PTX shares).  ``a``, ``b``, ``c`` name
source slots in order.
"""

from __future__ import annotations

from typing import ClassVar

from xdsl.dialects.builtin import IntegerAttr
from xdsl.ir import Attribute, SSAValue
from xdsl.utils.exceptions import VerifyException

from ori_dialect.ir.attrs import CBankAttr
from ori_dialect.ir.instruction import (
    Dst,
    ModGroup,
    OperandText,
    OriInstruction,
    SassForm,
    Src,
    UniformSubstitute,
    flag,
    register_above,
)
from ori_dialect.ir.metadata import LatencyClass, Pipe
from ori_dialect.ir.registers import (
    TUPLE_TYPES,
    OriRegisterType,
    R32Type,
    R64Type,
    R128Type,
    RegFile,
    UR32Type,
    UR64Type,
    r_registers,
)
from ori_dialect.ops.base import R64, P, R, imm, ori_op, pred, reg, rio


def parts_out_of_place(whole: SSAValue, parts: list[SSAValue | Attribute]) -> int:
    """How many of ``parts`` (lowest first) are not already in their register
    of the wide value ``whole`` after allocation: the moves an ``ori.pack`` /
    ``ori.unpack`` costs (every part, before allocation)."""
    t = whole.type
    if isinstance(t, OriRegisterType) and t.is_fixed:
        return 0  # into RZ: the parts go nowhere (passes/abi/stack_args.py)
    base = t.phys_index if isinstance(t, OriRegisterType) else None
    out = 0
    for i, p in enumerate(parts):
        pt = p.type if isinstance(p, SSAValue) else None
        if (base is None or not isinstance(pt, OriRegisterType) or pt.is_fixed
                or pt.REG_FILE is not t.REG_FILE or pt.phys_index != base + i):  # type: ignore[union-attr]
            out += 1
    return out


def part_register_moves(whole: SSAValue | None, parts: list[SSAValue | Attribute],
                        into_whole: bool) -> list[tuple[int, int]]:
    """The R-register copies of a pack (``into_whole``: each part into its
    register of ``whole``) or an unpack (each register of ``whole`` into its
    part), leaving out the parts already in place; ``-1`` as the source is
    a constant part."""
    regs = r_registers(whole)
    out: list[tuple[int, int]] = []
    for i, part in enumerate(parts):
        pr = r_registers(part)
        here = regs[i] if i < len(regs) else -1
        if pr == (here,):
            continue  # already in place: no instruction
        if into_whole and here >= 0:
            out.append((pr[0] if pr else -1, here))
        elif not into_whole and pr:
            out.append((here, pr[0]))
    return out


def _word(x: SSAValue | Attribute) -> int | None:
    """A PACK part's value: an immediate, or RZ (0)."""
    if isinstance(x, IntegerAttr):
        return x.value.data & 0xFFFFFFFF
    if x == R32Type.fixed():  # a fixed register operand is its type attribute
        return 0
    return None


_SIGN = ModGroup("sign", ("s32", "u32"), default="s32")


class IntAluOp(OriInstruction):
    """Integer ops on the ALU pipe: cheap, so recomputing beats keeping live."""

    LATENCY: ClassVar[LatencyClass] = LatencyClass.SHORT_ALU
    PIPE: ClassVar[Pipe] = Pipe.ALU
    REMATERIALIZABLE: ClassVar[bool] = True
    FOLDABLE: ClassVar[bool] = True


@ori_op
class IAdd3Op(IntAluOp):
    """IADD3: ``d = a + b + c``; each source may be negated (``-%a``, two's
    complement) or inverted (``not %a``, bitwise ``~``, as ptxas writes the
    high half of a 64-bit subtraction: ``IADD3.X R1, R3, ~R5, RZ, P0, !PT``).

    Carries: a negated source contributes ``~x + 1``; let ``S`` be the exact
    (unwrapped) sum of the contributions plus, with ``.X``, the carry-in
    predicates ``ci0 + ci1``, and ``k = S >> 32``.  ``d = S mod 2^32``; the
    carry-outs count ``k`` in unary, ``co0 = k >= 1``, ``co1 = k >= 2``, so a
    following ``.X`` add of ``co0 + co1`` carries exactly (a - b carries when
    there is no borrow).  This is how 64-bit adds are split into 32-bit halves.
    """

    name = "ori.iadd3"
    SASS = "IADD3"
    UNIFORM_SASS = "UIADD3"
    ADDITIVE = True
    COMMUTATIVE = (("a", "b"), ("b", "c"))
    DSTS = (Dst("d", R), Dst("co0", P, optional=True), Dst("co1", P, optional=True))
    SRCS = (
        Src("a", R, smods=frozenset({"neg", "not"})),
        Src("b", R, imm="int", cbank=True, smods=frozenset({"neg", "not"})),
        Src("c", R, smods=frozenset({"neg", "not"})),
        pred("ci0", optional=True),
        pred("ci1", optional=True),
    )
    MODS = (flag("x"),)

    def verify_semantics(self) -> None:
        ci = [s for s, _ in self.slot_values() if s.name.startswith("ci")]
        if ci and not self.has_mod("x"):
            raise VerifyException("ori.iadd3: carry-in predicates need the 'x' modifier")


@ori_op
class IMadOp(OriInstruction):
    """IMAD: integer multiply-add.

    ``lo``:   ``d = lo32(a * b) + c``
    ``hi``:   ``d = hi32(a * b) + c``           (as PTX ``mad.hi``)
    ``wide``: ``d(64) = a * b + c(64)``          (``u32`` zero-extends, else sign-extends)
    ``x`` adds the carry-in predicate ``ci`` (extended-precision chains).
    """

    name = "ori.imad"
    SASS = "IMAD"
    UNIFORM_SASS = "UIMAD"
    ADDITIVE = True
    LATENCY = LatencyClass.MULTIPLY
    PIPE = Pipe.FMA  # IMAD issues on the FMA pipe since Volta
    REMATERIALIZABLE = True
    FOLDABLE = True
    COMMUTATIVE = (("a", "b"),)
    DSTS = (Dst("d", (R32Type, R64Type)), Dst("co", P, optional=True))
    SRCS = (
        reg("a"),
        rio("b"),
        Src("c", (R32Type, R64Type), imm="int", cbank=True),
        pred("ci", optional=True),
    )
    MODS = (ModGroup("mode", ("lo", "hi", "wide"), default="lo"), ModGroup("sign", ("s32", "u32"), default="s32"), flag("x"))

    def commutations(self) -> tuple[tuple[tuple[str, str], str | None], ...]:
        # The extended-precision ``x`` forms (carry chains) keep their
        # operand order: the rule the constant propagation has always had.
        return () if self.has_mod("x") else super().commutations()

    def has_uniform_form(self) -> bool:
        """UIMAD and UIMAD.WIDE exist; ``.HI`` has no uniform form."""
        return self.mod("mode") != "hi"

    def uniform_substitute(self) -> UniformSubstitute | None:
        """``IMAD.HI d, a, b, RZ`` as the high word of ``IMAD.WIDE w, a, b,
        RZ`` (UNPACK): ptxas computes a uniform ``hi32(seed * K)`` as
        ``UIMAD.WIDE.U32 UR4, UR7, -0x2daee0ad, URZ`` and reads ``UR5``.
        Only without an addend (a nonzero ``c`` would need an add after)."""
        c = self.src("c")
        zero = (isinstance(c, R32Type) and c.is_fixed) or (
            isinstance(c, IntegerAttr) and c.value.data == 0)
        if (self.mod("mode") != "hi" or not zero or not self.is_plain()
                or len(self.results) != 1 or self.has_mod("x")):
            return None
        wide = IMadOp.make([self.src("a"), self.src("b"), R64Type.fixed()],  # type: ignore[list-item]
                           [R64Type.unallocated()], mods=f"wide.{self.mod('sign') or 's32'}",
                           attributes=dict(self.attributes))
        parts = UnpackOp.make([wide.results[0]], [R32Type.unallocated()] * 2)
        return UniformSubstitute((wide, parts), (parts.results[1],))

    def verify_semantics(self) -> None:
        wide = self.mod("mode") == "wide"
        want = R64Type if wide else R32Type
        if self.dsts[0].type.BITS != want.BITS:  # type: ignore[attr-defined]
            raise VerifyException(
                f"ori.imad: {self.mod('mode')} form defines a {want.BITS}-bit result, "
                f"got {self.dsts[0].type}"
            )
        c = self.src_reg("c")
        if c is not None and c.type.BITS != want.BITS:  # type: ignore[attr-defined]
            raise VerifyException(
                f"ori.imad: {self.mod('mode')} form takes a {want.BITS}-bit addend"
            )


@ori_op
class LeaOp(IntAluOp):
    """LEA: ``d = (a << shift) + b``; ``hi``: ``d = ((c:a) >> (32 - shift)) + b``
    (the high word of a 64-bit ``(c:a) << shift``, for 64-bit address math)."""

    name = "ori.lea"
    SASS = "LEA"
    UNIFORM_SASS = "ULEA"
    ADDITIVE = True
    LATENCY = LatencyClass.ADDRESS
    DSTS = (Dst("d", R), Dst("co", P, optional=True))
    SRCS = (reg("a"), rio("b"), imm("shift"), reg("c", optional=True), pred("ci", optional=True))
    MODS = (flag("hi"), flag("x"))

    def verify_semantics(self) -> None:
        sh = self.src_int("shift")
        if sh is not None and not 0 <= sh <= 31:
            raise VerifyException("ori.lea: shift amount must be in 0..31")
        if self.has_mod("hi") != (self.src("c") is not None):
            raise VerifyException("ori.lea: the 'hi' form takes the high word 'c', others do not")

    def sass_form(self, operand: OperandText) -> SassForm | None:
        """The ``hi`` form in ptxas's order, the high word before the shift:
        ``LEA.HI R22, R17, R4, RZ, 0x4``, ``LEA.HI.X R9, R0, c[0x0][0x17c],
        R5, 0x3, P1``; the other forms keep the generic order."""
        if not self.has_mod("hi"):
            return None
        smods = self.smod_map()
        vals = {sl.name: operand(v, smods.get(sl.name)) for sl, v in self.slot_values()}
        ops = [operand(r, None) for r in self.results]
        ops += [vals[k] for k in ("a", "b", "c", "shift", "ci") if k in vals]
        mnemonic = self.UNIFORM_SASS if self.is_uniform_form() else self.SASS
        assert mnemonic is not None
        return SassForm(mnemonic + ".HI" + (".X" if self.has_mod("x") else ""), tuple(ops))


@ori_op
class LeaHiSx32Op(IntAluOp):
    """LEA.HI.SX32: ``d = (((int64)a << shift) >> 32) + b (+ ci)`` -- the high
    word of the 64-bit sign extension of ``a`` shifted left by ``shift``,
    plus ``b``; with ``x`` the carry ``ci`` is added too.  With shift 1 the
    high word is ``a``'s sign word (``a >> 31``, arithmetic), so ptxas writes
    the high half of ``base + (int64)i`` as ``IADD3 R8, P0, R20, R2, RZ`` /
    ``LEA.HI.X.SX32 R9, R2, RZ, 0x1, P0`` (CUB's reduce and histogram
    kernels, ``ptxas -arch=sm_80``) where the sign word would otherwise need
    its own ``SHF.R.S32.HI`` and register."""

    name = "ori.lea_hi_sx32"
    SASS = "LEA.HI.SX32"
    ADDITIVE = True
    LATENCY = LatencyClass.ADDRESS
    DSTS = (Dst("d", R),)
    SRCS = (reg("a"), rio("b"), imm("shift"), pred("ci", optional=True))
    MODS = (flag("x"),)

    def verify_semantics(self) -> None:
        sh = self.src_int("shift")
        if sh is not None and not 0 <= sh <= 31:
            raise VerifyException("ori.lea_hi_sx32: shift amount must be in 0..31")
        if self.has_mod("x") != (self.src("ci") is not None):
            raise VerifyException("ori.lea_hi_sx32: the 'x' form takes the carry 'ci', "
                                  "others do not")

    def sass_form(self, operand: OperandText) -> SassForm | None:
        """ptxas's spelling: ``LEA.HI.X.SX32 d, a, b, shift, ci`` (the ``X``
        before ``SX32``)."""
        smods = self.smod_map()
        ops = [operand(self.results[0], None)]
        ops += [operand(v, smods.get(sl.name)) for sl, v in self.slot_values()]
        return SassForm("LEA.HI.X.SX32" if self.has_mod("x") else "LEA.HI.SX32", tuple(ops))


@ori_op
class Lop3Op(IntAluOp):
    """LOP3.LUT: ``d = LUT(a, b, c)`` bitwise, where bit ``(a<<2)|(b<<1)|c`` of
    ``lut`` gives the output (so ``a & b`` is 0xC0, ``a | b`` 0xFC, ``a ^ b`` 0x3C).
    The optional predicate result ``p`` is ``d != 0``."""

    name = "ori.lop3"
    SASS = "LOP3.LUT"
    UNIFORM_SASS = "ULOP3.LUT"
    DSTS = (Dst("d", R), Dst("p", P, optional=True))
    SRCS = (reg("a"), rio("b"), reg("c"), imm("lut"))

    def verify_semantics(self) -> None:
        lut = self.src_int("lut")
        if lut is not None and not 0 <= lut <= 255:
            raise VerifyException("ori.lop3: truth table must be in 0..255")

    def commutations(self) -> tuple[tuple[tuple[str, str], str | None], ...]:
        """``a`` or ``c`` swaps with ``b``, the truth table permuted with
        them (``commuted_immediates``): ptxas puts the one ``UR``, immediate
        or ``c[][]`` source in ``b`` whichever PTX operand it was
        (``LOP3.LUT R11, R4, UR9, R11, 0x96``); swapping ``a`` and ``c``
        would bring nothing into ``b``."""
        return ((("a", "b"), None), (("b", "c"), None))

    def commuted_immediates(self, x: str, y: str) -> dict[str, int]:
        """The truth table read with sources ``x`` and ``y`` swapped: bit
        ``(a<<2)|(b<<1)|c`` of the new table is the old table's bit with
        the two inputs' bits exchanged."""
        lut = self.src_int("lut")
        if lut is None:
            return {}
        shift = {"a": 2, "b": 1, "c": 0}
        table = 0
        for i in range(8):
            bit = {n: (i >> s) & 1 for n, s in shift.items()}
            bit[x], bit[y] = bit[y], bit[x]
            if (lut >> sum(bit[n] << s for n, s in shift.items())) & 1:
                table |= 1 << i
        return {"lut": table}

    def sass_form(self, operand: OperandText) -> SassForm | None:
        """With the predicate result, ptxas's order: ``LOP3.LUT P0, R4, R7,
        0x1, RZ, 0xc0, !PT`` (the predicate first, the trailing ``!PT`` its
        unused combining input)."""
        p = self.dst("p")
        if p is None:
            return None
        srcs = self.smod_map()
        ops = [operand(p, None), operand(self.results[0], None)]
        ops += [operand(v, srcs.get(sl.name)) for sl, v in self.slot_values()]
        mnemonic = self.UNIFORM_SASS if self.is_uniform_form() else self.SASS
        assert mnemonic is not None
        return SassForm(mnemonic, (*ops, "!PT"))


@ori_op
class ShfOp(IntAluOp):
    """SHF: funnel shift of the 64-bit pair ``hi:lo`` by ``shift``.

    ``l``: ``V = (hi:lo) << s``; ``r``: ``V = (hi:lo) >> s``, arithmetic for
    ``s32``/``s64``.  ``d`` is the low word of ``V``, or its high word with the
    ``hi`` modifier, in both directions: PTX ``shf.l`` (upper half of the left
    shift) is ``SHF.L.HI``, PTX ``shf.r`` is ``SHF.R``.  The amount is taken
    mod 32 (``s32``/``u32``) or mod 64 (``s64``/``u64``) with ``w``, else
    clamped to 32, resp. 64.  ptxas splits ``shl.b64`` into
    ``SHF.L.U64.HI`` + ``SHF.L.U32`` and ``shr.s64`` into ``SHF.R.S64`` +
    ``SHF.R.S32.HI``.
    """

    name = "ori.shf"
    SASS = "SHF"
    UNIFORM_SASS = "USHF"
    LATENCY = LatencyClass.MULTIPLY
    DSTS = (Dst("d", R),)
    SRCS = (reg("lo"), rio("shift"), reg("hi"))
    MODS = (
        ModGroup("dir", ("l", "r"), required=True),
        flag("w"),
        ModGroup("type", ("s32", "u32", "s64", "u64"), default="u32"),
        flag("hi"),
    )


@ori_op
class ShlOp(IntAluOp):
    """SHL: ``d = a << b`` (amounts >= 32 give 0; ``w`` wraps the amount mod 32)."""

    name = "ori.shl"
    SASS = "SHL"
    LATENCY = LatencyClass.MULTIPLY
    DSTS = (Dst("d", R),)
    SRCS = (reg("a"), rio("b"))
    MODS = (flag("w"),)

    def uniform_substitute(self) -> UniformSubstitute | None:
        """``SHF.L[.W].U32 d, a, b, RZ``: the low word of ``{0, a} << b``,
        with the same clamp (``USHF.L.U32`` is what ptxas's uniform code
        shows for a shift left)."""
        return _shift_as_shf(self, "l", lo=self.src("a"), hi=R32Type.fixed())


@ori_op
class ShrOp(IntAluOp):
    """SHR: ``d = a >> b``, arithmetic for ``s32`` (default) and logical for ``u32``;
    amounts >= 32 clamp (``w`` wraps mod 32)."""

    name = "ori.shr"
    SASS = "SHR"
    LATENCY = LatencyClass.MULTIPLY
    DSTS = (Dst("d", R),)
    SRCS = (reg("a"), rio("b"))
    MODS = (_SIGN, flag("w"))

    def uniform_substitute(self) -> UniformSubstitute | None:
        """``SHF.R[.W].{S32,U32}.HI d, RZ, b, a``: the high word of ``{a, 0}
        >> b`` is ``a >> b`` with SHR's clamp (ptxas's ``USHF.R.S32.HI UR18,
        URZ, 0x1f, UR5`` for a sign word)."""
        return _shift_as_shf(self, f"r.{self.mod('sign') or 's32'}", lo=R32Type.fixed(),
                             hi=self.src("a"), high_word=True)


def _shift_as_shf(op: OriInstruction, head: str, *, lo: object, hi: object,
                  high_word: bool = False) -> UniformSubstitute | None:
    """``op`` (SHL/SHR, unguarded, without source modifiers) as the funnel
    shift that computes the same word; None for other instances."""
    if not op.is_plain() or len(op.results) != 1 or not isinstance(op.results[0].type, R32Type):
        return None
    mods = head + (".w" if op.mod("w") else "") + (".hi" if high_word else "")
    shf = ShfOp.make([lo, op.src("b"), hi], [op.results[0].type],  # type: ignore[list-item]
                     mods=mods, attributes=dict(op.attributes))
    return UniformSubstitute((shf,), (shf.results[0],))


@ori_op
class IMnMxOp(IntAluOp):
    """IMNMX: ``d = sel ? min(a, b) : max(a, b)`` (``sel`` is usually PT / not PT)."""

    name = "ori.imnmx"
    SASS = "IMNMX"
    DSTS = (Dst("d", R),)
    SRCS = (reg("a"), rio("b"), pred("sel"))
    MODS = (_SIGN,)


@ori_op
class IAbsOp(IntAluOp):
    """IABS: ``d = |a|`` (``|INT_MIN| = INT_MIN``)."""

    name = "ori.iabs"
    SASS = "IABS"
    DSTS = (Dst("d", R),)
    SRCS = (rio("a"),)


@ori_op
class PopcOp(IntAluOp):
    """POPC: ``d = popcount(a)``."""

    name = "ori.popc"
    SASS = "POPC"
    UNIFORM_SASS = "UPOPC"
    LATENCY = LatencyClass.MULTIPLY
    DSTS = (Dst("d", R),)
    SRCS = (rio("a"),)


@ori_op
class FloOp(IntAluOp):
    """FLO: bit position of the most significant 1 (``u32``) or of the most
    significant bit that differs from the sign (``s32``); 0xffffffff if none
    (PTX ``bfind``).  ``sh`` returns ``31 - position`` (PTX ``bfind.shiftamt``),
    still 0xffffffff if none -- so it is PTX ``clz`` except for 0."""

    name = "ori.flo"
    SASS = "FLO"
    UNIFORM_SASS = "UFLO"
    LATENCY = LatencyClass.MULTIPLY
    DSTS = (Dst("d", R),)
    SRCS = (rio("a"),)
    MODS = (ModGroup("sign", ("u32", "s32"), default="u32"), flag("sh"))


@ori_op
class BrevOp(IntAluOp):
    """BREV: ``d = bit-reverse(a)``."""

    name = "ori.brev"
    SASS = "BREV"
    UNIFORM_SASS = "UBREV"
    LATENCY = LatencyClass.MULTIPLY
    DSTS = (Dst("d", R),)
    SRCS = (rio("a"),)


@ori_op
class BmskOp(IntAluOp):
    """BMSK: ``d = ((1 << b) - 1) << a`` -- a mask of ``b`` ones at bit ``a``;
    positions clamp at 32 (``w`` wraps them mod 32)."""

    name = "ori.bmsk"
    SASS = "BMSK"
    UNIFORM_SASS = "UBMSK"
    DSTS = (Dst("d", R),)
    SRCS = (reg("a"), rio("b"))
    MODS = (flag("w"),)


@ori_op
class SgxtOp(IntAluOp):
    """SGXT: ``d`` = the low ``b`` bits of ``a`` sign-extended (bit ``b - 1``
    fills the bits above); ``u32`` zero-extends them (``a & ((1 << b) - 1)``).
    ``b`` clamps at 32 (``a`` unchanged).  ptxas writes PTX's ``bfe.s32 d, a,
    pos, len`` as ``SHF.R.S32.HI`` by ``pos`` and ``SGXT`` by ``len``
    (``SGXT R0, R0, 0x7``; ``USGXT`` on uniform values).  ``b`` = 0 is not
    observed in ptxas output; it is modelled as 0 and never emitted."""

    name = "ori.sgxt"
    SASS = "SGXT"
    UNIFORM_SASS = "USGXT"
    DSTS = (Dst("d", R),)
    SRCS = (reg("a"), rio("b"))
    MODS = (_SIGN,)


@ori_op
class PrmtOp(IntAluOp):
    """PRMT: byte permute.  The 8 bytes of ``c:a`` (a = bytes 0-3) are indexed by
    the four selector nibbles of ``sel``; bit 3 of a nibble replicates the
    chosen byte's sign.  The modes ``f4e b4e rc8 ecl ecr rc16`` follow PTX ``prmt``."""

    name = "ori.prmt"
    SASS = "PRMT"
    UNIFORM_SASS = "UPRMT"
    DSTS = (Dst("d", R),)
    SRCS = (reg("a"), rio("sel"), reg("c"))
    MODS = (ModGroup("mode", ("f4e", "b4e", "rc8", "ecl", "ecr", "rc16")),)


@ori_op
class SelOp(IntAluOp):
    """SEL: ``d = p ? a : b``."""

    name = "ori.sel"
    SASS = "SEL"
    UNIFORM_SASS = "USEL"
    DSTS = (Dst("d", R),)
    SRCS = (reg("a"), rio("b"), pred("p"))

    def commutations(self) -> tuple[tuple[tuple[str, str], str | None], ...]:
        """``p ? a : b`` is ``!p ? b : a`` (``commuted_smods``): ptxas's
        ``FSEL R3, R2, c[0x0][0x174], !P2`` for a clamp bound in ``a``."""
        return ((("a", "b"), None),)

    def commuted_smods(self, x: str, y: str, smods: dict[str, str]) -> dict[str, str]:
        out = {k: v for k, v in smods.items() if k != "p"}
        if smods.get("p") != "not":
            out["p"] = "not"
        return out


@ori_op
class MovOp(IntAluOp):
    """MOV: ``d = a`` (a register, a 32-bit immediate or a constant-bank word).
    Into a uniform register it is UMOV."""

    name = "ori.mov"
    SASS = "MOV"
    UNIFORM_SASS = "UMOV"
    FOLDABLE = False  # already the constant form
    CONSTANT_LIKE = True
    UNIFORM_SOURCE = True
    DSTS = (Dst("d", (R32Type, *(t for t in rio("a").all_types if t is not R32Type))),)
    SRCS = (rio("a"),)

    def constant_value(self, index: int = 0) -> int | bool | None:
        """``MOV imm`` into a 32-bit register: the immediate's bit pattern."""
        if not self.is_plain() or not isinstance(self.results[index].type, R32Type):
            return None
        a = self.src("a")
        return a.value.data & 0xFFFFFFFF if isinstance(a, IntegerAttr) else None

    def constant_operand(self) -> tuple[Attribute, int] | None:
        """``MOV imm`` / ``MOV c[b][o]`` into a 32-bit register: that operand."""
        if not self.is_plain():
            return None
        a = self.src("a")
        if isinstance(a, IntegerAttr | CBankAttr) and isinstance(self.results[0].type, R32Type):
            return a, 32
        return None

    def is_register_copy(self) -> bool:
        """An unguarded ``MOV %a`` without source modifiers."""
        return self.is_plain() and isinstance(self.src("a"), SSAValue)

    def reads_only_uniform_inputs(self) -> bool:
        """A MOV of an immediate or of a constant-bank word (the same in
        every thread; into a uniform register the latter is a ``ULDC``)."""
        return self.operand_groups()[1] is None and isinstance(
            self.src("a"), IntegerAttr | CBankAttr)

    def register_moves(self) -> list[tuple[int, int]] | None:
        a, d = r_registers(self.src("a")), r_registers(self.results[0])
        return [] if a == d else [(a[i] if i < len(a) else -1, r) for i, r in enumerate(d)]

    def sass_instructions(self) -> int:
        """0 for a move onto its own register (guarded or not: either way the
        register keeps its content), 1 otherwise."""
        a = self.src("a")
        if isinstance(a, SSAValue) and not self.smod_map():
            return parts_out_of_place(self.results[0], [a])
        t = self.results[0].type
        return 0 if isinstance(t, OriRegisterType) and t.is_fixed else 1


__all__ = [
    "BmskOp",
    "BrevOp",
    "FloOp",
    "IAbsOp",
    "IAdd3Op",
    "IMadOp",
    "IMnMxOp",
    "LeaOp",
    "Lop3Op",
    "MovOp",
    "PackOp",
    "PopcOp",
    "PrmtOp",
    "SelOp",
    "SgxtOp",
    "ShfOp",
    "ShlOp",
    "ShrOp",
    "UnpackOp",
]
_ = (R64, imm)


MAX_PARTS = 128
"""Parts of the widest value ``ori.pack`` builds (an ``!ori.r4096`` tuple)."""


@ori_op
class PackOp(OriInstruction):
    """Pseudo-instruction: ``d = {p0, p1[, p2, p3]}`` builds a 64- or 128-bit
    value from 32-bit parts (p0 = lowest register), as PTX ``mov.b64 %rd,
    {%r1, %r2}`` does.  It names no SASS instruction: register allocation
    places the parts in the value's registers (then it vanishes) or emits one
    MOV per part."""

    name = "ori.pack"
    SASS = "PACK"
    MOVES_PARTS = True
    REMATERIALIZABLE = False
    CONSTANT_LIKE = True
    CONSTANT_PORTS = MAX_PARTS  # one MOV per part, each with its own port
    DSTS = (Dst("d", (R64Type, R128Type, UR64Type, *TUPLE_TYPES)),)
    # Register tuples (TUPLE_TYPES: warpgroup MMA accumulators) have up to 64 parts.
    SRCS = (
        rio("p0"),
        rio("p1"),
        *(rio(f"p{i}", optional=True) for i in range(2, MAX_PARTS)),
    )

    def verify_semantics(self) -> None:
        want = type(self.dsts[0].type).num_regs()
        if len(self.present_slots()) != want:
            raise VerifyException(
                f"ori.pack: a {self.dsts[0].type} value is built from {want} parts, "
                f"got {len(self.present_slots())}"
            )

    def constant_value(self, index: int = 0) -> int | bool | None:
        """``PACK`` of two immediates/RZ into a 64-bit register: the pair."""
        if not self.is_plain() or not isinstance(self.results[index].type, R64Type):
            return None
        parts = [_word(v) for _, v in self.slot_values()]
        if len(parts) != 2 or parts[0] is None or parts[1] is None:
            return None
        return parts[0] | (parts[1] << 32)

    def register_moves(self) -> list[tuple[int, int]] | None:
        return part_register_moves(self.results[0], [v for _, v in self.slot_values()], True)

    def zero_pairs(self) -> int:
        """How many ``CS2R Rd, SRZ`` write this PACK once allocated: an R zero
        of 64 bits or more (every part RZ or 0) at an even register is one
        ``CS2R`` per register pair -- the form ptxas emits for a zeroed
        accumulator (``CS2R R12, SRZ; CS2R R14, SRZ``), not a ``MOV`` per
        part; 0 for any other PACK."""
        t = self.results[0].type
        if (not isinstance(t, OriRegisterType) or not self.is_pair_zero()
                or t.phys_index is None or t.is_fixed or t.phys_index % 2):
            return 0
        return t.num_regs() // 2

    def is_pair_zero(self) -> bool:
        """An unguarded R-file zero of whole register pairs (every part RZ or
        0, an even number of parts): what ``CS2R`` writes once allocated at
        an even register."""
        t = self.results[0].type
        return (isinstance(t, OriRegisterType) and t.REG_FILE is RegFile.R
                and t.num_regs() % 2 == 0 and self.is_plain()
                and all(_word(v) == 0 for _, v in self.slot_values()))

    def sass_instructions(self) -> int:
        """One ``MOV`` per part that is not already in its register of ``d``
        (one ``CS2R`` per pair for a zero, :meth:`zero_pairs`)."""
        return self.zero_pairs() or parts_out_of_place(
            self.results[0], [v for _, v in self.slot_values()])

    def sass_form(self, operand: OperandText) -> SassForm | None:
        n = self.zero_pairs()
        if not n:
            return None
        d = self.dsts[0]
        pairs = [SassForm("CS2R", (operand(d, None) if k == 0 else register_above(d, 2 * k, operand),
                                   "SRZ"), f"{64 * n}-bit zero" if k == 0 else "")
                 for k in range(n)]
        return SassForm(pairs[0].mnemonic, pairs[0].operands, pairs[0].note, tuple(pairs[1:]))

    def constant_operand(self) -> tuple[Attribute, int] | None:
        """A 64-bit constant whose low word is 0: the form an f64 immediate slot
        encodes (SASS keeps the high 32 bits: ``DFMA R6, -R2, R4, 1``)."""
        k = self.constant_value()
        if k is None or k & 0xFFFFFFFF:
            return None
        assert isinstance(k, int)
        return IntegerAttr(k - (1 << 64) if k >> 63 else k, 64), 64


@ori_op
class UnpackOp(OriInstruction):
    """Pseudo-instruction: ``p0, p1[, p2, p3] = a`` splits a 64- or 128-bit value
    into its 32-bit registers (p0 = lowest), as PTX ``mov.b64 {%r1, %r2}, %rd``.
    Like ``ori.pack`` it costs nothing once allocation coalesces the parts."""

    name = "ori.unpack"
    SASS = "UNPACK"
    MOVES_PARTS = True
    SPLITS = "a"
    DSTS = (
        Dst("p0", (R32Type, UR32Type)),
        Dst("p1", (R32Type, UR32Type)),
        *(Dst(f"p{i}", (R32Type,), optional=True) for i in range(2, MAX_PARTS)),
    )
    SRCS = (Src("a", (R64Type, R128Type, UR64Type, *TUPLE_TYPES)),)

    def verify_semantics(self) -> None:
        a = self.src_reg("a")
        if a is not None and len(self.dsts) != type(a.type).num_regs():
            raise VerifyException(
                f"ori.unpack: a {a.type} value has {type(a.type).num_regs()} parts, "
                f"got {len(self.dsts)} results"
            )

    def register_moves(self) -> list[tuple[int, int]] | None:
        return part_register_moves(self.src_reg("a"), list(self.results), False)

    def sass_instructions(self) -> int:
        """One ``MOV`` per part that is not already in its register of ``a``."""
        a = self.src_reg("a")
        return len(self.dsts) if a is None else parts_out_of_place(a, list(self.dsts))
