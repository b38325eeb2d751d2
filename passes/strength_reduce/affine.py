"""What ``ori-strength-reduce`` can carry around a loop: the loop's shape
and basic IVs, the derived values affine in them (modulo 2^32), their roots,
which roots pay for themselves, and which differ only by a constant
(the package docstring has the rules)."""

from __future__ import annotations

from collections import Counter
from dataclasses import dataclass, field

from xdsl.dialects.builtin import IntegerAttr
from xdsl.ir import Block, BlockArgument, Operation, OpResult, SSAValue

from ori_dialect.analysis.cfg import CFG
from ori_dialect.analysis.loops import Loop
from ori_dialect.ir.attrs import CBankAttr
from ori_dialect.ir.instruction import OriInstruction
from ori_dialect.ir.registers import R32Type
from ori_dialect.ops.control import BraOp
from ori_dialect.ops.integer import IAdd3Op, IMadOp, LeaOp, ShfOp, ShlOp
from passes.general_optimize.common import is_rz

MASK = 0xFFFFFFFF

Step = int | SSAValue | CBankAttr
"""A stride: a 32-bit constant, a constant-bank word or a register value
defined before the loop."""

@dataclass
class LoopShape:
    """A canonical loop's blocks and edges, and its basic IVs."""

    loop: Loop
    blocks: set[Block]
    header: Block
    preheader: Block
    latch: Block
    back_slot: int
    strides: dict[BlockArgument, int | SSAValue | CBankAttr] = field(default_factory=dict)
    increments: set[Operation] = field(default_factory=set)

    def invariant(self, v: object) -> bool:
        """``v`` is the same on every iteration: a constant or a value defined
        outside the loop."""
        if isinstance(v, BlockArgument):
            return v.block not in self.blocks
        if isinstance(v, OpResult):
            return v.op.parent_block() not in self.blocks
        return True

    def init(self, iv: BlockArgument) -> SSAValue:
        term = self.preheader.last_op
        assert isinstance(term, BraOp)
        return term.edge_args(0)[iv.index]


def loop_shape(cfg: CFG, lp: Loop) -> LoopShape | str:
    """The loop's shape, or why it is not canonical."""
    if lp.preheader is None or len(lp.latches) != 1:
        return "no dedicated preheader or several latches (run ori-loop-simplify first)"
    blocks = {cfg.blocks[b] for b in lp.blocks}
    header, pre, latch = cfg.blocks[lp.header], cfg.blocks[lp.preheader], cfg.blocks[lp.latches[0]]
    pterm, lterm = pre.last_op, latch.last_op
    if not isinstance(pterm, BraOp) or pterm.guard is not None or not isinstance(lterm, BraOp):
        return "the preheader or the latch does not end in an ori.bra"
    slots = [k for k, s in enumerate(lterm.successors) if s is header]
    if len(slots) != 1:
        return "the latch branches to the header on both sides"
    shape = LoopShape(lp, blocks, header, pre, latch, slots[0])
    back = lterm.edge_args(slots[0])
    for arg, nxt in zip(header.args, back):
        if not isinstance(arg.type, R32Type) or not isinstance(nxt, OpResult):
            continue
        op = nxt.op
        if (not isinstance(op, IAdd3Op) or op.guard is not None or op.has_mod("x")
                or op.smod_map() or len(op.results) != 1):
            continue
        srcs = [x for _, x in op.slot_values()]
        regs = [x for x in srcs if isinstance(x, SSAValue)]
        others = [x for x in srcs if x is not arg and not is_rz(x)]
        if regs.count(arg) != 1 or len(others) != 1 or not shape.invariant(others[0]):
            continue
        stride = others[0]
        if isinstance(stride, IntegerAttr):
            shape.strides[arg] = stride.value.data & MASK
        elif isinstance(stride, SSAValue | CBankAttr):
            shape.strides[arg] = stride
        else:
            continue
        shape.increments.add(op)
    return shape


