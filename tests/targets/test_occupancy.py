"""Occupancy model against hand-computed cases.

Notation in the comments: W = warps per block = ceil(threads / 32);
rpw = registers per warp = roundup(regs * 32, 256); a sub-partition holds
floor((65536 / parts) / rpw) warps (parts = 4, or 2 on sm_60); smem per block
= roundup(smem + reserved, unit) with unit 256 B / reserve 0 before sm_80 and
unit 128 B / reserve 1024 B from sm_80.
"""

from __future__ import annotations

import pytest
from xdsl.utils.exceptions import DiagnosticException

from targets import (
    Limiter,
    OccupancyInputError,
    get_target,
    max_regs_for_warps,
    occupancy,
    warps_per_sm,
)

W, B, R, S = Limiter.WARPS, Limiter.BLOCKS, Limiter.REGISTERS, Limiter.SHARED_MEMORY


@pytest.mark.parametrize(
    ("sm", "regs", "threads", "smem", "blocks", "warps", "limiters"),
    [
        # 1. sm_80, 128 thr, 32 regs: W=4; warps 64/4=16; rpw=1024 ->
        #    16384/1024=16 per part -> 64 warps -> 16 blocks; blocks 32;
        #    smem (0+1024)=1024 -> 164.  -> 16 blocks, 64 warps (warps+regs).
        ("sm_80", 32, 128, 0, 16, 64, {W, R}),
        # 2. sm_80, 256 thr, 64 regs: W=8; warps 8; rpw=2048 -> 8 per part ->
        #    32 warps -> 4 blocks.  -> 4 blocks, 32 warps (regs).
        ("sm_80", 64, 256, 0, 4, 32, {R}),
        # 3. sm_86, 128 thr, 32 regs: warps 48/4=12; regs 64 warps -> 16;
        #    blocks 16.  -> 12 blocks, 48 warps (warps).
        ("sm_86", 32, 128, 0, 12, 48, {W}),
        # 4. sm_75, 256 thr, 32 regs: warps 32/8=4; regs 64/8=8; blocks 16.
        #    -> 4 blocks, 32 warps (warps).
        ("sm_75", 32, 256, 0, 4, 32, {W}),
        # 5. sm_80 shared-memory bound: 128 thr, 32 regs, 48 KiB:
        #    49152+1024=50176 (128-aligned); 167936/50176 = 3.  -> 3 blocks,
        #    12 warps (smem).
        ("sm_80", 32, 128, 48 * 1024, 3, 12, {S}),
        # 6. sm_70, 64 thr, 16 regs: W=2; warps 32; blocks 32; rpw=512 ->
        #    32 per part -> 128 warps -> 64 blocks; smem 0 -> no limit.
        #    -> 32 blocks, 64 warps (warps+blocks).
        ("sm_70", 16, 64, 0, 32, 64, {W, B}),
        # 7. sm_80 block-count bound: 32 thr, 32 regs: W=1; warps 64;
        #    blocks 32; regs 64.  -> 32 blocks, 32 warps (blocks).
        ("sm_80", 32, 32, 0, 32, 32, {B}),
        # 8. sm_75 block-count bound: 32 thr -> 16 blocks, 16 warps.
        ("sm_75", 32, 32, 0, 16, 16, {B}),
        # 9. sm_89 has 24 CTAs/SM: 32 thr, 32 regs -> 24 blocks, 24 warps.
        ("sm_89", 32, 32, 0, 24, 24, {B}),
        # 10. register granularity, sm_80 256 thr: 32 regs -> rpw 1024 ->
        #     64 warps -> 8 blocks (also warps-bound: 64/8 = 8).
        ("sm_80", 32, 256, 0, 8, 64, {W, R}),
        # 11. ... 33 regs -> 1056 -> rpw 1280 -> 16384/1280 = 12 per part ->
        #     48 warps -> 6 blocks, 48 warps.
        ("sm_80", 33, 256, 0, 6, 48, {R}),
        # 12. ... 40 regs -> 1280 exactly: same as 33.
        ("sm_80", 40, 256, 0, 6, 48, {R}),
        # 13. ... 41 regs -> 1312 -> 1536 -> 10 per part -> 40 warps -> 5 blocks.
        ("sm_80", 41, 256, 0, 5, 40, {R}),
        # 14. sm_50, 255 regs, 128 thr: 8160 -> rpw 8192 -> 2 per part ->
        #     8 warps -> 2 blocks; per-block regs 4*8192=32768 <= 64K.
        ("sm_50", 255, 128, 0, 2, 8, {R}),
        # 15. sm_50, 255 regs, 512 thr: W=16 -> 16*8192 = 131072 > 65536
        #     registers per block -> cannot launch, 0 blocks.
        ("sm_50", 255, 512, 0, 0, 0, {R}),
        # 16. sm_53 (32K regs/block), 255 regs, 256 thr: 8*8192 = 65536 >
        #     32768 -> 0 blocks; the same launch fits on sm_50 (1 block).
        ("sm_53", 255, 256, 0, 0, 0, {R}),
        ("sm_50", 255, 256, 0, 1, 8, {R}),
        # 17. sm_60 (2 sub-partitions), 96 thr, 200 regs: rpw 6400;
        #     32768/6400 = 5 per part -> 10 warps -> 3 blocks (9 warps).
        ("sm_60", 200, 96, 0, 3, 9, {R}),
        # 18. same kernel on sm_61 (4 parts): 16384/6400 = 2 -> 8 warps ->
        #     2 blocks (6 warps).
        ("sm_61", 200, 96, 0, 2, 6, {R}),
        # 19. sm_61 smem, unit 256: 32 thr, 3000 B -> 3072 -> 98304/3072 =
        #     32 = blocks limit too.  -> 32 blocks (blocks+smem).
        ("sm_61", 0, 32, 3000, 32, 32, {B, S}),
        # 20. ... 3073 B -> 3328 -> 98304/3328 = 29 blocks (smem).
        ("sm_61", 0, 32, 3073, 29, 29, {S}),
        # 21. sm_90, 256 thr, no reg limit, 100 KiB: 102400+1024 = 103424;
        #     233472/103424 = 2 blocks -> 16 warps (smem).
        ("sm_90", 0, 256, 100 * 1024, 2, 16, {S}),
        # 22. sm_120, 1024 thr, 32 regs: warps 48/32 = 1 block -> 32 warps.
        ("sm_120", 32, 1024, 0, 1, 32, {W}),
        # 23. sm_80, 1024 thr, 64 regs: rpw 2048 * 32 warps = 65536 regs per
        #     block (fits); 8 per part -> 32 warps -> 1 block.
        ("sm_80", 64, 1024, 0, 1, 32, {R}),
        # 24. ... 72 regs: rpw 2304 * 32 = 73728 > 65536 -> 0 blocks.
        ("sm_80", 72, 1024, 0, 0, 0, {R}),
        # 25. non-multiple-of-32 block: sm_80, 100 thr -> W=4, as case 1.
        ("sm_80", 32, 100, 0, 16, 64, {W, R}),
    ],
)
def test_hand_computed(
    sm: str,
    regs: int,
    threads: int,
    smem: int,
    blocks: int,
    warps: int,
    limiters: set[Limiter],
) -> None:
    occ = occupancy(get_target(sm), regs, threads, smem)
    assert occ.active_blocks_per_sm == blocks
    assert occ.active_warps_per_sm == warps
    assert occ.limiters == frozenset(limiters)
    assert occ.occupancy == pytest.approx(warps / get_target(sm).max_warps_per_sm)


