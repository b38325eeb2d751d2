"""The op facts (docs/architecture.md "Op facts") are consistent over every
registered op class: effects against side-effect freedom and speculation,
faulting memory ops, the foldable set against the rule it replaced (the
integer and predicate families by module, minus MOV/PACK/UNPACK, memory and
side effects, float compares), constant producers, and commutativity checked
by evaluating the interpreter's semantics on random inputs."""

from __future__ import annotations

from typing import Any

import numpy as np
import pytest
from xdsl.dialects import test as xtest
from xdsl.dialects.builtin import IntegerAttr
from xdsl.ir import Attribute
from xdsl.utils.exceptions import VerifyException

from ori_dialect.interpreter.semantics.fold import fold_op
from ori_dialect.interpreter.semantics.registry import compile_op, has_semantics
from ori_dialect.ir.attrs import CBankAttr
from ori_dialect.ir.instruction import OriInstruction, OriOp
from ori_dialect.ir.metadata import MemEffect, MemSpace
from ori_dialect.ir.registers import PredType, R32Type, R64Type
from ori_dialect.ir.traits import OriConstantLike
from ori_dialect.ops import ALL_OPS, integer, predicate
from ori_dialect.ops.floating import FAddOp, FFmaOp, FMulOp
from ori_dialect.ops.integer import IAdd3Op, IMadOp, MovOp, PackOp, ShfOp, ShlOp, ShrOp, UnpackOp
from ori_dialect.ops.memory import AtomOp, LdcOp, LdgOp
from ori_dialect.ops.module_vars import AddrOp
from ori_dialect.ops.predicate import INT_CMPS, ISetPOp, PLop3Op
from ori_dialect.ops.special import S2ROp
from ori_dialect.ops.sync import BarOp, BarRedOp, ShflOp

ORI_OPS = [c for c in ALL_OPS if issubclass(c, OriOp)]
N = 256
RNG = np.random.default_rng(12)


@pytest.mark.parametrize("cls", ORI_OPS, ids=lambda c: c.name)
def test_effects_and_speculation(cls: type[OriOp]) -> None:
    if cls.MEM.writes or cls.SIDE_EFFECTS or cls.IS_BARRIER or cls.WARP_COLLECTIVE:
        assert not cls.is_side_effect_free()
    else:
        assert cls.is_side_effect_free()
    assert cls.is_speculatable() == (cls.is_side_effect_free() and not cls.MAY_FAULT)
    if cls.MAY_FAULT:
        assert cls.MEM is not MemEffect.NONE and cls.SPACE is not MemSpace.CONST
    if cls.MEM is not MemEffect.NONE and cls.SPACE not in (None, MemSpace.CONST):
        assert cls.MAY_FAULT, "a global/shared/local/generic access can fault"


def _old_fold_set() -> set[type[OriOp]]:
    """The rule ori-general-optimize used before the FOLDABLE fact: the
    integer/predicate modules, not MOV/PACK/UNPACK, no memory or side
    effects; float compares (a float-immediate slot) were never folded."""
    mods = (integer.__name__, predicate.__name__)
    return {
        c for c in ORI_OPS
        if c.__module__ in mods
        and c not in (MovOp, PackOp, UnpackOp)
        and c.MEM is MemEffect.NONE
        and not c.SIDE_EFFECTS
        and issubclass(c, OriInstruction)
        and not any(s.imm in ("f32", "f64") for s in c.SRCS)
    }


def test_foldable_set_is_the_old_rule() -> None:
    assert {c for c in ORI_OPS if c.FOLDABLE} == _old_fold_set()


@pytest.mark.parametrize("cls", [c for c in ORI_OPS if c.FOLDABLE], ids=lambda c: c.name)
def test_foldable_ops_are_pure_and_have_semantics(cls: type[OriOp]) -> None:
    assert cls.is_speculatable() and cls.MEM is MemEffect.NONE
    assert has_semantics(cls)


@pytest.mark.parametrize("cls", ORI_OPS, ids=lambda c: c.name)
def test_constant_like_trait_and_commutative_slots(cls: type[OriOp]) -> None:
    assert cls.has_trait(OriConstantLike) == cls.CONSTANT_LIKE
    if cls.COMMUTATIVE:
        assert issubclass(cls, OriInstruction)
        names = {s.name for s in cls.SRCS}
        for x, y in cls.COMMUTATIVE:
            assert {x, y} <= names