def _derived_sources(op: Operation, shape: LoopShape, derived: dict[SSAValue, Operation | None]
                     ) -> list[str] | None:
    """The slots of ``op`` that read a derived value when ``op`` computes an
    affine function of the IVs (module docstring), else None."""
    if (not isinstance(op, OriInstruction) or op.guard is not None or len(op.results) != 1
            or op in shape.increments or not isinstance(op.results[0].type, R32Type)):
        return None
    vals = {s.name: v for s, v in op.slot_values()}
    smods = op.smod_map()

    def d(name: str) -> bool:
        v = vals.get(name)
        return isinstance(v, SSAValue) and v in derived

    def inv(name: str) -> bool:
        return name not in vals or shape.invariant(vals[name])

    if isinstance(op, IAdd3Op):
        if op.has_mod("x"):
            return None
        slots = [n for n in ("a", "b", "c") if d(n)]
        if not slots or any(smods.get(n, "neg") != "neg" for n in slots):
            return None
        return slots if all(d(n) or inv(n) for n in ("a", "b", "c")) else None
    if smods:
        return None
    if isinstance(op, IMadOp):
        if op.mod("mode") != "lo" or op.has_mod("x") or (d("a") == d("b")):
            return None
        if not (inv("a") or inv("b")) or not (d("c") or inv("c")):
            return None
        return [n for n in ("a", "b", "c") if d(n)]
    if isinstance(op, LeaOp):
        if op.has_mod("hi") or op.has_mod("x") or not d("a") or not (d("b") or inv("b")):
            return None
        return [n for n in ("a", "b") if d(n)]
    if isinstance(op, ShfOp):
        k = op.src_int("shift")
        if (op.mod("dir") != "l" or op.has_mod("hi") or k is None or not 0 <= k < 32
                or not d("lo") or not inv("hi")):
            return None
        return ["lo"]
    if isinstance(op, ShlOp):
        k = op.src_int("b")
        return ["a"] if d("a") and k is not None and 0 <= k < 32 else None
    return None


@dataclass
class Candidates:
    """The derived ops of one loop (program order) and their roots."""

    ops: list[Operation]
    srcs: dict[Operation, list[str]]
    roots: list[Operation]
    wide: int
    """IMAD.WIDE reading a derived value or an IV (reported, not reduced)."""


def candidates(shape: LoopShape, order: list[Block]) -> Candidates:
    derived: dict[SSAValue, Operation | None] = {iv: None for iv in shape.strides}
    ops: list[Operation] = []
    srcs: dict[Operation, list[str]] = {}
    # Dominance order: a derived op's derived sources come before it (SSA), so
    # one walk over the loop's blocks in reverse post-order classifies all.
    for b in order:
        for op in b.ops:
            s = _derived_sources(op, shape, derived)
            if s is not None:
                derived[op.results[0]] = op
                ops.append(op)
                srcs[op] = s
    dset = set(ops)
    roots = [op for op in ops if any(u.operation not in dset for u in op.results[0].uses)]
    wide = sum(1 for b in order for op in b.ops
               if isinstance(op, IMadOp) and op.mod("mode") == "wide"
               and any(isinstance(v, SSAValue) and v in derived for v in (op.src("a"), op.src("b"))))
    return Candidates(ops, srcs, roots, wide)


def _alive(c: Candidates, reduced: set[Operation]) -> set[Operation]:
    """The derived ops still needed when the roots ``reduced`` are carried."""
    live: set[Operation] = set()
    for op in reversed(c.ops):  # users come after their sources
        if op in reduced:
            continue
        if op in c.roots or any(u.operation in live for u in op.results[0].uses):
            live.add(op)
    return live


def select_roots(c: Candidates, min_gain: int) -> list[Operation]:
    """Roots to reduce (module docstring, "Profitability")."""
    reduced: set[Operation] = set()
    live = _alive(c, reduced)
    changed = True
    while changed:
        changed = False
        for r in c.roots:
            if r in reduced:
                continue
            after = _alive(c, reduced | {r})
            if len(live) - len(after) - 1 >= min_gain:
                reduced.add(r)
                live = after
                changed = True
    return [r for r in c.roots if r in reduced]


def _key(v: object, memo: dict[SSAValue, object]) -> object:
    """A structural key of a derived value: equal keys compute equal values
    (the same ops on the same IVs and invariant operands)."""
    if not isinstance(v, SSAValue):
        return ("const", v)
    if v in memo:
        return memo[v]
    op = v.owner
    if isinstance(v, BlockArgument) or not isinstance(op, OriInstruction):
        got: object = ("value", id(v))
    elif isinstance(op, IAdd3Op):
        return ("sum", _sum_terms(op, memo)[0])
    else:
        smods = op.smod_map()
        got = (op.name, op.mod_tokens(),
               tuple((sl.name, smods.get(sl.name), _key(x, memo)) for sl, x in op.slot_values()))
    memo[v] = got
    return got


def _sum_terms(op: IAdd3Op, memo: dict[SSAValue, object]) -> tuple[frozenset[object], int]:
    """An IADD3 as (its non-constant terms, as a multiset of keys; the sum of
    its immediate terms)."""
    smods = op.smod_map()
    terms: Counter[object] = Counter()
    const = 0
    for sl, x in op.slot_values():
        mod = smods.get(sl.name)
        if isinstance(x, IntegerAttr) and mod in (None, "neg"):
            const += -x.value.data if mod == "neg" else x.value.data
        elif not is_rz(x):
            terms[(mod, _key(x, memo))] += 1
    return frozenset(terms.items()), const & MASK


def family(root: Operation, memo: dict[SSAValue, object]) -> tuple[object, int]:
    """Roots with the same family key differ by a constant: (key, constant)."""
    if isinstance(root, IAdd3Op):
        terms, const = _sum_terms(root, memo)
        return ("sum", terms), const
    return _key(root.results[0], memo), 0


