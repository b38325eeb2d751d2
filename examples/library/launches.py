"""Launch table for the library kernels in ``examples/library``.

One :class:`LibraryLaunch` (a :class:`examples.cuda.launches.Launch` whose PTX lives in
``examples/library/ptx``) per launchable kernel, with the same conventions: ``make_args``
gives the arguments in parameter order (arrays for pointers, numpy scalars for values),
``expected`` what each argument must hold afterwards (``None``: not checked).  Every kernel
here is integer or exact by construction, so every comparison is bit-exact.

Kernels that read module-scope variables which a host sets with ``cudaMemcpyToSymbol``
list them in ``symbols`` (name -> initial bytes as a numpy array).  ``run_kernel`` has no
way to set them yet; the test skips those launches until it does.

The kernels whose parameters are CUB- or Thrust-internal structs (device-wide algorithms,
Thrust's parallel back end) are not launched: :data:`COMPILE_ONLY` names the files whose
kernels are only imported and compiled.
"""

from __future__ import annotations

import sys
from collections.abc import Callable
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

import numpy as np

LIBRARY_DIR = Path(__file__).resolve().parent
ROOT = LIBRARY_DIR.parents[1]
if str(ROOT) not in sys.path:  # loaded by path (tests, scripts): make ``examples`` importable
    sys.path.insert(0, str(ROOT))

from examples.cuda.launches import Launch

PTX_DIR = LIBRARY_DIR / "ptx"

Args = list[Any]
M32 = (1 << 32) - 1


@dataclass(frozen=True)
class LibraryLaunch(Launch):
    """A :class:`Launch` of a library kernel (its PTX is under ``examples/library/ptx``)."""

    symbols: dict[str, np.ndarray] = field(default_factory=dict)
    """Module-scope variables the host must set before the launch (cudaMemcpyToSymbol)."""
    printed: Callable[[Args], list[str]] | None = None
    """The lines the kernel's ``printf`` calls print, in any order (CUDA
    does not order the threads' output)."""

    def ptx_path(self, arch: str) -> Path:
        return PTX_DIR / arch / (Path(self.file).stem + ".ptx")


# ----------------------------------------------------------------------------- helpers


def _ints(rng: np.random.Generator, n: int, lo: int = -1000, hi: int = 1000) -> np.ndarray:
    return rng.integers(lo, hi, n, dtype=np.int64).astype(np.int32)


def _u32(rng: np.random.Generator, n: int) -> np.ndarray:
    return rng.integers(0, 1 << 32, n, dtype=np.uint64).astype(np.uint32)


def _wrap32(x: np.ndarray) -> np.ndarray:
    """int64 values to int32 with C's two's-complement wrap."""
    return (np.asarray(x, np.int64) & M32).astype(np.uint32).view(np.int32)


def _tiles(x: np.ndarray, size: int) -> np.ndarray:
    return np.asarray(x).reshape(-1, size)


def _cumsum(x: np.ndarray, size: int) -> np.ndarray:
    """Inclusive sum within consecutive groups of ``size`` (int32 wrap)."""
    return _wrap32(np.cumsum(_tiles(x.astype(np.int64), size), axis=1).ravel())


def _exclusive(x: np.ndarray, size: int) -> np.ndarray:
    t = _tiles(x.astype(np.int64), size)
    ex = np.cumsum(t, axis=1) - t
    return _wrap32(ex.ravel())


def _runmax(x: np.ndarray, size: int) -> np.ndarray:
    return np.maximum.accumulate(_tiles(x, size), axis=1).ravel().astype(x.dtype)


# ============================================================================= cub_block.cu

BT, IPT = 64, 4
TILE = BT * IPT
CB = "cub_block.cu"


def _tile_sum_args(rng: np.random.Generator) -> Args:
    return [_ints(rng, 2 * TILE), np.zeros(2, np.int32)]


def _tile_sum_exp(args: Args) -> Args:
    x = args[0].astype(np.int64)
    return [None, _wrap32(_tiles(x, TILE).sum(axis=1))]


MAX_VALID = 50


def _block_max_args(rng: np.random.Generator) -> Args:
    return [_ints(rng, 2 * BT), np.zeros(2, np.int32), np.int32(MAX_VALID)]


