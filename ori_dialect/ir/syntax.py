"""The one-line custom syntax of Ori instructions: printing and parsing.

::

    %d = ori.iadd3 %a, 0x10, RZ : (!ori.r32) -> !ori.r32
    %v = ori.ldg b64 [%addr + 0x8] : (!ori.r64) -> !ori.r64
    %x = ori.fadd -%a, |%b| if not %q else %x0 : (!ori.r32, !ori.r32, !ori.p, !ori.r32) -> !ori.r32

Opcode modifiers come first, then the source slots in ``SRCS`` order (an
address slot with the immediate slot after it as ``[%base + 0x10]``), the
guard and the prior values, the attribute dictionary and the function type of
the SSA operands and results.  The printed form round-trips exactly.
``OriInstruction.print``/``parse`` delegate here; the parser returns the
parts and the instruction class builds the op.
"""

from __future__ import annotations

import math
import struct
from typing import TYPE_CHECKING, NamedTuple

from xdsl.dialects.builtin import (
    DictionaryAttr,
    Float32Type,
    FloatAttr,
    IntegerAttr,
    StringAttr,
    UnitAttr,
)
from xdsl.ir import Attribute, SSAValue
from xdsl.parser import Parser, UnresolvedOperand
from xdsl.printer import Printer
from xdsl.utils.exceptions import VerifyException
from xdsl.utils.lexer import Span
from xdsl.utils.mlir_lexer import MLIRTokenKind

from ori_dialect.diagnostics import LocatedError
from ori_dialect.ir.attrs import CBankAttr
from ori_dialect.ir.registers import REGISTER_TYPES, OriRegisterType, RegFile, stack_pointer
from ori_dialect.ir.slots import Src, int_attr, make_imm

if TYPE_CHECKING:
    from ori_dialect.ir.instruction import OriInstruction

_REGISTER_CLASSES: dict[str, type[OriRegisterType]] = {t.name: t for t in REGISTER_TYPES}

_FIXED_WORDS = {"RZ": RegFile.R, "URZ": RegFile.UR, "PT": RegFile.P, "UPT": RegFile.UP}
_OPERAND_WORDS = frozenset({*_FIXED_WORDS, "R1", "c", "inf", "not"})


class InstructionParts(NamedTuple):
    """What :func:`parse_instruction` read: the resolved SSA operands by group
    and the properties and attributes to build the op with."""

    srcs: list[SSAValue]
    guard: list[SSAValue]
    prior: list[SSAValue]
    result_types: list[Attribute]
    properties: dict[str, Attribute]
    attributes: dict[str, Attribute]


def print_instruction(self: OriInstruction, printer: Printer) -> None:
    """Print ``self`` after its name in the one-line form (module docstring)."""
    if self.mods is not None and self.mods.data:
        printer.print_string(" " + self.mods.data)
    smods = self.smod_map()
    vals = self.slot_values()
    first = True
    i = 0
    while i < len(vals):
        slot, v = vals[i]
        printer.print_string(" " if first else ", ")
        first = False
        if slot.address:
            off_v = vals[i + 1][1] if i + 1 < len(vals) else None
            printer.print_string("[")
            _print_src(printer, v, smods.get(slot.name))
            scale = _INDEX_SCALE_TEXT.get(smods.get(slot.name, ""))
            if scale:
                printer.print_string(f" * {scale}")
            if isinstance(off_v, IntegerAttr):
                o = off_v.value.data
                if o:
                    printer.print_string(f" + {hex(o)}" if o > 0 else f" - {hex(-o)}")
            printer.print_string("]")
            i += 2
            continue
        _print_src(printer, v, smods.get(slot.name))
        i += 1
    _, guard, prior = self.operand_groups()
    if guard is not None:
        printer.print_string(" if not " if "guard_neg" in self.properties else " if ")
        printer.print_operand(guard)
        if prior:
            printer.print_string(" else ")
            printer.print_list(prior, printer.print_operand)
    attrs = dict(self.attributes)
    if attrs:
        printer.print_string(" ")
        printer.print_attr_dict(attrs)
    printer.print_string(" : ")
    printer.print_function_type(
        [o.type for o in self.operands], [r.type for r in self.results]
    )

