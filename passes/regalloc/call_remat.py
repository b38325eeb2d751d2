"""Values live across a call recomputed after it: before allocation, a
value the call would make the caller keep in a register its callee leaves
alone is computed again after the call from values that stay live across
it anyway, where that lowers the function's register count.  Option
``call-remat`` of ``ori-regalloc`` (ori; the seeds give no such rule).

A value live across a call may not take a register the callee may
overwrite (passes/regalloc/abi.py): it sits above the callee's registers,
so the function needs the callee's registers plus one per such value.
ptxas gives an internal device function a convention of its own around
its callers' live values (passes/abi/__init__.py); ori keeps the
convention of seed 003 and instead shortens what lives across the call.
``device_calls`` (examples/cuda/calls.cu) keeps ``i``, ``&a[i]`` and
``&e[i]`` across ``mix7``, whose registers are R0 and R3-R13: R2, R14:R15
and R16:R17, 20 registers (ptxas 18).  The two addresses are one
``IMAD.WIDE`` of ``i`` each (with a ``MOV`` of the scale 4); computed
again after the call only ``i`` crosses it: 16 registers for four
instructions.

**Which values.**  At each call, a value live before and after it (not a
result of it) in the R or P file -- the files calls clobber -- when

* its definition may be recomputed anywhere (the allocator's own remat
  verdict, :func:`.remat.clonable`, which is the machine-level remat pass's
  :func:`passes.remat_block.candidates.def_check` -- no memory but the
  constant bank, speculatable, not volatile -- and no uniform-datapath form,
  as a call may sit in divergent code), and is no calling-convention copy;
* every register it reads is live across the call too (so reading it
  after the call lengthens no live range), or is a constant whose
  definition reads no register (:func:`.remat.remat_source`), cloned with
  it -- at most :data:`passes.regalloc.abi.SAVE_LIMIT` instructions in
  all: seed 003 costs a caller-save chain by its length up to that limit
  (alloc+1544, knob 680), and a longer recomputation is no cheaper than
  the save;
* every use reachable after the call is dominated by it: later in the
  call's block or in a block the call's block dominates.  Otherwise the
  value stays live across the call whatever the clone does.

The clone goes right before the first such use in the call's block (its
terminator when none is there); those uses read it.  A value nothing
reads before the call any more loses its original definition: it moved.

**When.**  Recomputing costs instructions and frees registers only where
the call's values set the function's count, which the allocation alone
knows (the callee's registers come from its own allocation).  So
:func:`allocate_trying` allocates the function both ways and keeps the
rewritten one only when it needs fewer R registers and no more spill code,
or as many registers and less spill code (in a device function a value
across a call takes a preserved register, saved and restored); otherwise
the original allocation stands, its remarks the only ones printed.

Input invariants: SSA ``ori.func`` bodies with virtual registers (after
``ori-abi``, or without it: the rule needs no pre-colouring).
"""

from __future__ import annotations

import contextlib
import io
import sys
from collections.abc import Callable

from xdsl.dialects.builtin import ModuleOp
from xdsl.ir import Block, Operation, OpResult, SSAValue
from xdsl.utils.exceptions import PassFailedException

from ori_dialect.analysis.cfg import CFG
from ori_dialect.analysis.dominators import DominatorTree
from ori_dialect.analysis.liveness import Liveness
from ori_dialect.ir.registers import OriRegisterType, RegFile
from ori_dialect.ops.control import CallOp
from ori_dialect.ops.func import FuncOp
from passes.abi.lower import ABI_COPY_ATTR
from passes.contract import emit_remark
from passes.regalloc.abi import SAVE_LIMIT
from passes.regalloc.remat import clonable, remat_source
from passes.regalloc.result import FunctionResult

_FILES = (RegFile.R, RegFile.P)


def _calls(func: Operation) -> list[CallOp]:
    return [op for op in func.walk() if isinstance(op, CallOp)]


def _recomputable(v: SSAValue) -> bool:
    if not isinstance(v, OpResult) or not isinstance(v.type, OriRegisterType):
        return False
    if v.type.REG_FILE not in _FILES or ABI_COPY_ATTR in v.op.attributes:
        return False
    return clonable(v)


def _chain(v: OpResult, across: set[SSAValue]) -> list[Operation] | None:
    """The constant definitions to clone ahead of ``v``'s, or None when an
    operand is neither live across the call nor such a constant."""
    chain: list[Operation] = []
    for o in v.op.operands:
        if o in across:
            continue
        src = remat_source(o)
        if src is None or src in chain:
            return None
        chain.append(src)
    return chain if len(chain) + 1 <= SAVE_LIMIT else None


class _CallSite:
    """One call's block, what follows it and what it dominates."""

    def __init__(self, call: CallOp, cfg: CFG, dom: DominatorTree) -> None:
        block = call.parent_block()
        assert block is not None
        self.call = call
        self.block = block
        self.b = cfg.index[block]
        self.cfg = cfg
        self.dom = dom
        # blocks some path from after the call reaches (the call's own block
        # again only around a cycle)
        seen: set[int] = set()
        work = list(cfg.succs[self.b])
        while work:
            x = work.pop()
            if x not in seen:
                seen.add(x)
                work.extend(cfg.succs[x])
        self.reach = seen

    def after_uses(self, v: SSAValue) -> list[Operation] | None:
        """The users of ``v`` the call dominates, or None when another use
        is reachable after the call."""
        pos = {op: k for k, op in enumerate(self.block.ops)}
        at = pos[self.call]
        out: list[Operation] = []
        for use in v.uses:
            user = use.operation
            ub = user.parent_block()
            if ub is self.block:
                if pos[user] > at:
                    out.append(user)
                elif self.b in self.reach:
                    return None
                continue
            u = self.cfg.index.get(ub) if ub is not None else None
            if u is None:
                return None
            if self.dom.strictly_dominates(self.b, u):
                out.append(user)
            elif u in self.reach:
                return None
        return list(dict.fromkeys(out))

    def insertion_point(self, users: list[Operation]) -> Operation:
        here = [u for u in users if u.parent_block() is self.block]
        if here:
            pos = {op: k for k, op in enumerate(self.block.ops)}
            return min(here, key=pos.__getitem__)
        last = self.block.last_op
        assert last is not None
        return last


