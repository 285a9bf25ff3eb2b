// corpus-arch: sm_90
// Theme: stmatrix (PTX ISA 9.7.14.5.16, sm_90): each lane holds row l/4,
// columns 2(l%4) and 2(l%4)+1 of four 8x8 b16 matrices and the warp stores
// them to shared memory, plain (.x4) and transposed (.x2.trans).
#include <stdint.h>

extern "C" __global__ void stmatrix_x4(const uint32_t* in, uint16_t* out, uint16_t* out_t)
{
    __shared__ __align__(16) uint16_t s[4 * 64];
    __shared__ __align__(16) uint16_t st[2 * 64];
    unsigned lane = threadIdx.x % 32;
    uint32_t r0 = in[lane], r1 = in[32 + lane], r2 = in[64 + lane], r3 = in[96 + lane];
    // Lanes 8j..8j+7 give the row addresses of matrix j.
    uint32_t p = uint32_t(__cvta_generic_to_shared(&s[(lane / 8) * 64 + (lane % 8) * 8]));
    uint32_t q = uint32_t(__cvta_generic_to_shared(&st[((lane / 8) % 2) * 64 + (lane % 8) * 8]));
    asm volatile("stmatrix.sync.aligned.m8n8.x4.shared.b16 [%0], {%1,%2,%3,%4};"
                 :: "r"(p), "r"(r0), "r"(r1), "r"(r2), "r"(r3) : "memory");
    asm volatile("stmatrix.sync.aligned.m8n8.x2.trans.shared.b16 [%0], {%1,%2};" :: "r"(q), "r"(r0), "r"(r1) : "memory");
    __syncwarp();
    for (int i = 0; i < 8; ++i) out[lane * 8 + i] = s[lane * 8 + i];
    for (int i = 0; i < 4; ++i) out_t[lane * 4 + i] = st[lane * 4 + i];
}
