"""``#ori.abi<...>``: the calling-convention specification of one function
(seed 003, "Per-Callee ABI Specification" and "Parameter/Return Descriptor
Entry").

The attribute is the ``abi`` property of ``ori.func`` (and of
``ori.call_indirect``, whose prototype it describes).  Written by hand it is
a *request* that overrides the target's defaults field by field; ``ori-abi``
replaces it with the *resolved* specification, in which every parameter and
return descriptor carries its register (or stack offset), plus the preserved
registers the function saves and the bytes of its stack frame it needs for
them.  Every field is optional and printed only when set::

    #ori.abi<ret = regular R20, first_param = R4, available = 12,
             reserved = R0-R3, preserved = [R16-R31], scratch = [R0, R2-R15],
             params = [1x4 align 4 @R4, 16x4 align 4 @stack+0x0],
             returns = [1x8 align 8 @R4], saved = [R16-R17]>

Fields (the seed's offsets in the specification in brackets):

* ``ret = fixed | regular Rn | uniform URn | computed`` -- return-address
  mode (+28: 1, 2, 3, 5) and explicit register (+24, unassigned when
  absent); ``ret_before_params`` (+40);
* ``first_param = Rn`` (+32) and ``available = N`` (+36): where parameter
  registers start and how many there are;
* ``reserved = Ra-Rb`` (the target query at +896 of "Target Descriptor
  Fields": a reserved range) and ``reserve = N`` (registers requested for
  the reservation, warning 7017);
* ``preserved``/``scratch`` (+44..+88): register sets per file
  (``[R16-R31, P0-P3]``); ``suspend_scratch`` and ``coroutine`` describe a
  coroutine's SUSPEND points (warning 7011);
* ``params``/``returns``: descriptors ``COUNTxSIZE align A`` (+0, +4, +8 of
  the 32-byte entry), after allocation ``@Rn`` (+12 = 1, +16) or
  ``@stack+0xOFF`` (+12 = 0: passed in the caller's frame);
* ``saved = [...]`` (resolved only): preserved registers the function's
  prologue saves and its epilogue restores.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass

from xdsl.dialects.builtin import ArrayAttr, IntAttr
from xdsl.ir import ParametrizedAttribute
from xdsl.irdl import irdl_attr_definition
from xdsl.parser import AttrParser
from xdsl.printer import Printer
from xdsl.utils.exceptions import VerifyException

from ori_dialect.ir.registers import RegFile

RET_MODES: dict[str, int] = {"fixed": 1, "regular": 2, "uniform": 3, "computed": 5}
"""Seed 003 "Return Address Modes": the mode words and their ``v7`` values."""
_MODE_NAMES = {v: k for k, v in RET_MODES.items()}
_FILES = (RegFile.R, RegFile.UR, RegFile.P, RegFile.UP, RegFile.B)


@dataclass(frozen=True)
class Slot:
    """One parameter or return descriptor (seed 003's 32-byte entry)."""

    count: int
    size: int
    align: int
    reg: int = -1
    """First register (+16), -1 when not in registers."""
    stack: int = -1
    """Byte offset in the caller's outgoing area when passed on the stack."""

    @property
    def bytes(self) -> int:
        return self.count * self.size

    @property
    def num_regs(self) -> int:
        """``(total + 3) >> 2`` (seed 003)."""
        return (self.bytes + 3) >> 2

    def text(self) -> str:
        at = ""
        if self.reg >= 0:
            at = f" @R{self.reg}"
        elif self.stack >= 0:
            at = f" @stack+{hex(self.stack)}"
        return f"{self.count}x{self.size} align {self.align}{at}"


RegSet = dict[RegFile, frozenset[int]]


def regset_text(s: RegSet) -> str:
    """``[R0, R2-R15, P0]``: runs of consecutive registers per file."""
    parts: list[str] = []
    for f in _FILES:
        regs = sorted(s.get(f, ()))
        i = 0
        while i < len(regs):
            j = i
            while j + 1 < len(regs) and regs[j + 1] == regs[j] + 1:
                j += 1
            a, b = regs[i], regs[j]
            parts.append(f"{f.value}{a}" if a == b else f"{f.value}{a}-{f.value}{b}")
            i = j + 1
    return "[" + ", ".join(parts) + "]"


def _reg_name(parser: AttrParser) -> tuple[RegFile, int]:
    pos = parser.pos
    name = parser.parse_identifier()
    for f in sorted(_FILES, key=lambda f: -len(f.value)):
        rest = name[len(f.value):]
        if name.startswith(f.value) and rest.isdigit():
            return f, int(rest)
    parser.raise_error(f"expected a register such as R4, UR2 or P0, got {name!r}", pos, parser.pos)


def _parse_range(parser: AttrParser) -> tuple[RegFile, int, int]:
    f, a = _reg_name(parser)
    b = a
    if parser.parse_optional_punctuation("-") is not None:
        pos = parser.pos
        g, b = _reg_name(parser)
        if g is not f or b < a:
            parser.raise_error("a register range runs upwards within one file", pos, parser.pos)
    return f, a, b


def _parse_regset(parser: AttrParser) -> RegSet:
    out: dict[RegFile, set[int]] = {}

    def one() -> None:
        f, a, b = _parse_range(parser)
        out.setdefault(f, set()).update(range(a, b + 1))

    parser.parse_comma_separated_list(parser.Delimiter.SQUARE, one)
    return {f: frozenset(v) for f, v in out.items()}


def _encode_regset(s: RegSet | None) -> ArrayAttr[IntAttr]:
    if s is None:
        return ArrayAttr([])
    masks = []
    for f in _FILES:
        m = 0
        for r in s.get(f, ()):
            m |= 1 << r
        masks.append(IntAttr(m))
    return ArrayAttr(masks)


def _decode_regset(a: ArrayAttr[IntAttr]) -> RegSet | None:
    if not a.data:
        return None
    out: RegSet = {}
    for f, m in zip(_FILES, a.data):
        regs = frozenset(i for i in range(m.data.bit_length()) if m.data >> i & 1)
        if regs:
            out[f] = regs
    return out


def _encode_slots(slots: Sequence[Slot] | None) -> ArrayAttr[ArrayAttr[IntAttr]]:
    if slots is None:
        return ArrayAttr([ArrayAttr([IntAttr(-1)])])
    return ArrayAttr([ArrayAttr([IntAttr(x) for x in (s.count, s.size, s.align, s.reg, s.stack)])
                      for s in slots])


def _decode_slots(a: ArrayAttr[ArrayAttr[IntAttr]]) -> tuple[Slot, ...] | None:
    if len(a.data) == 1 and len(a.data[0].data) == 1:
        return None
    return tuple(Slot(*(x.data for x in e.data)) for e in a.data)


@dataclass(frozen=True)
class AbiFields:
    """The decoded fields of :class:`AbiAttr` (None: not given)."""

    ret_mode: int | None = None
    ret_reg: int | None = None
    ret_file: RegFile = RegFile.R
    ret_before_params: bool = False
    first_param: int | None = None
    available: int | None = None
    reserved: tuple[int, int] | None = None
    reserve: int | None = None
    preserved: RegSet | None = None
    scratch: RegSet | None = None
    suspend_scratch: RegSet | None = None
    coroutine: bool = False
    params: tuple[Slot, ...] | None = None
    returns: tuple[Slot, ...] | None = None
    saved: RegSet | None = None


@irdl_attr_definition
class AbiAttr(ParametrizedAttribute):
    """A function's calling-convention specification (module docstring)."""

    name = "ori.abi"

    scalars: ArrayAttr[IntAttr]
    """ret_mode, ret_reg, ret_file index, ret_before_params, first_param,
    available, reserved lo, reserved hi, reserve, coroutine (-1: unset)."""
    preserved: ArrayAttr[IntAttr]
    scratch: ArrayAttr[IntAttr]
    suspend_scratch: ArrayAttr[IntAttr]
    saved: ArrayAttr[IntAttr]
    params: ArrayAttr[ArrayAttr[IntAttr]]
    returns: ArrayAttr[ArrayAttr[IntAttr]]

    @staticmethod
    def make(f: AbiFields) -> AbiAttr:
        def o(v: int | None) -> int:
            return -1 if v is None else v

        lo, hi = f.reserved if f.reserved is not None else (-1, -1)
        sc = [o(f.ret_mode), o(f.ret_reg), _FILES.index(f.ret_file), int(f.ret_before_params),
              o(f.first_param), o(f.available), lo, hi, o(f.reserve), int(f.coroutine)]
        return AbiAttr(
            ArrayAttr([IntAttr(x) for x in sc]), _encode_regset(f.preserved),
            _encode_regset(f.scratch), _encode_regset(f.suspend_scratch),
            _encode_regset(f.saved), _encode_slots(f.params), _encode_slots(f.returns))

    def fields(self) -> AbiFields:
        s = [x.data for x in self.scalars.data]

        def n(v: int) -> int | None:
            return None if v < 0 else v

        return AbiFields(
            ret_mode=n(s[0]), ret_reg=n(s[1]), ret_file=_FILES[s[2]], ret_before_params=bool(s[3]),
            first_param=n(s[4]), available=n(s[5]),
            reserved=None if s[6] < 0 else (s[6], s[7]), reserve=n(s[8]), coroutine=bool(s[9]),
            preserved=_decode_regset(self.preserved), scratch=_decode_regset(self.scratch),
            suspend_scratch=_decode_regset(self.suspend_scratch),
            saved=_decode_regset(self.saved),
            params=_decode_slots(self.params), returns=_decode_slots(self.returns))

    # ------------------------------------------------------------------ text
    def print_parameters(self, printer: Printer) -> None:
        f = self.fields()
        items: list[str] = []
        if f.ret_mode is not None or f.ret_reg is not None:
            mode = _MODE_NAMES.get(f.ret_mode, "") if f.ret_mode is not None else ""
            reg = f" {f.ret_file.value}{f.ret_reg}" if f.ret_reg is not None else ""
            items.append(f"ret = {mode or 'register'}{reg}")
        if f.ret_before_params:
            items.append("ret_before_params")
        if f.first_param is not None:
            items.append(f"first_param = R{f.first_param}")
        if f.available is not None:
            items.append(f"available = {f.available}")
        if f.reserved is not None:
            a, b = f.reserved
            items.append(f"reserved = R{a}-R{b}")
        if f.reserve is not None:
            items.append(f"reserve = {f.reserve}")
        for key, rs in (("preserved", f.preserved), ("scratch", f.scratch),
                        ("suspend_scratch", f.suspend_scratch)):
            if rs is not None:
                items.append(f"{key} = {regset_text(rs)}")
        if f.coroutine:
            items.append("coroutine")
        for key, slots in (("params", f.params), ("returns", f.returns)):
            if slots is not None:
                items.append(f"{key} = [" + ", ".join(s.text() for s in slots) + "]")
        if f.saved is not None:
            items.append(f"saved = {regset_text(f.saved)}")
        printer.print_string("<" + ", ".join(items) + ">")

    @classmethod
    def parse_parameters(cls, parser: AttrParser) -> tuple[ArrayAttr, ...]:  # type: ignore[override]
        vals: dict[str, object] = {}
        seen: set[str] = set()

        def item() -> None:
            pos = parser.pos
            key = parser.parse_identifier()
            if key in seen:
                parser.raise_error(f"#ori.abi: '{key}' given twice", pos, parser.pos)
            seen.add(key)
            if key in ("ret_before_params", "coroutine"):
                vals[key] = True
                return
            parser.parse_punctuation("=")
            if key == "ret":
                mpos = parser.pos
                word = parser.parse_identifier()
                if word not in (*RET_MODES, "register"):
                    parser.raise_error(
                        f"#ori.abi: return-address mode must be one of {', '.join(RET_MODES)}",
                        mpos, parser.pos)
                vals["ret_mode"] = RET_MODES.get(word)
                if parser._current_token.kind.name == "BARE_IDENT":
                    vals["ret_file"], vals["ret_reg"] = _reg_name(parser)
            elif key == "first_param":
                vals[key] = _reg_name(parser)[1]
            elif key in ("available", "reserve"):
                vals[key] = parser.parse_integer(allow_boolean=False, allow_negative=False)
            elif key == "reserved":
                _, a, b = _parse_range(parser)
                vals[key] = (a, b)
            elif key in ("preserved", "scratch", "suspend_scratch", "saved"):
                vals[key] = _parse_regset(parser)
            elif key in ("params", "returns"):
                vals[key] = tuple(parser.parse_comma_separated_list(
                    parser.Delimiter.SQUARE, lambda: _parse_slot(parser)))
            else:
                parser.raise_error(f"#ori.abi: unknown field '{key}'", pos, parser.pos)

        parser.parse_comma_separated_list(parser.Delimiter.ANGLE, item)
        attr = AbiAttr.make(AbiFields(**vals))  # type: ignore[arg-type]
        return tuple(attr.parameters)  # type: ignore[return-value]

    def verify(self) -> None:
        f = self.fields()
        for key, slots in (("params", f.params), ("returns", f.returns)):
            for s in slots or ():
                if s.count <= 0 or s.size <= 0:
                    raise VerifyException(f"#ori.abi: a {key} descriptor needs a positive count "
                                          "and size")
                if s.align not in (4, 8, 16):
                    raise VerifyException(f"#ori.abi: descriptor alignment must be 4, 8 or 16, "
                                          f"got {s.align}")
        if f.ret_mode is not None and f.ret_mode not in _MODE_NAMES:
            raise VerifyException(f"#ori.abi: unknown return-address mode {f.ret_mode}")


def _parse_slot(parser: AttrParser) -> Slot:
    """``COUNTxSIZE align A`` with an optional ``@Rn`` or ``@stack+OFF``
    (``4x4`` lexes as the integer 4 and the word ``x4``)."""
    count = parser.parse_integer(allow_boolean=False, allow_negative=False)
    pos = parser.pos
    word = parser.parse_identifier()
    if not (word.startswith("x") and word[1:].isdigit()):
        parser.raise_error("#ori.abi: a descriptor is COUNTxSIZE, e.g. 4x4", pos, parser.pos)
    parser.parse_keyword("align")
    align = parser.parse_integer(allow_boolean=False, allow_negative=False)
    reg = stack = -1
    tok = parser._current_token
    if tok.kind.name == "AT_IDENT":
        pos = parser.pos
        parser._consume_token()
        where = tok.text[1:]
        if where == "stack":
            parser.parse_punctuation("+")
            stack = parser.parse_integer(allow_boolean=False, allow_negative=False)
        elif where.startswith("R") and where[1:].isdigit():
            reg = int(where[1:])
        else:
            parser.raise_error("#ori.abi: a descriptor lives @Rn or @stack+OFF", pos, parser.pos)
    return Slot(count, int(word[1:]), align, reg, stack)


__all__ = ["RET_MODES", "AbiAttr", "AbiFields", "RegSet", "Slot", "regset_text"]
