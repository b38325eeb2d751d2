"""The shape shared by every Ori instruction op.

An Ori instruction (one op class per SASS opcode family) has:

* ``dsts``   -- result registers, checked against the class's ``DSTS`` spec;
* source *slots* (``SRCS`` spec), each filled by an SSA register operand
  (stored, in slot order, in ``srcs``) or by a constant kept in the ``consts``
  property under the slot's name: an integer or float immediate, a
  constant-bank operand ``c[bank][offset]``, or a fixed register (RZ, PT);
* per-slot source modifiers in ``smods`` (``neg``/``abs`` for float sources,
  ``not`` for predicate sources);
* opcode modifiers (``.WIDE``, ``.GE.U32.AND``, ``.E.64`` ...) in one
  canonical dot-joined ``mods`` string, checked against the class's
  ``MODS`` groups;
* an optional guard predicate with negation; a guarded instruction that
  defines values also takes each value's prior definition as a tied operand
  (``prior``), so SSA stays exact: when the guard is false each result equals
  its prior value (docs/architecture.md "IR model").

Custom syntax (one line, round-trips exactly; printed and parsed by
``ir/syntax.py``)::

    %d = ori.iadd3 %a, 0x10, RZ : (!ori.r32) -> !ori.r32
    %p = ori.isetp ge.u32 %i, %n, PT : (!ori.r32, !ori.r32) -> !ori.p
    %v = ori.ldg b64 [%addr + 0x8] : (!ori.r64) -> !ori.r64
    %x = ori.fadd -%a, |%b| if not %q else %x0 : (!ori.r32, !ori.r32, !ori.p, !ori.r32) -> !ori.r32

The trailing function type lists the types of the SSA operands in storage
order (sources, guard, prior values) and of the results.

The module holds the op base classes (construction with ``make``, queries,
verification, the ``ori-asm`` listing hook ``sass_form``); the slot specs
live in ``ir/slots.py``, the generic fast op construction in
``ir/construction.py``.
"""

from __future__ import annotations

import functools
from collections.abc import Callable, Sequence
from dataclasses import dataclass
from typing import Any, ClassVar, Self

from xdsl.dialects.builtin import (
    UNKNOWN_LOC,
    DictionaryAttr,
    Float32Type,
    Float64Type,
    FloatAttr,
    IntegerAttr,
    StringAttr,
    UnitAttr,
)
from xdsl.ir import (
    Attribute,
    BlockArgument,
    ErasedSSAValue,
    Operation,
    OpResult,
    SSAValue,
)
from xdsl.irdl import (
    AttrSizedOperandSegments,
    IRDLOperation,
    opt_operand_def,
    opt_prop_def,
    var_operand_def,
    var_result_def,
)
from xdsl.parser import Parser
from xdsl.printer import Printer
from xdsl.traits import IsTerminator, NoTerminator
from xdsl.utils.exceptions import VerifyException

from ori_dialect.ir.attrs import CBankAttr
from ori_dialect.ir.construction import (
    as_value,
    create_op,
    fast_create,
    fast_init_ok,
    segment_sizes,
    segment_values,
)
from ori_dialect.ir.metadata import AsyncRole, LatencyClass, MemEffect, MemSpace, Pipe
from ori_dialect.ir.registers import (
    REGISTER_TYPES,
    OriRegisterType,
    PredType,
    R32Type,
    RegFile,
    UPredType,
    is_stack_pointer,
)
from ori_dialect.ir.slots import Const, Dst, ModGroup, Src, flag, int_attr, make_imm
from ori_dialect.ir.syntax import parse_instruction, print_instruction

# Attribute classes make() stores as constants without conversion.
_CONST_ATTRS = frozenset([*REGISTER_TYPES, IntegerAttr, FloatAttr, CBankAttr])


def annotate_class_constants(cls: type) -> None:
    """Give every upper-case class constant of ``cls`` a ``ClassVar`` annotation."""
    # The class's own dict, not inspect.get_annotations (which returns a copy).
    ann = cls.__dict__.get("__annotations__")  # noqa: RUF063
    if ann is None:
        ann = {}
        cls.__annotations__ = ann
    for k in list(cls.__dict__):
        if k.isupper() and not k.startswith("__") and k not in ann:
            ann[k] = ClassVar

