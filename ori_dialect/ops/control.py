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

from collections.abc import Mapping, Sequence

from xdsl.dialects.builtin import (
    ArrayAttr,
    FlatSymbolRefAttr,
    FunctionType,
    IntegerAttr,
    StringAttr,
    SymbolRefAttr,
    UnitAttr,
)
from xdsl.ir import Attribute, Block, BlockArgument, Operation, SSAValue
from xdsl.irdl import (
    AttrSizedOperandSegments,
    IRDLOperation,
    operand_def,
    opt_operand_def,
    opt_prop_def,
    opt_successor_def,
    prop_def,
    successor_def,
    traits_def,
    var_operand_def,
    var_result_def,
    var_successor_def,
)
from xdsl.parser import Parser, UnresolvedOperand
from xdsl.printer import Printer
from xdsl.traits import IsTerminator, MemoryReadEffect, MemoryWriteEffect, SymbolTable
from xdsl.utils.exceptions import VerifyException

from ori_dialect.ir.attrs import ParamAttr
from ori_dialect.ir.instruction import OriOp
from ori_dialect.ir.metadata import LatencyClass, Pipe
from ori_dialect.ir.registers import (
    OriRegisterType,
    PredType,
    R32Type,
    R64Type,
    UPredType,
    same_register_classes,
)
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

    def dest_arg(self, operand_index: int) -> BlockArgument | None:
        """The block argument operand ``operand_index`` feeds (operands: the
        guard, the taken edge's, then the fall-through edge's); None for the
        guard."""
        i = operand_index - (1 if self.guard is not None else 0)
        n_taken = len(self.taken_args)
        if 0 <= i < n_taken:
            return self.taken.args[i]
        i -= n_taken
        if self.fallthrough is not None and 0 <= i < len(self.fallthrough_args):
            return self.fallthrough.args[i]
        return None

    def sass_instructions(self) -> int:
        """Block order is the layout: an edge to the next block falls through.
        Unguarded: 0 to the next block, else 1.  Guarded: 1 when either
        target is the next block (to the other one, the guard inverted if
        need be), else 2 (``@P BRA taken`` and ``BRA fallthrough``)."""
        blk = self.parent_block()
        nxt = blk.next_block if blk is not None else None
        if self.fallthrough is None:
            return 0 if self.taken is nxt else 1
        return 1 if nxt is not None and nxt in (self.taken, self.fallthrough) else 2

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
    """EXIT: the thread ends.  In a kernel entry that is its normal end; in a
    device function (PTX ``exit`` in a ``.func``) the thread ends there too,
    without returning to its callers."""

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


STACK_OUT_ATTR = "ori.abi_stack_out"
"""On a CALL: the bytes the stack pointer R1 moves down by around it, the
outgoing area of its stack-passed arguments (passes/abi/stack_args.py)."""


@ori_op
class CallOp(OriOp):
    """CALL: call device function ``callee``.  ``ori-abi`` (seed 003) copies
    the arguments into pre-coloured values and records the results'
    registers (``ori.abi_results``) and the return address
    (``ori.abi_ret``); ``ori-regalloc`` adds what the call may overwrite
    (``ori.abi_clobbers``)."""

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

    def stack_out(self) -> int:
        """The outgoing area (:data:`STACK_OUT_ATTR`; 0: none)."""
        a = self.attributes.get(STACK_OUT_ATTR)
        return a.value.data if isinstance(a, IntegerAttr) else 0

    def sass_instructions(self) -> int:
        """The CALL, and around it ``IADD3 R1, R1, -S`` / ``IADD3 R1, R1, S``
        when it opens an outgoing area."""
        return 3 if self.stack_out() else 1

    def callee_name(self) -> str | None:
        """The name of the function a direct call calls (None for ``ori.call_indirect``)."""
        return self.callee.root_reference.data if self.callee is not None else None

    def possible_callees(self, funcs: Mapping[str, Operation]) -> list[str]:
        """The functions of ``funcs`` (by name) this call may reach: its callee."""
        name = self.callee_name()
        return [name] if name is not None and name in funcs else []

    def verify_(self) -> None:
        module = self.parent_op()
        while module is not None and module.get_trait(SymbolTable) is None:
            module = module.parent_op()
        if module is None:
            return
        assert self.callee is not None
        target = SymbolTable.lookup_symbol(module, self.callee)
        if target is None or target.get_trait(OriCallable) is None:
            raise VerifyException(f"ori.call: no ori.func named {self.callee}")
        if OriCallable.is_entry(target):
            raise VerifyException(f"ori.call: {self.callee} is a kernel entry and cannot be called")
        ftype = OriCallable.function_type(target)
        # Register classes must match; the physical registers on either side
        # are each function's own allocation (after ori-abi the arguments
        # and results are the pre-coloured copies of passes/abi/lower.py).
        if not same_register_classes(
            ftype.inputs.data, [a.type for a in self.args]
        ) or not same_register_classes(ftype.outputs.data, [r.type for r in self.res]):
            raise VerifyException(
                f"ori.call: call to {self.callee} has type "
                f"{FunctionType.from_lists([a.type for a in self.args], [r.type for r in self.res])}"
                f" but the function has type {ftype}"
            )


