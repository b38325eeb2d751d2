// Stencils: 1-D with a shared-memory halo, 2-D 5-point.
#define RADIUS 3
#define BS 128

// out[g] = sum_{k=-3..3} (k+4) * in[g+k], zero outside [0, n). Block size 128.
extern "C" __global__ void stencil1d_r3(const int* in, int* out, int n)
{
    __shared__ int s[BS + 2 * RADIUS];
    int g = blockIdx.x * BS + threadIdx.x;
    int l = threadIdx.x + RADIUS;
    s[l] = g < n ? in[g] : 0;
    if (threadIdx.x < RADIUS) {
        int left = g - RADIUS;
        int right = g + BS;
        s[l - RADIUS] = (left >= 0 && left < n) ? in[left] : 0;
        s[l + BS] = right < n ? in[right] : 0;
    }
    __syncthreads();
    if (g < n) {
        int acc = 0;
        for (int k = -RADIUS; k <= RADIUS; ++k) {
            acc += (k + RADIUS + 1) * s[l + k];
        }
        out[g] = acc;
    }
}

// Jacobi-style 5-point stencil; border cells are copied.
extern "C" __global__ void stencil2d_5pt(const float* in, float* out, int w, int h)
{
    int x = blockIdx.x * blockDim.x + threadIdx.x;
    int y = blockIdx.y * blockDim.y + threadIdx.y;
    if (x >= w || y >= h) {
        return;
    }
    float c = in[y * w + x];
    if (x == 0 || y == 0 || x == w - 1 || y == h - 1) {
        out[y * w + x] = c;
        return;
    }
    float nb = in[(y - 1) * w + x] + in[(y + 1) * w + x] + in[y * w + x - 1] + in[y * w + x + 1];
    out[y * w + x] = 0.5f * c + 0.125f * nb;
}
