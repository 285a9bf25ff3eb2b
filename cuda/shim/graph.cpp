// CUDA graphs and stream capture (CUDA Driver API reference, "Graph
// Management" and "Stream Management"; CUDA C++ Programming Guide, "CUDA
// Graphs").
//
// A graph is a set of nodes, each the work of one stream operation (a kernel
// launch, a copy, a memset, a host function, an event record or wait, a child
// graph) with the nodes it depends on. Instantiating and launching:
// graph_exec.cpp.
//
// Memory nodes (CUDA C++ Programming Guide, "Graph Memory Nodes"): an
// allocation node's address is fixed when the node is made (reserved, not
// backed: Session::reserve) and backed while a launch holds the allocation,
// from the allocation node until a free node, cuMemFreeAsync or cuMemFree;
// before and after that an access is an out-of-bounds diagnostic. A graph with
// memory nodes cannot be cloned, used as a child graph, lose nodes or edges,
// or be instantiated twice at once, and its instance cannot be relaunched
// while an allocation of its last launch is unfreed, unless instantiated with
// CUDA_GRAPH_INSTANTIATE_FLAG_AUTO_FREE_ON_LAUNCH (which frees it first).
//
// Stream capture records work into a graph: graph_capture.cpp.
#include <algorithm>
#include <cstdio>
#include <cstring>
#include <string>

#include "cuda/shim/graph_impl.hpp"

using namespace shim;
using namespace shim::graphs;