def _block_max_exp(args: Args) -> Args:
    x = _tiles(args[0], BT)[:, :MAX_VALID]
    return [None, x.max(axis=1).astype(np.int32), None]


def _scan_args(rng: np.random.Generator) -> Args:
    return [_ints(rng, 2 * TILE), np.zeros(2 * TILE, np.int32)]


def _scan_incl_exp(args: Args) -> Args:
    return [None, _cumsum(args[0], TILE)]


def _scan_agg_args(rng: np.random.Generator) -> Args:
    return [_ints(rng, 2 * BT), np.zeros(2 * BT, np.int32), np.zeros(2, np.int32)]


def _scan_agg_exp(args: Args) -> Args:
    x = args[0]
    return [None, _exclusive(x, BT), _wrap32(_tiles(x.astype(np.int64), BT).sum(axis=1))]


EXMAX_INIT = -1000000


def _scan_exmax_exp(args: Args) -> Args:
    t = _tiles(args[0], TILE)
    run = np.maximum.accumulate(t, axis=1)
    ex = np.concatenate([np.full((t.shape[0], 1), EXMAX_INIT), run[:, :-1]], axis=1)
    return [None, np.maximum(ex, EXMAX_INIT).ravel().astype(np.int32)]


def _scan_inmax_args(rng: np.random.Generator) -> Args:
    return [_ints(rng, 2 * TILE), np.zeros(2 * TILE, np.int32), np.zeros(2, np.int32)]


def _scan_inmax_exp(args: Args) -> Args:
    x = args[0]
    return [None, _runmax(x, TILE), _tiles(x, TILE).max(axis=1).astype(np.int32)]


PREFIX_TILES = 3


def _prefix_args(rng: np.random.Generator) -> Args:
    n = PREFIX_TILES * TILE
    return [_ints(rng, n), np.zeros(n, np.int32), np.int32(PREFIX_TILES)]


def _prefix_exp(args: Args) -> Args:
    x = args[0]
    return [None, _exclusive(x, len(x)), None]


def _copy_exp(args: Args) -> Args:
    return [None, _wrap32(3 * args[0].astype(np.int64) + 1)]


PARTIAL_VALID = 200


def _partial_args(rng: np.random.Generator) -> Args:
    return [_ints(rng, TILE), np.full(TILE, -1, np.int32), np.int32(PARTIAL_VALID)]


def _partial_exp(args: Args) -> Args:
    x, out, _ = args
    want = out.copy()
    idx = np.arange(PARTIAL_VALID)
    want[:PARTIAL_VALID] = x[:PARTIAL_VALID] + idx
    return [None, want, None]


def _tile_args(rng: np.random.Generator) -> Args:
    return [_ints(rng, TILE), np.zeros(TILE, np.int32)]


def _s2b_exp(args: Args) -> Args:
    # After StripedToBlocked thread t holds tile ranks t*IPT..t*IPT+IPT-1.
    j = np.arange(TILE)
    return [None, (args[0] * 2 + j % IPT).astype(np.int32)]


