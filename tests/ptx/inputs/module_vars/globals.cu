__device__ int g_counter;
__device__ int g_table[4] = {10, 20, 30, 40};
__device__ double g_scale = 2.5;
__constant__ float c_coef[4] = {1.0f, 2.0f, 3.0f, 4.0f};
__constant__ int c_n;

extern "C" __global__ void count(int *out, const float *x, int n) {
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    if (i < n) {
        float v = x[i];
        float r = c_coef[0] + v * (c_coef[1] + v * (c_coef[2] + v * c_coef[3]));
        out[i] = (int)(r * g_scale) + g_table[i & 3] + c_n;
        atomicAdd(&g_counter, 1);
    }
}

extern "C" __global__ void bump(int k) {
    g_table[threadIdx.x & 3] += k;
}
