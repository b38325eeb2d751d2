// Tensor-core GEMMs through nvcuda::wmma on tf32 and 8-bit integer inputs
// (sm_80): one warp computes one 16x16 tile of C = A * B (+ C).
//  * tf32: wmma::precision::tf32 fragments of shape 16x16x8, f32 accumulator.
//    ptxas lowers each mma_sync to four HMMA.1684.F32.TF32 (two 4-wide k steps
//    per 8-column half); __float_to_tf32 is cvt.rna.tf32.f32.
//  * int8: signed char / unsigned char fragments of shape 16x16x16, int
//    accumulator: two IMMA.16816.S8.S8 (U8.U8.SAT with satf = true).
#include <mma.h>
using namespace nvcuda;

// A row-major MxK, B column-major KxN, C row-major; the inputs rounded to tf32
// (round to nearest, ties away) before the MMA.  blockDim.x = 32, grid = (N/16, M/16).
extern "C" __global__ void wmma_tf32_f32(const float *a, const float *b, float *c,
                                         int M, int N, int K) {
    int tm = blockIdx.y * 16, tn = blockIdx.x * 16;
    wmma::fragment<wmma::matrix_a, 16, 16, 8, wmma::precision::tf32, wmma::row_major> fa;
    wmma::fragment<wmma::matrix_b, 16, 16, 8, wmma::precision::tf32, wmma::col_major> fb;
    wmma::fragment<wmma::accumulator, 16, 16, 8, float> acc;
    wmma::fill_fragment(acc, 0.0f);
    for (int k = 0; k < K; k += 8) {
        wmma::load_matrix_sync(fa, a + tm * K + k, K);
        wmma::load_matrix_sync(fb, b + tn * K + k, K);
        for (int i = 0; i < fa.num_elements; i++) fa.x[i] = wmma::__float_to_tf32(fa.x[i]);
        for (int i = 0; i < fb.num_elements; i++) fb.x[i] = wmma::__float_to_tf32(fb.x[i]);
        wmma::mma_sync(acc, fa, fb, acc);
    }
    wmma::store_matrix_sync(c + tm * N + tn, acc, N, wmma::mem_row_major);
}

// A column-major (16xK), B row-major (Kx16), C (16x16, column-major) += A * B on
// the raw fp32 bits (no conversion: the tensor cores drop the low 13 bits).
extern "C" __global__ void wmma_tf32_raw_colmajor(const float *a, const float *b, float *c,
                                                  int K) {
    wmma::fragment<wmma::matrix_a, 16, 16, 8, wmma::precision::tf32, wmma::col_major> fa;
    wmma::fragment<wmma::matrix_b, 16, 16, 8, wmma::precision::tf32, wmma::row_major> fb;
    wmma::fragment<wmma::accumulator, 16, 16, 8, float> acc;
    wmma::load_matrix_sync(acc, c, 16, wmma::mem_col_major);
    for (int k = 0; k < K; k += 8) {
        wmma::load_matrix_sync(fa, a + k * 16, 16);
        wmma::load_matrix_sync(fb, b + k * 16, 16);
        wmma::mma_sync(acc, fa, fb, acc);
    }
    wmma::store_matrix_sync(c, acc, 16, wmma::mem_col_major);
}

// A row-major MxK s8, B column-major KxN s8, C row-major s32 (wraps on overflow).
extern "C" __global__ void wmma_s8_s32(const signed char *a, const signed char *b, int *c,
                                       int M, int N, int K) {
    int tm = blockIdx.y * 16, tn = blockIdx.x * 16;
    wmma::fragment<wmma::matrix_a, 16, 16, 16, signed char, wmma::row_major> fa;
    wmma::fragment<wmma::matrix_b, 16, 16, 16, signed char, wmma::col_major> fb;
    wmma::fragment<wmma::accumulator, 16, 16, 16, int> acc;
    wmma::fill_fragment(acc, 0);
    for (int k = 0; k < K; k += 16) {
        wmma::load_matrix_sync(fa, a + tm * K + k, K);
        wmma::load_matrix_sync(fb, b + tn * K + k, K);
        wmma::mma_sync(acc, fa, fb, acc);
    }
    wmma::store_matrix_sync(c + tm * N + tn, acc, N, wmma::mem_row_major);
}

// u8 A (row-major 16xK) and B (row-major Kx16: a fragment word's four k values
// lie 16 bytes apart), staged through shared memory; C (16x16 s32, row-major)
// += A * B with saturation (satf: .satfinite, IMMA.16816.U8.U8.SAT).
extern "C" __global__ void wmma_u8_sat_shared(const unsigned char *a, const unsigned char *b,
                                              int *c, int K) {
    __shared__ __align__(32) unsigned char sa[16 * 16];
    __shared__ __align__(32) unsigned char sb[16 * 16];
    wmma::fragment<wmma::matrix_a, 16, 16, 16, unsigned char, wmma::row_major> fa;
    wmma::fragment<wmma::matrix_b, 16, 16, 16, unsigned char, wmma::row_major> fb;
    wmma::fragment<wmma::accumulator, 16, 16, 16, int> acc;
    wmma::load_matrix_sync(acc, c, 16, wmma::mem_row_major);
    for (int k = 0; k < K; k += 16) {
        for (int i = threadIdx.x; i < 256; i += 32) {
            sa[i] = a[(i / 16) * K + k + i % 16];
            sb[i] = b[(k + i / 16) * 16 + i % 16];
        }
        __syncwarp();
        wmma::load_matrix_sync(fa, sa, 16);
        wmma::load_matrix_sync(fb, sb, 16);
        wmma::mma_sync(acc, fa, fb, acc, true);
        __syncwarp();
    }
    wmma::store_matrix_sync(c, acc, 16, wmma::mem_row_major);
}