// The graph files' internal helpers (graph_impl.hpp declares the shared ones).
namespace shim::graphs {

CUresult dep_list(State& s, CUgraph g, const CUgraphNode* deps, size_t n, std::vector<CUgraphNode>& out) {
  if (n && !deps) return CUDA_ERROR_INVALID_VALUE;
  out.clear();
  for (size_t i = 0; i < n; ++i) {
    if (!live(s, deps[i]) || deps[i]->graph != g) return CUDA_ERROR_INVALID_VALUE;
    if (std::find(out.begin(), out.end(), deps[i]) != out.end()) return CUDA_ERROR_INVALID_VALUE;
    out.push_back(deps[i]);
  }
  return CUDA_SUCCESS;
}

CUgraphNode new_node(State& s, CUgraph g, Work w, std::vector<CUgraphNode> deps) {
  auto* node = make_handle<CUgraphNode_st>(s, Kind::GraphNode);
  node->graph = g;
  node->work = std::move(w);
  node->deps = std::move(deps);
  g->nodes.push_back(node);
  return node;
}

CUresult add_node(State& s, CUgraphNode* out, CUgraph g, const CUgraphNode* deps, size_t n, Work w) {
  if (!out || !live(s, g)) return CUDA_ERROR_INVALID_VALUE;
  std::vector<CUgraphNode> d;
  if (CUresult r = dep_list(s, g, deps, n, d)) return r;
  *out = new_node(s, g, std::move(w), std::move(d));
  return CUDA_SUCCESS;
}

CUgraph new_graph(State& s, CUcontext c) {
  auto* g = make_handle<CUgraph_st>(s, Kind::Graph);
  g->ctx = c;
  return g;
}

CUgraph clone_graph(State& s, CUgraph g) {
  CUgraph copy = new_graph(s, g->ctx);
  copy->cloned_from = g;
  std::vector<std::pair<CUgraphNode, CUgraphNode>> map;
  for (CUgraphNode n : g->nodes) {
    Work w = n->work;
    if (w.type == CU_GRAPH_NODE_TYPE_GRAPH) w.child = clone_graph(s, w.child);
    for (CUgraph& b : w.bodies) b = clone_graph(s, b);  // a conditional node's (same handle)
    std::vector<CUgraphNode> deps;
    for (CUgraphNode d : n->deps)
      for (auto& [from, to] : map)
        if (from == d) deps.push_back(to);
    CUgraphNode c = new_node(s, copy, std::move(w), std::move(deps));
    c->cloned_from = n;
    map.emplace_back(n, c);
  }
  return copy;
}

void destroy_graph(State& s, CUgraph g) {
  for (CUgraphNode n : g->nodes) {
    if (n->work.type == CU_GRAPH_NODE_TYPE_GRAPH) destroy_graph(s, n->work.child);
    for (CUgraph b : n->work.bodies) destroy_graph(s, b);
    s.live.erase(n);
  }
  g->nodes.clear();
  free_cond_handles(s, g);
  s.live.erase(g);
}

bool is_mem_node(CUgraphNode n) {
  return n->work.type == CU_GRAPH_NODE_TYPE_MEM_ALLOC || n->work.type == CU_GRAPH_NODE_TYPE_MEM_FREE;
}
bool has_mem_nodes(CUgraph g) { return std::any_of(g->nodes.begin(), g->nodes.end(), is_mem_node); }

CUresult kernel_work(State& s, CUcontext c, CUfunction f, const KernelNodeParamsV1& p, Work& w) {
  if (!f) return CUDA_ERROR_INVALID_VALUE;
  if (CUresult r = resolve_function(s, f)) return r;
  w.type = CU_GRAPH_NODE_TYPE_KERNEL;
  w.ctx = c;
  w.func = f;
  w.cfg.grid = {p.gridDimX, p.gridDimY, p.gridDimZ};
  w.cfg.block = {p.blockDimX, p.blockDimY, p.blockDimZ};
  w.cfg.dynamic_shared_bytes = p.sharedMemBytes;
  return check_launch(s, c, f, w.cfg, p.kernelParams, p.extra, w.params);
}

KernelNodeParamsV1 v1_of(const CUDA_KERNEL_NODE_PARAMS& p) {
  return {p.func,      p.gridDimX,  p.gridDimY,       p.gridDimZ,     p.blockDimX,
          p.blockDimY, p.blockDimZ, p.sharedMemBytes, p.kernelParams, p.extra};
}

// The function a v2 kernel node names: func, else the kernel in ctx (or the
// current context).
CUresult kernel_work_v2(State& s, CUcontext c, const CUDA_KERNEL_NODE_PARAMS* p, Work& w) {
  if (!p) return CUDA_ERROR_INVALID_VALUE;
  if (!p->func && p->ctx && p->ctx != c) return CUDA_ERROR_INVALID_CONTEXT;
  CUfunction f = p->func ? p->func : reinterpret_cast<CUfunction>(p->kern);
  return kernel_work(s, c, f, v1_of(*p), w);
}

void kernel_params_out(CUgraphNode n, KernelNodeParamsV1& p) {
  const Work& w = n->work;
  n->param_ptrs.clear();
  for (const auto& kp : w.func->k->prog.kparams)
    n->param_ptrs.push_back(const_cast<uint8_t*>(w.params.data()) + kp.offset);
  p.func = w.func;
  p.gridDimX = w.cfg.grid[0];
  p.gridDimY = w.cfg.grid[1];
  p.gridDimZ = w.cfg.grid[2];
  p.blockDimX = w.cfg.block[0];
  p.blockDimY = w.cfg.block[1];
  p.blockDimZ = w.cfg.block[2];
  p.sharedMemBytes = w.cfg.dynamic_shared_bytes;
  p.kernelParams = n->param_ptrs.data();
  p.extra = nullptr;
}

CUresult memset_check(const CUDA_MEMSET_NODE_PARAMS* p) {
  if (!p || (p->elementSize != 1 && p->elementSize != 2 && p->elementSize != 4) || !p->width || !p->height)
    return CUDA_ERROR_INVALID_VALUE;
  return CUDA_SUCCESS;
}

// Copies the node list `v` to (nodes, *num): the count when nodes is null,
// else up to *num entries (the rest null) and the number obtained.
CUresult list_out(const std::vector<CUgraphNode>& v, CUgraphNode* nodes, size_t* num) {
  if (!num) return CUDA_ERROR_INVALID_VALUE;
  if (!nodes) {
    *num = v.size();
    return CUDA_SUCCESS;
  }
  size_t k = std::min(*num, v.size());
  for (size_t i = 0; i < *num; ++i) nodes[i] = i < k ? v[i] : nullptr;
  *num = k;
  return CUDA_SUCCESS;
}

void zero_edges(CUgraphEdgeData* data, size_t n) {
  if (data) std::memset(data, 0, n * sizeof(CUgraphEdgeData));
}

// Only the default edge (full completion) is supported.
bool default_edges(const CUgraphEdgeData* data, size_t n) {
  for (size_t i = 0; data && i < n; ++i)
    if (data[i].from_port || data[i].to_port || data[i].type) return false;
  return true;
}

CUresult edges(State& s, CUgraph g, CUgraphNode* from, CUgraphNode* to, CUgraphEdgeData* data, size_t* num) {
  if (!live(s, g) || !num) return CUDA_ERROR_INVALID_VALUE;
  std::vector<std::pair<CUgraphNode, CUgraphNode>> e;
  for (CUgraphNode n : g->nodes)
    for (CUgraphNode d : n->deps) e.emplace_back(d, n);
  if (!from && !to) {
    *num = e.size();
    return CUDA_SUCCESS;
  }
  if (!from || !to) return CUDA_ERROR_INVALID_VALUE;
  size_t k = std::min(*num, e.size());
  for (size_t i = 0; i < *num; ++i) {
    from[i] = i < k ? e[i].first : nullptr;
    to[i] = i < k ? e[i].second : nullptr;
  }
  zero_edges(data, *num);
  *num = k;
  return CUDA_SUCCESS;
}

CUresult change_deps(State& s, CUgraph g, const CUgraphNode* from, const CUgraphNode* to, size_t n, bool add) {
  if (!live(s, g) || (n && (!from || !to))) return CUDA_ERROR_INVALID_VALUE;
  if (!add && has_mem_nodes(g)) return CUDA_ERROR_INVALID_VALUE;  // edges of such a graph stay
  for (size_t i = 0; i < n; ++i) {
    if (!live(s, from[i]) || !live(s, to[i]) || from[i]->graph != g || to[i]->graph != g || from[i] == to[i])
      return CUDA_ERROR_INVALID_VALUE;
    auto& d = to[i]->deps;
    auto it = std::find(d.begin(), d.end(), from[i]);
    if (add == (it != d.end())) return CUDA_ERROR_INVALID_VALUE;  // an existing edge added, a missing one removed
  }
  for (size_t i = 0; i < n; ++i) {
    auto& d = to[i]->deps;
    if (add)
      d.push_back(from[i]);
    else
      d.erase(std::find(d.begin(), d.end(), from[i]));
  }
  return CUDA_SUCCESS;
}

CUresult node_deps(State& s, CUgraphNode n, CUgraphNode* out, CUgraphEdgeData* data, size_t* num, bool dependents) {
  if (!live(s, n)) return CUDA_ERROR_INVALID_VALUE;
  std::vector<CUgraphNode> v;
  if (dependents) {
    for (CUgraphNode m : n->graph->nodes)
      if (std::find(m->deps.begin(), m->deps.end(), n) != m->deps.end()) v.push_back(m);
  } else {
    v = n->deps;
  }
  if (out && num) zero_edges(data, *num);
  return list_out(v, out, num);
}

// Adds to `acc` the nodes `from` and every node they depend on.
void ancestors(const std::vector<CUgraphNode>& from, std::vector<CUgraphNode>& acc) {
  std::vector<CUgraphNode> todo = from;
  while (!todo.empty()) {
    CUgraphNode n = todo.back();
    todo.pop_back();
    if (std::find(acc.begin(), acc.end(), n) != acc.end()) continue;
    acc.push_back(n);
    todo.insert(todo.end(), n->deps.begin(), n->deps.end());
  }
}

}  // namespace shim::graphs

