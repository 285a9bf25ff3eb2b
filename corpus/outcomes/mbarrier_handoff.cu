// A handoff between two warps of one CTA through an mbarrier object whose
// phase expects one arrival: thread 0 writes, then arrives
// (mbarrier.arrive, .release.cta by default); the CTA's last thread waits
// for phase 0 to complete (mbarrier.test_wait.parity, .acquire.cta by
// default) and reads.
__device__ __forceinline__ void mbar_init(unsigned bar, unsigned count)
{
    asm volatile("mbarrier.init.shared.b64 [%0], %1;" ::"r"(bar), "r"(count) : "memory");
}
__device__ __forceinline__ void mbar_arrive(unsigned bar)
{
    asm volatile("{\n\t.reg .b64 state;\n\tmbarrier.arrive.shared.b64 state, [%0];\n\t}" ::"r"(bar) : "memory");
}
__device__ __forceinline__ bool mbar_test_wait_parity(unsigned bar, unsigned parity)
{
    unsigned done;
    asm volatile("{\n\t.reg .pred p;\n\tmbarrier.test_wait.parity.shared.b64 p, [%1], %2;\n\tselp.u32 %0, 1, 0, p;\n\t}"
                 : "=r"(done) : "r"(bar), "r"(parity) : "memory");
    return done != 0;
}

extern "C" __global__ void mbarrier_handoff(int* data, int* out)
{
    __shared__ unsigned long long mbar;
    unsigned bar = (unsigned)__cvta_generic_to_shared(&mbar);
    if (threadIdx.x == 0) mbar_init(bar, 1);
    __syncthreads();
    if (threadIdx.x == 0) {
        *data = 42;
        mbar_arrive(bar);
    } else if (threadIdx.x == blockDim.x - 1) {
        while (!mbar_test_wait_parity(bar, 0)) { }
        *out = *data;
    }
}
