// Instantiated graphs (CUDA Driver API reference, "Graph Management"):
// instantiation fixes a topological order of the nodes (ties broken by
// creation order); a launch runs the steps in that order on the launch
// stream, synchronously, so a graph run is one of the orders the
// dependencies allow, as a stream run is. Graphs and their nodes:
// graph.cpp.
#include <algorithm>

#include "cuda/shim/graph_impl.hpp"

using namespace shim;
using namespace shim::graphs;

namespace shim::graphs {

// The nodes of g in a topological order, ties in creation order; false on a
// cycle.
bool topological(CUgraph g, std::vector<CUgraphNode>& order) {
  order.clear();
  std::vector<bool> done(g->nodes.size(), false);
  auto index = [&](CUgraphNode n) { return size_t(std::find(g->nodes.begin(), g->nodes.end(), n) - g->nodes.begin()); };
  while (order.size() < g->nodes.size()) {
    bool progress = false;
    for (size_t i = 0; i < g->nodes.size(); ++i) {
      if (done[i]) continue;
      bool ready = std::all_of(g->nodes[i]->deps.begin(), g->nodes[i]->deps.end(),
                               [&](CUgraphNode d) { return done[index(d)]; });
      if (!ready) continue;
      done[i] = true;
      order.push_back(g->nodes[i]);
      progress = true;
      break;
    }
    if (!progress) return false;
  }
  return true;
}

CUresult instantiate(State& s, CUgraph g, std::shared_ptr<CUgraphExec_st>& out, CUgraphNode* err_node, bool body) {
  std::vector<CUgraphNode> order;
  if (!topological(g, order)) return CUDA_ERROR_INVALID_VALUE;  // a cycle (CUDA_GRAPH_INSTANTIATE_INVALID_STRUCTURE)
  auto x = std::make_shared<CUgraphExec_st>();
  x->ctx = g->ctx;
  x->graph = g;
  for (CUgraphNode n : order) {
    CUgraphExec_st::Step step{n, n->work, nullptr, {}, 0, {}};
    if (body && !body_node_ok(n->work.type)) {  // inside a conditional node's body
      if (err_node && !*err_node) *err_node = n;
      return CUDA_ERROR_INVALID_VALUE;
    }
    CUresult r = CUDA_SUCCESS;
    if (n->work.type == CU_GRAPH_NODE_TYPE_GRAPH) r = instantiate(s, n->work.child, step.child, err_node, body);
    if (!r) r = instantiate_bodies(s, n, step, err_node);
    if (r) {
      if (err_node && !*err_node) *err_node = n;
      return r;
    }
    step.created = size_t(std::find(g->nodes.begin(), g->nodes.end(), n) - g->nodes.begin());
    for (CUgraphNode d : n->deps)
      for (size_t i = 0; i < x->order.size(); ++i)
        if (x->order[i].node == d) step.deps.push_back(i);
    x->order.push_back(std::move(step));
  }
  out = std::move(x);
  return CUDA_SUCCESS;
}

CUresult run(const CUgraphExec_st& x, CUstream st) {
  NoDefer whole;  // a kernel node that spins reports its livelock (streams.cpp)
  for (const auto& step : x.order) {
    const Work& w = step.work;
    CUresult r = CUDA_SUCCESS;
    switch (w.type) {
      case CU_GRAPH_NODE_TYPE_KERNEL: r = launch_buffer(w.func, w.cfg, st, w.params); break;
      case CU_GRAPH_NODE_TYPE_MEMCPY: r = cuMemcpy3DAsync_v2(&w.copy, st); break;
      case CU_GRAPH_NODE_TYPE_MEMSET: {
        const auto& m = w.memset;
        size_t pitch = m.height > 1 ? m.pitch : m.width * m.elementSize;
        if (m.elementSize == 1)
          r = cuMemsetD2D8Async(m.dst, pitch, uint8_t(m.value), m.width, m.height, st);
        else if (m.elementSize == 2)
          r = cuMemsetD2D16Async(m.dst, pitch, uint16_t(m.value), m.width, m.height, st);
        else
          r = cuMemsetD2D32Async(m.dst, pitch, m.value, m.width, m.height, st);
        break;
      }
      case CU_GRAPH_NODE_TYPE_HOST:
        if (w.fn)
          w.fn(w.user);
        else {
          CUresult status = CUDA_SUCCESS;
          {
            State& s = state();
            std::lock_guard lk(s.mu);
            status = w.ctx->sticky;
          }
          w.callback(st, status, w.user);
        }
        break;
      case CU_GRAPH_NODE_TYPE_GRAPH: r = run(*step.child, st); break;
      case CU_GRAPH_NODE_TYPE_CONDITIONAL: r = run_conditional(step, st); break;
      case CU_GRAPH_NODE_TYPE_EVENT_RECORD: r = cuEventRecord(w.event, st); break;
      case CU_GRAPH_NODE_TYPE_MEM_ALLOC: {
        State& s = state();
        std::lock_guard lk(s.mu);
        r = graph_alloc_now(s, w.alloc.dptr);
        break;
      }
      case CU_GRAPH_NODE_TYPE_MEM_FREE: {  // of an allocation that a launch holds (else the free is undefined)
        State& s = state();
        std::lock_guard lk(s.mu);
        r = graph_free_now(s, w.free_ptr) ? CUDA_SUCCESS : CUDA_ERROR_INVALID_VALUE;
        break;
      }
      default: break;  // empty nodes; an event wait has nothing to wait for (work is synchronous)
    }
    if (r) return r;
  }
  return CUDA_SUCCESS;
}

CUresult launch_exec(CUgraphExec x, CUstream st) {
  CUgraphExec_st copy;
  {
    Entry e;
    if (e.r) return e.r;
    if (!is_live(e.s, x, Kind::GraphExec)) return CUDA_ERROR_INVALID_VALUE;
    if (!valid_stream(e.s, st, e.c)) return CUDA_ERROR_INVALID_HANDLE;
    if (x->ctx != e.c) return CUDA_ERROR_INVALID_CONTEXT;
    if (capturing(st)) {  // launching a graph into a capture adds it as a child graph node
      if (has_mem_nodes(x->graph)) return CUDA_ERROR_INVALID_VALUE;  // it cannot be a child graph
      Work w;
      w.type = CU_GRAPH_NODE_TYPE_GRAPH;
      w.ctx = e.c;
      w.child = clone_graph(e.s, x->graph);
      return capture_work(e.s, st, std::move(w));
    }
    // An allocation of the last launch still unfreed: the launch fails, or
    // (auto free on launch) the allocation is freed first.
    for (const auto& step : x->order)
      if (step.work.type == CU_GRAPH_NODE_TYPE_MEM_ALLOC) {
        auto it = e.s.graph_allocs.find(step.work.alloc.dptr);
        if (it == e.s.graph_allocs.end() || !it->second.live) continue;
        if (!(x->flags & CUDA_GRAPH_INSTANTIATE_FLAG_AUTO_FREE_ON_LAUNCH)) return CUDA_ERROR_INVALID_VALUE;
        graph_free_now(e.s, step.work.alloc.dptr);
      }
    // The steps as they are now: cuGraphExec*NodeSetParams may change the
    // instance while it runs without the lock.
    copy = *x;
    assign_defaults(e.s, copy);
    // Deferred work the launch waits for runs first (streams.cpp): a graph
    // runs as a whole.
    settle(e.s, e.c, st);
    if (e.c->sticky) return e.c->sticky;
  }
  return run(copy, st);
}

CUresult instantiate_entry(CUgraphExec* out, CUgraph g, CUgraphNode* err_node, CUgraphInstantiateResult* result,
                           cuuint64_t flags = 0) {
  Entry e;
  if (e.r) return e.r;
  if (!out || !live(e.s, g)) return CUDA_ERROR_INVALID_VALUE;
  if ((flags & CUDA_GRAPH_INSTANTIATE_FLAG_AUTO_FREE_ON_LAUNCH) && (flags & CUDA_GRAPH_INSTANTIATE_FLAG_DEVICE_LAUNCH))
    return CUDA_ERROR_INVALID_VALUE;
  if (has_mem_nodes(g))  // only one instance at a time
    for (const auto& [h, k] : e.s.live)
      if (k == Kind::GraphExec && static_cast<const CUgraphExec_st*>(h)->graph == g) {
        if (result) *result = CUDA_GRAPH_INSTANTIATE_ERROR;
        return CUDA_ERROR_INVALID_VALUE;
      }
  std::shared_ptr<CUgraphExec_st> x;
  if (err_node) *err_node = nullptr;
  CUresult r = instantiate(e.s, g, x, err_node);
  if (result) *result = r ? CUDA_GRAPH_INSTANTIATE_INVALID_STRUCTURE : CUDA_GRAPH_INSTANTIATE_SUCCESS;
  if (r) return r;
  x->flags = flags;
  e.s.handles.push_back(x);
  e.s.live[x.get()] = Kind::GraphExec;
  *out = x.get();
  return CUDA_SUCCESS;
}

// The step of an instantiated graph that instantiates node n.
CUgraphExec_st::Step* step_of(CUgraphExec x, CUgraphNode n) {
  for (auto& st : x->order)
    if (st.node == n) return &st;
  return nullptr;
}

template <class F>
CUresult exec_set(CUgraphExec x, CUgraphNode n, CUgraphNodeType type, F make) {
  Entry e;
  if (e.r) return e.r;
  if (!is_live(e.s, x, Kind::GraphExec) || !live(e.s, n) || n->work.type != type) return CUDA_ERROR_INVALID_VALUE;
  CUgraphExec_st::Step* step = step_of(x, n);
  if (!step) return CUDA_ERROR_INVALID_VALUE;
  Work w;
  if (CUresult r = make(e.s, e.c, w)) return r;
  if (type == CU_GRAPH_NODE_TYPE_KERNEL && w.func->k != step->work.func->k) return CUDA_ERROR_INVALID_VALUE;
  step->work = std::move(w);
  return CUDA_SUCCESS;
}

}  // namespace shim::graphs

