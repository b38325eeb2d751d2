struct Pair { int a; float b; };
__device__ __noinline__ Pair mk(int a, float b, long long c, double d) { Pair p; p.a = a + (int)c; p.b = b * (float)d; return p; }
__device__ __noinline__ int sq(int x) { return x * x; }
__device__ __noinline__ void die(int code) { if (code) __trap(); }
typedef int (*fp_t)(int);
__device__ fp_t table[1] = {sq};
__global__ void calls(int *o, float *f, int k) {
  Pair p = mk(o[0], f[0], (long long)k << 20, 2.5);
  o[1] = p.a + sq(k) + table[0](k + 1); f[1] = p.b;
  die(k == 42);
}
