"""xDSL traits the Ori op classes carry besides the effect traits.

docs/architecture.md "Op facts": facts about a single op live on its class;
where xDSL has a trait for a fact, the class carries that trait as well so
generic xDSL code sees it.
"""

from __future__ import annotations

from xdsl.traits import ConstantLike


class OriConstantLike(ConstantLike):
    """xDSL's ``ConstantLike`` for the ops whose ``CONSTANT_LIKE`` flag is set
    (``MOV``, ``PACK``, ``PLOP3``, ``LDC``).  Unlike MLIR's constants these ops
    take operands and produce a constant only in some forms: ask the op's
    ``constant_value`` / ``constant_operand``."""


__all__ = ["OriConstantLike"]
