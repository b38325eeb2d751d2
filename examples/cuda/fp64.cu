// Double precision: contracted axpy, fma, IEEE division and square root,
// Horner evaluation with fma in a count-down loop.
extern "C" __global__ void daxpy(int n, double a, const double* x, double* y)
{
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    if (i < n) {
        y[i] = a * x[i] + y[i];
    }
}

extern "C" __global__ void dfma_div_sqrt(const double* a, const double* b, const double* c,
                                         double* out, int n)
{
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    if (i < n) {
        double x = a[i];
        double y = b[i];
        double z = c[i];
        out[3 * i] = fma(x, y, z);
        out[3 * i + 1] = __ddiv_rn(x, y);
        out[3 * i + 2] = __dsqrt_rn(fabs(z));
    }
}

// out[i] = sum_k coef[k] * x[i]^k via Horner with fma, k = deg..0.
extern "C" __global__ void dhorner(const double* x, const double* coef, int deg, double* out, int n)
{
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    if (i >= n) {
        return;
    }
    double v = x[i];
    double acc = 0.0;
#pragma unroll 1
    for (int k = deg; k >= 0; --k) {
        acc = fma(acc, v, coef[k]);
    }
    out[i] = acc;
}