// ---- instantiated graphs --------------------------------------------------------------------

#undef cuGraphInstantiate
SHIM_API CUresult cuGraphInstantiate(CUgraphExec* out, CUgraph g, CUgraphNode* err_node, char* log, size_t log_size) {
  if (log && log_size) log[0] = '\0';
  return instantiate_entry(out, g, err_node, nullptr);
}
SHIM_API CUresult cuGraphInstantiate_v2(CUgraphExec* out, CUgraph g, CUgraphNode* err_node, char* log,
                                        size_t log_size) {
  return cuGraphInstantiate(out, g, err_node, log, log_size);
}
// Flags: auto free on launch (above); upload, device launch and node
// priorities change nothing the interpreter can observe; unknown bits are
// refused.
SHIM_API CUresult cuGraphInstantiateWithFlags(CUgraphExec* out, CUgraph g, unsigned long long flags) {
  if (flags & ~0xfull) return CUDA_ERROR_INVALID_VALUE;
  return instantiate_entry(out, g, nullptr, nullptr, flags);
}
SHIM_API CUresult cuGraphInstantiateWithParams(CUgraphExec* out, CUgraph g, CUDA_GRAPH_INSTANTIATE_PARAMS* p) {
  if (!p || (p->flags & ~0xfull)) return CUDA_ERROR_INVALID_VALUE;
  p->hErrNode_out = nullptr;
  return instantiate_entry(out, g, &p->hErrNode_out, &p->result_out, p->flags);
}
SHIM_API CUresult cuGraphInstantiateWithParams_ptsz(CUgraphExec* out, CUgraph g, CUDA_GRAPH_INSTANTIATE_PARAMS* p) {
  return cuGraphInstantiateWithParams(out, g, p);
}

