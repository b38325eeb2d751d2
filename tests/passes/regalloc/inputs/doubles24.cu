// 24 doubles live around a loop; each iteration updates every one with an
// fma and a 1.0/(1.0+x*x).  Compiled with a per-thread limit of 40 registers
// (issue 13: "nothing live there can be spilled").
#define N 24
__global__ void __maxnreg__(40)
k(double* out, const double* in, int n)
{
    int t = blockIdx.x * blockDim.x + threadIdx.x;
    double a[N];
#pragma unroll
    for (int j = 0; j < N; ++j) a[j] = in[t * N + j];
    for (int i = 0; i < n; ++i) {
        double x = in[i];
#pragma unroll
        for (int j = 0; j < N; ++j) a[j] = fma(a[j], x, 1.0 / (1.0 + a[j] * a[j]));
    }
#pragma unroll
    for (int j = 0; j < N; ++j) out[t * N + j] = a[j];
}
