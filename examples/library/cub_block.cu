// CUB block-wide primitives, one kernel per algorithm variant.
//
// Every kernel uses one CTA of BT = 64 threads (two warps, so the warp-level
// halves of each algorithm are exercised) and IPT = 4 items per thread: a
// 256-element tile per block.  Kernels are extern "C" so that the PTX entry
// names are the plain names launches.py refers to.
#include <cub/block/block_adjacent_difference.cuh>
#include <cub/block/block_discontinuity.cuh>
#include <cub/block/block_exchange.cuh>
#include <cub/block/block_histogram.cuh>
#include <cub/block/block_load.cuh>
#include <cub/block/block_radix_sort.cuh>
#include <cub/block/block_reduce.cuh>
#include <cub/block/block_scan.cuh>
#include <cub/block/block_shuffle.cuh>
#include <cub/block/block_store.cuh>

constexpr int BT = 64;
constexpr int IPT = 4;
constexpr int TILE = BT * IPT;

// A user-defined operator: CUB must not assume commutativity tricks that only
// hold for cub's own Sum.
struct MaxOp {
    __device__ __forceinline__ int operator()(int a, int b) const { return a > b ? a : b; }
};

// ------------------------------------------------------------------ BlockReduce

template <cub::BlockReduceAlgorithm ALG>
__device__ void block_reduce_sum_impl(const int* in, int* out) {
    using BR = cub::BlockReduce<int, BT, ALG>;
    __shared__ typename BR::TempStorage temp;
    int items[IPT];
    cub::LoadDirectBlocked(threadIdx.x, in + blockIdx.x * TILE, items);
    int agg = BR(temp).Sum(items);
    if (threadIdx.x == 0) out[blockIdx.x] = agg;
}

template <cub::BlockReduceAlgorithm ALG>
__device__ void block_reduce_max_impl(const int* in, int* out, int valid) {
    using BR = cub::BlockReduce<int, BT, ALG>;
    __shared__ typename BR::TempStorage temp;
    // One item per thread and a partial tile: the num_valid overload.
    int x = threadIdx.x < valid ? in[blockIdx.x * BT + threadIdx.x] : 0;
    int agg = BR(temp).Reduce(x, MaxOp(), valid);
    if (threadIdx.x == 0) out[blockIdx.x] = agg;
}

extern "C" __global__ void block_reduce_sum_warp_reductions(const int* in, int* out) {
    block_reduce_sum_impl<cub::BLOCK_REDUCE_WARP_REDUCTIONS>(in, out);
}
extern "C" __global__ void block_reduce_sum_raking(const int* in, int* out) {
    block_reduce_sum_impl<cub::BLOCK_REDUCE_RAKING>(in, out);
}
extern "C" __global__ void block_reduce_sum_raking_commutative(const int* in, int* out) {
    block_reduce_sum_impl<cub::BLOCK_REDUCE_RAKING_COMMUTATIVE_ONLY>(in, out);
}
extern "C" __global__ void block_reduce_max_warp_reductions(const int* in, int* out, int valid) {
    block_reduce_max_impl<cub::BLOCK_REDUCE_WARP_REDUCTIONS>(in, out, valid);
}
extern "C" __global__ void block_reduce_max_raking(const int* in, int* out, int valid) {
    block_reduce_max_impl<cub::BLOCK_REDUCE_RAKING>(in, out, valid);
}
extern "C" __global__ void block_reduce_max_raking_commutative(const int* in, int* out, int valid) {
    block_reduce_max_impl<cub::BLOCK_REDUCE_RAKING_COMMUTATIVE_ONLY>(in, out, valid);
}

// ------------------------------------------------------------------ BlockScan

template <cub::BlockScanAlgorithm ALG>
__device__ void block_scan_inclusive_sum_impl(const int* in, int* out) {
    using BS = cub::BlockScan<int, BT, ALG>;
    __shared__ typename BS::TempStorage temp;
    int items[IPT];
    cub::LoadDirectBlocked(threadIdx.x, in + blockIdx.x * TILE, items);
    BS(temp).InclusiveSum(items, items);
    cub::StoreDirectBlocked(threadIdx.x, out + blockIdx.x * TILE, items);
}

extern "C" __global__ void block_scan_inclusive_sum_raking(const int* in, int* out) {
    block_scan_inclusive_sum_impl<cub::BLOCK_SCAN_RAKING>(in, out);
}
extern "C" __global__ void block_scan_inclusive_sum_raking_memoize(const int* in, int* out) {
    block_scan_inclusive_sum_impl<cub::BLOCK_SCAN_RAKING_MEMOIZE>(in, out);
}
extern "C" __global__ void block_scan_inclusive_sum_warp_scans(const int* in, int* out) {
    block_scan_inclusive_sum_impl<cub::BLOCK_SCAN_WARP_SCANS>(in, out);
}

