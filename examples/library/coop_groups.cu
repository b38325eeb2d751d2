// Cooperative groups: thread-block tiles of 32/16/8/4 lanes, cg::reduce and
// cg::*_scan with several operators, tile collectives (shfl_down, any, all,
// ballot), coalesced_threads(), labeled_partition and thread_block::sync.
// One CTA of CB = 64 threads unless noted.
#include <cooperative_groups.h>
#include <cooperative_groups/reduce.h>
#include <cooperative_groups/scan.h>

namespace cg = cooperative_groups;

// Tile sum written by a hand-rolled shfl_down tree (the pre-cg::reduce idiom).
template <int TILE>
__device__ void tile_shfl_sum_impl(const int* in, int* out) {
    cg::thread_block block = cg::this_thread_block();
    cg::thread_block_tile<TILE> tile = cg::tiled_partition<TILE>(block);
    int v = in[block.thread_rank()];
    for (int d = TILE / 2; d > 0; d /= 2) v += tile.shfl_down(v, d);
    if (tile.thread_rank() == 0) out[block.thread_rank() / TILE] = v;
}

extern "C" __global__ void cg_tile32_shfl_sum(const int* in, int* out) { tile_shfl_sum_impl<32>(in, out); }
extern "C" __global__ void cg_tile16_shfl_sum(const int* in, int* out) { tile_shfl_sum_impl<16>(in, out); }
extern "C" __global__ void cg_tile8_shfl_sum(const int* in, int* out) { tile_shfl_sum_impl<8>(in, out); }
extern "C" __global__ void cg_tile4_shfl_sum(const int* in, int* out) { tile_shfl_sum_impl<4>(in, out); }

// cg::reduce with three operators on 16-lane tiles: out[3*tile + k].
extern "C" __global__ void cg_reduce_ops(const unsigned* in, unsigned* out) {
    cg::thread_block block = cg::this_thread_block();
    auto tile = cg::tiled_partition<16>(block);
    unsigned v = in[block.thread_rank()];
    unsigned s = cg::reduce(tile, v, cg::plus<unsigned>());
    unsigned m = cg::reduce(tile, v, cg::greater<unsigned>());
    unsigned a = cg::reduce(tile, v, cg::bit_and<unsigned>());
    if (tile.thread_rank() == 0) {
        unsigned t = block.thread_rank() / 16;
        out[3 * t] = s;
        out[3 * t + 1] = m;
        out[3 * t + 2] = a;
    }
}

// cg::inclusive_scan (plus) and cg::exclusive_scan (bit_xor) on 32-lane tiles.
extern "C" __global__ void cg_scans(const int* in, int* incl, int* excl) {
    cg::thread_block block = cg::this_thread_block();
    auto tile = cg::tiled_partition<32>(block);
    int v = in[block.thread_rank()];
    incl[block.thread_rank()] = cg::inclusive_scan(tile, v);
    excl[block.thread_rank()] = cg::exclusive_scan(tile, v, cg::bit_xor<int>());
}

// any / all / ballot on 8-lane tiles; out[3*tile + k].
extern "C" __global__ void cg_tile_votes(const int* in, int threshold, unsigned* out) {
    cg::thread_block block = cg::this_thread_block();
    auto tile = cg::tiled_partition<8>(block);
    bool p = in[block.thread_rank()] > threshold;
    unsigned any = tile.any(p);
    unsigned all = tile.all(p);
    unsigned ballot = tile.ballot(p);
    if (tile.thread_rank() == 0) {
        unsigned t = block.thread_rank() / 8;
        out[3 * t] = any;
        out[3 * t + 1] = all;
        out[3 * t + 2] = ballot;
    }
}

// coalesced_threads() inside a divergent branch: the threads with a positive
// value form the group; each learns its rank, the group's size and the value
// of the group's first member, and the group's leader counts the members
// with one atomic.
extern "C" __global__ void cg_coalesced_group(const int* in, int* ranks, int* leaders, int* count) {
    cg::thread_block block = cg::this_thread_block();
    int r = block.thread_rank();
    int v = in[r];
    int rank = -1;
    int leader = 0;
    if (v > 0) {
        cg::coalesced_group active = cg::coalesced_threads();
        rank = static_cast<int>(active.thread_rank() * 100 + active.size());
        leader = active.shfl(v, 0);
        if (active.thread_rank() == 0) atomicAdd(count, static_cast<int>(active.size()));
    }
    ranks[r] = rank;
    leaders[r] = leader;
}

// labeled_partition (sm_70+): threads with the same label form a group; each
// group's size and its lowest member's value go to every member.
extern "C" __global__ void cg_labeled_partition(const int* labels, const int* in, int* sizes, int* firsts) {
    cg::thread_block block = cg::this_thread_block();
    auto warp = cg::tiled_partition<32>(block);
    int r = block.thread_rank();
    cg::coalesced_group g = cg::labeled_partition(warp, labels[r]);
    sizes[r] = static_cast<int>(g.size());
    firsts[r] = g.shfl(in[r], 0);
}

// Block-wide two-phase update with thread_block::sync(): reverse the array in
// shared memory, then each thread adds its neighbour's reversed value.
extern "C" __global__ void cg_block_sync(const int* in, int* out) {
    __shared__ int buf[64];
    cg::thread_block block = cg::this_thread_block();
    unsigned r = block.thread_rank();
    unsigned n = block.size();
    buf[n - 1 - r] = in[r];
    block.sync();
    int v = buf[r] + buf[(r + 1) % n];
    block.sync();
    buf[r] = v;
    cg::sync(block);
    out[r] = buf[(r + 7) % n] * static_cast<int>(block.group_index().x + 1);
}
