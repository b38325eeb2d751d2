// Kernels for tests/ptx/lower/test_warp_ops.py: redux, match, CUB warp/block
// collectives and cooperative-groups reductions.
// nvcc -ptx -O3 -std=c++17 -lineinfo -arch=sm_80 warp_ops.cu -o warp_ops.ptx
// nvcc -ptx -O3 -std=c++17 -lineinfo -arch=sm_90 warp_ops.cu -o warp_ops_sm90.ptx
#include <cub/cub.cuh>
#include <cooperative_groups.h>
#include <cooperative_groups/reduce.h>
namespace cg = cooperative_groups;

extern "C" __global__ void redux_add(const int* in, int* out, unsigned mask) {
  int t = threadIdx.x;
  int v = in[blockIdx.x * blockDim.x + t];
  if ((mask >> (t & 31)) & 1) {
    out[blockIdx.x * blockDim.x + t] = __reduce_add_sync(mask, v)
      + 3 * __reduce_min_sync(mask, v) + 5 * (int)__reduce_max_sync(mask, (unsigned)v)
      + 7 * (int)__reduce_and_sync(mask, (unsigned)v) + 11 * (int)__reduce_or_sync(mask, (unsigned)v)
      + 13 * (int)__reduce_xor_sync(mask, (unsigned)v);
  }
}
extern "C" __global__ void match_k(const unsigned* in, const unsigned long long* in64, unsigned* out, unsigned mask) {
  int t = threadIdx.x;
  int g = blockIdx.x * blockDim.x + t;
  if ((mask >> (t & 31)) & 1) {
    int pred1, pred2;
    unsigned a = __match_any_sync(mask, in[g]);
    unsigned b = __match_all_sync(mask, in[g], &pred1);
    unsigned c = __match_any_sync(mask, in64[g]);
    unsigned d = __match_all_sync(mask, in64[g], &pred2);
    out[4*g] = a; out[4*g+1] = b + pred1; out[4*g+2] = c; out[4*g+3] = d + (pred2 << 1);
  }
}
extern "C" __global__ void cub_warp(const int* in, int* out) {
  typedef cub::WarpScan<int> WS; typedef cub::WarpReduce<int> WR;
  __shared__ typename WS::TempStorage ts[4];
  __shared__ typename WR::TempStorage tr[4];
  int t = threadIdx.x; int w = t / 32;
  int v = in[blockIdx.x * blockDim.x + t];
  int inc, exc;
  WS(ts[w]).InclusiveSum(v, inc);
  WS(ts[w]).ExclusiveSum(v, exc);
  int s = WR(tr[w]).Sum(v);
  int mx = WR(tr[w]).Reduce(v, ::cuda::maximum<>{});
  out[4*(blockIdx.x * blockDim.x + t)] = inc;
  out[4*(blockIdx.x * blockDim.x + t)+1] = exc;
  out[4*(blockIdx.x * blockDim.x + t)+2] = s;
  out[4*(blockIdx.x * blockDim.x + t)+3] = mx;
}
extern "C" __global__ void cub_block(const int* in, int* out) {
  typedef cub::BlockScan<int, 128> BS; typedef cub::BlockReduce<int, 128> BR;
  __shared__ typename BS::TempStorage ts;
  __shared__ typename BR::TempStorage tr;
  int t = threadIdx.x;
  int v = in[blockIdx.x * blockDim.x + t];
  int inc;
  BS(ts).InclusiveSum(v, inc);
  __syncthreads();
  int s = BR(tr).Sum(v);
  out[2*(blockIdx.x * blockDim.x + t)] = inc;
  if (t == 0) out[2*(blockIdx.x * blockDim.x)+1] = s;
}
extern "C" __global__ void cg_reduce(const int* in, int* out) {
  auto tile = cg::tiled_partition<32>(cg::this_thread_block());
  int v = in[blockIdx.x * blockDim.x + threadIdx.x];
  int s = cg::reduce(tile, v, cg::plus<int>());
  int m = cg::reduce(tile, v, cg::greater<int>());
  out[blockIdx.x * blockDim.x + threadIdx.x] = s + 1000 * m;
}
