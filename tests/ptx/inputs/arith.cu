__global__ void arith(signed char *a8, short *a16, int *a32, long long *a64, float *f, double *d, unsigned *u) {
  int i = threadIdx.x;
  a8[i] = a8[i] * 3 + 1; a16[i] = a16[i] / 7 - a16[i+1];
  a32[i] = (a32[i] * a32[i+1]) >> 3 ^ (a32[i] % 5);
  a64[i] = a64[i] * a64[i+1] + (a64[i] / 9);
  unsigned long long w = (unsigned long long)u[i] * u[i+1]; u[i] = (unsigned)(w >> 32) + __popc(u[i]) + __clz(u[i]);
  f[i] = sqrtf(f[i]) * 1.5f + fminf(f[i+1], -2.25f) / f[i+2];
  d[i] = d[i] * 3.0 + 1e-300 / d[i+1];
}