class OriOp(IRDLOperation):
    """Base of every op of the ori dialect that stands for a SASS instruction
    (including control flow): the metadata it declares once."""

    # ---- metadata every op class declares (docs/architecture.md "Op facts") ----
    LATENCY: ClassVar[LatencyClass] = LatencyClass.SHORT_ALU
    PIPE: ClassVar[Pipe] = Pipe.ALU
    MEM: ClassVar[MemEffect] = MemEffect.NONE
    SPACE: ClassVar[MemSpace | None] = None
    SIDE_EFFECTS: ClassVar[bool] = False
    IS_BARRIER: ClassVar[bool] = False
    REMATERIALIZABLE: ClassVar[bool] = False
    WARP_COLLECTIVE: ClassVar[bool] = False
    INDIRECT_JUMP: ClassVar[bool] = False
    """A branch whose target is read from a register (BRX): seed 001's LICM
    boundary analysis skips a multi-depth loop that contains one."""
    SASS: ClassVar[str] = ""
    SASS_SPELLING: ClassVar[dict[str, str]] = {}
    """How the ``ori-asm`` listing spells a modifier whose SASS text is not its
    upper-cased IR name (HMMA's ``m16n8k16`` is ``16816``): IR modifiers start
    with a letter so that they read as one identifier."""

    # ---- facts the passes ask (docs/architecture.md "Op facts") ----
    COMMUTATIVE: ClassVar[tuple[tuple[str, str], ...]] = ()
    """Source-slot pairs whose values may be swapped without changing the
    results (``commutations`` adds what a modifier forbids or changes)."""
    FOLDABLE: ClassVar[bool] = False
    """With all sources constant, the results may be computed at compile time
    by the interpreter's semantics (``interpreter/semantics/fold.py``)."""
    MOVES_PARTS: ClassVar[bool] = False
    """The op only moves 32-bit parts between registers (PACK/UNPACK): its
    results are a function of its sources, like a register copy's, though
    it folds nothing (a part may be a register)."""
    MAY_FAULT: ClassVar[bool] = False
    """Executing the op may raise a memory fault (loads/stores/atomics of
    global, shared, local or generic memory; constant-bank loads cannot)."""
    UNIFORM_SOURCE: ClassVar[bool] = False
    """The op is a candidate for the uniform datapath: its value is the same
    for every thread of a CTA when ``reads_only_uniform_inputs`` says so."""
    UNIFORM_SASS: ClassVar[str | None] = None
    """The mnemonic of the op's uniform-datapath form (``UIADD3``, ``ULDC``,
    ``S2UR`` ...; sm_75+), None where SASS has none.  An instance whose
    results are all uniform registers (UR/UP) is that form: its register
    sources are uniform registers, URZ or UPT, none is a constant-bank word
    (ULDC's own address aside) and its guard is a UP predicate
    (docs/architecture.md "Uniform datapath"; ``is_uniform_form``)."""
    CONSTANT_LIKE: ClassVar[bool] = False
    """The op may produce a compile-time constant (``constant_value``);
    ``ori_op`` gives such classes xDSL's ``ConstantLike`` trait."""
    ADDITIVE: ClassVar[bool] = False
    """The integer result is a sum of the sources, one of them possibly
    shifted or multiplied (IADD3; LEA, a shifted add; IMAD, a product plus
    an addend): the address / offset arithmetic whose live-out copies
    ``ori-remat``'s live-out simplification recomputes where they are used
    (seed 002 "NLO", ``nloNewAdd``)."""
    CONSTANT_PORTS: ClassVar[int] = 1
    """How many register-capable slots may hold a non-register operand (an
    immediate, ``c[][]`` or a uniform register) at once: SASS encodes one
    (docs/architecture.md "IR model", the one-constant-port rule); a
    pseudo-op that expands to one instruction per source has more."""
    TIED: ClassVar[tuple[tuple[str, str], ...]] = ()
    """``(result slot, source slot)`` pairs of an op that writes a result into
    the registers of a source (HGMMA's accumulator: ``d`` over ``c``, as
    ptxas encodes it with one register run): the allocator gives both one
    register run whenever the source is a register value
    (:meth:`OriInstruction.tied_operands`; the liveness numbering reads it
    like a guarded op's tied prior value)."""
    SPLITS: ClassVar[str | None] = None
    """The source slot whose registers the results are, one 32-bit result
    per register in order (``ori.unpack``: ``a``); None for other ops."""
    ASYNC: ClassVar[AsyncRole | None] = None
    """The op's part in an asynchronous register protocol (``AsyncRole``:
    issue, commit, wait), or None (``OriInstruction.async_results``,
    ``async_sources``, ``async_pending`` say which registers and groups)."""

    def verify(self, verify_nested_ops: bool = True) -> None:
        """xDSL's ``Operation.verify`` (structure, then the nested regions, then
        ``verify_``) with its terminator test made O(1): xDSL asks
        ``len(region.blocks)`` -- a walk over the region's block list -- of
        every op that ends a block, which is quadratic in a function's
        blocks (0.9 s of cub_device's 6.5 s verification, issue 20)."""
        for v in self.operands:
            if isinstance(v, ErasedSSAValue):
                raise VerifyException(f"{self.name}: an erased SSA value is used by the operation")
        block = self.parent
        region = None if block is None else block.parent
        if self.successors:
            if block is None or region is None:
                raise VerifyException(f"Operation {self.name} with block successors does not "
                                      "belong to a block or a region")
            if block.last_op is not self:
                raise VerifyException(f"Operation {self.name} with block successors must "
                                      "terminate its parent block")
            for succ in self.successors:
                if succ.parent is not region:
                    raise VerifyException(f"Operation {self.name} is branching to a block of a "
                                          "different region")
        if block is not None and region is not None and block.last_op is self \
                and not self.has_trait(IsTerminator):
            if region.first_block is not region.last_block:
                raise VerifyException(f"Operation {self.name} terminates block in multi-block "
                                      "region but is not a terminator")
            owner = region.parent
            if owner is not None and not owner.has_trait(NoTerminator):
                raise VerifyException(f"Operation {self.name} terminates block in single-block "
                                      "region but is not a terminator")
        if verify_nested_ops:
            for r in self.regions:
                r.verify()
        try:
            self.verify_()
        except VerifyException as err:
            self.emit_error(f"Operation does not verify: {err}", err)

    @classmethod
    def is_side_effect_free(cls) -> bool:
        """No memory write, no side effect, no barrier, not warp-collective:
        an unused instance may be removed."""
        return not (cls.SIDE_EFFECTS or cls.IS_BARRIER or cls.WARP_COLLECTIVE or cls.MEM.writes)

    @classmethod
    def is_speculatable(cls) -> bool:
        """Side-effect free and unable to fault: may run where it did not
        (hoisted out of a branch or a loop)."""
        return cls.is_side_effect_free() and not cls.MAY_FAULT

    @classmethod
    def is_no_op(cls) -> bool:
        """Seed 001's *isNoOp* (vtable+1824, "Instruction Counting"): a
        filler the scheduler may drop or a predicate-only operation, i.e. latency
        class SKIP (NOP, PLOP3, UNDEF).  The LICM counts give it weight 1 instead of 30."""
        return cls.LATENCY == LatencyClass.SKIP

    def register_moves(self) -> list[tuple[int, int]] | None:
        """After allocation, the R-register copies a copying pseudo-op makes:
        ``(source register or -1 for a constant, destination register)`` per
        part not already in place (``ori.pack`` / ``ori.unpack`` / ``MOV``);
        None for an op that is not such a copy (the default)."""
        return None

    def sass_instructions(self) -> int:
        """How many SASS instructions this op stands for once registers are
        allocated: 1 by default.  A pseudo-op whose operands allocation has
        put in place costs 0 (``ori.pack`` / ``ori.unpack`` with every part
        in its register of the wide value, a ``MOV`` onto its own register):
        the ``ori-asm`` listing prints it as a comment and instruction counts
        leave it out, as ptxas emits nothing for it."""
        return 1

    @property
    def is_volatile(self) -> bool:
        """The result may differ between two executions with the same
        operands (a clock read): never recomputed, merged or hoisted.
        Default False; S2R and CS2R of the clock override it."""
        return False

    def __init_subclass__(cls, **kwargs: object) -> None:
        # Op classes set metadata constants (``SASS = "IADD3"``) without
        # repeating ``ClassVar`` annotations; IRDL wants every upper-case
        # class constant annotated, so annotate them here.
        super().__init_subclass__(**kwargs)
        annotate_class_constants(cls)


