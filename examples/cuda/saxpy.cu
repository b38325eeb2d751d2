// saxpy: y = a*x + y (fp32, contracted to fma by nvcc; inputs are small dyadic
// values so the result is exact and identical to numpy's mul+add).
extern "C" __global__ void saxpy(int n, float a, const float* __restrict__ x, float* __restrict__ y)
{
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    if (i < n) {
        y[i] = a * x[i] + y[i];
    }
}