def _recompute(v: OpResult, chain: list[Operation], users: list[Operation],
               before: Operation) -> None:
    block: Block | None = before.parent_block()
    assert block is not None
    mapping: dict[SSAValue, SSAValue] = {}
    for d in chain:
        dc = d.clone()
        block.insert_op_before(dc, before)
        mapping[d.results[0]] = dc.results[0]
    clone = v.op.clone(value_mapper=mapping)
    block.insert_op_before(clone, before)
    new = clone.results[v.index]
    new.name_hint = v.name_hint
    for user in users:
        for k, o in enumerate(user.operands):
            if o is v:
                user.operands[k] = new
    if not any(r.uses for r in v.op.results):
        v.op.detach()
        v.op.erase()
        for d in chain:
            if not d.results[0].uses:
                d.detach()
                d.erase()


def recompute_after_calls(func: FuncOp) -> int:
    """Recompute after each call the values live across it that qualify
    (module docstring); returns how many."""
    made = 0
    analyses: tuple[CFG, DominatorTree, Liveness] | None = None
    for call in _calls(func):
        if analyses is None:
            cfg = CFG.compute(func)
            analyses = (cfg, DominatorTree(cfg), Liveness(cfg))
        cfg, dom, lv = analyses
        if call.parent_block() not in cfg.index:
            continue
        site = _CallSite(call, cfg, dom)
        across = lv.live_before(call) & lv.live_after(call)
        across.difference_update(call.results)
        # latest definition first: a value computed from another one that is
        # recomputed here too reads the other's clone (made later, placed
        # before its first reader after the call, which is this clone)
        for v in sorted(across, key=_order_key(func), reverse=True):
            if not isinstance(v, OpResult) or not _recomputable(v):
                continue
            chain = _chain(v, across)
            if chain is None:
                continue
            users = site.after_uses(v)
            if not users:
                continue
            _recompute(v, chain, users, site.insertion_point(users))
            made += 1
            analyses = None
    return made


def _order_key(func: FuncOp) -> Callable[[SSAValue], int]:
    """Program order of definitions, for a deterministic rewrite."""
    order = {op: k for k, op in enumerate(func.walk())}

    def key(v: SSAValue) -> int:
        return order.get(v.owner, -1) if isinstance(v, OpResult) else -1

    return key


def _better(got: FunctionResult, base: FunctionResult) -> bool:
    spills = got.spill_stores + got.spill_loads
    base_spills = base.spill_stores + base.spill_loads
    if got.num_regs < base.num_regs:
        return spills <= base_spills
    return got.num_regs == base.num_regs and spills < base_spills


def _trial_module(func: FuncOp, trial: FuncOp) -> ModuleOp:
    """A module with ``func``'s module's attributes, every other function
    (the callees' clobbers and frames; copies) and ``trial``."""
    mod = func.parent_op()
    assert isinstance(mod, ModuleOp)
    m = ModuleOp([], attributes=dict(mod.attributes))
    for op in mod.body.block.ops:
        if op is func:
            m.body.block.add_op(trial)
        else:
            m.body.block.add_op(op.clone())
    return m


def _adopt(func: FuncOp, trial: FuncOp) -> None:
    """``func`` takes ``trial``'s body, properties and attributes: the op
    stays the same object (passes and pipelines hold it)."""
    body = func.body
    old = [body.detach_block(b) for b in list(body.blocks)]
    for b in old:
        b.erase(safe_erase=False)
    trial.body.move_blocks(body)
    func.properties.clear()
    func.properties.update(trial.properties)
    func.attributes.clear()
    func.attributes.update(trial.attributes)
    trial.detach()
    trial.erase()


def allocate_trying(func: FuncOp, allocate: Callable[[FuncOp], FunctionResult],
                    ) -> FunctionResult:
    """``allocate(func)``, or, when recomputing values after its calls
    (:func:`recompute_after_calls`) gives a better allocation (module
    docstring, "When"), that allocation, whose body ``func`` takes."""
    if not isinstance(func.parent_op(), ModuleOp) or not _calls(func):
        return allocate(func)
    trial = func.clone()
    made = recompute_after_calls(trial)
    if not made:
        return allocate(func)
    _trial_module(func, trial)  # the trial's module: its callees' clobbers
    quiet = io.StringIO()
    try:
        with contextlib.redirect_stderr(quiet):
            got: FunctionResult | None = allocate(trial)
    except PassFailedException:
        got = None
    if got is None:
        return allocate(func)
    loud = io.StringIO()
    try:
        with contextlib.redirect_stderr(loud):
            base = allocate(func)
    except BaseException:
        sys.stderr.write(loud.getvalue())
        raise
    if not _better(got, base):
        sys.stderr.write(loud.getvalue())
        return base
    _adopt(func, trial)
    sys.stderr.write(quiet.getvalue())
    note = (f"recomputed {made} value{'s' if made != 1 else ''} live across calls after "
            f"them (call-remat): {base.num_regs} -> {got.num_regs} registers")
    got.remarks.append(note)
    emit_remark(func.sym_name.data, note, pass_name="ori-regalloc")
    return got
