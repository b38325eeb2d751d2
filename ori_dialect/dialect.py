"""The ``ori`` xDSL dialect object."""

from __future__ import annotations

from xdsl.ir import Dialect

from ori_dialect.ir.abi import AbiAttr
from ori_dialect.ir.attrs import CBankAttr, ParamAttr
from ori_dialect.ir.registers import REGISTER_TYPES
from ori_dialect.ops import ALL_OPS

Ori = Dialect("ori", list(ALL_OPS), [*REGISTER_TYPES, CBankAttr, ParamAttr, AbiAttr])
