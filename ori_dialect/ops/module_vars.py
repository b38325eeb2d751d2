"""Module-level variables (``ori.global``) and symbol addresses (``ori.addr``).

PTX declares ``.global``, ``.const`` and ``.shared`` variables at module scope
(PTX ISA 9.x section 5.1 "State Spaces", 5.4 "Variables").  Each becomes one
``ori.global`` op in the module body beside the ``ori.func`` ops::

    ori.global @g_counter global size 4 align 4
    ori.global @g_table global size 16 align 4 init x"0a000000140000001e00000028"
    ori.global @g_ops global size 16 align 8 init x"" relocs [0 = @op_add, 8 = @op_mul + 0x0]
    ori.global @c_coef const size 16 align 4 at 0x0 init x"0000803f..."
    ori.global @sa shared size 128 align 4 at 0x0

* ``size``/``align`` are bytes; ``init`` holds the initializer's bytes (at
  most ``size``; the rest is zero, PTX ISA 5.4.4 "Variable Initializers") and
  ``relocs`` the 64-bit symbol addresses the loader writes into it at byte
  offsets (``{op_add, op_mul}``, ``generic(var)``, ``var+8``): each names an
  ``ori.global`` or an ``ori.func`` plus an addend.
* ``at`` is the variable's place where ptxas decides it: the byte offset in
  constant bank 3 for ``.const`` (ptxas 13.0 puts user constants in
  ``c[0x3][...]``, in declaration order at their alignment; ``ptxas -v`` prints
  their total as ``cmem[3]``), the offset in the CTA's shared window for
  ``.shared``.  ``.global`` variables get their address when loaded (the
  interpreter allocates them per launch, ``run_kernel(symbols=...)``).

``ori.addr @sym : !ori.r64`` is the 64-bit address of a ``.global`` variable
or of a device function (what ``mov.u64 %rd, g_ops;`` and ``mov.u64 %rd,
op_add;`` produce).  It is constant-like -- every thread gets the same value,
it reads no register and may be recomputed anywhere (docs/architecture.md
"Op facts": ``CONSTANT_LIKE``, ``REMATERIALIZABLE``, ``UNIFORM_SOURCE``) --
but its value is known only at load time, so it has no ``constant_value``.
In SASS ptxas reads such addresses from a loader-filled constant bank
(``c[0x4][...]`` on sm_80); the ``ori-asm`` listing prints it as
``MOV.64 R4, &g_ops``.
"""

from __future__ import annotations

from xdsl.dialects.builtin import (
    ArrayAttr,
    BytesAttr,
    FlatSymbolRefAttr,
    IntegerAttr,
    ModuleOp,
    StringAttr,
    SymbolRefAttr,
    i64,
)
from xdsl.ir import Attribute
from xdsl.irdl import (
    IRDLOperation,
    irdl_op_definition,
    opt_prop_def,
    prop_def,
    result_def,
    traits_def,
)
from xdsl.parser import Parser
from xdsl.printer import Printer
from xdsl.traits import SymbolOpInterface, SymbolTable
from xdsl.utils.exceptions import VerifyException

from ori_dialect.ir.instruction import OriOp
from ori_dialect.ir.metadata import LatencyClass
from ori_dialect.ir.registers import R64Type
from ori_dialect.ir.traits import OriCallable
from ori_dialect.ops.base import ori_op

SPACES = ("global", "const", "shared")
"""The state spaces of module-level variables."""

CONST_BANK = 3
"""The constant bank ptxas 13.0 places ``.const`` variables in (``c[0x3][...]``,
measured with ``cuobjdump -sass``; ``ptxas -v`` reports its size as ``cmem[3]``)."""

Reloc = tuple[int, str, int]
"""(byte offset in the variable, symbol, addend): a 64-bit address to store."""


def _reloc_attr(offset: int, symbol: str, addend: int) -> ArrayAttr:
    return ArrayAttr([IntegerAttr(offset, i64), FlatSymbolRefAttr(symbol), IntegerAttr(addend, i64)])