SHIM_API CUresult cuGraphExecDestroy(CUgraphExec x) {
  Entry e;
  if (e.r) return e.r;
  if (!is_live(e.s, x, Kind::GraphExec)) return CUDA_ERROR_INVALID_VALUE;
  e.s.live.erase(x);
  return CUDA_SUCCESS;
}

SHIM_API CUresult cuGraphExecGetFlags(CUgraphExec x, cuuint64_t* flags) {
  Entry e;
  if (e.r) return e.r;
  if (!flags || !is_live(e.s, x, Kind::GraphExec)) return CUDA_ERROR_INVALID_VALUE;
  *flags = x->flags;
  return CUDA_SUCCESS;
}

SHIM_API CUresult cuGraphLaunch(CUgraphExec x, CUstream st) { return launch_exec(x, st); }
SHIM_API CUresult cuGraphLaunch_ptsz(CUgraphExec x, CUstream st) { return launch_exec(x, st); }

// Uploading prepares device resources: nothing to do beyond the checks.
SHIM_API CUresult cuGraphUpload(CUgraphExec x, CUstream st) {
  Entry e;
  if (e.r) return e.r;
  if (!is_live(e.s, x, Kind::GraphExec)) return CUDA_ERROR_INVALID_VALUE;
  return valid_stream(e.s, st, e.c) ? CUDA_SUCCESS : CUDA_ERROR_INVALID_HANDLE;
}
SHIM_API CUresult cuGraphUpload_ptsz(CUgraphExec x, CUstream st) { return cuGraphUpload(x, st); }

