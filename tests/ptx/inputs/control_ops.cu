// Kernels for tests/ptx/lower/test_warp_ops.py: trap, exit in a device
// function and programmatic dependent launch.
// nvcc -ptx -O3 -std=c++17 -lineinfo -arch=sm_80 control_ops.cu -o control_ops.ptx
// nvcc -ptx -O3 -std=c++17 -lineinfo -arch=sm_90 control_ops.cu -o control_ops_sm90.ptx
// (pdl_k only for sm_90: griddepcontrol needs it)
extern "C" __global__ void trap_k(const int* in, int* out) {
  int t = blockIdx.x * blockDim.x + threadIdx.x;
  if (in[t] < 0) __trap();
  out[t] = in[t] * 2;
}
__device__ __noinline__ void maybe_exit(int v, int* out, int t) {
  if (v == 7) asm volatile("exit;");
  out[t] = v + 1;
}
extern "C" __global__ void exit_k(const int* in, int* out) {
  int t = blockIdx.x * blockDim.x + threadIdx.x;
  maybe_exit(in[t], out, t);
  out[t] += 10;
}
#if __CUDA_ARCH__ >= 900
extern "C" __global__ void pdl_k(const int* in, int* out) {
  cudaGridDependencySynchronize();
  int t = blockIdx.x * blockDim.x + threadIdx.x;
  out[t] = in[t] + 1;
  cudaTriggerProgrammaticLaunchCompletion();
}
#endif
