"""Non-register operand attributes and function descriptors of the Ori IR."""

from __future__ import annotations

from xdsl.dialects.builtin import IntAttr
from xdsl.ir import ParametrizedAttribute
from xdsl.irdl import irdl_attr_definition
from xdsl.parser import AttrParser
from xdsl.printer import Printer
from xdsl.utils.exceptions import VerifyException


def _hex(v: int) -> str:
    return hex(v) if v >= 0 else "-" + hex(-v)


@irdl_attr_definition
class CBankAttr(ParametrizedAttribute):
    """A constant-bank operand ``c[bank][offset]`` (seed 004 "Constant Buffer Layout").

    Bank 0 holds the launch parameters and driver constants; offsets are bytes.
    Printed as ``#ori.c<0x0, 0x160>`` in attribute position and as
    ``c[0x0][0x160]`` in an instruction's operand list.
    """

    name = "ori.c"

    bank: IntAttr
    offset: IntAttr

    def __init__(self, bank: int, offset: int) -> None:
        super().__init__(IntAttr(bank), IntAttr(offset))

    @classmethod
    def parse_parameters(cls, parser: AttrParser) -> tuple[IntAttr, IntAttr]:
        with parser.in_angle_brackets():
            bank = parser.parse_integer(allow_boolean=False, allow_negative=False)
            parser.parse_punctuation(",")
            off = parser.parse_integer(allow_boolean=False, allow_negative=False)
        return IntAttr(bank), IntAttr(off)

    def print_parameters(self, printer: Printer) -> None:
        printer.print_string(f"<{_hex(self.bank.data)}, {_hex(self.offset.data)}>")

    def verify(self) -> None:
        if not 0 <= self.bank.data < 18:
            raise VerifyException(f"constant bank {self.bank.data} out of range 0..17")
        if not 0 <= self.offset.data < 0x10000:
            raise VerifyException(f"constant-bank offset {_hex(self.offset.data)} out of range")
        if self.offset.data % 4:
            raise VerifyException(
                f"constant-bank offset {_hex(self.offset.data)} is not 4-byte aligned"
            )

    def asm(self) -> str:
        return f"c[{_hex(self.bank.data)}][{_hex(self.offset.data)}]"


@irdl_attr_definition
class ParamAttr(ParametrizedAttribute):
    """A function parameter or return value descriptor: size and alignment in bytes.

    For a kernel entry, ``offset`` is the byte offset of the parameter inside
    the parameter area of constant bank 0 (the target decides where that area
    starts).  For device functions the offset is -1: where parameters go is the
    calling convention's business (seed 003).
    Printed ``#ori.param<8, align 8, at 0x0>``.
    """

    name = "ori.param"

    size: IntAttr
    align: IntAttr
    offset: IntAttr

    def __init__(self, size: int, align: int, offset: int = -1) -> None:
        super().__init__(IntAttr(size), IntAttr(align), IntAttr(offset))

    @classmethod
    def parse_parameters(cls, parser: AttrParser) -> tuple[IntAttr, IntAttr, IntAttr]:
        with parser.in_angle_brackets():
            size = parser.parse_integer(allow_boolean=False, allow_negative=False)
            parser.parse_punctuation(",")
            parser.parse_keyword("align")
            align = parser.parse_integer(allow_boolean=False, allow_negative=False)
            offset = -1
            if parser.parse_optional_punctuation(","):
                parser.parse_keyword("at")
                offset = parser.parse_integer(allow_boolean=False, allow_negative=False)
        return IntAttr(size), IntAttr(align), IntAttr(offset)

    def print_parameters(self, printer: Printer) -> None:
        at = f", at {_hex(self.offset.data)}" if self.offset.data >= 0 else ""
        printer.print_string(f"<{self.size.data}, align {self.align.data}{at}>")

    def verify(self) -> None:
        size, align, off = self.size.data, self.align.data, self.offset.data
        if size <= 0:
            raise VerifyException(f"parameter size must be positive, got {size}")
        if align <= 0 or align & (align - 1):
            raise VerifyException(f"parameter alignment must be a power of two, got {align}")
        if off >= 0 and off % align:
            raise VerifyException(
                f"parameter offset {_hex(off)} is not a multiple of its alignment {align}"
            )
