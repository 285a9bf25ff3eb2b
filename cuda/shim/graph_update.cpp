// Updating graphs and instantiated graphs in place (CUDA Driver API
// reference, "Graph Management"; the toolkit's cuda.h documents each entry
// point): cuGraphExecUpdate (whole-graph update), the generic
// cuGraphNodeSetParams / cuGraphExecNodeSetParams (CUgraphNodeParams) and the
// event and child-graph setters they need. The typed setters are in graph.cpp.
//
// cuGraphExecUpdate pairs the nodes of the instance with those of a
// topologically identical graph as the CUDA C++ Programming Guide ("Whole
// Graph Update") describes: sink nodes (nodes nothing depends on) in their
// order, then each paired node's dependencies in edge order. Nodes are kept in
// creation order here, so the sinks are paired in creation order. The checks
// and the result info follow cuda.h's cuGraphExecUpdate: a different node
// count, number of sinks or of dependencies, or a dependency paired twice is
// CU_GRAPH_EXEC_UPDATE_ERROR_TOPOLOGY_CHANGED; a different node type
// ..._NODE_TYPE_CHANGED; a 2D memset whose shape changes, a memcpy whose
// memory types change, or a conditional node whose type, body count or handle
// changes ..._PARAMETERS_CHANGED; a kernel node whose context changes
// ..._UNSUPPORTED_FUNCTION_CHANGE. The update is all or nothing: on any error
// the instance is unchanged and the call returns
// CUDA_ERROR_GRAPH_EXEC_UPDATE_FAILURE. Not updated here (a limit of the
// shim, ..._NOT_SUPPORTED): memory allocation and free nodes.
#include <algorithm>
#include <map>

#include "cuda/shim/graph_impl.hpp"

using namespace shim;
using namespace shim::graphs;

