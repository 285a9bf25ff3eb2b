// Theme: the shared-memory path of tensor-core kernels: tiles staged in
// shared memory, fragments loaded with ldmatrix (.x4 for A, .x2.trans for a
// row-major B; PTX ISA 9.7.14.5.15), mma.sync m16n8k16, and movmatrix
// (9.7.14.5.17) transposing one 8x8 tile between registers.
#include <stdint.h>

extern "C" __global__ void ldmatrix_mma(const uint16_t* a, const uint16_t* b, float* d, uint32_t* at)
{
    __shared__ __align__(16) uint16_t sa[16 * 16];  // A: 16x16 row-major
    __shared__ __align__(16) uint16_t sb[16 * 8];   // B: 16x8 (K x N) row-major
    unsigned lane = threadIdx.x % 32, g = lane >> 2, t = lane & 3;
    for (int i = 0; i < 8; ++i) sa[lane * 8 + i] = a[lane * 8 + i];
    for (int i = 0; i < 4; ++i) sb[lane * 4 + i] = b[lane * 4 + i];
    __syncwarp();
    // Lanes 8j..8j+7 address the rows of matrix j: j = 0 rows 0-7 / cols 0-7,
    // 1 rows 8-15 / cols 0-7, 2 rows 0-7 / cols 8-15, 3 rows 8-15 / cols 8-15,
    // which makes the four registers a0..a3 of the mma A fragment.
    unsigned j = lane / 8, row = lane % 8 + 8 * (j & 1), col = 8 * (j >> 1);
    uint32_t pa = uint32_t(__cvta_generic_to_shared(&sa[row * 16 + col]));
    uint32_t pb = uint32_t(__cvta_generic_to_shared(&sb[(lane % 16) * 8]));
    uint32_t A0, A1, A2, A3, B0, B1, T;
    asm volatile("ldmatrix.sync.aligned.m8n8.x4.shared.b16 {%0,%1,%2,%3}, [%4];"
                 : "=r"(A0), "=r"(A1), "=r"(A2), "=r"(A3) : "r"(pa));
    asm volatile("ldmatrix.sync.aligned.m8n8.x2.trans.shared.b16 {%0,%1}, [%2];" : "=r"(B0), "=r"(B1) : "r"(pb));
    float D0, D1, D2, D3, z = 0.0f;
    asm volatile("mma.sync.aligned.m16n8k16.row.col.f32.f16.f16.f32 {%0,%1,%2,%3}, {%4,%5,%6,%7}, {%8,%9}, {%10,%10,%10,%10};"
                 : "=f"(D0), "=f"(D1), "=f"(D2), "=f"(D3)
                 : "r"(A0), "r"(A1), "r"(A2), "r"(A3), "r"(B0), "r"(B1), "f"(z));
    d[g * 8 + 2 * t] = D0;
    d[g * 8 + 2 * t + 1] = D1;
    d[(g + 8) * 8 + 2 * t] = D2;
    d[(g + 8) * 8 + 2 * t + 1] = D3;
    asm volatile("movmatrix.sync.aligned.m8n8.trans.b16 %0, %1;" : "=r"(T) : "r"(A0));
    at[lane] = T;
}
