// Four kernels over three __shared__ arrays; dev (one copy per kernel in
// ptxas, one body for k1 and k2 in ori) uses c.  Every thread writes its own
// element, so the results do not depend on the order threads run in.
__shared__ float a[256];
__shared__ float b[64];
__shared__ float c[64];
__device__ __noinline__ float dev(int i) { c[i & 63] = i * 3; __syncthreads(); return c[63 - (i & 63)]; }
extern "C" __global__ void k1(float* o) { a[threadIdx.x] = threadIdx.x; __syncthreads(); o[threadIdx.x] = a[63 - threadIdx.x] + dev(threadIdx.x); }
extern "C" __global__ void k2(float* o) { b[threadIdx.x] = threadIdx.x * 5; __syncthreads(); o[threadIdx.x] = b[63 - threadIdx.x] + dev(threadIdx.x); }
extern "C" __global__ void k3(float* o) { b[threadIdx.x] = 1; a[threadIdx.x] = 2; __syncthreads(); o[threadIdx.x] = b[(threadIdx.x + 3) & 63] + a[(threadIdx.x + 7) & 63]; }
extern "C" __global__ void k4(float* o) { b[threadIdx.x] = threadIdx.x * 2; __syncthreads(); o[threadIdx.x] = b[63 - threadIdx.x]; }
