__device__ __noinline__ void die(int code) { __trap(); }
__global__ void __maxnreg__(40) k(int *o) { if (o[0]) die(o[1]); o[2] = 1; }
