"""``setp-combine``: a predicate AND/OR/XOR of a compare is the compare's
own combining operation.

Issue 19 item 3 ("the remaining operand forms SASS has") and seed 001
"Pipeline Placement" (phase 13 GeneralOptimizeEarly): ISETP writes
``p = (a CMP b) BOP c`` with ``BOP`` one of AND, OR, XOR and ``c`` any
predicate, negated or not, so ptxas folds PTX's ``setp`` + ``or.pred`` into
one instruction (``ISETP.GE.OR P2, PT, R3, R0, !P0`` in CUB's select
kernels, ``ptxas -arch=sm_80``) where ori wrote ``ISETP`` and ``PLOP3.LUT``.

``y = PLOP3.LUT`` whose table, with its constant (PT) and negated sources
applied, is ``f(x, z) = g(x) BOP h(z)`` -- ``g``, ``h`` the identity or
negation -- where ``x`` is the sole reader's result of an unguarded integer
``ISETP.CMP.AND x, PT, a, b, PT`` (no ``.EX``, second result unread)
becomes ``ISETP.CMP'.BOP y, PT, a, b, h(z)``: ``CMP'`` is ``CMP`` or its
complement (``lt``/``ge``, ``le``/``gt``, ``eq``/``ne``, ``f``/``t``) for
``g``; exact for every input, the complement of an integer compare being
its negation.  Only when the two ops share a block and no op between them
writes an R register (``a`` and ``b`` live on to the PLOP3 where ``x`` did:
with no new R value between, no point gains an R register; common.py
``no_write_between``); ``z`` was read at the PLOP3 anyway.
"""

from __future__ import annotations

from xdsl.dialects.builtin import IntegerAttr
from xdsl.ir import Attribute, SSAValue
from xdsl.pattern_rewriter import PatternRewriter, op_type_rewrite_pattern

from ori_dialect.ops.predicate import ISetPOp, PLop3Op
from passes.general_optimize.common import (
    CountingPattern,
    is_pt,
    no_write_between,
    replace_op,
    unguarded,
)

COMPLEMENT = {"lt": "ge", "ge": "lt", "le": "gt", "gt": "le", "eq": "ne", "ne": "eq",
              "f": "t", "t": "f"}
"""``not (a CMP b)`` as a compare of ``a`` and ``b``."""

_BOPS = {"and": lambda u, v: u & v, "or": lambda u, v: u | v, "xor": lambda u, v: u ^ v}


def _two_input_table(op: PLop3Op) -> tuple[SSAValue, SSAValue, dict[tuple[int, int], int]] | None:
    """``op``'s function of its two variable sources (x, z), the third a
    constant (PT, possibly negated): (x, z, table)."""
    if len(op.results) != 1 or not unguarded(op):
        return None
    vals = op.slot_values()
    smods = op.smod_map()
    lut = next((v for s, v in vals if s.name == "lut"), None)
    if not isinstance(lut, IntegerAttr):
        return None
    srcs: list[SSAValue | bool] = []
    negs: list[int] = []
    for s, v in vals:
        if s.name not in ("a", "b", "c"):
            continue
        neg = 1 if smods.get(s.name) == "not" else 0
        if is_pt(v):
            srcs.append(not neg)
            negs.append(0)
        elif isinstance(v, SSAValue):
            srcs.append(v)
            negs.append(neg)
        else:
            return None
    var = [v for v in srcs if isinstance(v, SSAValue)]
    if len(var) != 2 or var[0] is var[1]:
        return None
    x, z = var
    table: dict[tuple[int, int], int] = {}
    for xv in (0, 1):
        for zv in (0, 1):
            bits = []
            for v, n in zip(srcs, negs, strict=True):
                if isinstance(v, bool):
                    bits.append(int(v))
                else:
                    bits.append((xv if v is x else zv) ^ n)
            table[(xv, zv)] = (lut.value.data >> ((bits[0] << 2) | (bits[1] << 1) | bits[2])) & 1
    return x, z, table


def _as_setp_bop(table: dict[tuple[int, int], int]) -> tuple[bool, str, bool] | None:
    """``table(x, z) == (x ^ gx) BOP (z ^ hz)``: (gx, BOP, hz)."""
    for bop, f in _BOPS.items():
        for gx in (False, True):
            for hz in (False, True):
                if all(table[(xv, zv)] == f(xv ^ gx, zv ^ hz) for xv in (0, 1) for zv in (0, 1)):
                    return gx, bop, hz
    return None


def _plain_compare(v: SSAValue) -> ISetPOp | None:
    """``v`` is the first result of ``ISETP.CMP.AND v, PT, a, b, PT`` (no
    ``.EX``, unguarded, second result unread), read only once."""
    op = v.owner
    if not isinstance(op, ISetPOp) or v.index != 0 or not unguarded(op):  # type: ignore[attr-defined]
        return None
    if op.has_mod("ex") or op.mod("bop") not in (None, "and") or any(r.uses for r in op.results[1:]):
        return None
    if sum(1 for _ in v.uses) != 1:
        return None
    c = op.src("c")
    if not is_pt(c) or op.smod_map().get("c"):
        return None
    return op


class CombineSetp(CountingPattern):
    """``PLOP3(ISETP a, b; z)`` -> ``ISETP.BOP a, b, z`` (module docstring)."""

    ROOTS = (PLop3Op,)

    @op_type_rewrite_pattern
    def match_and_rewrite(self, op: PLop3Op, rewriter: PatternRewriter) -> None:
        found = _two_input_table(op)
        if found is None:
            return
        x0, z0, table = found
        for x, z, tab in ((x0, z0, table), (z0, x0, {(b, a): t for (a, b), t in table.items()})):
            setp = _plain_compare(x)
            if setp is None or setp.parent_block() is not op.parent_block():
                continue
            form = _as_setp_bop(tab)
            if form is None or not no_write_between(setp, op):
                continue
            gx, bop, hz = form
            cmp = setp.mod("cmp")
            assert cmp is not None
            new_cmp = COMPLEMENT[cmp] if gx else cmp
            mods = ".".join(t for t in [new_cmp, setp.mod("sign"), bop] if t)
            vals: list[SSAValue | Attribute] = [v for s, v in setp.slot_values() if s.name in ("a", "b")]
            smods = {k: m for k, m in setp.smod_map().items() if k in ("a", "b")}
            if hz:
                smods["c"] = "not"
            new = ISetPOp.make([*vals, z], [op.results[0].type], mods=mods,  # type: ignore[list-item]
                               smods=smods, attributes=dict(op.attributes))
            replace_op(rewriter, op, new)
            self.counts["setp-combine"] += 1
            return


__all__ = ["COMPLEMENT", "CombineSetp"]