// ---- graphs ---------------------------------------------------------------------------------

SHIM_API CUresult cuGraphCreate(CUgraph* ph, unsigned int flags) {
  Entry e;
  if (e.r) return e.r;
  if (!ph || flags) return CUDA_ERROR_INVALID_VALUE;
  *ph = new_graph(e.s, e.c);
  return CUDA_SUCCESS;
}

SHIM_API CUresult cuGraphDestroy(CUgraph g) {
  Entry e;
  if (e.r) return e.r;
  if (!live(e.s, g)) return CUDA_ERROR_INVALID_VALUE;
  destroy_graph(e.s, g);
  return CUDA_SUCCESS;
}

SHIM_API CUresult cuGraphClone(CUgraph* out, CUgraph g) {
  Entry e;
  if (e.r) return e.r;
  if (!out || !live(e.s, g) || has_mem_nodes(g)) return CUDA_ERROR_INVALID_VALUE;
  *out = clone_graph(e.s, g);
  return CUDA_SUCCESS;
}

SHIM_API CUresult cuGraphNodeFindInClone(CUgraphNode* out, CUgraphNode original, CUgraph clone) {
  Entry e;
  if (e.r) return e.r;
  if (!out || !live(e.s, clone) || !live(e.s, original) || clone->cloned_from != original->graph)
    return CUDA_ERROR_INVALID_VALUE;
  for (CUgraphNode n : clone->nodes)
    if (n->cloned_from == original) {
      *out = n;
      return CUDA_SUCCESS;
    }
  return CUDA_ERROR_INVALID_VALUE;
}

