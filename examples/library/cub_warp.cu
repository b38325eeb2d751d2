// CUB warp-level primitives.  Each kernel runs one CTA of WB = 64 threads
// (two hardware warps); every warp (or logical sub-warp) works on its own
// slice of the input.
#include <cub/warp/warp_exchange.cuh>
#include <cub/warp/warp_load.cuh>
#include <cub/warp/warp_merge_sort.cuh>
#include <cub/warp/warp_reduce.cuh>
#include <cub/warp/warp_scan.cuh>
#include <cub/warp/warp_store.cuh>

constexpr int WB = 64;
constexpr int WARPS = WB / 32;

struct MaxOp {
    __device__ __forceinline__ int operator()(int a, int b) const { return a > b ? a : b; }
};

struct Less {
    __device__ __forceinline__ bool operator()(int a, int b) const { return a < b; }
};

// ------------------------------------------------------------------ WarpReduce

extern "C" __global__ void warp_reduce_sum(const int* in, int* out) {
    using WR = cub::WarpReduce<int>;
    __shared__ WR::TempStorage temp[WARPS];
    int warp = threadIdx.x / 32;
    int s = WR(temp[warp]).Sum(in[threadIdx.x]);
    if (threadIdx.x % 32 == 0) out[warp] = s;
}

// Logical warps of 16 lanes, a custom operator, and a partial final warp
// (only the first `valid` lanes of each logical warp contribute).
extern "C" __global__ void warp_reduce_max16(const int* in, int* out, int valid) {
    using WR = cub::WarpReduce<int, 16>;
    __shared__ WR::TempStorage temp[WB / 16];
    int lw = threadIdx.x / 16;
    int m = WR(temp[lw]).Reduce(in[threadIdx.x], MaxOp(), valid);
    if (threadIdx.x % 16 == 0) out[lw] = m;
}

// Head-flagged segments: each segment's sum lands in its first lane.
extern "C" __global__ void warp_reduce_segmented(const int* in, const int* heads, int* out) {
    using WR = cub::WarpReduce<int>;
    __shared__ WR::TempStorage temp[WARPS];
    int warp = threadIdx.x / 32;
    int flag = heads[threadIdx.x];
    int s = WR(temp[warp]).HeadSegmentedSum(in[threadIdx.x], flag);
    out[threadIdx.x] = flag ? s : 0;
}

// ------------------------------------------------------------------ WarpScan

extern "C" __global__ void warp_scan_inclusive_sum(const int* in, int* out) {
    using WS = cub::WarpScan<int>;
    __shared__ WS::TempStorage temp[WARPS];
    int y;
    WS(temp[threadIdx.x / 32]).InclusiveSum(in[threadIdx.x], y);
    out[threadIdx.x] = y;
}

// Exclusive sum on logical warps of 8 lanes, with each sub-warp's aggregate.
extern "C" __global__ void warp_scan_exclusive_sum8(const int* in, int* out, int* totals) {
    using WS = cub::WarpScan<int, 8>;
    __shared__ WS::TempStorage temp[WB / 8];
    int y;
    int agg;
    WS(temp[threadIdx.x / 8]).ExclusiveSum(in[threadIdx.x], y, agg);
    out[threadIdx.x] = y;
    if (threadIdx.x % 8 == 0) totals[threadIdx.x / 8] = agg;
}

// Inclusive max scan, then every lane reads lane `src`'s result.
extern "C" __global__ void warp_scan_broadcast(const int* in, int* scan_out, int* bcast_out, int src) {
    using WS = cub::WarpScan<int>;
    __shared__ WS::TempStorage temp[WARPS];
    WS ws(temp[threadIdx.x / 32]);
    int y;
    ws.InclusiveScan(in[threadIdx.x], y, MaxOp());
    scan_out[threadIdx.x] = y;
    bcast_out[threadIdx.x] = ws.Broadcast(y, src);
}

// ------------------------------------------------------------------ WarpLoad / WarpStore / WarpExchange

constexpr int WIPT = 4;
constexpr int WTILE = 32 * WIPT;

extern "C" __global__ void warp_load_store_transpose(const int* in, int* out) {
    using WL = cub::WarpLoad<int, WIPT, cub::WARP_LOAD_TRANSPOSE>;
    using WSt = cub::WarpStore<int, WIPT, cub::WARP_STORE_TRANSPOSE>;
    __shared__ typename WL::TempStorage lt[WARPS];
    __shared__ typename WSt::TempStorage st[WARPS];
    int warp = threadIdx.x / 32;
    int items[WIPT];
    WL(lt[warp]).Load(in + warp * WTILE, items);
    // Blocked arrangement after the load: lane l holds [l*WIPT, l*WIPT+WIPT).
    for (int i = 0; i < WIPT; ++i) items[i] = items[i] * 5 - (threadIdx.x % 32) * WIPT - i;
    WSt(st[warp]).Store(out + warp * WTILE, items);
}

extern "C" __global__ void warp_exchange_striped_to_blocked(const int* in, int* out) {
    using WX = cub::WarpExchange<int, WIPT>;
    __shared__ typename WX::TempStorage temp[WARPS];
    int warp = threadIdx.x / 32;
    int lane = threadIdx.x % 32;
    int items[WIPT];
    for (int i = 0; i < WIPT; ++i) items[i] = in[warp * WTILE + i * 32 + lane];
    WX(temp[warp]).StripedToBlocked(items, items);
    for (int i = 0; i < WIPT; ++i) out[warp * WTILE + lane * WIPT + i] = items[i];
}

// ------------------------------------------------------------------ WarpMergeSort

extern "C" __global__ void warp_merge_sort(const int* in, int* out) {
    using WMS = cub::WarpMergeSort<int, WIPT, 32>;
    __shared__ typename WMS::TempStorage temp[WARPS];
    int warp = threadIdx.x / 32;
    int lane = threadIdx.x % 32;
    int keys[WIPT];
    for (int i = 0; i < WIPT; ++i) keys[i] = in[warp * WTILE + lane * WIPT + i];
    WMS(temp[warp]).Sort(keys, Less());
    for (int i = 0; i < WIPT; ++i) out[warp * WTILE + lane * WIPT + i] = keys[i];
}
