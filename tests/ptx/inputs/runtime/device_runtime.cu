// CUDA device-runtime calls nvcc emits: malloc/free (also new/delete),
// vprintf (printf) and __assertfail (assert).
#include <cstdio>
#include <cassert>
extern "C" __global__ void heap_copy(const int* in, int* out, int n) {
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    int* buf = (int*)malloc(4 * sizeof(int));
    if (buf == nullptr) { out[i] = -1; return; }
    for (int k = 0; k < 4; ++k) buf[k] = in[i] * (k + 1);
    int s = 0;
    for (int k = 0; k < 4; ++k) s += buf[k];
    free(buf);
    if (i < n) out[i] = s;
}
extern "C" __global__ void new_delete(int* out) {
    int i = threadIdx.x;
    int* p = new int[3];
    p[0] = i; p[1] = 2 * i; p[2] = 3 * i;
    out[i] = p[0] + p[1] + p[2];
    delete[] p;
}
extern "C" __global__ void print_vals(const int* in, float f) {
    int i = threadIdx.x;
    printf("thread %d value %d f=%f ll=%lld\n", i, in[i], f, (long long)in[i] * 3);
}
extern "C" __global__ void check_positive(const int* in, int* out) {
    int i = threadIdx.x;
    assert(in[i] >= 0);
    out[i] = in[i] + 1;
}
extern "C" __global__ void heap_exhaust(unsigned long long bytes, unsigned long long* out) {
    // one allocation per thread; with a small heap the late threads get NULL
    void* p = malloc(bytes);
    out[threadIdx.x] = p != nullptr;
}
extern "C" __global__ void double_free(int* out) {
    int* p = (int*)malloc(16);
    free(p);
    free(p);
    out[threadIdx.x] = 1;
}
