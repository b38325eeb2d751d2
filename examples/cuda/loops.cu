// Loops: known and unknown trip counts, #pragma unroll 1, partial unrolling,
// count-down, nested and data-dependent while loops.

// Known trip count (100), kept rolled.
extern "C" __global__ void loop_known_unroll1(unsigned* out)
{
    unsigned t = blockIdx.x * blockDim.x + threadIdx.x;
    unsigned acc = t;
#pragma unroll 1
    for (int k = 0; k < 100; ++k) {
        acc = acc * 1664525u + 1013904223u + (unsigned)k;
    }
    out[t] = acc;
}

// Unknown trip count, kept rolled.
extern "C" __global__ void loop_unknown_unroll1(const unsigned* in, unsigned* out, int n, int trips)
{
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    if (i >= n) {
        return;
    }
    unsigned acc = in[i];
#pragma unroll 1
    for (int k = 0; k < trips; ++k) {
        acc = (acc ^ ((unsigned)k * 0x9E37u)) + (acc >> 3);
    }
    out[i] = acc;
}

// Unknown trip count unrolled by 4 (remainder handling).
extern "C" __global__ void loop_unroll4_unknown(const int* in, int* out, int n, int trips)
{
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    if (i >= n) {
        return;
    }
    int acc = 0;
#pragma unroll 4
    for (int k = 0; k < trips; ++k) {
        acc += in[(i + k) % n] * (k + 1);
    }
    out[i] = acc;
}

// Count-down loop with a per-thread (divergent) trip count: Horner in base 3.
extern "C" __global__ void loop_countdown(const unsigned* in, unsigned* out, int n)
{
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    if (i >= n) {
        return;
    }
    unsigned acc = 0;
    for (int k = i; k >= 0; --k) {
        acc = acc * 3u + in[k];
    }
    out[i] = acc;
}

// Nested loops with runtime bounds: out[t] = sum_{r,c} m[r][c] * (r ^ c ^ t).
extern "C" __global__ void loop_nested(const int* m, int* out, int rows, int cols)
{
    int t = blockIdx.x * blockDim.x + threadIdx.x;
    int acc = 0;
    for (int r = 0; r < rows; ++r) {
        for (int c = 0; c < cols; ++c) {
            acc += m[r * cols + c] * (r ^ c ^ t);
        }
    }
    out[t] = acc;
}

// Data-dependent while loop: Collatz step count, capped at 500.
extern "C" __global__ void loop_while_collatz(const unsigned* in, unsigned* steps, int n)
{
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    if (i >= n) {
        return;
    }
    unsigned x = in[i];
    unsigned s = 0;
    while (x != 1u && s < 500u) {
        x = (x & 1u) ? 3u * x + 1u : x >> 1;
        ++s;
    }
    steps[i] = s;
}
