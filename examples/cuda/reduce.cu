// Reductions: warp shuffles (xor and down), shared-memory tree with barriers.

// Every warp reduces with __shfl_xor_sync; lane 0 adds its warp total atomically.
extern "C" __global__ void reduce_warp_xor(const int* in, int* out, int n)
{
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    int v = i < n ? in[i] : 0;
    for (int off = 16; off > 0; off >>= 1) {
        v += __shfl_xor_sync(0xffffffffu, v, off);
    }
    if ((threadIdx.x & 31) == 0) {
        atomicAdd(out, v);
    }
}

// Classic shared-memory tree reduction; block size must be 256.
extern "C" __global__ void reduce_smem(const float* in, float* out)
{
    __shared__ float s[256];
    unsigned t = threadIdx.x;
    s[t] = in[blockIdx.x * 256 + t];
    __syncthreads();
    for (unsigned stride = 128; stride > 0; stride >>= 1) {
        if (t < stride) {
            s[t] += s[t + stride];
        }
        __syncthreads();
    }
    if (t == 0) {
        out[blockIdx.x] = s[0];
    }
}

// Grid-stride accumulation, __shfl_down_sync inside each warp, per-warp
// partials in shared memory, then a second shuffle pass in warp 0.
extern "C" __global__ void reduce_gridstride_down(const unsigned* in, unsigned* out, int n)
{
    __shared__ unsigned warp_sums[32];
    unsigned acc = 0;
    for (int i = blockIdx.x * blockDim.x + threadIdx.x; i < n; i += gridDim.x * blockDim.x) {
        acc += in[i];
    }
    for (int off = 16; off > 0; off >>= 1) {
        acc += __shfl_down_sync(0xffffffffu, acc, off);
    }
    unsigned lane = threadIdx.x & 31;
    unsigned warp = threadIdx.x >> 5;
    if (lane == 0) {
        warp_sums[warp] = acc;
    }
    __syncthreads();
    if (warp == 0) {
        unsigned nwarps = blockDim.x >> 5;
        acc = lane < nwarps ? warp_sums[lane] : 0u;
        for (int off = 16; off > 0; off >>= 1) {
            acc += __shfl_down_sync(0xffffffffu, acc, off);
        }
        if (lane == 0) {
            out[blockIdx.x] = acc;
        }
    }
}
