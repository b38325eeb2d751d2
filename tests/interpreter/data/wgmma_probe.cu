// Probe warpgroup MMA (wgmma.mma_async, HGMMA) numerics on the device: the
// source of tests/interpreter/data/wgmma_h200.npz (wgmma_npz.py) and, compiled
// to PTX (wgmma_probe.ptx beside it: `nvcc -gencode arch=compute_90a,code=compute_90a
// -ptx`, the PTX the binary embeds), the kernels
// tests/interpreter/test_wgmma_hardware.py runs in ori's interpreter on the
// same inputs.
//
// Every warpgroup (one per block of 128 threads) reads its own A (64x16), B
// (16xN, row-major: k, n) and C (64xN) from global memory, one uint32 per
// element (f16/bf16 patterns in the low 16 bits; an f16 C and D too), runs
// ONE `wgmma.mma_async.sync.aligned.m64nNk16` and writes D (64xN) row-major.
// A and B go to shared memory K-major without swizzle (8 x 16-byte core
// matrices, LBO 128, SBO 256: the PTX ISA's canonical layout), the
// descriptors point there; `_rs` kernels take A from registers (the PTX ISA's
// A fragment layout); C enters and D leaves through the accumulator fragment
// layout (PTX ISA 9.7.15.5.1).  scale-d is a predicate from the kernel's last
// argument (0: D = A B, C not read).  `_neg` kernels have imm-scale-a = -1.
// Built with `nvcc -O2 -gencode arch=compute_90a,code=sm_90a -o wgmma_probe
// wgmma_probe.cu` (CUDA 13.0; plain -arch=sm_90a makes compute_90 PTX, which
// has no wgmma) and run on an NVIDIA H200 (driver 580.159.04); each run writes
// NAME_sdS_mMODE.bin = A, B, C, D as uint32 (its warpgroups after each other):
// every form runs mode 0 (2 warpgroups), 4 (32; scale-d 0: 8), 5 (16, scale-d
// 1 and 0) and 6 (16) -- 90 runs, 1,382,400 outputs.
//
// Modes (inputs drawn from a fixed xorshift64 stream, as mma_probe.cu):
// 0 exact: multiples of 1/4 (operands |x| <= 2, C |x| <= 4): D exact, the
//   fragment layouts alone show;
// 4 random exponents -- f16 operands 2^-12..2^3 with random 10-bit mantissas,
//   1/32 zeros and 1/32 subnormals; bf16 2^-30..2^30, 1/32 zeros; f32 C
//   2^-30..2^12 (f16 inputs) or 2^-70..2^70 (bf16), f16 C 2^-14..2^11, 1/16
//   zeros; random signs (mma_probe.cu's mode 4);
// 5 mode 4 edited per warpgroup (16): 0 subnormal A and B, C = 0; 1 subnormal
//   A (f16, rows 0-7: 2^-24 * 2^10 + 2^-14 (1 + 2^-10) * (1 + 2^-10), C = 0:
//   E is -4 if a subnormal counts as -14); 2 an infinity in A; 3 inf * 0;
//   4 inf - inf; 5 NaN in A and in C; 6 f16-accumulator ties (1 + 2^-11
//   [+ 2^-25], 1 + 3 * 2^-11 [- 2^-25], signs alternating by row); 7 every A
//   and B 2^7, rows 8-15 of each 16 negative (an f16 sum overflows); 8 A = 0,
//   C = -0; 9 A = -0, B = 1, C = -0; 10 k 0..7 small (2^-12..2^-9), k 8..15
//   large (2^1..2^3) -- one step of 16 or two of 8; 11 C large (2^20, f16 C
//   2^10), products small; 12 C the negated sum of the products
//   (cancellation); 13 overflow: bf16 operands 2^56..2^63, f16 inputs with an
//   f32 C of +-(2^128 - 2^104), f16 C +-65504, plus one product 2^2..2^10 of
//   C's sign; 14 one product of +-1 and 15 of 2^-14..2^-27 (across the
//   alignment boundary), C = 0; 15 unedited;
// 6 uniform: operands in [-2, 2) rounded to f16/bf16, C in [-4, 4).
//
// `./wgmma_probe JOBS` then launches the kernels a job file names (launch_jobs:
// cubins that ptxas 13.0 made from PTX, inputs from files): Triton's
// matmul_m64 (examples/triton, sm_90a) and the examples/wgmma kernels, on the
// inputs wgmma_npz.py writes (the launch tables' and random ones).
#include <cstdio>
#include <cstdint>
#include <cstdlib>
#include <cstring>
#include <vector>
#include <cmath>
#include <cuda_runtime.h>
#include <cuda_fp16.h>