#undef cuGraphAddKernelNode
SHIM_API CUresult cuGraphAddKernelNode(CUgraphNode* out, CUgraph g, const CUgraphNode* deps, size_t n,
                                       const KernelNodeParamsV1* p) {
  Entry e;
  if (e.r) return e.r;
  if (!p) return CUDA_ERROR_INVALID_VALUE;
  Work w;
  if (CUresult r = kernel_work(e.s, e.c, p->func, *p, w)) return r;
  return add_node(e.s, out, g, deps, n, std::move(w));
}

SHIM_API CUresult cuGraphAddKernelNode_v2(CUgraphNode* out, CUgraph g, const CUgraphNode* deps, size_t n,
                                          const CUDA_KERNEL_NODE_PARAMS* p) {
  Entry e;
  if (e.r) return e.r;
  Work w;
  if (CUresult r = kernel_work_v2(e.s, e.c, p, w)) return r;
  return add_node(e.s, out, g, deps, n, std::move(w));
}

SHIM_API CUresult cuGraphAddMemcpyNode(CUgraphNode* out, CUgraph g, const CUgraphNode* deps, size_t n,
                                       const CUDA_MEMCPY3D* p, CUcontext ctx) {
  Entry e;
  if (e.r) return e.r;
  if (!p || (ctx && ctx != e.c)) return CUDA_ERROR_INVALID_VALUE;
  Work w;
  w.type = CU_GRAPH_NODE_TYPE_MEMCPY;
  w.ctx = e.c;
  w.copy = *p;
  return add_node(e.s, out, g, deps, n, std::move(w));
}

SHIM_API CUresult cuGraphAddMemsetNode(CUgraphNode* out, CUgraph g, const CUgraphNode* deps, size_t n,
                                       const CUDA_MEMSET_NODE_PARAMS* p, CUcontext ctx) {
  Entry e;
  if (e.r) return e.r;
  if (memset_check(p) || (ctx && ctx != e.c)) return CUDA_ERROR_INVALID_VALUE;
  Work w;
  w.type = CU_GRAPH_NODE_TYPE_MEMSET;
  w.ctx = e.c;
  w.memset = *p;
  return add_node(e.s, out, g, deps, n, std::move(w));
}

SHIM_API CUresult cuGraphAddHostNode(CUgraphNode* out, CUgraph g, const CUgraphNode* deps, size_t n,
                                     const CUDA_HOST_NODE_PARAMS* p) {
  Entry e;
  if (e.r) return e.r;
  if (!p || !p->fn) return CUDA_ERROR_INVALID_VALUE;
  Work w;
  w.type = CU_GRAPH_NODE_TYPE_HOST;
  w.ctx = e.c;
  w.fn = p->fn;
  w.user = p->userData;
  return add_node(e.s, out, g, deps, n, std::move(w));
}

SHIM_API CUresult cuGraphAddEmptyNode(CUgraphNode* out, CUgraph g, const CUgraphNode* deps, size_t n) {
  Entry e;
  if (e.r) return e.r;
  Work w;
  w.ctx = e.c;
  return add_node(e.s, out, g, deps, n, std::move(w));
}

// The child graph is cloned into the node (Driver API: cuGraphAddChildGraphNode).
SHIM_API CUresult cuGraphAddChildGraphNode(CUgraphNode* out, CUgraph g, const CUgraphNode* deps, size_t n,
                                           CUgraph child) {
  Entry e;
  if (e.r) return e.r;
  if (!live(e.s, child) || child == g || has_mem_nodes(child)) return CUDA_ERROR_INVALID_VALUE;
  std::vector<CUgraphNode> d;
  if (!out || !live(e.s, g)) return CUDA_ERROR_INVALID_VALUE;
  if (CUresult r = dep_list(e.s, g, deps, n, d)) return r;
  Work w;
  w.type = CU_GRAPH_NODE_TYPE_GRAPH;
  w.ctx = e.c;
  w.child = clone_graph(e.s, child);
  *out = new_node(e.s, g, std::move(w), std::move(d));
  return CUDA_SUCCESS;
}

