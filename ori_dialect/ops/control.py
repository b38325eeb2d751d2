"""Control flow: BRA, EXIT, RET, CALL, and the loop-pragma marker.

Branches carry block arguments (the SSA form of values that flow along an
edge).  A guarded BRA names both successors -- the taken target and the
fall-through -- because an SSA CFG has no implicit next block::

    ori.bra ^bb1(%i : !ori.r32)
    ori.bra if not %p : !ori.p, ^bb1(%i : !ori.r32), ^bb2

A guarded EXIT or RET is not modelled: write a guarded BRA to a block that
exits; the verifier says so rather than accepting a guard it would ignore.
"""

from __future__ import annotations

from collections.abc import Sequence

from xdsl.dialects.builtin import (
    FlatSymbolRefAttr,
    FunctionType,
    StringAttr,
    SymbolRefAttr,
    UnitAttr,
)
from xdsl.ir import Attribute, Block, Operation, SSAValue
from xdsl.irdl import (
    AttrSizedOperandSegments,
    opt_operand_def,
    opt_prop_def,
    opt_successor_def,
    prop_def,
    successor_def,
    traits_def,
    var_operand_def,
    var_result_def,
)
from xdsl.parser import Parser, UnresolvedOperand
from xdsl.printer import Printer
from xdsl.traits import IsTerminator, MemoryReadEffect, MemoryWriteEffect, SymbolTable
from xdsl.utils.exceptions import VerifyException

from ori_dialect.ir.instruction import OriOp
from ori_dialect.ir.metadata import LatencyClass, Pipe
from ori_dialect.ir.registers import OriRegisterType, PredType, UPredType, same_register_classes
from ori_dialect.ir.traits import OriCallable
from ori_dialect.ops.base import ori_op


def _verify_edge(op: Operation, what: str, args: Sequence[SSAValue], dest: Block) -> None:
    if len(args) != len(dest.args):
        raise VerifyException(
            f"{op.name}: {what} passes {len(args)} block arguments but its "
            f"successor expects {len(dest.args)}"
        )
    for i, (a, b) in enumerate(zip(args, dest.args)):
        if a.type != b.type:
            raise VerifyException(
                f"{op.name}: {what} block argument #{i} has type {a.type}, "
                f"but the successor's argument has type {b.type}"
            )


def _print_dest(printer: Printer, dest: Block, args: Sequence[SSAValue]) -> None:
    printer.print_block_name(dest)
    if args:
        printer.print_string("(")
        printer.print_list(args, lambda v: (printer.print_operand(v), printer.print_string(" : "), printer.print_attribute(v.type)))
        printer.print_string(")")


def _parse_dest(parser: Parser) -> tuple[Block, list[SSAValue]]:
    dest = parser.parse_successor()
    args: list[SSAValue] = []
    if parser.parse_optional_punctuation("(") is not None:

        def one() -> SSAValue:
            u = parser.parse_unresolved_operand()
            parser.parse_punctuation(":")
            return parser.resolve_operand(u, parser.parse_type())

        args = parser.parse_comma_separated_list(parser.Delimiter.NONE, one)
        parser.parse_punctuation(")")
    return dest, args


@ori_op
class BraOp(OriOp):
    """BRA: branch to ``taken``; when guarded, to ``fallthrough`` if the guard fails."""

    name = "ori.bra"
    SASS = "BRA"
    LATENCY = LatencyClass.SCOREBOARD
    PIPE = Pipe.BRA

    guard = opt_operand_def(PredType | UPredType)
    taken_args = var_operand_def(OriRegisterType)
    fallthrough_args = var_operand_def(OriRegisterType)
    guard_neg = opt_prop_def(UnitAttr)
    taken = successor_def()
    fallthrough = opt_successor_def()

    irdl_options = (AttrSizedOperandSegments(as_property=True),)
    traits = traits_def(IsTerminator())

    def __init__(
        self,
        taken: Block,
        taken_args: Sequence[SSAValue | Operation] = (),
        *,
        guard: SSAValue | Operation | None = None,
        guard_neg: bool = False,
        fallthrough: Block | None = None,
        fallthrough_args: Sequence[SSAValue | Operation] = (),
    ) -> None:
        super().__init__(
            operands=[[guard] if guard is not None else [], list(taken_args), list(fallthrough_args)],
            successors=[taken, fallthrough],
            properties={"guard_neg": UnitAttr() if guard_neg else None},
        )

    def edge_args(self, succ_index: int) -> Sequence[SSAValue]:
        """Operands passed to successor ``succ_index`` (0 taken, 1 fall-through)."""
        return self.taken_args if succ_index == 0 else self.fallthrough_args

    def verify_(self) -> None:
        if (self.guard is None) != (self.fallthrough is None):
            raise VerifyException(
                "ori.bra: a guarded branch needs a fall-through successor and an "
                "unguarded one must not have one"
            )
        if self.guard is None and self.guard_neg is not None:
            raise VerifyException("ori.bra: guard negation without a guard predicate")
        if self.fallthrough is None and self.fallthrough_args:
            raise VerifyException("ori.bra: fall-through arguments without a fall-through successor")
        _verify_edge(self, "taken edge", self.taken_args, self.taken)
        if self.fallthrough is not None:
            _verify_edge(self, "fall-through edge", self.fallthrough_args, self.fallthrough)

    def print(self, printer: Printer) -> None:
        printer.print_string(" ")
        if self.guard is not None:
            printer.print_string("if not " if self.guard_neg is not None else "if ")
            printer.print_operand(self.guard)
            printer.print_string(" : ")
            printer.print_attribute(self.guard.type)
            printer.print_string(", ")
        _print_dest(printer, self.taken, self.taken_args)
        if self.fallthrough is not None:
            printer.print_string(", ")
            _print_dest(printer, self.fallthrough, self.fallthrough_args)
        if self.attributes:
            printer.print_string(" ")
            printer.print_attr_dict(self.attributes)

    @classmethod
    def parse(cls, parser: Parser) -> BraOp:
        guard: SSAValue | None = None
        neg = False
        if parser.parse_optional_keyword("if") is not None:
            neg = parser.parse_optional_keyword("not") is not None
            u: UnresolvedOperand = parser.parse_unresolved_operand()
            parser.parse_punctuation(":")
            guard = parser.resolve_operand(u, parser.parse_type())
            parser.parse_punctuation(",")
        taken, targs = _parse_dest(parser)
        fall: Block | None = None
        fargs: list[SSAValue] = []
        if parser.parse_optional_punctuation(",") is not None:
            fall, fargs = _parse_dest(parser)
        op = cls(taken, targs, guard=guard, guard_neg=neg, fallthrough=fall, fallthrough_args=fargs)
        op.attributes.update(parser.parse_optional_attr_dict())
        return op


