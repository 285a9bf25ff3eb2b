// Stream capture (CUDA Driver API reference, "Stream Management"; CUDA C++
// Programming Guide, "Creating a Graph Using Stream Capture"): between
// cuStreamBeginCapture and cuStreamEndCapture on the origin stream, work
// issued to a capturing stream is recorded as a node after the stream's
// current dependencies instead of being run. A stream joins the capture by
// waiting on an event recorded in it (fork), and its work must be joined back
// into the origin stream before the capture ends. The graphs themselves:
// graph.cpp.
#include <algorithm>
#include <memory>

#include "cuda/shim/graph_impl.hpp"

using namespace shim;
using namespace shim::graphs;

namespace shim::graphs {
namespace {

// The calling thread's capture interaction mode (cuThreadExchangeStreamCaptureMode).
thread_local CUstreamCaptureMode t_capture_mode = CU_STREAM_CAPTURE_MODE_GLOBAL;

// The capture a stream takes part in, with its status.
CUstreamCaptureStatus status_of(CUstream st) {
  if (!capturing(st)) return CU_STREAM_CAPTURE_STATUS_NONE;
  return st->capture->invalidated ? CU_STREAM_CAPTURE_STATUS_INVALIDATED : CU_STREAM_CAPTURE_STATUS_ACTIVE;
}

CUresult begin_capture(CUstream st, CUstreamCaptureMode mode, CUgraph into, const CUgraphNode* deps, size_t n) {
  Entry e;
  if (e.r) return e.r;
  if (mode < CU_STREAM_CAPTURE_MODE_GLOBAL || mode > CU_STREAM_CAPTURE_MODE_RELAXED) return CUDA_ERROR_INVALID_VALUE;
  if (!st || st == CU_STREAM_LEGACY || st == CU_STREAM_PER_THREAD) return CUDA_ERROR_STREAM_CAPTURE_UNSUPPORTED;
  if (!valid_stream(e.s, st, e.c)) return CUDA_ERROR_INVALID_HANDLE;
  if (st->capture) return CUDA_ERROR_ILLEGAL_STATE;
  std::vector<CUgraphNode> d;
  if (into) {
    if (!live(e.s, into)) return CUDA_ERROR_INVALID_VALUE;
    if (CUresult r = dep_list(e.s, into, deps, n, d)) return r;
  }
  static uint64_t next_id = 1;
  auto cap = std::make_shared<Capture>();
  cap->graph = into ? into : new_graph(e.s, e.c);
  cap->into_graph = into != nullptr;
  cap->origin = st;
  cap->mode = mode;
  cap->id = next_id++;
  cap->streams.insert(st);
  st->capture = cap;
  st->capture_deps = std::move(d);
  return CUDA_SUCCESS;
}

CUresult capture_info(CUstream st, CUstreamCaptureStatus* status, cuuint64_t* id, CUgraph* graph,
                      const CUgraphNode** deps, const CUgraphEdgeData** data, size_t* num) {
  Entry e;
  if (e.r) return e.r;
  if (!status) return CUDA_ERROR_INVALID_VALUE;
  if (!valid_stream(e.s, st, e.c)) return CUDA_ERROR_INVALID_HANDLE;
  *status = status_of(st);
  if (*status == CU_STREAM_CAPTURE_STATUS_NONE) return CUDA_SUCCESS;
  if (id) *id = st->capture->id;
  if (graph) *graph = st->capture->graph;
  if (deps) *deps = st->capture_deps.data();
  if (data) {
    static thread_local std::vector<CUgraphEdgeData> zeros;
    zeros.assign(st->capture_deps.size(), CUgraphEdgeData{});
    *data = zeros.data();
  }
  if (num) *num = st->capture_deps.size();
  return CUDA_SUCCESS;
}

CUresult update_capture_deps(CUstream st, CUgraphNode* deps, const CUgraphEdgeData* data, size_t n, unsigned flags) {
  Entry e;
  if (e.r) return e.r;
  if (flags > CU_STREAM_SET_CAPTURE_DEPENDENCIES || !default_edges(data, n)) return CUDA_ERROR_INVALID_VALUE;
  if (!valid_stream(e.s, st, e.c)) return CUDA_ERROR_INVALID_HANDLE;
  if (!capturing(st)) return CUDA_ERROR_ILLEGAL_STATE;
  std::vector<CUgraphNode> d;
  if (CUresult r = dep_list(e.s, st->capture->graph, deps, n, d)) return r;
  if (flags == CU_STREAM_SET_CAPTURE_DEPENDENCIES) st->capture_deps.clear();
  for (CUgraphNode x : d)
    if (std::find(st->capture_deps.begin(), st->capture_deps.end(), x) == st->capture_deps.end())
      st->capture_deps.push_back(x);
  return CUDA_SUCCESS;
}

}  // namespace
}  // namespace shim::graphs

