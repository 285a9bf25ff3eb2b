// Conditional graph nodes (CUDA Driver API reference, "Graph Management",
// cuGraphConditionalHandleCreate and CUDA_CONDITIONAL_NODE_PARAMS; CUDA C++
// Programming Guide, "Conditional Graph Nodes"): IF (one or two bodies),
// WHILE (one) and SWITCH (one or more). The node owns its body graphs, which
// are instantiated with it; the handle's value, read when the node runs,
// picks the body. The rest of the graph machinery is in graph.cpp.
#include <cstring>
#include <map>

#include "cuda/shim/graph_impl.hpp"

using namespace shim;
using namespace shim::graphs;

namespace {

// Conditional handles (cuGraphConditionalHandleCreate): the handle is the
// device address of its 4-byte value, which a kernel sets through
// cudaGraphSetConditional (a store, memory.cpp load_ptx).
struct CondHandle {
  CUgraph graph = nullptr;  // the graph it was made for; freed with it
  unsigned value = 0;       // defaultLaunchValue
  unsigned flags = 0;       // CU_GRAPH_COND_ASSIGN_DEFAULT
};
std::map<uint64_t, CondHandle>& cond_handles() {
  static auto* m = new std::map<uint64_t, CondHandle>;
  return *m;
}

// A conditional handle's value now (0 when the handle is gone).
unsigned cond_value(CUgraphConditionalHandle h) {
  State& s = state();
  std::lock_guard lk(s.mu);
  unsigned v = 0;
  if (const uint8_t* p = s.session->host_bytes(h, 4)) std::memcpy(&v, p, 4);
  return v;
}

}  // namespace

