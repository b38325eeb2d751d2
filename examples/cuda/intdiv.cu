// Integer division and remainder by runtime values (signed/unsigned, 32/64-bit),
// and by a kernel parameter / a compile-time constant.
extern "C" __global__ void divmod_s32(const int* a, const int* b, int* q, int* r, int n)
{
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    if (i < n) {
        q[i] = a[i] / b[i];
        r[i] = a[i] % b[i];
    }
}

extern "C" __global__ void divmod_u32(const unsigned* a, const unsigned* b, unsigned* q, unsigned* r,
                                      int n)
{
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    if (i < n) {
        q[i] = a[i] / b[i];
        r[i] = a[i] % b[i];
    }
}

extern "C" __global__ void divmod_s64(const long long* a, const long long* b, long long* q,
                                      long long* r, int n)
{
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    if (i < n) {
        q[i] = a[i] / b[i];
        r[i] = a[i] % b[i];
    }
}

extern "C" __global__ void divmod_u64(const unsigned long long* a, const unsigned long long* b,
                                      unsigned long long* q, unsigned long long* r, int n)
{
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    if (i < n) {
        q[i] = a[i] / b[i];
        r[i] = a[i] % b[i];
    }
}

// out[3i] = a/ds (signed param), out[3i+1] = (unsigned)a % du (unsigned param),
// out[3i+2] = a/7 + a%10 (constants: multiply-high sequences).
extern "C" __global__ void div_by_param(const int* a, int* out, int ds, unsigned du, int n)
{
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    if (i < n) {
        int x = a[i];
        out[3 * i] = x / ds;
        out[3 * i + 1] = (int)((unsigned)x % du);
        out[3 * i + 2] = x / 7 + x % 10;
    }
}
