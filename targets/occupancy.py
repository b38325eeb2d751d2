"""Occupancy model following NVIDIA's published occupancy rules.

This re-states, in our own terms, the arithmetic of the CUDA Occupancy
Calculator / ``cudaOccupancyMaxActiveBlocksPerMultiprocessor`` (as published
in ``cuda_occupancy.h``) for the default cache/carveout configuration:

* warps per block ``W = ceil(threads_per_block / warp_size)``.
* **warps**: ``floor(max_warps_per_sm / W)`` blocks.
* **blocks**: ``max_ctas_per_sm`` blocks.
* **registers** (0 registers per thread = no register limit):
  registers are allocated per warp, ``regs_per_warp = roundup(regs * 32, 256)``,
  and each of the SM's sub-partitions owns ``regs_per_sm / subpartitions`` of
  the register file, so the SM holds
  ``floor(regs_per_sm / subpartitions / regs_per_warp) * subpartitions`` warps
  and ``floor(that / W)`` blocks.  A block whose registers exceed the
  per-block limit cannot launch (0 blocks); the hardware check assumes the
  block's warps are rounded up to a multiple of the sub-partition count.
  GP100 (sm_60, 2 sub-partitions) is additionally checked as a 4-partition
  GP10x part: if the block cannot run there it is reported as 0 blocks, for
  forward compatibility within Pascal (same rule as the calculator).
* **shared memory**: each block allocates
  ``roundup(smem_per_block + reserved_smem_per_block, smem_alloc_unit)``
  (unit 256 B before sm_80, 128 B from sm_80; 1 KiB reserved per block from
  sm_80) out of the largest carveout ``smem_per_sm``.

Active blocks are the minimum of the four limits; every limit equal to that
minimum is reported as a limiter.  Partitioned global caching (a Kepler/
Maxwell-era option, off by default) is not modelled.
"""

from __future__ import annotations

import enum
from dataclasses import dataclass

from targets.descriptor import SMTarget
from targets.errors import OccupancyInputError


class Limiter(enum.Enum):
    """Resource that bounds the number of resident blocks."""

    WARPS = "warps"
    BLOCKS = "blocks"
    REGISTERS = "registers"
    SHARED_MEMORY = "shared_memory"


@dataclass(frozen=True, slots=True)
class Occupancy:
    """Result of :func:`occupancy` for one (target, kernel, launch) triple.

    ``block_limit_*`` fields are the blocks/SM each resource alone allows;
    ``None`` means that resource imposes no limit.
    """

    target: str
    active_blocks_per_sm: int
    active_warps_per_sm: int
    max_warps_per_sm: int
    warps_per_block: int
    limiters: frozenset[Limiter]
    block_limit_warps: int
    block_limit_blocks: int
    block_limit_registers: int | None
    block_limit_shared_memory: int | None
    registers_per_block: int
    """Registers allocated to one block (after per-warp rounding)."""
    shared_memory_per_block: int
    """Shared memory allocated to one block (reserve + rounding included)."""

    @property
    def occupancy(self) -> float:
        """Active warps / maximum resident warps per SM, in [0, 1]."""
        return self.active_warps_per_sm / self.max_warps_per_sm


