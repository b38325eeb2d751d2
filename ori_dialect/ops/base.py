"""Helpers shared by the op-family modules: the op decorator and slot shorthands."""

from __future__ import annotations

from collections.abc import Callable
from typing import TypeVar

from xdsl.dialects.builtin import DenseArrayBase, DictionaryAttr, StringAttr, UnitAttr
from xdsl.irdl import irdl_op_definition, traits_def
from xdsl.traits import MemoryReadEffect, MemoryWriteEffect, OpTrait, Pure
from xdsl.utils.exceptions import VerifyException

from ori_dialect.ir.construction import segment_values
from ori_dialect.ir.instruction import Dst, OriInstruction, OriOp, Src
from ori_dialect.ir.registers import (
    OriRegisterType,
    PredType,
    R32Type,
    R64Type,
    R128Type,
    UPredType,
    uniform_counterpart,
)
from ori_dialect.ir.traits import OriConstantLike

_T = TypeVar("_T", bound=type[OriOp])


def ori_op(cls: _T) -> _T:
    """``irdl_op_definition`` plus xDSL effect traits derived from the op's metadata,
    so generic xDSL passes (DCE, CSE) see what Ori passes see, and
    ``ConstantLike`` for ``CONSTANT_LIKE`` classes (docs/architecture.md "Op facts")."""
    if "traits" in cls.__dict__:  # the class states its own traits (terminators)
        return irdl_op_definition(cls)  # pyright: ignore[reportReturnType]
    if cls.UNIFORM_SASS is not None and issubclass(cls, OriInstruction):
        cls.DSTS = tuple(_with_uniform(d) for d in cls.DSTS)
    traits: list[OpTrait] = []
    if cls.MEM.reads or cls.SIDE_EFFECTS:
        traits.append(MemoryReadEffect())
    if cls.MEM.writes or cls.SIDE_EFFECTS:
        traits.append(MemoryWriteEffect())
    if not traits:
        traits.append(Pure())
    if cls.CONSTANT_LIKE:
        traits.append(OriConstantLike())
    cls.traits = traits_def(*traits)  # pyright: ignore[reportAttributeAccessIssue]
    own_verify = cls.verify_
    new = irdl_op_definition(cls)
    if issubclass(new, OriInstruction) and has_instruction_shape(new):
        new.verify_ = _fast_verify(own_verify)  # type: ignore[method-assign]
    return new  # pyright: ignore[reportReturnType]


_PROPS = {"mods": StringAttr, "consts": DictionaryAttr, "smods": DictionaryAttr,
          "guard_neg": UnitAttr, "operandSegmentSizes": DenseArrayBase}
"""The properties OriInstruction declares, with their types."""


def has_instruction_shape(cls: type[OriInstruction]) -> bool:
    """``cls`` declares exactly OriInstruction's operands, results and
    properties (no op class adds any today)."""
    d = cls.get_irdl_definition()
    return ([n for n, _ in d.operands] == ["srcs", "guard", "prior"]
            and [n for n, _ in d.results] == ["dsts"] and not d.regions
            and not d.successors and set(d.properties) == set(_PROPS) and not d.attributes)