class OriInstruction(OriOp):
    """Base class of every Ori instruction op with the slot shape (module docstring)."""

    # ---- operand shape ----
    DSTS: ClassVar[tuple[Dst, ...]] = ()
    SRCS: ClassVar[tuple[Src, ...]] = ()
    MODS: ClassVar[tuple[ModGroup, ...]] = ()

    srcs = var_operand_def(OriRegisterType)
    guard = opt_operand_def(PredType | UPredType)
    prior = var_operand_def(OriRegisterType)
    dsts = var_result_def(OriRegisterType)

    mods = opt_prop_def(StringAttr)
    consts = opt_prop_def(DictionaryAttr)
    smods = opt_prop_def(DictionaryAttr)
    guard_neg = opt_prop_def(UnitAttr)

    irdl_options = (AttrSizedOperandSegments(as_property=True),)

    # ------------------------------------------------------------------
    # construction
    # ------------------------------------------------------------------
    @classmethod
    def make(
        cls,
        sources: Sequence[SSAValue | Operation | Const | int | float],
        result_types: Sequence[Attribute] | None = None,
        *,
        mods: str = "",
        smods: dict[str, str] | None = None,
        guard: SSAValue | Operation | None = None,
        guard_neg: bool = False,
        prior: Sequence[SSAValue | Operation] = (),
        attributes: dict[str, Attribute] | None = None,
    ):
        """Build an instruction from its sources in slot order.

        Python ints and floats become immediates of the slot's kind; SSA
        values become register operands; attributes are stored as constants.
        ``result_types`` defaults to the first type of each required result.
        """
        slots = cls.SRCS
        if len(sources) > len(slots):
            raise VerifyException(
                f"{cls.name} takes at most {len(slots)} sources, got {len(sources)}"
            )
        regs: list[Any] = []
        convert = False  # an Operation among the sources (SSAValue.get, after the checks)
        consts: dict[str, Attribute] = {}
        # While every constant is an int immediate that fits 32 bits or an
        # attribute (RZ, PT, c[..][..]) -- the usual case -- the consts
        # dictionary is cached under (slot name, int value) and (slot name,
        # id of the attribute) pairs: hashing the tuple of attributes that the
        # general cache is keyed by (dataclass hashes, recursively) was a
        # visible part of PTX import time.  Each entry keeps its attributes
        # alive, so an id in a live key always names the same object.  Such
        # constants need no conversion, so errors are raised in the same order.
        key: list[tuple[Any, ...]] | None = []
        raw: list[tuple[str, Any]] = []
        for slot, s in zip(slots, sources):
            tp = type(s)
            # Exact-type tests first: SSAValue is an ABC, and isinstance
            # against it was a visible part of PTX import time.
            if tp is OpResult or tp is BlockArgument:
                regs.append(s)
            elif (
                tp is int
                and key is not None
                and slot.imm == "int"
                and -0x80000000 <= s <= 0xFFFFFFFF  # type: ignore[operator]
            ):
                key.append((slot.name, s))
                raw.append((slot.name, s))
            elif key is not None and (
                tp in _CONST_ATTRS or not isinstance(s, SSAValue | Operation | int | float)
            ):
                # A constant attribute (RZ, PT, c[..][..]) kept as it is; the
                # exact-type test spares the ABC isinstance checks.
                key.append((slot.name, "id", id(s)))
                raw.append((slot.name, s))
            elif isinstance(s, SSAValue | Operation):
                regs.append(s)
                convert = True
            elif isinstance(s, bool):
                raise VerifyException(f"{cls.name}: bool is not an operand")
            else:
                if key is not None:
                    # Leaving the cached form: build the constants seen so far.
                    for name, v in raw:
                        consts[name] = int_attr(v) if type(v) is int else v
                    key = None
                if isinstance(s, int | float):
                    consts[slot.name] = make_imm(cls.name, slot, s)
                else:
                    consts[slot.name] = s  # type: ignore[assignment]
        if result_types is None:
            # The shared list itself: the result types are only read below.
            result_types = _DEFAULT_RESULTS.get(cls) or _default_result_types(cls)
        elif not isinstance(result_types, list | tuple):
            result_types = list(result_types)
        # Property attributes are immutable: shared instances (cached per
        # class and text) spare building and verifying them for every op.
        props: dict[str, Attribute] = {}
        if mods:
            props["mods"] = _make_mods_attr(cls, mods)
        if key:
            k = tuple(key)
            hit = _CONSTS.get(k)
            if hit is None:
                if len(_CONSTS) >= 16384:
                    _CONSTS.clear()
                items = tuple((n, int_attr(v) if type(v) is int else v) for n, v in raw)
                hit = _CONSTS[k] = (_dict_attr(items), items)
            props["consts"] = hit[0]
        elif consts:
            props["consts"] = _dict_attr(tuple(consts.items()))
        if smods:
            props["smods"] = _smods_attr(tuple(smods.items()))
        if guard_neg:
            props["guard_neg"] = _UNIT
        if convert:
            regs = [as_value(r) for r in regs]
        if guard is not None:
            regs.append(as_value(guard))
        n_prior = len(prior)
        if n_prior:
            regs.extend(as_value(p) for p in prior)
        n_srcs = len(regs) - n_prior - (guard is not None)
        props["operandSegmentSizes"] = segment_sizes(n_srcs, int(guard is not None), n_prior)
        if fast_init_ok(cls):
            return fast_create(cls, regs, result_types, props, attributes or {})
        return cls.create(
            location=UNKNOWN_LOC,
            operands=regs,
            result_types=list(result_types),
            properties=props,
            attributes=attributes or {},
        )

    @classmethod
    def _create(
        cls,
        srcs: list[SSAValue],
        guard: list[SSAValue],
        prior: list[SSAValue],
        result_types: list[Attribute],
        props: dict[str, Attribute],
        attributes: dict[str, Attribute],
    ) -> Self:
        # Operation.create skips IRDL's per-construction argument checking
        # (verification still checks everything); with the segment sizes
        # shared, building an instruction costs a fraction of ``build``.
        props["operandSegmentSizes"] = segment_sizes(len(srcs), len(guard), len(prior))
        if fast_init_ok(cls):
            return fast_create(cls, (*srcs, *guard, *prior), result_types, props, attributes)
        return cls.create(
            location=UNKNOWN_LOC,  # spares create() its lazy import per op
            operands=[*srcs, *guard, *prior],
            result_types=result_types,
            properties=props,
            attributes=attributes,
        )

    # ------------------------------------------------------------------
    # queries
    # ------------------------------------------------------------------
    def operand_groups(
        self,
    ) -> tuple[Sequence[SSAValue], SSAValue | None, Sequence[SSAValue]]:
        """(sources, guard, prior values) read with one segment-size lookup;
        the generated accessors re-read the sizes property on every access."""
        seg = self.properties.get("operandSegmentSizes")
        ops = self.operands
        if seg is None:
            return ops, None, ()
        n_src, n_guard, _ = segment_values(seg)
        guard = ops[n_src] if n_guard else None
        return ops[:n_src], guard, ops[n_src + n_guard :]

    def const_map(self) -> dict[str, Attribute]:
        c = self.properties.get("consts")
        return dict(c.data) if isinstance(c, DictionaryAttr) else {}

    def smod_map(self) -> dict[str, str]:
        sm = self.properties.get("smods")
        if not isinstance(sm, DictionaryAttr):
            return {}
        return {k: v.data for k, v in sm.data.items() if isinstance(v, StringAttr)}

    def present_slots(self) -> tuple[Src, ...]:
        consts = self.properties.get("consts")
        n = len(self.operand_groups()[0]) + (len(consts.data) if consts is not None else 0)  # type: ignore[attr-defined]
        return self.SRCS[:n]

    def slot_values(self) -> list[tuple[Src, SSAValue | Attribute]]:
        """Each present slot with its SSA operand or constant, in slot order."""
        consts = self.const_map()
        out: list[tuple[Src, SSAValue | Attribute]] = []
        srcs = self.operand_groups()[0]
        it = iter(srcs)
        for slot in self.SRCS[: len(srcs) + len(consts)]:
            c = consts.get(slot.name)
            if c is not None:
                out.append((slot, c))
            else:
                v = next(it, None)
                if v is None:
                    break
                out.append((slot, v))
        return out

    def src(self, name: str) -> SSAValue | Attribute | None:
        """The operand or constant of slot ``name``; None when the slot is absent."""
        for slot, v in self.slot_values():
            if slot.name == name:
                return v
        return None

    def src_reg(self, name: str) -> SSAValue | None:
        """The SSA operand of slot ``name``; None when absent or a constant."""
        v = self.src(name)
        return v if isinstance(v, SSAValue) else None

    def src_int(self, name: str) -> int | None:
        """The integer immediate of slot ``name``; None when absent or not one."""
        v = self.src(name)
        return v.value.data if isinstance(v, IntegerAttr) else None

    def dst(self, name: str) -> SSAValue | None:
        for d, r in zip(self.DSTS, self.results):
            if d.name == name:
                return r
        return None

    def mod_tokens(self) -> tuple[str, ...]:
        return tuple(self.mods.data.split(".")) if self.mods is not None and self.mods.data else ()

    def mod(self, group: str) -> str | None:
        """The value of modifier group ``group`` (its default when not written)."""
        spec = _group(type(self), group)
        return _assign_mods(type(self), self.mod_tokens()).get(group, spec.default)

    def has_mod(self, token: str) -> bool:
        return token in self.mod_tokens()

    @property
    def is_guarded(self) -> bool:
        return self.guard is not None

    # ------------------------------------------------------------------
    # op facts (docs/architecture.md "Op facts")
    # ------------------------------------------------------------------
    def tied_operands(self) -> list[tuple[int, int]]:
        """``(result index, operand index)`` of every :attr:`TIED` pair whose
        source is an SSA register operand (a constant source -- HGMMA's RZ
        accumulator -- ties nothing)."""
        if not self.TIED:
            return []
        srcs = self.operand_groups()[0]
        pos: dict[str, int] = {}
        k = 0
        for slot, v in self.slot_values():
            if isinstance(v, SSAValue) and k < len(srcs):
                pos[slot.name] = k
                k += 1
        out: list[tuple[int, int]] = []
        for dname, sname in self.TIED:
            j = pos.get(sname)
            i = next((n for n, d in enumerate(self.DSTS) if d.name == dname), None)
            if j is not None and i is not None and i < len(self.results):
                out.append((i, j))
        return out

    def async_results(self) -> list[tuple[SSAValue, int]]:
        """An issuing op (``ASYNC`` is ISSUE): the results it writes after it
        executed, each with the number of its leading registers written
        (a register tuple's padding is not); [] for other ops."""
        return []

    def async_sources(self) -> list[SSAValue]:
        """An issuing op: the register sources it reads after it executed
        (HGMMA's A fragments in registers); [] for other ops."""
        return []

    def async_pending(self) -> int | None:
        """A waiting op (``ASYNC`` is WAIT): how many committed groups may
        stay in flight after it; None for other ops."""
        return None

    def slot_bits(self, slot: Src) -> int:
        """The width of the value a constant in ``slot`` stands for (how the
        interpreter materialises it, and what constant propagation must match)."""
        if slot.imm == "f64":
            return 64
        widths = {t.BITS for t in slot.types if t not in (PredType, UPredType)}
        if len(widths) == 1:
            return widths.pop()
        if not widths:
            return 32
        return self.variable_slot_bits(slot)

    def variable_slot_bits(self, slot: Src) -> int:
        """``slot_bits`` of a slot that accepts several register widths: set by
        the ``mode``/``src`` modifiers or else the first result's width."""
        names = {g.name for g in self.MODS}
        if "mode" in names and self.mod("mode") == "wide":
            return 64
        if "src" in names:
            return 64 if (self.mod("src") or "").endswith("64") else 32
        if self.results and isinstance(self.results[0].type, OriRegisterType):
            return 64 if self.results[0].type.BITS == 64 else 32
        return 32

    def commutations(self) -> tuple[tuple[tuple[str, str], str | None], ...]:
        """The operand swaps that keep this op's results: ``((x, y), mods)``
        with ``mods`` the modifier text the swapped form needs (None: the
        same).  Default: every ``COMMUTATIVE`` pair, modifiers unchanged."""
        return tuple((pair, None) for pair in self.COMMUTATIVE)

    def commuted_immediates(self, x: str, y: str) -> dict[str, int]:
        """The immediate sources that take another value when sources ``x``
        and ``y`` (a pair of ``commutations()``) swap: a LOP3's truth table.
        Default: none."""
        return {}

    def commuted_smods(self, x: str, y: str, smods: dict[str, str]) -> dict[str, str]:
        """The source modifiers after sources ``x`` and ``y`` swapped,
        given ``smods`` with the two slots' own modifiers already exchanged:
        a SEL's predicate is negated.  Default: ``smods`` unchanged."""
        return smods

    def constant_value(self, index: int = 0) -> int | bool | None:
        """The compile-time value of result ``index`` (an unsigned bit pattern
        of the result's width, or a bool for a predicate) when this op
        produces a constant; None otherwise (the default)."""
        return None

    def constant_operand(self) -> tuple[Attribute, int] | None:
        """The constant this op defines in the form a source slot can take
        (an ``IntegerAttr`` or a ``c[bank][offset]``) and its width in bits;
        None when it defines none (the default)."""
        return None

    def is_read_only_load(self) -> bool:
        """A load from memory no thread writes while the kernel runs: the
        constant bank (LDC) and ``ld.global.nc`` (LDG with the ``constant``
        cache modifier the PTX importer gives ``.nc``), without an ordering
        semantic.  Executed again with the same address where the original
        already ran, it reads the same value and cannot fault: ``ori-remat``'s
        load rematerialization (seed 002 ``remat-load``) may clone it next to a
        use it dominates.  Default False."""
        return False

    def is_register_copy(self) -> bool:
        """A plain move of one register into another (``MOV %a``): what seed
        002's ``remat-move`` switches.  Default False."""
        return False

    def reads_only_uniform_inputs(self) -> bool:
        """A ``UNIFORM_SOURCE`` op whose result is the same in every thread
        of a CTA (ops refine this by their operands/modifiers)."""
        return self.UNIFORM_SOURCE and self.operand_groups()[1] is None

    def has_uniform_form(self) -> bool:
        """This instance, with its modifiers, has a uniform-datapath form
        (``UNIFORM_SASS``); ops refine it where some modifiers have none
        (``IMAD.HI``)."""
        return self.UNIFORM_SASS is not None

    def uniform_substitute(self) -> UniformSubstitute | None:
        """Equivalent ops (same sources, not inserted) that have a
        uniform-datapath form, for an op whose own SASS has none: SASS's
        uniform datapath has no ``USHL``/``USHR``, so a warp-uniform ``SHL``
        moves there as ``USHF.L.U32``.  None (the default): no substitute.
        The new ops use the sources: the caller inserts them or erases them."""
        return None

    def is_uniform_form(self) -> bool:
        """The op is its uniform-datapath form: it has results and all of
        them are uniform registers (UR/UP)."""
        res = self.results
        return bool(res) and all(
            isinstance(r.type, OriRegisterType) and r.type.REG_FILE.is_uniform for r in res)

    def is_ordered(self) -> bool:
        """A memory access whose ``sem`` modifier is not the default ``weak``
        (relaxed/acquire/release/strong): it orders other threads' accesses,
        so it stays even when its value is unused."""
        if not any(g.name == "sem" for g in self.MODS):
            return False
        sem = self.mod("sem")
        return sem is not None and sem != "weak"

    def is_plain(self) -> bool:
        """Unguarded and without source modifiers: the form the constant and
        fold facts are stated for."""
        return self.operand_groups()[1] is None and not self.smod_map()

    # ------------------------------------------------------------------
    # modifiers
    # ------------------------------------------------------------------
    @classmethod
    def canonical_mods(cls, text: str) -> str:
        """Assign each dot-separated token to a group (first free group that
        accepts it, so ``f32.f64`` reads dst-then-src), check required groups,
        drop defaults, and return the tokens in group order."""
        chosen = _assign_mods(cls, [t for t in text.split(".") if t])
        for g in cls.MODS:
            if g.required and g.name not in chosen and g.default is None:
                raise VerifyException(
                    f"{cls.name}: missing required modifier ({'|'.join(g.values)})"
                )
        return ".".join(
            chosen[g.name] for g in cls.MODS if g.name in chosen and chosen[g.name] != g.default
        )

    # ------------------------------------------------------------------
    # verification
    # ------------------------------------------------------------------
    def verify_(self) -> None:
        cls = type(self)
        name = cls.name
        canon = cls.canonical_mods(self.mods.data if self.mods is not None else "")
        if self.mods is not None and canon != self.mods.data:
            raise VerifyException(
                f"{name}: modifiers '{self.mods.data}' are not in canonical form '{canon}'"
            )
        # results
        results = self.results
        required = [d for d in self.DSTS if not d.optional]
        if not len(required) <= len(results) <= len(self.DSTS):
            raise VerifyException(
                f"{name} expects {len(required)}"
                + (f" to {len(self.DSTS)}" if len(self.DSTS) != len(required) else "")
                + f" results, got {len(results)}"
            )
        uniform = self.UNIFORM_SASS is not None and self.is_uniform_form()
        if self.UNIFORM_SASS is not None:
            self._verify_uniform_results(uniform)
        for d, r in zip(self.DSTS, results):
            if not isinstance(r.type, d.types):
                raise VerifyException(
                    f"{name}: result '{d.name}' must be "
                    f"{' or '.join(t.name for t in d.types)}, got {r.type}"
                )
        # sources
        consts = self.const_map()
        srcs, guard, prior = self.operand_groups()
        n_present = len(srcs) + len(consts)
        n_required = sum(1 for s in self.SRCS if not s.optional)
        if not n_required <= n_present <= len(self.SRCS):
            raise VerifyException(
                f"{name} expects {n_required}"
                + (f" to {len(self.SRCS)}" if len(self.SRCS) != n_required else "")
                + f" source operands, got {n_present}"
            )
        present = {s.name for s in self.SRCS[:n_present]}
        for k in consts:
            if k not in present:
                raise VerifyException(f"{name}: constant for unknown or absent slot '{k}'")
        values = self.slot_values()
        for slot, v in values:
            if uniform:
                _verify_uniform_slot(self, slot, v)
            else:
                _verify_slot(self, slot, v)
        # On the uniform datapath URs are the register operands: only
        # immediates take the constant port there.
        ports = port_operands([(s, v) for s, v in values if not isinstance(v, SSAValue)]
                              if uniform else values)
        if len(ports) > cls.CONSTANT_PORTS:
            raise VerifyException(
                f"{name}: {len(ports)} constant sources ({', '.join(ports)}) but SASS encodes "
                f"{cls.CONSTANT_PORTS} immediate, c[bank][offset] or uniform register among an "
                "instruction's register sources (docs/architecture.md \"the one-port rule\")")
        for k, m in self.smod_map().items():
            slot = next((s for s in self.SRCS if s.name == k), None)
            if slot is None or k not in present:
                raise VerifyException(f"{name}: source modifier for unknown slot '{k}'")
            parts = m.split(".")
            if any(p not in slot.smods for p in parts) or not parts:
                raise VerifyException(
                    f"{name}: slot '{k}' does not take source modifier '{m}'"
                    + (f" (allowed: {', '.join(sorted(slot.smods))})" if slot.smods else "")
                )
        # guard and tied prior values
        if guard is None:
            if "guard_neg" in self.properties:
                raise VerifyException(f"{name}: guard negation without a guard predicate")
            if prior:
                raise VerifyException(f"{name}: tied prior values given without a guard")
        else:
            if len(prior) != len(self.results):
                raise VerifyException(
                    f"{name}: a guarded instruction needs one tied prior value per result "
                    f"({len(self.results)}), got {len(prior)}"
                )
            for r, p in zip(self.results, prior):
                if type(r.type) is not type(p.type):
                    raise VerifyException(
                        f"{name}: tied prior value has type {p.type}, but the result it "
                        f"stands for has type {r.type}"
                    )
        self.verify_semantics()

    def _verify_uniform_results(self, uniform: bool) -> None:
        """Results all in the uniform files or none; the uniform form only
        where this instance has one, guarded by a UP predicate."""
        name = type(self).name
        files = [r.type.REG_FILE.is_uniform for r in self.results
                 if isinstance(r.type, OriRegisterType)]
        if not uniform and any(files):
            raise VerifyException(
                f"{name}: results mix uniform and non-uniform registers")
        if not uniform:
            return
        if not self.has_uniform_form():
            raise VerifyException(
                f"{name}: this form ({self.mods.data if self.mods else 'no modifiers'}) has no "
                "uniform-datapath variant; its results cannot be uniform registers")
        guard = self.operand_groups()[1]
        if guard is not None and not isinstance(guard.type, UPredType):
            raise VerifyException(
                f"{name}: a uniform-datapath op is guarded by a UP predicate, got {guard.type}")

    def verify_semantics(self) -> None:
        """Op-specific checks (widths that depend on modifiers, ...)."""

    # ------------------------------------------------------------------
    # the ori-asm listing (asm_printer.py)
    # ------------------------------------------------------------------
    def sass_form(self, operand: OperandText) -> SassForm | None:
        """The mnemonic and operands the ``ori-asm`` listing prints for this
        op, for an op class whose SASS spelling the generic rule gets wrong;
        None (the default) keeps the generic rule: ``SASS`` plus the
        upper-cased modifiers, then the destinations, then the sources in slot
        order.  ``operand`` is the listing's spelling of one operand (a value
        or a constant, with the slot's source modifier), so an override places
        and decorates operands but never names registers itself.  The listing
        still adds the guard, the tied prior values' comment and the
        instruction count; it does not add the op's source modifiers or the
        modifiers the generic rule prints, which the form must spell itself
        (HGMMA's ``gdesc[UR4].tnspB``, TLD's trailing ``1D``)."""
        return None

    # ------------------------------------------------------------------
    # custom syntax (ir/syntax.py)
    # ------------------------------------------------------------------
    def print(self, printer: Printer) -> None:
        print_instruction(self, printer)

    @classmethod
    def parse(cls, parser: Parser) -> OriInstruction:
        return cls._create(*parse_instruction(cls, parser))