#define LBO 128
#define SBO 256

__device__ __forceinline__ int core_off(int r, int k) {
    return (r / 8) * SBO + (k / 8) * LBO + (r % 8) * 16 + (k % 8) * 2;
}

__device__ __forceinline__ uint64_t desc(const void *smem) {
    uint32_t a = (uint32_t)__cvta_generic_to_shared(smem);
    return (uint64_t)((a & 0x3FFFF) >> 4) | ((uint64_t)(LBO >> 4) << 16) | ((uint64_t)(SBO >> 4) << 32);
}

template <int N>
__device__ void stage(const uint32_t *A, const uint32_t *B, uint16_t *sa, uint16_t *sb) {
    for (int e = threadIdx.x; e < 64 * 16; e += 128) sa[core_off(e / 16, e % 16) / 2] = (uint16_t)A[e];
    for (int e = threadIdx.x; e < N * 16; e += 128) {
        int n = e / 16, k = e % 16;
        sb[core_off(n, k) / 2] = (uint16_t)B[k * N + n];
    }
}

// A fragments: word q, half h of thread t holds A[16w + l/4 + 8(q%2)][8(q/2) + 2(l%4) + h]
__device__ void afrag(const uint32_t *A, uint32_t *af) {
    int t = threadIdx.x, w = t / 32, l = t % 32;
    for (int q = 0; q < 4; q++) {
        int row = 16 * w + l / 4 + 8 * (q % 2), k = 8 * (q / 2) + 2 * (l % 4);
        af[q] = (A[row * 16 + k] & 0xFFFF) | (A[row * 16 + k + 1] << 16);
    }
}

// accumulator fragments: f32 register i holds D[16w + l/4 + 8((i%4)/2)][8(i/4) + 2(l%4) + i%2];
// f16 register i holds D[16w + l/4 + 8(i%2)][8(i/2) + 2(l%4) + {0, 1}] (low half first)
template <int N, bool H>
__device__ void acc_io(uint32_t *M, uint32_t *acc, bool store) {
    int t = threadIdx.x, w = t / 32, l = t % 32;
    if (!H) {
        for (int i = 0; i < N / 2; i++) {
            int row = 16 * w + l / 4 + 8 * ((i % 4) / 2), col = 8 * (i / 4) + 2 * (l % 4) + i % 2;
            if (store) M[row * N + col] = acc[i]; else acc[i] = M[row * N + col];
        }
    } else {
        for (int i = 0; i < N / 4; i++) {
            int row = 16 * w + l / 4 + 8 * (i % 2), col = 8 * (i / 2) + 2 * (l % 4);
            if (store) { M[row * N + col] = acc[i] & 0xFFFF; M[row * N + col + 1] = acc[i] >> 16; }
            else acc[i] = (M[row * N + col] & 0xFFFF) | (M[row * N + col + 1] << 16);
        }
    }
}

#define PRE(IP) "{\n\t.reg .pred p;\n\tsetp.ne.b32 p, %" #IP ", 0;\n\twgmma.mma_async.sync.aligned."
#define SS(SHAPE, LIST, IA, IB, IP, SCA) \
    PRE(IP) SHAPE " " LIST ", %" #IA ", %" #IB ", p, " SCA ", 1, 0, 0;\n}"
#define RS(SHAPE, LIST, I0, I1, I2, I3, IB, IP, SCA) \
    PRE(IP) SHAPE " " LIST ", {%" #I0 ", %" #I1 ", %" #I2 ", %" #I3 "}, %" #IB ", p, " SCA ", 1, 0;\n}"
#define L2 "{%0,%1}"
#define L4 "{%0,%1,%2,%3}"
#define L8 "{%0,%1,%2,%3,%4,%5,%6,%7}"
#define L32 "{%0,%1,%2,%3,%4,%5,%6,%7,%8,%9,%10,%11,%12,%13,%14,%15,%16,%17,%18,%19,%20,%21," \
            "%22,%23,%24,%25,%26,%27,%28,%29,%30,%31}"
