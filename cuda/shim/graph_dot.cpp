// cuGraphDebugDotPrint (CUDA Driver API reference, "Graph Management"): the
// DOT form of a graph (graph.cpp holds the graphs themselves).
#include <cstdio>
#include <map>
#include <string>

#include "cuda/shim/graph_impl.hpp"

using namespace shim;
using namespace shim::graphs;

// cuGraphDebugDotPrint: the graph as Graphviz DOT text, one box per node
// labelled with its type (a kernel node with its kernel, grid and block), an
// edge per dependency, a child graph or conditional body as a cluster; the
// same text for every flag. A file that cannot be written is
// CUDA_ERROR_OPERATING_SYSTEM, as the driver documents.
namespace {
const char* node_type_name(CUgraphNodeType t) {
  switch (t) {
    case CU_GRAPH_NODE_TYPE_KERNEL: return "KERNEL";
    case CU_GRAPH_NODE_TYPE_MEMCPY: return "MEMCPY";
    case CU_GRAPH_NODE_TYPE_MEMSET: return "MEMSET";
    case CU_GRAPH_NODE_TYPE_HOST: return "HOST";
    case CU_GRAPH_NODE_TYPE_GRAPH: return "GRAPH";
    case CU_GRAPH_NODE_TYPE_EMPTY: return "EMPTY";
    case CU_GRAPH_NODE_TYPE_WAIT_EVENT: return "WAIT_EVENT";
    case CU_GRAPH_NODE_TYPE_EVENT_RECORD: return "EVENT_RECORD";
    case CU_GRAPH_NODE_TYPE_MEM_ALLOC: return "MEM_ALLOC";
    case CU_GRAPH_NODE_TYPE_MEM_FREE: return "MEM_FREE";
    case CU_GRAPH_NODE_TYPE_BATCH_MEM_OP: return "BATCH_MEM_OP";
    case CU_GRAPH_NODE_TYPE_CONDITIONAL: return "CONDITIONAL";
    default: return "NODE";
  }
}

void dot_graph(std::string& out, CUgraph g, const std::string& prefix) {
  std::map<CUgraphNode, size_t> id;
  for (CUgraphNode n : g->nodes) id.emplace(n, id.size());
  for (CUgraphNode n : g->nodes) {
    const std::string name = prefix + "node_" + std::to_string(id[n]);
    const shim::Work& w = n->work;
    std::string label = std::string(node_type_name(w.type)) + " " + std::to_string(id[n]);
    if (w.type == CU_GRAPH_NODE_TYPE_KERNEL && w.func) {
      const auto& c = w.cfg;
      label += "\\n" + w.func->k->name + "\\ngrid " + std::to_string(c.grid[0]) + "," + std::to_string(c.grid[1]) +
               "," + std::to_string(c.grid[2]) + " block " + std::to_string(c.block[0]) + "," +
               std::to_string(c.block[1]) + "," + std::to_string(c.block[2]);
    }
    out += "\t" + name + " [shape=box label=\"" + label + "\"];\n";
    std::vector<CUgraph> inner = w.bodies;
    if (w.child) inner.insert(inner.begin(), w.child);
    for (size_t b = 0; b < inner.size(); ++b) {
      const std::string sub = name + "_" + std::to_string(b) + "_";
      out += "subgraph cluster_" + sub + " {\nlabel=\"" + label + " body " + std::to_string(b) + "\";\n";
      dot_graph(out, inner[b], sub);
      out += "}\n";
    }
    for (CUgraphNode d : n->deps) out += "\t" + prefix + "node_" + std::to_string(id[d]) + " -> " + name + ";\n";
  }
}
}  // namespace

SHIM_API CUresult cuGraphDebugDotPrint(CUgraph g, const char* path, unsigned int flags) {
  (void)flags;
  Entry e;
  if (e.r) return e.r;
  if (!path || !live(e.s, g)) return CUDA_ERROR_INVALID_VALUE;
  std::string out = "digraph dot {\n";
  dot_graph(out, g, "");
  out += "}\n";
  FILE* f = std::fopen(path, "w");
  if (!f) return CUDA_ERROR_OPERATING_SYSTEM;
  const bool ok = std::fwrite(out.data(), 1, out.size(), f) == out.size();
  return std::fclose(f) == 0 && ok ? CUDA_SUCCESS : CUDA_ERROR_OPERATING_SYSTEM;
}
