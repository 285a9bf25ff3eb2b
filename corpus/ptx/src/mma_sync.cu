// Theme: mma.sync through inline PTX (PTX ISA 9.7.14.5.14). One warp per
// kernel; every lane builds its A, B and C fragments from memory with the
// layout formulas of the ISA's fragment figures (9.7.14.5.x) and stores its D
// fragment the same way, so the outputs are plain matrices.
#include <stdint.h>

__device__ __forceinline__ uint32_t pack2(uint16_t lo, uint16_t hi) { return lo | (uint32_t(hi) << 16); }
__device__ __forceinline__ uint32_t load4(const int8_t* p) { return *reinterpret_cast<const uint32_t*>(p); }

// D(16x8 f32) = A(16x16 f16, row-major) * B(16x8 f16, column-major: b[n*16+k]) + C(16x8 f32, row-major)
extern "C" __global__ void mma_f16_f32(const uint16_t* a, const uint16_t* b, const float* c, float* d)
{
    unsigned lane = threadIdx.x % 32, g = lane >> 2, t = lane & 3;
    uint32_t A[4], B[2];
    float C[4], D[4];
    for (int r = 0; r < 4; ++r) {  // a_{2r}, a_{2r+1}: row g (+8 for odd r), columns 2t (+8 for r >= 2)
        unsigned row = g + 8 * (r & 1), col = 2 * t + 8 * (r >> 1);
        A[r] = pack2(a[row * 16 + col], a[row * 16 + col + 1]);
    }
    for (int r = 0; r < 2; ++r) {  // b_{2r}, b_{2r+1}: rows 2t+8r, 2t+8r+1 of column g
        unsigned k = 2 * t + 8 * r;
        B[r] = pack2(b[g * 16 + k], b[g * 16 + k + 1]);
    }
    for (int i = 0; i < 4; ++i) C[i] = c[(g + 8 * (i >> 1)) * 8 + 2 * t + (i & 1)];
    asm volatile("mma.sync.aligned.m16n8k16.row.col.f32.f16.f16.f32 {%0,%1,%2,%3}, {%4,%5,%6,%7}, {%8,%9}, {%10,%11,%12,%13};"
                 : "=f"(D[0]), "=f"(D[1]), "=f"(D[2]), "=f"(D[3])
                 : "r"(A[0]), "r"(A[1]), "r"(A[2]), "r"(A[3]), "r"(B[0]), "r"(B[1]),
                   "f"(C[0]), "f"(C[1]), "f"(C[2]), "f"(C[3]));
    for (int i = 0; i < 4; ++i) d[(g + 8 * (i >> 1)) * 8 + 2 * t + (i & 1)] = D[i];
}

// The same product with an f16 accumulator: C and D are two .f16x2 registers.
extern "C" __global__ void mma_f16_f16(const uint16_t* a, const uint16_t* b, const uint16_t* c, uint16_t* d)
{
    unsigned lane = threadIdx.x % 32, g = lane >> 2, t = lane & 3;
    uint32_t A[4], B[2], C[2], D[2];
    for (int r = 0; r < 4; ++r) {
        unsigned row = g + 8 * (r & 1), col = 2 * t + 8 * (r >> 1);
        A[r] = pack2(a[row * 16 + col], a[row * 16 + col + 1]);
    }
    for (int r = 0; r < 2; ++r) {
        unsigned k = 2 * t + 8 * r;
        B[r] = pack2(b[g * 16 + k], b[g * 16 + k + 1]);
    }
    for (int r = 0; r < 2; ++r) C[r] = pack2(c[(g + 8 * r) * 8 + 2 * t], c[(g + 8 * r) * 8 + 2 * t + 1]);
    asm volatile("mma.sync.aligned.m16n8k16.row.col.f16.f16.f16.f16 {%0,%1}, {%2,%3,%4,%5}, {%6,%7}, {%8,%9};"
                 : "=r"(D[0]), "=r"(D[1])
                 : "r"(A[0]), "r"(A[1]), "r"(A[2]), "r"(A[3]), "r"(B[0]), "r"(B[1]), "r"(C[0]), "r"(C[1]));
    for (int r = 0; r < 2; ++r) {
        d[(g + 8 * r) * 8 + 2 * t] = uint16_t(D[r]);
        d[(g + 8 * r) * 8 + 2 * t + 1] = uint16_t(D[r] >> 16);
    }
}