#define O2(a) "+r"(a[0]), "+r"(a[1])
#define O4(a) O2(a), "+r"(a[2]), "+r"(a[3])
#define O8(a) O4(a), "+r"(a[4]), "+r"(a[5]), "+r"(a[6]), "+r"(a[7])
#define O16(a) O8(a), "+r"(a[8]), "+r"(a[9]), "+r"(a[10]), "+r"(a[11]), "+r"(a[12]), "+r"(a[13]), \
               "+r"(a[14]), "+r"(a[15])
#define O32(a) O16(a), "+r"(a[16]), "+r"(a[17]), "+r"(a[18]), "+r"(a[19]), "+r"(a[20]), "+r"(a[21]), \
               "+r"(a[22]), "+r"(a[23]), "+r"(a[24]), "+r"(a[25]), "+r"(a[26]), "+r"(a[27]),          \
               "+r"(a[28]), "+r"(a[29]), "+r"(a[30]), "+r"(a[31])

#define HEAD(NAME, N)                                                                           \
extern "C" __global__ void __launch_bounds__(128) NAME(const uint32_t *A, const uint32_t *B,   \
        uint32_t *C, uint32_t *D, int sd) {                                                      \
    __shared__ __align__(128) uint16_t sa[64 * 16];                                              \
    __shared__ __align__(128) uint16_t sb[N * 16];                                               \
    int blk = blockIdx.x;                                                                        \
    A += blk * 64 * 16; B += blk * 16 * N; C += blk * 64 * N; D += blk * 64 * N;                 \
    stage<N>(A, B, sa, sb);                                                                      \
    __syncthreads();                                                                             \
    uint64_t da = desc(sa), db = desc(sb);                                                       \
    (void)da;
#define FENCE asm volatile("fence.proxy.async.shared::cta;\n\twgmma.fence.sync.aligned;" ::: "memory")
#define WAIT asm volatile("wgmma.commit_group.sync.aligned;\n\twgmma.wait_group.sync.aligned 0;" ::: "memory")

// A from a shared-memory descriptor
#define KSS(NAME, N, H, NR, OPS, PTX)                                                            \
HEAD(NAME, N)                                                                                    \
    uint32_t acc[NR]; acc_io<N, H>(C, acc, false);                                               \
    FENCE;                                                                                       \
    asm volatile(PTX : OPS(acc) : "l"(da), "l"(db), "r"(sd));                                    \
    WAIT;                                                                                        \
    acc_io<N, H>(D, acc, true); }
// A from registers
#define KRS(NAME, N, H, NR, OPS, PTX)                                                            \
HEAD(NAME, N)                                                                                    \
    uint32_t af[4]; afrag(A, af);                                                                \
    uint32_t acc[NR]; acc_io<N, H>(C, acc, false);                                               \
    FENCE;                                                                                       \
    asm volatile(PTX : OPS(acc) : "r"(af[0]), "r"(af[1]), "r"(af[2]), "r"(af[3]), "l"(db), "r"(sd)); \
    WAIT;                                                                                        \
    acc_io<N, H>(D, acc, true); }

KSS(f16_f32_n8_ss, 8, false, 4, O4, SS("m64n8k16.f32.f16.f16", L4, 4, 5, 6, "1"))
KRS(f16_f32_n8_rs, 8, false, 4, O4, RS("m64n8k16.f32.f16.f16", L4, 4, 5, 6, 7, 8, 9, "1"))
KSS(f16_f32_n16_ss, 16, false, 8, O8, SS("m64n16k16.f32.f16.f16", L8, 8, 9, 10, "1"))
KRS(f16_f32_n16_rs, 16, false, 8, O8, RS("m64n16k16.f32.f16.f16", L8, 8, 9, 10, 11, 12, 13, "1"))
KSS(f16_f32_n16_ss_neg, 16, false, 8, O8, SS("m64n16k16.f32.f16.f16", L8, 8, 9, 10, "-1"))
KSS(f16_f32_n64_ss, 64, false, 32, O32, SS("m64n64k16.f32.f16.f16", L32, 32, 33, 34, "1"))
KSS(bf16_f32_n8_ss, 8, false, 4, O4, SS("m64n8k16.f32.bf16.bf16", L4, 4, 5, 6, "1"))
KRS(bf16_f32_n8_rs, 8, false, 4, O4, RS("m64n8k16.f32.bf16.bf16", L4, 4, 5, 6, 7, 8, 9, "1"))
KSS(bf16_f32_n16_ss, 16, false, 8, O8, SS("m64n16k16.f32.bf16.bf16", L8, 8, 9, 10, "1"))
KRS(bf16_f32_n16_rs, 16, false, 8, O8, RS("m64n16k16.f32.bf16.bf16", L8, 8, 9, 10, 11, 12, 13, "1"))
KSS(f16_f16_n8_ss, 8, true, 2, O2, SS("m64n8k16.f16.f16.f16", L2, 2, 3, 4, "1"))
KRS(f16_f16_n8_rs, 8, true, 2, O2, RS("m64n8k16.f16.f16.f16", L2, 2, 3, 4, 5, 6, 7, "1"))
KSS(f16_f16_n16_ss, 16, true, 4, O4, SS("m64n16k16.f16.f16.f16", L4, 4, 5, 6, "1"))
KRS(f16_f16_n16_rs, 16, true, 4, O4, RS("m64n16k16.f16.f16.f16", L4, 4, 5, 6, 7, 8, 9, "1"))
KRS(f16_f16_n16_rs_neg, 16, true, 4, O4, RS("m64n16k16.f16.f16.f16", L4, 4, 5, 6, 7, 8, 9, "-1"))

