// Graph memory nodes (CUDA C++ Programming Guide, "Graph Memory Nodes";
// CUDA Driver API reference, "Graph Management"): an allocation node's
// address is fixed when the node is made (reserved, not backed:
// Session::reserve) and backed while a launch holds the allocation, from the
// allocation node until a free node, cuMemFreeAsync or cuMemFree; before and
// after that an access is an out-of-bounds diagnostic. The rules on graphs
// that hold memory nodes (no clone, no child use, one instance at a time):
// graph.cpp.
#include <algorithm>
#include <cstring>

#include "cuda/shim/graph_impl.hpp"

using namespace shim;
using namespace shim::graphs;

namespace shim::graphs {

// The work of an allocation node (cuGraphAddMemAllocNode, a captured
// cuMemAllocAsync): device memory of the one device, no IPC handle types;
// the address is reserved now.
CUresult alloc_work(State& s, CUcontext c, const CUmemPoolProps& props, const CUmemAccessDesc* acc, size_t nacc,
                    size_t bytes, Work& w) {
  if (props.allocType != CU_MEM_ALLOCATION_TYPE_PINNED || props.location.type != CU_MEM_LOCATION_TYPE_DEVICE ||
      props.handleTypes != CU_MEM_HANDLE_TYPE_NONE || bytes == 0 || (nacc && !acc) || nacc > 1)
    return CUDA_ERROR_INVALID_VALUE;
  if (props.location.id != 0) return CUDA_ERROR_INVALID_DEVICE;
  for (size_t k = 0; k < nacc; ++k)
    if (acc[k].location.type != CU_MEM_LOCATION_TYPE_DEVICE || acc[k].location.id != 0 ||
        acc[k].flags != CU_MEM_ACCESS_FLAGS_PROT_READWRITE)
      return CUDA_ERROR_INVALID_VALUE;
  w.type = CU_GRAPH_NODE_TYPE_MEM_ALLOC;
  w.ctx = c;
  w.alloc.poolProps = props;
  w.alloc.bytesize = bytes;
  w.access.assign(acc, acc + nacc);
  try {
    w.alloc.dptr = s.session->reserve(bytes);
  } catch (const ptxcheck::LimitError&) {
    return CUDA_ERROR_OUT_OF_MEMORY;
  }
  return CUDA_SUCCESS;
}

void note_alloc_node(State& s, CUgraphNode n) {
  auto& a = s.graph_allocs[n->work.alloc.dptr];
  a.bytes = n->work.alloc.bytesize;
  a.owner = n->graph;
  a.node = n;
}

// Whether a free node of `p` may be added to g after `deps`: p is a graph
// allocation, freed at most once in its owning graph (after its allocation
// node) and then nowhere else, or else in other graphs, once in each.
CUresult free_check(State& s, CUgraph g, const std::vector<CUgraphNode>& deps, CUdeviceptr p) {
  auto it = s.graph_allocs.find(p);
  if (it == s.graph_allocs.end()) return CUDA_ERROR_INVALID_VALUE;  // not an allocation node's address
  const State::GraphAlloc& a = it->second;
  if (a.freed_in_owner) return CUDA_ERROR_INVALID_VALUE;
  if (a.owner == g) {
    if (a.freed_elsewhere) return CUDA_ERROR_INVALID_VALUE;
    std::vector<CUgraphNode> before;
    ancestors(deps, before);
    if (std::find(before.begin(), before.end(), a.node) == before.end()) return CUDA_ERROR_INVALID_VALUE;
  } else {
    for (CUgraphNode n : g->nodes)
      if (n->work.type == CU_GRAPH_NODE_TYPE_MEM_FREE && n->work.free_ptr == p) return CUDA_ERROR_INVALID_VALUE;
  }
  return CUDA_SUCCESS;
}

void note_free_node(State& s, CUgraph g, CUdeviceptr p) {
  auto& a = s.graph_allocs[p];
  (a.owner == g ? a.freed_in_owner : a.freed_elsewhere) = true;
}

Work free_work(CUcontext c, CUdeviceptr p) {
  Work w;
  w.type = CU_GRAPH_NODE_TYPE_MEM_FREE;
  w.ctx = c;
  w.free_ptr = p;
  return w;
}

}  // namespace shim::graphs

// ---- shared with the stream operations ------------------------------------------------------

CUresult shim::graph_alloc_now(State& s, uint64_t addr) {
  auto it = s.graph_allocs.find(addr);
  if (it == s.graph_allocs.end() || it->second.live) return CUDA_ERROR_INVALID_VALUE;
  try {
    s.session->alloc_at(addr, it->second.bytes);
  } catch (const ptxcheck::LimitError&) {
    return CUDA_ERROR_OUT_OF_MEMORY;
  } catch (const std::bad_alloc&) {
    return CUDA_ERROR_OUT_OF_MEMORY;
  }
  it->second.live = true;
  s.graph_live += it->second.bytes;
  s.graph_reserved = std::max(s.graph_reserved, s.graph_live);
  s.graph_reserved_high = std::max(s.graph_reserved_high, s.graph_reserved);
  s.graph_used_high = std::max(s.graph_used_high, s.graph_reserved);
  return CUDA_SUCCESS;
}

