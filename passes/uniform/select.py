"""Which uniform values ``ori-uniform`` moves to the uniform datapath.

Input: a kernel, its :class:`~ori_dialect.analysis.uniformity.Uniformity`
and loop depths.  Output: a :class:`Plan`: the ops whose results become UR/UP
and the block arguments retyped with them.

The set is chosen as a greatest fixed point, starting from every candidate
and dropping what breaks a rule, until nothing changes:

* **candidate**: an unguarded op in a converged block whose results are all
  uniform and which has a uniform version (:func:`has_uniform_version`:
  ``OriOp.UNIFORM_SASS`` and ``has_uniform_form``, a ``uniform_substitute``,
  or the PACK/UNPACK pseudo-ops); a uniform block argument of a converged
  block that is no divergent join;
* **closed**: a uniform op reads only uniform registers, so every register
  source of a chosen op is chosen (or already a UR), and every value
  flowing into a chosen block argument is chosen;
* **no copies** (``max-copies``, default 0; ``hot-copies`` for the values
  :meth:`Selector.run` is given as hot, the candidates they are computed
  from and the block arguments they are joined with -- solved again with
  only the hot values that moved, so a source never pays copies for a hot
  value that stayed): every use outside the set must read the UR for free
  -- in the slot that takes a constant-bank operand or a uniform register,
  with the instruction's one constant port free,
  possibly after swapping commutative operands (:func:`placement`); a use
  that would need ``MOV r, ur`` counts as a copy.  A UP value is read only
  by chosen ops (a GPR op or a branch reads it through a PLOP3 copy);
  64-bit values take no copies, except a hot one (unless
  :meth:`Selector.run` is told ``wide=False``): one copy outside loops,
  two ``MOV``s;
* **not across calls that may write the uniform file**: a call to a
  module function that defines no uniform value, nor calls one that may,
  leaves UR/UP alone (ori_dialect/ops/uniform_calls.py; ptxas keeps
  ``UR5`` across the calls to its 64-bit division subroutine); any other
  call, a runtime function's or an indirect one without candidates, may
  overwrite them;
* **ULDC only where it pays**: a chosen op that reads a constant-bank word
  needs a ``ULDC`` first (uniform ops take no ``c[][]``); that is one more
  instruction, taken only when the op sits outside loops and a use of its
  result is in a deeper loop (the value would otherwise hold a GPR through
  that loop).  ``MOV d, c[][]`` is exempt: it becomes that ``ULDC``; so
  is a hot value (its ``ULDC`` is paid like a copy, where the R file is
  fullest).

The rules are ori's (the seeds name ConvertMemoryToRegisterOrUniform but
not its heuristics): register pressure moves out of the R file only where
no instruction is added inside a loop.
"""

from __future__ import annotations

from collections import Counter
from dataclasses import dataclass, field

from xdsl.ir import Attribute, Block, BlockArgument, Operation, SSAValue

from ori_dialect.analysis.cfg import CFG, edge_operands
from ori_dialect.analysis.liveness import Liveness
from ori_dialect.analysis.uniformity import Uniformity
from ori_dialect.ir.attrs import CBankAttr
from ori_dialect.ir.instruction import OriInstruction, uses_constant_port
from ori_dialect.ir.registers import OriRegisterType, RegFile, uniform_counterpart
from ori_dialect.ops.control import BraOp, CallIndirectOp, CallOp
from ori_dialect.ops.integer import MovOp, PackOp, UnpackOp
from ori_dialect.ops.uniform_calls import UniformWriters
from passes.general_optimize.const_prop import commuted, zero_to_rz


@dataclass
class Placement:
    """How a GPR instruction reads the chosen values among its sources:
    the operand order (``values``/``smods``/``mods``, None: unchanged) and
    the slots whose value needs a ``MOV r, ur`` copy."""

    values: list | None
    smods: dict[str, str] | None
    mods: str | None
    copies: list[str]


@dataclass
class Plan:
    ops: list[Operation] = field(default_factory=list)
    args: list[BlockArgument] = field(default_factory=list)
    dropped: Counter[str] = field(default_factory=Counter)
    """Why candidates stayed in the R/P files (reason -> values)."""

    def chosen_values(self) -> set[SSAValue]:
        out: set[SSAValue] = set(self.args)
        for op in self.ops:
            out.update(op.results)
        return out


def is_uniform_typed(v: SSAValue) -> bool:
    t = v.type
    return isinstance(t, OriRegisterType) and t.REG_FILE.is_uniform


