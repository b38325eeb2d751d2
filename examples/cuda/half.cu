// Half precision: packed __half2 arithmetic and conversions.
#include <cuda_fp16.h>

// out = hfma2(a + b, a * c, b), each op rounded to fp16.
extern "C" __global__ void half2_arith(const __half2* a, const __half2* b, const __half2* c,
                                       __half2* out, int n)
{
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    if (i < n) {
        __half2 x = a[i];
        __half2 y = b[i];
        __half2 s = __hadd2(x, y);
        __half2 p = __hmul2(x, c[i]);
        out[i] = __hfma2(s, p, y);
    }
}

// fh = fp16(f) rounded to nearest even; hf = float(h) * 2 + 1.
extern "C" __global__ void half_convert(const float* f, const __half* h, __half* fh, float* hf, int n)
{
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    if (i < n) {
        fh[i] = __float2half_rn(f[i]);
        hf[i] = __half2float(h[i]) * 2.0f + 1.0f;
    }
}
