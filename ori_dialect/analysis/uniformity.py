"""Uniformity (divergence) analysis: which values are the same in every
thread of a warp where the warp runs together, and which blocks the warp
runs together (issue 19 item 1; docs/architecture.md "Uniform datapath").

The seeds name the pass that uses this (seed 000 "Pre-Allocation and
Mem-to-Reg", ConvertMemoryToRegisterOrUniform, and the UR/UP register
classes) but not its algorithm; this is the standard sync-dependence
formulation, kept conservative where a uniform register would be unsafe.

Contract
--------
*Input*: one ``ori.func``.  Only kernel entries are analysed: every thread
of a warp starts a kernel together, while a device function may be called
from divergent code, so for a device function nothing is converged.

*Converged blocks*.  A conditional branch whose condition is divergent (or
an indirect branch on a divergent index) splits the warp; the blocks
reachable from its successors before the branch's immediate
post-dominator run with only part of the warp: they are not converged.
Threads that take an edge into a *terminal* block (one whose only op is
``EXIT``) do nothing else, so such an edge splits nothing: ``@P0 BRA
exit_block`` at a kernel's start leaves the rest of the kernel converged
for the threads that stay, as ptxas's ``@P0 EXIT; ULDC.64 ...`` shows.  A
loop whose exit depends on a divergent value contains its exit branch in
its own region (the header is reachable again through the latch), so the
whole loop is unconverged and so is every value it computes (temporal
divergence needs no separate rule).

*Uniform values*.  A value is uniform when it is defined in a converged
block and is

* the result of a ``UNIFORM_SOURCE`` op whose ``reads_only_uniform_inputs``
  holds (constant-bank words, immediates, the CTA id);
* the result of a pure op (``FOLDABLE``: a function of its sources only,
  a register copy, or a PACK/UNPACK part move, ``MOVES_PARTS``) whose
  register sources, guard and tied prior values are all uniform;
* a block argument whose incoming values are all uniform, on a block that
  is not the join of a divergent branch (it is not the immediate
  post-dominator of one, nor a direct successor of one; a branch whose two
  edges reach one block with different arguments is divergent too: it
  selects them).

Loads other than constant-bank reads, warp collectives, special registers
other than the CTA id, and call results are divergent.  The fixed point
starts optimistic (all uniform, all converged) and only removes, so it
terminates; a divergent value can make a branch divergent, which can make
blocks unconverged, which makes their values divergent.

*Result*: ``converged[b]`` per block id of the function's CFG and
``is_uniform(value)``.  What the uniform datapath may hold is narrower
(passes/uniform: an op needs a uniform form); this analysis says only
what is the same in every thread.
"""

from __future__ import annotations

from xdsl.ir import Block, BlockArgument, Operation, SSAValue
from xdsl.traits import IsTerminator

from ori_dialect.analysis.cfg import CFG, edge_operands
from ori_dialect.analysis.dominators import DominatorTree
from ori_dialect.ir.instruction import OriInstruction
from ori_dialect.ir.registers import OriRegisterType


def is_terminal(block: Block) -> bool:
    """The block's only op is a terminator without successors or operands:
    ``EXIT`` (a kernel has no ``RET``; a device function's ``RET`` returns
    values or is not looked at), so a thread entering it only ends.  The
    analyses sit below the op families (docs/architecture.md "Layers"), so
    the op is recognised by its shape."""
    first = block.first_op
    return (first is not None and first is block.last_op
            and first.has_trait(IsTerminator) and not first.successors and not first.operands)


def branch_condition(term: Operation | None) -> SSAValue | None:
    """The value a conditional or indexed branch decides on: ``ori.bra``'s
    guard, ``ori.brx``'s index (None for an unconditional branch or an op
    without successors)."""
    if term is None or not term.successors:
        return None
    if getattr(type(term), "INDIRECT_JUMP", False):
        return term.operands[0] if term.operands else None
    guard = getattr(term, "guard", None)
    return guard if isinstance(guard, SSAValue) else None


def post_dominators(cfg: CFG) -> list[int]:
    """Immediate post-dominator of each block (-1: the virtual exit, or a
    block from which no exit is reachable).  Computed as dominators of the
    reversed CFG below a virtual exit joined to every block without
    successors."""
    n = cfg.num_blocks
    virtual = n
    rev: list[list[int]] = [list(cfg.preds[b]) for b in range(n)]
    rev.append([b for b in range(n) if not cfg.succs[b] and cfg.is_reachable(b)])
    # the reversed graph's entry must be block 0 of from_succs: put the
    # virtual exit first by renumbering (i -> i + 1, virtual -> 0)
    renum = [[0 if s == virtual else s + 1 for s in rev[virtual]]]
    renum += [[s + 1 for s in rev[b]] for b in range(n)]
    dom = DominatorTree(CFG.from_succs(renum))
    out = [-1] * n
    for b in range(n):
        d = dom.idom_array[b + 1]
        out[b] = -1 if d <= 0 else d - 1
    return out


