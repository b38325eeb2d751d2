// Device-function calls (kept as real calls with __noinline__): a function with
// seven parameters of mixed types returning three values (one by value, two
// through pointers), and a small float function.
__device__ __noinline__ int mix7(int a, int b, unsigned c, long long d, float e, int* lo_out,
                                 int* hi_out)
{
    long long s = (long long)a * (long long)b + (long long)c + d;
    *lo_out = (int)(unsigned)(unsigned long long)s;
    *hi_out = (int)(s >> 32);
    return (int)e + (a ^ b);
}

__device__ __noinline__ float scale_add(float x, float y, float s)
{
    return x * s + y;
}

extern "C" __global__ void device_calls(const int* a, const int* b, const long long* d,
                                        const float* e, int* out, float* fout, int n)
{
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    if (i >= n) {
        return;
    }
    int lo;
    int hi;
    int r = mix7(a[i], b[i], (unsigned)i * 7u, d[i], e[i], &lo, &hi);
    out[3 * i] = r;
    out[3 * i + 1] = lo;
    out[3 * i + 2] = hi;
    fout[i] = scale_add(e[i], (float)a[i], 0.25f);
}