// Exclusive sum that also returns the block aggregate (one item per thread).
extern "C" __global__ void block_scan_exclusive_sum_aggregate(const int* in, int* out, int* totals) {
    using BS = cub::BlockScan<int, BT, cub::BLOCK_SCAN_WARP_SCANS>;
    __shared__ typename BS::TempStorage temp;
    int x = in[blockIdx.x * BT + threadIdx.x];
    int agg;
    BS(temp).ExclusiveSum(x, x, agg);
    out[blockIdx.x * BT + threadIdx.x] = x;
    if (threadIdx.x == 0) totals[blockIdx.x] = agg;
}

// Exclusive scan with a custom operator and an initial value.
extern "C" __global__ void block_scan_exclusive_max_raking(const int* in, int* out) {
    using BS = cub::BlockScan<int, BT, cub::BLOCK_SCAN_RAKING>;
    __shared__ typename BS::TempStorage temp;
    int items[IPT];
    cub::LoadDirectBlocked(threadIdx.x, in + blockIdx.x * TILE, items);
    BS(temp).ExclusiveScan(items, items, -1000000, MaxOp());
    cub::StoreDirectBlocked(threadIdx.x, out + blockIdx.x * TILE, items);
}

// Inclusive max scan with aggregate (striped input: the other arrangement).
extern "C" __global__ void block_scan_inclusive_max_warp_scans(const int* in, int* out, int* totals) {
    using BS = cub::BlockScan<int, BT, cub::BLOCK_SCAN_WARP_SCANS>;
    __shared__ typename BS::TempStorage temp;
    int items[IPT];
    cub::LoadDirectBlocked(threadIdx.x, in + blockIdx.x * TILE, items);
    int agg;
    BS(temp).InclusiveScan(items, items, MaxOp(), agg);
    cub::StoreDirectBlocked(threadIdx.x, out + blockIdx.x * TILE, items);
    if (threadIdx.x == 0) totals[blockIdx.x] = agg;
}

// The block-prefix callback: one CTA scans `tiles` consecutive tiles, carrying
// the running total between them (cub's documented multi-tile pattern).
struct RunningPrefix {
    int total;
    __device__ explicit RunningPrefix(int t) : total(t) {}
    __device__ int operator()(int block_aggregate) {
        int old = total;
        total += block_aggregate;
        return old;
    }
};

template <cub::BlockScanAlgorithm ALG>
__device__ void block_scan_prefix_impl(const int* in, int* out, int tiles) {
    using BS = cub::BlockScan<int, BT, ALG>;
    __shared__ typename BS::TempStorage temp;
    RunningPrefix prefix(0);
    for (int t = 0; t < tiles; ++t) {
        int items[IPT];
        cub::LoadDirectBlocked(threadIdx.x, in + t * TILE, items);
        BS(temp).ExclusiveSum(items, items, prefix);
        __syncthreads();  // temp is reused by the next tile
        cub::StoreDirectBlocked(threadIdx.x, out + t * TILE, items);
    }
}

extern "C" __global__ void block_scan_prefix_callback_raking_memoize(const int* in, int* out, int tiles) {
    block_scan_prefix_impl<cub::BLOCK_SCAN_RAKING_MEMOIZE>(in, out, tiles);
}
extern "C" __global__ void block_scan_prefix_callback_warp_scans(const int* in, int* out, int tiles) {
    block_scan_prefix_impl<cub::BLOCK_SCAN_WARP_SCANS>(in, out, tiles);
}

// ------------------------------------------------------------------ BlockLoad / BlockStore

// out = 3 * in + 1 through a load and a store of the same algorithm; the block
// handles one tile of `valid` items (partial tiles use the guarded paths).
template <cub::BlockLoadAlgorithm LA, cub::BlockStoreAlgorithm SA>
__device__ void block_copy_impl(const int* in, int* out) {
    using BL = cub::BlockLoad<int, BT, IPT, LA>;
    using BSt = cub::BlockStore<int, BT, IPT, SA>;
    __shared__ union {
        typename BL::TempStorage load;
        typename BSt::TempStorage store;
    } temp;
    int items[IPT];
    BL(temp.load).Load(in + blockIdx.x * TILE, items);
    for (int i = 0; i < IPT; ++i) items[i] = 3 * items[i] + 1;
    __syncthreads();
    BSt(temp.store).Store(out + blockIdx.x * TILE, items);
}