OperandText = Callable[[SSAValue | Attribute, str | None], str]
"""How the ``ori-asm`` listing spells one operand: a value (its register
name) or a constant (``0x10``, ``RZ``, ``c[0x0][0x160]``), with a source
modifier text (``neg``, ``abs``, ``not``, dot-joined) or None."""


@dataclass(frozen=True)
class UniformSubstitute:
    """What ``OriInstruction.uniform_substitute`` gives: ``ops`` in program
    order (each reading the sources or an earlier one's results) and the
    values that stand for the replaced op's results, one each."""

    ops: tuple[OriInstruction, ...]
    results: tuple[SSAValue, ...]

    def erase(self) -> None:
        """Drop the unused ops (a detached op still counts as a use of its
        operands)."""
        for op in reversed(self.ops):
            op.erase()


@dataclass(frozen=True)
class SassForm:
    """One instruction line of the ``ori-asm`` listing as an op class spells
    it (:meth:`OriInstruction.sass_form`): the full mnemonic, the operands in
    SASS order, and a note for the line's comment (what the listing shows
    that ptxas would print otherwise; empty for none)."""

    mnemonic: str
    operands: tuple[str, ...]
    note: str = ""
    also: tuple[SassForm, ...] = ()
    """Further lines the op is written with, in order (a 128-bit zero is two
    ``CS2R``); each carries the op's guard."""


