// Pointer publication with a relaxed 64-bit load: CTA 1 fills a node of a
// pool and publishes its address with a release store; CTA 0 polls the head
// with a relaxed load and reads the node through the pointer it got.
#include <cuda/atomic>
struct Node {
  int a;
  int b;
};
extern "C" __global__ void h9_ptr_publish_relaxed(Node* pool, unsigned long long* head, int* out) {
  if (threadIdx.x != 0) return;
  cuda::atomic_ref<unsigned long long, cuda::thread_scope_device> h(*head);
  if (blockIdx.x == 1) {
    Node* n = pool + 1;
    n->a = 5;
    n->b = 6;
    h.store(reinterpret_cast<unsigned long long>(n), cuda::memory_order_release);
  } else {
    unsigned long long p;
    while ((p = h.load(cuda::memory_order_relaxed)) == 0) {}
    Node* n = reinterpret_cast<Node*>(p);
    out[0] = n->a;
    out[1] = n->b;
  }
}
