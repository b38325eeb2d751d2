// Device-function calls under the standard calling convention (seed 003),
// compiled with -rdc=true so that every __device__ function keeps external
// linkage and ptxas cannot specialise its convention: scalars live across
// calls, wide and mixed parameters, by-value structs of 32 bytes (in
// registers) and 64 bytes (on the stack), more parameters than the twelve
// parameter registers, recursion and calls through function pointers.
struct Mid { int v[8]; };    // 32 bytes: R4..R11
struct Big { int v[16]; };   // 64 bytes: the caller's stack frame

__device__ __noinline__ int add3(int a, int b, int c) { return a * b + c; }

__device__ __noinline__ int sum_mid(Mid m) {
    int t = 0;
#pragma unroll
    for (int i = 0; i < 8; ++i) t += m.v[i] * (i + 1);
    return t;
}

__device__ __noinline__ int sum_big(Big s, int k) {
    int t = 0;
#pragma unroll
    for (int i = 0; i < 16; ++i) t += s.v[i] * (i + k);
    return t;
}

__device__ __noinline__ long long wide(long long a, double b, int c, float4 d) {
    return a + (long long)b + c + (long long)(d.x + d.y + d.z + d.w);
}

__device__ __noinline__ int many(int a0, int a1, int a2, int a3, int a4, int a5, int a6,
                                 int a7, int a8, int a9, int a10, int a11, int a12, int a13) {
    return a0 + 2 * a1 + 3 * a2 + 4 * a3 + 5 * a4 + 6 * a5 + 7 * a6 + 8 * a7 + 9 * a8
           + 10 * a9 + 11 * a10 + 12 * a11 + 13 * a12 + 14 * a13;
}

__device__ __noinline__ int fib(int n) { return n < 2 ? n : fib(n - 1) + fib(n - 2); }

__device__ __noinline__ int sq(int x) { return x * x; }
__device__ __noinline__ int neg(int x) { return -x; }
typedef int (*unary_fn)(int);

extern "C" __global__ void abi_direct(const int* a, int* out, int n) {
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    if (i >= n) return;
    int x = a[i], y = a[i + 1], z = a[i + 2];
    int r = add3(x, y, z);
    int s = add3(r, x, y);  // x and y live across the first call
    out[i] = r + s + x * y * z;
}

extern "C" __global__ void abi_structs(const int* a, int* out) {
    int i = threadIdx.x;
    Mid m;
    Big b;
#pragma unroll
    for (int j = 0; j < 8; ++j) m.v[j] = a[i + j];
#pragma unroll
    for (int j = 0; j < 16; ++j) b.v[j] = a[i + 2 * j];
    out[i] = sum_mid(m) + sum_big(b, i);
}

extern "C" __global__ void abi_wide(const long long* a, const double* b, const float4* d,
                                    long long* out) {
    int i = threadIdx.x;
    out[i] = wide(a[i], b[i], i, d[i]);
}

extern "C" __global__ void abi_many(const int* a, int* out) {
    int i = threadIdx.x;
    const int* p = a + 14 * i;
    out[i] = many(p[0], p[1], p[2], p[3], p[4], p[5], p[6], p[7], p[8], p[9], p[10], p[11],
                  p[12], p[13]);
}

extern "C" __global__ void abi_recursive(const int* a, int* out) {
    int i = threadIdx.x;
    out[i] = fib(a[i] & 7) + i;
}

extern "C" __global__ void abi_indirect(const int* a, int* out) {
    int i = threadIdx.x;
    unary_fn f = (a[i] & 1) ? sq : neg;
    out[i] = f(a[i]) + f(i);  // f(a[i]) live across the second call
}
