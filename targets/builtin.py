"""Built-in SM target descriptors (sm_50 .. sm_120).

Loaded only through the ``ori.targets`` entry point declared in ori's
pyproject (``builtin = "targets.builtin:builtin_targets"``), the same path a
third-party plugin takes.

Sources for the per-SM limits
-----------------------------
* Warps/SM, CTAs/SM, threads/block, registers/SM and /block, shared memory
  per SM and per block: CUDA C++ Programming Guide, "Technical
  Specifications per Compute Capability", cross-checked against the
  per-architecture tuning guides (Volta, Turing, Ampere, Ada, Hopper,
  Blackwell) for the shared-memory carveout lists.
* Register and shared-memory allocation granularities, sub-partitions per SM
  and the 1 KiB per-CTA reserved shared memory: CUDA occupancy calculator
  (``cuda_occupancy.h``: shared memory unit 256 B for compute capability
  3.x-7.x, 128 B for 8.x and later; 256 registers per warp; 4 sub-partitions,
  2 on GP100) and the ``reservedSharedMemPerBlock`` device property (1024 on
  8.0+, 0 before).
* Where sources disagree:
  - sm_120 CTAs/SM: the Blackwell Tuning Guide states 32 for compute
    capability 10.0 and 12.0; some tables copy Ada's 24.  We use 32.
  - sm_120 shared memory: the tuning guide quotes a 128 KB unified L1/shared
    array; the per-SM shared-memory maximum (device property) is 100 KB
    with 99 KB per block, which is what occupancy uses.  We use 100 KB.
  - sm_53 and sm_62 (Tegra) allow only 32K registers per block (guide), vs
    64K elsewhere.
* Register-file limits: seed 000 "Register Classes" (R 255, UR 63, P/UP 7);
  UR/UP exist from sm_75 (Turing); 16 convergence-barrier registers B0-B15
  from sm_70 (Volta's independent thread scheduling), none before.
* ABI generation / minimum registers: seed 003 "SM Generation Dispatch".
* Pipe widths: :mod:`targets.pipes`; latencies: :mod:`targets.latency`.
"""

from __future__ import annotations

from targets import latency, pipes
from targets.descriptor import SMTarget, abi_generation_for_sm, sm_version_code_for
from targets.latency import LatencyTable
from targets.pipes import Throughput

KIB = 1024

# Register files by era (seed 000).  R0-R254 allocatable; RZ is R255.
_REGS_MAXWELL_PASCAL = {"R": 255, "UR": 0, "P": 7, "UP": 0, "B": 0}
_REGS_VOLTA = {"R": 255, "UR": 0, "P": 7, "UP": 0, "B": 16}
_REGS_TURING_PLUS = {"R": 255, "UR": 63, "P": 7, "UP": 7, "B": 16}

# Shared-memory carveouts per SM in KiB (tuning guides).
_CARVE_VOLTA = (0, 8, 16, 32, 64, 96)
_CARVE_TURING = (32, 64)
_CARVE_GA100 = (0, 8, 16, 32, 64, 100, 132, 164)
_CARVE_GA10X = (0, 8, 16, 32, 64, 100)
_CARVE_HOPPER = (0, 8, 16, 32, 64, 100, 132, 164, 196, 228)


def _target(
    sm: int,
    family: str,
    codegen_family: int,
    *,
    warps: int,
    ctas: int,
    smem_kib: int,
    smem_block_kib: int,
    regs: dict[str, int],
    throughput: Throughput,
    latencies: LatencyTable,
    carveouts_kib: tuple[int, ...] = (),
    suffix: str = "",
    regs_per_block: int = 64 * KIB,
    subpartitions: int = 4,
) -> SMTarget:
    # cuda_occupancy.h: 128 B shared-memory granularity and the 1 KiB
    # per-CTA driver reservation both start with compute capability 8.0.
    ampere_plus = sm >= 80
    return SMTarget(
        name=f"sm_{sm}{suffix}",
        sm=sm,
        family=family,
        abi_generation=abi_generation_for_sm(sm),
        sm_version_code=sm_version_code_for(codegen_family, sm),
        register_limits=regs,
        pipe_widths=pipes.derive_pipe_widths(throughput),
        latency_cycles=latencies,
        max_warps_per_sm=warps,
        max_ctas_per_sm=ctas,
        smem_per_sm=smem_kib * KIB,
        max_smem_per_block=smem_block_kib * KIB,
        smem_carveouts=tuple(c * KIB for c in carveouts_kib),
        smem_alloc_unit=128 if ampere_plus else 256,
        reserved_smem_per_block=KIB if ampere_plus else 0,
        arch_specific=bool(suffix),
        max_regs_per_block=regs_per_block,
        register_subpartitions=subpartitions,
    )


def _maxwell(sm: int, smem_kib: int, regs_per_block: int = 64 * KIB) -> SMTarget:
    return _target(
        sm, "Maxwell", 4, warps=64, ctas=32, smem_kib=smem_kib, smem_block_kib=48,
        regs=_REGS_MAXWELL_PASCAL, throughput=pipes.MAXWELL, latencies=latency.MAXWELL,
        regs_per_block=regs_per_block,
    )  # fmt: skip