namespace {

struct UpdateError {
  CUgraphExecUpdateResult result = CU_GRAPH_EXEC_UPDATE_SUCCESS;
  CUgraphNode node = nullptr;  // of the updating graph
  CUgraphNode from = nullptr;  // the mismatched dependency (topology)
};

// The new work of each step, applied only when the whole update checks.
using Plan = std::vector<std::pair<CUgraphExec_st::Step*, Work>>;

bool fail(UpdateError& err, CUgraphExecUpdateResult r, CUgraphNode node, CUgraphNode from = nullptr) {
  err = {r, node, from};
  return false;
}

bool plan_update(CUgraphExec_st& x, CUgraph g, Plan& plan, UpdateError& err);

// The parameters of paired node `n` for step `st`, checked.
bool plan_node(CUgraphExec_st::Step& st, CUgraphNode n, Plan& plan, UpdateError& err) {
  const Work& o = st.work;
  const Work& w = n->work;
  if (o.type != w.type) return fail(err, CU_GRAPH_EXEC_UPDATE_ERROR_NODE_TYPE_CHANGED, n);
  switch (w.type) {
    case CU_GRAPH_NODE_TYPE_KERNEL:
      if (o.ctx != w.ctx) return fail(err, CU_GRAPH_EXEC_UPDATE_ERROR_UNSUPPORTED_FUNCTION_CHANGE, n);
      break;
    case CU_GRAPH_NODE_TYPE_MEMSET: {  // "For 2d memsets, only address and assigned value may be updated"
      const auto &a = o.memset, &b = w.memset;
      if ((a.height > 1 || b.height > 1) &&
          (a.width != b.width || a.height != b.height || a.elementSize != b.elementSize || a.pitch != b.pitch))
        return fail(err, CU_GRAPH_EXEC_UPDATE_ERROR_PARAMETERS_CHANGED, n);
      break;
    }
    case CU_GRAPH_NODE_TYPE_MEMCPY:  // the source and destination memory types cannot change
      if (o.copy.srcMemoryType != w.copy.srcMemoryType || o.copy.dstMemoryType != w.copy.dstMemoryType)
        return fail(err, CU_GRAPH_EXEC_UPDATE_ERROR_PARAMETERS_CHANGED, n);
      break;
    case CU_GRAPH_NODE_TYPE_GRAPH:  // topology must match, restrictions apply recursively
      if (!plan_update(*st.child, w.child, plan, err)) return false;
      break;
    case CU_GRAPH_NODE_TYPE_CONDITIONAL:
      // "Changing node parameters is not supported"; the bodies are updated
      // by the same rules. A handle belongs to its graph (and is freed with
      // it), so one of another graph is a change of parameters.
      if (o.cond.type != w.cond.type || o.cond.size != w.cond.size || o.cond.handle != w.cond.handle ||
          st.bodies.size() != w.bodies.size())
        return fail(err, CU_GRAPH_EXEC_UPDATE_ERROR_PARAMETERS_CHANGED, n);
      for (size_t i = 0; i < w.bodies.size(); ++i)
        if (!plan_update(*st.bodies[i], w.bodies[i], plan, err)) return false;
      break;
    case CU_GRAPH_NODE_TYPE_MEM_ALLOC:
    case CU_GRAPH_NODE_TYPE_MEM_FREE: return fail(err, CU_GRAPH_EXEC_UPDATE_ERROR_NOT_SUPPORTED, n);
    default: break;  // host, empty, event record and wait: unrestricted
  }
  Work copy = w;
  if (w.type == CU_GRAPH_NODE_TYPE_GRAPH) copy.child = o.child;  // the instance runs st.child
  if (w.type == CU_GRAPH_NODE_TYPE_CONDITIONAL) copy.bodies = o.bodies;
  plan.emplace_back(&st, std::move(copy));
  return true;
}

// Pairs the steps of x with the nodes of g and plans the update of each.
bool plan_update(CUgraphExec_st& x, CUgraph g, Plan& plan, UpdateError& err) {
  const size_t count = x.order.size();
  if (g->nodes.size() != count) return fail(err, CU_GRAPH_EXEC_UPDATE_ERROR_TOPOLOGY_CHANGED, nullptr);
  // Sinks of the instance in creation order, and of g (nodes are in creation order).
  std::vector<bool> has_dependent(count, false);
  for (const auto& st : x.order)
    for (size_t d : st.deps) has_dependent[d] = true;
  std::vector<size_t> old_sinks;
  for (size_t i = 0; i < count; ++i)
    if (!has_dependent[i]) old_sinks.push_back(i);
  std::sort(old_sinks.begin(), old_sinks.end(),
            [&](size_t a, size_t b) { return x.order[a].created < x.order[b].created; });
  std::vector<CUgraphNode> new_sinks;
  for (CUgraphNode n : g->nodes)
    if (std::none_of(g->nodes.begin(), g->nodes.end(),
                     [&](CUgraphNode m) { return std::find(m->deps.begin(), m->deps.end(), n) != m->deps.end(); }))
      new_sinks.push_back(n);
  if (new_sinks.size() != old_sinks.size())
    return fail(err, CU_GRAPH_EXEC_UPDATE_ERROR_TOPOLOGY_CHANGED,
                new_sinks.size() > old_sinks.size() ? new_sinks[old_sinks.size()] : nullptr);
  std::vector<CUgraphNode> to_new(count, nullptr);
  std::map<CUgraphNode, size_t> to_old;
  std::vector<std::pair<size_t, CUgraphNode>> work;
  auto pair = [&](size_t o, CUgraphNode n) {  // false when either side is paired with another node
    if (to_new[o] || to_old.count(n)) return to_new[o] == n;
    to_new[o] = n;
    to_old[n] = o;
    work.emplace_back(o, n);
    return true;
  };
  for (size_t i = 0; i < old_sinks.size(); ++i)
    if (!pair(old_sinks[i], new_sinks[i])) return fail(err, CU_GRAPH_EXEC_UPDATE_ERROR_TOPOLOGY_CHANGED, new_sinks[i]);
  for (size_t k = 0; k < work.size(); ++k) {
    const auto [o, n] = work[k];
    const auto& od = x.order[o].deps;
    if (od.size() != n->deps.size()) return fail(err, CU_GRAPH_EXEC_UPDATE_ERROR_TOPOLOGY_CHANGED, n);
    for (size_t e = 0; e < od.size(); ++e)
      if (!pair(od[e], n->deps[e])) return fail(err, CU_GRAPH_EXEC_UPDATE_ERROR_TOPOLOGY_CHANGED, n, n->deps[e]);
  }
  if (work.size() != count) return fail(err, CU_GRAPH_EXEC_UPDATE_ERROR_TOPOLOGY_CHANGED, nullptr);
  for (const auto& [o, n] : work)
    if (!plan_node(x.order[o], n, plan, err)) return false;
  return true;
}

CUresult exec_update(CUgraphExec x, CUgraph g, UpdateError& err) {
  Entry e;
  if (e.r) return e.r;
  if (!is_live(e.s, x, Kind::GraphExec) || !live(e.s, g)) {
    err.result = CU_GRAPH_EXEC_UPDATE_ERROR;
    return CUDA_ERROR_INVALID_VALUE;
  }
  if (g->ctx != x->ctx) {  // the owning context of every kernel cannot change
    err.result = CU_GRAPH_EXEC_UPDATE_ERROR;
    return CUDA_ERROR_GRAPH_EXEC_UPDATE_FAILURE;
  }
  Plan plan;
  if (!plan_update(*x, g, plan, err)) return CUDA_ERROR_GRAPH_EXEC_UPDATE_FAILURE;
  for (auto& [step, w] : plan) step->work = std::move(w);
  return CUDA_SUCCESS;
}

// The type of a live node (under the lock), or INVALID_VALUE.
CUresult node_type(CUgraphNode n, CUgraphNodeType& t) {
  Entry e;
  if (e.r) return e.r;
  if (!live(e.s, n)) return CUDA_ERROR_INVALID_VALUE;
  t = n->work.type;
  return CUDA_SUCCESS;
}

// Sets the event of an event record or wait node.
CUresult set_event(CUgraphNode n, CUgraphNodeType type, CUevent ev) {
  Entry e;
  if (e.r) return e.r;
  if (!live(e.s, n) || n->work.type != type || !is_live(e.s, ev, Kind::Event)) return CUDA_ERROR_INVALID_VALUE;
  n->work.event = ev;
  return CUDA_SUCCESS;
}

CUresult exec_set_event(CUgraphExec x, CUgraphNode n, CUgraphNodeType type, CUevent ev) {
  Entry e;
  if (e.r) return e.r;
  if (!is_live(e.s, x, Kind::GraphExec) || !live(e.s, n) || n->work.type != type || !is_live(e.s, ev, Kind::Event))
    return CUDA_ERROR_INVALID_VALUE;
  CUgraphExec_st::Step* step = step_of(x, n);
  if (!step) return CUDA_ERROR_INVALID_VALUE;
  step->work.event = ev;
  return CUDA_SUCCESS;
}

CUDA_MEMSET_NODE_PARAMS memset_v1(const CUDA_MEMSET_NODE_PARAMS_v2& m) {
  return {m.dst, m.pitch, m.value, m.elementSize, m.width, m.height};
}

}  // namespace