def _fast_verify(own: Callable[[OriInstruction], None]) -> Callable[[OriInstruction], None]:
    """The verifier of an instruction op: the IRDL checks of OriInstruction's
    fixed shape written out, then the op's own checks (slots, modifiers,
    ports).  xDSL's generic IRDL verifier walks the definition's constraint
    objects for every op: 55% of verifying cub_device (issue 20)."""

    def verify_(self: OriInstruction) -> None:
        name = self.name
        for k, v in self.properties.items():
            want = _PROPS.get(k)
            if want is None:
                raise VerifyException(f"property '{k}' is not defined by the operation '{name}'")
            if not isinstance(v, want):
                raise VerifyException(f"{name}: property '{k}' must be {want.name}, got {v}")
        seg = self.properties.get("operandSegmentSizes")
        if seg is None:
            raise VerifyException(f"property 'operandSegmentSizes' expected in operation '{name}'")
        sizes = list(segment_values(seg))
        ops = self.operands
        if len(sizes) != 3 or sum(sizes) != len(ops) or sizes[1] > 1 or min(sizes) < 0:
            raise VerifyException(
                f"{name}: operandSegmentSizes {sizes} do not describe its {len(ops)} operands "
                "(sources, at most one guard, prior values)")
        for k, v in enumerate(ops):
            t = v.type
            if k == sizes[0] and sizes[1]:
                if not isinstance(t, PredType | UPredType):
                    raise VerifyException(f"{name}: the guard must be a predicate, got {t}")
            elif not isinstance(t, OriRegisterType):
                raise VerifyException(f"{name}: operand {k} must be a register, got {t}")
        for r in self.results:
            if not isinstance(r.type, OriRegisterType):
                raise VerifyException(f"{name}: results must be registers, got {r.type}")
        for trait in self.traits:
            trait.verify(self)
        own(self)

    return verify_


def _with_uniform(d: Dst) -> Dst:
    """A result slot that also takes the uniform counterparts of its types:
    an op with a uniform-datapath form writes UR/UP there."""
    extra = (uniform_counterpart(t) for t in d.types)
    types = tuple(dict.fromkeys((*d.types, *(t for t in extra if t is not None))))
    return Dst(d.name, types, optional=d.optional)


R = (R32Type,)
R64 = (R64Type,)
RW = (R32Type, R64Type, R128Type)  # any GPR width (memory data)
P = (PredType, UPredType)


def reg(name: str, *, optional: bool = False, fixed: bool = True) -> Src:
    """A 32-bit GPR slot (RZ allowed)."""
    return Src(name, R, fixed=fixed, optional=optional)


def rio(name: str, *, neg: bool = False, optional: bool = False) -> Src:
    """A 32-bit slot taking a GPR, an integer immediate or a constant-bank operand."""
    return Src(
        name, R, imm="int", cbank=True, optional=optional,
        smods=frozenset({"neg"}) if neg else frozenset(),
    )


def pred(name: str, *, optional: bool = False) -> Src:
    """A predicate source slot; may be negated (``not %p``) or PT."""
    return Src(name, P, smods=frozenset({"not"}), optional=optional)


def imm(name: str, *, optional: bool = False) -> Src:
    """An integer-immediate-only slot (LUTs, shift amounts, masks)."""
    return Src(name, (), imm="int", optional=optional, fixed=False)


def fsrc(name: str, *, immediate: bool = False, cbank: bool = False, width: int = 32) -> Src:
    """A float source with negate/absolute-value modifiers."""
    return Src(
        name,
        R if width == 32 else R64,
        imm=("f32" if width == 32 else "f64") if immediate else None,
        cbank=cbank,
        smods=frozenset({"neg", "abs"}),
    )


INDEX_SCALES = {"x4": 4, "x8": 8, "x16": 16}
"""The index scales of a shared-memory address (``[R8.X4+0x100]``): source
modifiers of its base slot."""


def addr(width: int, scaled: bool = False) -> tuple[Src, Src]:
    """A memory address: base register (64-bit for global/generic, 32-bit for
    shared/local) printed with its signed immediate offset as ``[%a + 0x10]``;
    ``scaled``: the base may be an index times 4, 8 or 16 (``[%a * 4 +
    0x10]``, SASS ``[R8.X4+0x10]``: LDS and STS)."""
    base = Src("addr", R64 if width == 64 else R, address=True,
               smods=frozenset(INDEX_SCALES) if scaled else frozenset())
    return base, Src("offset", (), imm="int", fixed=False)


__all__ = ["INDEX_SCALES", "R64", "RW", "OriInstruction", "P", "R", "addr", "fsrc", "imm", "ori_op", "pred", "reg", "rio"]