def _is_pure(op: OriInstruction) -> bool:
    """A function of its register sources only, so uniform sources give a
    uniform result: foldable ALU ops, register copies (MOV) and the
    PACK/UNPACK part moves."""
    return (type(op).FOLDABLE or op.is_register_copy() or type(op).MOVES_PARTS) \
        and not op.is_volatile


class Uniformity:
    """Converged blocks and uniform values of one function (module docstring)."""

    def __init__(self, func: Operation, cfg: CFG | None = None) -> None:
        self.func = func
        self.cfg = cfg if cfg is not None else CFG.compute(func)
        n = self.cfg.num_blocks
        self.ipdom = post_dominators(self.cfg)
        kernel = bool(getattr(func, "is_kernel", False))  # an ori.func entry
        self.converged = [kernel and self.cfg.is_reachable(b) for b in range(n)]
        self.divergent: set[SSAValue] = set()
        self.divergent_branches: set[int] = set()
        if not kernel:
            for b in self.cfg.blocks:
                self.divergent.update(b.args)
                for op in b.ops:
                    self.divergent.update(op.results)
            return
        self._solve()

    # ------------------------------------------------------------------
    def is_uniform(self, v: SSAValue) -> bool:
        return v not in self.divergent

    def block_converged(self, block: Block) -> bool:
        return self.converged[self.cfg.index[block]]

    # ------------------------------------------------------------------
    def _solve(self) -> None:
        cfg = self.cfg
        changed = True
        while changed:
            changed = False
            for b in cfg.rpo:
                block = cfg.blocks[b]
                if self._visit_block(b, block):
                    changed = True
            for b in cfg.rpo:
                if b in self.divergent_branches:
                    continue
                term = cfg.blocks[b].last_op
                if self._splits(term, b):
                    self.divergent_branches.add(b)
                    self._mark_region(b)
                    changed = True

    def _visit_block(self, b: int, block: Block) -> bool:
        changed = False
        div = self.divergent
        if not self.converged[b] or self._is_divergent_join(b):
            for a in block.args:
                if a not in div:
                    div.add(a)
                    changed = True
        else:
            for a in block.args:
                if a not in div and self._incoming_divergent(b, a):
                    div.add(a)
                    changed = True
        for op in block.ops:
            if all(r in div for r in op.results):
                continue
            if not self.converged[b] or not self._op_uniform(op):
                for r in op.results:
                    if r not in div:
                        div.add(r)
                        changed = True
        return changed

    def _incoming_divergent(self, b: int, arg: BlockArgument) -> bool:
        cfg = self.cfg
        for e in cfg.in_edges[b]:
            if not cfg.is_reachable(e.src):
                continue
            term = cfg.blocks[e.src].last_op
            ops = edge_operands(term, e.slot) if term is not None else ()
            if arg.index >= len(ops) or ops[arg.index] in self.divergent:
                return True
        return False

    def _is_divergent_join(self, b: int) -> bool:
        """Threads from both sides of a divergent branch meet here (its
        post-dominator, or a direct successor of it)."""
        for x in self.divergent_branches:
            if self.ipdom[x] == b or b in self.cfg.succs[x]:
                return True
        return False

    def _op_uniform(self, op: Operation) -> bool:
        if not isinstance(op, OriInstruction):
            return False
        if type(op).UNIFORM_SOURCE and op.reads_only_uniform_inputs():
            return True
        if not _is_pure(op):
            return False
        srcs, guard, prior = op.operand_groups()
        operands = [*srcs, *prior] + ([guard] if guard is not None else [])
        return all(
            v not in self.divergent
            for v in operands
            if isinstance(v.type, OriRegisterType) and not v.type.is_fixed
        )

    def _splits(self, term: Operation | None, b: int) -> bool:
        """``term`` sends threads of one warp different ways (after pruning
        the edges into terminal blocks)."""
        cond = branch_condition(term)
        if cond is None or cond not in self.divergent:
            return False
        live = {s for s in self.cfg.succs[b] if not is_terminal(self.cfg.blocks[s])}
        if len(live) > 1:
            return True
        # both edges into one block with different arguments: the condition
        # selects the arguments' values thread by thread (``bra if %p,
        # ^b(%x), ^b(%y)``, a SEL), so that block is a divergent join
        assert term is not None
        edges = [e for e in self.cfg.out_edges[b] if e.dst in live]
        return len({tuple(edge_operands(term, e.slot)) for e in edges}) > 1

    def _mark_region(self, x: int) -> None:
        cfg = self.cfg
        stop = self.ipdom[x]
        work = [s for s in cfg.succs[x] if s != stop and not is_terminal(cfg.blocks[s])]
        seen: set[int] = set()
        while work:
            b = work.pop()
            if b in seen or b == stop:
                continue
            seen.add(b)
            self.converged[b] = False
            work.extend(cfg.succs[b])


__all__ = ["Uniformity", "branch_condition", "is_terminal", "post_dominators"]
