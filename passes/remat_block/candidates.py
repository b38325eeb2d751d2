"""Which values ``ori-remat-block`` may recompute, and how: seed 002
"Algorithm Overview" step 3 *Classify* (MULTIDEF check sub_217E810, opcode
exclusion, operand safety, recursive verification sub_2181550) and step 4
*Second-chance heuristic* (sub_2181870).

**The def-level checks** (:func:`def_check`) -- a value is recomputable when
its definition

* is an instruction (a block argument, ptxas's phi, has none);
* is not **MULTIDEF**.  ptxas rejects a register with more than one
  definition.  In SSA ori every value has one definition, but the allocator
  ties a guarded instruction's result to its prior value (one register, two
  writes: docs/architecture.md "Predication with tied prior values"), so
  MULTIDEF here means: the result of a guarded instruction, or a value some
  guarded instruction takes as its tied prior;
* defines one register value besides predicates, or the parts of one wide
  value (the seed's operand safety: "instructions that define additional
  tied registers beyond the target are rejected").  The seed's pass sees a
  64-bit add as one instruction defining one double-wide register; ori's
  import splits it into a low ``IADD3`` with a carry-out predicate and the
  high ``IADD3.X`` reading it (``LEA`` / ``LEA.HI.X`` likewise), with
  ``PACK`` / ``UNPACK`` between the pair and its halves.  So the low half
  may be copied with its carry-out (the copy of a half alone drops the
  carry-outs nothing reads: :mod:`.execute`), the high half's copy brings
  the low instruction for the carry, and ``PACK`` / ``UNPACK`` may be copied
  although they are no ``REMATERIALIZABLE`` instruction (a MOV per part out
  of place, nothing in place; costed as any instruction).  Rejecting them kept
  every 64-bit address and size out of reach: Thrust's seq sorts stayed at
  their max live, 4 and 14 registers above ptxas's counts.  No
  rematerializable instruction defines two register values;
* passes the **opcode exclusions**, read from the op facts
  (docs/architecture.md "Op facts"), never from opcode names: no memory write
  (``MEM.writes``: stores, atomics), no ``SIDE_EFFECTS`` (calls, barriers,
  warp votes), not ``IS_BARRIER``, not ``WARP_COLLECTIVE``, the class is
  ``REMATERIALIZABLE`` and ``is_speculatable()`` (cannot fault), the instance
  is not ``is_volatile`` (clock reads); a load only from read-only memory
  (``SPACE`` CONST: ``LDC``) and only while ``load-remat`` is on --
  textures, surfaces and global loads read memory a store may change;
* is no register tuple (the warpgroup MMA accumulators);
* costs more than 0 (seed: "Candidates with cost 0 are non-rematerializable";
  ori's cost 0 is an op that emits no instruction, ``is_no_op()`` UNDEF).

Where the copies go is :mod:`.context`'s.

**Operands** (recursive verification).  A copy reads its definition's
operands where it goes.  An operand *available* there -- live out of the
block, or read by an instruction at or after the copy's place -- costs no
register.  Any other operand is recomputed too, right before the copy
(bit 2), its own operands checked the same way, to depth 50 and at most
``nv-remat-block-map-size-limit`` instructions per copy (an instruction
enters a chain once, whichever of its results the chain reads: UNPACK's
two parts, a low half and its carry); without bit 2 the value is not
pullable.  SSA guarantees every operand dominates the copy, so
the checks are about registers, never about correctness.

**Second chance.**  Candidates are classified one by one (over-target blocks
in layout order, values in definition order), each verdict memoized.  An
operand that is itself a candidate whose verdict is not reached yet is not
explored: the candidate waits ("given second-chance").  After the pre-check
the waiting ones are re-evaluated, round after round, until a round adds
none; each is visited at most once per round and at most as many times as
there were waiting ones (the seed's visit count).  Without bit 3 they stay
rejected.
"""

from __future__ import annotations

from collections.abc import Iterable
from dataclasses import dataclass, field

from xdsl.ir import BlockArgument, Operation, SSAValue

from ori_dialect.ir.instruction import OriInstruction, OriOp
from ori_dialect.ir.metadata import MemSpace
from ori_dialect.ir.registers import OriRegisterType, RegFile
from passes.general_optimize.imad_add import fused, product
from passes.remat_block.context import RoundContext, pull_sites, split_site
from passes.remat_block.knobs import MAX_DEPTH, Knobs

PULL, SPLIT = "pull", "split"


@dataclass
class Site:
    """One copy of a candidate: where it goes and what it replaces."""

    block: int
    anchor: Operation
    """The copy (and its chain) is inserted right before this op."""
    uses: list[tuple[Operation, int]]
    """(op, operand index) pairs that read the copy instead of the original."""
    chain: list[Operation]
    """Original ops to clone, operands first; the last defines the candidate."""
    cost: int
    """Clone cost of the chain (before the loop factor)."""
    weight: int
    """``nv-remat-block-loop-cost-factor`` to the loop depth the copy adds."""
    fuse: Operation | None = None
    """The one add that reads the copy, when the copy is a product that
    becomes that add's ``IMAD`` (:func:`fusing_add`): the chain's last op
    is then not cloned and costs nothing."""

    @property
    def cloned(self) -> int:
        """Instructions the copy adds."""
        return len(self.chain) - (1 if self.fuse is not None else 0)