extern "C" __global__ void block_load_store_direct(const int* in, int* out) {
    block_copy_impl<cub::BLOCK_LOAD_DIRECT, cub::BLOCK_STORE_DIRECT>(in, out);
}
extern "C" __global__ void block_load_store_vectorize(const int* in, int* out) {
    block_copy_impl<cub::BLOCK_LOAD_VECTORIZE, cub::BLOCK_STORE_VECTORIZE>(in, out);
}
extern "C" __global__ void block_load_store_transpose(const int* in, int* out) {
    block_copy_impl<cub::BLOCK_LOAD_TRANSPOSE, cub::BLOCK_STORE_TRANSPOSE>(in, out);
}
extern "C" __global__ void block_load_store_warp_transpose(const int* in, int* out) {
    block_copy_impl<cub::BLOCK_LOAD_WARP_TRANSPOSE, cub::BLOCK_STORE_WARP_TRANSPOSE>(in, out);
}

// Guarded load with a default value and a guarded store: only `valid` items.
extern "C" __global__ void block_load_store_partial(const int* in, int* out, int valid) {
    using BL = cub::BlockLoad<int, BT, IPT, cub::BLOCK_LOAD_TRANSPOSE>;
    using BSt = cub::BlockStore<int, BT, IPT, cub::BLOCK_STORE_TRANSPOSE>;
    __shared__ union {
        typename BL::TempStorage load;
        typename BSt::TempStorage store;
    } temp;
    int items[IPT];
    BL(temp.load).Load(in, items, valid, -7);
    // Each thread's blocked items: add the rank of the item in the tile.
    for (int i = 0; i < IPT; ++i) items[i] += threadIdx.x * IPT + i;
    __syncthreads();
    BSt(temp.store).Store(out, items, valid);
}

// ------------------------------------------------------------------ BlockExchange

using BX = cub::BlockExchange<int, BT, IPT>;

// Striped input -> blocked: thread t stores its items at [t*IPT, t*IPT+IPT).
extern "C" __global__ void block_exchange_striped_to_blocked(const int* in, int* out) {
    __shared__ BX::TempStorage temp;
    int items[IPT];
    cub::LoadDirectStriped<BT>(threadIdx.x, in, items);
    BX(temp).StripedToBlocked(items, items);
    for (int i = 0; i < IPT; ++i) out[threadIdx.x * IPT + i] = items[i] * 2 + i;
}

extern "C" __global__ void block_exchange_blocked_to_striped(const int* in, int* out) {
    __shared__ BX::TempStorage temp;
    int items[IPT];
    cub::LoadDirectBlocked(threadIdx.x, in, items);
    BX(temp).BlockedToStriped(items, items);
    for (int i = 0; i < IPT; ++i) out[i * BT + threadIdx.x] = items[i] - i;
}

// Each item goes to the tile position given by `ranks` (a permutation).
extern "C" __global__ void block_exchange_scatter_to_striped(const int* in, const int* ranks, int* out) {
    __shared__ BX::TempStorage temp;
    int items[IPT];
    int r[IPT];
    cub::LoadDirectBlocked(threadIdx.x, in, items);
    cub::LoadDirectBlocked(threadIdx.x, ranks, r);
    BX(temp).ScatterToStriped(items, r);
    cub::StoreDirectStriped<BT>(threadIdx.x, out, items);
}

// ------------------------------------------------------------------ BlockRadixSort

extern "C" __global__ void block_radix_sort_keys(const unsigned* in, unsigned* out) {
    using BRS = cub::BlockRadixSort<unsigned, BT, IPT>;
    __shared__ BRS::TempStorage temp;
    unsigned keys[IPT];
    cub::LoadDirectBlocked(threadIdx.x, in + blockIdx.x * TILE, keys);
    BRS(temp).Sort(keys);
    cub::StoreDirectBlocked(threadIdx.x, out + blockIdx.x * TILE, keys);
}

// Signed keys, descending, values carried along; output striped.
extern "C" __global__ void block_radix_sort_pairs(const int* keys_in, const int* vals_in,
                                                  int* keys_out, int* vals_out) {
    using BRS = cub::BlockRadixSort<int, BT, IPT, int>;
    __shared__ BRS::TempStorage temp;
    int keys[IPT];
    int vals[IPT];
    cub::LoadDirectBlocked(threadIdx.x, keys_in, keys);
    cub::LoadDirectBlocked(threadIdx.x, vals_in, vals);
    BRS(temp).SortDescendingBlockedToStriped(keys, vals);
    cub::StoreDirectStriped<BT>(threadIdx.x, keys_out, keys);
    cub::StoreDirectStriped<BT>(threadIdx.x, vals_out, vals);
}

