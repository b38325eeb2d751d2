__device__ __noinline__ float helper(float v) {
    __shared__ float hbuf[64];
    hbuf[threadIdx.x & 63] = v;
    __syncthreads();
    return hbuf[(threadIdx.x + 1) & 63];
}
extern "C" __global__ void k_small(float *out) {
    __shared__ float sa[32];
    sa[threadIdx.x] = threadIdx.x;
    __syncthreads();
    out[threadIdx.x] = sa[31 - threadIdx.x];
}
extern "C" __global__ void k_big(double *out) {
    __shared__ double sb[128];
    sb[threadIdx.x] = threadIdx.x * 2.0;
    __syncthreads();
    out[threadIdx.x] = sb[127 - threadIdx.x];
}
extern "C" __global__ void k_call(float *out) {
    out[threadIdx.x] = helper((float)threadIdx.x);
}