// ------------------------------------------------------------------- host
static uint64_t st = 0x9E3779B97F4A7C15ull;
static uint32_t rnd() { st ^= st << 13; st ^= st >> 7; st ^= st << 17; return (uint32_t)st; }
static uint32_t fbits(float f) { uint32_t u; memcpy(&u, &f, 4); return u; }
static uint32_t h16(int s, int e, uint32_t m) { return (s << 15) | ((e + 15) << 10) | (m & 0x3FF); }
static uint32_t b16(int s, int e, uint32_t m) { return (s << 15) | ((e + 127) << 7) | (m & 0x7F); }
static uint32_t f32b(int s, int e, uint32_t m) { return ((uint32_t)s << 31) | ((e + 127) << 23) | (m & 0x7FFFFF); }
static uint32_t half_of(float f, bool bf) {  // nearest
    if (bf) { uint32_t u = fbits(f); return (u + 0x7FFF + ((u >> 16) & 1)) >> 16; }
    __half h = __float2half_rn(f); uint16_t u; memcpy(&u, &h, 2); return u;
}
static double h2d(uint32_t h, bool bf) {
    if (bf) { uint32_t u = h << 16; float f; memcpy(&f, &u, 4); return f; }
    int s = (h >> 15) & 1, e = (h >> 10) & 31, m = h & 0x3FF;
    double v = e ? ldexp(1024 + m, e - 25) : ldexp(m, -24);
    return s ? -v : v;
}

typedef void (*Kern)(const uint32_t *, const uint32_t *, uint32_t *, uint32_t *, int);
struct Form { const char *name; Kern k; int n; bool bf, hacc; };
#define F(NAME, N, BF, H) {#NAME, NAME, N, BF, H}
static const Form FORMS[] = {
    F(f16_f32_n8_ss, 8, false, false), F(f16_f32_n8_rs, 8, false, false),
    F(f16_f32_n16_ss, 16, false, false), F(f16_f32_n16_rs, 16, false, false),
    F(f16_f32_n16_ss_neg, 16, false, false), F(f16_f32_n64_ss, 64, false, false),
    F(bf16_f32_n8_ss, 8, true, false), F(bf16_f32_n8_rs, 8, true, false),
    F(bf16_f32_n16_ss, 16, true, false), F(bf16_f32_n16_rs, 16, true, false),
    F(f16_f16_n8_ss, 8, false, true), F(f16_f16_n8_rs, 8, false, true),
    F(f16_f16_n16_ss, 16, false, true), F(f16_f16_n16_rs, 16, false, true),
    F(f16_f16_n16_rs_neg, 16, false, true),
};