def placement(op: OriInstruction, chosen: set[SSAValue]) -> Placement:
    """The operand order of ``op`` (a GPR-file user) that reads the most
    values of ``chosen`` through its constant port, and the slots left that
    need a copy (module docstring, "no copies")."""
    vals = op.slot_values()
    smods = op.smod_map()
    forms: list[tuple[list, dict[str, str] | None, str | None]] = [(vals, None, None)]
    if any(isinstance(v, SSAValue) and v in chosen for _, v in vals):
        # a 0 swapped into a register-only slot is RZ there (ptxas's
        # ``ISETP.LT.AND P0, PT, RZ, UR6, PT`` for a uniform ``counter > 0``);
        # unswapped, a 64-bit addend 0 is RZ too (``IMAD.WIDE.U32 R2, R0,
        # UR4, RZ``: the immediate would hold the port)
        rz = zero_to_rz(vals, -1, op)
        if rz != vals:
            forms.append((rz, None, None))
        forms += [(zero_to_rz(f, -1, op), s, m) for f, s, m in commuted(op, vals, smods)]
    best: Placement | None = None
    pseudo = isinstance(op, PackOp | UnpackOp)
    for k, (form, fs, fm) in enumerate(forms):
        ports = sum(1 for s, v in form if s.types and uses_constant_port(v)
                    and not (isinstance(v, SSAValue) and v in chosen))
        copies: list[str] = []
        for slot, v in form:
            if not isinstance(v, SSAValue) or v not in chosen:
                continue
            ut = uniform_counterpart(type(v.type))  # type: ignore[arg-type]
            if (not pseudo and ut is not None and ut in slot.all_types
                    and ut.REG_FILE is RegFile.UR and ports < type(op).CONSTANT_PORTS):
                ports += 1
            else:
                copies.append(slot.name)
        cand = Placement(None if k == 0 else form, fs, fm, copies)
        if best is None or len(copies) < len(best.copies):
            best = cand
    assert best is not None
    _, _, prior = op.operand_groups()
    best.copies += [f"prior#{i}" for i, p in enumerate(prior) if p in chosen]
    return best


def _copied_values(user: OriInstruction, p: Placement) -> list[SSAValue | Attribute]:
    """The operands of ``user`` that ``p`` reads through copies, in the
    operand order ``p`` gives it (a ``prior#i`` name: the i-th prior)."""
    vals = {s.name: v for s, v in (p.values or user.slot_values())}
    prior = user.operand_groups()[2]
    return [prior[int(name.removeprefix("prior#"))] if name.startswith("prior#") else vals[name]
            for name in p.copies]


def _edge_users(cfg: CFG, arg: BlockArgument) -> list[SSAValue]:
    """The values flowing into ``arg`` along its block's incoming edges."""
    b = cfg.index[arg.block]
    out: list[SSAValue] = []
    for e in cfg.in_edges[b]:
        term = cfg.blocks[e.src].last_op
        if term is None:
            continue
        ops = edge_operands(term, e.slot)
        if arg.index < len(ops):
            out.append(ops[arg.index])
    return out


