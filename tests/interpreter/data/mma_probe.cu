// Probe tf32 / int8 mma.sync numerics and fragment layouts on the device:
// the source of tests/interpreter/data/mma_h200.npz.
//
// Every warp (one per block, 128 blocks) reads its own A (16xK), B (Kx8) and
// C (16x8) from global memory (row-major, one 32-bit word per element),
// builds the fragments with the PTX ISA layout (9.7.14.5.6-.10), runs one
// mma.sync and writes D (16x8) row-major.  Inputs come from a fixed
// xorshift64 stream.  Built with `nvcc -O2 -arch=sm_90 -o mma_probe
// mma_probe.cu` (CUDA 13.0: ptxas emits HMMA.1688.F32.TF32, HMMA.1684.F32.TF32,
// IMMA.16832.*, IMMA.16816.* as on sm_80) and run on an NVIDIA H200 (driver
// 580.159.04); each run writes NAME_mMODE.bin = A, B, C, D as uint32.  The
// .npz keeps the first 16 warps of the two random tf32 runs and the first 4
// of the others, under NAME_mMODE.{a,b,c,d} (int8 inputs as uint8).
//
// Modes: 0 tf32 operands that are multiples of 1/4 below 4 with random low
// 13 bits (exact sums: only the operand truncation and the layout show);
// 1 uniform f32 operands in [-2, 2) and C in [-4, 4) (the accumulation's
// rounding shows); 2 random bytes, random s32 C; 3 random bytes, C within
// 2^18 of the int32 bounds (wrap-around vs .satfinite).
//
// tf32_k8_special (14 warps) came from the same m16n8k8 fragment construction
// (one warp per block, row-major A 16x8, B 8x8, C 16x8) on the same H200, on
// uniform inputs (A, B in [-2, 2), C in [-4, 4)) edited per warp: 0 A, B
// scaled by 2^60 (products near 2^121); 1 by 2^64 (the sum overflows: +-inf);
// 2 an infinity in A; 3 inf * 0; 4 inf - inf; 5 NaN in C and in A (NaN
// results are 0x7FFFFFFF); 6 A, B scaled by 2^-70 and C by 2^-140 (subnormal
// C and results: a subnormal's exponent counts as -126); 7 products near
// 2^-120 and C = 0; 8 A = 0, C = -0; 9 A = -0, B = 1, C = -0; 10 A = 2^-130
// (subnormal operands); 11 the first 4 k of A scaled by 2^40; 12 C = 2^100;
// 13 C = -3.4e38 with negative products.
#include <cstdio>
#include <cstdint>
#include <cstdlib>
#include <cstring>
#include <vector>

#define NW 128

// e = elements per 32-bit register (1 tf32, 4 int8); K; A regs = K/(2e), B regs = K/(4e)
template <int K, int E>
__device__ void frags(const uint32_t *A, const uint32_t *B, uint32_t *a, uint32_t *b) {
    int lane = threadIdx.x, g = lane >> 2, t = lane & 3;
    const int NA = K / (2 * E), NB = K / (4 * E);
    for (int i = 0; i < NA; i++) {
        int row = g + 8 * (i & 1), col0 = E * t + 4 * E * (i >> 1);
        uint32_t w = 0;
        if (E == 1) w = A[row * K + col0];
        else for (int h = 0; h < 4; h++) w |= (A[row * K + col0 + h] & 0xFF) << (8 * h);
        a[i] = w;
    }
    for (int i = 0; i < NB; i++) {
        int row0 = E * t + 4 * E * i;
        uint32_t w = 0;
        if (E == 1) w = B[row0 * 8 + g];
        else for (int h = 0; h < 4; h++) w |= (B[(row0 + h) * 8 + g] & 0xFF) << (8 * h);
        b[i] = w;
    }
}

#define KERNEL(NAME, K, E, PTX, NAREG, NBREG, AOPS, BOPS) \
__global__ void NAME(const uint32_t *A, const uint32_t *B, const uint32_t *C, uint32_t *D) { \
    int w = blockIdx.x; A += w * 16 * K; B += w * K * 8; C += w * 128; D += w * 128; \
    int lane = threadIdx.x, g = lane >> 2, t = lane & 3; \
    uint32_t a[4] = {0,0,0,0}, b[2] = {0,0}; frags<K, E>(A, B, a, b); \
    uint32_t d[4]; for (int j = 0; j < 4; j++) d[j] = C[(g + 8 * (j >> 1)) * 8 + 2 * t + (j & 1)]; \
    asm volatile(PTX : "+r"(d[0]), "+r"(d[1]), "+r"(d[2]), "+r"(d[3]) : AOPS, BOPS); \
    for (int j = 0; j < 4; j++) D[(g + 8 * (j >> 1)) * 8 + 2 * t + (j & 1)] = d[j]; }

