// Theme: 32-bit integer intrinsics: popc, clz, brev, ffs, byte_perm (prmt),
// funnel shifts (shf), dp4a/dp2a, sad, hadd, mulhi, mul24.
extern "C" __global__ void int_intrinsics(const unsigned* a, const unsigned* b, const unsigned* c,
                                          unsigned* out, int n)
{
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    if (i >= n) return;
    unsigned x = a[i], y = b[i], z = c[i];
    unsigned* o = out + 16 * i;
    o[0] = __popc(x);
    o[1] = __clz((int)x);
    o[2] = __brev(x);
    o[3] = __ffs((int)y);
    o[4] = __byte_perm(x, y, z & 0x7777u);
    o[5] = __byte_perm(x, y, 0x5140u);
    o[6] = __funnelshift_l(x, y, z);
    o[7] = __funnelshift_lc(x, y, z & 63u);
    o[8] = __funnelshift_r(x, y, z);
    o[9] = (unsigned)__dp4a((int)x, (int)y, (int)z);
    o[10] = __dp4a(x, y, z);
    o[11] = (unsigned)__dp2a_lo((int)x, (int)y, (int)z);
    o[12] = __usad(x, y, z);
    o[13] = __uhadd(x, y) ^ __urhadd(x, z);
    o[14] = __umulhi(x, y) + (unsigned)__mulhi((int)x, (int)z);
    o[15] = (unsigned)__mul24((int)x, (int)y) + __umul24(y, z);
}
