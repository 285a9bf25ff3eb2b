// Tickets from a compare-and-swap retry loop (the shape of the CUDA
// programming guide's atomicAdd built on atomicCAS): thread 0 of every CTA
// increments *counter and records the value it incremented from.
extern "C" __global__ void cas_ticket(int* counter, int* out)
{
    if (threadIdx.x != 0) return;
    int old = 0, assumed;
    do {
        assumed = old;
        old = atomicCAS(counter, assumed, assumed + 1);
    } while (old != assumed);
    out[blockIdx.x] = old;
}