static void run(const Form &fm, int mode, int sd, int nb) {
    const int N = fm.n, K = 16;
    const bool bf = fm.bf, hacc = fm.hacc;
    size_t na = (size_t)nb * 64 * K, nbb = (size_t)nb * K * N, nc = (size_t)nb * 64 * N;
    std::vector<uint32_t> A(na), B(nbb), C(nc), D(nc);
    auto p2 = [&](int s, int e) { return bf ? b16(s, e, 0) : h16(s, e, 0); };  // +-2^e
    auto hx = [&](int s, int e, uint32_t m) { return bf ? b16(s, e, m) : h16(s, e, m); };
    auto op = [&]() -> uint32_t {
        if (mode == 0) return half_of((int)(rnd() % 17 - 8) * 0.25f, bf);
        if (mode == 6) return half_of(((rnd() >> 8) * (1.0f / 16777216.0f)) * 4.0f - 2.0f, bf);
        uint32_t r = rnd(), s = r & 1, pick = (r >> 1) % 32;
        if (pick == 0) return s << 15;
        if (bf) return b16(s, (int)(rnd() % 61) - 30, rnd());
        if (pick == 1) return (s << 15) | (rnd() & 0x3FF);
        return h16(s, (int)(rnd() % 16) - 12, rnd());
    };
    auto cval = [&]() -> uint32_t {
        if (mode == 0) { float f = (int)(rnd() % 33 - 16) * 0.25f; return hacc ? half_of(f, false) : fbits(f); }
        if (mode == 6) { float f = ((rnd() >> 8) * (1.0f / 16777216.0f)) * 8.0f - 4.0f; return hacc ? half_of(f, false) : fbits(f); }
        uint32_t r = rnd(), s = r & 1;
        if ((r >> 1) % 16 == 0) return hacc ? s << 15 : s << 31;
        if (hacc) return h16(s, (int)(rnd() % 26) - 14, rnd());
        return bf ? f32b(s, (int)(rnd() % 141) - 70, rnd()) : f32b(s, (int)(rnd() % 43) - 30, rnd());
    };
    for (auto &x : A) x = op();
    for (auto &x : B) x = op();
    for (auto &x : C) x = cval();
    const uint32_t INF = bf ? 0x7F80 : 0x7C00, QNAN = bf ? 0x7FC0 : 0x7E00, ONE = p2(0, 0);
    const uint32_t CNAN = hacc ? 0x7E00 : 0x7FC00000u, CNZ = hacc ? 0x8000 : 0x80000000u;
    for (int w = 0; mode == 5 && w < 16 && w < nb; w++) {
        uint32_t *a = &A[w * 64 * K], *b = &B[w * K * N], *c = &C[w * 64 * N];
        uint32_t sub = bf ? 0x7F : 0x3FF;
        switch (w) {
        case 0: for (int i = 0; i < 64 * K; i++) a[i] = (rnd() & 0x8000) | (rnd() & sub);
                for (int i = 0; i < K * N; i++) b[i] = (rnd() & 0x8000) | (rnd() & sub);
                for (int i = 0; i < 64 * N; i++) c[i] = 0; break;
        case 1: for (int i = 0; i < 64 * K; i++) a[i] = (rnd() & 0x8000) | (rnd() & sub);
                if (!bf) {
                    for (int r = 0; r < 8; r++) {
                        for (int i = 0; i < K; i++) a[r * K + i] = 0;
                        a[r * K] = 0x0001 | ((r & 1) << 15); a[r * K + 1] = h16(r & 1, -14, 1);
                        for (int n = 0; n < N; n++) c[r * N + n] = 0;
                    }
                    for (int n = 0; n < N; n++) { b[n] = h16(0, 10, 0); b[N + n] = h16(0, 0, 1); }
                }
                break;
        case 2: a[0] = INF; a[5 * K + 3] = INF | 0x8000; break;
        case 3: a[0] = INF; for (int n = 0; n < N; n++) b[n] = 0; break;
        case 4: a[0] = INF; a[1] = INF | 0x8000; for (int n = 0; n < N; n++) b[n] = b[N + n] = ONE; break;
        case 5: a[K] = QNAN; for (int n = 0; n < N; n++) c[2 * N + n] = CNAN; break;
        case 6: for (int r = 0; r < 64; r++) {
                    for (int i = 0; i < K; i++) a[r * K + i] = 0;
                    for (int n = 0; n < N; n++) c[r * N + n] = 0;
                    int s = r & 1;  // rows r%8 0-3: 1 + 2^-11 (+ 2^-25); 4-7: 1 + 3 * 2^-11 (- 2^-25)
                    a[r * K + 0] = p2(s, 0); a[r * K + 1] = p2(s, -11);
                    if ((r & 7) >= 4) a[r * K + 3] = p2(s, -10);
                    if (r & 2) a[r * K + 2] = p2(s ^ ((r & 7) >= 4), -13);
                }
                for (int i = 0; i < K * N; i++) b[i] = 0;
                for (int n = 0; n < N; n++) { b[n] = b[N + n] = b[3 * N + n] = ONE; b[2 * N + n] = p2(0, -12); }
                break;
        case 7: for (int r = 0; r < 64; r++) for (int i = 0; i < K; i++) a[r * K + i] = p2((r & 15) >= 8, 7);
                for (int i = 0; i < K * N; i++) b[i] = p2(0, 7); break;
        case 8: for (int i = 0; i < 64 * K; i++) a[i] = 0;
                for (int i = 0; i < 64 * N; i++) c[i] = CNZ; break;
        case 9: for (int i = 0; i < 64 * K; i++) a[i] = 0x8000;
                for (int i = 0; i < K * N; i++) b[i] = ONE;
                for (int i = 0; i < 64 * N; i++) c[i] = CNZ; break;
        case 10: for (int r = 0; r < 64; r++) for (int i = 0; i < K; i++)
                    a[r * K + i] = hx(rnd() & 1, i < 8 ? -12 + (int)(rnd() % 4) : 1 + (int)(rnd() % 3), rnd());
                for (int i = 0; i < K * N; i++) b[i] = hx(rnd() & 1, (int)(rnd() % 3), rnd());
                break;
        case 11: for (int i = 0; i < 64 * N; i++) c[i] = hacc ? h16(rnd() & 1, 10, rnd()) : f32b(rnd() & 1, 20, rnd()); break;
        case 12: for (int r = 0; r < 64; r++) for (int n = 0; n < N; n++) {
                    double sum = 0;
                    for (int i = 0; i < K; i++) sum += h2d(a[r * K + i], bf) * h2d(b[i * N + n], bf);
                    if (hacc) c[r * N + n] = half_of((float)-sum, false);
                    else c[r * N + n] = fbits((float)-sum);
                }
                break;
        case 13: if (bf) {
                    for (int i = 0; i < 64 * K; i++) a[i] = b16(rnd() & 1, 56 + (int)(rnd() % 8), rnd());
                    for (int i = 0; i < K * N; i++) b[i] = b16(rnd() & 1, 56 + (int)(rnd() % 8), rnd());
                } else {
                    for (int r = 0; r < 64; r++) {
                        int s = (r >> 1) & 1;
                        for (int i = 0; i < K; i++) a[r * K + i] = 0;
                        a[r * K] = h16(s, 2 + (r & 1), rnd());
                        for (int n = 0; n < N; n++) c[r * N + n] = hacc ? (0x7BFF | (s << 15)) : (0x7F7FFFFFu | ((uint32_t)s << 31));
                    }
                    for (int n = 0; n < N; n++) b[n] = h16(0, n % 7, rnd());
                }
                break;
        case 14: for (int r = 0; r < 64; r++) {
                    for (int n = 0; n < N; n++) c[r * N + n] = 0;
                    a[r * K] = p2(rnd() & 1, 0);
                    for (int i = 1; i < K; i++) a[r * K + i] = hx(rnd() & 1, -7 - (int)(rnd() % 8), rnd());
                }
                for (int n = 0; n < N; n++) b[n] = ONE;
                for (int i = 1; i < K; i++) for (int n = 0; n < N; n++)
                    b[i * N + n] = hx(rnd() & 1, -7 - (int)(rnd() % 8), rnd());
                break;
        default: break;
        }
    }
    uint32_t *dA, *dB, *dC, *dD;
    cudaMalloc(&dA, na * 4); cudaMalloc(&dB, nbb * 4); cudaMalloc(&dC, nc * 4); cudaMalloc(&dD, nc * 4);
    cudaMemcpy(dA, A.data(), na * 4, cudaMemcpyHostToDevice);
    cudaMemcpy(dB, B.data(), nbb * 4, cudaMemcpyHostToDevice);
    cudaMemcpy(dC, C.data(), nc * 4, cudaMemcpyHostToDevice);
    cudaMemset(dD, 0xFF, nc * 4);
    fm.k<<<nb, 128>>>(dA, dB, dC, dD, sd);
    cudaError_t e = cudaDeviceSynchronize();
    cudaMemcpy(D.data(), dD, nc * 4, cudaMemcpyDeviceToHost);
    char path[256];
    snprintf(path, sizeof path, "%s/%s_sd%d_m%d.bin", getenv("OUT") ? getenv("OUT") : ".", fm.name, sd, mode);
    FILE *f = fopen(path, "wb");
    fwrite(A.data(), 4, na, f); fwrite(B.data(), 4, nbb, f); fwrite(C.data(), 4, nc, f); fwrite(D.data(), 4, nc, f);
    fclose(f);
    printf("%s sd %d mode %d (%d warpgroups): %s\n", fm.name, sd, mode, nb, cudaGetErrorString(e));
    cudaFree(dA); cudaFree(dB); cudaFree(dC); cudaFree(dD);
}

