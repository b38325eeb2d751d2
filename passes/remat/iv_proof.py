"""The overflow proof of IV demotion (seed 002, "IV Demotion": a 64-bit IV
is narrowed when ``(val + 0x80000000) <= 0xFFFFFFFF`` for every value it
takes), for the pattern :mod:`.iv` recognises.

The IV takes the values ``x_k = c0 + k*s`` (exact
integers): ``x_0 .. x_K`` with the body running for ``x_0 .. x_{K-1}``
(the test reads ``next``; ``K`` is the first ``k >= 1`` whose ``x_k`` fails
the test) or ``x_0 .. x_{K+1}`` (the test reads ``%i``; ``K`` is the first
``k >= 0``).  Between two of them the sequence is monotone (``s != 0``), so
it suffices that both ends satisfy the seed's check ``(x + 0x80000000) <=
0xFFFFFFFF``, i.e. ``-2^31 <= x < 2^31``.  ``K`` is found in closed form:
the test is read as ``x CMP N`` on 64-bit values (signed, or unsigned with
``.u32`` on the high word -- then every value must also be ``>= 0`` and
``N < 2^63``, where the unsigned and signed orders agree); for ``lt le gt
ge`` the test is monotone in ``k`` along a monotone sequence, so ``K`` is the
first failing ``k`` of a binary search over the ``k`` that keep ``x_k`` in
range; for ``ne`` it is ``(N - c0) / s`` when exact; a loop that would leave
the range first is not demoted.  The reading of the test is then checked
against the interpreter's own semantics of the two ISETPs (``fold_op``) at
``x_K`` and at the last value that continues: a disagreement leaves the IV
alone.  Since every value lies in ``[-2^31, 2^31)``, the 64-bit IV equals
the sign extension of its low word at every point, which is what the
rewrite uses.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

import numpy as np
from xdsl.ir import BlockArgument, Operation, SSAValue

from ori_dialect.analysis.loops import Loop
from ori_dialect.interpreter.semantics.fold import fold_op
from ori_dialect.ops.integer import IAdd3Op
from ori_dialect.ops.predicate import ISetPOp
from passes.general_optimize.common import known, materialise

_LO, _HI = -(1 << 31), 1 << 31
_M32 = 0xFFFFFFFF


class NotDemoted(Exception):
    """Why an IV stays 64-bit."""


@dataclass
class Test:
    lo: SSAValue
    hi: SSAValue
    q: ISetPOp
    p: ISetPOp
    reads_next: bool
    cont: bool
    """The value of ``p`` that takes the back edge."""
    cmp: str
    unsigned: bool
    bound: int


@dataclass
class WideIV:
    loop: Loop
    arg: BlockArgument
    init: int
    init_op: Operation | None
    """The op defining the initial value (swept when the rewrite kills it)."""
    step: int
    low_add: IAdd3Op
    next: SSAValue
    test: Test


def _model(t: Test, x: int) -> bool:
    """The back edge is taken for the tested value ``x`` (the reading)."""
    n = t.bound
    return {"lt": x < n, "le": x <= n, "gt": x > n, "ge": x >= n, "ne": x != n}[t.cmp]


def _sources(op: ISetPOp, vals: dict[SSAValue, Any]) -> list[Any] | None:
    out: list[Any] = []
    for slot, v in op.slot_values():
        x = vals.get(v) if isinstance(v, SSAValue) else None
        if x is None:
            x = known(v) if isinstance(v, SSAValue) else materialise(op, slot, v)
        if x is None:
            return None
        out.append(x)
    return out


def _real(t: Test, x: int) -> bool | None:
    """The back edge is taken for ``x``, by the interpreter's semantics."""
    vals: dict[SSAValue, Any] = {t.lo: np.uint32(x & _M32), t.hi: np.uint32((x >> 32) & _M32)}
    sq = _sources(t.q, vals)
    if sq is None:
        return None
    rq = fold_op(t.q, sq)
    if rq is None:
        return None
    vals[t.q.results[0]] = np.bool_(bool(np.asarray(rq[0]).reshape(-1)[0]))
    sp = _sources(t.p, vals)
    rp = fold_op(t.p, sp) if sp is not None else None
    if rp is None:
        return None
    return bool(np.asarray(rp[0]).reshape(-1)[0]) == t.cont


def value_range(iv: WideIV) -> tuple[int, int]:
    """The least and greatest value the IV (or its increment) takes; raises
    :class:`NotDemoted` when they are not provably in ``[-2^31, 2^31)``."""
    t, c0, s = iv.test, iv.init, iv.step
    if not _LO <= c0 < _HI:
        raise NotDemoted(f"the initial value {c0} does not fit 32 bits")
    if t.unsigned and (c0 < 0 or t.bound >= 1 << 63):
        raise NotDemoted("an unsigned 64-bit test on values that may not be >= 0")
    k0 = 1 if t.reads_next else 0
    lo_end = -(1 << 31) if not t.unsigned else 0
    kmax = (_HI - 1 - c0) // s if s > 0 else (c0 - lo_end) // (-s)
    if kmax < k0:
        raise NotDemoted("the first tested value does not fit 32 bits")

    def cont(k: int) -> bool:
        return _model(t, c0 + k * s)

    if not cont(k0):
        big_k = k0
    elif t.cmp == "ne":
        q, r = divmod(t.bound - c0, s)
        if r or not k0 <= q <= kmax:
            raise NotDemoted("the IV leaves the 32-bit range before the loop exits")
        big_k = q
    elif cont(kmax):
        raise NotDemoted("the IV leaves the 32-bit range before the loop exits")
    else:
        lo, hi = k0, kmax  # cont(lo) and not cont(hi): find the first failing k
        while hi - lo > 1:
            mid = (lo + hi) // 2
            if cont(mid):
                lo = mid
            else:
                hi = mid
        big_k = hi
    last = big_k + (0 if t.reads_next else 1)
    ends = (c0, c0 + last * s)
    lo_v, hi_v = min(ends), max(ends)
    if not (_LO <= lo_v and hi_v < _HI) or (t.unsigned and lo_v < 0):
        raise NotDemoted(f"the IV reaches {hi_v if hi_v >= _HI else lo_v}, outside 32 bits")
    checks = [(big_k, False)] + ([(big_k - 1, True)] if big_k - 1 >= k0 else [])
    for k, want in checks:
        if _real(t, c0 + k * s) is not want:
            raise NotDemoted("the exit test does not read as a 64-bit compare")
    return lo_v, hi_v




__all__ = ["NotDemoted", "Test", "WideIV", "value_range"]
