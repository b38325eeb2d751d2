"""Which uniform candidates are worth copies: the values that hold an R
register where the R file is fullest (``ori-uniform``'s ``hot-copies``).

A uniform value read by a GPR instruction that cannot take it through its
constant port needs a ``MOV r, ur`` right before that reader.  The copy is
one instruction more, and the R register it takes lives for one instruction
instead of the value's whole range.  That trade pays only where the value's
range crosses the points that set the function's R register count: moving a
value that is live only where the file is half empty saves nothing.
ptxas's listings show the trade taken (``IMAD.U32 R7, RZ, RZ, UR5`` copies
of a uniform ``blockDim * 4`` next to the IMADs reading it, seed 000's
uniform register classes), the seeds give no rule for it; ori's rule is the
one here.

Input: the function's :class:`~ori_dialect.analysis.liveness.Liveness`
before ``ori-uniform`` (virtual registers).  Counting follows
:mod:`ori_dialect.analysis.pressure` at the points after each op (live-after
plus its results) and before it.
"""

from __future__ import annotations

from xdsl.ir import Operation, SSAValue

from ori_dialect.analysis.liveness import FILES, Liveness
from ori_dialect.ir.registers import RegFile
from passes.uniform.select import Plan, copy_sites

_R = FILES.index(RegFile.R)


Point = tuple[int, list[int], Operation | None]
"""A program point: its R register count, the R values live there (value
ids) and, for the point right before an op, that op (None after an op)."""


def r_points(liveness: Liveness) -> list[Point]:
    """Every program point of the function, largest R count first."""
    num = liveness.numbering
    file = num.file.tolist()
    width = num.width.tolist()
    out: list[Point] = []
    for b in range(liveness.cfg.num_blocks):
        live = {i for i in liveness.live_out_array(b).tolist() if file[i] == _R}
        count = sum(width[i] for i in live)
        for op, defs, uses in zip(reversed(num.ops[b]), reversed(num.op_defs[b]),
                                  reversed(num.op_uses[b])):
            if defs:
                rdefs = [v for v in defs if file[v] == _R]
                dead = [v for v in rdefs if v not in live]
                out.append((count + sum(width[v] for v in dead), [*live, *dead], None))
                for v in rdefs:
                    if v in live:
                        live.discard(v)
                        count -= width[v]
            for v in uses:
                if file[v] == _R and v not in live:
                    live.add(v)
                    count += width[v]
            out.append((count, list(live), op))
    out.sort(key=lambda p: -p[0])
    return out


def hot_values(points: list[Point], liveness: Liveness, slack: int) -> set[SSAValue]:
    """The R values live at one of ``points`` whose R count is within
    ``slack`` of the largest."""
    if not points:
        return set()
    top = points[0][0]
    vals = liveness.numbering.values
    hot: set[int] = set()
    for c, ids, _ in points:
        if c < top - slack:
            break
        hot.update(ids)
    return {vals[i] for i in hot}


def r_pressure_with(points: list[Point], liveness: Liveness, plan: Plan) -> int:
    """The function's largest R count (before allocation) once ``plan`` is
    carried out: at each point, the chosen values live there leave the R
    file, and the copies placed before an op (``copy_sites``) join it
    right before that op.  Points are visited fullest first and the walk
    stops when no later one can reach the largest count found."""
    index = liveness.numbering.index
    width = liveness.numbering.width.tolist()
    moved = {index[v] for v in plan.chosen_values() if v in index}
    copies = copy_sites(plan)
    bound = max(copies.values(), default=0)
    best = 0
    for c, ids, op in points:
        if c + bound < best:
            break
        n = c - sum(width[i] for i in ids if i in moved)
        if op is not None:
            n += copies.get(op, 0)
        best = max(best, n)
    return best


__all__ = ["Point", "hot_values", "r_points", "r_pressure_with"]
