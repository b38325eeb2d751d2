// A GEMM on mma.sync.aligned.m16n8k16 with ldmatrix, written with inline PTX
// (as CUTLASS and Triton do): one warp computes a 16x8 tile of C = A * B
// (A row-major MxK f16, B row-major KxN f16, C row-major f32).  Tiles are
// staged in shared memory; A's fragment comes from ldmatrix.x4, B's from
// ldmatrix.x2.trans (B is row-major, the MMA wants it "col").
#include <cuda_fp16.h>
#include <cstdint>

extern "C" __global__ void mma_ldmatrix_gemm(const half *a, const half *b, float *c,
                                             int M, int N, int K) {
    __shared__ __align__(16) half sa[16 * 16];
    __shared__ __align__(16) half sb[16 * 8];
    int lane = threadIdx.x;
    int tm = blockIdx.y * 16, tn = blockIdx.x * 8;
    float d[4] = {0.f, 0.f, 0.f, 0.f};
    for (int k = 0; k < K; k += 16) {
        for (int i = lane; i < 256; i += 32)
            sa[i] = a[(tm + i / 16) * K + k + i % 16];
        for (int i = lane; i < 128; i += 32)
            sb[i] = b[(k + i / 8) * N + tn + i % 8];
        __syncwarp();
        uint32_t a0, a1, a2, a3, b0, b1;
        // x4: lanes 0-15 address rows 0-15 at column 0, lanes 16-31 rows 0-15 at column 8
        uint32_t pa = (uint32_t)__cvta_generic_to_shared(&sa[(lane % 16) * 16 + (lane / 16) * 8]);
        asm volatile("ldmatrix.sync.aligned.m8n8.x4.shared.b16 {%0, %1, %2, %3}, [%4];"
                     : "=r"(a0), "=r"(a1), "=r"(a2), "=r"(a3) : "r"(pa));
        // x2.trans: lanes 0-15 address the 16 rows (k) of the 16x8 B tile
        uint32_t pb = (uint32_t)__cvta_generic_to_shared(&sb[(lane % 16) * 8]);
        asm volatile("ldmatrix.sync.aligned.m8n8.x2.trans.shared.b16 {%0, %1}, [%2];"
                     : "=r"(b0), "=r"(b1) : "r"(pb));
        asm volatile(
            "mma.sync.aligned.m16n8k16.row.col.f32.f16.f16.f32 "
            "{%0, %1, %2, %3}, {%4, %5, %6, %7}, {%8, %9}, {%0, %1, %2, %3};"
            : "+f"(d[0]), "+f"(d[1]), "+f"(d[2]), "+f"(d[3])
            : "r"(a0), "r"(a1), "r"(a2), "r"(a3), "r"(b0), "r"(b1));
        __syncwarp();
    }
    int g = lane >> 2, t = lane & 3;
    c[(tm + g) * N + tn + 2 * t] = d[0];
    c[(tm + g) * N + tn + 2 * t + 1] = d[1];
    c[(tm + g + 8) * N + tn + 2 * t] = d[2];
    c[(tm + g + 8) * N + tn + 2 * t + 1] = d[3];
}

// bf16 inputs, f32 accumulator; m16n8k8 (the ISA's smaller k) via direct
// register fragments, without ldmatrix: lane l loads its own elements.
extern "C" __global__ void mma_bf16_m16n8k8(const uint16_t *a, const uint16_t *b, float *c) {
    int lane = threadIdx.x, g = lane >> 2, t = lane & 3;
    // A 16x8 row-major: a0 = A[g][2t..2t+1], a1 = A[g+8][2t..2t+1]
    uint32_t a0 = a[g * 8 + 2 * t] | ((uint32_t)a[g * 8 + 2 * t + 1] << 16);
    uint32_t a1 = a[(g + 8) * 8 + 2 * t] | ((uint32_t)a[(g + 8) * 8 + 2 * t + 1] << 16);
    // B 8x8 (k x n) stored column-major: b0 = B[2t..2t+1][g]
    uint32_t b0 = b[g * 8 + 2 * t] | ((uint32_t)b[g * 8 + 2 * t + 1] << 16);
    float d0, d1, d2, d3;
    asm volatile(
        "mma.sync.aligned.m16n8k8.row.col.f32.bf16.bf16.f32 "
        "{%0, %1, %2, %3}, {%4, %5}, {%6}, {%7, %7, %7, %7};"
        : "=f"(d0), "=f"(d1), "=f"(d2), "=f"(d3)
        : "r"(a0), "r"(a1), "r"(b0), "f"(0.0f));
    c[g * 8 + 2 * t] = d0;
    c[g * 8 + 2 * t + 1] = d1;
    c[(g + 8) * 8 + 2 * t] = d2;
    c[(g + 8) * 8 + 2 * t + 1] = d3;
}

// f16 accumulator m16n8k16: D (f16x2 pairs) = A * B + C.
extern "C" __global__ void mma_f16_f16(const uint32_t *a, const uint32_t *b,
                                       const uint32_t *c, uint32_t *d) {
    int lane = threadIdx.x;
    uint32_t r0, r1;
    asm volatile(
        "mma.sync.aligned.m16n8k16.row.col.f16.f16.f16.f16 "
        "{%0, %1}, {%2, %3, %4, %5}, {%6, %7}, {%8, %9};"
        : "=r"(r0), "=r"(r1)
        : "r"(a[lane * 4]), "r"(a[lane * 4 + 1]), "r"(a[lane * 4 + 2]), "r"(a[lane * 4 + 3]),
          "r"(b[lane * 2]), "r"(b[lane * 2 + 1]), "r"(c[lane * 2]), "r"(c[lane * 2 + 1]));
    d[lane * 2] = r0;
    d[lane * 2 + 1] = r1;
}
