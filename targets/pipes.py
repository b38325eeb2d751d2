"""ResMII pipe widths per SM, derived from published per-SM throughput.

Seed 001 ("Pipe width values from code_object+16") gives only sm_80's table,
in the order ALU, FMA, DFMA, MMA, LSU, TEX, BRA/SMEM::

    sm_80 = (4, 4, 1, 1, 2, 1, 1)

The widths are the denominators of ``pipe_counts[i] / pipe_width[i]``, i.e.
*relative* issue capacity, so for every other SM we scale sm_80's value by the
ratio of that SM's published per-SM throughput to A100's, take the floor and
clamp to >= 1 (a width of 0 would divide by zero, and a pipe that is
absent -- MMA before Volta -- simply never receives instructions):

* ALU  -- 32-bit integer add/logic results per clock per SM, A100 = 64.
* FMA  -- 32-bit floating-point add/mul/fma results per clock per SM, A100 = 64.
* DFMA -- 64-bit floating-point fma results per clock per SM, A100 = 32.
  Source for these three: CUDA C++ Programming Guide, "Arithmetic
  Instructions" throughput table (results per clock cycle per multiprocessor).
* LSU  -- load/store units per SM, A100 = 32 (8 per sub-partition).  Not in
  the Programming Guide table; taken from the SM diagrams of the NVIDIA
  architecture whitepapers (GM204, GP100, GP104, GV100, TU102, GA100, GA102,
  AD102, GH100, Blackwell).
* TEX  -- texture units per SM, A100 = 4 (whitepapers as above).
* MMA  -- kept at 1 on every SM: a sub-partition issues at most one tensor
  instruction per cycle; per-instruction tensor throughput differences are a
  latency-class matter, not an issue-width one.  Pre-Volta SMs have no tensor
  pipe; width 1 keeps the ResMII division defined.
* BRA/SMEM -- 1 everywhere (one branch / shared-memory control slot per
  sub-partition, as on sm_80).

These are estimates of what ptxas's per-SM profile constructors
(sub_8E7300..sub_8E97B0) store; only sm_80 is attested by the seeds.
"""

from __future__ import annotations

from dataclasses import dataclass

from targets.descriptor import PIPE_NAMES

#: sm_80's widths (seed 001) -- the anchor of the derivation.
SM80_PIPE_WIDTHS: tuple[int, ...] = (4, 4, 1, 1, 2, 1, 1)


@dataclass(frozen=True, slots=True)
class Throughput:
    """Published per-SM figures a pipe width is derived from."""

    int32_add: int
    """32-bit integer add results / clock / SM (Programming Guide)."""
    fp32_fma: int
    """32-bit float fma results / clock / SM (Programming Guide)."""
    fp64_fma: int
    """64-bit float fma results / clock / SM (Programming Guide)."""
    lsu_units: int
    """Load/store units per SM (whitepaper SM diagram)."""
    tex_units: int
    """Texture units per SM (whitepaper SM diagram)."""


#: A100 (sm_80), the anchor: 64 INT32, 64 FP32, 32 FP64, 32 LD/ST, 4 TEX.
A100 = Throughput(int32_add=64, fp32_fma=64, fp64_fma=32, lsu_units=32, tex_units=4)


def _scale(anchor_width: int, value: int, anchor_value: int) -> int:
    return max(1, anchor_width * value // anchor_value)


def derive_pipe_widths(t: Throughput) -> tuple[int, ...]:
    """Scale sm_80's widths by ``t / A100`` per pipe (see module docstring)."""
    alu, fma, dfma, mma, lsu, tex, bra = SM80_PIPE_WIDTHS
    widths = (
        _scale(alu, t.int32_add, A100.int32_add),
        _scale(fma, t.fp32_fma, A100.fp32_fma),
        _scale(dfma, t.fp64_fma, A100.fp64_fma),
        mma,
        _scale(lsu, t.lsu_units, A100.lsu_units),
        _scale(tex, t.tex_units, A100.tex_units),
        bra,
    )
    assert len(widths) == len(PIPE_NAMES)
    return widths


# Per-family throughput figures.  INT32/FP32/FP64 columns: CUDA C++
# Programming Guide throughput table; LSU/TEX: whitepaper SM diagrams.

#: Maxwell GM20x (sm_50/52/53): 128 FP32 = 128 INT32 lanes, FP64 at 1/32 (4),
#: 32 LD/ST (8 per quadrant), 8 texture units per SMM.
MAXWELL = Throughput(int32_add=128, fp32_fma=128, fp64_fma=4, lsu_units=32, tex_units=8)
#: Pascal GP100 (sm_60): 64 FP32, 64 INT32, 32 FP64, 16 LD/ST, 4 TEX per SM.
PASCAL_GP100 = Throughput(int32_add=64, fp32_fma=64, fp64_fma=32, lsu_units=16, tex_units=4)
#: Pascal GP10x (sm_61/62): Maxwell-like SM, FP64 at 1/32.
PASCAL_GP10X = Throughput(int32_add=128, fp32_fma=128, fp64_fma=4, lsu_units=32, tex_units=8)
#: Volta GV100 (sm_70): 64 FP32, 64 INT32, 32 FP64, 32 LD/ST, 4 TEX.
VOLTA = Throughput(int32_add=64, fp32_fma=64, fp64_fma=32, lsu_units=32, tex_units=4)
#: Volta GV10B / Xavier (sm_72): GV100 SM layout, reduced FP64 (the guide's
#: 7.x column gives 2 for the non-7.0 parts).
VOLTA_XAVIER = Throughput(int32_add=64, fp32_fma=64, fp64_fma=2, lsu_units=32, tex_units=4)
#: Turing TU10x (sm_75): 64 FP32, 64 INT32, FP64 2, 16 LD/ST (4 per quadrant).
TURING = Throughput(int32_add=64, fp32_fma=64, fp64_fma=2, lsu_units=16, tex_units=4)
#: Ampere GA10x (sm_86) and GA10B/Orin (sm_87, assumed GA10x-like SM):
#: 128 FP32 (dual FP32 datapath), 64 INT32, FP64 2, 16 LD/ST.
AMPERE_GA10X = Throughput(int32_add=64, fp32_fma=128, fp64_fma=2, lsu_units=16, tex_units=4)
#: Ada AD10x (sm_89): same SM organisation as GA10x.
ADA = AMPERE_GA10X
#: Hopper GH100 (sm_90/90a): 128 FP32, 64 INT32, 64 FP64, 32 LD/ST, 4 TEX.
HOPPER = Throughput(int32_add=64, fp32_fma=128, fp64_fma=64, lsu_units=32, tex_units=4)
#: Blackwell GB100 (sm_100): Hopper-like SM (FP64 at half FP32 rate).
BLACKWELL_DC = HOPPER
#: Blackwell Ultra GB300 (sm_103): FP64 cut to a small fraction; otherwise GB100.
BLACKWELL_ULTRA = Throughput(int32_add=64, fp32_fma=128, fp64_fma=2, lsu_units=32, tex_units=4)
#: Blackwell GB20x (sm_120): 128 unified FP32/INT32 lanes, FP64 2, 16 LD/ST.
BLACKWELL_CONSUMER = Throughput(int32_add=128, fp32_fma=128, fp64_fma=2, lsu_units=16, tex_units=4)