def register_above(v: SSAValue, k: int, operand: OperandText) -> str:
    """The listing's name of the register ``k`` above the base of the
    multi-register value ``v``: ``R10`` for ``k`` = 2 of a quad in R8:R11;
    before allocation ``v``'s name and ``+k`` (``%r5+2``)."""
    t = v.type
    if isinstance(t, OriRegisterType) and t.phys_index is not None and not t.is_fixed:
        return f"{t.REG_FILE.value}{t.phys_index + k}"
    return f"{operand(v, None)}+{k}"


def registers_follow(first: SSAValue | Attribute, then: SSAValue | Attribute, k: int) -> bool:
    """``then`` is allocated ``k`` registers above ``first`` in the same file
    (a pair or run SASS names by its first register, as ptxas allocates it)."""
    if not isinstance(first, SSAValue) or not isinstance(then, SSAValue):
        return False
    a, b = first.type, then.type
    if not isinstance(a, OriRegisterType) or not isinstance(b, OriRegisterType):
        return False
    i, j = a.phys_index, b.phys_index
    return (i is not None and j is not None and a.REG_FILE == b.REG_FILE
            and not a.is_fixed and not b.is_fixed and j == i + k)


# ----------------------------------------------------------------------
# helpers
# ----------------------------------------------------------------------
def _assign_mods(cls: type[OriInstruction], tokens: Sequence[str]) -> dict[str, str]:
    """Give each token the first group that accepts it and is still free, so a
    conversion's ``f32.f64`` reads destination-then-source."""
    chosen: dict[str, str] = {}
    for tok in tokens:
        for g in cls.MODS:
            if tok in g.values and g.name not in chosen:
                chosen[g.name] = tok
                break
        else:
            allowed = sorted({v for g in cls.MODS for v in g.values})
            if any(tok in g.values for g in cls.MODS):
                raise VerifyException(f"{cls.name}: modifier '{tok}' given twice")
            raise VerifyException(
                f"{cls.name}: unknown modifier '{tok}'"
                + (f"; expected one of {', '.join(allowed)}" if allowed else " (takes none)")
            )
    return chosen