def _pascal(sm: int, smem_kib: int, regs_per_block: int = 64 * KIB) -> SMTarget:
    gp100 = sm == 60
    return _target(
        sm, "Pascal", 5, warps=64, ctas=32, smem_kib=smem_kib, smem_block_kib=48,
        regs=_REGS_MAXWELL_PASCAL,
        throughput=pipes.PASCAL_GP100 if gp100 else pipes.PASCAL_GP10X,
        latencies=latency.PASCAL_GP100 if gp100 else latency.PASCAL_GP10X,
        regs_per_block=regs_per_block,
        # cuda_occupancy.h: GP100 SMs have 2 sub-partitions, GP10x have 4.
        subpartitions=2 if gp100 else 4,
    )  # fmt: skip


def _volta(sm: int) -> SMTarget:
    xavier = sm == 72
    return _target(
        sm, "Volta", 6, warps=64, ctas=32, smem_kib=96, smem_block_kib=96,
        regs=_REGS_VOLTA, carveouts_kib=_CARVE_VOLTA,
        throughput=pipes.VOLTA_XAVIER if xavier else pipes.VOLTA,
        latencies=latency.VOLTA_XAVIER if xavier else latency.VOLTA,
    )  # fmt: skip


def _hopper(suffix: str) -> SMTarget:
    return _target(
        90, "Hopper", 9, warps=64, ctas=32, smem_kib=228, smem_block_kib=227,
        regs=_REGS_TURING_PLUS, carveouts_kib=_CARVE_HOPPER,
        throughput=pipes.HOPPER, latencies=latency.HOPPER, suffix=suffix,
    )  # fmt: skip


def _blackwell_dc(sm: int) -> SMTarget:
    ultra = sm == 103
    return _target(
        sm, "Blackwell", 10, warps=64, ctas=32, smem_kib=228, smem_block_kib=227,
        regs=_REGS_TURING_PLUS, carveouts_kib=_CARVE_HOPPER,
        throughput=pipes.BLACKWELL_ULTRA if ultra else pipes.BLACKWELL_DC,
        latencies=latency.BLACKWELL_ULTRA if ultra else latency.BLACKWELL_DC,
    )  # fmt: skip


def _build() -> tuple[SMTarget, ...]:
    return (
        _maxwell(50, smem_kib=64),
        _maxwell(52, smem_kib=96),
        _maxwell(53, smem_kib=64, regs_per_block=32 * KIB),
        _pascal(60, smem_kib=64),
        _pascal(61, smem_kib=96),
        _pascal(62, smem_kib=64, regs_per_block=32 * KIB),
        _volta(70),
        _volta(72),
        _target(
            75, "Turing", 6, warps=32, ctas=16, smem_kib=64, smem_block_kib=64,
            regs=_REGS_TURING_PLUS, carveouts_kib=_CARVE_TURING,
            throughput=pipes.TURING, latencies=latency.TURING,
        ),
        _target(
            80, "Ampere", 7, warps=64, ctas=32, smem_kib=164, smem_block_kib=163,
            regs=_REGS_TURING_PLUS, carveouts_kib=_CARVE_GA100,
            throughput=pipes.A100, latencies=latency.AMPERE_GA100,
        ),
        _target(
            86, "Ampere", 7, warps=48, ctas=16, smem_kib=100, smem_block_kib=99,
            regs=_REGS_TURING_PLUS, carveouts_kib=_CARVE_GA10X,
            throughput=pipes.AMPERE_GA10X, latencies=latency.AMPERE_GA10X,
        ),
        # Orin: GA10x-style 48-warp SM with GA100's 164 KB shared memory.
        _target(
            87, "Ampere", 7, warps=48, ctas=16, smem_kib=164, smem_block_kib=163,
            regs=_REGS_TURING_PLUS, carveouts_kib=_CARVE_GA100,
            throughput=pipes.AMPERE_GA10X, latencies=latency.AMPERE_GA10X,
        ),
        _target(
            89, "Ada", 8, warps=48, ctas=24, smem_kib=100, smem_block_kib=99,
            regs=_REGS_TURING_PLUS, carveouts_kib=_CARVE_GA10X,
            throughput=pipes.ADA, latencies=latency.ADA,
        ),
        _hopper(""),
        _hopper("a"),
        _blackwell_dc(100),
        _blackwell_dc(103),
        _target(
            120, "Blackwell", 12, warps=48, ctas=32, smem_kib=100, smem_block_kib=99,
            regs=_REGS_TURING_PLUS, carveouts_kib=_CARVE_GA10X,
            throughput=pipes.BLACKWELL_CONSUMER, latencies=latency.BLACKWELL_CONSUMER,
        ),
    )  # fmt: skip


BUILTIN_TARGETS: tuple[SMTarget, ...] = _build()


def builtin_targets() -> list[SMTarget]:
    """Entry-point callable for the ``ori.targets`` group: every built-in target."""
    return list(BUILTIN_TARGETS)
