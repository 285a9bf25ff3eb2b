// Theme: 64-bit integer arithmetic: mul.lo/mul.hi, div/rem (signed and
// unsigned), shifts, clz/popc/brev on .b64.
extern "C" __global__ void int64_ops(const unsigned long long* a, const unsigned long long* b,
                                     unsigned long long* out, int n)
{
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    if (i >= n) return;
    unsigned long long x = a[i], y = b[i];
    long long sx = (long long)x, sy = (long long)y;
    unsigned long long* o = out + 12 * i;
    o[0] = x * y;
    o[1] = __umul64hi(x, y);
    o[2] = (unsigned long long)__mul64hi(sx, sy);
    o[3] = x / y;
    o[4] = x % y;
    o[5] = (unsigned long long)(sx / sy);
    o[6] = (unsigned long long)(sx % sy);
    o[7] = x << (y & 63);
    o[8] = x >> (y & 63);
    o[9] = (unsigned long long)(sx >> (y & 63));
    o[10] = (unsigned long long)__clzll(sx) | ((unsigned long long)__popcll(x) << 8) |
            ((unsigned long long)__ffsll(sy) << 16);
    o[11] = __brevll(x);
}
