"""``fold``: an instruction whose sources are all constants becomes its value.

Seed 001 "Pipeline Placement" (phase 13 GeneralOptimizeEarly, "const fold").
An unguarded op of a ``FOLDABLE`` class (the integer and predicate families,
float compares excepted: docs/architecture.md "Op facts") whose sources are
immediates, RZ/PT or values of constant-producing ops is evaluated by the
interpreter's own semantics (``fold_op``, bit-exact by construction); its used
results become ``MOV imm`` (32-bit), ``PACK imm, imm`` (64-bit) or
``PLOP3.LUT PT, PT, PT, 0xff|0x0`` (predicates), which const-prop then
writes into the users' slots.
"""

from __future__ import annotations

from typing import Any

import numpy as np
from xdsl.ir import Operation, SSAValue
from xdsl.pattern_rewriter import PatternRewriter

from ori_dialect.interpreter.semantics.fold import fold_op
from ori_dialect.ir.instruction import OriInstruction
from ori_dialect.ir.registers import PredType, R32Type, R64Type
from ori_dialect.ops.integer import MovOp, PackOp
from ori_dialect.ops.predicate import PLop3Op
from passes.general_optimize.common import CountingPattern, before, known, materialise, unguarded


class ConstantFolding(CountingPattern):
    """A ``FOLDABLE`` op with constant sources -> constant-producing ops."""

    ROOTS = (OriInstruction,)

    def match_and_rewrite(self, op: Operation, rewriter: PatternRewriter) -> None:
        if not isinstance(op, OriInstruction):
            return
        srcs = self._sources(op)
        if srcs is None:
            return
        out = fold_op(op, srcs)
        if out is None:
            return
        news: list[Operation] = []
        repl: list[tuple[SSAValue, SSAValue]] = []
        for r, res in zip(op.results, out):
            if not r.uses:
                continue
            x = np.asarray(res).reshape(-1)[0]
            if isinstance(r.type, PredType):
                pt = PredType.fixed()
                new: Operation = PLop3Op.make([pt, pt, pt, 0xFF if bool(x) else 0x00], [r.type])
            elif isinstance(r.type, R32Type):
                new = MovOp.make([int(x) & 0xFFFFFFFF], [r.type])
            else:
                w = int(x) & 0xFFFFFFFFFFFFFFFF
                new = PackOp.make([w & 0xFFFFFFFF, w >> 32], [r.type])
            new.verify()
            news.append(new)
            repl.append((r, new.results[0]))
        rewriter.insert(news, before(op))
        for r, v in repl:
            rewriter.replace_all_uses_with(r, v)
        self.counts["folded"] += 1

    @staticmethod
    def _sources(op: OriInstruction) -> list[Any] | None:
        """The materialised constant sources of a foldable ``op``; None when
        it is not foldable here."""
        cls = type(op)
        if (
            not cls.FOLDABLE
            or not unguarded(op)
            or not cls.is_side_effect_free()
            or cls.MEM.reads
            or not op.results
            or not any(r.uses for r in op.results)
        ):
            return None
        if len(op.results) == 1 and known(op.results[0]) is not None:
            return None  # already the constant form (PLOP3 PT, PT, PT, 0xff)
        vals = op.slot_values()
        if not vals:
            return None
        smods = op.smod_map()
        srcs: list[Any] = []
        for slot, v in vals:
            if slot.imm in ("f32", "f64"):
                return None  # float operands: not folded
            x = known(v) if isinstance(v, SSAValue) else materialise(op, slot, v)
            if x is None:
                return None
            if isinstance(x, np.bool_) and "not" in smods.get(slot.name, "").split("."):
                x = np.bool_(not x)  # the interpreter applies a predicate's 'not' before the call
            srcs.append(x)
        for r in op.results:
            if r.uses and not isinstance(r.type, R32Type | R64Type | PredType):
                return None
        return srcs


__all__ = ["ConstantFolding"]