bool shim::graph_free_now(State& s, uint64_t addr) {
  auto it = s.graph_allocs.find(addr);
  if (it == s.graph_allocs.end() || !it->second.live) return false;
  s.session->free(addr);
  it->second.live = false;
  s.graph_live -= it->second.bytes;  // the memory stays with the graphs until cuDeviceGraphMemTrim
  return true;
}

// ---- memory nodes ----------------------------------------------------------------------------

SHIM_API CUresult cuGraphAddMemAllocNode(CUgraphNode* out, CUgraph g, const CUgraphNode* deps, size_t n,
                                         CUDA_MEM_ALLOC_NODE_PARAMS* p) {
  Entry e;
  if (e.r) return e.r;
  if (!out || !p || !live(e.s, g)) return CUDA_ERROR_INVALID_VALUE;
  std::vector<CUgraphNode> d;
  if (CUresult r = dep_list(e.s, g, deps, n, d)) return r;
  Work w;
  if (CUresult r = alloc_work(e.s, e.c, p->poolProps, p->accessDescs, p->accessDescCount, p->bytesize, w)) return r;
  p->dptr = w.alloc.dptr;
  *out = new_node(e.s, g, std::move(w), std::move(d));
  note_alloc_node(e.s, *out);
  return CUDA_SUCCESS;
}

SHIM_API CUresult cuGraphMemAllocNodeGetParams(CUgraphNode n, CUDA_MEM_ALLOC_NODE_PARAMS* p) {
  if (!p) return CUDA_ERROR_INVALID_VALUE;
  return with_node(n, CU_GRAPH_NODE_TYPE_MEM_ALLOC, [&](State&, CUgraphNode m) {
    *p = m->work.alloc;
    p->accessDescs = m->work.access.empty() ? nullptr : m->work.access.data();
    p->accessDescCount = m->work.access.size();
    return CUDA_SUCCESS;
  });
}

SHIM_API CUresult cuGraphAddMemFreeNode(CUgraphNode* out, CUgraph g, const CUgraphNode* deps, size_t n,
                                        CUdeviceptr dptr) {
  Entry e;
  if (e.r) return e.r;
  if (!out || !live(e.s, g)) return CUDA_ERROR_INVALID_VALUE;
  std::vector<CUgraphNode> d;
  if (CUresult r = dep_list(e.s, g, deps, n, d)) return r;
  if (CUresult r = free_check(e.s, g, d, dptr)) return r;
  *out = new_node(e.s, g, free_work(e.c, dptr), std::move(d));
  note_free_node(e.s, g, dptr);
  return CUDA_SUCCESS;
}

SHIM_API CUresult cuGraphMemFreeNodeGetParams(CUgraphNode n, CUdeviceptr* dptr) {
  if (!dptr) return CUDA_ERROR_INVALID_VALUE;
  return with_node(n, CU_GRAPH_NODE_TYPE_MEM_FREE, [&](State&, CUgraphNode m) {
    *dptr = m->work.free_ptr;
    return CUDA_SUCCESS;
  });
}

// Graph memory no allocation holds goes back to the device.
SHIM_API CUresult cuDeviceGraphMemTrim(CUdevice dev) {
  DeviceEntry e(dev);
  if (e.r) return e.r;
  e.s.graph_reserved = e.s.graph_live;
  return CUDA_SUCCESS;
}

SHIM_API CUresult cuDeviceGetGraphMemAttribute(CUdevice dev, CUgraphMem_attribute attr, void* value) {
  DeviceEntry e(dev);
  if (e.r) return e.r;
  if (!value) return CUDA_ERROR_INVALID_VALUE;
  cuuint64_t v = 0;
  switch (attr) {
    case CU_GRAPH_MEM_ATTR_USED_MEM_CURRENT:  // no launch runs concurrently: what is associated is reserved
    case CU_GRAPH_MEM_ATTR_RESERVED_MEM_CURRENT: v = e.s.graph_reserved; break;
    case CU_GRAPH_MEM_ATTR_USED_MEM_HIGH: v = e.s.graph_used_high; break;
    case CU_GRAPH_MEM_ATTR_RESERVED_MEM_HIGH: v = e.s.graph_reserved_high; break;
    default: return CUDA_ERROR_INVALID_VALUE;
  }
  std::memcpy(value, &v, sizeof v);
  return CUDA_SUCCESS;
}

// Only the high watermarks can be set, and only to 0 (a reset to the current
// amount).
SHIM_API CUresult cuDeviceSetGraphMemAttribute(CUdevice dev, CUgraphMem_attribute attr, void* value) {
  DeviceEntry e(dev);
  if (e.r) return e.r;
  if (!value) return CUDA_ERROR_INVALID_VALUE;
  cuuint64_t v = 0;
  std::memcpy(&v, value, sizeof v);
  if (v) return CUDA_ERROR_INVALID_VALUE;
  if (attr == CU_GRAPH_MEM_ATTR_USED_MEM_HIGH)
    e.s.graph_used_high = e.s.graph_reserved;
  else if (attr == CU_GRAPH_MEM_ATTR_RESERVED_MEM_HIGH)
    e.s.graph_reserved_high = e.s.graph_reserved;
  else
    return CUDA_ERROR_INVALID_VALUE;
  return CUDA_SUCCESS;
}
