"""Carrying one root around its loop for ``ori-strength-reduce``: the
initial value in the preheader (the cone cloned on the IVs' initial values,
constants folded), the per-iteration step ``L(s)``, the new header argument
and its latch add, and the ``d + K`` of a family's other roots."""

from __future__ import annotations

from xdsl.dialects.builtin import IntegerAttr
from xdsl.ir import Block, BlockArgument, Operation, OpResult, SSAValue

from ori_dialect.builder import RZ
from ori_dialect.ir.attrs import CBankAttr
from ori_dialect.ir.registers import R32Type
from ori_dialect.ops.control import BraOp
from ori_dialect.ops.integer import IAdd3Op, IMadOp, LeaOp, MovOp, ShfOp
from passes.general_optimize.common import is_rz
from passes.loop_utils import const_u32, rebuild_bra, signed_imm32
from passes.strength_reduce.affine import MASK, Candidates, LoopShape, Step


class Emitter:
    """Builds ops before the preheader's branch."""

    def __init__(self, pre: Block) -> None:
        self.pre = pre
        self.moved: dict[CBankAttr | int, SSAValue] = {}
        self.created: list[Operation] = []

    def add(self, op: Operation) -> SSAValue:
        term = self.pre.last_op  # rebuilt by each reduction: looked up each time
        assert term is not None
        self.pre.insert_op_before(op, term)
        self.created.append(op)
        return op.results[0]

    def reg(self, v: Step | CBankAttr) -> SSAValue:
        """``v`` in a register (an immediate or c[] gets a MOV)."""
        if isinstance(v, SSAValue):
            return v
        if v not in self.moved:
            src = v if isinstance(v, CBankAttr) else signed_imm32(v)
            self.moved[v] = self.add(MovOp.make([src], [R32Type.unallocated()]))
        return self.moved[v]


def _combine(em: Emitter, terms: list[tuple[int, Step]]) -> Step:
    """``sum(sign * t)``: an int when every term is, else one IADD3 (or
    nothing for a single positive register term)."""
    if len(terms) == 1 and terms[0][0] > 0 and not isinstance(terms[0][1], int):
        return terms[0][1]  # a register or c[] stride as it is
    const = sum(sign * t for sign, t in terms if isinstance(t, int)) & MASK
    regs = [(sign, em.reg(t)) for sign, t in terms if not isinstance(t, int)]
    if not regs:
        return const
    if len(regs) == 1 and regs[0][0] > 0 and const == 0:
        return regs[0][1]
    while len(regs) > 2:  # IADD3 has two register slots besides the constant
        (s0, a), (s1, b) = regs[0], regs[1]
        part = IAdd3Op.make([a, RZ, b], [R32Type.unallocated()],
                            smods={k: "neg" for k, s in (("a", s0), ("c", s1)) if s < 0})
        regs = [(1, em.add(part))] + regs[2:]
    (s0, a) = regs[0]
    b: SSAValue | object = regs[1][1] if len(regs) > 1 else RZ
    smods = {"a": "neg"} if s0 < 0 else {}
    if len(regs) > 1 and regs[1][0] < 0:
        smods["c"] = "neg"
    return em.add(IAdd3Op.make([a, signed_imm32(const), b], [R32Type.unallocated()], smods=smods))


def _scale(em: Emitter, x: Step, m: object) -> Step:
    """``x * m`` for an invariant multiplier ``m`` (immediate, c[] or register)."""
    if isinstance(m, IntegerAttr):
        m = m.value.data & MASK
    if isinstance(x, int) and isinstance(m, int):
        return (x * m) & MASK
    if isinstance(x, int):
        x, m = m, x  # type: ignore[assignment]
    if m == 1:
        return x  # type: ignore[return-value]
    if isinstance(x, CBankAttr):
        x = em.reg(x)
    if isinstance(m, int):
        m = signed_imm32(m)
    assert isinstance(x, SSAValue)
    return em.add(IMadOp.make([x, m, RZ], [R32Type.unallocated()]))  # type: ignore[list-item]


def _shift(em: Emitter, x: Step, k: int) -> Step:
    if isinstance(x, int):
        return (x << k) & MASK
    if k == 0:
        return x
    x = em.reg(x)
    return em.add(LeaOp.make([x, RZ, k], [R32Type.unallocated()]))


def _step(op: Operation, c: Candidates, em: Emitter, shape: LoopShape,
          memo: dict[SSAValue, Step]) -> Step:
    """``L(s)``: how much the value of ``op`` grows per iteration."""

    def of(v: SSAValue) -> Step:
        if v in memo:
            return memo[v]
        if isinstance(v, BlockArgument):
            got: Step = shape.strides[v]
        else:
            got = _step(v.op, c, em, shape, memo)  # type: ignore[union-attr]
        memo[v] = got
        return got

    vals = {s.name: v for s, v in op.slot_values()}  # type: ignore[attr-defined]
    dsl = c.srcs[op]
    smods = op.smod_map()  # type: ignore[attr-defined]
    if isinstance(op, IAdd3Op):
        return _combine(em, [(-1 if smods.get(n) == "neg" else 1, of(vals[n])) for n in dsl])
    if isinstance(op, IMadOp):
        x, m = ("a", "b") if "a" in dsl else ("b", "a")
        terms: list[tuple[int, Step]] = [(1, _scale(em, of(vals[x]), vals[m]))]
        if "c" in dsl:
            terms.append((1, of(vals["c"])))
        return _combine(em, terms)
    if isinstance(op, LeaOp):
        k = op.src_int("shift")
        assert k is not None
        terms = [(1, _shift(em, of(vals["a"]), k))]
        if "b" in dsl:
            terms.append((1, of(vals["b"])))
        return _combine(em, terms)
    k = op.src_int("shift" if isinstance(op, ShfOp) else "b")  # type: ignore[attr-defined]
    assert k is not None
    return _shift(em, of(vals[dsl[0]]), k)


