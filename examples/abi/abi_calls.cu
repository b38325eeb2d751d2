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

// a local array per activation (ops/frame.py): the caller's array is live
// across the call to a callee with its own, and the recursive one keeps its
// array across its own call
__device__ __noinline__ int pick(int i) {
    volatile int t[8];
    for (int k = 0; k < 8; ++k) t[k] = 100 * k + i;
    return t[i & 7];
}
__device__ __noinline__ int nest(int n, int x) {
    volatile int t[4];
    for (int k = 0; k < 4; ++k) t[k] = n * 16 + k + x;
    if (n <= 0) return t[x & 3];
    int r = nest(n - 1, x + 1);
    return r + t[(x + n) & 3];
}
// many values live across a recursive call: more than the preserved
// registers hold, so some are spilled -- into the activation's frame
__device__ __noinline__ int deep(int n, int x) {
    if (n <= 0) return x;
    int a0 = x * 3 + 1, a1 = x * 5 + 2, a2 = x * 7 + 3, a3 = x * 11 + 4, a4 = x * 13 + 5;
    int a5 = x ^ 0x55, a6 = x ^ 0x3c, a7 = x * 17 + 6, a8 = x * 19 + 7, a9 = x * 23 + 8;
    int b0 = x * 29 + 9, b1 = x * 31 + 10, b2 = x ^ 0x77, b3 = x * 37 + 11, b4 = x * 41 + 12;
    int b5 = x * 43 + 13, b6 = x * 47 + 14, b7 = x ^ 0x1f, b8 = x * 53 + 15, b9 = x * 59 + 16;
    int r = deep(n - 1, x ^ (a0 + b9));
    return r + a0 + 2 * a1 + 3 * a2 + 4 * a3 + 5 * a4 + 6 * a5 + 7 * a6 + 8 * a7 + 9 * a8
           + 10 * a9 + (b0 ^ b1) + (b2 ^ b3) + (b4 ^ b5) + (b6 ^ b7) + (b8 ^ b9);
}

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

extern "C" __global__ void abi_frames(const int* a, int* out) {
    int i = threadIdx.x;
    volatile int u[8];
    for (int k = 0; k < 8; ++k) u[k] = a[i] + k;
    int r = pick(a[i]);  // u is live across the call; pick has its own array
    out[i] = r + u[(i + 1) & 7] + nest(a[i] & 3, i) + deep(a[i] & 3, i);
}