@irdl_op_definition
class GlobalOp(IRDLOperation):
    """A module-level ``.global``/``.const``/``.shared`` variable (see the module docstring)."""

    name = "ori.global"

    sym_name = prop_def(StringAttr)
    space = prop_def(StringAttr)
    size = prop_def(IntegerAttr)
    align = prop_def(IntegerAttr)
    offset = opt_prop_def(IntegerAttr)
    init = opt_prop_def(BytesAttr)
    relocs = opt_prop_def(ArrayAttr)

    traits = traits_def(SymbolOpInterface())

    def __init__(self, name: str, space: str, size: int, align: int, *,
                 offset: int | None = None, init: bytes | None = None,
                 relocs: tuple[Reloc, ...] | list[Reloc] = ()) -> None:
        super().__init__(properties={
            "sym_name": StringAttr(name),
            "space": StringAttr(space),
            "size": IntegerAttr(size, i64),
            "align": IntegerAttr(align, i64),
            "offset": IntegerAttr(offset, i64) if offset is not None else None,
            "init": BytesAttr(init) if init is not None else None,
            "relocs": ArrayAttr([_reloc_attr(*r) for r in relocs]) if relocs else None,
        })

    # ---- accessors ----------------------------------------------------
    @property
    def var_name(self) -> str:
        return self.sym_name.data

    @property
    def nbytes(self) -> int:
        return self.size.value.data

    @property
    def alignment(self) -> int:
        return self.align.value.data

    @property
    def place(self) -> int | None:
        """The bank offset (``.const``) or shared-window offset (``.shared``)."""
        return self.offset.value.data if self.offset is not None else None

    def init_bytes(self) -> bytes:
        """The variable's initial contents, ``size`` bytes (zero-filled), without relocations."""
        data = self.init.data if self.init is not None else b""
        return data + bytes(self.nbytes - len(data))

    def reloc_list(self) -> list[Reloc]:
        out: list[Reloc] = []
        for r in self.relocs.data if self.relocs is not None else ():
            assert isinstance(r, ArrayAttr)
            off, sym, add = r.data
            assert isinstance(off, IntegerAttr) and isinstance(sym, SymbolRefAttr)
            assert isinstance(add, IntegerAttr)
            out.append((off.value.data, sym.root_reference.data, add.value.data))
        return out

    # ---- verifier -----------------------------------------------------
    def verify_(self) -> None:
        what = f"ori.global @{self.var_name}"
        sp = self.space.data
        if sp not in SPACES:
            raise VerifyException(f"{what}: space must be one of {', '.join(SPACES)}, got '{sp}'")
        if self.nbytes < 0:
            raise VerifyException(f"{what}: size must not be negative")
        a = self.alignment
        if a < 1 or a & (a - 1):
            raise VerifyException(f"{what}: alignment {a} is not a power of two")
        if self.init is not None and len(self.init.data) > self.nbytes:
            raise VerifyException(
                f"{what}: initializer of {len(self.init.data)} bytes exceeds the size {self.nbytes}")
        if sp == "shared" and (self.init is not None or self.relocs is not None):
            raise VerifyException(f"{what}: a .shared variable cannot have an initializer")
        if sp == "global" and self.offset is not None:
            raise VerifyException(f"{what}: a .global variable gets its address when loaded "
                                  "('at' is for .const and .shared)")
        if self.offset is not None and self.offset.value.data % a:
            raise VerifyException(f"{what}: offset {self.offset.value.data:#x} is not "
                                  f"{a}-byte aligned")
        for r in self.relocs.data if self.relocs is not None else ():
            if not (isinstance(r, ArrayAttr) and len(r.data) == 3
                    and isinstance(r.data[0], IntegerAttr)
                    and isinstance(r.data[1], SymbolRefAttr)
                    and isinstance(r.data[2], IntegerAttr)):
                raise VerifyException(f"{what}: a relocation is [offset, @symbol, addend]")
        mod = self.parent_op()
        for off, sym, _ in self.reloc_list():
            if off < 0 or off + 8 > self.nbytes or off % 8:
                raise VerifyException(
                    f"{what}: relocation at {off} must be an 8-aligned 64-bit word inside "
                    "the variable")
            if isinstance(mod, ModuleOp):
                target = SymbolTable.lookup_symbol(mod, sym)
                if not (isinstance(target, GlobalOp) and target.space.data == "global") and (
                        target is None or target.get_trait(OriCallable) is None):
                    raise VerifyException(
                        f"{what}: relocation names @{sym}, which is neither a .global "
                        "variable nor a function")

    # ---- text ---------------------------------------------------------
    def print(self, printer: Printer) -> None:
        printer.print_string(" ")
        printer.print_symbol_name(self.var_name)
        printer.print_string(f" {self.space.data} size {self.nbytes} align {self.alignment}")
        if self.offset is not None:
            printer.print_string(f" at {self.offset.value.data:#x}")
        if self.init is not None:
            printer.print_string(f' init x"{self.init.data.hex()}"')
        relocs = self.reloc_list()
        if relocs:
            printer.print_string(" relocs [")
            printer.print_string(", ".join(f"{o} = @{s} + {a:#x}" for o, s, a in relocs))
            printer.print_string("]")
        if self.attributes:
            printer.print_string(" ")
            printer.print_attr_dict(self.attributes)

    @classmethod
    def parse(cls, parser: Parser) -> GlobalOp:
        name = parser.parse_symbol_name().data
        space = parser.parse_identifier()
        parser.parse_keyword("size")
        size = parser.parse_integer(allow_negative=False)
        parser.parse_keyword("align")
        align = parser.parse_integer(allow_negative=False)
        offset = None
        if parser.parse_optional_keyword("at") is not None:
            offset = parser.parse_integer(allow_negative=False)
        init = None
        if parser.parse_optional_keyword("init") is not None:
            pos = parser.pos
            text = parser.parse_identifier()
            if not text.startswith("x"):
                parser.raise_error('expected x"<hex bytes>"', pos, parser.pos)
            raw = parser.parse_str_literal()
            try:
                init = bytes.fromhex(raw)
            except ValueError:
                parser.raise_error(f"'{raw}' is not a string of hex digit pairs", pos, parser.pos)
        relocs: list[Reloc] = []
        if parser.parse_optional_keyword("relocs") is not None:
            def one() -> Reloc:
                off = parser.parse_integer(allow_negative=False)
                parser.parse_punctuation("=")
                sym = parser.parse_symbol_name().data
                parser.parse_punctuation("+")
                add = parser.parse_integer()
                return off, sym, add

            relocs = parser.parse_comma_separated_list(parser.Delimiter.SQUARE, one)
        op = cls(name, space, size, align, offset=offset, init=init, relocs=relocs)
        op.attributes.update(parser.parse_optional_attr_dict())
        return op