// D(16x8 s32) = A(16x32 s8, row-major) * B(32x8 s8, column-major) + C, clamped (.satfinite).
extern "C" __global__ void mma_s8_satfinite(const int8_t* a, const int8_t* b, const int* c, int* d)
{
    unsigned lane = threadIdx.x % 32, g = lane >> 2, t = lane & 3;
    uint32_t A[4], B[2];
    int C[4], D[4];
    for (int r = 0; r < 4; ++r)  // a_{4r..4r+3}: row g (+8 for odd r), columns 4t.. (+16 for r >= 2)
        A[r] = load4(a + (g + 8 * (r & 1)) * 32 + 4 * t + 16 * (r >> 1));
    for (int r = 0; r < 2; ++r) B[r] = load4(b + g * 32 + 4 * t + 16 * r);
    for (int i = 0; i < 4; ++i) C[i] = c[(g + 8 * (i >> 1)) * 8 + 2 * t + (i & 1)];
    asm volatile("mma.sync.aligned.m16n8k32.row.col.satfinite.s32.s8.s8.s32 {%0,%1,%2,%3}, {%4,%5,%6,%7}, {%8,%9}, {%10,%11,%12,%13};"
                 : "=r"(D[0]), "=r"(D[1]), "=r"(D[2]), "=r"(D[3])
                 : "r"(A[0]), "r"(A[1]), "r"(A[2]), "r"(A[3]), "r"(B[0]), "r"(B[1]),
                   "r"(C[0]), "r"(C[1]), "r"(C[2]), "r"(C[3]));
    for (int i = 0; i < 4; ++i) d[(g + 8 * (i >> 1)) * 8 + 2 * t + (i & 1)] = D[i];
}

// D(16x8 s32) = A(16x16 u8) * B(16x8 s8) + C without .satfinite (wraps modulo 2^32).
extern "C" __global__ void mma_u8s8(const uint8_t* a, const int8_t* b, const int* c, int* d)
{
    unsigned lane = threadIdx.x % 32, g = lane >> 2, t = lane & 3;
    uint32_t A[2], B;
    int C[4], D[4];
    for (int r = 0; r < 2; ++r) A[r] = *reinterpret_cast<const uint32_t*>(a + (g + 8 * r) * 16 + 4 * t);
    B = load4(b + g * 16 + 4 * t);
    for (int i = 0; i < 4; ++i) C[i] = c[(g + 8 * (i >> 1)) * 8 + 2 * t + (i & 1)];
    asm volatile("mma.sync.aligned.m16n8k16.row.col.s32.u8.s8.s32 {%0,%1,%2,%3}, {%4,%5}, {%6}, {%7,%8,%9,%10};"
                 : "=r"(D[0]), "=r"(D[1]), "=r"(D[2]), "=r"(D[3])
                 : "r"(A[0]), "r"(A[1]), "r"(B), "r"(C[0]), "r"(C[1]), "r"(C[2]), "r"(C[3]));
    for (int i = 0; i < 4; ++i) d[(g + 8 * (i >> 1)) * 8 + 2 * t + (i & 1)] = D[i];
}

// D(16x8 f32) = A(16x8) * B(8x8, column-major) + C with tf32 multiplicands
// rounded from f32 by cvt.rna.tf32.f32.
__device__ __forceinline__ uint32_t to_tf32(float x)
{
    uint32_t r;
    asm("cvt.rna.tf32.f32 %0, %1;" : "=r"(r) : "f"(x));
    return r;
}
extern "C" __global__ void mma_tf32(const float* a, const float* b, const float* c, float* d)
{
    unsigned lane = threadIdx.x % 32, g = lane >> 2, t = lane & 3;
    uint32_t A[4], B[2];
    float C[4], D[4];
    for (int r = 0; r < 4; ++r) A[r] = to_tf32(a[(g + 8 * (r & 1)) * 8 + t + 4 * (r >> 1)]);
    for (int r = 0; r < 2; ++r) B[r] = to_tf32(b[g * 8 + t + 4 * r]);
    for (int i = 0; i < 4; ++i) C[i] = c[(g + 8 * (i >> 1)) * 8 + 2 * t + (i & 1)];
    asm volatile("mma.sync.aligned.m16n8k8.row.col.f32.tf32.tf32.f32 {%0,%1,%2,%3}, {%4,%5,%6,%7}, {%8,%9}, {%10,%11,%12,%13};"
                 : "=f"(D[0]), "=f"(D[1]), "=f"(D[2]), "=f"(D[3])
                 : "r"(A[0]), "r"(A[1]), "r"(A[2]), "r"(A[3]), "r"(B[0]), "r"(B[1]),
                   "f"(C[0]), "f"(C[1]), "f"(C[2]), "f"(C[3]));
    for (int i = 0; i < 4; ++i) d[(g + 8 * (i >> 1)) * 8 + 2 * t + (i & 1)] = D[i];
}

