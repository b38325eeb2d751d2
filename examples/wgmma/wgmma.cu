// Hand-written sm_90a warpgroup MMA kernels (issue 14): wgmma.mma_async through
// inline PTX, one warpgroup (128 threads) per CTA computing D = A * B^T for a
// 64 x N tile, K in steps of 16.  They cover what ori models besides Triton's
// 64-byte swizzle: K-major operands without swizzling (8 x 16-byte core
// matrices) and with the 128-byte swizzle, A from registers, bf16 inputs and
// f16 accumulators.  A is M x K row-major, Bt is N x K row-major (B
// transposed: both operands K-major), D is M x N row-major; the threads store
// their accumulator fragments at the positions the PTX ISA's D layout gives.
#include <cuda_bf16.h>
#include <cuda_fp16.h>
#include <stdint.h>

// Canonical K-major layout without swizzling: element (r, k) of a tile at
// (r / 8) * SBO + (k / 8) * LBO + (r % 8) * 16 + (k % 8) * 2 bytes.
#define LBO 128
#define SBO 256

__device__ __forceinline__ uint64_t desc(const void* smem, uint32_t lbo, uint32_t sbo,
                                         uint32_t swizzle) {
  uint32_t a = (uint32_t)__cvta_generic_to_shared(smem);
  return (uint64_t)((a & 0x3FFFF) >> 4) | ((uint64_t)(lbo >> 4) << 16) |
         ((uint64_t)(sbo >> 4) << 32) | ((uint64_t)swizzle << 62);
}

__device__ __forceinline__ int core_off(int r, int k) {
  return (r / 8) * SBO + (k / 8) * LBO + (r % 8) * 16 + (k % 8) * 2;
}

// 128-byte swizzle, K-major, 64 k per row: element (r, k) of a 64-wide tile.
__device__ __forceinline__ int sw128_off(int r, int k) {
  int x = (r / 8) * 1024 + (r % 8) * 128 + k * 2;
  return x ^ (((x >> 7) & 7) << 4);
}

__device__ __forceinline__ void store_f32_frag(float* d, int n, const float* acc, int nregs) {
  int t = threadIdx.x, w = t / 32, l = t % 32;
  for (int i = 0; i < nregs; ++i) {
    int row = 16 * w + l / 4 + 8 * ((i % 4) / 2);
    int col = 8 * (i / 4) + 2 * (l % 4) + i % 2;
    d[row * n + col] = acc[i];
  }
}

#define ACC16(a) "+f"(a[0]), "+f"(a[1]), "+f"(a[2]), "+f"(a[3]), "+f"(a[4]), "+f"(a[5]), \
  "+f"(a[6]), "+f"(a[7]), "+f"(a[8]), "+f"(a[9]), "+f"(a[10]), "+f"(a[11]), "+f"(a[12]),  \
  "+f"(a[13]), "+f"(a[14]), "+f"(a[15])
#define ACC32(a) ACC16(a), "+f"(a[16]), "+f"(a[17]), "+f"(a[18]), "+f"(a[19]), "+f"(a[20]), \
  "+f"(a[21]), "+f"(a[22]), "+f"(a[23]), "+f"(a[24]), "+f"(a[25]), "+f"(a[26]),            \
  "+f"(a[27]), "+f"(a[28]), "+f"(a[29]), "+f"(a[30]), "+f"(a[31])
#define L16 "{%0,%1,%2,%3,%4,%5,%6,%7,%8,%9,%10,%11,%12,%13,%14,%15}"
#define L32 "{%0,%1,%2,%3,%4,%5,%6,%7,%8,%9,%10,%11,%12,%13,%14,%15,%16,%17,%18,%19,%20," \
  "%21,%22,%23,%24,%25,%26,%27,%28,%29,%30,%31}"