@ori_op
class AddrOp(OriOp):
    """The 64-bit address of a ``.global`` variable or a device function."""

    name = "ori.addr"
    SASS = "MOV"
    LATENCY = LatencyClass.SHORT_ALU
    REMATERIALIZABLE = True
    CONSTANT_LIKE = True
    UNIFORM_SOURCE = True

    symbol = prop_def(SymbolRefAttr)
    res = result_def(R64Type)

    assembly_format = "$symbol attr-dict `:` type($res)"

    def __init__(self, symbol: str, result_type: Attribute | None = None) -> None:
        super().__init__(properties={"symbol": FlatSymbolRefAttr(symbol)},
                         result_types=[result_type or R64Type.unallocated()])

    @property
    def symbol_name(self) -> str:
        return self.symbol.root_reference.data

    def reads_only_uniform_inputs(self) -> bool:
        return True

    def verify_(self) -> None:
        mod = self.parent_op()
        while mod is not None and not isinstance(mod, ModuleOp):
            mod = mod.parent_op()
        if mod is None:
            return
        target = SymbolTable.lookup_symbol(mod, self.symbol)
        if isinstance(target, GlobalOp):
            if target.space.data != "global":
                raise VerifyException(
                    f"ori.addr: @{self.symbol_name} is a .{target.space.data} variable; only "
                    ".global variables and functions have a 64-bit address here")
            return
        if target is None or target.get_trait(OriCallable) is None:
            raise VerifyException(f"ori.addr: no ori.global or ori.func named @{self.symbol_name}")
        if OriCallable.is_entry(target):
            raise VerifyException(f"ori.addr: @{self.symbol_name} is a kernel entry")


__all__ = ["CONST_BANK", "SPACES", "AddrOp", "GlobalOp", "Reloc"]
