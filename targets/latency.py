"""Estimated cycles per latency class, per microarchitecture.

The classifier (seed 001, "Latency Class Table") returns one of 13 class ids;
ptxas maps them to cycles through the hardware profile, whose values the
seeds do not give.  The tables below are ESTIMATES assembled from published
microbenchmark figures, assigned to each class by the class's meaning in
seed 001:

====  ==========================================  ==============================
id    seed 001 meaning                            figure we use
====  ==========================================  ==============================
1     skip / predicate move                       1 (no real dependency)
6     simple ALU, bitwise                         dependent-issue ALU latency
7     paired-register ops, FP16 conversion        ALU latency + 1 (pair write)
8     special cases (MUFU-like, SFU pipe)         MUFU latency
9     type conversions (I2F, F2I, I2I)            conversion latency
10    IMAD, shifts                                IMAD latency
11    address computation, LEA                    ALU latency + 1
12    memory ops / FP32 / barriers (LSU)          shared-memory load latency
14    wide memory, atomics, FP64 stores           L1 hit latency
16    FP64 special variants (DFMA pipe)           DFMA latency
20    texture fetches, uniform loads              texture L1 hit latency
26    global loads                                L2 hit latency
31    scoreboard / barrier operands               barrier wait estimate
====  ==========================================  ==============================

Sources (approximate published numbers, rounded):

* Jia, Maggioni, Staiger, Scarpazza, "Dissecting the NVIDIA Volta GPU
  Architecture via Microbenchmarking" (2018) and Jia, Maggioni, Smith,
  Scarpazza, "Dissecting the NVidia Turing T4 GPU via Microbenchmarking"
  (2019): ALU/FFMA dependent latency 6 cycles on Maxwell/Pascal, 4 on
  Volta/Turing; shared memory ~23-24 (Maxwell/Pascal) vs 19 (Volta/Turing);
  L1 hit ~82 (Maxwell/Pascal, texture-path L1) vs 28 (Volta) / 32 (Turing);
  L2 hit ~213 (M60), ~234 (P100), ~193 (V100), ~188 (T4).
* Abdelkhalik et al., "Demystifying the Nvidia Ampere Architecture through
  Microbenchmarking and Instruction-level Analysis" (2022): A100 ALU/FFMA 4,
  shared memory ~23, L1 ~33, L2 ~200.
* Luo et al., "Benchmarking and Dissecting the Nvidia Hopper GPU
  Architecture" (2024): H100 shared memory ~29, L1 ~33, L2 ~260.
* Ada and Blackwell figures are extrapolated from their closest published
  relatives (Ampere GA10x and Hopper respectively) -- least certain of all.

MUFU, conversion, DFMA-on-reduced-FP64-parts, texture and barrier figures are
coarse estimates within the ranges those papers report; treat every number as
a scheduling heuristic, not a measurement.
"""

from __future__ import annotations

from types import MappingProxyType

from targets.descriptor import LATENCY_CLASSES

LatencyTable = MappingProxyType[int, int]


def _table(
    alu: int, mufu: int, cvt: int, imad: int, smem: int, l1: int, dfma: int, tex: int, l2: int
) -> LatencyTable:
    cycles = {
        1: 1,
        6: alu,
        7: alu + 1,
        8: mufu,
        9: cvt,
        10: imad,
        11: alu + 1,
        12: smem,
        14: l1,
        16: dfma,
        20: tex,
        26: l2,
        31: 20,
    }
    assert tuple(sorted(cycles)) == LATENCY_CLASSES
    return MappingProxyType(cycles)


# Full-rate FP64 parts (GP100, GV100, GA100, GH100, GB100) issue DFMA at ~8
# cycles dependent latency; reduced-rate parts run FP64 through a narrow unit
# and are modelled at ~32 (estimate).
_DFMA_FULL = 8
_DFMA_SLOW = 32

MAXWELL = _table(alu=6, mufu=18, cvt=14, imad=6, smem=23, l1=82, dfma=_DFMA_SLOW, tex=96, l2=213)
PASCAL_GP100 = _table(
    alu=6, mufu=18, cvt=14, imad=6, smem=24, l1=82, dfma=_DFMA_FULL, tex=96, l2=234
)
PASCAL_GP10X = _table(
    alu=6, mufu=18, cvt=14, imad=6, smem=24, l1=82, dfma=_DFMA_SLOW, tex=96, l2=216
)
VOLTA = _table(alu=4, mufu=14, cvt=12, imad=5, smem=19, l1=28, dfma=_DFMA_FULL, tex=86, l2=193)
VOLTA_XAVIER = _table(
    alu=4, mufu=14, cvt=12, imad=5, smem=19, l1=28, dfma=_DFMA_SLOW, tex=86, l2=193
)
TURING = _table(alu=4, mufu=14, cvt=12, imad=5, smem=19, l1=32, dfma=_DFMA_SLOW, tex=86, l2=188)
AMPERE_GA100 = _table(
    alu=4, mufu=14, cvt=12, imad=4, smem=23, l1=33, dfma=_DFMA_FULL, tex=86, l2=200
)
AMPERE_GA10X = _table(
    alu=4, mufu=14, cvt=12, imad=4, smem=23, l1=33, dfma=_DFMA_SLOW, tex=86, l2=200
)
ADA = _table(alu=4, mufu=14, cvt=12, imad=4, smem=23, l1=33, dfma=_DFMA_SLOW, tex=86, l2=220)
HOPPER = _table(alu=4, mufu=14, cvt=12, imad=4, smem=29, l1=33, dfma=_DFMA_FULL, tex=86, l2=260)
BLACKWELL_DC = HOPPER
BLACKWELL_ULTRA = _table(
    alu=4, mufu=14, cvt=12, imad=4, smem=29, l1=33, dfma=_DFMA_SLOW, tex=86, l2=260
)
BLACKWELL_CONSUMER = _table(
    alu=4, mufu=14, cvt=12, imad=4, smem=23, l1=33, dfma=_DFMA_SLOW, tex=86, l2=220
)
