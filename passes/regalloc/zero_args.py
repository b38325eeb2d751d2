"""One zero per block argument: a register-pair zero passed twice on an edge
is written twice instead of copied.

Triton's MMA loops start both accumulator tiles at zero, and CSE merges the
two ``PACK 0, 0, 0, 0`` into one value passed to both loop arguments.  Two
arguments live together need two registers, so one of them gets the value by
an edge copy: a ``MOV`` per 32-bit part (four for a quad).  Written again for
its own argument the zero costs one ``CS2R Rd, SRZ`` per register pair
(:meth:`ori_dialect.ops.integer.PackOp.zero_pairs`), which is what ptxas's
SASS shows for every zeroed accumulator (matmul: ``CS2R R12, SRZ`` ... four
of them for the two quads, on both the loop's entry and its zero-trip
path).  So before allocation, :func:`zeros_per_argument` gives every
repeated occurrence of such a zero among one edge's operands a fresh
``PACK`` of its own, placed just before the branch: the first occurrence
keeps the original.  A zero that is one value (``MOV 0``) is not repeated:
its copy is one ``MOV`` as its second write would be, and a copy can still
be coalesced away where a second write cannot.

Only plain R-file ``ori.pack`` of immediates/RZ that are all 0 with an even
number of parts qualify (the CS2R form); any other constant costs the same
written twice as copied.
"""

from __future__ import annotations

from xdsl.ir import Operation, SSAValue

from ori_dialect.ops.control import BraOp
from ori_dialect.ops.integer import PackOp


def _pair_zero(v: SSAValue) -> PackOp | None:
    """The PACK of zeros defining ``v`` that CS2R can write, else None."""
    op = v.owner
    return op if isinstance(op, PackOp) and op.is_pair_zero() else None


def zeros_per_argument(func: Operation) -> int:
    """Give each repeated pair-zero operand of a branch edge its own PACK
    (module docstring).  Returns the number of PACKs added."""
    added = 0
    for block in func.regions[0].blocks:
        term = block.last_op
        if not isinstance(term, BraOp):
            continue
        n_guard = 1 if term.guard is not None else 0
        n_taken = len(term.taken_args)
        for lo, hi in ((n_guard, n_guard + n_taken), (n_guard + n_taken, len(term.operands))):
            seen: set[SSAValue] = set()
            for i in range(lo, hi):
                v = term.operands[i]
                zero = _pair_zero(v)
                if zero is None:
                    continue
                if v not in seen:
                    seen.add(v)
                    continue
                fresh = zero.clone()
                block.insert_op_before(fresh, term)
                term.operands[i] = fresh.results[0]
                added += 1
    return added
