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
iterations.  The partial remainder never exceeds the prefix of ``a`` it was
computed from, so before the shift that brings in bit ``k + 1`` it is below
``2^k <= 2^63``: the shifted remainder fits in 64 bits even for divisors
``>= 2^63`` (an earlier version kept a 65th bit in a predicate it never
needed).  ``b == 0`` returns all ones for both results, the convention for
``x / 0`` and ``x % 0``, tested once on entry rather than with two SELs and
a test after every call (ptxas's own 64-bit division subroutine is likewise
one body per kernel).

Registers: the helper's scratch registers are what every caller's values
live across a call must avoid (passes/regalloc/abi.py), so the loop is
written for few live values: the remainder and the dividend/quotient are
shifted as one 128-bit value by 32-bit funnel shifts (``shf.l.wrap``, no
temporary for the carried-out bit), the divisor stays a pair, and ``b``
is not live after the loop.  It allocates to R4-R12 (9 registers; 11
before), which took CUB's histogram sweeps from 66/67 to 62/64 registers.
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
    .reg .u64 %x, %rem;
    .reg .u32 %i, %n, %xl, %xh, %rl, %rh;
    .reg .pred %ge, %more;
    setp.eq.u64 %more, b, 0;
    @%more bra ZERO;
    clz.b64 %n, a;
    shl.b64 %x, a, %n;
    sub.u32 %i, 64, %n;
    mov.b64 {%xl, %xh}, %x;
    mov.u32 %rl, 0;
    mov.u32 %rh, 0;
LOOP:
    setp.eq.u32 %more, %i, 0;
    @%more bra DONE;
    shf.l.wrap.b32 %rh, %rl, %rh, 1;
    shf.l.wrap.b32 %rl, %xh, %rl, 1;
    shf.l.wrap.b32 %xh, %xl, %xh, 1;
    shl.b32 %xl, %xl, 1;
    mov.b64 %rem, {%rl, %rh};
    setp.ge.u64 %ge, %rem, b;
    @%ge sub.u64 %rem, %rem, b;
    mov.b64 {%rl, %rh}, %rem;
    @%ge or.b32 %xl, %xl, 1;
    sub.u32 %i, %i, 1;
    bra LOOP;
DONE:
    mov.b64 q, {%xl, %xh};
    mov.b64 r, {%rl, %rh};
    ret;
ZERO:
    mov.u64 q, -1;
    mov.u64 r, -1;
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
