__global__ void loop(float *x, int n) {
  float s = 0;
  #pragma unroll 1
  for (int i = 0; i < n; i++) { s += x[i] * x[i]; if (s > 100.f) break; }
  #pragma unroll 1
  while (n > 3) { n >>= 1; s *= 0.5f; }
  x[threadIdx.x] = s;
}