def _group(cls: type[OriInstruction], name: str) -> ModGroup:
    for g in cls.MODS:
        if g.name == name:
            return g
    raise KeyError(f"{cls.name} has no modifier group '{name}'")


# make(): the consts DictionaryAttr keyed by ((slot name, int value) or
# (slot name, "id", id(attribute)), ...), with the attributes it was built
# from (they keep the ids in the key from being reused).
_CONSTS: dict[tuple[tuple[Any, ...], ...], tuple[DictionaryAttr, tuple[tuple[str, Any], ...]]] = {}


_UNIT = UnitAttr()


@functools.lru_cache(maxsize=4096)
def _make_mods_attr(cls: type[OriInstruction], text: str) -> StringAttr:
    # As ``make`` always did: a StringAttr even when the canonical text is
    # empty (the parser's _mods_attr omits it).  A bad modifier raises, and
    # lru_cache does not cache exceptions.
    return StringAttr(cls.canonical_mods(text))


@functools.lru_cache(maxsize=8192)
def _dict_attr(items: tuple[tuple[str, Attribute], ...]) -> DictionaryAttr:
    # The values are attributes, hashed and compared by value; FloatAttr
    # tells 0.0 from -0.0 and equals itself for NaN, so equal keys always
    # mean identical immediates.
    return DictionaryAttr(dict(items))


