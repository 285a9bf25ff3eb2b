// Theme: bit-field extract/insert idioms (bfe/bfi or shift-and-mask),
// __fns, 16-bit and 8-bit lane tricks.
extern "C" __global__ void bitfield(const unsigned* in, unsigned* out, int n)
{
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    if (i >= n) return;
    unsigned x = in[i];
    unsigned pos = (unsigned)i % 24u, len = (unsigned)i % 9u + 1u;
    unsigned field = (x >> pos) & ((1u << len) - 1u);
    int sfield = ((int)(x << (32u - pos - len))) >> (32u - len);
    unsigned ins = (x & ~(((1u << len) - 1u) << pos)) | ((0x2Au & ((1u << len) - 1u)) << pos);
    out[5 * i + 0] = field;
    out[5 * i + 1] = (unsigned)sfield;
    out[5 * i + 2] = ins;
    out[5 * i + 3] = __fns(x, 0, 3);
    out[5 * i + 4] = (x & 0xff00ff00u) >> 8 | (x & 0x00ff00ffu) << 8;
}
