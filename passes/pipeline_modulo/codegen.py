"""Prologue, kernel and epilogue of a modulo-scheduled single-block loop, in SSA.

With ``S`` stages, step ``t`` of the pipelined loop issues stage ``s`` of
iteration ``t - s`` for every stage.  The code is::

    P0 .. P(S-2)   prologue steps 0 .. S-2 (stage 0 of a new iteration each)
    K              the kernel: one step with all S stages, looping
    E              the epilogue after K: the last S-1 steps of the drain
    D0 .. D(S-2)   drains after a prologue step whose iteration was the last
    X              the new exit: the loop's exit values and the loop values
                   used after the loop, from whichever of E / D_t ran

The exit test sits in stage 0 (the scheduler's deadline), so after step
``t`` the code knows whether iteration ``t`` was the last before stage 0 of
iteration ``t + 1`` could start: every instruction of every iteration runs
exactly when it ran in the original loop (no speculation), in an order the
dependences allow, and any trip count >= 1 of the do-while loop is exact --
trip counts below S leave through a drain (the remainder).  A loop that
runs zero times is skipped by its guard before the preheader, as before.
With a known trip count >= S the prologue tests are left out.

Values crossing a step boundary inside the kernel become kernel block
arguments (modulo variable expansion by SSA renaming): a value defined in
stage ``s`` and used in stage ``s + k`` travels through ``k`` arguments.
Instructions are copied with :meth:`Operation.clone`; the original block is
erased at the end.
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass, field

from xdsl.ir import Block, BlockArgument, Operation, OpResult, SSAValue

from ori_dialect.ops.control import BraOp, PragmaOp
from passes.loop_utils import retarget_edge
from passes.pipeline_modulo.schedule import Schedule

Key = tuple[SSAValue, int]


@dataclass
class LoopShape:
    """The single-block loop being pipelined."""

    block: Block
    body: list[Operation]
    term: BraOp
    back_slot: int
    pre_block: Block
    pre_slot: int

    @property
    def exit_slot(self) -> int:
        return 1 - self.back_slot

    @property
    def back_args(self) -> list[SSAValue]:
        return list(self.term.edge_args(self.back_slot))

    @property
    def exit_args(self) -> list[SSAValue]:
        return list(self.term.edge_args(self.exit_slot))


@dataclass
class _Ctx:
    """Values of one stretch of straight-line code: ``table[(v, m)]`` is
    loop value ``v`` of iteration ``m`` (absolute in the prologue and its
    drains, relative to the kernel's oldest iteration in K and E)."""

    absolute: bool
    init: list[SSAValue]
    table: dict[Key, SSAValue] = field(default_factory=dict)
    missing: Callable[[Key], SSAValue] | None = None
    """Kernel only: makes a live-in for a key not defined yet."""


class Pipeliner:
    def __init__(self, shape: LoopShape, sched: Schedule, known_trips: int | None) -> None:
        self.s = shape
        self.sched = sched
        self.S = sched.stages
        self.known = known_trips
        self.index = {op: i for i, op in enumerate(shape.body)}
        self.back = shape.back_args
        self.made: list[Block] = []

    # ---- value lookup ----
    def _is_loop_value(self, v: SSAValue) -> bool:
        if isinstance(v, BlockArgument):
            return v.block is self.s.block
        return isinstance(v, OpResult) and v.op in self.index

    def resolve(self, ctx: _Ctx, v: SSAValue, m: int) -> SSAValue:
        if not self._is_loop_value(v):
            return v
        if isinstance(v, BlockArgument):
            k = v.index
            x = self.back[k]
            if x is v:
                return ctx.init[k]
            if ctx.absolute:
                return ctx.init[k] if m == 0 else self.resolve(ctx, x, m - 1)
            # relative iteration m >= 1 is no first iteration: the value is what
            # the back edge passed (one key per value, no duplicate arguments);
            # iteration 0 may be the loop's first, so (v, 0) stays a key of its own
            if m >= 1:
                return self.resolve(ctx, x, m - 1)
        if (v, m) in ctx.table:
            return ctx.table[(v, m)]
        if ctx.missing is None:
            raise KeyError(f"pipelining: value of iteration {m} used before it is defined")
        return ctx.missing((v, m))

    # ---- emission ----
    def _instances(self, step: int, lo: int, hi: int) -> list[tuple[int, int]]:
        """(op index, iteration) issued in ``step`` for iterations lo..hi, by row."""
        out = []
        for i in range(len(self.s.body)):
            m = step - self.sched.stage(i)
            if lo <= m <= hi:
                out.append((i, m))
        out.sort(key=lambda im: (self.sched.row(im[0]), im[0]))
        return out

    def _trace(self, ctx: _Ctx, inst: list[tuple[int, int]]) -> None:
        """Resolve the operands of ``inst`` as :meth:`_emit` would, emitting
        nothing: the live-in search of ``run`` learns through ``ctx.missing``
        which (value, iteration) pairs the kernel and epilogue read from
        outside; a result of iteration ``m`` is recorded under its own key."""
        for i, m in inst:
            op = self.s.body[i]
            for v in op.operands:
                self.resolve(ctx, v, m)
            for r in op.results:
                ctx.table[(r, m)] = r

    def _emit(self, ctx: _Ctx, block: Block, inst: list[tuple[int, int]]) -> None:
        for i, m in inst:
            op = self.s.body[i]
            mapping: dict[SSAValue, SSAValue] = {v: self.resolve(ctx, v, m) for v in op.operands}
            new = op.clone(value_mapper=mapping)
            block.add_op(new)
            for r, nr in zip(op.results, new.results, strict=True):
                ctx.table[(r, m)] = nr

    def _branch(self, block: Block, ctx: _Ctx, m: int, cont: Block, cont_args: list[SSAValue],
                exit_: Block, exit_args: list[SSAValue]) -> None:
        term = self.s.term
        assert term.guard is not None
        p = self.resolve(ctx, term.guard, m)
        succ = [cont, exit_] if self.s.back_slot == 0 else [exit_, cont]
        args = [cont_args, exit_args] if self.s.back_slot == 0 else [exit_args, cont_args]
        br = BraOp(succ[0], args[0], guard=p, guard_neg=term.guard_neg is not None,
                   fallthrough=succ[1], fallthrough_args=args[1])
        br.attributes.update(term.attributes)
        block.add_op(br)

    # ---- the transformation ----
    def run(self, outside_used: list[SSAValue]) -> Block:
        """Build the pipelined loop in place of the original; returns the kernel."""
        s, S = self.s, self.S
        region = s.block.parent
        assert region is not None
        arg_types = [a.type for a in s.block.args]
        exits = s.exit_args + outside_used
        x_block = Block(arg_types=[v.type for v in exits])
        exit_dest = s.term.successors[s.exit_slot]
        n_exit = len(s.exit_args)
        x_block.add_op(BraOp(exit_dest, list(x_block.args[:n_exit])))

        # prologue steps
        prologue = [Block(arg_types=arg_types)] + [Block() for _ in range(S - 2)]
        for new, old in zip(prologue[0].args, s.block.args, strict=True):
            new.name_hint = old.name_hint
        pctx = _Ctx(True, list(prologue[0].args))
        drains: list[Block] = []
        kernel = Block()
        pragmas = [op for op in s.block.ops if isinstance(op, PragmaOp)]
        for op in pragmas:
            kernel.add_op(op.clone())
        for t in range(S - 1):
            self._emit(pctx, prologue[t], self._instances(t, 0, t))
        # kernel: tracing it finds its live-ins (closed under the back edge)
        live: list[Key] = []

        def note(key: Key) -> SSAValue:
            if key not in live:
                live.append(key)
            return key[0]

        kinst = self._instances(S - 1, 0, S - 1)
        einst = [self._instances(t, 0, S - 1) for t in range(S, 2 * S - 1)]
        while True:
            traced = _Ctx(False, pctx.init, {k: k[0] for k in live}, note)
            n0 = len(live)
            self._trace(traced, kinst)
            for v, m in live.copy():  # resolve() may append
                self.resolve(traced, v, m + 1)
            # the epilogue and the exit values may need older iterations too
            epi = _Ctx(False, pctx.init, dict(traced.table), note)
            for inst in einst:
                self._trace(epi, inst)
            for v in exits:
                self.resolve(epi, v, S - 1)
            if len(live) == n0:
                break
        for key in live:
            kernel.insert_arg(key[0].type, len(kernel.args)).name_hint = key[0].name_hint
        kctx = _Ctx(False, pctx.init, {k: a for k, a in zip(live, kernel.args, strict=True)})
        self._emit(kctx, kernel, kinst)
        back_vals = [self.resolve(kctx, v, m + 1) for v, m in live]
        epilogue = Block()
        self._branch(kernel, kctx, S - 1, kernel, back_vals, epilogue, [])
        # epilogue: steps S .. 2S-2 relative to the kernel's oldest iteration
        for inst in einst:
            self._emit(kctx, epilogue, inst)
        epilogue.add_op(BraOp(x_block, [self.resolve(kctx, v, S - 1) for v in exits]))

        # prologue branches and their drains
        for t in range(S - 1):
            nxt = prologue[t + 1] if t + 1 < S - 1 else kernel
            nxt_args = [self.resolve(pctx, v, m) for v, m in live] if nxt is kernel else []
            if self.known is not None and self.known >= S:
                prologue[t].add_op(BraOp(nxt, nxt_args))
                continue
            drain = Block()
            dctx = _Ctx(True, pctx.init, dict(pctx.table))
            # drop what later prologue steps define: the drain follows step t
            dctx.table = {k: v for k, v in dctx.table.items()
                          if self.sched.stage(self.index[k[0].op]) + k[1] <= t}  # type: ignore[union-attr]
            for u in range(t + 1, t + S):
                self._emit(dctx, drain, self._instances(u, 0, t))
            drain.add_op(BraOp(x_block, [self.resolve(dctx, v, t) for v in exits]))
            self._branch(prologue[t], pctx, t, nxt, nxt_args, drain, [])
            drains.append(drain)

        # splice in: the preheader enters P0, the loop's values used after
        # the loop come from X, the old block goes
        new_blocks = [*prologue, kernel, epilogue, *drains, x_block]
        self.made = new_blocks
        region.insert_block_after(new_blocks, s.block)
        retarget_edge(s.pre_block, s.pre_slot, prologue[0])
        for v, a in zip(outside_used, x_block.args[n_exit:], strict=True):
            v.replace_uses_with_if(a, lambda use: use.operation.parent_block() is not s.block)
        for op in reversed(list(s.block.ops)):
            s.block.erase_op(op, safe_erase=False)
        region.erase_block(s.block, safe_erase=False)
        return kernel


def used_outside(block: Block, body: list[Operation]) -> list[SSAValue]:
    """Loop values (header arguments, body results) used outside ``block``."""
    out: list[SSAValue] = []
    vals: list[SSAValue] = [*block.args, *(r for op in body for r in op.results)]
    for v in vals:
        if any(u.operation.parent_block() is not block for u in v.uses):
            out.append(v)
    return out


__all__ = ["LoopShape", "Pipeliner", "used_outside"]
