// Theme: recursive device functions (needs a call stack: the .func is
// called from itself).
__device__ __noinline__ int fib(int n)
{
    return n < 2 ? n : fib(n - 1) + fib(n - 2);
}

__device__ __noinline__ unsigned long long fact(unsigned n)
{
    return n <= 1 ? 1ull : n * fact(n - 1);
}

extern "C" __global__ void recursion(const int* in, int* fibs, unsigned long long* facts, int n)
{
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    if (i >= n) return;
    fibs[i] = fib(in[i]);
    facts[i] = fact((unsigned)in[i] + 5u);
}