SHIM_API CUresult cuGraphAddEventRecordNode(CUgraphNode* out, CUgraph g, const CUgraphNode* deps, size_t n,
                                            CUevent ev) {
  Entry e;
  if (e.r) return e.r;
  if (!is_live(e.s, ev, Kind::Event)) return CUDA_ERROR_INVALID_VALUE;
  Work w;
  w.type = CU_GRAPH_NODE_TYPE_EVENT_RECORD;
  w.ctx = e.c;
  w.event = ev;
  return add_node(e.s, out, g, deps, n, std::move(w));
}

SHIM_API CUresult cuGraphAddEventWaitNode(CUgraphNode* out, CUgraph g, const CUgraphNode* deps, size_t n, CUevent ev) {
  Entry e;
  if (e.r) return e.r;
  if (!is_live(e.s, ev, Kind::Event)) return CUDA_ERROR_INVALID_VALUE;
  Work w;
  w.type = CU_GRAPH_NODE_TYPE_WAIT_EVENT;
  w.ctx = e.c;
  w.event = ev;
  return add_node(e.s, out, g, deps, n, std::move(w));
}

SHIM_API CUresult cuGraphDestroyNode(CUgraphNode n) {
  Entry e;
  if (e.r) return e.r;
  if (!live(e.s, n) || has_mem_nodes(n->graph)) return CUDA_ERROR_INVALID_VALUE;
  CUgraph g = n->graph;
  for (CUgraphNode m : g->nodes) m->deps.erase(std::remove(m->deps.begin(), m->deps.end(), n), m->deps.end());
  g->nodes.erase(std::find(g->nodes.begin(), g->nodes.end(), n));
  if (n->work.type == CU_GRAPH_NODE_TYPE_GRAPH) destroy_graph(e.s, n->work.child);
  e.s.live.erase(n);
  return CUDA_SUCCESS;
}

SHIM_API CUresult cuGraphNodeGetType(CUgraphNode n, CUgraphNodeType* type) {
  Entry e;
  if (e.r) return e.r;
  if (!type || !live(e.s, n)) return CUDA_ERROR_INVALID_VALUE;
  *type = n->work.type;
  return CUDA_SUCCESS;
}

SHIM_API CUresult cuGraphGetNodes(CUgraph g, CUgraphNode* nodes, size_t* num) {
  Entry e;
  if (e.r) return e.r;
  if (!live(e.s, g)) return CUDA_ERROR_INVALID_VALUE;
  return list_out(g->nodes, nodes, num);
}

SHIM_API CUresult cuGraphGetRootNodes(CUgraph g, CUgraphNode* nodes, size_t* num) {
  Entry e;
  if (e.r) return e.r;
  if (!live(e.s, g)) return CUDA_ERROR_INVALID_VALUE;
  std::vector<CUgraphNode> roots;
  for (CUgraphNode n : g->nodes)
    if (n->deps.empty()) roots.push_back(n);
  return list_out(roots, nodes, num);
}

#undef cuGraphGetEdges
SHIM_API CUresult cuGraphGetEdges(CUgraph g, CUgraphNode* from, CUgraphNode* to, size_t* num) {
  Entry e;
  if (e.r) return e.r;
  return edges(e.s, g, from, to, nullptr, num);
}
SHIM_API CUresult cuGraphGetEdges_v2(CUgraph g, CUgraphNode* from, CUgraphNode* to, CUgraphEdgeData* data,
                                     size_t* num) {
  Entry e;
  if (e.r) return e.r;
  return edges(e.s, g, from, to, data, num);
}

#undef cuGraphNodeGetDependencies
SHIM_API CUresult cuGraphNodeGetDependencies(CUgraphNode n, CUgraphNode* deps, size_t* num) {
  Entry e;
  if (e.r) return e.r;
  return node_deps(e.s, n, deps, nullptr, num, false);
}
SHIM_API CUresult cuGraphNodeGetDependencies_v2(CUgraphNode n, CUgraphNode* deps, CUgraphEdgeData* data, size_t* num) {
  Entry e;
  if (e.r) return e.r;
  return node_deps(e.s, n, deps, data, num, false);
}