def parse_instruction(cls: type[OriInstruction], parser: Parser) -> InstructionParts:
    """Parse the one-line form of a ``cls`` op after its name, up to the
    construction: the caller builds the op from the parts."""
    props: dict[str, Attribute] = {}
    tok = parser._current_token  # pyright: ignore[reportPrivateUsage]
    # `if` is the guard of an op with default modifiers and no sources (a guarded
    # `ori.membar if %p`), never a modifier
    if tok.kind == MLIRTokenKind.BARE_IDENT and tok.text not in _OPERAND_WORDS \
            and tok.text != "if":
        pos = parser.pos
        text = tok.text
        parser._consume_token()  # pyright: ignore[reportPrivateUsage]
        try:
            mods_attr = _mods_attr(cls, text)
        except VerifyException as e:
            parser.raise_error(str(e), pos, parser.pos)
        if mods_attr is not None:
            props["mods"] = mods_attr
    regs: list[UnresolvedOperand] = []
    consts: dict[str, Attribute] = {}
    smods: dict[str, Attribute] = {}
    slots = cls.SRCS
    i = 0
    while i < len(slots):
        slot = slots[i]
        if i > 0 and parser.parse_optional_punctuation(",") is None:
            if not slot.optional:
                parser.raise_error(
                    f"{cls.name} expects operand '{slot.name}' ({slot.describe()})"
                )
            break
        if i == 0 and slot.optional and _at_operand_end(parser):
            break
        if slot.address:
            parser.parse_punctuation("[", f" to open the address of {cls.name}")
            _parse_src(parser, cls, slot, regs, consts, smods)
            star = parser.pos
            if parser.parse_optional_punctuation("*") is not None:
                k = parser.parse_integer(allow_boolean=False, allow_negative=False)
                token = f"x{k}"
                if token not in slot.smods:
                    allowed = ", ".join(str(n) for n in sorted(int(t[1:]) for t in slot.smods)) or "none"
                    parser.raise_error(
                        f"{cls.name}: the address index cannot be scaled by {k} "
                        f"(scales: {allowed})", star, parser.pos)
                smods[slot.name] = StringAttr(token)
            off = 0
            if parser.parse_optional_punctuation("+") is not None:
                off = parser.parse_integer(allow_boolean=False, allow_negative=False)
            elif parser.parse_optional_punctuation("-") is not None:
                off = -parser.parse_integer(allow_boolean=False, allow_negative=False)
            parser.parse_punctuation("]", " to close the address")
            if i + 1 < len(slots):
                consts[slots[i + 1].name] = int_attr(off)
            i += 2
            continue
        _parse_src(parser, cls, slot, regs, consts, smods)
        i += 1
    guard: UnresolvedOperand | None = None
    prior: list[UnresolvedOperand] = []
    if parser.parse_optional_keyword("if") is not None:
        if parser.parse_optional_keyword("not") is not None:
            props["guard_neg"] = UnitAttr()
        guard = parser.parse_unresolved_operand("guard predicate expected after 'if'")
        if parser.parse_optional_keyword("else") is not None:
            prior = parser.parse_comma_separated_list(
                parser.Delimiter.NONE, parser.parse_unresolved_operand
            )
    attrs = parser.parse_optional_attr_dict()
    parser.parse_punctuation(":")
    pos = parser.pos
    in_types, out_types = _parse_function_type(parser)
    unresolved = [*regs, *([guard] if guard else []), *prior]
    if len(in_types) != len(unresolved):
        parser.raise_error(
            f"{cls.name}: {len(unresolved)} SSA operands but "
            f"{len(in_types)} operand types",
            pos,
            parser.pos,
        )
    operands = parser.resolve_operands(unresolved, in_types, pos)
    nr = len(regs)
    ng = 1 if guard else 0
    if consts:
        props["consts"] = DictionaryAttr(consts)
    if smods:
        props["smods"] = DictionaryAttr(smods)
    return InstructionParts(
        list(operands[:nr]),
        list(operands[nr : nr + ng]),
        list(operands[nr + ng :]),
        out_types,
        props,
        attrs,
    )


def _fmt_int(v: int) -> str:
    return hex(v) if v >= 0 else "-" + hex(-v)


