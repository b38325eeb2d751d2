// Bit tricks, min/max/abs and selects.
extern "C" __global__ void bit_tricks32(const unsigned* a, const unsigned* b, unsigned* out, int n)
{
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    if (i >= n) {
        return;
    }
    unsigned x = a[i];
    unsigned y = b[i];
    unsigned s = y >> 27;
    unsigned sel = (y * 0x9E3779B9u) & 0x7777u;
    unsigned* o = out + 8 * i;
    o[0] = __popc(x);
    o[1] = __clz(x);
    o[2] = __brev(x);
    o[3] = __byte_perm(x, y, sel);
    o[4] = __funnelshift_l(x, y, s);
    o[5] = __funnelshift_r(x, y, s);
    o[6] = __ffs(x);
    o[7] = (x << (y & 31)) | (x >> ((32 - (y & 31)) & 31));
}

extern "C" __global__ void bit_tricks64(const unsigned long long* a, unsigned long long* out, int n)
{
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    if (i >= n) {
        return;
    }
    unsigned long long x = a[i];
    unsigned long long* o = out + 4 * i;
    o[0] = __popcll(x);
    o[1] = __clzll(x);
    o[2] = __brevll(x);
    o[3] = (unsigned long long)__ffsll(x) + (x >> (x & 63));
}

extern "C" __global__ void minmax_select(const int* a, const int* b, int* out, int n)
{
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    if (i >= n) {
        return;
    }
    int x = a[i];
    int y = b[i];
    int* o = out + 6 * i;
    o[0] = min(x, y);
    o[1] = max(x, y);
    o[2] = abs(x);
    o[3] = (int)umin((unsigned)x, (unsigned)y);
    o[4] = x > y ? (int)((unsigned)x - (unsigned)y) : (int)((unsigned)y * 3u);
    o[5] = min(max(x, -1000), 1000);
}