def _b2s_exp(args: Args) -> Args:
    j = np.arange(TILE)
    return [None, (args[0] - j // BT).astype(np.int32)]


def _scatter_args(rng: np.random.Generator) -> Args:
    return [_ints(rng, TILE), rng.permutation(TILE).astype(np.int32), np.zeros(TILE, np.int32)]


def _scatter_exp(args: Args) -> Args:
    x, ranks, out = args
    want = np.empty_like(out)
    want[ranks] = x
    return [None, None, want]


def _rsort_keys_args(rng: np.random.Generator) -> Args:
    return [_u32(rng, 2 * TILE), np.zeros(2 * TILE, np.uint32)]


def _rsort_keys_exp(args: Args) -> Args:
    return [None, np.sort(_tiles(args[0], TILE), axis=1).ravel()]


def _rsort_pairs_args(rng: np.random.Generator) -> Args:
    # Distinct keys (negative ones included): the descending order is unique.
    keys = rng.choice(np.arange(-100000, 100000), TILE, replace=False).astype(np.int32)
    return [keys, _ints(rng, TILE), np.zeros(TILE, np.int32), np.zeros(TILE, np.int32)]


def _rsort_pairs_exp(args: Args) -> Args:
    keys, vals, _, _ = args
    order = np.argsort(-keys.astype(np.int64), kind="stable")
    return [None, None, keys[order], vals[order]]


BINS = 64


def _hist_args(rng: np.random.Generator) -> Args:
    return [rng.integers(0, BINS, 2 * TILE).astype(np.uint8), np.zeros(BINS, np.uint32)]


def _hist_exp(args: Args) -> Args:
    return [None, np.bincount(args[0], minlength=BINS).astype(np.uint32)]


DISC_N = 2 * TILE


def _disc_args(rng: np.random.Generator) -> Args:
    z = np.zeros(DISC_N, np.int32)
    return [_ints(rng, DISC_N, 0, 3), z, z.copy(), np.int32(DISC_N)]


def _disc_exp(args: Args) -> Args:
    x = args[0]
    heads = np.ones(DISC_N, np.int32)
    heads[1:] = x[1:] != x[:-1]
    tails = np.ones(DISC_N, np.int32)
    tails[:-1] = x[:-1] != x[1:]
    return [None, heads, tails, None]


ADJ_VALID = TILE - 3


def _adj_args(rng: np.random.Generator) -> Args:
    return [_ints(rng, TILE), np.zeros(TILE, np.int32), np.zeros(TILE, np.int32)]


def _adj_exp(args: Args) -> Args:
    x = args[0]
    left = x.copy()
    left[1:] = x[1:] - x[:-1]
    right = x.copy()
    right[: ADJ_VALID - 1] = x[: ADJ_VALID - 1] - x[1:ADJ_VALID]
    return [None, left, right]


def _shuffle_args(rng: np.random.Generator) -> Args:
    return [
        _ints(rng, TILE),
        np.zeros(BT, np.int32),
        np.zeros(TILE, np.int32),
        np.zeros(BT, np.int32),
    ]


def _shuffle_exp(args: Args) -> Args:
    x = args[0]
    t = np.arange(BT)
    offset = np.where(t + 3 < BT, x[np.minimum(t + 3, BT - 1)], -1).astype(np.int32)
    return [None, offset, np.roll(x, 1), x[(t + 5) % BT]]


def _cb(
    kernel: str, make_args: Any, expected: Any, grid: int = 1, covers: str = ""
) -> LibraryLaunch:
    return LibraryLaunch(CB, kernel, (grid, 1, 1), (BT, 1, 1), make_args, expected, covers=covers)


CUB_BLOCK: list[LibraryLaunch] = [
    *[
        _cb(f"block_reduce_sum_{alg}", _tile_sum_args, _tile_sum_exp, 2, f"BlockReduce {alg} Sum")
        for alg in ("warp_reductions", "raking", "raking_commutative")
    ],
    *[
        _cb(f"block_reduce_max_{alg}", _block_max_args, _block_max_exp, 2, "Reduce(op, num_valid)")
        for alg in ("warp_reductions", "raking", "raking_commutative")
    ],
    *[
        _cb(f"block_scan_inclusive_sum_{alg}", _scan_args, _scan_incl_exp, 2, f"BlockScan {alg}")
        for alg in ("raking", "raking_memoize", "warp_scans")
    ],
    _cb("block_scan_exclusive_sum_aggregate", _scan_agg_args, _scan_agg_exp, 2),
    _cb("block_scan_exclusive_max_raking", _scan_args, _scan_exmax_exp, 2),
    _cb("block_scan_inclusive_max_warp_scans", _scan_inmax_args, _scan_inmax_exp, 2),
    _cb("block_scan_prefix_callback_raking_memoize", _prefix_args, _prefix_exp),
    _cb("block_scan_prefix_callback_warp_scans", _prefix_args, _prefix_exp),
    *[
        _cb(f"block_load_store_{alg}", _scan_args, _copy_exp, 2, f"BlockLoad/Store {alg}")
        for alg in ("direct", "vectorize", "transpose", "warp_transpose")
    ],
    _cb("block_load_store_partial", _partial_args, _partial_exp),
    _cb("block_exchange_striped_to_blocked", _tile_args, _s2b_exp),
    _cb("block_exchange_blocked_to_striped", _tile_args, _b2s_exp),
    _cb("block_exchange_scatter_to_striped", _scatter_args, _scatter_exp),
    _cb("block_radix_sort_keys", _rsort_keys_args, _rsort_keys_exp, 2),
    _cb("block_radix_sort_pairs", _rsort_pairs_args, _rsort_pairs_exp),
    _cb("block_histogram_sort", _hist_args, _hist_exp, 2),
    _cb("block_histogram_atomic", _hist_args, _hist_exp, 2),
    _cb("block_discontinuity_flags", _disc_args, _disc_exp, 2),
    _cb("block_adjacent_difference", _adj_args, _adj_exp),
    _cb("block_shuffle", _shuffle_args, _shuffle_exp),
]

# ============================================================================= cub_warp.cu

WB = 64
CW = "cub_warp.cu"
WTILE = 32 * 4


def _warp_args(rng: np.random.Generator, outs: int) -> Args:
    return [_ints(rng, WB), np.zeros(outs, np.int32)]


def _wsum_exp(args: Args) -> Args:
    return [None, _wrap32(_tiles(args[0].astype(np.int64), 32).sum(axis=1))]


WMAX_VALID = 11


def _wmax_args(rng: np.random.Generator) -> Args:
    return [*_warp_args(rng, WB // 16), np.int32(WMAX_VALID)]


def _wmax_exp(args: Args) -> Args:
    return [None, _tiles(args[0], 16)[:, :WMAX_VALID].max(axis=1).astype(np.int32), None]


def _wseg_args(rng: np.random.Generator) -> Args:
    heads = (rng.random(WB) < 0.25).astype(np.int32)
    heads[::32] = 1  # every warp starts a segment
    return [_ints(rng, WB), heads, np.full(WB, -5, np.int32)]


def _wseg_exp(args: Args) -> Args:
    x, heads, _ = args
    out = np.zeros(WB, np.int32)
    for j in np.flatnonzero(heads):
        end = j + 1
        while end % 32 and not heads[end]:
            end += 1
        out[j] = _wrap32(x[j:end].astype(np.int64).sum())
    return [None, None, out]


def _wscan_exp(args: Args) -> Args:
    return [None, _cumsum(args[0], 32)]


def _wscan8_args(rng: np.random.Generator) -> Args:
    return [_ints(rng, WB), np.zeros(WB, np.int32), np.zeros(WB // 8, np.int32)]


def _wscan8_exp(args: Args) -> Args:
    x = args[0]
    return [None, _exclusive(x, 8), _wrap32(_tiles(x.astype(np.int64), 8).sum(axis=1))]


BCAST_SRC = 7


def _wbcast_args(rng: np.random.Generator) -> Args:
    return [_ints(rng, WB), np.zeros(WB, np.int32), np.zeros(WB, np.int32), np.int32(BCAST_SRC)]


def _wbcast_exp(args: Args) -> Args:
    run = _runmax(args[0], 32)
    bcast = np.repeat(_tiles(run, 32)[:, BCAST_SRC], 32).astype(np.int32)
    return [None, run, bcast, None]


def _wtile_args(rng: np.random.Generator) -> Args:
    return [_ints(rng, 2 * WTILE), np.zeros(2 * WTILE, np.int32)]


def _wload_exp(args: Args) -> Args:
    j = np.arange(2 * WTILE)
    return [None, (args[0] * 5 - j % WTILE).astype(np.int32)]


def _wexchange_exp(args: Args) -> Args:
    # Striped in, blocked out, stored at the blocked positions: the tile itself.
    return [None, args[0].copy()]


def _wsort_exp(args: Args) -> Args:
    return [None, np.sort(_tiles(args[0], WTILE), axis=1).ravel().astype(np.int32)]


def _cw(kernel: str, make_args: Any, expected: Any) -> LibraryLaunch:
    return LibraryLaunch(CW, kernel, (1, 1, 1), (WB, 1, 1), make_args, expected)


CUB_WARP: list[LibraryLaunch] = [
    _cw("warp_reduce_sum", lambda r: _warp_args(r, WB // 32), _wsum_exp),
    _cw("warp_reduce_max16", _wmax_args, _wmax_exp),
    _cw("warp_reduce_segmented", _wseg_args, _wseg_exp),
    _cw("warp_scan_inclusive_sum", lambda r: _warp_args(r, WB), _wscan_exp),
    _cw("warp_scan_exclusive_sum8", _wscan8_args, _wscan8_exp),
    _cw("warp_scan_broadcast", _wbcast_args, _wbcast_exp),
    _cw("warp_load_store_transpose", _wtile_args, _wload_exp),
    _cw("warp_exchange_striped_to_blocked", _wtile_args, _wexchange_exp),
    _cw("warp_merge_sort", _wtile_args, _wsort_exp),
]

# ============================================================================= thrust_kernels.cu

TH = "thrust_kernels.cu"
SEG = 16
TH_THREADS = 32
TH_N = SEG * TH_THREADS - 12  # the last thread's segment is incomplete: it does nothing
TH_ACTIVE = TH_N // SEG


def _segs(x: np.ndarray) -> np.ndarray:
    return _tiles(x[: TH_ACTIVE * SEG], SEG)


def _per_segment(x: np.ndarray, fn: Any) -> np.ndarray:
    out = x.copy()
    out[: TH_ACTIVE * SEG] = np.concatenate([fn(s) for s in _segs(x)])
    return out


def _th_sort_args(rng: np.random.Generator) -> Args:
    return [_ints(rng, TH_N), np.int32(TH_N)]


def _th_sort_exp(args: Args) -> Args:
    return [_per_segment(args[0], np.sort), None]


def _th_sbk_args(rng: np.random.Generator) -> Args:
    # Few distinct keys: stability decides the order of the values.
    keys = rng.integers(0, 6, TH_N).astype(np.uint32) * np.uint32(0x9E3779B1)
    return [keys, _ints(rng, TH_N), np.int32(TH_N)]


def _th_sbk_exp(args: Args) -> Args:
    keys, vals, _ = args
    k_out, v_out = keys.copy(), vals.copy()
    for t in range(TH_ACTIVE):
        s = slice(t * SEG, (t + 1) * SEG)
        order = np.argsort(-keys[s].astype(np.int64), kind="stable")
        k_out[s], v_out[s] = keys[s][order], vals[s][order]
    return [k_out, v_out, None]


def _th_reduce_args(rng: np.random.Generator) -> Args:
    return [_ints(rng, TH_N), np.zeros(2 * TH_THREADS, np.int32), np.int32(TH_N)]


def _th_reduce_exp(args: Args) -> Args:
    x, out, _ = args
    want = out.copy()
    segs = _segs(x).astype(np.int64)
    want[0 : 2 * TH_ACTIVE : 2] = _wrap32(segs.sum(axis=1))
    want[1 : 2 * TH_ACTIVE : 2] = segs.max(axis=1)
    return [None, want, None]


def _th_transform_args(rng: np.random.Generator) -> Args:
    return [_ints(rng, TH_N), np.full(TH_N, 7, np.int32), np.int32(TH_N)]


def _th_transform_exp(args: Args) -> Args:
    x, out, _ = args
    want = out.copy()
    n = TH_ACTIVE * SEG
    want[:n] = _wrap32(x[:n].astype(np.int64) ** 2 - 3)
    return [None, want, None]


def _th_scan_args(rng: np.random.Generator) -> Args:
    z = np.zeros(TH_N, np.int32)
    return [_ints(rng, TH_N), z, z.copy(), np.int32(TH_N)]


def _th_scan_exp(args: Args) -> Args:
    x, incl, excl, _ = args
    n = TH_ACTIVE * SEG
    want_i, want_e = incl.copy(), excl.copy()
    want_i[:n] = _cumsum(x[:n], SEG)
    want_e[:n] = _wrap32(_exclusive(x[:n], SEG).astype(np.int64) + 100)
    return [None, want_i, want_e, None]


FIND_KEY = 3


def _th_find_args(rng: np.random.Generator) -> Args:
    m = np.full(TH_THREADS, -1, np.int32)
    return [_ints(rng, TH_N, -6, 6), m, m.copy(), np.int32(FIND_KEY), np.int32(TH_N)]


def _th_find_exp(args: Args) -> Args:
    x, pos, neg, _, _ = args
    want_p, want_n = pos.copy(), neg.copy()
    for t, s in enumerate(_segs(x)):
        hits = np.flatnonzero(s == FIND_KEY)
        want_p[t] = hits[0] if len(hits) else SEG
        want_n[t] = int((s < 0).sum())
    return [None, want_p, want_n, None, None]


def _th(kernel: str, make_args: Any, expected: Any) -> LibraryLaunch:
    return LibraryLaunch(TH, kernel, (1, 1, 1), (TH_THREADS, 1, 1), make_args, expected)


THRUST: list[LibraryLaunch] = [
    _th("thrust_seq_sort", _th_sort_args, _th_sort_exp),
    _th("thrust_seq_sort_by_key", _th_sbk_args, _th_sbk_exp),
    _th("thrust_seq_reduce", _th_reduce_args, _th_reduce_exp),
    _th("thrust_seq_transform", _th_transform_args, _th_transform_exp),
    _th("thrust_seq_inclusive_scan", _th_scan_args, _th_scan_exp),
    _th("thrust_seq_find_count", _th_find_args, _th_find_exp),
]

# ============================================================================= coop_groups.cu

CG = "coop_groups.cu"
CGB = 64


def _cg_sum_args(tile: int) -> Any:
    def make(rng: np.random.Generator) -> Args:
        return [_ints(rng, CGB), np.zeros(CGB // tile, np.int32)]

    return make


def _cg_sum_exp(tile: int) -> Any:
    def exp(args: Args) -> Args:
        return [None, _wrap32(_tiles(args[0].astype(np.int64), tile).sum(axis=1))]

    return exp


def _cg_ops_args(rng: np.random.Generator) -> Args:
    x = _u32(rng, CGB)
    x[16:32] |= np.uint32(0x00F0F001)  # a tile whose AND is not zero
    return [x, np.zeros(3 * CGB // 16, np.uint32)]


def _cg_ops_exp(args: Args) -> Args:
    t = _tiles(args[0], 16)
    out = np.zeros((t.shape[0], 3), np.uint32)
    out[:, 0] = (t.astype(np.uint64).sum(axis=1) & M32).astype(np.uint32)
    out[:, 1] = t.max(axis=1)
    out[:, 2] = np.bitwise_and.reduce(t, axis=1)
    return [None, out.ravel()]


def _cg_scans_args(rng: np.random.Generator) -> Args:
    z = np.zeros(CGB, np.int32)
    return [_ints(rng, CGB), z, z.copy()]


def _cg_scans_exp(args: Args) -> Args:
    x = args[0]
    t = _tiles(x, 32)
    xs = np.bitwise_xor.accumulate(t, axis=1)
    ex = np.concatenate([np.zeros((t.shape[0], 1), np.int32), xs[:, :-1]], axis=1)
    return [None, _cumsum(x, 32), ex.ravel().astype(np.int32)]


VOTE_THRESHOLD = 0


def _cg_votes_args(rng: np.random.Generator) -> Args:
    x = _ints(rng, CGB, -10, 10)
    x[0:8] = np.abs(x[0:8]) + 1  # one tile all above the threshold
    x[8:16] = -np.abs(x[8:16])  # one tile all at or below it
    return [x, np.int32(VOTE_THRESHOLD), np.zeros(3 * CGB // 8, np.uint32)]


def _cg_votes_exp(args: Args) -> Args:
    p = _tiles(args[0] > VOTE_THRESHOLD, 8)
    out = np.zeros((p.shape[0], 3), np.uint32)
    out[:, 0] = p.any(axis=1)
    out[:, 1] = p.all(axis=1)
    out[:, 2] = (p * (1 << np.arange(8))).sum(axis=1)
    return [None, None, out.ravel()]


def _cg_coalesced_args(rng: np.random.Generator) -> Args:
    x = _ints(rng, CGB, -5, 6)
    return [x, np.zeros(CGB, np.int32), np.zeros(CGB, np.int32), np.zeros(1, np.int32)]


def _cg_coalesced_exp(args: Args) -> Args:
    x = args[0]
    ranks = np.full(CGB, -1, np.int32)
    leaders = np.zeros(CGB, np.int32)
    for w in range(CGB // 32):
        lanes = np.flatnonzero(x[w * 32 : (w + 1) * 32] > 0) + w * 32
        for k, lane in enumerate(lanes):
            ranks[lane] = k * 100 + len(lanes)
            leaders[lane] = x[lanes[0]]
    return [None, ranks, leaders, np.array([(x > 0).sum()], np.int32)]


def _cg_labeled_args(rng: np.random.Generator) -> Args:
    z = np.zeros(CGB, np.int32)
    return [_ints(rng, CGB, 0, 5), _ints(rng, CGB), z, z.copy()]


def _cg_labeled_exp(args: Args) -> Args:
    labels, x, _, _ = args
    sizes = np.zeros(CGB, np.int32)
    firsts = np.zeros(CGB, np.int32)
    for w in range(CGB // 32):
        lab = labels[w * 32 : (w + 1) * 32]
        for lane in range(32):
            same = np.flatnonzero(lab == lab[lane])
            sizes[w * 32 + lane] = len(same)
            firsts[w * 32 + lane] = x[w * 32 + same[0]]
    return [None, None, sizes, firsts]


def _cg_sync_args(rng: np.random.Generator) -> Args:
    return [_ints(rng, CGB), np.zeros(CGB, np.int32)]


def _cg_sync_exp(args: Args) -> Args:
    r = np.arange(CGB)
    buf = args[0][::-1]
    v = buf + buf[(r + 1) % CGB]
    return [None, v[(r + 7) % CGB].astype(np.int32)]


def _cg(kernel: str, make_args: Any, expected: Any) -> LibraryLaunch:
    return LibraryLaunch(CG, kernel, (1, 1, 1), (CGB, 1, 1), make_args, expected)


COOP_GROUPS: list[LibraryLaunch] = [
    *[_cg(f"cg_tile{t}_shfl_sum", _cg_sum_args(t), _cg_sum_exp(t)) for t in (32, 16, 8, 4)],
    _cg("cg_reduce_ops", _cg_ops_args, _cg_ops_exp),
    _cg("cg_scans", _cg_scans_args, _cg_scans_exp),
    _cg("cg_tile_votes", _cg_votes_args, _cg_votes_exp),
    _cg("cg_coalesced_group", _cg_coalesced_args, _cg_coalesced_exp),
    _cg("cg_labeled_partition", _cg_labeled_args, _cg_labeled_exp),
    _cg("cg_block_sync", _cg_sync_args, _cg_sync_exp),
]

# ============================================================================= device_data.cu

DD = "device_data.cu"
DD_GRID, DD_BLOCK = 2, 64
DD_N = DD_GRID * DD_BLOCK

K_WEIGHTS = np.array([1, -2, 3, -4, 5, -6, 7, -8], np.int64)
K_POLY = np.array([0x04C11DB7, 0x1EDC6F41, 0x741B8CD7, 0x814141AB], np.uint64)
G_SQUARES = np.arange(16, dtype=np.int64) ** 2
K_BIAS = np.array([17], np.int32)
K_COEFFS = (np.arange(16, dtype=np.int32) * 37 - 200).astype(np.int32)


def _fir_args(rng: np.random.Generator) -> Args:
    n = DD_N + 8
    return [_ints(rng, n), np.zeros(n, np.float32), np.int32(n)]


def _fir_exp(args: Args) -> Args:
    x = args[0].astype(np.int64)
    out = np.zeros(len(x), np.float32)
    taps = np.array([(K_WEIGHTS * x[i : i + 8]).sum() for i in range(DD_N)])
    out[:DD_N] = taps.astype(np.float32) * np.float32(0.25)  # exact: integers times 2^-2
    return [None, out, None]


def _hash_args(rng: np.random.Generator) -> Args:
    return [_u32(rng, DD_N), np.zeros(DD_N, np.uint32), np.int32(DD_N)]


def _hash_exp(args: Args) -> Args:
    out = []
    for x in args[0].tolist():
        p = int(K_POLY[x & 3])
        for _ in range(8):
            x = ((x << 1) ^ p if x & 0x80000000 else x << 1) & M32
        out.append(x)
    return [None, np.array(out, np.uint32), None]


def _symbols_args(rng: np.random.Generator) -> Args:
    return [_ints(rng, DD_N), np.zeros(DD_N, np.int32), np.int32(DD_N)]


def _symbols_exp(args: Args) -> Args:
    x = args[0]
    return [None, (K_COEFFS[x & 15] + K_BIAS[0]).astype(np.int32), None]


def _globals_args(rng: np.random.Generator) -> Args:
    z = np.zeros(DD_N, np.int32)
    return [_ints(rng, DD_N), z, z.copy(), np.int32(DD_N)]


def _globals_exp(args: Args) -> Args:
    x = args[0].astype(np.int64)
    return [None, (G_SQUARES[x & 15] - x).astype(np.int32), np.ones(DD_N, np.int32), None]


def _fptr_args(rng: np.random.Generator) -> Args:
    return [
        _ints(rng, DD_N),
        _ints(rng, DD_N),
        _ints(rng, DD_N, 0, 100),
        np.zeros(DD_N, np.int32),
        np.int32(DD_N),
    ]


def _fptr_exp(args: Args) -> Args:
    a, b, sel, _, _ = (np.asarray(v, np.int64) for v in args)
    results = np.stack([a + b, a - b, a * b, a ^ (b << 3)])
    return [None, None, None, _wrap32(results[sel & 3, np.arange(DD_N)]), None]


PRINTF_ITERS = 24


def _printf_acc(a: int, b: int, c: int, d: int) -> tuple[int, list[int]]:
    """printf_loop's loop for one thread: its final acc and the iterations
    that print."""
    acc, hits = 0, []
    for i in range(PRINTF_ITERS):
        acc = _wrap32(np.int64(acc + a * i + b)).item()
        if acc == c:
            hits.append(i)
        acc ^= d
    return acc, hits


def _printf_args(rng: np.random.Generator) -> Args:
    a, b, d = _ints(rng, DD_N, -50, 50), _ints(rng, DD_N, -50, 50), _ints(rng, DD_N, 0, 64)
    # c: acc at iteration t % PRINTF_ITERS for every other thread, so that
    # about half the threads print; a value acc never takes for the rest
    c = np.full(DD_N, 0x7FFFFFFF, np.int32)
    for t in range(0, DD_N, 2):
        acc = 0
        for i in range(t % PRINTF_ITERS + 1):
            acc = _wrap32(np.int64(acc + int(a[t]) * i + int(b[t]))).item()
            if i < t % PRINTF_ITERS:
                acc ^= int(d[t])
        c[t] = acc
    return [np.concatenate([a, b, c, d]), np.zeros(DD_N, np.int32), np.int32(DD_N),
            np.int32(PRINTF_ITERS)]


def _printf_split(args: Args) -> list[tuple[int, list[int]]]:
    a, b, c, d = (args[0][k * DD_N:(k + 1) * DD_N].tolist() for k in range(4))
    return [_printf_acc(a[t], b[t], c[t], d[t]) for t in range(DD_N)]


def _printf_exp(args: Args) -> Args:
    return [None, np.array([acc for acc, _ in _printf_split(args)], np.int32), None, None]


def _printf_lines(args: Args) -> list[str]:
    return [f"hit {t} {i}\n" for t, (_, hits) in enumerate(_printf_split(args)) for i in hits]


def _dd(kernel: str, make_args: Any, expected: Any, **kw: Any) -> LibraryLaunch:
    grid, block = (DD_GRID, 1, 1), (DD_BLOCK, 1, 1)
    return LibraryLaunch(DD, kernel, grid, block, make_args, expected, **kw)


DEVICE_DATA: list[LibraryLaunch] = [
    _dd("const_table_fir", _fir_args, _fir_exp),
    _dd("const_poly_hash", _hash_args, _hash_exp),
    _dd(
        "const_symbols_set_by_host",
        _symbols_args,
        _symbols_exp,
        symbols={"kBias": K_BIAS, "kCoeffs": K_COEFFS},
    ),
    _dd("device_globals", _globals_args, _globals_exp),
    _dd("function_pointer_dispatch", _fptr_args, _fptr_exp),
    _dd("printf_loop", _printf_args, _printf_exp, printed=_printf_lines),
]

# ============================================================================= tables

LAUNCHES: list[LibraryLaunch] = [*CUB_BLOCK, *CUB_WARP, *THRUST, *COOP_GROUPS, *DEVICE_DATA]

COMPILE_ONLY: tuple[str, ...] = ("cub_device.cu", "thrust_kernels.cu")
"""Files with kernels that are not in :data:`LAUNCHES` (CUB/Thrust-internal parameters):
every ``.entry`` of theirs that no launch names is imported and compiled only."""