@functools.lru_cache(maxsize=1024)
def _smods_attr(items: tuple[tuple[str, str], ...]) -> DictionaryAttr:
    return DictionaryAttr({k: StringAttr(v) for k, v in items})


_DEFAULT_RESULTS: dict[type, list[Attribute]] = {}


def _default_result_types(cls: type[OriInstruction]) -> list[Attribute]:
    """The unallocated type of each required result (shared instances)."""
    types = _DEFAULT_RESULTS.get(cls)
    if types is None:
        types = [d.types[0].unallocated() for d in cls.DSTS if not d.optional]
        _DEFAULT_RESULTS[cls] = types
    return list(types)


def port_operands(values: Sequence[tuple[Src, SSAValue | Attribute]]) -> list[str]:
    """The slots of ``values`` that use the constant port: an immediate, a
    constant-bank word or a uniform register in a slot that also takes a
    register.  Immediate-only slots (LUTs, shift amounts, address offsets)
    have their own encoding field and do not count; RZ/PT are registers."""
    return [slot.name for slot, v in values if slot.types and uses_constant_port(v)]


def uses_constant_port(v: object) -> bool:
    """``v`` is an immediate (an attribute, or a Python number given to
    ``make``), a constant-bank word or a uniform register: what travels
    through an instruction's one constant port."""
    if isinstance(v, SSAValue):
        t = v.type
        return isinstance(t, OriRegisterType) and t.REG_FILE is RegFile.UR
    return isinstance(v, IntegerAttr | FloatAttr | CBankAttr | int | float)