// ---- whole-graph update -------------------------------------------------------------------

SHIM_API CUresult cuGraphExecUpdate_v2(CUgraphExec x, CUgraph g, CUgraphExecUpdateResultInfo* info) {
  UpdateError err;
  CUresult r = exec_update(x, g, err);
  if (info) {
    info->result = err.result;
    info->errorNode = err.node;
    info->errorFromNode = err.from;
  }
  return r;
}

// The CUDA 10.2 signature: the error node and the result only.
#undef cuGraphExecUpdate
SHIM_API CUresult cuGraphExecUpdate(CUgraphExec x, CUgraph g, CUgraphNode* err_node, CUgraphExecUpdateResult* result) {
  UpdateError err;
  CUresult r = exec_update(x, g, err);
  if (err_node) *err_node = err.node;
  if (result) *result = err.result;
  return r;
}

// ---- event and child-graph setters ---------------------------------------------------------

SHIM_API CUresult cuGraphEventRecordNodeSetEvent(CUgraphNode n, CUevent ev) {
  return set_event(n, CU_GRAPH_NODE_TYPE_EVENT_RECORD, ev);
}
SHIM_API CUresult cuGraphEventWaitNodeSetEvent(CUgraphNode n, CUevent ev) {
  return set_event(n, CU_GRAPH_NODE_TYPE_WAIT_EVENT, ev);
}
SHIM_API CUresult cuGraphExecEventRecordNodeSetEvent(CUgraphExec x, CUgraphNode n, CUevent ev) {
  return exec_set_event(x, n, CU_GRAPH_NODE_TYPE_EVENT_RECORD, ev);
}
SHIM_API CUresult cuGraphExecEventWaitNodeSetEvent(CUgraphExec x, CUgraphNode n, CUevent ev) {
  return exec_set_event(x, n, CU_GRAPH_NODE_TYPE_WAIT_EVENT, ev);
}

// A child graph node of an instance takes the parameters of `child`, whose
// topology must match the instantiated one (cuda.h: "restrictions apply
// recursively", as in cuGraphExecUpdate); INVALID_VALUE otherwise.
SHIM_API CUresult cuGraphExecChildGraphNodeSetParams(CUgraphExec x, CUgraphNode n, CUgraph child) {
  Entry e;
  if (e.r) return e.r;
  if (!is_live(e.s, x, Kind::GraphExec) || !live(e.s, n) || n->work.type != CU_GRAPH_NODE_TYPE_GRAPH ||
      !live(e.s, child))
    return CUDA_ERROR_INVALID_VALUE;
  CUgraphExec_st::Step* step = step_of(x, n);
  if (!step) return CUDA_ERROR_INVALID_VALUE;
  Plan plan;
  UpdateError err;
  if (!plan_update(*step->child, child, plan, err)) return CUDA_ERROR_INVALID_VALUE;
  for (auto& [st, w] : plan) st->work = std::move(w);
  return CUDA_SUCCESS;
}