// ---- shared with the stream operations ------------------------------------------------------

CUresult shim::capture_work(State& s, CUstream st, Work w) {
  if (st->capture->invalidated) return CUDA_ERROR_STREAM_CAPTURE_INVALIDATED;
  CUgraphNode n = new_node(s, st->capture->graph, std::move(w), st->capture_deps);
  st->capture_deps = {n};
  return CUDA_SUCCESS;
}

CUresult shim::capture_alloc(State& s, CUstream st, CUmemoryPool pool, size_t bytes, CUdeviceptr* dptr) {
  if (st->capture->invalidated) return CUDA_ERROR_STREAM_CAPTURE_INVALIDATED;
  Work w;
  if (CUresult r = alloc_work(s, st->ctx, pool->props, nullptr, 0, bytes, w)) return r;
  const CUdeviceptr p = w.alloc.dptr;
  if (CUresult r = capture_work(s, st, std::move(w))) return r;
  note_alloc_node(s, st->capture_deps.front());
  *dptr = p;
  return CUDA_SUCCESS;
}

CUresult shim::capture_free(State& s, CUstream st, CUdeviceptr dptr) {
  if (st->capture->invalidated) return CUDA_ERROR_STREAM_CAPTURE_INVALIDATED;
  CUgraph g = st->capture->graph;
  if (CUresult r = free_check(s, g, st->capture_deps, dptr)) return r;
  if (CUresult r = capture_work(s, st, free_work(st->ctx, dptr))) return r;
  note_free_node(s, g, dptr);
  return CUDA_SUCCESS;
}

bool shim::stream_capturing(CUstream st) {
  State& s = state();
  std::lock_guard lk(s.mu);
  return is_live(s, st, Kind::Stream) && capturing(st);
}

CUresult shim::stream_wait_event(CUstream st, CUevent ev, unsigned flags) {
  Entry e;
  if (e.r) return e.r;
  if (!valid_stream(e.s, st, e.c) || !is_live(e.s, ev, Kind::Event)) return CUDA_ERROR_INVALID_HANDLE;
  if (ev->capture) {  // recorded in a capture: st forks from (or merges into) that capture
    if (ev->capture->invalidated) return CUDA_ERROR_STREAM_CAPTURE_INVALIDATED;
    if (!st || st == CU_STREAM_LEGACY || st == CU_STREAM_PER_THREAD) return CUDA_ERROR_STREAM_CAPTURE_IMPLICIT;
    if (st->capture && st->capture != ev->capture) {
      st->capture->invalidated = true;
      return CUDA_ERROR_STREAM_CAPTURE_MERGE;
    }
    if (!st->capture) {
      st->capture = ev->capture;
      st->capture_deps.clear();
      ev->capture->streams.insert(st);
    }
    for (CUgraphNode n : ev->capture_deps)
      if (std::find(st->capture_deps.begin(), st->capture_deps.end(), n) == st->capture_deps.end())
        st->capture_deps.push_back(n);
    return CUDA_SUCCESS;
  }
  if (capturing(st)) {
    // An event recorded outside the capture: only as an external wait node.
    if (!(flags & CU_EVENT_WAIT_EXTERNAL)) {
      st->capture->invalidated = true;
      return CUDA_ERROR_STREAM_CAPTURE_ISOLATION;
    }
    Work w;
    w.type = CU_GRAPH_NODE_TYPE_WAIT_EVENT;
    w.ctx = e.c;
    w.event = ev;
    return capture_work(e.s, st, std::move(w));
  }
  // A record still deferred (streams.cpp): st's later work waits for it.
  if (ev->pending && !ev->pending->done)
    defer(
        e.s, e.c, st, "cuStreamWaitEvent", [] { return CUDA_SUCCESS; }, true, ev->pending);
  return ev->ctx->sticky;
}