@ori_op
class CallIndirectOp(CallOp):
    """CALL through a register: ``call (%r), %rd1, (%a, %b), proto;`` (PTX ISA
    9.7.13.4 "call": an indirect call names a ``.callprototype``).

    ``target`` holds a function's address (``ori.addr @f``, or a pointer read
    from memory); ``params``/``returns`` describe the prototype's parameters
    (sizes and alignment, as ``ori.func`` does for its own), and the
    interpreter checks them against the function the address names.  For the
    calling convention (seed 003) and every pass it is a call like ``ori.call``
    -- it is a subclass -- whose callee is unknown: :meth:`possible_callees`
    gives every device function of the call's type.

    ::

        %r = ori.call_indirect %fp(%a, %b) {params = [...], returns = [...]}
               : !ori.r64, (!ori.r32, !ori.r32) -> !ori.r32
    """

    name = "ori.call_indirect"
    SASS = "CALL.ABS.NOINC"
    callee = opt_prop_def(SymbolRefAttr)
    target = operand_def(R64Type)
    args = var_operand_def(OriRegisterType)
    res = var_result_def(OriRegisterType)
    params = opt_prop_def(ArrayAttr[ParamAttr])
    returns = opt_prop_def(ArrayAttr[ParamAttr])
    traits = traits_def(MemoryReadEffect(), MemoryWriteEffect())
    assembly_format = None

    def __init__(  # pyright: ignore[reportInconsistentConstructor]
        self,
        target: SSAValue | Operation,
        args: Sequence[SSAValue | Operation],
        result_types: Sequence[Attribute],
        params: Sequence[ParamAttr] | None = None,
        returns: Sequence[ParamAttr] | None = None,
    ) -> None:
        IRDLOperation.__init__(
            self,
            operands=[target, list(args)],
            result_types=[list(result_types)],
            properties={
                "params": ArrayAttr(params) if params is not None else None,
                "returns": ArrayAttr(returns) if returns is not None else None,
            },
        )

    def print(self, printer: Printer) -> None:
        printer.print_string(" ")
        printer.print_operand(self.target)
        printer.print_string("(")
        printer.print_list(self.args, printer.print_operand)
        printer.print_string(")")
        attrs: dict[str, Attribute] = {k: v for k, v in self.properties.items()}
        attrs.update(self.attributes)
        if attrs:
            printer.print_string(" ")
            printer.print_attr_dict(attrs)
        printer.print_string(" : ")
        printer.print_attribute(FunctionType.from_lists(
            [self.target.type, *(a.type for a in self.args)], [r.type for r in self.res]))

    @classmethod
    def parse(cls, parser: Parser) -> CallIndirectOp:
        target = parser.parse_unresolved_operand()
        args = parser.parse_comma_separated_list(
            parser.Delimiter.PAREN, parser.parse_unresolved_operand)
        attrs = parser.parse_optional_attr_dict()
        parser.parse_punctuation(":")
        pos = parser.pos
        ftype = parser.parse_function_type()
        ins = list(ftype.inputs.data)
        if len(ins) != len(args) + 1:
            parser.raise_error(f"the type lists {len(ins)} operands, the call has "
                               f"{len(args) + 1} (target and arguments)", pos, parser.pos)
        vals = [parser.resolve_operand(u, t) for u, t in zip([target, *args], ins)]
        op = cls(vals[0], vals[1:], list(ftype.outputs.data))
        for k, v in attrs.items():
            if k in ("params", "returns"):
                op.properties[k] = v
            else:
                op.attributes[k] = v
        return op

    def possible_callees(self, funcs: Mapping[str, Operation]) -> list[str]:
        """Every device function of ``funcs`` whose register classes match the call's."""
        args = [a.type for a in self.args]
        res = [r.type for r in self.res]
        out: list[str] = []
        for name, f in funcs.items():
            if f.get_trait(OriCallable) is None or OriCallable.is_entry(f):
                continue
            ft = OriCallable.function_type(f)
            if same_register_classes(ft.inputs.data, args) and same_register_classes(
                    ft.outputs.data, res):
                out.append(name)
        return out

    def verify_(self) -> None:
        if self.callee is not None:
            raise VerifyException("ori.call_indirect: an indirect call names no callee")
        if self.params is not None and len(self.params.data) != len(self.args):
            raise VerifyException(
                f"ori.call_indirect: 'params' describes {len(self.params.data)} parameters, "
                f"the call passes {len(self.args)}")
        if self.returns is not None and len(self.returns.data) != len(self.res):
            raise VerifyException(
                f"ori.call_indirect: 'returns' describes {len(self.returns.data)} results, "
                f"the call has {len(self.res)}")


