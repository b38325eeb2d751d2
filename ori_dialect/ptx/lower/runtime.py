"""Helper device functions the integer lowerings call (ptxas also calls
internal subroutines for 64-bit division).

Each helper is written in PTX below and lowered once per module by the
importer itself (the instructions it uses -- 64-bit shifts, compares,
subtractions, guarded moves, a counted loop -- are lowered inline, so there
is no recursion); the resulting ``ori.func`` is registered in
``ctx.mod.helpers`` and appended to the module.

``__ori_udivmod64(a, b) -> (a / b, a % b)``: restoring binary division, one
quotient bit per iteration, exact for all inputs.  The leading zeros of ``a``
are skipped (``a`` is pre-shifted by ``clz(a)``; the quotient bits then fill
``x`` from the bottom), so a dividend of ``k`` significant bits takes ``k``
iterations.  The partial
remainder ``r`` may need 65 bits when ``b >= 2^63``; its bit 64 is kept in a
predicate (``%top``), and then ``r >= b`` holds regardless.  With ``b == 0``
every step subtracts nothing and sets its bit; the helper then returns all
ones for both results, the convention for ``x / 0`` and ``x % 0`` -- once,
here, rather than with two SELs and a test after every call (ptxas's own
64-bit division subroutine is likewise one body per kernel).
"""

from __future__ import annotations

from typing import TYPE_CHECKING

from ori_dialect.ptx.parser import parse_ptx

if TYPE_CHECKING:
    from ori_dialect.ptx.lower.builder import LoweringBuilder

_UDIVMOD64 = """
.version 8.0
.target sm_80
.address_size 64
.func (.reg .u64 q, .reg .u64 r) __ori_udivmod64(.reg .u64 a, .reg .u64 b)
{
    .reg .u64 %x, %rem, %t;
    .reg .u32 %i, %n;
    .reg .pred %top, %ge, %more;
    mov.u64 %rem, 0;
    clz.b64 %n, a;
    shl.b64 %x, a, %n;
    sub.u32 %i, 64, %n;
LOOP:
    setp.eq.u32 %more, %i, 0;
    @%more bra DONE;
    setp.lt.s64 %top, %rem, 0;
    shl.b64 %rem, %rem, 1;
    shr.u64 %t, %x, 63;
    or.b64 %rem, %rem, %t;
    shl.b64 %x, %x, 1;
    setp.ge.or.u64 %ge, %rem, b, %top;
    @%ge sub.u64 %rem, %rem, b;
    @%ge or.b64 %x, %x, 1;
    sub.u32 %i, %i, 1;
    bra LOOP;
DONE:
    setp.eq.u64 %more, b, 0;
    selp.b64 q, -1, %x, %more;
    selp.b64 r, -1, %rem, %more;
    ret;
}
"""

_SOURCES = {"__ori_udivmod64": _UDIVMOD64}


def helper(ctx: LoweringBuilder, name: str) -> str:
    """Make sure helper ``name`` is in the module; returns its symbol name."""
    helpers = ctx.mod.helpers
    if name in helpers:
        return name
    filename = f"<ori runtime {name}>"
    tree = parse_ptx(_SOURCES[name], filename)
    (fn,) = tree.functions
    func = ctx.mod.lower_helper(tree, fn, _SOURCES[name], filename)
    for op in func.walk():
        op.attributes.pop("loc", None)  # no source location in the user's file
    helpers[name] = func
    return name


__all__ = ["helper"]