def _fmt_float(v: float, bits: int) -> str:
    # NaN has no literal form; it prints as its canonical quiet-NaN bit pattern,
    # which the parser reads back as raw bits (as SASS listings show it).
    if math.isnan(v):
        return "0x7fc00000" if bits == 32 else "0x7ff8000000000000"
    if math.isinf(v):
        return "inf" if v > 0 else "-inf"
    return repr(v)


_MODS_CACHE: dict[tuple[type, str], StringAttr | None] = {}


def _mods_attr(cls: type[OriInstruction], text: str) -> StringAttr | None:
    key = (cls, text)
    if key not in _MODS_CACHE:
        canon = cls.canonical_mods(text)
        _MODS_CACHE[key] = StringAttr(canon) if canon else None
    return _MODS_CACHE[key]


_TYPE_CACHE: dict[tuple[str, str], Attribute] = {}


def _parse_type_fast(parser: Parser) -> Attribute:
    """Parse one type; ori register types (the only ones instructions take)
    are recognised from their tokens and shared, others go to xDSL."""
    tok = parser._current_token  # pyright: ignore[reportPrivateUsage]
    if tok.kind == MLIRTokenKind.EXCLAMATION_IDENT:
        cls = _REGISTER_CLASSES.get(tok.text[1:])
        if cls is not None:
            start = tok.span.start
            parser._consume_token()  # pyright: ignore[reportPrivateUsage]
            reg = ""
            if parser.parse_optional_punctuation("<") is not None:
                name = parser.parse_optional_identifier()
                if name is None:
                    parser.raise_error("register name expected")
                end = parser._current_token.span.end  # pyright: ignore[reportPrivateUsage]
                parser.parse_punctuation(">")
                reg = name
                key = (cls.name, reg)
                if key not in _TYPE_CACHE:
                    try:
                        _TYPE_CACHE[key] = cls.from_name(reg)  # verifies on construction
                    except VerifyException as e:
                        span = Span(start, end, parser.lexer.input)
                        raise LocatedError(span, str(e)) from None  # pyright: ignore[reportCallIssue]
                return _TYPE_CACHE[key]
            key = (cls.name, reg)
            if key not in _TYPE_CACHE:
                _TYPE_CACHE[key] = cls.unallocated()
            return _TYPE_CACHE[key]
    return parser.parse_type()


def _parse_function_type(parser: Parser) -> tuple[list[Attribute], list[Attribute]]:
    ins = parser.parse_comma_separated_list(parser.Delimiter.PAREN, lambda: _parse_type_fast(parser))
    parser.parse_punctuation("->")
    outs = parser.parse_optional_comma_separated_list(
        parser.Delimiter.PAREN, lambda: _parse_type_fast(parser)
    )
    if outs is None:
        outs = [_parse_type_fast(parser)]
    return ins, outs


_INDEX_SCALE_TEXT = {"x4": "4", "x8": "8", "x16": "16"}
"""A scaled address base's modifier and the factor printed after it."""


def _print_src(printer: Printer, v: SSAValue | Attribute, smod: str | None) -> None:
    parts = smod.split(".") if smod else []
    if "not" in parts:
        printer.print_string("not ")
    if "neg" in parts:
        printer.print_string("-")
    if "abs" in parts:
        printer.print_string("|")
    if isinstance(v, SSAValue):
        printer.print_operand(v)
    elif isinstance(v, OriRegisterType):
        printer.print_string(v.register_name.data)
    elif isinstance(v, CBankAttr):
        printer.print_string(v.asm())
    elif isinstance(v, IntegerAttr):
        printer.print_string(_fmt_int(v.value.data))
    elif isinstance(v, FloatAttr):
        printer.print_string(_fmt_float(v.value.data, 32 if isinstance(v.type, Float32Type) else 64))
    else:
        printer.print_attribute(v)
    if "abs" in parts:
        printer.print_string("|")


def _at_operand_end(parser: Parser) -> bool:
    tok = parser._current_token  # pyright: ignore[reportPrivateUsage]
    return tok.kind in (MLIRTokenKind.COLON, MLIRTokenKind.L_BRACE) or (
        tok.kind == MLIRTokenKind.BARE_IDENT and tok.text == "if"
    )


