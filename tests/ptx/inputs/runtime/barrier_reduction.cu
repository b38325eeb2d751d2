// __syncthreads_count/and/or: bar.red.popc.u32 and bar.red.{and,or}.pred.
extern "C" __global__ void bar_reductions(const int* in, int* out) {
    int i = threadIdx.x;
    int v = in[blockIdx.x * blockDim.x + i];
    int c = __syncthreads_count(v > 10);
    int a = __syncthreads_and(v > 0);
    int o = __syncthreads_or(v > 50);
    out[blockIdx.x * blockDim.x + i] = c * 4 + a * 2 + o;
}