// ---- generic node parameters (CUgraphNodeParams) -------------------------------------------

// Each type through its own setter. cuda.h: "Modifying parameters is not
// supported for node types CU_GRAPH_NODE_TYPE_MEM_ALLOC and
// CU_GRAPH_NODE_TYPE_MEM_FREE" (CUDA_ERROR_NOT_SUPPORTED); a child graph or
// conditional node's parameters are its graphs, which are changed through
// their own nodes; external semaphores and batch memory operations are not
// provided.
SHIM_API CUresult cuGraphNodeSetParams(CUgraphNode n, CUgraphNodeParams* p) {
  CUgraphNodeType t{};
  if (!p) return CUDA_ERROR_INVALID_VALUE;
  if (CUresult r = node_type(n, t)) return r;
  if (p->type != t) return CUDA_ERROR_INVALID_VALUE;
  switch (t) {
    case CU_GRAPH_NODE_TYPE_KERNEL: return cuGraphKernelNodeSetParams_v2(n, &p->kernel);
    case CU_GRAPH_NODE_TYPE_MEMCPY:
      if (p->memcpy.flags) return CUDA_ERROR_INVALID_VALUE;
      return cuGraphMemcpyNodeSetParams(n, &p->memcpy.copyParams);
    case CU_GRAPH_NODE_TYPE_MEMSET: {
      const CUDA_MEMSET_NODE_PARAMS v1 = memset_v1(p->memset);
      return cuGraphMemsetNodeSetParams(n, &v1);
    }
    case CU_GRAPH_NODE_TYPE_HOST: return cuGraphHostNodeSetParams(n, &p->host);
    case CU_GRAPH_NODE_TYPE_EMPTY: return CUDA_SUCCESS;
    case CU_GRAPH_NODE_TYPE_WAIT_EVENT: return cuGraphEventWaitNodeSetEvent(n, p->eventWait.event);
    case CU_GRAPH_NODE_TYPE_EVENT_RECORD: return cuGraphEventRecordNodeSetEvent(n, p->eventRecord.event);
    default: return CUDA_ERROR_NOT_SUPPORTED;
  }
}

// cuda.h's table of allowed changes: kernel, memcpy, memset, host, child graph
// ("topology must match and restrictions apply recursively"), event wait and
// record; memory allocation and free: "API unsupported".
SHIM_API CUresult cuGraphExecNodeSetParams(CUgraphExec x, CUgraphNode n, CUgraphNodeParams* p) {
  CUgraphNodeType t{};
  if (!p) return CUDA_ERROR_INVALID_VALUE;
  if (CUresult r = node_type(n, t)) return r;
  if (p->type != t) return CUDA_ERROR_INVALID_VALUE;
  switch (t) {
    case CU_GRAPH_NODE_TYPE_KERNEL: return cuGraphExecKernelNodeSetParams_v2(x, n, &p->kernel);
    case CU_GRAPH_NODE_TYPE_MEMCPY:
      if (p->memcpy.flags) return CUDA_ERROR_INVALID_VALUE;
      return cuGraphExecMemcpyNodeSetParams(x, n, &p->memcpy.copyParams, p->memcpy.copyCtx);
    case CU_GRAPH_NODE_TYPE_MEMSET: {
      const CUDA_MEMSET_NODE_PARAMS v1 = memset_v1(p->memset);
      return cuGraphExecMemsetNodeSetParams(x, n, &v1, p->memset.ctx);
    }
    case CU_GRAPH_NODE_TYPE_HOST: return cuGraphExecHostNodeSetParams(x, n, &p->host);
    case CU_GRAPH_NODE_TYPE_GRAPH: return cuGraphExecChildGraphNodeSetParams(x, n, p->graph.graph);
    case CU_GRAPH_NODE_TYPE_EMPTY: return CUDA_SUCCESS;
    case CU_GRAPH_NODE_TYPE_WAIT_EVENT: return cuGraphExecEventWaitNodeSetEvent(x, n, p->eventWait.event);
    case CU_GRAPH_NODE_TYPE_EVENT_RECORD: return cuGraphExecEventRecordNodeSetEvent(x, n, p->eventRecord.event);
    default: return CUDA_ERROR_NOT_SUPPORTED;
  }
}
