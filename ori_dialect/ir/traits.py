"""xDSL traits the Ori op classes carry besides the effect traits.

docs/architecture.md "Op facts": facts about a single op live on its class;
where xDSL has a trait for a fact, the class carries that trait as well so
generic xDSL code sees it.
"""

from __future__ import annotations

from xdsl.dialects.builtin import FunctionType
from xdsl.ir import Attribute, Operation, Region
from xdsl.traits import CallableOpInterface, ConstantLike


class OriConstantLike(ConstantLike):
    """xDSL's ``ConstantLike`` for the ops whose ``CONSTANT_LIKE`` flag is set
    (``MOV``, ``PACK``, ``PLOP3``, ``LDC``).  Unlike MLIR's constants these ops
    take operands and produce a constant only in some forms: ask the op's
    ``constant_value`` / ``constant_operand``."""


class OriCallable(CallableOpInterface):
    """xDSL's ``CallableOpInterface`` for ``ori.func``.  Code below the op
    layer (the analysis manager, ``ori.call``'s verifier) finds functions and
    reads their signature through this trait instead of importing ``FuncOp``,
    which keeps the op modules and the analyses free of import cycles
    (docs/architecture.md "Layers")."""

    @classmethod
    def _function_type(cls, op: Operation) -> FunctionType:
        ftype = op.properties["function_type"]
        assert isinstance(ftype, FunctionType)
        return ftype

    @classmethod
    def get_callable_region(cls, op: Operation) -> Region:
        return op.regions[0]

    @classmethod
    def get_argument_types(cls, op: Operation) -> tuple[Attribute, ...]:
        return cls._function_type(op).inputs.data

    @classmethod
    def get_result_types(cls, op: Operation) -> tuple[Attribute, ...]:
        return cls._function_type(op).outputs.data

    @classmethod
    def function_type(cls, op: Operation) -> FunctionType:
        return cls._function_type(op)

    @classmethod
    def is_entry(cls, op: Operation) -> bool:
        """A kernel entry (launched, never called)."""
        return "kernel" in op.properties


__all__ = ["OriCallable", "OriConstantLike"]
