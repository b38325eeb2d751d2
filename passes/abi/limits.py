"""ABI register limit propagation (seed 003 "ABI Register Limit Propagation",
sub_19CE590).

Only on generations 4 and 5 (sm_50..sm_89: ``if sm_gen < 4 or sm_gen > 5:
return``).  A function with an explicit ABI specification keeps its own
limit; every other callee inherits its caller's.  The seed walks the call
edges in reverse and the last caller written wins; ori gives a callee with
several callers the smallest of their limits (a callee must fit the budget
of each caller it runs under; the seed's order-dependent choice is not
reproduced).  The result is recorded as ``ori.abi_max_regs`` on the
callee, which ``ori-regalloc`` uses as the callee's ``max-regs`` when its
own directives set none and it is lower.
"""

from __future__ import annotations

from ori_dialect.ir.abi import AbiAttr
from ori_dialect.ops.func import FuncOp

ABI_LIMIT_ATTR = "ori.abi_max_regs"


def propagate_limits(generation: int, funcs: dict[str, FuncOp], limits: dict[str, int],
                     callees: dict[str, list[str]]) -> dict[str, int]:
    """The effective limit of every function (``limits``: each one's own)."""
    eff = dict(limits)
    if generation < 4 or generation > 5:
        return eff
    # callers before callees: a caller's limit is final when it is handed on
    order: list[str] = []
    state: dict[str, int] = {}

    def visit(n: str) -> None:
        if state.get(n):
            return
        state[n] = 1
        for c in callees.get(n, ()):
            visit(c)
        order.append(n)

    for n in funcs:
        visit(n)
    inherited: dict[str, int] = {}
    for caller in reversed(order):
        for c in callees.get(caller, ()):
            if c == caller or isinstance(funcs[c].abi, AbiAttr):
                continue  # recursion, or an explicit specification: own limit
            lim = inherited.get(c, eff[caller])
            inherited[c] = min(lim, eff[caller])
            eff[c] = min(limits[c], inherited[c])
    return eff


__all__ = ["ABI_LIMIT_ATTR", "propagate_limits"]