// D (64 x 64, f32) = A (64 x K, f16) * Bt^T, no swizzling, one commit group per k16 step.
extern "C" __global__ void __launch_bounds__(128) wgmma_f16_nosw(const __half* a,
    const __half* bt, float* d, int k_total) {
  __shared__ __align__(128) __half sa[64 * 16];
  __shared__ __align__(128) __half sb[64 * 16];
  float acc[32];
  for (int i = 0; i < 32; ++i) acc[i] = 0.f;
  for (int k0 = 0; k0 < k_total; k0 += 16) {
    for (int e = threadIdx.x; e < 64 * 16; e += 128) {
      int r = e / 16, k = e % 16;
      sa[core_off(r, k) / 2] = a[r * k_total + k0 + k];
      sb[core_off(r, k) / 2] = bt[r * k_total + k0 + k];
    }
    __syncthreads();
    uint64_t da = desc(sa, LBO, SBO, 0), db = desc(sb, LBO, SBO, 0);
    asm volatile("fence.proxy.async.shared::cta;\n\twgmma.fence.sync.aligned;" ::: "memory");
    asm volatile("wgmma.mma_async.sync.aligned.m64n64k16.f32.f16.f16 " L32
                 ", %32, %33, 1, 1, 1, 0, 0;"
                 : ACC32(acc) : "l"(da), "l"(db));
    asm volatile("wgmma.commit_group.sync.aligned;\n\twgmma.wait_group.sync.aligned 0;"
                 ::: "memory");
    __syncthreads();
  }
  store_f32_frag(d, 64, acc, 32);
}

// D (64 x 32, f32) = A (64 x 64, bf16) * Bt^T with the 128-byte swizzle: four
// k16 steps in one commit group, each advancing the descriptors by 32 bytes;
// the first starts from a zero accumulator (scale-d = 0).
extern "C" __global__ void __launch_bounds__(128) wgmma_bf16_sw128(
    const __nv_bfloat16* a, const __nv_bfloat16* bt, float* d) {
  __shared__ __align__(1024) __nv_bfloat16 sa[64 * 64];
  __shared__ __align__(1024) __nv_bfloat16 sb[32 * 64];
  for (int e = threadIdx.x; e < 64 * 64; e += 128) sa[sw128_off(e / 64, e % 64) / 2] = a[e];
  for (int e = threadIdx.x; e < 32 * 64; e += 128) sb[sw128_off(e / 64, e % 64) / 2] = bt[e];
  __syncthreads();
  float acc[16];
  asm volatile("fence.proxy.async.shared::cta;\n\twgmma.fence.sync.aligned;" ::: "memory");
#pragma unroll
  for (int s = 0; s < 4; ++s) {
    uint64_t da = desc(sa, 16, 1024, 1) + 2 * s, db = desc(sb, 16, 1024, 1) + 2 * s;
    if (s == 0)
      asm volatile("wgmma.mma_async.sync.aligned.m64n32k16.f32.bf16.bf16 " L16
                   ", %16, %17, 0, 1, 1, 0, 0;"
                   : ACC16(acc) : "l"(da), "l"(db));
    else
      asm volatile("wgmma.mma_async.sync.aligned.m64n32k16.f32.bf16.bf16 " L16
                   ", %16, %17, 1, 1, 1, 0, 0;"
                   : ACC16(acc) : "l"(da), "l"(db));
  }
  asm volatile("wgmma.commit_group.sync.aligned;\n\twgmma.wait_group.sync.aligned 0;"
               ::: "memory");
  store_f32_frag(d, 32, acc, 16);
}

// 64-byte swizzle (rows of 32 halves): element (r, c) of a tile with 64-byte rows.
__device__ __forceinline__ int sw64_off(int r, int c) {
  int x = r * 64 + c * 2;
  return x ^ (((x >> 7) & 3) << 4);
}

