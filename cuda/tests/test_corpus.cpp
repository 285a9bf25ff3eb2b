// Every kernel launch spec of the corpus (corpus/kernels/*.json,
// tests/interp/kernels/*.json) through the driver API on the shim, against
// `ptxcheck run` of the same spec in this process: every buffer must come back
// bit-identical, and a launch `ptxcheck run` reports as failing must fail.
// This exercises the shim's parameter packing (every .param signature of
// the corpus), buffer upload/download and dynamic shared memory.
// A spec's "cluster" shape goes through cuLaunchKernelEx.
#include <cuda.h>

#include <catch2/catch.hpp>
#include <cstdlib>
#include <cstring>
#include <filesystem>
#include <string>
#include <vector>

#include "semantics/interp/run.hpp"

namespace fs = std::filesystem;
namespace ip = ptxcheck::interp;

namespace {

std::vector<fs::path> specs() {
  const char* src = std::getenv("PTXCHECK_SRC");
  REQUIRE(src != nullptr);
  std::vector<fs::path> out;
  for (const char* dir : {"corpus/kernels", "tests/interp/kernels"})
    for (const auto& e : fs::directory_iterator(fs::path(src) / dir)) {
      std::string n = e.path().filename().string();
      if (e.path().extension() == ".json" && n.find(".expected.") == std::string::npos) out.push_back(e.path());
    }
  std::sort(out.begin(), out.end());
  return out;
}

std::string read_text(const std::string& path) {
  std::FILE* f = std::fopen(path.c_str(), "rb");
  REQUIRE(f != nullptr);
  std::string s;
  char buf[65536];
  size_t n;
  while ((n = std::fread(buf, 1, sizeof buf, f)) > 0) s.append(buf, n);
  std::fclose(f);
  return s;
}

}  // namespace