// A job file: one launch a line, `CUBIN KERNEL GX GY BLOCK SHARED NAME ARG...`, each
// ARG `b:FILE` (a buffer holding FILE), `z:BYTES` (a zeroed buffer) or `i:VALUE` (an
// int); after the launch every buffer comes back as NAME.J.bin (J its argument index).
static int launch_jobs(const char *jobs) {
    FILE *jf = fopen(jobs, "r");
    if (!jf) { printf("cannot read %s\n", jobs); return 1; }
    char line[4096];
    int bad = 0;
    while (fgets(line, sizeof line, jf)) {
        char cubin[512], kname[256], name[256];
        int gx, gy, bx, shared, used = 0;
        if (sscanf(line, "%511s %255s %d %d %d %d %255s%n", cubin, kname, &gx, &gy, &bx, &shared, name, &used) < 7)
            continue;
        std::vector<void *> ptrs; std::vector<size_t> sizes; std::vector<int> ints;
        std::vector<int> kind;  // 0 buffer, 1 int
        ints.reserve(64); ptrs.reserve(64);
        char *p = line + used, tok[512];
        int n;
        while (sscanf(p, "%511s%n", tok, &n) == 1) {
            p += n;
            if (tok[0] == 'i') { ints.push_back(atoi(tok + 2)); kind.push_back(1); ptrs.push_back(nullptr); sizes.push_back(0); continue; }
            std::vector<char> host;
            if (tok[0] == 'z') host.assign((size_t)atol(tok + 2), 0);
            else {
                FILE *bf = fopen(tok + 2, "rb");
                if (!bf) { printf("%s: cannot read %s\n", name, tok + 2); return 1; }
                fseek(bf, 0, SEEK_END); host.resize((size_t)ftell(bf)); fseek(bf, 0, SEEK_SET);
                if (fread(host.data(), 1, host.size(), bf) != host.size()) return 1;
                fclose(bf);
            }
            void *d; cudaMalloc(&d, host.size() + 16);
            cudaMemcpy(d, host.data(), host.size(), cudaMemcpyHostToDevice);
            ptrs.push_back(d); sizes.push_back(host.size()); kind.push_back(0); ints.push_back(0);
        }
        std::vector<void *> args(ptrs.size());
        for (size_t j = 0; j < ptrs.size(); j++) args[j] = kind[j] ? (void *)&ints[j] : (void *)&ptrs[j];
        cudaLibrary_t lib; cudaKernel_t k;
        cudaError_t e = cudaLibraryLoadFromFile(&lib, cubin, nullptr, nullptr, 0, nullptr, nullptr, 0);
        if (e == cudaSuccess) e = cudaLibraryGetKernel(&k, lib, kname);
        if (e == cudaSuccess) e = cudaLaunchKernel((const void *)k, dim3(gx, gy, 1), dim3(bx, 1, 1), args.data(), shared, 0);
        if (e == cudaSuccess) e = cudaDeviceSynchronize();
        for (size_t j = 0; j < ptrs.size(); j++) {
            if (kind[j]) continue;
            std::vector<char> host(sizes[j]);
            cudaMemcpy(host.data(), ptrs[j], sizes[j], cudaMemcpyDeviceToHost);
            char path[512];
            snprintf(path, sizeof path, "%s/%s.%zu.bin", getenv("OUT") ? getenv("OUT") : ".", name, j);
            FILE *of = fopen(path, "wb"); fwrite(host.data(), 1, host.size(), of); fclose(of);
            cudaFree(ptrs[j]);
        }
        printf("%s (%s): %s\n", name, kname, cudaGetErrorString(e));
        bad |= e != cudaSuccess;
    }
    fclose(jf);
    return bad;
}

int main(int argc, char **argv) {
    for (const Form &fm : FORMS) {
        run(fm, 0, 1, 2);
        run(fm, 4, 1, 32);
        run(fm, 4, 0, 8);
        run(fm, 5, 1, 16);
        run(fm, 5, 0, 16);
        run(fm, 6, 1, 16);
    }
    return argc > 1 ? launch_jobs(argv[1]) : 0;
}
