__constant__ int ctab[8] = {1, 2, 3, 5, 8, 13, 21, 34};
__constant__ double cd = 3.25;
__device__ float gtab[3] = {0.5f, -1.0f, 2.0f};
__device__ unsigned long long gbig = 0x123456789abcdefull;
__device__ short gs[2][3] = {{1,2,3},{4,5,6}};
__global__ void consts(float *o, int i) {
  o[threadIdx.x] = ctab[i & 7] * gtab[i % 3] + cd + (float)gbig + gs[1][i % 3];
}