def test_result_details() -> None:
    occ = occupancy(get_target("sm_80"), 33, 256, 1000)
    assert occ.warps_per_block == 8
    assert occ.registers_per_block == 1280 * 8
    assert occ.shared_memory_per_block == 2048  # 1000 + 1024 -> 2048 (128 B unit)
    assert occ.block_limit_warps == 8
    assert occ.block_limit_blocks == 32
    assert occ.block_limit_registers == 6
    assert occ.block_limit_shared_memory == 82  # 167936 // 2048
    assert occ.occupancy == 0.75
    no_regs = occupancy(get_target("sm_70"), 0, 128)
    assert no_regs.block_limit_registers is None
    assert no_regs.block_limit_shared_memory is None  # sm_70 reserves nothing


def test_warps_per_sm() -> None:
    sm80 = get_target("sm_80")
    assert warps_per_sm(sm80, 32) == 64
    assert warps_per_sm(sm80, 40) == 48
    assert warps_per_sm(sm80, 255) == 8
    assert warps_per_sm(sm80, 0) == 64
    assert warps_per_sm(get_target("sm_86"), 16) == 48  # capped by the SM, not registers
    assert warps_per_sm(sm80, 64, threads_per_block=256) == 32
    assert warps_per_sm(sm80, 32, threads_per_block=128, smem=48 * 1024) == 12
    with pytest.raises(OccupancyInputError):
        warps_per_sm(sm80, 32, smem=1024)


