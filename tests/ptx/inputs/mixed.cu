__device__ __noinline__ float2 helper(float a, int b, double c) { return make_float2(a*b, (float)c); }
__constant__ float coeffs[4] = {1.0f, 2.0f, 3.0f, 4.0f};
__device__ int gcount = 7;
__global__ void __launch_bounds__(256, 2) k(float *out, const float4 *in, int n, int *cnt) {
  __shared__ float s[256];
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  s[threadIdx.x] = i < n ? in[i].x : 0.f;
  __syncthreads();
  float acc = 0;
  #pragma unroll 1
  for (int j = 0; j < n; ++j) acc += s[j & 255] * coeffs[j & 3];
  float2 h = helper(acc, i, 1.5);
  acc += __shfl_sync(0xffffffff, h.x, 1);
  if (i < n) { out[i] = acc + h.y; atomicAdd(cnt, 1); }
  float4 v = in[i]; v.x += 1; ((float4*)out)[i] = v;
}
