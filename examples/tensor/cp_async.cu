// Asynchronous global -> shared copies (sm_80 LDGSTS): a double-buffered
// copy kernel with cp.async + commit/wait groups, and the same through
// __pipeline_memcpy_async.
#include <cuda_pipeline.h>
#include <cstdint>

// Each block streams `tiles` tiles of 4*blockDim.x floats: while tile i is
// read from shared memory, tile i+1 is already in flight (double buffering).
extern "C" __global__ void cp_async_double_buffer(const float *in, float *out, int tiles) {
    extern __shared__ __align__(16) float buf[];  // 2 * 4 * blockDim.x floats
    int tid = threadIdx.x, n = 4 * blockDim.x;
    const float *src = in + (size_t)blockIdx.x * tiles * n;
    float *dst = out + (size_t)blockIdx.x * tiles * n;
    auto issue = [&](int tile, int stage) {
        uint32_t s = (uint32_t)__cvta_generic_to_shared(&buf[stage * n + 4 * tid]);
        asm volatile("cp.async.cg.shared.global [%0], [%1], 16;"
                     :: "r"(s), "l"(src + (size_t)tile * n + 4 * tid));
        asm volatile("cp.async.commit_group;");
    };
    issue(0, 0);
    for (int i = 0; i < tiles; ++i) {
        if (i + 1 < tiles) {
            issue(i + 1, (i + 1) & 1);
            asm volatile("cp.async.wait_group 1;");
        } else {
            asm volatile("cp.async.wait_all;");
        }
        __syncthreads();
        // read a neighbour's element: the barrier orders the copies of all threads
        int stage = i & 1;
        float4 v = *reinterpret_cast<float4 *>(&buf[stage * n + 4 * ((tid + 1) % blockDim.x)]);
        reinterpret_cast<float4 *>(dst + (size_t)i * n)[tid] = v;
        __syncthreads();
    }
}

// 4- and 8-byte copies (.ca), and the zero-filling src-size form: bytes past
// `valid` are zero-filled in shared memory.
extern "C" __global__ void cp_async_sizes(const int *in, int *out, int valid) {
    __shared__ __align__(16) int s[4 * 64];
    int tid = threadIdx.x;
    uint32_t s4 = (uint32_t)__cvta_generic_to_shared(&s[tid]);
    uint32_t s8 = (uint32_t)__cvta_generic_to_shared(&s[64 + 2 * tid]);
    uint32_t s16 = (uint32_t)__cvta_generic_to_shared(&s[128 + 4 * (tid % 32)]);
    asm volatile("cp.async.ca.shared.global [%0], [%1], 4;" :: "r"(s4), "l"(in + tid));
    asm volatile("cp.async.ca.shared.global [%0], [%1], 8;" :: "r"(s8), "l"(in + 64 + 2 * tid));
    int bytes = valid - 4 * (tid % 32) * 4;
    bytes = bytes < 0 ? 0 : (bytes > 16 ? 16 : bytes);
    if (tid < 32)
        asm volatile("cp.async.cg.shared.global [%0], [%1], 16, %2;"
                     :: "r"(s16), "l"(in + 128 + 4 * tid), "r"(bytes));
    asm volatile("cp.async.commit_group;");
    asm volatile("cp.async.wait_group 0;");
    __syncthreads();
    out[tid] = s[tid];
    out[64 + 2 * tid] = s[64 + 2 * tid];
    out[64 + 2 * tid + 1] = s[64 + 2 * tid + 1];
    if (tid < 32)
        for (int j = 0; j < 4; ++j)
            out[128 + 4 * tid + j] = s[128 + 4 * tid + j];
}

// The CUDA pipeline primitives: __pipeline_memcpy_async / commit / wait_prior.
extern "C" __global__ void pipeline_copy(const float4 *in, float4 *out) {
    __shared__ float4 s[2][64];
    int tid = threadIdx.x;
    __pipeline_memcpy_async(&s[0][tid], &in[tid], sizeof(float4));
    __pipeline_commit();
    __pipeline_memcpy_async(&s[1][tid], &in[64 + tid], sizeof(float4));
    __pipeline_commit();
    __pipeline_wait_prior(1);
    float4 v = s[0][tid];
    __pipeline_wait_prior(0);
    float4 w = s[1][tid];
    out[tid] = make_float4(v.x + w.x, v.y + w.y, v.z + w.z, v.w + w.w);
}
