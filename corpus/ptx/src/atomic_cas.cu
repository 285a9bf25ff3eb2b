// Theme: atomicCAS retry loops (atom.cas.b32 / .b64) building atomics the
// hardware lacks.
__device__ float atomic_max_float(float* addr, float v)
{
    int* ia = reinterpret_cast<int*>(addr);
    int old = *reinterpret_cast<volatile int*>(ia), assumed;  // volatile: a strong (relaxed.sys) read
    do {
        assumed = old;
        if (__int_as_float(assumed) >= v) break;
        old = atomicCAS(ia, assumed, __float_as_int(v));
    } while (old != assumed);
    return __int_as_float(old);
}

__device__ unsigned long long atomic_mul_u64(unsigned long long* addr, unsigned long long m)
{
    unsigned long long old = *reinterpret_cast<volatile unsigned long long*>(addr), assumed;
    do {
        assumed = old;
        old = atomicCAS(addr, assumed, assumed * m);
    } while (old != assumed);
    return old;
}

extern "C" __global__ void cas_loops(const float* in, float* fmax, unsigned long long* prod)
{
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    atomic_max_float(fmax, in[i]);
    atomic_mul_u64(prod, (unsigned long long)(i % 3 + 1));
}