def test_constant_producers() -> None:
    r32, r64, p = R32Type.unallocated(), R64Type.unallocated(), PredType.unallocated()
    assert {c for c in ORI_OPS if c.CONSTANT_LIKE} == {MovOp, PackOp, PLop3Op, LdcOp, AddrOp}
    assert MovOp.make([-1], [r32]).constant_value() == 0xFFFFFFFF
    assert MovOp.make([-1], [r32]).constant_operand() == (IntegerAttr(-1, 32), 32)
    assert MovOp.make([CBankAttr(0, 0x160)], [r32]).constant_value() is None
    assert PackOp.make([0, 0x3FF00000], [r64]).constant_value() == 0x3FF00000_00000000
    assert PackOp.make([0, 0x3FF00000], [r64]).constant_operand() == (
        IntegerAttr(0x3FF00000_00000000, 64), 64)
    assert PackOp.make([1, 0x3FF00000], [r64]).constant_operand() is None
    pt = PredType.fixed()
    assert PLop3Op.make([pt, pt, pt, 0xFF], [p]).constant_value() is True
    assert PLop3Op.make([pt, pt, pt, 0x00], [p]).constant_value() is False
    ldc = LdcOp.make([0, R32Type.fixed(), 0x168], [r64], mods="b64")
    assert ldc.constant_operand() == (CBankAttr(0, 0x168), 64)
    assert ldc.reads_only_uniform_inputs()


def test_uniform_sources() -> None:
    r32 = R32Type.unallocated()
    assert S2ROp.make([], [r32], mods="SR_CTAID.X").reads_only_uniform_inputs()
    assert not S2ROp.make([], [r32], mods="SR_TID.X").reads_only_uniform_inputs()
    assert MovOp.make([4], [r32]).reads_only_uniform_inputs()
    assert MovOp.make([CBankAttr(0, 0x170)], [r32]).reads_only_uniform_inputs()
    src = MovOp.make([4], [r32]).results[0]
    assert not MovOp.make([src], [r32]).reads_only_uniform_inputs()


def test_shifts_have_funnel_shift_substitutes() -> None:
    """SHL/SHR have no uniform SASS form; their substitute is the SHF that
    computes the same word (USHF in the uniform datapath), bit-exact with
    the clamp and the ``w`` wrap on every amount (0..69 and 2^32-1)."""
    r32 = R32Type.unallocated()
    a = MovOp.make([5], [r32]).results[0]
    b = MovOp.make([6], [r32]).results[0]
    words = [0, 1, 0x7FFFFFFF, 0x80000000, 0xFFFFFFFF, 0x12345678, 0xB07E8AC0]
    amounts = [*range(70), 0xFFFFFFFF]
    for cls, mods in ((ShlOp, ""), (ShlOp, "w"), (ShrOp, ""), (ShrOp, "u32"),
                      (ShrOp, "w"), (ShrOp, "u32.w")):
        op = cls.make([a, b], [r32], mods=mods)
        found = op.uniform_substitute()
        assert found is not None and len(found.ops) == 1
        sub = found.ops[0]
        assert isinstance(sub, ShfOp) and sub.has_uniform_form()
        assert found.results == (sub.results[0],)
        sub.verify()
        for x in words:
            for s in amounts:
                xv, sv = np.array([x], np.uint32), np.array([s], np.uint32)
                zero = np.array([0], np.uint32)
                want = fold_op(op, [xv, sv])
                got = fold_op(sub, [xv, sv, zero] if cls is ShlOp else [zero, sv, xv])
                assert want is not None and got is not None
                assert int(want[0][0]) == int(got[0][0]), (cls.__name__, mods, x, s)
    guarded = ShlOp.make([a, b], [r32], guard=PLop3Op.make(
        [PredType.fixed()] * 3 + [0xFF], [PredType.unallocated()]))
    assert guarded.uniform_substitute() is None
    assert IAdd3Op.make([a, b, R32Type.fixed()], [r32]).uniform_substitute() is None


def test_atomic_slot_bits_follow_the_type() -> None:
    r64 = R64Type.unallocated()
    base = xtest.TestOp(result_types=[r64]).results[0]
    value = AtomOp.SRCS[2]
    for ty, bits in (("u64", 64), ("u32", 32)):
        res = r64 if bits == 64 else R32Type.unallocated()
        op = AtomOp.make([base, 0, 1], [res], mods=f"add.{ty}")
        assert op.slot_bits(value) == bits


