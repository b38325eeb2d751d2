// Texture-object gathers and samples (issue 14): tex1Dfetch on linear memory,
// tex1D / tex2D with point or linear filtering (the filter, address mode and
// coordinate normalisation are properties of the texture object the host
// passes), tex2D with integer results and tex2Dgather.  The PTX nvcc makes of
// these is tex.1d.v4.f32.s32, tex.1d/2d.v4.f32.f32, tex.2d.v4.s32.f32 and
// tld4.r.2d.v4.f32.f32; ptxas 13.0 prints TLD.LZ, TEX.LL and TLD4.R.

extern "C" __global__ void gather1d(cudaTextureObject_t tex, const int* idx, float* out, int n) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i < n) out[i] = tex1Dfetch<float>(tex, idx[i]);
}

extern "C" __global__ void gather1d_f4(cudaTextureObject_t tex, const int* idx, float4* out,
                                       int n) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i < n) out[i] = tex1Dfetch<float4>(tex, idx[i]);
}

extern "C" __global__ void sample1d(cudaTextureObject_t tex, const float* x, float* out, int n) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i < n) out[i] = tex1D<float>(tex, x[i]);
}

extern "C" __global__ void sample2d(cudaTextureObject_t tex, const float2* xy, float* out,
                                    int n) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i < n) out[i] = tex2D<float>(tex, xy[i].x, xy[i].y);
}

// A 2D gather from two textures: the handle differs per thread.
extern "C" __global__ void sample2d_pick(cudaTextureObject_t a, cudaTextureObject_t b,
                                         const float2* xy, float* out, int n) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i < n) out[i] = tex2D<float>((i & 1) ? b : a, xy[i].x, xy[i].y);
}

extern "C" __global__ void sample2d_int(cudaTextureObject_t tex, const float2* xy, int* out,
                                        int n) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i < n) out[i] = tex2D<int>(tex, xy[i].x, xy[i].y);
}

extern "C" __global__ void gather2d(cudaTextureObject_t tex, const float2* xy, float4* out,
                                    int n) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i < n) out[i] = tex2Dgather<float4>(tex, xy[i].x, xy[i].y, 0);
}

// Bilinear image resize: every output pixel samples the source at its
// centre, scaled (the classic use of tex2D with linear filtering).
extern "C" __global__ void resize2d(cudaTextureObject_t src, float* dst, int w, int h,
                                    float sx, float sy) {
  int x = blockIdx.x * blockDim.x + threadIdx.x;
  int y = blockIdx.y * blockDim.y + threadIdx.y;
  if (x < w && y < h) dst[y * w + x] = tex2D<float>(src, (x + 0.5f) * sx, (y + 0.5f) * sy);
}
