#include <cub/block/block_exchange.cuh>
extern "C" __global__ void exch(int *d) {
    typedef cub::BlockExchange<int, 32, 4> BE;
    __shared__ typename BE::TempStorage temp;
    int items[4];
    int ranks[4];
    for (int k = 0; k < 4; ++k) { items[k] = d[threadIdx.x * 4 + k]; ranks[k] = 127 - (threadIdx.x * 4 + k); }
    BE(temp).ScatterToStriped(items, ranks);
    for (int k = 0; k < 4; ++k) d[k * 32 + threadIdx.x] = items[k];
}
extern "C" __global__ void b2s(int *d) {
    typedef cub::BlockExchange<int, 64, 4> BE;
    __shared__ typename BE::TempStorage temp;
    int items[4];
    for (int k = 0; k < 4; ++k) items[k] = d[threadIdx.x * 4 + k];
    BE(temp).BlockedToStriped(items);
    for (int k = 0; k < 4; ++k) d[k * 64 + threadIdx.x] = items[k];
}