def _random(t: Attribute) -> tuple[Any, np.ndarray]:
    if isinstance(t, PredType):
        return t, RNG.integers(0, 2, N).astype(np.bool_)
    if isinstance(t, R64Type):
        return t, RNG.integers(0, 2**64, N, dtype=np.uint64)
    return t, RNG.integers(0, 2**32, N, dtype=np.uint64).astype(np.uint32)


def _float_bits() -> np.ndarray:
    # finite values: the order of two NaN operands decides the NaN's payload
    return RNG.normal(0, 100, N).astype(np.float32).view(np.uint32)


CASES: list[tuple[type[OriInstruction], str, list[Attribute], list[Attribute], bool]] = [
    (IAdd3Op, "", [R32Type.unallocated()] * 3, [R32Type.unallocated()], False),
    *[(IMadOp, m, [R32Type.unallocated()] * 3, [R32Type.unallocated()], False)
      for m in ("", "hi", "hi.u32")],
    (IMadOp, "wide.u32", [R32Type.unallocated(), R32Type.unallocated(), R64Type.unallocated()],
     [R64Type.unallocated()], False),
    (IMadOp, "wide", [R32Type.unallocated(), R32Type.unallocated(), R64Type.unallocated()],
     [R64Type.unallocated()], False),
    (FAddOp, "", [R32Type.unallocated()] * 2, [R32Type.unallocated()], True),
    (FMulOp, "", [R32Type.unallocated()] * 2, [R32Type.unallocated()], True),
    (FFmaOp, "", [R32Type.unallocated()] * 3, [R32Type.unallocated()], True),
    *[(ISetPOp, f"{c}.{s}", [R32Type.unallocated(), R32Type.unallocated(),
                             PredType.unallocated()], [PredType.unallocated()], False)
      for c in INT_CMPS for s in ("s32", "u32")],
]


@pytest.mark.parametrize(("cls", "mods", "srcs", "results", "floats"), CASES,
                         ids=lambda v: v.name if isinstance(v, type) else None)
def test_commutative_pairs_commute(
    cls: type[OriInstruction], mods: str, srcs: list[Attribute], results: list[Attribute],
    floats: bool,
) -> None:
    operands = [xtest.TestOp(result_types=[t]).results[0] for t in srcs]
    op = cls.make(operands, results, mods=mods)
    op.verify()
    names = [s.name for s in op.present_slots()]
    values = [_random(t)[1] for t in srcs]
    if floats:
        values = [_float_bits() for _ in srcs]
    want = compile_op(op)(values, N)
    forms = op.commutations()
    assert forms, f"{op.name} {mods}: no commutation"
    for (x, y), new_mods in forms:
        swapped = cls.make(operands, results, mods=mods if new_mods is None else new_mods)
        ix, iy = names.index(x), names.index(y)
        vals = list(values)
        vals[ix], vals[iy] = vals[iy], vals[ix]
        got = compile_op(swapped)(vals, N)
        for w, g in zip(want, got):
            np.testing.assert_array_equal(w, g)


def test_refused_commutations() -> None:
    r32, p = R32Type.unallocated(), PredType.unallocated()
    a, b, c = (xtest.TestOp(result_types=[r32]).results[0] for _ in range(3))
    ci = xtest.TestOp(result_types=[p]).results[0]
    assert IMadOp.make([a, b, c, ci], [r32], mods="x").commutations() == ()
    pc = xtest.TestOp(result_types=[p]).results[0]
    isetp_ex = ISetPOp.make([a, b, pc, ci], [p], mods="ge.ex")
    assert isetp_ex.commutations() == ()