TEST_CASE("corpus launch specs run identically through the shim", "[corpus]") {
  REQUIRE(cuInit(0) == CUDA_SUCCESS);
  ip::RunOptions opt;
  opt.check_races = false;
  int compared = 0, clustered = 0;
  for (const auto& path : specs()) {
    INFO(path.string());
    ip::RunReport ref = ip::run_spec_file(path.string(), opt);
    const ip::LaunchSpec& sp = ref.spec;
    CUcontext ctx;
    REQUIRE(cuCtxCreate(&ctx, nullptr, 0, 0) == CUDA_SUCCESS);
    CUmodule mod;
    std::string ptx = read_text(sp.ptx_path);
    REQUIRE(cuModuleLoadData(&mod, ptx.c_str()) == CUDA_SUCCESS);
    CUfunction f;
    REQUIRE(cuModuleGetFunction(&f, mod, sp.kernel.c_str()) == CUDA_SUCCESS);
    std::vector<CUdeviceptr> bufs;
    for (const auto& b : sp.buffers) {
      CUdeviceptr p;
      REQUIRE(cuMemAlloc(&p, std::max<size_t>(b.init.size(), 1)) == CUDA_SUCCESS);
      if (!b.init.empty()) REQUIRE(cuMemcpyHtoD(p, b.init.data(), b.init.size()) == CUDA_SUCCESS);
      bufs.push_back(p);
    }
    std::vector<uint64_t> vals(sp.args.size());
    std::vector<CUtensorMap> maps(sp.args.size());
    std::vector<void*> args;
    for (size_t i = 0; i < sp.args.size(); ++i) {
      const ip::ArgSpec& a = sp.args[i];
      if (!a.tensormap.empty()) {  // a "tensormaps" entry, encoded by the driver API
        const ip::TensorMapSpec& t = *sp.tensormap(a.tensormap);
        void* base = reinterpret_cast<void*>(bufs[static_cast<size_t>(sp.buffer_index(t.buffer))] + t.tm.addr);
        cuuint64_t dims[5], strides[4];
        cuuint32_t box[5], es[5];
        for (unsigned d = 0; d < t.tm.rank; ++d) {
          dims[d] = t.tm.dims[d];
          if (d) strides[d - 1] = t.tm.strides[d];
          box[d] = t.tm.box[d];
          es[d] = t.tm.estride[d];
        }
        auto il = static_cast<CUtensorMapInterleave>(t.tm.interleave);
        auto sw = static_cast<CUtensorMapSwizzle>(t.tm.swizzle);
        auto l2 = static_cast<CUtensorMapL2promotion>(t.tm.l2);
        auto oob = static_cast<CUtensorMapFloatOOBfill>(t.tm.oob_nan);
        auto dt = static_cast<CUtensorMapDataType>(t.tm.dtype);
        if (t.tm.mode == 1) {
          int lo[3], hi[3];
          for (unsigned k = 0; k < 3; ++k) lo[k] = t.tm.lower[k], hi[k] = t.tm.upper[k];
          REQUIRE(cuTensorMapEncodeIm2col(&maps[i], dt, t.tm.rank, base, dims, strides, lo, hi, t.tm.channels,
                                          t.tm.pixels, es, il, sw, l2, oob) == CUDA_SUCCESS);
        } else {
          REQUIRE(cuTensorMapEncodeTiled(&maps[i], dt, t.tm.rank, base, dims, strides, box, es, il, sw, l2, oob) ==
                  CUDA_SUCCESS);
        }
        args.push_back(&maps[i]);
        continue;
      }
      vals[i] = a.is_buffer ? bufs[static_cast<size_t>(sp.buffer_index(a.buffer))] : a.bits;
      args.push_back(&vals[i]);  // little-endian: the low a.size() bytes
    }
    if (sp.dynamic_shared_bytes > 48 * 1024)
      REQUIRE(cuFuncSetAttribute(f, CU_FUNC_ATTRIBUTE_MAX_DYNAMIC_SHARED_SIZE_BYTES,
                                 static_cast<int>(sp.dynamic_shared_bytes)) == CUDA_SUCCESS);
    std::fflush(stdout);
    CUlaunchAttribute cluster = {};
    cluster.id = CU_LAUNCH_ATTRIBUTE_CLUSTER_DIMENSION;
    cluster.value.clusterDim.x = sp.cluster[0];
    cluster.value.clusterDim.y = sp.cluster[1];
    cluster.value.clusterDim.z = sp.cluster[2];
    CUlaunchConfig cfg = {sp.grid[0], sp.grid[1], sp.grid[2], sp.block[0], sp.block[1], sp.block[2],
                          sp.dynamic_shared_bytes, nullptr, &cluster, sp.explicit_cluster ? 1u : 0u};
    clustered += sp.explicit_cluster;
    CUresult launched = cuLaunchKernelEx(&cfg, f, args.empty() ? nullptr : args.data(), nullptr);
    REQUIRE(launched == CUDA_SUCCESS);
    CUresult synced = cuCtxSynchronize();
    bool fatal = false;
    for (const auto& d : ref.result.diagnostics)
      if (d.severity == "error" && d.kind != "data-race") fatal = true;
    CHECK((synced == CUDA_SUCCESS) == !fatal);
    if (synced == CUDA_SUCCESS) {
      for (size_t b = 0; b < sp.buffers.size(); ++b) {
        INFO("buffer " << sp.buffers[b].name);
        std::vector<uint8_t> got(sp.buffers[b].init.size());
        if (!got.empty()) REQUIRE(cuMemcpyDtoH(got.data(), bufs[b], got.size()) == CUDA_SUCCESS);
        CHECK(got == ref.result.buffers[b]);
      }
      ++compared;
    }
    REQUIRE(cuCtxDestroy(ctx) == CUDA_SUCCESS);
  }
  std::printf("%d launch specs compared through the shim (%d with a cluster shape)\n", compared, clustered);
  CHECK(compared >= 60);
}