class Selector:
    """Builds the :class:`Plan` for one kernel (module docstring)."""

    def __init__(self, uni: Uniformity, depths: list[int], *, max_copies: int,
                 hot_copies: int = 0, liveness: Liveness | None = None,
                 writers: UniformWriters | None = None) -> None:
        self.uni = uni
        self.writers = writers
        """Which calls may write the uniform file (None: every call may)."""
        self.cfg = uni.cfg
        self.depth_of = {blk: depths[i] for i, blk in enumerate(self.cfg.blocks)}
        self.max_copies = max_copies
        self.hot_copies = hot_copies
        self.hot: set[SSAValue] = set()
        """Values live where the R file is fullest (passes/uniform/pressure.py)."""
        self.wide_hot = True
        """Hot 64-bit values may take a copy outside loops (``run``'s ``wide``)."""
        self.liveness = liveness
        self.dropped: Counter[str] = Counter()
        self._base: tuple[frozenset[Operation], frozenset[BlockArgument], Counter[str]] | None = None
        self._alone: dict[tuple[Operation, SSAValue], bool] = {}

    def liveness_of_function(self) -> Liveness:
        """The function's liveness, computed once when first asked for."""
        if self.liveness is None:
            self.liveness = Liveness(self.cfg)
        return self.liveness

    def _needs_copy_alone(self, user: OriInstruction, v: SSAValue) -> bool:
        """``user`` would read ``v``, alone among its sources in a uniform
        register, through a copy (memoized: the IR does not change while
        plans are solved)."""
        key = (user, v)
        hit = self._alone.get(key)
        if hit is None:
            hit = self._alone[key] = bool(placement(user, {v}).copies)
        return hit

    def copy_limit(self, v: SSAValue) -> int:
        """Uses of ``v`` that may read it through a ``MOV r, ur`` copy."""
        return max(self.max_copies, self.hot_copies) if v in self.hot else self.max_copies

    def _spread_hot(self, ops: set[Operation], args: set[BlockArgument]) -> None:
        """A hot value can only move with the candidates it is computed
        from (a uniform op reads uniform registers) and with the block
        arguments it is joined with (a loop-carried value and its update,
        the value it leaves the loop as): they get its copy budget too, so
        a copy lands at a use, not on an edge inside the loop."""
        work = list(self.hot)

        def add(x: SSAValue) -> None:
            if x not in self.hot and isinstance(x.type, OriRegisterType) \
                    and not x.type.is_fixed:
                self.hot.add(x)
                work.append(x)

        while work:
            v = work.pop()
            for use in v.uses:
                user = use.operation
                if isinstance(user, BraOp):
                    dest = user.dest_arg(use.index)
                    if dest is not None and dest in args:
                        add(dest)
            if isinstance(v, BlockArgument):
                if v in args:
                    for x in _edge_users(self.cfg, v):
                        add(x)
                continue
            owner = v.owner
            if not isinstance(owner, OriInstruction) or owner not in ops:
                continue
            for src in owner.operand_groups()[0]:
                add(src)

    def depth(self, block: Block | None) -> int:
        return self.depth_of.get(block, 0) if block is not None else 0

    # ------------------------------------------------------------------
    def run(self, hot: set[SSAValue] | None = None, *, wide: bool = True) -> Plan:
        """The plan; ``hot`` values may take ``hot_copies`` copies (a 64-bit
        one a single copy outside loops, unless ``wide`` is false).  The
        candidates are found once and reused by later runs."""
        self.wide_hot = wide
        if self._base is None:
            self.dropped = Counter()
            ops, args = self._candidates()
            self._drop_live_across_calls(ops, args)
            self._base = (frozenset(ops), frozenset(args), Counter(self.dropped))
        seeds = set(hot or ()) if self.hot_copies > self.max_copies else set()
        ops, args = self._solve(seeds)
        if seeds:
            # a source took the copy budget for the hot value it computes;
            # where that value stayed in the R file, the source's copies
            # buy nothing: solve again spreading only from the hot values
            # that moved
            moved = {r for op in ops for r in op.results} | args
            kept = {v for v in seeds if v in moved}
            if kept != seeds:
                ops, args = self._solve(kept)
        order = {op: i for i, op in enumerate(o for b in self.cfg.blocks for o in b.ops)}
        return Plan(sorted(ops, key=order.__getitem__),
                    sorted(args, key=lambda a: (self.cfg.index[a.block], a.index)),
                    self.dropped)

    def _solve(self, hot: set[SSAValue]) -> tuple[set[Operation], set[BlockArgument]]:
        """The fixed point from the candidates, ``hot`` and the sources they
        are computed from taking ``hot_copies`` copies."""
        assert self._base is not None
        ops, args = set(self._base[0]), set(self._base[1])
        self.dropped = Counter(self._base[2])
        self.hot = set(hot)
        if self.hot:
            self._spread_hot(ops, args)
        while True:
            self._fixed_point(ops, args)
            if not self._drop_port_conflicts(ops, args):
                break
        return ops, args

    def _drop_port_conflicts(self, ops: set[Operation], args: set[BlockArgument]) -> bool:
        """The rules judge each value alone; two chosen values read by one
        GPR instruction may both want its one constant port.  Drop the
        values that would need a copy there (beyond ``max-copies``); the
        fixed point then runs again."""
        chosen = {r for op in ops for r in op.results} | set(args)
        users: dict[Operation, None] = {}
        for v in chosen:
            for use in v.uses:
                if use.operation not in ops and isinstance(use.operation, OriInstruction):
                    users[use.operation] = None
        victims: set[SSAValue] = set()
        for user in users:
            assert isinstance(user, OriInstruction)
            p = placement(user, chosen)
            if not p.copies:
                continue
            for v in _copied_values(user, p):
                if isinstance(v, SSAValue) and not self.copy_limit(v):
                    victims.add(v)
        for v in victims:
            if isinstance(v, BlockArgument):
                args.discard(v)  # type: ignore[arg-type]
            else:
                ops.discard(v.owner)  # type: ignore[arg-type]
            self.dropped["shares a constant port with another uniform value"] += 1
        return bool(victims)

    def _fixed_point(self, ops: set[Operation], args: set[BlockArgument]) -> None:
        # program order, so that the drop tallies of the remarks are the
        # same on every run (a set's order follows the ops' ids)
        op_order = [o for b in self.cfg.blocks for o in b.ops if o in ops]
        arg_order = [a for b in self.cfg.blocks for a in b.args if a in args]
        changed = True
        while changed:
            changed = False
            chosen = {r for op in ops for r in op.results} | set(args)
            for op in [o for o in op_order if o in ops]:
                why = self._op_rule(op, chosen, ops)
                if why is not None:
                    ops.discard(op)
                    self.dropped[why] += len(op.results)
                    changed = True
            chosen = {r for op in ops for r in op.results} | set(args)
            for a in [x for x in arg_order if x in args]:
                why = self._value_rule(a, chosen, ops)
                if why is None and not all(v in chosen or is_uniform_typed(v)
                                           for v in _edge_users(self.cfg, a)):
                    why = "a value flowing into the block argument is not uniform-capable"
                if why is not None:
                    args.discard(a)
                    self.dropped[why] += 1
                    changed = True

    def _candidates(self) -> tuple[set[Operation], set[BlockArgument]]:
        uni = self.uni
        ops: set[Operation] = set()
        args: set[BlockArgument] = set()
        for bi, block in enumerate(self.cfg.blocks):
            if not uni.converged[bi]:
                continue
            for a in block.args:
                if (uni.is_uniform(a) and isinstance(a.type, OriRegisterType)
                        and not a.type.REG_FILE.is_uniform
                        and uniform_counterpart(type(a.type)) is not None and bi != 0):
                    args.add(a)
            for op in block.ops:
                if not isinstance(op, OriInstruction) or not has_uniform_version(op):
                    continue
                if not op.results or op.is_uniform_form():
                    continue
                if op.operand_groups()[1] is not None:
                    continue  # guarded: its guard would have to be a UP
                if not all(uni.is_uniform(r) for r in op.results):
                    continue
                if any(uniform_counterpart(type(r.type)) is None for r in op.results):  # type: ignore[arg-type]
                    continue
                ops.add(op)
        return ops, args

    def _drop_live_across_calls(self, ops: set[Operation], args: set[BlockArgument]) -> None:
        calls = [op for b in self.cfg.blocks for op in b.ops
                 if isinstance(op, CallOp | CallIndirectOp)
                 and (self.writers is None or self.writers.may_write(op))]
        if not calls:
            return
        live = self.liveness_of_function()
        across: set[SSAValue] = set()
        for c in calls:
            across |= live.live_after(c)
        for op in list(ops):
            if any(r in across for r in op.results):
                ops.discard(op)
                self.dropped["live across a call"] += len(op.results)
        for a in list(args):
            if a in across:
                args.discard(a)
                self.dropped["live across a call"] += 1

    def _op_rule(self, op: Operation, chosen: set[SSAValue],
                 ops: set[Operation]) -> str | None:
        assert isinstance(op, OriInstruction)
        srcs, _, _ = op.operand_groups()
        for v in srcs:
            t = v.type
            if isinstance(t, OriRegisterType) and not (v in chosen or t.REG_FILE.is_uniform):
                return "reads a value that is not uniform-capable"
        if any(isinstance(c, CBankAttr) for c in op.const_map().values()) \
                and not is_cbank_move(op) and not any(r in self.hot for r in op.results):
            if self.depth(op.parent_block()) > 0:
                return "would need a ULDC inside a loop"
            d = self.depth(op.parent_block())
            if not any(self.depth(u.operation.parent_block()) > d
                       for r in op.results for u in r.uses):
                return "would need a ULDC and is not live into a deeper loop"
        for r in op.results:
            why = self._value_rule(r, chosen, ops)
            if why is not None:
                return why
        return None

    def _value_rule(self, v: SSAValue, chosen: set[SSAValue],
                    ops: set[Operation]) -> str | None:
        """``v`` may live in a uniform register: its uses outside the
        chosen ``ops`` read it for free (or within ``max-copies``)."""
        pred = isinstance(v.type, OriRegisterType) and v.type.REG_FILE.is_predicate
        wide = isinstance(v.type, OriRegisterType) and v.type.BITS > 32
        copies = 0
        looped = False
        for use in v.uses:
            user = use.operation
            if user in ops:
                continue
            if isinstance(user, BraOp) and use.index >= (1 if user.guard is not None else 0):
                dest = user.dest_arg(use.index)
                if dest is not None and dest in chosen:
                    continue
                copies += 1
                looped |= self.depth(user.parent_block()) > 0
                continue
            if pred:
                return "a predicate read outside the uniform datapath"
            if not isinstance(user, OriInstruction):
                copies += 1
                looped |= self.depth(user.parent_block()) > 0
                continue
            # judged alone here; conflicts between chosen values are
            # settled after the fixed point (_drop_port_conflicts)
            if self._needs_copy_alone(user, v):
                copies += 1
                looped |= self.depth(user.parent_block()) > 0
        if copies and (pred or (wide and (v not in self.hot or looped or copies > 1
                                          or not self.wide_hot))):
            # a hot 64-bit value may take one copy outside loops: two MOVs
            # (rewrite.py), as ptxas copies argmax_rows' uniform output
            # pointer before its STG
            return "a 64-bit or predicate value would need a copy"
        if copies > self.copy_limit(v):
            return "a use would need a MOV from the uniform register"
        return None