@ori_op
class BrxOp(OriOp):
    """BRX: indexed branch (PTX ``brx.idx index, tlist``; ptxas 13.0 prints
    ``BRX R2 -0x190`` after loading the target from a jump table).  A thread
    goes to ``targets[index]``; an index outside the list is undefined in the
    PTX ISA, and the interpreter stops with an error.  Every target is a
    successor, so CFG analyses see all of them.

    The targets take no block arguments: a jump table holds plain code
    addresses, so the moves a target's arguments need happen in the target
    (the PTX frontend branches to one argument-free block per table entry,
    which jumps on with the arguments).  This also keeps the edge copies of
    register allocation on ``ori.bra``.  Syntax::

        ori.brx %i : !ori.r32, [^bb1, ^bb2, ^bb1]
    """

    name = "ori.brx"
    SASS = "BRX"
    INDIRECT_JUMP = True
    LATENCY = LatencyClass.SCOREBOARD
    PIPE = Pipe.BRA

    index = operand_def(R32Type)
    targets = var_successor_def()
    traits = traits_def(IsTerminator())

    def __init__(self, index: SSAValue | Operation, targets: Sequence[Block]) -> None:
        super().__init__(operands=[index], successors=[list(targets)])

    def edge_args(self, succ_index: int) -> Sequence[SSAValue]:
        """Operands passed to successor ``succ_index``: none (see the class docstring)."""
        del succ_index
        return ()

    def verify_(self) -> None:
        if not self.targets:
            raise VerifyException("ori.brx: needs at least one target")
        for i, t in enumerate(self.targets):
            if t.args:
                raise VerifyException(
                    f"ori.brx: target #{i} takes block arguments; a jump-table target takes "
                    "none (branch to a block that passes them on)"
                )

    def print(self, printer: Printer) -> None:
        printer.print_string(" ")
        printer.print_operand(self.index)
        printer.print_string(" : ")
        printer.print_attribute(self.index.type)
        printer.print_string(", [")
        printer.print_list(self.targets, printer.print_block_name)
        printer.print_string("]")
        if self.attributes:
            printer.print_string(" ")
            printer.print_attr_dict(self.attributes)

    @classmethod
    def parse(cls, parser: Parser) -> BrxOp:
        u = parser.parse_unresolved_operand()
        parser.parse_punctuation(":")
        index = parser.resolve_operand(u, parser.parse_type())
        parser.parse_punctuation(",")
        targets = parser.parse_comma_separated_list(
            parser.Delimiter.SQUARE, parser.parse_successor
        )
        op = cls(index, targets)
        op.attributes.update(parser.parse_optional_attr_dict())
        return op


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


__all__ = ["BraOp", "BrxOp", "CallIndirectOp", "CallOp", "ExitOp", "PragmaOp", "RetOp"]