namespace shim::graphs {

void free_cond_handles(State& s, CUgraph g) {
  auto& h = cond_handles();
  for (auto it = h.begin(); it != h.end();)
    if (it->second.graph == g) {
      s.session->free(it->first);
      it = h.erase(it);
    } else {
      ++it;
    }
}

// Node types a conditional node's body may hold, at any depth (cuda.h,
// CUDA_CONDITIONAL_NODE_PARAMS::phGraph_out).
bool body_node_ok(CUgraphNodeType t) {
  return t == CU_GRAPH_NODE_TYPE_KERNEL || t == CU_GRAPH_NODE_TYPE_EMPTY || t == CU_GRAPH_NODE_TYPE_GRAPH ||
         t == CU_GRAPH_NODE_TYPE_MEMSET || t == CU_GRAPH_NODE_TYPE_MEMCPY || t == CU_GRAPH_NODE_TYPE_CONDITIONAL;
}

CUresult instantiate_bodies(State& s, CUgraphNode n, CUgraphExec_st::Step& step, CUgraphNode* err_node) {
  for (CUgraph b : n->work.bodies) {
    step.bodies.emplace_back();
    if (CUresult r = instantiate(s, b, step.bodies.back(), err_node, true)) return r;
  }
  return CUDA_SUCCESS;
}

// A conditional node: its value picks the body to run (IF, SWITCH) or
// whether to run the body again (WHILE), read after the work before it.
CUresult run_conditional(const CUgraphExec_st::Step& step, CUstream st) {
  const auto& c = step.work.cond;
  switch (c.type) {
    case CU_GRAPH_COND_TYPE_IF: {
      const unsigned v = cond_value(c.handle);
      if (v) return run(*step.bodies[0], st);
      return step.bodies.size() == 2 ? run(*step.bodies[1], st) : CUDA_SUCCESS;
    }
    case CU_GRAPH_COND_TYPE_WHILE:
      while (cond_value(c.handle))
        if (CUresult r = run(*step.bodies[0], st)) return r;
      return CUDA_SUCCESS;
    case CU_GRAPH_COND_TYPE_SWITCH: {
      const unsigned v = cond_value(c.handle);
      return v < step.bodies.size() ? run(*step.bodies[v], st) : CUDA_SUCCESS;
    }
  }
  return CUDA_SUCCESS;
}

// Sets the default value of every CU_GRAPH_COND_ASSIGN_DEFAULT handle that
// the conditional nodes of x (at any depth) use: at the start of each launch.
void assign_defaults(State& s, const CUgraphExec_st& x) {
  for (const auto& step : x.order) {
    if (step.child) assign_defaults(s, *step.child);
    for (const auto& b : step.bodies) assign_defaults(s, *b);
    if (step.work.type != CU_GRAPH_NODE_TYPE_CONDITIONAL) continue;
    auto it = cond_handles().find(step.work.cond.handle);
    if (it == cond_handles().end() || !(it->second.flags & CU_GRAPH_COND_ASSIGN_DEFAULT)) continue;
    if (uint8_t* p = s.session->host_bytes(it->first, 4)) std::memcpy(p, &it->second.value, 4);
  }
}

// A conditional node of g: `size` empty body graphs, owned by the node; the
// handle must have been made for g.
CUresult add_conditional(CUgraphNode* out, CUgraph g, const CUgraphNode* deps, size_t n,
                         CUDA_CONDITIONAL_NODE_PARAMS& p) {
  Entry e;
  if (e.r) return e.r;
  if (!out || !live(e.s, g)) return CUDA_ERROR_INVALID_VALUE;
  if (p.ctx && p.ctx != e.c) return CUDA_ERROR_INVALID_CONTEXT;
  auto h = cond_handles().find(p.handle);
  if (h == cond_handles().end() || h->second.graph != g) return CUDA_ERROR_INVALID_VALUE;
  const bool size_ok = p.type == CU_GRAPH_COND_TYPE_IF       ? p.size == 1 || p.size == 2
                       : p.type == CU_GRAPH_COND_TYPE_WHILE  ? p.size == 1
                       : p.type == CU_GRAPH_COND_TYPE_SWITCH ? p.size >= 1
                                                             : false;
  if (!size_ok) return CUDA_ERROR_INVALID_VALUE;
  std::vector<CUgraphNode> d;
  if (CUresult r = dep_list(e.s, g, deps, n, d)) return r;
  Work w;
  w.type = CU_GRAPH_NODE_TYPE_CONDITIONAL;
  w.ctx = e.c;
  w.cond = p;
  for (unsigned i = 0; i < p.size; ++i) w.bodies.push_back(new_graph(e.s, e.c));
  *out = new_node(e.s, g, std::move(w), std::move(d));
  p.phGraph_out = (*out)->work.bodies.data();
  return CUDA_SUCCESS;
}
}  // namespace shim::graphs

// A 4-byte device value per handle, set to defaultLaunchValue now and (with
// CU_GRAPH_COND_ASSIGN_DEFAULT) at the start of each launch of a graph that
// uses it; kernels set it with cudaGraphSetConditional.
SHIM_API CUresult cuGraphConditionalHandleCreate(CUgraphConditionalHandle* out, CUgraph g, CUcontext ctx,
                                                 unsigned int defaultLaunchValue, unsigned int flags) {
  Entry e;
  if (e.r) return e.r;
  if (!out || !live(e.s, g) || (flags & ~unsigned{CU_GRAPH_COND_ASSIGN_DEFAULT})) return CUDA_ERROR_INVALID_VALUE;
  if (ctx && ctx != e.c) return CUDA_ERROR_INVALID_CONTEXT;
  uint64_t a = 0;
  try {
    a = e.s.session->alloc(4);
  } catch (const ptxcheck::LimitError&) {
    return CUDA_ERROR_OUT_OF_MEMORY;
  }
  std::memcpy(e.s.session->host_bytes(a, 4), &defaultLaunchValue, 4);
  cond_handles()[a] = {g, defaultLaunchValue, flags};
  *out = a;
  return CUDA_SUCCESS;
}
