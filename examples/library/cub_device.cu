// CUB device-wide algorithms.  The host function below is never run: it is
// here so that nvcc instantiates the algorithms' kernels (with their policy
// structs and iterator parameters) into the PTX, which ori must import and
// compile.  The kernels are not launched (their parameters are CUB-internal
// structs).
#include <cub/device/device_histogram.cuh>
#include <cub/device/device_radix_sort.cuh>
#include <cub/device/device_reduce.cuh>
#include <cub/device/device_scan.cuh>
#include <cub/device/device_select.cuh>

struct IsOdd {
    __host__ __device__ bool operator()(int x) const { return (x & 1) != 0; }
};

// Returns the first CUDA error (cudaSuccess when every call worked).
cudaError_t run_device_algorithms(const int* d_in, int* d_out, unsigned* d_keys_in,
                                  unsigned* d_keys_out, int* d_hist, int* d_count,
                                  int n, void* d_temp, size_t temp_bytes) {
    cudaError_t err;
    err = cub::DeviceReduce::Sum(d_temp, temp_bytes, d_in, d_out, n);
    if (err != cudaSuccess) return err;
    err = cub::DeviceScan::ExclusiveSum(d_temp, temp_bytes, d_in, d_out, n);
    if (err != cudaSuccess) return err;
    err = cub::DeviceRadixSort::SortKeys(d_temp, temp_bytes, d_keys_in, d_keys_out, n);
    if (err != cudaSuccess) return err;
    err = cub::DeviceSelect::If(d_temp, temp_bytes, d_in, d_out, d_count, n, IsOdd());
    if (err != cudaSuccess) return err;
    return cub::DeviceHistogram::HistogramEven(d_temp, temp_bytes, d_in, d_hist, 17, 0, 256, n);
}