def _cone(root: Operation, c: Candidates) -> list[Operation]:
    """The derived ops ``root`` is computed from, sources first."""
    out: list[Operation] = []
    seen: set[Operation] = set()

    def visit(op: Operation) -> None:
        if op in seen:
            return
        seen.add(op)
        vals = {s.name: v for s, v in op.slot_values()}  # type: ignore[attr-defined]
        for n in c.srcs[op]:
            v = vals[n]
            if isinstance(v, OpResult):
                visit(v.op)
        out.append(op)

    visit(root)
    return out


def _const(v: object) -> int | None:
    """The 32-bit constant an operand stands for (immediate, RZ, MOV of an
    immediate), else None."""
    if is_rz(v):
        return 0
    return const_u32(v)


def _fold(op: Operation) -> int | SSAValue | None:
    """The value of the cloned derived op ``op`` when its constant sources
    decide it (a constant, or one of its sources unchanged), else None."""
    vals = {s.name: v for s, v in op.slot_values()}  # type: ignore[attr-defined]
    k = {n: _const(v) for n, v in vals.items()}
    smods = op.smod_map()  # type: ignore[attr-defined]
    if isinstance(op, IAdd3Op):
        const, rest = 0, []
        for n in ("a", "b", "c"):
            x = k[n]
            if x is None:
                rest.append(n)
            elif smods.get(n) == "neg":
                const -= x
            elif smods.get(n) == "not":
                const += ~x
            else:
                const += x
        if not rest:
            return const & MASK
        if len(rest) == 1 and const & MASK == 0 and rest[0] not in smods:
            return vals[rest[0]]  # type: ignore[return-value]
        return None
    if isinstance(op, IMadOp):
        prod = None
        if k["a"] == 0 or k["b"] == 0:
            prod = 0
        elif k["a"] is not None and k["b"] is not None:
            prod = k["a"] * k["b"]
        if prod is None:
            return None
        if k["c"] is not None:
            return (prod + k["c"]) & MASK
        return vals["c"] if prod & MASK == 0 else None  # type: ignore[return-value]
    if isinstance(op, LeaOp):
        sh = op.src_int("shift") or 0
        if k["a"] is None:
            return None
        if k["b"] is not None:
            return ((k["a"] << sh) + k["b"]) & MASK
        return vals["b"] if (k["a"] << sh) & MASK == 0 else None  # type: ignore[return-value]
    name = "lo" if isinstance(op, ShfOp) else "a"
    sh = op.src_int("shift" if isinstance(op, ShfOp) else "b")  # type: ignore[attr-defined]
    if k[name] is None or sh is None:
        return None
    return (k[name] << sh) & MASK


def _init(root: Operation, c: Candidates, shape: LoopShape, em: Emitter) -> SSAValue:
    """``f(init)`` in the preheader: the cone cloned with every IV replaced by
    its initial value, what constant sources decide folded away."""
    mapping: dict[SSAValue, SSAValue] = {iv: shape.init(iv) for iv in shape.strides}
    for op in _cone(root, c):
        clone = op.clone(value_mapper=dict(mapping))
        got = _fold(clone)
        if isinstance(got, SSAValue):
            clone.erase()
            mapping[op.results[0]] = got
        elif isinstance(got, int):
            clone.erase()
            mapping[op.results[0]] = em.reg(got)
        else:
            mapping[op.results[0]] = em.add(clone)
    return mapping[root.results[0]]


def carry(root: Operation, c: Candidates, shape: LoopShape, em: Emitter,
            memo: dict[SSAValue, Step]) -> BlockArgument:
    init = _init(root, c, shape, em)
    step = _step(root, c, em, shape, memo)
    header = shape.header
    d = header.insert_arg(R32Type.unallocated(), len(header.args))
    d.name_hint = "sr"
    inc = IAdd3Op.make([d, signed_imm32(step) if isinstance(step, int) else step, RZ],  # type: ignore[list-item]
                       [R32Type.unallocated()])
    lterm = shape.latch.last_op
    assert isinstance(lterm, BraOp)
    shape.latch.insert_op_before(inc, lterm)
    root.results[0].replace_all_uses_with(d)
    # edges: the preheader passes f(init), the latch d + L(s)
    pterm = shape.preheader.last_op
    assert isinstance(pterm, BraOp)
    rebuild_bra(pterm, args=[list(pterm.edge_args(0)) + [init]])
    lterm = shape.latch.last_op
    assert isinstance(lterm, BraOp)
    args = [list(lterm.edge_args(k)) for k in range(len(lterm.successors))]
    args[shape.back_slot].append(inc.results[0])
    rebuild_bra(lterm, args=args)
    return d


def offset_from(root: Operation, leader: BlockArgument, diff: int) -> None:
    """Read ``leader + diff`` where ``root`` was read: nothing new when the
    difference is 0, else one IADD3 in ``root``'s place."""
    if diff == 0:
        root.results[0].replace_all_uses_with(leader)
        return
    add = IAdd3Op.make([leader, signed_imm32(diff), RZ], [R32Type.unallocated()])
    block = root.parent_block()
    assert block is not None
    block.insert_op_before(add, root)
    root.results[0].replace_all_uses_with(add.results[0])


def sweep(ops: list[Operation]) -> int:
    """Erase the ops of ``ops`` nothing reads (users first); the count."""
    gone = 0
    for op in reversed(ops):
        if op.parent_block() is not None and not any(r.uses for r in op.results):
            op.detach()
            op.erase()
            gone += 1
    return gone


