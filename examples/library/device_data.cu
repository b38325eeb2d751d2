// Module-scope data: __constant__ and __device__ scalars, arrays and
// initialized tables, and dispatch through a __device__ table of function
// pointers; and printf from a loop.
#include <cstdint>

// Initialized constant tables (the CRC-style polynomial table is built at
// compile time so the PTX carries a 64-entry .const initializer).
__constant__ uint32_t kPoly[4] = {0x04C11DB7u, 0x1EDC6F41u, 0x741B8CD7u, 0x814141ABu};
__constant__ int kWeights[8] = {1, -2, 3, -4, 5, -6, 7, -8};
__constant__ float kScale = 0.25f;

// Set by the host with cudaMemcpyToSymbol before a launch (no initializer).
__constant__ int kBias;
__constant__ int kCoeffs[16];

// Initialized global data, and a global counter the kernels update.
__device__ int gSquares[16] = {0, 1, 4, 9, 16, 25, 36, 49, 64, 81, 100, 121, 144, 169, 196, 225};
__device__ unsigned gCounter = 0;
__device__ int gHistory[64];

// out[i] = sum_k kWeights[k] * in[i + k] (a 1-D FIR filter with constant taps),
// then scaled by the float constant (exactly: the taps' sums are integers).
extern "C" __global__ void const_table_fir(const int* in, float* out, int n) {
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    if (i + 8 > n) return;
    int acc = 0;
#pragma unroll
    for (int k = 0; k < 8; ++k) acc += kWeights[k] * in[i + k];
    out[i] = static_cast<float>(acc) * kScale;
}

// One CRC-like step per word, the polynomial picked by the word's low bits.
extern "C" __global__ void const_poly_hash(const uint32_t* in, uint32_t* out, int n) {
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    if (i >= n) return;
    uint32_t x = in[i];
    uint32_t p = kPoly[x & 3];
    for (int b = 0; b < 8; ++b) x = (x & 0x80000000u) ? (x << 1) ^ p : (x << 1);
    out[i] = x;
}

// Uses the host-set symbols: out[i] = kCoeffs[in[i] & 15] + kBias.
extern "C" __global__ void const_symbols_set_by_host(const int* in, int* out, int n) {
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    if (i < n) out[i] = kCoeffs[in[i] & 15] + kBias;
}

// Reads the initialized __device__ table and takes a ticket from the
// __device__ counter.  The tickets' order depends on scheduling, but they are
// a permutation of 0..n-1, so counting each ticket's hits gives all ones.
extern "C" __global__ void device_globals(const int* in, int* out, int* hits, int n) {
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    if (i >= n) return;
    out[i] = gSquares[in[i] & 15] - in[i];
    unsigned t = atomicAdd(&gCounter, 1u);
    gHistory[t & 63] = i;
    atomicAdd(&hits[t % n], 1);
}

// Function-pointer dispatch through a __device__ table.
typedef int (*BinOp)(int, int);
__device__ __noinline__ int op_add(int a, int b) { return a + b; }
__device__ __noinline__ int op_sub(int a, int b) { return a - b; }
__device__ __noinline__ int op_mul(int a, int b) { return a * b; }
__device__ __noinline__ int op_xor_shift(int a, int b) { return a ^ (b << 3); }
__device__ BinOp gOps[4] = {op_add, op_sub, op_mul, op_xor_shift};

extern "C" __global__ void function_pointer_dispatch(const int* a, const int* b, const int* sel, int* out, int n) {
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    if (i < n) out[i] = gOps[sel[i] & 3](a[i], b[i]);
}

// printf from inside a loop (the CUDA device runtime's vprintf): each hit
// formats two ints into a local argument buffer.  Everything live across the
// call must survive it -- vprintf overwrites R0-R15 alone, so the loop's
// values sit above R15 or are recomputed after the call.
extern "C" __global__ void printf_loop(const int* in, int* out, int n, int iters) {
    int t = blockIdx.x * blockDim.x + threadIdx.x;
    if (t >= n) return;
    int a = in[t], b = in[t + n], c = in[t + 2 * n], d = in[t + 3 * n];
    int acc = 0;
    for (int i = 0; i < iters; ++i) {
        acc += a * i + b;
        if (acc == c) printf("hit %d %d\n", t, i);
        acc ^= d;
    }
    out[t] = acc;
}
