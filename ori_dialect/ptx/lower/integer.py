"""Integer arithmetic (placeholder set for bring-up; completed by the integer lowering work)."""

from __future__ import annotations

from typing import TYPE_CHECKING

from ori_dialect.ir.registers import R64Type
from ori_dialect.ops.integer import IAdd3Op, IMadOp
from ori_dialect.ops.predicate import ISetPOp
from ori_dialect.ptx import ast
from ori_dialect.ptx.lower.handlers import lowers

if TYPE_CHECKING:
    from ori_dialect.ptx.lower.function import FunctionLowering