// ------------------------------------------------------------------ BlockHistogram

constexpr int BINS = 64;

template <cub::BlockHistogramAlgorithm ALG>
__device__ void block_histogram_impl(const unsigned char* samples, unsigned* hist) {
    using BH = cub::BlockHistogram<unsigned char, BT, IPT, BINS, ALG>;
    __shared__ typename BH::TempStorage temp;
    __shared__ unsigned smem_hist[BINS];
    unsigned char items[IPT];
    cub::LoadDirectBlocked(threadIdx.x, samples + blockIdx.x * TILE, items);
    BH(temp).Histogram(items, smem_hist);
    __syncthreads();
    for (int b = threadIdx.x; b < BINS; b += BT) atomicAdd(&hist[b], smem_hist[b]);
}

extern "C" __global__ void block_histogram_sort(const unsigned char* samples, unsigned* hist) {
    block_histogram_impl<cub::BLOCK_HISTO_SORT>(samples, hist);
}
extern "C" __global__ void block_histogram_atomic(const unsigned char* samples, unsigned* hist) {
    block_histogram_impl<cub::BLOCK_HISTO_ATOMIC>(samples, hist);
}

// ------------------------------------------------------------------ Discontinuity, AdjacentDifference, Shuffle

struct NotEqual {
    __device__ bool operator()(int a, int b) const { return a != b; }
};

// Head and tail flags of runs of equal values, with the tile predecessor and
// successor taken from the neighbouring tiles.
extern "C" __global__ void block_discontinuity_flags(const int* in, int* heads, int* tails, int n) {
    using BD = cub::BlockDiscontinuity<int, BT>;
    __shared__ BD::TempStorage temp;
    int base = blockIdx.x * TILE;
    int items[IPT];
    cub::LoadDirectBlocked(threadIdx.x, in + base, items);
    int h[IPT];
    int t[IPT];
    int pred = blockIdx.x == 0 ? items[0] + 1 : in[base - 1];
    int succ = base + TILE < n ? in[base + TILE] : 0x7fffffff;
    if (blockIdx.x == 0) {
        BD(temp).FlagHeadsAndTails(h, t, succ, items, NotEqual());
    } else {
        BD(temp).FlagHeadsAndTails(h, pred, t, succ, items, NotEqual());
    }
    cub::StoreDirectBlocked(threadIdx.x, heads + base, h);
    cub::StoreDirectBlocked(threadIdx.x, tails + base, t);
}

struct Diff {
    __device__ int operator()(int a, int b) const { return a - b; }
};

extern "C" __global__ void block_adjacent_difference(const int* in, int* left, int* right) {
    using BAD = cub::BlockAdjacentDifference<int, BT>;
    __shared__ BAD::TempStorage temp;
    int items[IPT];
    int l[IPT];
    int r[IPT];
    cub::LoadDirectBlocked(threadIdx.x, in, items);
    BAD(temp).SubtractLeft(items, l, Diff());  // l[0] of thread 0 keeps items[0]
    __syncthreads();
    BAD(temp).SubtractRightPartialTile(items, r, Diff(), TILE - 3);
    cub::StoreDirectBlocked(threadIdx.x, left, l);
    cub::StoreDirectBlocked(threadIdx.x, right, r);
}

// Offset (one item per thread), Up (blocked items) and Rotate.
extern "C" __global__ void block_shuffle(const int* in, int* offset_out, int* up_out, int* rot_out) {
    using BSh = cub::BlockShuffle<int, BT>;
    __shared__ BSh::TempStorage temp;
    int x = in[threadIdx.x];
    int y = -1;
    BSh(temp).Offset(x, y, 3);  // y = x of thread t+3 (unchanged past the end)
    offset_out[threadIdx.x] = y;
    __syncthreads();
    int z = -2;
    BSh(temp).Rotate(x, z, 5);  // z = x of thread (t+5) mod BT
    rot_out[threadIdx.x] = z;
    __syncthreads();
    int items[IPT];
    int prev[IPT] = {0, 0, 0, 0};  // thread 0's prev[0] is left as is by Up
    cub::LoadDirectBlocked(threadIdx.x, in, items);
    int block_suffix;
    BSh(temp).Up(items, prev, block_suffix);  // shifted up by one item
    prev[0] = threadIdx.x == 0 ? block_suffix : prev[0];
    cub::StoreDirectBlocked(threadIdx.x, up_out, prev);
}