@dataclass
class Candidate:
    """A value that passed the checks, with its copies and costs."""

    value: SSAValue
    index: int
    name: str
    kind: str
    width: int
    sites: list[Site]
    reads: set[SSAValue] = field(default_factory=set)
    """Values the copies read (original values): a candidate selected in the
    same round must be none of them (:mod:`.cost`)."""
    relieves: dict[int, int] = field(default_factory=dict)
    """Over-target block -> registers the pull-in frees there."""

    @property
    def single(self) -> int:
        """Cost of one copy (the dearest)."""
        return max((s.cost for s in self.sites), default=0)

    @property
    def total(self) -> int:
        """Cost of all copies, each times its loop factor."""
        return sum(s.cost * s.weight for s in self.sites)


@dataclass(frozen=True)
class Rejected:
    reason: str


@dataclass(frozen=True)
class Waiting:
    """Waits for the verdict on these candidate values (second chance)."""

    on: frozenset[SSAValue]


Verdict = Candidate | Rejected | Waiting


def op_cost(op: Operation, knobs: Knobs) -> int:
    """Clone cost of one instruction (seed "Cost analysis (sub_2183E30)"): 1 for
    an ALU / float / conversion instruction, ``nv-remat-block-load-cost`` for a
    load, 0 for one that emits no instruction; times the registers of its
    result (seed: double-wide values "have their cost doubled")."""
    cls = type(op)
    if isinstance(op, OriOp) and cls.is_no_op():
        return 0
    base = knobs.load_cost if isinstance(op, OriOp) and cls.MEM.reads else 1
    return base * max((_width(r) for r in op.results), default=1)


def fusing_add(v: SSAValue, uses: list[tuple[Operation, int]]) -> Operation | None:
    """The add a copy of ``v`` merges into: ``v`` a plain ``IMAD a, b, RZ``
    whose copy is read once, by an ``IADD3 v, c, RZ`` that can take the
    product (passes/general_optimize/imad_add.py: ptxas's K loops recompute
    ``row * stride`` inside the ``IMAD`` that adds the loop's offset)."""
    ab = product(v.owner) if isinstance(v.owner, Operation) else None
    if ab is None or len(uses) != 1:
        return None
    add = uses[0][0]
    probe = fused(add, v, *ab)
    if probe is None:
        return None
    probe.drop_all_references()
    return add


def _width(v: SSAValue) -> int:
    t = v.type
    return type(t).num_regs() if isinstance(t, OriRegisterType) else 1


def is_multidef(value: SSAValue) -> bool:
    """The value shares its register with another definition (module docstring)."""
    op = value.owner
    if isinstance(op, OriInstruction) and op.operand_groups()[1] is not None:
        return True
    for use in value.uses:
        user = use.operation
        if isinstance(user, OriInstruction):
            srcs, guard, _ = user.operand_groups()
            if use.index >= len(srcs) + (guard is not None):
                return True
    return False


def def_check(value: SSAValue, knobs: Knobs) -> str | None:
    """Why ``value`` cannot be recomputed anywhere, or None (module docstring)."""
    if isinstance(value, BlockArgument):
        return "block argument (no defining instruction)"
    op = value.owner
    assert isinstance(op, Operation)
    if not isinstance(op, OriOp):
        return f"{op.name} is no ori instruction"
    if is_multidef(value):
        return "MULTIDEF"
    extra = _extra_results(op)
    if extra is not None:
        return extra
    cls = type(op)
    if cls.MEM.writes:
        return f"{_sass(op)} writes memory"
    if cls.SIDE_EFFECTS or op.successors or op.regions:
        return f"{_sass(op)} has side effects"
    if cls.IS_BARRIER:
        return f"{_sass(op)} is a barrier"
    if cls.WARP_COLLECTIVE:
        return f"{_sass(op)} is warp-collective"
    if cls.MEM.reads:
        if cls.SPACE is not MemSpace.CONST:
            return f"{_sass(op)} loads from memory a store may change"
        if not knobs.load_remat:
            return f"{_sass(op)} is a load (load-remat=false)"
    if not cls.REMATERIALIZABLE and not cls.MOVES_PARTS:
        return f"{_sass(op)} is not rematerializable"
    if not cls.is_speculatable():
        return f"{_sass(op)} may fault"
    if op.is_volatile:
        return f"{_sass(op)} is volatile"
    if _width(value) > 4:
        return "register tuple"
    if op_cost(op, knobs) == 0:
        return f"cost 0 ({_sass(op)} emits no instruction)"
    return None


