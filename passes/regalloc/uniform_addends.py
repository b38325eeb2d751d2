"""Products added to one uniform value: one ``MOV r, ur`` and fused IMADs.

``IMAD x, a, c[][], RZ`` then ``IADD3 y, x, UR, RZ`` is the form a
loop-invariant row offset takes once ``ori-remat-block`` recomputed it
inside the loop and ``ori-uniform`` had kept the loop's running offset in
a uniform register: the add cannot take the product into an ``IMAD``
(``passes.general_optimize.imad_add``), because SASS's ``IMAD`` reads at
most one operand that is not a GPR and ``c[][]`` already is one.  ptxas's
K loops compute the same sums as ``IMAD R58, R3, c[0x0][0x18c], R51``
with the running offset in a GPR (Triton's ``matmul_bf16``, sm_80: four
such ``IMAD`` per iteration; ori wrote four pairs).

Where two or more such pairs in one block add the same uniform value, one
``MOV r, UR`` into a GPR that is free over the whole stretch (from the
first add to the last) lets each pair become ``IMAD y, a, c[][], r``: n
pairs, 2n instructions, become n + 1.  The register is taken from the
allowed ones below the function's highest register in use, so the count,
and with it the occupancy, never changes, and no live range moves: the
allocation stays valid for ``ori-check-regalloc``.  A pair is fused only
where nothing between the ``IMAD`` and the add overwrites ``a``, since
the fused ``IMAD`` reads it at the add.  Kernels only: in a device
function a register not used before may be one its caller expects
preserved, which would cost a save.  ori's rule; the seeds describe no
such step (ptxas never forms the pairs: its running offset stays in a
GPR).

Input invariants: an allocated function, edge copies lowered.
"""

from __future__ import annotations

from collections import defaultdict

from xdsl.ir import Block, Operation, SSAValue
from xdsl.rewriter import Rewriter

from ori_dialect.analysis.cfg import CFG
from ori_dialect.analysis.liveness import Liveness
from ori_dialect.ir.registers import OriRegisterType, R32Type, RegFile, UR32Type
from ori_dialect.ops.func import FuncOp
from ori_dialect.ops.integer import IAdd3Op, IMadOp, MovOp
from passes.general_optimize.imad_add import product

Pair = tuple[IMadOp, IAdd3Op, SSAValue]
"""The ``IMAD`` (product), the add reading it, the add's uniform term."""


def _r_regs(v: SSAValue) -> range:
    t = v.type
    if isinstance(t, OriRegisterType) and t.REG_FILE is RegFile.R:
        return t.phys_range()
    return range(0)


def _pair(add: Operation) -> Pair | None:
    """``add`` as ``IADD3 y, (IMAD a, b, RZ), u, RZ`` with ``u`` a uniform
    register and the product read by ``add`` alone, in its block."""
    if not isinstance(add, IAdd3Op) or len(add.results) != 1 or not add.is_plain():
        return None
    if add.has_mod("x"):
        return None
    vals = [v for _, v in add.slot_values() if isinstance(v, SSAValue)]
    consts = [v for _, v in add.slot_values() if not isinstance(v, SSAValue)]
    if len(vals) != 2 or any(not (isinstance(c, R32Type) and c.is_fixed) for c in consts):
        return None
    for x, u in (vals, vals[::-1]):
        mul = x.owner
        if (isinstance(mul, IMadOp) and isinstance(u.type, UR32Type)
                and mul.parent is add.parent and product(mul) is not None
                and sum(1 for _ in x.uses) == 1):
            return mul, add, u
    return None


def _a_intact(ops: list[Operation], pos: dict[Operation, int], mul: IMadOp,
              add: IAdd3Op) -> bool:
    """Nothing between ``mul`` and ``add`` writes the registers of ``a``."""
    ab = product(mul)
    assert ab is not None
    regs = set(_r_regs(ab[0]))
    for op in ops[pos[mul] + 1:pos[add]]:
        for r in op.results:
            if regs & set(_r_regs(r)):
                return False
    return True


def _free_register(ops: list[Operation], lo: int, hi: int, lv: Liveness,
                   allowed: list[int], top: int) -> int | None:
    """The lowest allowed R register below ``top`` that no value occupies
    and no op writes from before ``ops[lo]`` through ``ops[hi]``."""
    busy: set[int] = set()
    for op in ops[lo:hi + 1]:
        for v in lv.live_before(op):
            busy.update(_r_regs(v))
        for v in list(op.results) + list(op.operands):
            busy.update(_r_regs(v))
    return next((r for r in allowed if r < top and r not in busy), None)


def _fuse_block(block: Block, lv: Liveness, allowed: list[int], top: int) -> int:
    ops = list(block.ops)
    pos = {op: i for i, op in enumerate(ops)}
    groups: dict[SSAValue, list[Pair]] = defaultdict(list)
    for op in ops:
        p = _pair(op)
        if p is not None and _a_intact(ops, pos, p[0], p[1]):
            groups[p[2]].append(p)
    # registers are chosen before anything changes (the liveness is of the
    # block as allocated); groups whose stretches overlap take different ones
    plans: list[tuple[list[Pair], int]] = []
    taken: list[tuple[int, int, int]] = []
    for pairs in groups.values():
        if len(pairs) < 2:
            continue
        first, last = pos[pairs[0][1]], pos[pairs[-1][1]]
        also = {r for lo, hi, r in taken if lo <= last and first <= hi}
        reg = _free_register(ops, first, last, lv, [r for r in allowed if r not in also], top)
        if reg is not None:
            plans.append((pairs, reg))
            taken.append((first, last, reg))
    for pairs, reg in plans:
        mov = MovOp.make([pairs[0][2]], [R32Type.physical(reg)])
        block.insert_op_before(mov, pairs[0][1])
        for mul, add, _ in pairs:
            ab = product(mul)
            assert ab is not None
            new = IMadOp.make([ab[0], ab[1], mov.results[0]], [add.results[0].type])
            new.verify()
            Rewriter.replace_op(add, new)
            Rewriter.erase_op(mul)
    return sum(len(pairs) - 1 for pairs, _ in plans)


def fuse_uniform_addends(func: FuncOp, allowed: list[int], top: int) -> int:
    """Rewrite ``func``'s pairs (module docstring); returns the instructions
    saved.  ``allowed``: the R registers the allocation may use; ``top``:
    the highest one it used + 1 (what the register count is made from)."""
    if not func.is_kernel:
        return 0
    cfg = CFG.compute(func)
    if not any(_pair(op) for b in cfg.blocks for op in b.ops):
        return 0
    lv = Liveness(cfg)
    return sum(_fuse_block(b, lv, sorted(allowed), top) for b in cfg.blocks)


__all__ = ["fuse_uniform_addends"]
