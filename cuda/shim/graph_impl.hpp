// Internal to the CUDA graph files (graph.cpp, graph_exec.cpp,
// graph_capture.cpp, graph_cond.cpp, graph_mem.cpp, graph_update.cpp): what they
// share. Not part of the shim's interface (state.hpp is).
#pragma once

#include <memory>
#include <vector>

#include "cuda/shim/state.hpp"

namespace shim::graphs {

// The lock and the current context for an entry point.
struct Entry : Locked {
  CUcontext c = nullptr;
  CUresult r = current(s, c);
};

inline bool live(State& s, CUgraph g) { return is_live(s, g, Kind::Graph); }
inline bool live(State& s, CUgraphNode n) { return is_live(s, n, Kind::GraphNode); }

// Runs f(s, n) with the lock held on a live node of the given type.
template <class F>
CUresult with_node(CUgraphNode n, CUgraphNodeType type, F f) {
  State& s = state();
  std::lock_guard lk(s.mu);
  if (!live(s, n) || n->work.type != type) return CUDA_ERROR_INVALID_VALUE;
  return f(s, n);
}

// ---- graph.cpp ----
// The CUDA 10 layout of kernel node parameters (CUDA_KERNEL_NODE_PARAMS_v1):
// the v2 struct without the trailing kernel and context.
struct KernelNodeParamsV1 {
  CUfunction func;
  unsigned int gridDimX, gridDimY, gridDimZ;
  unsigned int blockDimX, blockDimY, blockDimZ;
  unsigned int sharedMemBytes;
  void** kernelParams;
  void** extra;
};

// The dependency list `deps[0..n)` of a node of g: live nodes of g, no
// duplicates.
CUresult dep_list(State& s, CUgraph g, const CUgraphNode* deps, size_t n, std::vector<CUgraphNode>& out);
CUgraphNode new_node(State& s, CUgraph g, Work w, std::vector<CUgraphNode> deps);
CUgraph new_graph(State& s, CUcontext c);
// A copy of g (nodes, edges, child graphs) in g's context.
CUgraph clone_graph(State& s, CUgraph g);
// Whether g has memory (allocation or free) nodes.
bool has_mem_nodes(CUgraph g);
// The work of a kernel node (CUDA 10 and v2 parameters); checks the launch.
CUresult kernel_work(State& s, CUcontext c, CUfunction f, const KernelNodeParamsV1& p, Work& w);
CUresult kernel_work_v2(State& s, CUcontext c, const CUDA_KERNEL_NODE_PARAMS* p, Work& w);
// ---- graph_exec.cpp: instantiated graphs ----
// Instantiates g into `out` (`body`: g is a conditional node's body, at any
// depth); on failure *err_node (when null so far) names the node at fault.
CUresult instantiate(State& s, CUgraph g, std::shared_ptr<CUgraphExec_st>& out, CUgraphNode* err_node,
                     bool body = false);
// Runs an instantiated graph on st (lock not held: each node takes it).
CUresult run(const CUgraphExec_st& x, CUstream st);
// The step of an instantiated graph that instantiates node n (top level).
CUgraphExec_st::Step* step_of(CUgraphExec x, CUgraphNode n);
// INVALID_VALUE for memset node parameters cuGraphAddMemsetNode refuses.
CUresult memset_check(const CUDA_MEMSET_NODE_PARAMS* p);
// Whether the edge data `data[0..n)` (may be null) are all the default edge.
bool default_edges(const CUgraphEdgeData* data, size_t n);
// Adds to `acc` the nodes `from` and every node they depend on.
void ancestors(const std::vector<CUgraphNode>& from, std::vector<CUgraphNode>& acc);
// ---- graph_mem.cpp: memory nodes ----
// The work of an allocation node (the address is reserved
// now), and the bookkeeping of allocation and free nodes added to a graph;
// free_check says whether a free node of p may follow `deps` in g.
CUresult alloc_work(State& s, CUcontext c, const CUmemPoolProps& props, const CUmemAccessDesc* acc, size_t nacc,
                    size_t bytes, Work& w);
void note_alloc_node(State& s, CUgraphNode n);
CUresult free_check(State& s, CUgraph g, const std::vector<CUgraphNode>& deps, CUdeviceptr p);
void note_free_node(State& s, CUgraph g, CUdeviceptr p);
Work free_work(CUcontext c, CUdeviceptr p);

// ---- graph_cond.cpp: conditional nodes ----
// Frees the conditional handles made for g (g is being destroyed).
void free_cond_handles(State& s, CUgraph g);
// Whether a node of this type may be in a conditional node's body.
bool body_node_ok(CUgraphNodeType t);
// Instantiates the bodies of n (a conditional node; none for other nodes)
// into step.bodies.
CUresult instantiate_bodies(State& s, CUgraphNode n, CUgraphExec_st::Step& step, CUgraphNode* err_node);
// Runs a conditional node's step.
CUresult run_conditional(const CUgraphExec_st::Step& step, CUstream st);
// Assigns the launch defaults of the conditional handles x uses (lock held).
void assign_defaults(State& s, const CUgraphExec_st& x);
// cuGraphAddNode of a conditional node; sets p.phGraph_out.
CUresult add_conditional(CUgraphNode* out, CUgraph g, const CUgraphNode* deps, size_t n,
                         CUDA_CONDITIONAL_NODE_PARAMS& p);

}  // namespace shim::graphs
