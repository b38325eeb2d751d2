"""Building xDSL operations without ``Operation.__init__``'s overhead.

Op construction dominates PTX import (docs/architecture.md "IR model"); the
helpers here build an op exactly as ``Operation.create`` would, setting the
dataclass fields directly where that is known to be equivalent.  They know
nothing of Ori's slots: ``OriInstruction.make`` and the PTX lowering call them.
"""

from __future__ import annotations

import dataclasses
import functools
from collections.abc import Sequence
from typing import Any

from xdsl.dialects.builtin import UNKNOWN_LOC, DenseArrayBase, i32
from xdsl.ir import Attribute, Block, BlockArgument, Operation, OpResult, SSAValue, SSAValues, Use
from xdsl.ir.core import IRWithUses
from xdsl.irdl import IRDLOperation
from xdsl.irdl.operations import OptionalDef

# id of each attribute segment_sizes made -> its three sizes.  The cache
# below keeps those attributes alive, so an id is never reused; reading the
# sizes back through DenseArrayBase.get_values unpacks bytes on every call
# (a quarter of ori-general-optimize's time on Thrust's kernels, issue 20).
_MADE_SIZES: dict[int, tuple[int, int, int]] = {}


@functools.cache
def segment_sizes(n_src: int, n_guard: int, n_prior: int) -> Attribute:
    attr = DenseArrayBase.from_list(i32, (n_src, n_guard, n_prior))
    _MADE_SIZES[id(attr)] = (n_src, n_guard, n_prior)
    return attr


def segment_values(seg: Attribute) -> Sequence[int]:
    """The sizes in an ``operandSegmentSizes`` property: looked up for the
    attributes :func:`segment_sizes` made, unpacked for others (parsed ops)."""
    known = _MADE_SIZES.get(id(seg))
    if known is not None:
        return known
    if not isinstance(seg, DenseArrayBase):
        return seg.get_values()  # type: ignore[attr-defined]
    raw = seg.data.data
    vals = _RAW_SIZES.get(raw)
    if vals is None:
        vals = _RAW_SIZES[raw] = tuple(seg.get_values())  # type: ignore[arg-type]
    return vals


_RAW_SIZES: dict[bytes, tuple[int, ...]] = {}
"""The sizes of parsed ``operandSegmentSizes`` properties, by their bytes
(a handful of distinct ones)."""


# ----------------------------------------------------------------------
# fast construction
# ----------------------------------------------------------------------
# Operation.__init__ runs the dataclass __init__ (defaults, then
# IRDLOperation.__post_init__), the operand/successor setters and
# __post_init__ again; for an instruction with no defaulted property or
# attribute that is the same as setting the fields directly, at about half
# the cost (op construction dominates PTX import).  Used only while xDSL's
# Operation has exactly the fields below and the class adds no
# __post_init__ of its own; otherwise make() goes through Operation.create.
_OPERATION_FIELDS = (
    "_operands", "_operand_uses", "results", "_successors", "_successor_uses",
    "properties", "attributes", "location", "regions", "parent", "_next_op", "_prev_op",
)


_FIELDS_MATCH = tuple(f.name for f in dataclasses.fields(Operation)) == _OPERATION_FIELDS


_FAST_OK: dict[type, bool] = {}


def fast_init_ok(cls: type[IRDLOperation]) -> bool:
    ok = _FAST_OK.get(cls)
    if ok is None:
        op_def = cls.get_irdl_definition()
        defaulted = [
            d
            for d in (*op_def.properties.values(), *op_def.attributes.values())
            if not isinstance(d, OptionalDef) and d.default_value is not None
        ]
        ok = _FAST_OK[cls] = (
            _FIELDS_MATCH
            and cls.__post_init__ is IRDLOperation.__post_init__
            and not defaulted
        )
    return ok


def fast_create(
    cls: type[IRDLOperation],
    operands: Sequence[SSAValue],
    result_types: Sequence[Attribute],
    props: dict[str, Attribute],
    attributes: dict[str, Attribute],
    successors: Sequence[Block] = (),
) -> Any:
    """A new ``cls`` op, as ``Operation.create`` builds it (no regions, unknown
    location); only for classes :func:`fast_init_ok` accepts."""
    op = cls.__new__(cls)
    op._operands = SSAValues(operands)
    op._operand_uses = _add_uses(op, operands)
    if len(result_types) == 1:
        op.results = SSAValues((OpResult(result_types[0], op, 0),))
    else:
        op.results = SSAValues([OpResult(t, op, i) for i, t in enumerate(result_types)])
    op._successors = tuple(successors)
    op._successor_uses = _add_uses(op, successors) if successors else ()
    op.properties = props
    op.attributes = dict(attributes)
    op.location = UNKNOWN_LOC
    op.regions = ()
    op.parent = None
    op._next_op = None
    op._prev_op = None
    return op


def create_op(
    cls: type[IRDLOperation],
    operands: Sequence[SSAValue],
    properties: dict[str, Attribute],
    successors: Sequence[Block] = (),
    result_types: Sequence[Attribute] = (),
) -> Any:
    """``cls.create(...)`` with the unknown location, no attributes and no
    regions, through the fast path where :func:`fast_init_ok` allows it."""
    ok = _FAST_OK.get(cls)
    if ok is None:
        ok = fast_init_ok(cls)  # type: ignore[arg-type]
    if ok:
        return fast_create(cls, operands, result_types, properties, {}, successors)  # type: ignore[arg-type]
    return cls.create(
        operands=operands,
        result_types=result_types,
        properties=properties,
        successors=successors,
        location=UNKNOWN_LOC,
    )


def _add_uses(op: Operation, values: Sequence[IRWithUses]) -> tuple[Use, ...]:
    # IRWithUses.add_use, inlined: each new use goes to the front of its
    # value's use list, in operand order.
    uses: list[Use] = []
    for i, v in enumerate(values):
        first = v.first_use
        u = Use(op, i, None, first)
        if first is not None:
            first._prev_use = u  # pyright: ignore[reportPrivateUsage]
        v.first_use = u
        uses.append(u)
    return tuple(uses)


def as_value(v: SSAValue | Operation) -> SSAValue:
    # SSAValue.get runs a generic type check; values (the usual case) pass as they are.
    tp = type(v)
    if tp is OpResult or tp is BlockArgument or isinstance(v, SSAValue):
        return v  # type: ignore[return-value]
    return SSAValue.get(v)


__all__ = ["as_value", "create_op", "fast_create", "fast_init_ok", "segment_sizes"]