#define A4 "r"(a[0]), "r"(a[1]), "r"(a[2]), "r"(a[3])
#define A2 "r"(a[0]), "r"(a[1])
#define B2 "r"(b[0]), "r"(b[1])
#define B1 "r"(b[0])
#define P4 "{%0,%1,%2,%3}, {%4,%5,%6,%7}, {%8,%9}, {%0,%1,%2,%3};"
#define P2 "{%0,%1,%2,%3}, {%4,%5}, {%6}, {%0,%1,%2,%3};"
KERNEL(tf32_k8, 8, 1, "mma.sync.aligned.m16n8k8.row.col.f32.tf32.tf32.f32 " P4, 4, 2, A4, B2)
KERNEL(tf32_k4, 4, 1, "mma.sync.aligned.m16n8k4.row.col.f32.tf32.tf32.f32 " P2, 2, 1, A2, B1)
KERNEL(ss_k32, 32, 4, "mma.sync.aligned.m16n8k32.row.col.s32.s8.s8.s32 " P4, 4, 2, A4, B2)
KERNEL(us_k32, 32, 4, "mma.sync.aligned.m16n8k32.row.col.s32.u8.s8.s32 " P4, 4, 2, A4, B2)
KERNEL(su_k32, 32, 4, "mma.sync.aligned.m16n8k32.row.col.s32.s8.u8.s32 " P4, 4, 2, A4, B2)
KERNEL(uu_k32, 32, 4, "mma.sync.aligned.m16n8k32.row.col.s32.u8.u8.s32 " P4, 4, 2, A4, B2)
KERNEL(ss_k32_sat, 32, 4, "mma.sync.aligned.m16n8k32.row.col.satfinite.s32.s8.s8.s32 " P4, 4, 2, A4, B2)
KERNEL(uu_k32_sat, 32, 4, "mma.sync.aligned.m16n8k32.row.col.satfinite.s32.u8.u8.s32 " P4, 4, 2, A4, B2)
KERNEL(ss_k16, 16, 4, "mma.sync.aligned.m16n8k16.row.col.s32.s8.s8.s32 " P2, 2, 1, A2, B1)
KERNEL(us_k16_sat, 16, 4, "mma.sync.aligned.m16n8k16.row.col.satfinite.s32.u8.s8.s32 " P2, 2, 1, A2, B1)

static uint64_t st = 0x9E3779B97F4A7C15ull;
static uint32_t rnd() { st ^= st << 13; st ^= st >> 7; st ^= st << 17; return (uint32_t)st; }
static uint32_t fbits(float f) { uint32_t u; memcpy(&u, &f, 4); return u; }

typedef void (*Kern)(const uint32_t *, const uint32_t *, const uint32_t *, uint32_t *);
static void run(const char *name, Kern k, int K, int mode) {
    // mode 0: tf32 small-integer values + low garbage; 1: tf32 uniform random; 2: int8 random,
    // C random full range; 3: int8 random, C near +-2^31 (saturation / wrap)
    size_t na = NW * 16 * K, nb = NW * K * 8, nc = NW * 128;
    std::vector<uint32_t> A(na), B(nb), C(nc), D(nc);
    auto val = [&](int m) -> uint32_t {
        if (m == 0) { int q = (int)(rnd() % 31) - 15; return fbits(q * 0.25f) | (q ? (rnd() & 0x1FFF) : 0); }
        if (m == 1) { return fbits(((rnd() >> 8) * (1.0f / 16777216.0f)) * 4.0f - 2.0f); }
        return rnd() & 0xFF;
    };
    for (auto &x : A) x = val(mode);
    for (auto &x : B) x = val(mode);
    for (size_t i = 0; i < nc; i++) {
        if (mode == 0) C[i] = fbits(((int)(rnd() % 2001) - 1000) * 0.0625f);
        else if (mode == 1) C[i] = fbits(((rnd() >> 8) * (1.0f / 16777216.0f)) * 8.0f - 4.0f);
        else if (mode == 2) C[i] = rnd();
        else C[i] = (rnd() & 1) ? 0x7FFFFFFFu - (rnd() & 0x3FFFF) : 0x80000000u + (rnd() & 0x3FFFF);
    }
    uint32_t *dA, *dB, *dC, *dD;
    cudaMalloc(&dA, na * 4); cudaMalloc(&dB, nb * 4); cudaMalloc(&dC, nc * 4); cudaMalloc(&dD, nc * 4);
    cudaMemcpy(dA, A.data(), na * 4, cudaMemcpyHostToDevice);
    cudaMemcpy(dB, B.data(), nb * 4, cudaMemcpyHostToDevice);
    cudaMemcpy(dC, C.data(), nc * 4, cudaMemcpyHostToDevice);
    k<<<NW, 32>>>(dA, dB, dC, dD);
    cudaError_t e = cudaDeviceSynchronize();
    cudaMemcpy(D.data(), dD, nc * 4, cudaMemcpyDeviceToHost);
    char path[256]; snprintf(path, sizeof path, "%s/%s_m%d.bin", getenv("OUT") ? getenv("OUT") : ".", name, mode);
    FILE *f = fopen(path, "wb");
    fwrite(A.data(), 4, na, f); fwrite(B.data(), 4, nb, f); fwrite(C.data(), 4, nc, f); fwrite(D.data(), 4, nc, f);
    fclose(f);
    printf("%s mode %d K %d: %s\n", name, mode, K, cudaGetErrorString(e));
    cudaFree(dA); cudaFree(dB); cudaFree(dC); cudaFree(dD);
}

int main() {
    run("tf32_k8", tf32_k8, 8, 0); run("tf32_k8", tf32_k8, 8, 1);
    run("tf32_k4", tf32_k4, 4, 0); run("tf32_k4", tf32_k4, 4, 1);
    run("ss_k32", ss_k32, 32, 2); run("us_k32", us_k32, 32, 2); run("su_k32", su_k32, 32, 2);
    run("uu_k32", uu_k32, 32, 2); run("ss_k32", ss_k32, 32, 3); run("ss_k32_sat", ss_k32_sat, 32, 3);
    run("uu_k32_sat", uu_k32_sat, 32, 3); run("ss_k16", ss_k16, 16, 2); run("us_k16_sat", us_k16_sat, 16, 3);
    return 0;
}