def test_imad_hi_substitute_is_the_high_word_of_imad_wide() -> None:
    """IMAD.HI has no uniform SASS form: its substitute is UIMAD.WIDE's high
    word (UNPACK), bit-exact for both signs; an addend or a guard has none."""
    r32 = R32Type.unallocated()
    a = MovOp.make([5], [r32]).results[0]
    words = [0, 1, 0x7FFFFFFF, 0x80000000, 0xFFFFFFFF, 0x12345678, 0xD2511F53]
    for sign in ("u32", "s32"):
        op = IMadOp.make([a, -0x2DAEE0AD, R32Type.fixed()], [r32], mods=f"hi.{sign}")
        found = op.uniform_substitute()
        assert found is not None
        wide, parts = found.ops
        assert isinstance(wide, IMadOp) and wide.has_uniform_form() and wide.mod("mode") == "wide"
        assert isinstance(parts, UnpackOp) and found.results == (parts.results[1],)
        wide.verify()
        parts.verify()
        for x in words:
            xv = np.array([x], np.uint32)
            want = fold_op(op, [xv, np.array([0xD2511F53], np.uint32), np.array([0], np.uint32)])
            got = fold_op(wide, [xv, np.array([0xD2511F53], np.uint32), np.array([0], np.uint64)])
            assert want is not None and got is not None
            assert int(want[0][0]) == int(got[0][0]) >> 32, (sign, x)
        found.erase()
    b = MovOp.make([6], [r32]).results[0]
    assert IMadOp.make([a, b, b], [r32], mods="hi.u32").uniform_substitute() is None
    assert IMadOp.make([a, b, R32Type.fixed()], [r32], mods="lo").uniform_substitute() is None


def test_lop3_commutations_permute_the_truth_table() -> None:
    """LOP3's a or c swaps with b (the slot that takes a constant), its
    truth table permuted with them: the same result on random words for
    every table."""
    r32 = R32Type.unallocated()
    srcs = [xtest.TestOp(result_types=[r32]).results[0] for _ in range(3)]
    vals = [RNG.integers(0, 2**32, N, dtype=np.uint64).astype(np.uint32) for _ in range(3)]
    names = ["a", "b", "c"]
    for lut in (0x96, 0xEA, 0x3C, 0xC0, 0xF8, 0x01, 0xB4):
        op = integer.Lop3Op.make([*srcs, lut], [r32])
        want = compile_op(op)(vals, N)
        assert [pair for pair, _ in op.commutations()] == [("a", "b"), ("b", "c")]
        for (x, y), mods in op.commutations():
            assert mods is None
            table = op.commuted_immediates(x, y)["lut"]
            swapped = integer.Lop3Op.make([*srcs, table], [r32])
            v = list(vals)
            ix, iy = names.index(x), names.index(y)
            v[ix], v[iy] = v[iy], v[ix]
            np.testing.assert_array_equal(want[0], compile_op(swapped)(v, N)[0])


def test_fold_entry_point() -> None:
    r32 = R32Type.unallocated()
    a, b, c = (xtest.TestOp(result_types=[r32]).results[0] for _ in range(3))
    op = IAdd3Op.make([a, b, c], [r32])
    out = fold_op(op, [np.uint32(2), np.uint32(3), np.uint32(0xFFFFFFFF)])
    assert out is not None and int(np.asarray(out[0]).reshape(-1)[0]) == 4
    assert fold_op(xtest.TestOp(result_types=[r32]), []) is None  # no semantics: no fold


def test_constant_ports() -> None:
    """One constant port per SASS instruction, enforced by the verifier;
    PACK, a pseudo-op that becomes one MOV per part, may take a constant in
    every part; SHFL encodes its lane and clamp immediates both (``SHFL.BFLY
    PT, R3, R2, 0x10, 0x1f``), BAR its id and thread count (``BAR.SYNC
    0x1, 0x40``)."""
    wide = {c for c in ORI_OPS if issubclass(c, OriInstruction) and c.CONSTANT_PORTS != 1}
    assert wide == {PackOp, ShflOp, BarOp, BarRedOp}
    assert PackOp.CONSTANT_PORTS >= len(PackOp.SRCS)
    assert PackOp.make([1, 2], [R64Type.unallocated()]).verify() is None
    a = MovOp.make([0x10]).results[0]
    with pytest.raises(VerifyException, match="2 constant sources"):
        IMadOp.make([a, 0x3B, 0x10]).verify()
    assert IMadOp.make([a, 0x3B, a]).verify() is None


@pytest.mark.parametrize(("mods", "ordered"), [
    ("b32", False), ("b32.weak", False), ("b32.relaxed", True), ("b32.acquire", True),
    ("b32.strong.gpu", True),
])
def test_is_ordered(mods: str, ordered: bool) -> None:
    """A load with an ordering semantic is ordered (ori-dead-code keeps it)."""
    addr = xtest.TestOp(result_types=[R64Type.unallocated()]).results[0]
    op = LdgOp.make([addr, 0], [R32Type.unallocated()], mods=mods)
    assert op.is_ordered() is ordered
    a = xtest.TestOp(result_types=[R32Type.unallocated()]).results[0]
    assert not IAdd3Op.make([a, a, a]).is_ordered()  # no sem modifier at all