def _round_up(value: int, unit: int) -> int:
    return -(-value // unit) * unit


def _check_int(name: str, value: object) -> int:
    if isinstance(value, bool) or not isinstance(value, int):
        raise OccupancyInputError(f"{name} must be an integer, got {value!r}")
    return value


def _validate(
    target: SMTarget, regs_per_thread: int, threads_per_block: int, smem_per_block: int
) -> None:
    _check_int("regs_per_thread", regs_per_thread)
    _check_int("threads_per_block", threads_per_block)
    _check_int("smem_per_block", smem_per_block)
    if regs_per_thread < 0 or regs_per_thread > target.max_regs_per_thread:
        raise OccupancyInputError(
            f"{target.name}: regs_per_thread={regs_per_thread} is outside "
            f"0..{target.max_regs_per_thread} (0 means 'no register limit')"
        )
    if threads_per_block < 1 or threads_per_block > target.max_threads_per_block:
        raise OccupancyInputError(
            f"{target.name}: threads_per_block={threads_per_block} is outside "
            f"1..{target.max_threads_per_block}"
        )
    if smem_per_block < 0 or smem_per_block > target.max_smem_per_block:
        raise OccupancyInputError(
            f"{target.name}: smem_per_block={smem_per_block} bytes is outside "
            f"0..{target.max_smem_per_block} (the per-block maximum)"
        )


def reg_limited_warps_per_sm(target: SMTarget, regs_per_thread: int) -> int | None:
    """Warps the register file alone admits (``None`` when ``regs_per_thread`` is 0).

    Registers are split evenly over the sub-partitions and a warp's registers
    live in one sub-partition, hence the per-sub-partition floor.
    """
    if regs_per_thread == 0:
        return None
    regs_per_warp = _round_up(regs_per_thread * target.warp_size, target.reg_alloc_unit)
    per_partition = target.regs_per_sm // target.register_subpartitions
    return (per_partition // regs_per_warp) * target.register_subpartitions


def _reg_block_limit(
    target: SMTarget, regs_per_thread: int, warps_per_block: int, subpartitions: int
) -> int:
    regs_per_warp = _round_up(regs_per_thread * target.warp_size, target.reg_alloc_unit)
    allocated = regs_per_warp * warps_per_block
    assumed = regs_per_warp * _round_up(warps_per_block, subpartitions)
    if allocated > target.max_regs_per_block or assumed > target.max_regs_per_block:
        return 0
    per_partition = target.regs_per_sm // subpartitions
    return (per_partition // regs_per_warp) * subpartitions // warps_per_block


def occupancy(
    target: SMTarget, regs_per_thread: int, threads_per_block: int, smem_per_block: int = 0
) -> Occupancy:
    """Resident blocks/warps per SM for a kernel launch (see module docstring).

    Raises :class:`~targets.errors.OccupancyInputError` for negative values,
    more than ``target.max_regs_per_thread`` registers, more than
    ``target.max_threads_per_block`` threads or more shared memory than one
    block may use.
    """
    _validate(target, regs_per_thread, threads_per_block, smem_per_block)
    warps_per_block = -(-threads_per_block // target.warp_size)

    by_warps = target.max_warps_per_sm // warps_per_block
    by_blocks = target.max_ctas_per_sm

    by_regs: int | None = None
    regs_per_warp = _round_up(regs_per_thread * target.warp_size, target.reg_alloc_unit)
    if regs_per_thread:
        by_regs = _reg_block_limit(
            target, regs_per_thread, warps_per_block, target.register_subpartitions
        )
        # GP100 forward-compatibility rule: a block that cannot run on a
        # 4-sub-partition Pascal part is treated as unlaunchable on GP100 too.
        gp100 = target.sm == 60 and target.register_subpartitions == 2
        if gp100 and by_regs and not _reg_block_limit(target, regs_per_thread, warps_per_block, 4):
            by_regs = 0

    smem_alloc = _round_up(smem_per_block + target.reserved_smem_per_block, target.smem_alloc_unit)
    by_smem = target.smem_per_sm // smem_alloc if smem_alloc else None

    limits: dict[Limiter, int | None] = {
        Limiter.WARPS: by_warps,
        Limiter.BLOCKS: by_blocks,
        Limiter.REGISTERS: by_regs,
        Limiter.SHARED_MEMORY: by_smem,
    }
    active = min(v for v in limits.values() if v is not None)
    limiters = frozenset(k for k, v in limits.items() if v == active)
    return Occupancy(
        target=target.name,
        active_blocks_per_sm=active,
        active_warps_per_sm=active * warps_per_block,
        max_warps_per_sm=target.max_warps_per_sm,
        warps_per_block=warps_per_block,
        limiters=limiters,
        block_limit_warps=by_warps,
        block_limit_blocks=by_blocks,
        block_limit_registers=by_regs,
        block_limit_shared_memory=by_smem,
        registers_per_block=regs_per_warp * warps_per_block,
        shared_memory_per_block=smem_alloc,
    )


def warps_per_sm(
    target: SMTarget,
    regs_per_thread: int,
    threads_per_block: int | None = None,
    smem: int = 0,
) -> int:
    """Resident warps per SM for ``regs_per_thread`` registers.

    With ``threads_per_block`` this is ``occupancy(...).active_warps_per_sm``.
    Without it, block packing is ignored: the answer is
    ``min(max_warps_per_sm, register-limited warps)`` -- the per-warp view a
    register allocator wants (``smem`` must then be 0).
    """
    if threads_per_block is not None:
        return occupancy(target, regs_per_thread, threads_per_block, smem).active_warps_per_sm
    if smem:
        raise OccupancyInputError("warps_per_sm: smem needs threads_per_block")
    _validate(target, regs_per_thread, 1, 0)
    by_regs = reg_limited_warps_per_sm(target, regs_per_thread)
    return target.max_warps_per_sm if by_regs is None else min(target.max_warps_per_sm, by_regs)


def kernel_warps(target: SMTarget, regs_per_thread: int, threads_per_block: int | None) -> int:
    """:func:`warps_per_sm` as a compiler asks it of a kernel: the register
    count clamped to ``1..max_regs_per_thread``, and the launch bounds used
    only when they are a valid block size (whole blocks fit an SM), else
    the per-warp view."""
    if threads_per_block is not None and not 1 <= threads_per_block <= target.max_threads_per_block:
        threads_per_block = None
    regs = max(1, min(regs_per_thread, target.max_regs_per_thread))
    return warps_per_sm(target, regs, threads_per_block)


def max_regs_for_warps(
    target: SMTarget, warps: int, threads_per_block: int | None = None, smem: int = 0
) -> int:
    """Largest registers-per-thread that still allows ``warps`` resident warps per SM.

    The inverse of :func:`warps_per_sm` (same ``threads_per_block``/``smem``
    meaning).  Capped at ``target.max_regs_per_thread``.  Raises
    :class:`~targets.errors.OccupancyInputError` if ``warps`` is not in
    ``1..max_warps_per_sm`` or no register count reaches it.
    """
    _check_int("warps", warps)
    if warps < 1 or warps > target.max_warps_per_sm:
        raise OccupancyInputError(
            f"{target.name}: warps={warps} is outside 1..{target.max_warps_per_sm}"
        )
    if threads_per_block is None and not smem:
        # Closed form: each sub-partition must hold ceil(warps / parts) warps.
        parts = target.register_subpartitions
        per_partition_warps = -(-warps // parts)
        regs_per_warp = target.regs_per_sm // parts // per_partition_warps
        regs_per_warp -= regs_per_warp % target.reg_alloc_unit
        regs = min(target.max_regs_per_thread, regs_per_warp // target.warp_size)
        if regs >= 1:
            return regs
    else:
        for regs in range(target.max_regs_per_thread, 0, -1):
            if warps_per_sm(target, regs, threads_per_block, smem) >= warps:
                return regs
    raise OccupancyInputError(
        f"{target.name}: no register count allows {warps} resident warps"
        + (f" with {threads_per_block}-thread blocks" if threads_per_block else "")
    )
