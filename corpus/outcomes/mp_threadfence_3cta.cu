// Message passing from one producer CTA to two consumer CTAs (three CTAs of
// one thread): CTA 0 writes data, __threadfence(), sets a volatile flag;
// CTAs 1 and 2 each spin on the flag, __threadfence(), and copy data to
// out[blockIdx.x]. out[0] is never written.
extern "C" __global__ void mp_threadfence_3cta(int* data, volatile int* flag, int* out)
{
    if (blockIdx.x == 0) {
        *data = 42;
        __threadfence();
        *flag = 1;
    } else {
        while (*flag == 0) { }
        __threadfence();
        out[blockIdx.x] = *data;
    }
}