def _extra_results(op: Operation) -> str | None:
    """Why the results of ``op`` keep it from being copied, or None: it may
    define one register value besides predicates (a 32-bit half and the
    carry-outs its high half reads: ``IADD3``, ``LEA``; ``LOP3``'s
    predicate), or the parts of one wide value (``UNPACK``)."""
    if type(op).MOVES_PARTS and isinstance(op, OriOp) and op.is_plain():
        return None
    regs = [r for r in op.results
            if not (isinstance(r.type, OriRegisterType) and r.type.REG_FILE is RegFile.P)]
    if len(op.results) > 1 and len(regs) > 1:
        return f"{_sass(op)} defines {len(regs)} register values"
    return None


def _sass(op: Operation) -> str:
    s = getattr(type(op), "SASS", "")
    return s or op.name


class _Chain:
    """The instructions one copy needs (recursive verification at one site)."""

    def __init__(self, ctx: RoundContext, block: int, at: int) -> None:
        self.ctx = ctx
        self.block = block
        self.at = at
        self.ops: list[Operation] = []
        self.seen: set[SSAValue] = set()
        self.waiting: set[SSAValue] = set()


class Classifier:
    """Verdicts on candidates, memoized for one round (module docstring)."""

    def __init__(self, ctx: RoundContext, candidates: Iterable[SSAValue]) -> None:
        self.ctx = ctx
        self.knobs = ctx.knobs
        self.candidates = set(candidates)
        self.verdict: dict[tuple[SSAValue, str], Verdict] = {}
        self._decided: set[SSAValue] = set()

    def classify(self, v: SSAValue, kind: str, split_at: tuple[int, int] | None = None,
                 ) -> Verdict:
        key = (v, kind)
        res = self._classify(v, kind, split_at)
        self.verdict[key] = res
        if not isinstance(res, Waiting):
            self._decided.add(v)
        return res

    def _classify(self, v: SSAValue, kind: str, split_at: tuple[int, int] | None) -> Verdict:
        ctx = self.ctx
        why = def_check(v, self.knobs)
        if why is not None:
            return Rejected(why)
        i = ctx.lv.numbering.index[v]
        width = int(ctx.lv.numbering.width[i])
        if kind == SPLIT:
            assert split_at is not None
            one = split_site(ctx, v, *split_at)
            raw = [one] if one is not None else []
        else:
            raw = pull_sites(ctx, v)
        if not raw:
            return Rejected("read only in its own block" if kind == PULL
                            else "not read after the peak")
        bd = ctx.def_block(v)
        assert bd is not None
        sites: list[Site] = []
        reads: set[SSAValue] = set()
        waiting: set[SSAValue] = set()
        for b, anchor, uses in raw:
            ch = _Chain(ctx, b, ctx.pos[anchor][1])
            fail = self._need_def(v, ch, 1)
            if fail is not None:
                return Rejected(fail)
            if ch.waiting:
                waiting |= ch.waiting
                continue
            if len(ch.ops) > self.knobs.map_size_limit:
                return Rejected(
                    f"a copy in ^bb{b} needs {len(ch.ops)} instructions, more than "
                    f"nv-remat-block-map-size-limit {self.knobs.map_size_limit}")
            fuse = fusing_add(v, uses)
            cost = sum(op_cost(op, self.knobs) for op in (ch.ops[:-1] if fuse else ch.ops))
            weight = self.knobs.loop_cost_factor ** max(0, ctx.depth[b] - ctx.depth[bd])
            sites.append(Site(b, anchor, uses, ch.ops, cost, weight, fuse))
            for op in ch.ops:
                reads.update(op.operands)
        if waiting:
            return Waiting(frozenset(waiting))
        return Candidate(v, i, ctx.name(v), kind, width, sites, reads)

    def _need_def(self, x: SSAValue, ch: _Chain, depth: int) -> str | None:
        """Put ``x``'s definition into the chain after what its operands need."""
        if depth > MAX_DEPTH:
            return f"operand chain deeper than {MAX_DEPTH}"
        op = x.owner
        assert isinstance(op, Operation)
        for y in dict.fromkeys(op.operands):
            fail = self._need(y, ch, depth)
            if fail is not None:
                return fail
        ch.seen.update(op.results)  # one copy of UNPACK or of a half and its carry
        ch.ops.append(op)
        return None

    def _need(self, y: SSAValue, ch: _Chain, depth: int) -> str | None:
        ctx = self.ctx
        if y in ch.seen or ctx.available(y, ch.block, ch.at):
            return None
        if not self.knobs.recursive:
            return (f"operand {ctx.name(y)} is not live in ^bb{ch.block} "
                    f"(recursive pullability off)")
        if y in self.candidates and y not in self._decided:
            ch.waiting.add(y)
            return None
        why = def_check(y, self.knobs)
        if why is not None:
            return f"operand {ctx.name(y)} is not pullable: {why}"
        return self._need_def(y, ch, depth + 1)


__all__ = ["PULL", "SPLIT", "Candidate", "Classifier", "Rejected", "Site", "Verdict", "Waiting",
           "def_check", "is_multidef", "op_cost"]
