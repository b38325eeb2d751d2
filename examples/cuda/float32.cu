// fp32 operations. fp32_ieee uses only correctly rounded operations (exact vs
// numpy); fast_math uses MUFU approximations and is checked with a tolerance.
extern "C" __global__ void fp32_ieee(const float* a, const float* b, float* out, int n)
{
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    if (i >= n) {
        return;
    }
    float x = a[i];
    float y = b[i];
    float* o = out + 6 * i;
    o[0] = x / y;
    o[1] = sqrtf(fabsf(x));
    o[2] = fminf(x, y);
    o[3] = fmaxf(x, y);
    o[4] = fabsf(x) - y;
    o[5] = copysignf(x, y);
}

extern "C" __global__ void fast_math(const float* x, float* out, int n)
{
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    if (i < n) {
        float v = x[i];
        out[3 * i] = __expf(v);
        out[3 * i + 1] = rsqrtf(fabsf(v) + 1.0f);
        out[3 * i + 2] = __sinf(v);
    }
}
