// Thrust inside device code (thrust::seq: each thread runs the sequential
// algorithm on its own segment) and, in a host function, Thrust's parallel
// algorithms on device_vector, whose CUB-generated kernels are imported and
// compiled but not launched.
#include <thrust/count.h>
#include <thrust/device_vector.h>
#include <thrust/execution_policy.h>
#include <thrust/find.h>
#include <thrust/functional.h>
#include <thrust/reduce.h>
#include <thrust/scan.h>
#include <thrust/sort.h>
#include <thrust/transform.h>

constexpr int SEG = 16;  // each thread owns in[t*SEG, t*SEG+SEG)

struct Square {
    __host__ __device__ int operator()(int x) const { return x * x - 3; }
};

struct Negative {
    __host__ __device__ bool operator()(int x) const { return x < 0; }
};

extern "C" __global__ void thrust_seq_sort(int* data, int n) {
    int t = blockIdx.x * blockDim.x + threadIdx.x;
    if ((t + 1) * SEG <= n) thrust::sort(thrust::seq, data + t * SEG, data + (t + 1) * SEG);
}

extern "C" __global__ void thrust_seq_sort_by_key(unsigned* keys, int* vals, int n) {
    int t = blockIdx.x * blockDim.x + threadIdx.x;
    if ((t + 1) * SEG <= n)
        thrust::stable_sort_by_key(thrust::seq, keys + t * SEG, keys + (t + 1) * SEG, vals + t * SEG,
                                   thrust::greater<unsigned>());
}

extern "C" __global__ void thrust_seq_reduce(const int* in, int* out, int n) {
    int t = blockIdx.x * blockDim.x + threadIdx.x;
    if ((t + 1) * SEG <= n) {
        out[2 * t] = thrust::reduce(thrust::seq, in + t * SEG, in + (t + 1) * SEG);
        out[2 * t + 1] =
            thrust::reduce(thrust::seq, in + t * SEG, in + (t + 1) * SEG, -1000000, thrust::maximum<int>());
    }
}

extern "C" __global__ void thrust_seq_transform(const int* in, int* out, int n) {
    int t = blockIdx.x * blockDim.x + threadIdx.x;
    if ((t + 1) * SEG <= n) thrust::transform(thrust::seq, in + t * SEG, in + (t + 1) * SEG, out + t * SEG, Square());
}

extern "C" __global__ void thrust_seq_inclusive_scan(const int* in, int* incl, int* excl, int n) {
    int t = blockIdx.x * blockDim.x + threadIdx.x;
    if ((t + 1) * SEG <= n) {
        thrust::inclusive_scan(thrust::seq, in + t * SEG, in + (t + 1) * SEG, incl + t * SEG);
        thrust::exclusive_scan(thrust::seq, in + t * SEG, in + (t + 1) * SEG, excl + t * SEG, 100);
    }
}

// Index of the first occurrence of `key` in the segment (SEG when absent) and
// the number of negative elements.
extern "C" __global__ void thrust_seq_find_count(const int* in, int* pos, int* negatives, int key, int n) {
    int t = blockIdx.x * blockDim.x + threadIdx.x;
    if ((t + 1) * SEG <= n) {
        const int* b = in + t * SEG;
        pos[t] = static_cast<int>(thrust::find(thrust::seq, b, b + SEG, key) - b);
        negatives[t] = static_cast<int>(thrust::count_if(thrust::seq, b, b + SEG, Negative()));
    }
}

// Host side: never run by ori; its kernels only need to import and compile.
int thrust_host_transform_reduce(const int* host_in, int n) {
    thrust::device_vector<int> v(host_in, host_in + n);
    thrust::device_vector<int> w(n);
    thrust::transform(v.begin(), v.end(), w.begin(), Square());
    return thrust::reduce(w.begin(), w.end(), 0, thrust::plus<int>());
}