@ori_op
class ExitOp(OriOp):
    """EXIT: the thread ends (kernel entries)."""

    name = "ori.exit"
    SASS = "EXIT"
    LATENCY = LatencyClass.SCOREBOARD
    PIPE = Pipe.BRA
    SIDE_EFFECTS = True
    traits = traits_def(IsTerminator(), MemoryReadEffect(), MemoryWriteEffect())
    assembly_format = "attr-dict"

    def __init__(self) -> None:
        super().__init__()


@ori_op
class RetOp(OriOp):
    """RET: return from a device function with its return values."""

    name = "ori.ret"
    SASS = "RET.REL.NODEC"
    LATENCY = LatencyClass.SCOREBOARD
    PIPE = Pipe.BRA
    values = var_operand_def(OriRegisterType)
    traits = traits_def(IsTerminator())
    assembly_format = "($values^ `:` type($values))? attr-dict"

    def __init__(self, *values: SSAValue | Operation) -> None:
        super().__init__(operands=[list(values)])


@ori_op
class CallOp(OriOp):
    """CALL: call device function ``callee`` (the ABI lowering of seed 003
    later decides which registers carry arguments and results)."""

    name = "ori.call"
    SASS = "CALL.REL.NOINC"
    LATENCY = LatencyClass.SCOREBOARD
    PIPE = Pipe.BRA
    SIDE_EFFECTS = True
    callee = prop_def(SymbolRefAttr)
    args = var_operand_def(OriRegisterType)
    res = var_result_def(OriRegisterType)
    traits = traits_def(MemoryReadEffect(), MemoryWriteEffect())
    assembly_format = "$callee `(` $args `)` attr-dict `:` functional-type($args, $res)"

    def __init__(self, callee: str | SymbolRefAttr, args: Sequence[SSAValue | Operation], result_types: Sequence[Attribute]) -> None:
        if isinstance(callee, str):
            callee = FlatSymbolRefAttr(callee)
        super().__init__(operands=[list(args)], result_types=[list(result_types)], properties={"callee": callee})

    def verify_(self) -> None:
        module = self.parent_op()
        while module is not None and module.get_trait(SymbolTable) is None:
            module = module.parent_op()
        if module is None:
            return
        target = SymbolTable.lookup_symbol(module, self.callee)
        if target is None or target.get_trait(OriCallable) is None:
            raise VerifyException(f"ori.call: no ori.func named {self.callee}")
        if OriCallable.is_entry(target):
            raise VerifyException(f"ori.call: {self.callee} is a kernel entry and cannot be called")
        ftype = OriCallable.function_type(target)
        # Register classes must match; the physical registers on either side
        # are each function's own allocation (the calling convention's moves
        # are not modelled in the IR yet).
        if not same_register_classes(
            ftype.inputs.data, [a.type for a in self.args]
        ) or not same_register_classes(ftype.outputs.data, [r.type for r in self.res]):
            raise VerifyException(
                f"ori.call: call to {self.callee} has type "
                f"{FunctionType.from_lists([a.type for a in self.args], [r.type for r in self.res])}"
                f" but the function has type {ftype}"
            )


@ori_op
class PragmaOp(OriOp):
    """A PTX ``.pragma`` kept where it stood: ``ori.pragma "nounroll"`` at the
    start of a loop header block marks that loop (seed 001, "Nounroll Pragma
    Check": the PTX-to-Ori lowering flags the header block).  It emits no
    code; the asm printer shows it as a comment and the interpreter skips it."""

    name = "ori.pragma"
    SASS = "PRAGMA"  # a pseudo-op like PACK: no SASS instruction is emitted
    text = prop_def(StringAttr)
    assembly_format = "$text attr-dict"

    def __init__(self, text: str) -> None:
        super().__init__(properties={"text": StringAttr(text)})


__all__ = ["BraOp", "CallOp", "ExitOp", "PragmaOp", "RetOp"]