def copy_sites(plan: Plan) -> dict[Operation, int]:
    """The ``MOV r, ur`` copies carrying out ``plan`` adds (rewrite.py step
    3), by the op they are placed before: one per 32-bit register copied."""
    chosen = plan.chosen_values()
    chosen_ops = set(plan.ops)
    out: dict[Operation, int] = {}
    users: dict[Operation, None] = {}
    for v in chosen:
        for use in v.uses:
            if use.operation not in chosen_ops:
                users[use.operation] = None
    for user in users:
        if isinstance(user, OriInstruction) and not isinstance(user, BraOp):
            copied = _copied_values(user, placement(user, chosen))
        else:
            copied = [user.operands[i] for i in copied_operands(user, chosen)]
        n = sum(_width(v) for v in copied)
        if n:
            out[user] = n
    return out


def _width(v: object) -> int:
    """The R registers (and ``MOV``) a copy of ``v`` takes: two for a
    64-bit value."""
    t = getattr(v, "type", None)
    return type(t).num_regs() if isinstance(t, OriRegisterType) else 1


def copied_operands(user: Operation, chosen: set[SSAValue]) -> list[int]:
    """For a branch or an op that is no Ori instruction: the operands (by
    index) of ``chosen`` values it reads through a ``MOV r, ur`` copy --
    all of them, except a branch's edge operand into a chosen block
    argument (a GPR instruction's copies are :func:`placement`'s)."""
    return [i for i, o in enumerate(user.operands) if o in chosen
            and not (isinstance(user, BraOp) and user.dest_arg(i) in chosen)]