def _verify_uniform_slot(op: OriInstruction, slot: Src, v: SSAValue | Attribute) -> None:
    """A source of an op's uniform-datapath form: a uniform register, URZ,
    UPT or an immediate; a constant-bank word only as ULDC's own address
    (any other goes through a ULDC first)."""
    name = type(op).name
    if isinstance(v, SSAValue):
        if not isinstance(v.type, slot.uniform_types):
            kinds = ", ".join(t.name for t in slot.uniform_types) or "no register"
            raise VerifyException(
                f"{name}: operand '{slot.name}' of a uniform-datapath op must be {kinds}; "
                f"got {v.type}")
        return
    if isinstance(v, OriRegisterType):
        if op.SPACE is MemSpace.CONST and slot.address and v == R32Type.fixed():
            return  # ULDC c[bank][offset]: the RZ index of the address
        if not (slot.fixed and v.is_fixed and isinstance(v, slot.uniform_types)):
            raise VerifyException(
                f"{name}: operand '{slot.name}' of a uniform-datapath op cannot be the "
                f"register {v} (URZ or UPT)")
        return
    if isinstance(v, CBankAttr):
        raise VerifyException(
            f"{name}: a uniform-datapath op takes no constant-bank operand "
            f"('{slot.name}'); load it with ULDC")
    _verify_slot(op, slot, v)


def _verify_slot(op: OriInstruction, slot: Src, v: SSAValue | Attribute) -> None:
    name = type(op).name
    if isinstance(v, SSAValue):
        if not isinstance(v.type, slot.all_types):
            raise VerifyException(
                f"{name}: operand '{slot.name}' must be {slot.describe()}; got {v.type}"
            )
        return
    if isinstance(v, OriRegisterType):
        if is_stack_pointer(v):
            if slot.address and op.SPACE is MemSpace.LOCAL:
                return  # [R1 + offset]: a frame slot of the activation (ops/frame.py)
            raise VerifyException(
                f"{name}: operand '{slot.name}' cannot be R1 (only a local access's "
                "address takes the stack pointer)")
        if not slot.fixed or not v.is_fixed or not isinstance(v, slot.all_types):
            raise VerifyException(
                f"{name}: operand '{slot.name}' cannot be the fixed register {v}"
            )
        return
    if isinstance(v, CBankAttr):
        if not slot.cbank:
            raise VerifyException(
                f"{name}: operand '{slot.name}' takes no constant-bank operand"
            )
        return
    if isinstance(v, IntegerAttr):
        if slot.imm != "int":
            raise VerifyException(
                f"{name}: operand '{slot.name}' takes no integer immediate"
                + (f" (it takes an {slot.imm} immediate)" if slot.imm else "")
            )
        return
    if isinstance(v, FloatAttr):
        want = {"f32": Float32Type, "f64": Float64Type}.get(slot.imm or "")
        if want is None or not isinstance(v.type, want):
            raise VerifyException(
                f"{name}: operand '{slot.name}' takes no {v.type} immediate"
            )
        return
    raise VerifyException(f"{name}: operand '{slot.name}' cannot be {v}")


# The slot specs are re-exported: an op class module imports its whole
# vocabulary (base class and specs) from here.
__all__ = [
    "Dst",
    "ModGroup",
    "OperandText",
    "OriInstruction",
    "OriOp",
    "SassForm",
    "Src",
    "UniformSubstitute",
    "annotate_class_constants",
    "create_op",
    "flag",
    "register_above",
    "registers_follow",
]