// ---- stream capture ---------------------------------------------------------------------------

#undef cuStreamBeginCapture
SHIM_API CUresult cuStreamBeginCapture(CUstream st) {
  return begin_capture(st, CU_STREAM_CAPTURE_MODE_GLOBAL, nullptr, nullptr, 0);
}
SHIM_API CUresult cuStreamBeginCapture_ptsz(CUstream st) { return cuStreamBeginCapture(st); }
SHIM_API CUresult cuStreamBeginCapture_v2(CUstream st, CUstreamCaptureMode mode) {
  return begin_capture(st, mode, nullptr, nullptr, 0);
}
SHIM_API CUresult cuStreamBeginCapture_v2_ptsz(CUstream st, CUstreamCaptureMode mode) {
  return begin_capture(st, mode, nullptr, nullptr, 0);
}
SHIM_API CUresult cuStreamBeginCaptureToGraph(CUstream st, CUgraph g, const CUgraphNode* deps,
                                              const CUgraphEdgeData* data, size_t n, CUstreamCaptureMode mode) {
  if (!g || !default_edges(data, n)) return CUDA_ERROR_INVALID_VALUE;
  return begin_capture(st, mode, g, deps, n);
}
SHIM_API CUresult cuStreamBeginCaptureToGraph_ptsz(CUstream st, CUgraph g, const CUgraphNode* deps,
                                                   const CUgraphEdgeData* data, size_t n, CUstreamCaptureMode mode) {
  return cuStreamBeginCaptureToGraph(st, g, deps, data, n, mode);
}

// Ends the capture begun on st: every stream that forked from it must have
// been joined back (its last captured work is an ancestor of the origin's).
// A capture into the caller's graph (cuStreamBeginCaptureToGraph) may pass
// no `out`: the caller has the graph.
SHIM_API CUresult cuStreamEndCapture(CUstream st, CUgraph* out) {
  Entry e;
  if (e.r) return e.r;
  if (!out && !(valid_stream(e.s, st, e.c) && capturing(st) && st->capture->into_graph))
    return CUDA_ERROR_INVALID_VALUE;
  if (!valid_stream(e.s, st, e.c)) return CUDA_ERROR_INVALID_HANDLE;
  if (!capturing(st)) return CUDA_ERROR_ILLEGAL_STATE;
  std::shared_ptr<Capture> cap = st->capture;
  if (out) *out = nullptr;
  if (cap->origin != st) {
    cap->invalidated = true;
    return CUDA_ERROR_STREAM_CAPTURE_UNMATCHED;
  }
  CUresult r = cap->invalidated ? CUDA_ERROR_STREAM_CAPTURE_INVALIDATED : CUDA_SUCCESS;
  if (!r) {
    std::vector<CUgraphNode> joined;
    ancestors(st->capture_deps, joined);
    for (CUstream other : cap->streams)
      for (CUgraphNode n : other->capture_deps)
        if (std::find(joined.begin(), joined.end(), n) == joined.end()) r = CUDA_ERROR_STREAM_CAPTURE_UNJOINED;
  }
  for (CUstream other : cap->streams) {
    other->capture.reset();
    other->capture_deps.clear();
  }
  if (r) return r;
  if (out) *out = cap->graph;
  return CUDA_SUCCESS;
}
SHIM_API CUresult cuStreamEndCapture_ptsz(CUstream st, CUgraph* out) { return cuStreamEndCapture(st, out); }

