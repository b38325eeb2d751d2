"""Instruction ops verify their IRDL shape with ori's own check
(``ops/base.py``'s ``_fast_verify``, issue 20) and their block structure with
an O(1) terminator test (``OriOp.verify``): each malformed shape is still an
error with the op's name, and the checks run for every instruction class."""

from __future__ import annotations

import pytest
from xdsl.dialects import test as xdsl_test
from xdsl.dialects.builtin import IntegerAttr, ModuleOp, UnitAttr, i32
from xdsl.ir import Block, Region
from xdsl.utils.exceptions import VerifyException

from ori_dialect.builder import RZ
from ori_dialect.ir.construction import segment_sizes
from ori_dialect.ir.instruction import OriInstruction
from ori_dialect.ir.registers import R32Type
from ori_dialect.ops.control import ExitOp
from ori_dialect.ops.integer import IAdd3Op, MovOp


def _add() -> tuple[IAdd3Op, MovOp]:
    a = MovOp.make([1], [R32Type.unallocated()])
    return IAdd3Op.make([a.results[0], 2, RZ], [R32Type.unallocated()]), a


def test_every_instruction_class_takes_the_fast_path() -> None:
    from ori_dialect.ops import base

    seen = 0
    stack = list(OriInstruction.__subclasses__())
    while stack:
        cls = stack.pop()
        stack += cls.__subclasses__()
        if "name" in cls.__dict__ and hasattr(cls, "get_irdl_definition"):
            assert cls.verify_.__qualname__.startswith("_fast_verify"), cls.name
            seen += 1
    assert seen > 50
    assert base.has_instruction_shape(IAdd3Op)


def test_well_formed_op_verifies() -> None:
    op, _ = _add()
    op.verify_()


def test_unknown_property() -> None:
    op, _ = _add()
    op.properties["bogus"] = UnitAttr()
    with pytest.raises(VerifyException, match="property 'bogus' is not defined by the operation 'ori.iadd3'"):
        op.verify_()


def test_property_of_the_wrong_type() -> None:
    op, _ = _add()
    op.properties["mods"] = IntegerAttr(1, i32)
    with pytest.raises(VerifyException, match="ori.iadd3: property 'mods' must be"):
        op.verify_()


def test_segment_sizes_that_do_not_add_up() -> None:
    op, _ = _add()
    op.properties["operandSegmentSizes"] = segment_sizes(1, 1, 0)
    with pytest.raises(VerifyException, match="do not describe its 1 operands"):
        op.verify_()


def test_operand_that_is_no_register() -> None:
    op, _ = _add()
    other = xdsl_test.TestOp(result_types=[i32])
    op.operands = [other.results[0]]
    with pytest.raises(VerifyException, match="ori.iadd3: operand 0 must be a register"):
        op.verify_()


def test_last_op_of_a_multi_block_region_must_terminate() -> None:
    op, a = _add()
    b1, b2 = Block([a, op]), Block([ExitOp()])
    ModuleOp(Region([b1, b2]))
    with pytest.raises(VerifyException, match="terminates block in multi-block region"):
        op.verify()
