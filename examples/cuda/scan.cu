// Block-local prefix sums.

// Hillis-Steele inclusive scan of each 256-element segment (block size 256),
// double-buffered in static shared memory.
extern "C" __global__ void scan_hillis_steele(const int* in, int* out, int n)
{
    __shared__ int buf[2][256];
    int t = threadIdx.x;
    int g = blockIdx.x * 256 + t;
    int src = 0;
    buf[0][t] = g < n ? in[g] : 0;
    __syncthreads();
    for (int off = 1; off < 256; off <<= 1) {
        int v = buf[src][t];
        if (t >= off) {
            v += buf[src][t - off];
        }
        buf[src ^ 1][t] = v;
        src ^= 1;
        __syncthreads();
    }
    if (g < n) {
        out[g] = buf[src][t];
    }
}

// Blelloch (work-efficient) exclusive scan; each block of T threads scans 2*T
// elements held in dynamic shared memory (shared_bytes = 2*T*4).
extern "C" __global__ void scan_blelloch(const unsigned* in, unsigned* out)
{
    extern __shared__ unsigned tmp[];
    unsigned t = threadIdx.x;
    unsigned nelem = 2 * blockDim.x;
    const unsigned* src = in + blockIdx.x * nelem;
    unsigned* dst = out + blockIdx.x * nelem;
    tmp[2 * t] = src[2 * t];
    tmp[2 * t + 1] = src[2 * t + 1];
    unsigned off = 1;
    for (unsigned d = nelem >> 1; d > 0; d >>= 1) {
        __syncthreads();
        if (t < d) {
            unsigned ai = off * (2 * t + 1) - 1;
            unsigned bi = off * (2 * t + 2) - 1;
            tmp[bi] += tmp[ai];
        }
        off <<= 1;
    }
    if (t == 0) {
        tmp[nelem - 1] = 0;
    }
    for (unsigned d = 1; d < nelem; d <<= 1) {
        off >>= 1;
        __syncthreads();
        if (t < d) {
            unsigned ai = off * (2 * t + 1) - 1;
            unsigned bi = off * (2 * t + 2) - 1;
            unsigned x = tmp[ai];
            tmp[ai] = tmp[bi];
            tmp[bi] += x;
        }
    }
    __syncthreads();
    dst[2 * t] = tmp[2 * t];
    dst[2 * t + 1] = tmp[2 * t + 1];
}
