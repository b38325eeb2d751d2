__global__ void shfl(float *x, int *y) {
  float v = x[threadIdx.x]; int k = y[threadIdx.x];
  for (int o = 16; o > 0; o >>= 1) { v += __shfl_down_sync(0xffffffff, v, o); k += __shfl_xor_sync(0xffffffff, k, o); }
  v += __shfl_up_sync(0xffff, v, 2); unsigned b = __ballot_sync(0xffffffff, v > 0); int a = __any_sync(0xffffffff, k > 3);
  x[threadIdx.x] = v; y[threadIdx.x] = k + b + a;
}
