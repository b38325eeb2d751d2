__global__ void reduce(const float *in, float *out) {
  __shared__ float buf[512];
  __shared__ double dbuf[32][33];
  int t = threadIdx.x;
  buf[t] = in[blockIdx.x * 512 + t]; dbuf[t & 31][t >> 5] = t;
  __syncthreads();
  for (int s = 256; s > 0; s >>= 1) { if (t < s) buf[t] += buf[t + s]; __syncthreads(); }
  if (t == 0) out[blockIdx.x] = buf[0] + (float)dbuf[1][2];
}