#undef cuGraphNodeGetDependentNodes
SHIM_API CUresult cuGraphNodeGetDependentNodes(CUgraphNode n, CUgraphNode* deps, size_t* num) {
  Entry e;
  if (e.r) return e.r;
  return node_deps(e.s, n, deps, nullptr, num, true);
}
SHIM_API CUresult cuGraphNodeGetDependentNodes_v2(CUgraphNode n, CUgraphNode* deps, CUgraphEdgeData* data,
                                                  size_t* num) {
  Entry e;
  if (e.r) return e.r;
  return node_deps(e.s, n, deps, data, num, true);
}

#undef cuGraphAddDependencies
SHIM_API CUresult cuGraphAddDependencies(CUgraph g, const CUgraphNode* from, const CUgraphNode* to, size_t n) {
  Entry e;
  if (e.r) return e.r;
  return change_deps(e.s, g, from, to, n, true);
}
SHIM_API CUresult cuGraphAddDependencies_v2(CUgraph g, const CUgraphNode* from, const CUgraphNode* to,
                                            const CUgraphEdgeData* data, size_t n) {
  Entry e;
  if (e.r) return e.r;
  if (!default_edges(data, n)) return CUDA_ERROR_INVALID_VALUE;
  return change_deps(e.s, g, from, to, n, true);
}

#undef cuGraphRemoveDependencies
SHIM_API CUresult cuGraphRemoveDependencies(CUgraph g, const CUgraphNode* from, const CUgraphNode* to, size_t n) {
  Entry e;
  if (e.r) return e.r;
  return change_deps(e.s, g, from, to, n, false);
}
SHIM_API CUresult cuGraphRemoveDependencies_v2(CUgraph g, const CUgraphNode* from, const CUgraphNode* to,
                                               const CUgraphEdgeData* data, size_t n) {
  Entry e;
  if (e.r) return e.r;
  if (!default_edges(data, n)) return CUDA_ERROR_INVALID_VALUE;
  return change_deps(e.s, g, from, to, n, false);
}

// ---- nodes of any type (conditional nodes: graph_cond.cpp) ------------------------------

namespace {

// A child graph node that takes `child` itself (ownership moved: the
// caller's handle now names the node's graph, destroyed with it).
CUresult add_moved_child(CUgraphNode* out, CUgraph g, const CUgraphNode* deps, size_t n, CUgraph child) {
  Entry e;
  if (e.r) return e.r;
  if (!out || !live(e.s, g) || !live(e.s, child) || child == g || has_mem_nodes(child)) return CUDA_ERROR_INVALID_VALUE;
  std::vector<CUgraphNode> d;
  if (CUresult r = dep_list(e.s, g, deps, n, d)) return r;
  Work w;
  w.type = CU_GRAPH_NODE_TYPE_GRAPH;
  w.ctx = e.c;
  w.child = child;
  *out = new_node(e.s, g, std::move(w), std::move(d));
  return CUDA_SUCCESS;
}

}  // namespace