def _parse_src(
    parser: Parser,
    cls: type[OriInstruction],
    slot: Src,
    regs: list[UnresolvedOperand],
    consts: dict[str, Attribute],
    smods: dict[str, Attribute],
) -> None:
    mods: list[str] = []
    if parser.parse_optional_keyword("not") is not None:
        mods.append("not")
    neg_pos = parser.pos
    negative = parser.parse_optional_punctuation("-") is not None
    absolute = parser.parse_optional_punctuation("|") is not None
    tok = parser._current_token  # pyright: ignore[reportPrivateUsage]
    start = parser.pos
    if tok.kind == MLIRTokenKind.PERCENT_IDENT:
        regs.append(parser.parse_unresolved_operand())
        if negative:
            mods.append("neg")
    elif tok.kind == MLIRTokenKind.BARE_IDENT and tok.text in _FIXED_WORDS:
        parser._consume_token()  # pyright: ignore[reportPrivateUsage]
        file = _FIXED_WORDS[tok.text]
        # URZ/UPT also in the slots of an op's uniform form (the verifier
        # checks the form once the result types are known)
        kinds = slot.all_types + (slot.uniform_types if cls.UNIFORM_SASS else ())
        t = next((t for t in kinds if t.REG_FILE is file), None)
        if t is None or not slot.fixed:
            parser.raise_error(
                f"{cls.name}: operand '{slot.name}' cannot be {tok.text}", start, parser.pos
            )
        consts[slot.name] = t.fixed()
        if negative:
            mods.append("neg")
    elif tok.kind == MLIRTokenKind.BARE_IDENT and tok.text == "R1":
        # the stack pointer as a local access's base (ops/frame.py)
        # (the verifier says where it may stand)
        parser._consume_token()  # pyright: ignore[reportPrivateUsage]
        consts[slot.name] = stack_pointer()
    elif tok.kind == MLIRTokenKind.BARE_IDENT and tok.text == "c":
        parser._consume_token()  # pyright: ignore[reportPrivateUsage]
        parser.parse_punctuation("[")
        bank = parser.parse_integer(allow_boolean=False, allow_negative=False)
        parser.parse_punctuation("]")
        parser.parse_punctuation("[")
        off = parser.parse_integer(allow_boolean=False, allow_negative=False)
        parser.parse_punctuation("]")
        if not slot.cbank:
            parser.raise_error(
                f"{cls.name}: operand '{slot.name}' takes no constant-bank operand",
                start,
                parser.pos,
            )
        consts[slot.name] = CBankAttr(bank, off)
        if negative:
            mods.append("neg")
    else:
        if absolute:
            parser.raise_error("'|' must enclose a register or constant-bank operand")
        if tok.kind == MLIRTokenKind.BARE_IDENT and tok.text == "inf":
            parser._consume_token()  # pyright: ignore[reportPrivateUsage]
            value: int | float = math.inf
        elif (
            slot.imm in ("f32", "f64")
            and tok.kind == MLIRTokenKind.INTEGER_LIT
            and tok.text.lower().startswith("0x")
        ):
            # A hex literal in a float slot is the raw IEEE bit pattern.
            parser._consume_token()  # pyright: ignore[reportPrivateUsage]
            raw = int(tok.text, 16)
            fmt, ifmt = ("<f", "<I") if slot.imm == "f32" else ("<d", "<Q")
            try:
                value = struct.unpack(fmt, struct.pack(ifmt, raw))[0]
            except struct.error:
                parser.raise_error(f"{tok.text} does not fit a {slot.imm}", start, parser.pos)
        else:
            num = parser.parse_optional_number()
            if num is None:
                parser.raise_error(
                    f"{cls.name}: expected operand '{slot.name}' ({slot.describe()})"
                )
            value = num
        if negative:
            value = -value
        if slot.imm is None:
            parser.raise_error(
                f"{cls.name}: operand '{slot.name}' takes no immediate", neg_pos, parser.pos
            )
        if slot.imm == "int" and isinstance(value, float):
            parser.raise_error(
                f"{cls.name}: operand '{slot.name}' takes an integer immediate",
                neg_pos,
                parser.pos,
            )
        consts[slot.name] = make_imm(cls.name, slot, value)
        negative = False
    if absolute:
        parser.parse_punctuation("|", " to close the absolute value")
        mods.append("abs")
    order = ("not", "neg", "abs")
    if mods:
        smods[slot.name] = StringAttr(".".join(m for m in order if m in mods))


__all__ = ["InstructionParts", "parse_instruction", "print_instruction"]
