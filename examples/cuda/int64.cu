// 64-bit integer arithmetic and 64-bit pointer arithmetic.
typedef unsigned long long u64;

extern "C" __global__ void int64_mix(const long long* a, const long long* b, long long* out, int n)
{
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    if (i >= n) {
        return;
    }
    long long x = a[i];
    long long y = b[i];
    u64 ux = (u64)x;
    u64 uy = (u64)y;
    long long* o = out + 6 * (long long)i;
    o[0] = (long long)(ux * uy + (u64)(x >> 7));
    o[1] = __mul64hi(x, y);
    o[2] = (long long)__umul64hi(ux, uy);
    o[3] = (long long)((ux ^ uy) - (uy << 13));
    o[4] = (long long)(ux >> (uy & 63));
    o[5] = x < y ? x : y;
}

// p = base + offset + i*stride (64-bit offsets); reads p[0] and p[-1].
extern "C" __global__ void ptr_arith64(const int* base, long long stride, long long offset, int* out,
                                       int n)
{
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    if (i >= n) {
        return;
    }
    const int* p = base + offset + (long long)i * stride;
    out[i] = p[0] - p[-1] + (int)(p - base);
}