def test_max_regs_for_warps() -> None:
    sm80 = get_target("sm_80")
    assert max_regs_for_warps(sm80, 64) == 32
    assert max_regs_for_warps(sm80, 48) == 40  # 12 per part -> rpw <= 1365 -> 1280
    assert max_regs_for_warps(sm80, 40) == 48  # 10 per part -> 1638 -> 1536
    assert max_regs_for_warps(sm80, 32) == 64
    assert max_regs_for_warps(sm80, 8) == 255  # 2 per part -> 8192 -> 256, capped
    assert max_regs_for_warps(sm80, 1) == 255
    assert max_regs_for_warps(sm80, 6) == 255  # ceil(6/4)=2 per part -> 256 regs
    assert max_regs_for_warps(sm80, 9) == 168  # 3 per part -> 5461 -> 5376 -> 168
    assert max_regs_for_warps(get_target("sm_60"), 64) == 32  # 2 parts, same answer
    # Round trip: the answer allows the warps, one more register does not.
    for warps in range(1, 65):
        regs = max_regs_for_warps(sm80, warps)
        assert warps_per_sm(sm80, regs) >= warps
        if regs < 255:
            assert warps_per_sm(sm80, regs + 1) < warps
    # With a block shape: 256-thread blocks, 48 warps -> 6 blocks -> 40 regs.
    assert max_regs_for_warps(sm80, 48, threads_per_block=256) == 40
    # 1024-thread blocks cannot reach 48 warps on sm_86: only one 32-warp block fits.
    with pytest.raises(OccupancyInputError):
        max_regs_for_warps(get_target("sm_86"), 48, threads_per_block=1024)


@pytest.mark.parametrize(
    ("regs", "threads", "smem", "match"),
    [
        (256, 128, 0, "regs_per_thread"),
        (-1, 128, 0, "regs_per_thread"),
        (32, 0, 0, "threads_per_block"),
        (32, 1025, 0, "threads_per_block"),
        (32, 128, -1, "smem_per_block"),
        (32, 128, 164 * 1024, "smem_per_block"),  # > 163 KiB per block on sm_80
        (32.0, 128, 0, "integer"),
    ],
)
def test_invalid_inputs(regs: int, threads: int, smem: int, match: str) -> None:
    with pytest.raises(OccupancyInputError, match=match) as info:
        occupancy(get_target("sm_80"), regs, threads, smem)
    assert isinstance(info.value, DiagnosticException)


def test_max_regs_for_warps_rejects_bad_counts() -> None:
    with pytest.raises(OccupancyInputError, match="warps"):
        max_regs_for_warps(get_target("sm_75"), 33)
    with pytest.raises(OccupancyInputError, match="warps"):
        max_regs_for_warps(get_target("sm_75"), 0)