SHIM_API CUresult cuStreamIsCapturing(CUstream st, CUstreamCaptureStatus* status) {
  return capture_info(st, status, nullptr, nullptr, nullptr, nullptr, nullptr);
}
SHIM_API CUresult cuStreamIsCapturing_ptsz(CUstream st, CUstreamCaptureStatus* status) {
  return cuStreamIsCapturing(st, status);
}

#undef cuStreamGetCaptureInfo
SHIM_API CUresult cuStreamGetCaptureInfo(CUstream st, CUstreamCaptureStatus* status, cuuint64_t* id) {
  return capture_info(st, status, id, nullptr, nullptr, nullptr, nullptr);
}
SHIM_API CUresult cuStreamGetCaptureInfo_ptsz(CUstream st, CUstreamCaptureStatus* status, cuuint64_t* id) {
  return cuStreamGetCaptureInfo(st, status, id);
}
SHIM_API CUresult cuStreamGetCaptureInfo_v2(CUstream st, CUstreamCaptureStatus* status, cuuint64_t* id, CUgraph* g,
                                            const CUgraphNode** deps, size_t* num) {
  return capture_info(st, status, id, g, deps, nullptr, num);
}
SHIM_API CUresult cuStreamGetCaptureInfo_v2_ptsz(CUstream st, CUstreamCaptureStatus* status, cuuint64_t* id, CUgraph* g,
                                                 const CUgraphNode** deps, size_t* num) {
  return capture_info(st, status, id, g, deps, nullptr, num);
}
SHIM_API CUresult cuStreamGetCaptureInfo_v3(CUstream st, CUstreamCaptureStatus* status, cuuint64_t* id, CUgraph* g,
                                            const CUgraphNode** deps, const CUgraphEdgeData** data, size_t* num) {
  return capture_info(st, status, id, g, deps, data, num);
}
SHIM_API CUresult cuStreamGetCaptureInfo_v3_ptsz(CUstream st, CUstreamCaptureStatus* status, cuuint64_t* id, CUgraph* g,
                                                 const CUgraphNode** deps, const CUgraphEdgeData** data, size_t* num) {
  return capture_info(st, status, id, g, deps, data, num);
}

#undef cuStreamUpdateCaptureDependencies
SHIM_API CUresult cuStreamUpdateCaptureDependencies(CUstream st, CUgraphNode* deps, size_t n, unsigned int flags) {
  return update_capture_deps(st, deps, nullptr, n, flags);
}
SHIM_API CUresult cuStreamUpdateCaptureDependencies_ptsz(CUstream st, CUgraphNode* deps, size_t n, unsigned int flags) {
  return update_capture_deps(st, deps, nullptr, n, flags);
}
SHIM_API CUresult cuStreamUpdateCaptureDependencies_v2(CUstream st, CUgraphNode* deps, const CUgraphEdgeData* data,
                                                       size_t n, unsigned int flags) {
  return update_capture_deps(st, deps, data, n, flags);
}
SHIM_API CUresult cuStreamUpdateCaptureDependencies_v2_ptsz(CUstream st, CUgraphNode* deps, const CUgraphEdgeData* data,
                                                            size_t n, unsigned int flags) {
  return update_capture_deps(st, deps, data, n, flags);
}

// The calling thread's capture interaction mode (swapped in and out).
SHIM_API CUresult cuThreadExchangeStreamCaptureMode(CUstreamCaptureMode* mode) {
  if (!mode || *mode < CU_STREAM_CAPTURE_MODE_GLOBAL || *mode > CU_STREAM_CAPTURE_MODE_RELAXED)
    return CUDA_ERROR_INVALID_VALUE;
  std::swap(t_capture_mode, *mode);
  return CUDA_SUCCESS;
}