// D (64 x 32, f32) = A (64 x 32, f16, K-major) * B (32 x 32, f16, row-major: N
// contiguous, so MN-major with imm-trans-b = 1), both with the 64-byte swizzle
// -- the operand layouts Triton 3.9 gives tl.dot on sm_90a.
extern "C" __global__ void __launch_bounds__(128) wgmma_f16_sw64_mn(const __half* a,
    const __half* b, float* d) {
  __shared__ __align__(512) __half sa[64 * 32];
  __shared__ __align__(512) __half sb[32 * 32];
  for (int e = threadIdx.x; e < 64 * 32; e += 128) sa[sw64_off(e / 32, e % 32) / 2] = a[e];
  for (int e = threadIdx.x; e < 32 * 32; e += 128) sb[sw64_off(e / 32, e % 32) / 2] = b[e];
  __syncthreads();
  float acc[16];
  for (int i = 0; i < 16; ++i) acc[i] = 0.f;
  asm volatile("fence.proxy.async.shared::cta;\n\twgmma.fence.sync.aligned;" ::: "memory");
#pragma unroll
  for (int s = 0; s < 2; ++s) {
    // A: the next 16 k are 32 bytes further along each row; B: 16 rows further
    uint64_t da = desc(sa, 16, 512, 2) + 2 * s, db = desc(sb, 16, 512, 2) + 64 * s;
    asm volatile("wgmma.mma_async.sync.aligned.m64n32k16.f32.f16.f16 " L16
                 ", %16, %17, 1, 1, 1, 0, 1;"
                 : ACC16(acc) : "l"(da), "l"(db));
  }
  asm volatile("wgmma.commit_group.sync.aligned;\n\twgmma.wait_group.sync.aligned 0;"
               ::: "memory");
  store_f32_frag(d, 32, acc, 16);
}

// D (64 x 32, f16 accumulators) = -(A * Bt^T) + C with A (64 x 16, f16) from
// registers (the A fragment layout) and imm-scale-a = -1.
extern "C" __global__ void __launch_bounds__(128) wgmma_rs_f16acc(const __half* a,
    const __half* bt, const __half* c, __half* d) {
  __shared__ __align__(128) __half sb[32 * 16];
  for (int e = threadIdx.x; e < 32 * 16; e += 128) sb[core_off(e / 16, e % 16) / 2] = bt[e];
  __syncthreads();
  int t = threadIdx.x, w = t / 32, l = t % 32;
  uint32_t af[4];
  for (int q = 0; q < 4; ++q) {
    int row = 16 * w + l / 4 + 8 * (q % 2), k = 8 * (q / 2) + 2 * (l % 4);
    __half2 h = __halves2half2(a[row * 16 + k], a[row * 16 + k + 1]);
    af[q] = *reinterpret_cast<uint32_t*>(&h);
  }
  uint32_t acc[8];
  for (int i = 0; i < 8; ++i) {
    int row = 16 * w + l / 4 + 8 * (i % 2), col = 8 * (i / 2) + 2 * (l % 4);
    __half2 h = __halves2half2(c[row * 32 + col], c[row * 32 + col + 1]);
    acc[i] = *reinterpret_cast<uint32_t*>(&h);
  }
  uint64_t db = desc(sb, LBO, SBO, 0);
  asm volatile("fence.proxy.async.shared::cta;\n\twgmma.fence.sync.aligned;" ::: "memory");
  asm volatile("wgmma.mma_async.sync.aligned.m64n32k16.f16.f16.f16 "
               "{%0,%1,%2,%3,%4,%5,%6,%7}, {%8,%9,%10,%11}, %12, 1, -1, 1, 0;"
               : "+r"(acc[0]), "+r"(acc[1]), "+r"(acc[2]), "+r"(acc[3]), "+r"(acc[4]),
                 "+r"(acc[5]), "+r"(acc[6]), "+r"(acc[7])
               : "r"(af[0]), "r"(af[1]), "r"(af[2]), "r"(af[3]), "l"(db));
  asm volatile("wgmma.commit_group.sync.aligned;\n\twgmma.wait_group.sync.aligned 0;"
               ::: "memory");
  for (int i = 0; i < 8; ++i) {
    int row = 16 * w + l / 4 + 8 * (i % 2), col = 8 * (i / 2) + 2 * (l % 4);
    __half2 h = *reinterpret_cast<__half2*>(&acc[i]);
    d[row * 32 + col] = __low2half(h);
    d[row * 32 + col + 1] = __high2half(h);
  }
}
