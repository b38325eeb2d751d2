__global__ void atomics(int *p, unsigned long long *q, float *f, double *g) {
  atomicAdd(p, 1); atomicMax(p + 1, (int)threadIdx.x); atomicCAS(p + 2, 0, 5);
  atomicExch(p + 3, 9); atomicAnd(p + 4, 0xf0); atomicOr(p+5, 1); atomicXor(p+6, 3);
  atomicAdd(q, 2ull); atomicAdd(f, 0.5f); atomicAdd(g, 0.25); atomicInc((unsigned*)p + 7, 10u);
  int old = atomicSub(p + 8, 4); p[9] = old;
}
