// Kernels that take the address of a kernel parameter: nvcc 13 reads a
// __grid_constant__ parameter through its address (mov + ld.param [reg], or
// cvta.param when the address escapes as a generic pointer).
struct Table { int v[8]; long long bias; unsigned char tag; };

__device__ __noinline__ int read_generic(const int* p, int k) { return p[k]; }

extern "C" __global__ void param_index(const __grid_constant__ Table t, int* out) {
    int i = threadIdx.x;
    out[i] = t.v[i & 7] + (int)t.bias + t.tag;   // dynamic index into the parameter
}

extern "C" __global__ void param_escape(const __grid_constant__ Table t, int* out) {
    int i = threadIdx.x;
    out[i] = read_generic(t.v, (i * 3) & 7) + t.tag;   // the address escapes (generic)
}
