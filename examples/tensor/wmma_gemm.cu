// Tensor-core GEMMs through nvcuda::wmma (sm_80): one warp computes one
// 16x16 tile of C = A * B, A row-major MxK, B column-major KxN, C row-major.
// Inputs f16 or bf16, accumulation in f32 (ptxas: HMMA.16816.F32[.BF16]).
#include <cuda_fp16.h>
#include <cuda_bf16.h>
#include <mma.h>
using namespace nvcuda;

// One warp per 16x16 output tile; blockDim.x = 32, grid = (N/16, M/16).
extern "C" __global__ void wmma_f16_f32(const half *a, const half *b, float *c,
                                        int M, int N, int K) {
    int tm = blockIdx.y * 16, tn = blockIdx.x * 16;
    wmma::fragment<wmma::matrix_a, 16, 16, 16, half, wmma::row_major> fa;
    wmma::fragment<wmma::matrix_b, 16, 16, 16, half, wmma::col_major> fb;
    wmma::fragment<wmma::accumulator, 16, 16, 16, float> acc;
    wmma::fill_fragment(acc, 0.0f);
    for (int k = 0; k < K; k += 16) {
        wmma::load_matrix_sync(fa, a + tm * K + k, K);
        wmma::load_matrix_sync(fb, b + tn * K + k, K);
        wmma::mma_sync(acc, fa, fb, acc);
    }
    wmma::store_matrix_sync(c + tm * N + tn, acc, N, wmma::mem_row_major);
}

extern "C" __global__ void wmma_bf16_f32(const __nv_bfloat16 *a, const __nv_bfloat16 *b,
                                         float *c, int M, int N, int K) {
    int tm = blockIdx.y * 16, tn = blockIdx.x * 16;
    wmma::fragment<wmma::matrix_a, 16, 16, 16, __nv_bfloat16, wmma::row_major> fa;
    wmma::fragment<wmma::matrix_b, 16, 16, 16, __nv_bfloat16, wmma::col_major> fb;
    wmma::fragment<wmma::accumulator, 16, 16, 16, float> acc;
    wmma::fill_fragment(acc, 0.0f);
    for (int k = 0; k < K; k += 16) {
        wmma::load_matrix_sync(fa, a + tm * K + k, K);
        wmma::load_matrix_sync(fb, b + tn * K + k, K);
        wmma::mma_sync(acc, fa, fb, acc);
    }
    wmma::store_matrix_sync(c + tm * N + tn, acc, N, wmma::mem_row_major);
}

// f16 accumulator: C (f16, row-major) = A * B + C, staged through shared memory
// so that the fragments load with LDS instead of LDG.
extern "C" __global__ void wmma_f16_f16_shared(const half *a, const half *b, half *c, int K) {
    __shared__ __align__(32) half sa[16 * 16];
    __shared__ __align__(32) half sb[16 * 16];
    wmma::fragment<wmma::matrix_a, 16, 16, 16, half, wmma::row_major> fa;
    wmma::fragment<wmma::matrix_b, 16, 16, 16, half, wmma::row_major> fb;
    wmma::fragment<wmma::accumulator, 16, 16, 16, half> acc;
    wmma::load_matrix_sync(acc, c, 16, wmma::mem_row_major);
    for (int k = 0; k < K; k += 16) {
        for (int i = threadIdx.x; i < 256; i += 32) {
            sa[i] = a[(i / 16) * K + k + i % 16];
            sb[i] = b[(k + i / 16) * 16 + i % 16];
        }
        __syncwarp();
        wmma::load_matrix_sync(fa, sa, 16);
        wmma::load_matrix_sync(fb, sb, 16);
        wmma::mma_sync(acc, fa, fb, acc);
        __syncwarp();
    }
    wmma::store_matrix_sync(c, acc, 16, wmma::mem_row_major);
}
