// Cooperative-groups tiles narrower than a warp shuffle with their own
// member mask (shfl.sync with a tile mask).
#include <cooperative_groups.h>
namespace cg = cooperative_groups;
extern "C" __global__ void tile_shfl(const int* in, int* out) {
    auto tile = cg::tiled_partition<8>(cg::this_thread_block());
    int v = in[threadIdx.x];
    int s = v;
    for (int d = 1; d < 8; d *= 2) s += tile.shfl_xor(s, d);
    int first = tile.shfl(v, 0);
    out[threadIdx.x] = s * 1000 + first;
}
