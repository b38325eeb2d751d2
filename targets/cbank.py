"""Where the driver puts launch data in constant bank 0.

Kernels read their parameters and the launch geometry from ``c[0x0][...]``;
the layout moved twice.  The offsets for sm_75 through sm_120 were read off
the SASS that nvcc/ptxas 13.0 produce for a small kernel using
``blockDim``, ``gridDim`` and three parameters (``cuobjdump -sass``)::

    sm_75, sm_80:   MOV R1, c[0x0][0x28]; IMAD R0, R3, c[0x0][0x0], R0;
                    ISETP ... c[0x0][0x168]  (2nd parameter; 1st at 0x160)
    sm_90:          LDC R1, c[0x0][0x28];  LDC.64 R2, c[0x0][0x210] (1st param)
    sm_100, sm_120: LDC R1, c[0x0][0x37c]; LDC R5, c[0x0][0x360] (blockDim.x);
                    LDC.64 R2, c[0x0][0x380] (1st parameter)

CUDA 13 no longer targets sm_50..sm_72; for those the layout is the one
listings of earlier toolkits show: parameters from 0x140 on Maxwell and
Pascal, 0x160 on Volta, with ``blockDim`` at 0x0 and ``gridDim`` at 0xc.
"""

from __future__ import annotations

from dataclasses import dataclass


@dataclass(frozen=True, slots=True)
class ConstBankLayout:
    """Byte offsets in constant bank 0."""

    ntid: int
    """``blockDim.x``; y and z follow at +4 and +8."""
    nctaid: int
    """``gridDim.x``; y and z follow at +4 and +8."""
    stack_init: int
    """Initial stack pointer (the value ptxas moves into R1)."""
    params: int
    """First byte of the kernel parameter area."""


def cbank_layout_for_sm(sm: int) -> ConstBankLayout:
    if sm >= 100:
        return ConstBankLayout(ntid=0x360, nctaid=0x36C, stack_init=0x37C, params=0x380)
    if sm >= 90:
        return ConstBankLayout(ntid=0x0, nctaid=0xC, stack_init=0x28, params=0x210)
    if sm >= 70:
        return ConstBankLayout(ntid=0x0, nctaid=0xC, stack_init=0x28, params=0x160)
    return ConstBankLayout(ntid=0x0, nctaid=0xC, stack_init=0x20, params=0x140)