// D(8x8 f64) = A(8x4, row-major) * B(4x8, column-major) + C.
extern "C" __global__ void mma_f64(const double* a, const double* b, const double* c, double* d)
{
    unsigned lane = threadIdx.x % 32, g = lane >> 2, t = lane & 3;
    double A = a[g * 4 + t], B = b[g * 4 + t], C0 = c[g * 8 + 2 * t], C1 = c[g * 8 + 2 * t + 1], D0, D1;
    asm volatile("mma.sync.aligned.m8n8k4.row.col.f64.f64.f64.f64 {%0,%1}, {%2}, {%3}, {%4,%5};"
                 : "=d"(D0), "=d"(D1) : "d"(A), "d"(B), "d"(C0), "d"(C1));
    d[g * 8 + 2 * t] = D0;
    d[g * 8 + 2 * t + 1] = D1;
}

// D(16x8 s32) = A(16x64 s4, row-major) * B(64x8 s4, column-major) + C with
// .satfinite; eight nibbles per word, the lowest nibble first.
extern "C" __global__ void mma_s4(const uint32_t* a, const uint32_t* b, const int* c, int* d)
{
    unsigned lane = threadIdx.x % 32, g = lane >> 2, t = lane & 3;
    uint32_t A[4], B[2];
    int C[4], D[4];
    for (int r = 0; r < 4; ++r) A[r] = a[(g + 8 * (r & 1)) * 8 + t + 4 * (r >> 1)];  // columns 8t.. (+32 for r >= 2)
    for (int r = 0; r < 2; ++r) B[r] = b[g * 8 + t + 4 * r];                          // rows 8t.. (+32 for r = 1)
    for (int i = 0; i < 4; ++i) C[i] = c[(g + 8 * (i >> 1)) * 8 + 2 * t + (i & 1)];
    asm volatile("mma.sync.aligned.m16n8k64.row.col.satfinite.s32.s4.s4.s32 {%0,%1,%2,%3}, {%4,%5,%6,%7}, {%8,%9}, {%10,%11,%12,%13};"
                 : "=r"(D[0]), "=r"(D[1]), "=r"(D[2]), "=r"(D[3])
                 : "r"(A[0]), "r"(A[1]), "r"(A[2]), "r"(A[3]), "r"(B[0]), "r"(B[1]),
                   "r"(C[0]), "r"(C[1]), "r"(C[2]), "r"(C[3]));
    for (int i = 0; i < 4; ++i) d[(g + 8 * (i >> 1)) * 8 + 2 * t + (i & 1)] = D[i];
}

// D(16x8 s32) = popc over k of A(16x128 b1, row-major) AND B(128x8 b1,
// column-major), plus C; 32 bits per word, bit 0 first.
extern "C" __global__ void mma_b1(const uint32_t* a, const uint32_t* b, const int* c, int* d)
{
    unsigned lane = threadIdx.x % 32, g = lane >> 2, t = lane & 3;
    uint32_t A0 = a[g * 4 + t], A1 = a[(g + 8) * 4 + t], B = b[g * 4 + t];
    int C[4], D[4];
    for (int i = 0; i < 4; ++i) C[i] = c[(g + 8 * (i >> 1)) * 8 + 2 * t + (i & 1)];
    asm volatile("mma.sync.aligned.m16n8k128.row.col.s32.b1.b1.s32.and.popc {%0,%1,%2,%3}, {%4,%5}, {%6}, {%7,%8,%9,%10};"
                 : "=r"(D[0]), "=r"(D[1]), "=r"(D[2]), "=r"(D[3])
                 : "r"(A0), "r"(A1), "r"(B), "r"(C[0]), "r"(C[1]), "r"(C[2]), "r"(C[3]));
    for (int i = 0; i < 4; ++i) d[(g + 8 * (i >> 1)) * 8 + 2 * t + (i & 1)] = D[i];
}