def is_cbank_move(op: Operation) -> bool:
    """``MOV d, c[b][o]``: into a uniform register it *is* the ``ULDC``, so
    choosing it adds no instruction."""
    return isinstance(op, MovOp) and isinstance(op.src("a"), CBankAttr)


def has_uniform_version(op: OriInstruction) -> bool:
    """``op`` can run in the uniform datapath: as its own uniform form
    (``UNIFORM_SASS``), through its ``uniform_substitute`` (SHL/SHR as
    USHF, IMAD.HI as the high word of UIMAD.WIDE), or, for the PACK/UNPACK pseudo-ops, with UR parts (64-bit
    values: ``UIMAD.WIDE`` results, ``ULDC.64`` words) whose register
    parts are registers or RZ (no immediate is packed into a UR pair)."""
    if isinstance(op, PackOp | UnpackOp):
        return all(not isinstance(v, Attribute) or (isinstance(v, OriRegisterType) and v.is_fixed)
                   for _, v in op.slot_values())
    if type(op).UNIFORM_SASS is not None and op.has_uniform_form():
        return True
    sub = op.uniform_substitute()
    if sub is None:
        return False
    sub.erase()
    return True


__all__ = ["Placement", "Plan", "Selector", "copied_operands", "copy_sites",
           "has_uniform_version", "is_cbank_move", "is_uniform_typed", "placement"]