// Each type through its own entry point; external semaphores and batch
// memory operations are not provided (CUDA_ERROR_NOT_SUPPORTED).
SHIM_API CUresult cuGraphAddNode_v2(CUgraphNode* out, CUgraph g, const CUgraphNode* deps, const CUgraphEdgeData* data,
                                    size_t n, CUgraphNodeParams* p) {
  if (!p || !default_edges(data, n)) return CUDA_ERROR_INVALID_VALUE;
  switch (p->type) {
    case CU_GRAPH_NODE_TYPE_KERNEL: return cuGraphAddKernelNode_v2(out, g, deps, n, &p->kernel);
    case CU_GRAPH_NODE_TYPE_MEMCPY:
      if (p->memcpy.flags) return CUDA_ERROR_INVALID_VALUE;
      return cuGraphAddMemcpyNode(out, g, deps, n, &p->memcpy.copyParams, p->memcpy.copyCtx);
    case CU_GRAPH_NODE_TYPE_MEMSET: {
      const auto& m = p->memset;
      CUDA_MEMSET_NODE_PARAMS v1{m.dst, m.pitch, m.value, m.elementSize, m.width, m.height};
      return cuGraphAddMemsetNode(out, g, deps, n, &v1, m.ctx);
    }
    case CU_GRAPH_NODE_TYPE_HOST: return cuGraphAddHostNode(out, g, deps, n, &p->host);
    case CU_GRAPH_NODE_TYPE_GRAPH:
      if (p->graph.ownership == CU_GRAPH_CHILD_GRAPH_OWNERSHIP_CLONE)
        return cuGraphAddChildGraphNode(out, g, deps, n, p->graph.graph);
      if (p->graph.ownership != CU_GRAPH_CHILD_GRAPH_OWNERSHIP_MOVE) return CUDA_ERROR_INVALID_VALUE;
      return add_moved_child(out, g, deps, n, p->graph.graph);
    case CU_GRAPH_NODE_TYPE_EMPTY: return cuGraphAddEmptyNode(out, g, deps, n);
    case CU_GRAPH_NODE_TYPE_WAIT_EVENT: return cuGraphAddEventWaitNode(out, g, deps, n, p->eventWait.event);
    case CU_GRAPH_NODE_TYPE_EVENT_RECORD: return cuGraphAddEventRecordNode(out, g, deps, n, p->eventRecord.event);
    case CU_GRAPH_NODE_TYPE_MEM_ALLOC: return cuGraphAddMemAllocNode(out, g, deps, n, &p->alloc);
    case CU_GRAPH_NODE_TYPE_MEM_FREE: return cuGraphAddMemFreeNode(out, g, deps, n, p->free.dptr);
    case CU_GRAPH_NODE_TYPE_CONDITIONAL: return add_conditional(out, g, deps, n, p->conditional);
    default:
      return p->type == 8 || p->type == 9 || p->type == CU_GRAPH_NODE_TYPE_BATCH_MEM_OP ? CUDA_ERROR_NOT_SUPPORTED
                                                                                        : CUDA_ERROR_INVALID_VALUE;
  }
}

#undef cuGraphAddNode
SHIM_API CUresult cuGraphAddNode(CUgraphNode* out, CUgraph g, const CUgraphNode* deps, size_t n, CUgraphNodeParams* p) {
  return cuGraphAddNode_v2(out, g, deps, nullptr, n, p);
}

// ---- node parameters ------------------------------------------------------------------------

#undef cuGraphKernelNodeGetParams
SHIM_API CUresult cuGraphKernelNodeGetParams(CUgraphNode n, KernelNodeParamsV1* p) {
  if (!p) return CUDA_ERROR_INVALID_VALUE;
  return with_node(n, CU_GRAPH_NODE_TYPE_KERNEL, [&](State&, CUgraphNode m) {
    kernel_params_out(m, *p);
    return CUDA_SUCCESS;
  });
}
SHIM_API CUresult cuGraphKernelNodeGetParams_v2(CUgraphNode n, CUDA_KERNEL_NODE_PARAMS* p) {
  if (!p) return CUDA_ERROR_INVALID_VALUE;
  return with_node(n, CU_GRAPH_NODE_TYPE_KERNEL, [&](State&, CUgraphNode m) {
    KernelNodeParamsV1 v1{};
    kernel_params_out(m, v1);
    std::memset(p, 0, sizeof *p);
    std::memcpy(p, &v1, sizeof v1);
    p->ctx = m->work.ctx;
    return CUDA_SUCCESS;
  });
}

#undef cuGraphKernelNodeSetParams
SHIM_API CUresult cuGraphKernelNodeSetParams(CUgraphNode n, const KernelNodeParamsV1* p) {
  if (!p) return CUDA_ERROR_INVALID_VALUE;
  return with_node(n, CU_GRAPH_NODE_TYPE_KERNEL, [&](State& s, CUgraphNode m) {
    Work w;
    if (CUresult r = kernel_work(s, m->work.ctx, p->func, *p, w)) return r;
    m->work = std::move(w);
    return CUDA_SUCCESS;
  });
}
SHIM_API CUresult cuGraphKernelNodeSetParams_v2(CUgraphNode n, const CUDA_KERNEL_NODE_PARAMS* p) {
  return with_node(n, CU_GRAPH_NODE_TYPE_KERNEL, [&](State& s, CUgraphNode m) {
    Work w;
    if (CUresult r = kernel_work_v2(s, m->work.ctx, p, w)) return r;
    m->work = std::move(w);
    return CUDA_SUCCESS;
  });
}