#undef cuGraphExecKernelNodeSetParams
SHIM_API CUresult cuGraphExecKernelNodeSetParams(CUgraphExec x, CUgraphNode n, const KernelNodeParamsV1* p) {
  if (!p) return CUDA_ERROR_INVALID_VALUE;
  return exec_set(x, n, CU_GRAPH_NODE_TYPE_KERNEL,
                  [&](State& s, CUcontext c, Work& w) { return kernel_work(s, c, p->func, *p, w); });
}
SHIM_API CUresult cuGraphExecKernelNodeSetParams_v2(CUgraphExec x, CUgraphNode n, const CUDA_KERNEL_NODE_PARAMS* p) {
  return exec_set(x, n, CU_GRAPH_NODE_TYPE_KERNEL,
                  [&](State& s, CUcontext c, Work& w) { return kernel_work_v2(s, c, p, w); });
}
SHIM_API CUresult cuGraphExecMemcpyNodeSetParams(CUgraphExec x, CUgraphNode n, const CUDA_MEMCPY3D* p, CUcontext) {
  if (!p) return CUDA_ERROR_INVALID_VALUE;
  return exec_set(x, n, CU_GRAPH_NODE_TYPE_MEMCPY, [&](State&, CUcontext c, Work& w) {
    w.type = CU_GRAPH_NODE_TYPE_MEMCPY;
    w.ctx = c;
    w.copy = *p;
    return CUDA_SUCCESS;
  });
}
SHIM_API CUresult cuGraphExecMemsetNodeSetParams(CUgraphExec x, CUgraphNode n, const CUDA_MEMSET_NODE_PARAMS* p,
                                                 CUcontext) {
  if (memset_check(p)) return CUDA_ERROR_INVALID_VALUE;
  return exec_set(x, n, CU_GRAPH_NODE_TYPE_MEMSET, [&](State&, CUcontext c, Work& w) {
    w.type = CU_GRAPH_NODE_TYPE_MEMSET;
    w.ctx = c;
    w.memset = *p;
    return CUDA_SUCCESS;
  });
}
SHIM_API CUresult cuGraphExecHostNodeSetParams(CUgraphExec x, CUgraphNode n, const CUDA_HOST_NODE_PARAMS* p) {
  if (!p || !p->fn) return CUDA_ERROR_INVALID_VALUE;
  return exec_set(x, n, CU_GRAPH_NODE_TYPE_HOST, [&](State&, CUcontext c, Work& w) {
    w.type = CU_GRAPH_NODE_TYPE_HOST;
    w.ctx = c;
    w.fn = p->fn;
    w.user = p->userData;
    return CUDA_SUCCESS;
  });
}
