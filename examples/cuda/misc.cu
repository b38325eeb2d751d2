// __launch_bounds__, __ldg, volatile + __threadfence, warp votes.

extern "C" __global__ void __launch_bounds__(128, 4) launch_bounds_poly(const int* in, int* out, int n)
{
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    if (i < n) {
        int v = in[i];
        out[i] = v * v + (v >> 2);
    }
}

// Gather through read-only loads: dst[i] = 2 * src[idx[i]].
extern "C" __global__ void ldg_gather(const int* __restrict__ idx, const float* __restrict__ src,
                                      float* __restrict__ dst, int n)
{
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    if (i < n) {
        dst[i] = __ldg(&src[__ldg(&idx[i])]) * 2.0f;
    }
}

// Each block (128 threads) reduces its slice, publishes the partial through a
// volatile store + __threadfence, and the last block to finish sums partials.
extern "C" __global__ void threadfence_reduce(const int* in, volatile int* partial, unsigned* counter,
                                              int* result)
{
    __shared__ int s[128];
    __shared__ bool is_last;
    unsigned t = threadIdx.x;
    s[t] = in[blockIdx.x * 128 + t];
    __syncthreads();
    for (unsigned stride = 64; stride > 0; stride >>= 1) {
        if (t < stride) {
            s[t] += s[t + stride];
        }
        __syncthreads();
    }
    if (t == 0) {
        partial[blockIdx.x] = s[0];
        __threadfence();
        unsigned prev = atomicAdd(counter, 1u);
        is_last = (prev == gridDim.x - 1);
    }
    __syncthreads();
    if (is_last && t == 0) {
        int total = 0;
        for (unsigned blk = 0; blk < gridDim.x; ++blk) {
            total += partial[blk];
        }
        *result = total;
    }
}

// Warp votes: ballot, all, any and the rank of the lane among voting lanes.
extern "C" __global__ void vote_ops(const int* in, unsigned* out)
{
    int t = blockIdx.x * blockDim.x + threadIdx.x;
    unsigned lane = threadIdx.x & 31;
    int v = in[t];
    unsigned ballot = __ballot_sync(0xffffffffu, v > 0);
    int all = __all_sync(0xffffffffu, v > -50);
    int any = __any_sync(0xffffffffu, v > 90);
    out[4 * t] = ballot;
    out[4 * t + 1] = all ? 1u : 0u;
    out[4 * t + 2] = any ? 1u : 0u;
    out[4 * t + 3] = __popc(ballot & ((1u << lane) - 1u));
}
