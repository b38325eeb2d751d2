"""``reject-pressure-growth`` and ``max-code-growth`` without copying the
function: the peak R pressure a pipelined loop would give, and the SASS
instructions its blocks would hold, measured on the loop alone.

Pipelining one single-block loop ``L`` changes the live sets only inside
the blocks that replace ``L`` (prologue, kernel, epilogue, drains, exit
block): everything live into ``L`` is live into the prologue, and what
leaves ``L`` -- its exit-edge values and the loop values read after it --
leaves the new exit block one for one with the same types.  So the
function's peak after the transform is

    max(peak of every block but L,  peak of the new blocks)

and the peak of the new blocks is that of a small stand-alone region --
an entry block whose arguments are the values ``L`` reads from outside, a
copy of ``L``, a sink block whose arguments are what must stay live after
``L`` -- pipelined the same way, plus the registers of the values that are
live through ``L`` without being read in it (live everywhere in the
region).  Measuring that costs time in the size of ``L``; copying and
re-measuring the whole function per loop made ``ori-pipeline`` quadratic
(issue 20: 3.1 s -> 295 s from a 3k- to a 30k-instruction function).

:class:`FunctionPeaks` holds the function's liveness and per-block peaks;
it is recomputed only when a loop is pipelined (rare under the gate).
"""

from __future__ import annotations

from collections.abc import Callable
from typing import NamedTuple

from xdsl.ir import Block, Operation, Region, SSAValue

from ori_dialect.analysis.cfg import CFG
from ori_dialect.analysis.liveness import FILES, Liveness
from ori_dialect.analysis.pressure import RegisterPressure
from ori_dialect.ir.instruction import OriOp
from ori_dialect.ir.registers import RegFile
from ori_dialect.ops.control import BraOp, ExitOp, PragmaOp
from passes.loop_utils import rebuild_bra
from passes.pipeline_modulo.codegen import used_outside


class FunctionPeaks:
    """Liveness and per-block peak R pressure of one function."""

    def __init__(self, func: Operation) -> None:
        blocks = list(func.regions[0].blocks)
        self.liveness = Liveness(CFG(blocks))
        self.pressure = RegisterPressure(self.liveness)
        self.index = {b: i for i, b in enumerate(blocks)}
        self.block_peak = [m.get(RegFile.R, 0) for m in self.pressure.block_max]
        self.peak = self.pressure.max.get(RegFile.R, 0)
        order = sorted(range(len(blocks)), key=lambda i: -self.block_peak[i])
        self._top = order[:2]

    def peak_without(self, block: Block) -> int:
        """The largest block peak of the function's other blocks."""
        b = self.index[block]
        for i in self._top:
            if i != b:
                return self.block_peak[i]
        return 0

    def live_after(self, block: Block) -> dict[SSAValue, int]:
        """The values live out of ``block`` (its successors' live-ins, edge
        operands included), each with the R registers it takes."""
        num = self.liveness.numbering
        r = FILES.index(RegFile.R)
        return {num.values[i]: (int(num.width[i]) if int(num.file[i]) == r else 0)
                for i in self.liveness.live_out_array(self.index[block]).tolist()}


class RegionTrial(NamedTuple):
    """What pipelining one loop would give, measured on a copy."""

    peak: int
    """The peak R pressure of the blocks that replace the loop."""
    growth: int
    """SASS instructions those blocks hold beyond the loop's own (prologue,
    epilogue, drains and the kernel's stage copies, after dead code is
    removed), counted by :func:`sass_count`."""


def sass_count(block: Block) -> int:
    """SASS instructions of ``block`` without regard to block order: a
    pseudo-op counts what ``sass_instructions`` says, a pragma none, a
    conditional branch one and an unconditional one none (whether a branch
    falls through is ``ori-block-layout``'s later decision)."""
    n = 0
    for op in block.ops:
        if isinstance(op, BraOp):
            n += op.guard is not None
        elif isinstance(op, OriOp) and not isinstance(op, PragmaOp):
            n += op.sass_instructions()
    return n


def trial_region(block: Block, peaks: FunctionPeaks,
                 transform: Callable[[Block], None]) -> RegionTrial:
    """Peak R pressure and code growth of the blocks that ``transform``
    (the pipeliner, applied to a copy of the single-block loop ``block``)
    would put in ``block``'s place (module docstring)."""
    term = block.last_op
    assert isinstance(term, BraOp)
    own: set[SSAValue] = {*block.args, *(r for op in block.ops for r in op.results)}
    read: list[SSAValue] = []
    seen: set[SSAValue] = set()
    for op in block.ops:
        for v in op.operands:
            if v not in own and v not in seen:
                seen.add(v)
                read.append(v)
    pre = next(p for p in block.predecessors() if p is not block)
    pterm = pre.last_op
    assert isinstance(pterm, BraOp)
    init = list(pterm.edge_args(list(pterm.successors).index(block)))
    after = peaks.live_after(block)
    through = sum(n for v, n in after.items() if v not in own and v not in seen)
    exit_slot = 1 - list(term.successors).index(block)
    kept = [v for v in read if v in after] + used_outside(block, [
        op for op in block.ops if op is not term])

    entry = Block(arg_types=[v.type for v in read] + [v.type for v in init if v not in seen])
    vmap: dict[SSAValue, SSAValue] = dict(zip(read, entry.args[:len(read)], strict=True))
    for v, a in zip([v for v in init if v not in seen], entry.args[len(read):], strict=True):
        vmap.setdefault(v, a)
    loop = Block(arg_types=[a.type for a in block.args])
    vmap.update(zip(block.args, loop.args, strict=True))
    exit_types = [v.type for v in term.edge_args(exit_slot)] + [v.type for v in kept]
    sink = Block(arg_types=exit_types)
    sink.add_op(ExitOp())
    for op in block.ops:
        new = op.clone(value_mapper=vmap, block_mapper={block: loop, term.successors[exit_slot]: sink})
        vmap.update(zip(op.results, new.results, strict=True))
        loop.add_op(new)
    entry.add_op(BraOp(loop, [vmap[v] for v in init]))
    lterm = loop.last_op
    assert isinstance(lterm, BraOp)
    args = [list(lterm.edge_args(k)) for k in range(len(lterm.successors))]
    args[exit_slot] += [vmap[v] for v in kept]
    rebuild_bra(lterm, args=args)
    region = Region([entry, loop, sink])
    transform(loop)
    blocks = list(region.blocks)
    pressure = RegisterPressure(Liveness(CFG(blocks)))
    # the stand-in entry and sink are not the transform's blocks: the real
    # preheader and exit are measured with the rest of the function
    made = [i for i, b in enumerate(blocks) if b is not entry and b is not sink]
    got = max((pressure.block_max[i].get(RegFile.R, 0) for i in made), default=0) + through
    growth = sum(sass_count(blocks[i]) for i in made) - sass_count(block)
    for b in blocks:  # drop the copy (it reads only its own values)
        for op in reversed(list(b.ops)):
            b.erase_op(op, safe_erase=False)
    return RegionTrial(got, growth)


__all__ = ["FunctionPeaks", "RegionTrial", "sass_count", "trial_region"]