SHIM_API CUresult cuGraphMemcpyNodeGetParams(CUgraphNode n, CUDA_MEMCPY3D* p) {
  if (!p) return CUDA_ERROR_INVALID_VALUE;
  return with_node(n, CU_GRAPH_NODE_TYPE_MEMCPY, [&](State&, CUgraphNode m) {
    *p = m->work.copy;
    return CUDA_SUCCESS;
  });
}
SHIM_API CUresult cuGraphMemcpyNodeSetParams(CUgraphNode n, const CUDA_MEMCPY3D* p) {
  if (!p) return CUDA_ERROR_INVALID_VALUE;
  return with_node(n, CU_GRAPH_NODE_TYPE_MEMCPY, [&](State&, CUgraphNode m) {
    m->work.copy = *p;
    return CUDA_SUCCESS;
  });
}

SHIM_API CUresult cuGraphMemsetNodeGetParams(CUgraphNode n, CUDA_MEMSET_NODE_PARAMS* p) {
  if (!p) return CUDA_ERROR_INVALID_VALUE;
  return with_node(n, CU_GRAPH_NODE_TYPE_MEMSET, [&](State&, CUgraphNode m) {
    *p = m->work.memset;
    return CUDA_SUCCESS;
  });
}
SHIM_API CUresult cuGraphMemsetNodeSetParams(CUgraphNode n, const CUDA_MEMSET_NODE_PARAMS* p) {
  if (memset_check(p)) return CUDA_ERROR_INVALID_VALUE;
  return with_node(n, CU_GRAPH_NODE_TYPE_MEMSET, [&](State&, CUgraphNode m) {
    m->work.memset = *p;
    return CUDA_SUCCESS;
  });
}

SHIM_API CUresult cuGraphHostNodeGetParams(CUgraphNode n, CUDA_HOST_NODE_PARAMS* p) {
  if (!p) return CUDA_ERROR_INVALID_VALUE;
  return with_node(n, CU_GRAPH_NODE_TYPE_HOST, [&](State&, CUgraphNode m) {
    if (!m->work.fn) return CUDA_ERROR_INVALID_VALUE;  // a captured stream callback has no CUhostFn
    *p = {m->work.fn, m->work.user};
    return CUDA_SUCCESS;
  });
}
SHIM_API CUresult cuGraphHostNodeSetParams(CUgraphNode n, const CUDA_HOST_NODE_PARAMS* p) {
  if (!p || !p->fn) return CUDA_ERROR_INVALID_VALUE;
  return with_node(n, CU_GRAPH_NODE_TYPE_HOST, [&](State&, CUgraphNode m) {
    m->work.fn = p->fn;
    m->work.callback = nullptr;
    m->work.user = p->userData;
    return CUDA_SUCCESS;
  });
}

SHIM_API CUresult cuGraphChildGraphNodeGetGraph(CUgraphNode n, CUgraph* out) {
  if (!out) return CUDA_ERROR_INVALID_VALUE;
  return with_node(n, CU_GRAPH_NODE_TYPE_GRAPH, [&](State&, CUgraphNode m) {
    *out = m->work.child;
    return CUDA_SUCCESS;
  });
}

SHIM_API CUresult cuGraphEventRecordNodeGetEvent(CUgraphNode n, CUevent* out) {
  if (!out) return CUDA_ERROR_INVALID_VALUE;
  return with_node(n, CU_GRAPH_NODE_TYPE_EVENT_RECORD, [&](State&, CUgraphNode m) {
    *out = m->work.event;
    return CUDA_SUCCESS;
  });
}
SHIM_API CUresult cuGraphEventWaitNodeGetEvent(CUgraphNode n, CUevent* out) {
  if (!out) return CUDA_ERROR_INVALID_VALUE;
  return with_node(n, CU_GRAPH_NODE_TYPE_WAIT_EVENT, [&](State&, CUgraphNode m) {
    *out = m->work.event;
    return CUDA_SUCCESS;
  });
}
