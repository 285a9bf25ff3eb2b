// ptxcheck-litmus-host: runs one generated litmus module on a GPU through the
// CUDA driver API and writes a recording (hw/README.md "Running").
//   ptxcheck-litmus-host TEST.sm_90.bundle.json [--ptx FILE] [--params P.json]
//                        [--seed S] [--iterations N] [--device N] --out REC.json
// Each iteration plans a launch (hw/litmus/layout.hpp: CTA shuffle, role and
// location tables, stress choices, all from the seed), resets test memory
// to the locations' initial values, launches, and adds every completed
// instance's outcome tuple to the histogram.
// Exit: 0 recorded; 1 a CUDA call failed (names the call and CUresult);
// 2 usage error or invalid bundle/parameters.
#include <cuda.h>

#include <chrono>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <fstream>
#include <iostream>
#include <sstream>
#include <string>
#include <vector>

#include "hw/litmus/bundle.hpp"
#include "hw/litmus/layout.hpp"
#include "hw/litmus/recording.hpp"

using namespace ptxcheck::hw;

namespace {

void check(CUresult r, const char* call) {
  if (r == CUDA_SUCCESS) return;
  const char* name = nullptr;
  if (cuGetErrorName(r, &name) != CUDA_SUCCESS || !name) name = "unknown CUresult";
  std::fprintf(stderr, "ptxcheck-litmus-host: %s failed: %s (%d)\n", call, name, static_cast<int>(r));
  std::exit(1);
}
#define CK(call) check((call), #call)

std::string slurp(const std::string& path) {
  std::ifstream in(path, std::ios::binary);
  if (!in) throw std::invalid_argument(path + ": cannot read");
  std::stringstream ss;
  ss << in.rdbuf();
  return ss.str();
}

struct Buffer {
  CUdeviceptr ptr = 0;
  size_t bytes = 0;
  void alloc(size_t n) {
    bytes = n ? n : 8;
    CK(cuMemAlloc(&ptr, bytes));
  }
  template <class T>
  void put(const std::vector<T>& v) {
    if (!v.empty()) CK(cuMemcpyHtoD(ptr, v.data(), v.size() * sizeof(T)));
  }
};

[[noreturn]] void usage(const std::string& why) {
  std::fprintf(stderr,
               "ptxcheck-litmus-host: %s\nusage: ptxcheck-litmus-host BUNDLE.json [--ptx FILE] [--params P.json] "
               "[--seed S] [--iterations N] [--device N] --out RECORDING.json\n",
               why.c_str());
  std::exit(2);
}

}  // namespace

int main(int argc, char** argv) {
  std::string bundle_path, ptx_path, params_path, out_path;
  uint64_t seed = 1;
  long iterations = -1;
  int device = 0;
  for (int i = 1; i < argc; ++i) {
    std::string a = argv[i];
    auto next = [&]() -> std::string {
      if (i + 1 >= argc) usage("missing value for " + a);
      return argv[++i];
    };
    try {
      if (a == "--ptx") ptx_path = next();
      else if (a == "--params") params_path = next();
      else if (a == "--seed") seed = std::stoull(next());
      else if (a == "--iterations") iterations = std::stol(next());
      else if (a == "--device") device = std::stoi(next());
      else if (a == "--out") out_path = next();
      else if (!a.empty() && a[0] == '-') usage("unknown option " + a);
      else if (bundle_path.empty()) bundle_path = a;
      else usage("more than one bundle");
    } catch (const std::logic_error&) {
      usage("bad number for " + a);
    }
  }
  if (bundle_path.empty() || out_path.empty()) usage("a bundle and --out are required");
  if (ptx_path.empty()) {
    ptx_path = bundle_path;
    auto at = ptx_path.rfind(".bundle.json");
    if (at == std::string::npos) usage("--ptx needed (bundle name does not end in .bundle.json)");
    ptx_path.replace(at, std::string::npos, ".ptx");
  }
  Bundle b;
  Params params;
  std::string ptx;
  try {
    b = bundle_from_json(nlohmann::json::parse(slurp(bundle_path)));
    if (!params_path.empty()) params = params_from_json(nlohmann::json::parse(slurp(params_path)));
    if (iterations >= 0) params.iterations = static_cast<uint32_t>(iterations);
    ptx = slurp(ptx_path);
  } catch (const std::exception& e) {
    std::fprintf(stderr, "ptxcheck-litmus-host: %s\n", e.what());
    return 2;
  }

  CK(cuInit(0));
  CUdevice dev;
  CK(cuDeviceGet(&dev, device));
  char name[256] = {0};
  CK(cuDeviceGetName(name, sizeof name - 1, dev));
  int major = 0, minor = 0, driver = 0;
  CK(cuDeviceGetAttribute(&major, CU_DEVICE_ATTRIBUTE_COMPUTE_CAPABILITY_MAJOR, dev));
  CK(cuDeviceGetAttribute(&minor, CU_DEVICE_ATTRIBUTE_COMPUTE_CAPABILITY_MINOR, dev));
  CK(cuDriverGetVersion(&driver));
  CUcontext ctx;
  CK(cuDevicePrimaryCtxRetain(&ctx, dev));
  CK(cuCtxSetCurrent(ctx));
  CUmodule mod;
  CK(cuModuleLoadData(&mod, ptx.c_str()));
  CUfunction fn;
  CK(cuModuleGetFunction(&fn, mod, b.kernel.c_str()));

  Rng rng(seed);
  LaunchPlan first;
  try {
    Rng probe(seed);
    first = plan_launch(b, params, probe);
  } catch (const std::invalid_argument& e) {
    std::fprintf(stderr, "ptxcheck-litmus-host: %s\n", e.what());
    return 2;
  }
  const uint32_t cs = static_cast<uint32_t>(b.cluster_size);
  const size_t max_grid = std::max(params.maxWorkgroups / cs, params.testingWorkgroups / cs) * cs;
  const size_t nroles = b.roles.size(), nlocs = b.locs.size(), rec_words = b.nout + 1;
  Buffer roles, bmap, locs, mem, out, scratch, barrier, cfg;
  roles.alloc(first.roles.size() * 4);
  bmap.alloc(max_grid * 4);
  locs.alloc(first.loc_offset.size() * 8);
  mem.alloc(first.mem_bytes);
  out.alloc(size_t{first.instances} * rec_words * 8);
  scratch.alloc(first.scratch_bytes);
  barrier.alloc(4);
  cfg.alloc(kCfgWords * 4);
  CK(cuMemsetD8(scratch.ptr, 0, scratch.bytes));

  Recording rec;
  rec.test = b.test;
  rec.litmus_path = b.litmus_path;
  rec.litmus_text = b.litmus_text;
  rec.arch = b.arch;
  rec.params = params;
  rec.seed = seed;
  rec.gpu = name;
  rec.compute_capability = std::to_string(major) + "." + std::to_string(minor);
  rec.driver_version = driver;
  const uint32_t all_roles = nroles >= 32 ? 0xffffffffu : (1u << nroles) - 1;
  std::vector<uint8_t> mem_host;
  std::vector<uint64_t> out_host;
  std::vector<uint64_t> values(b.obs.size());
  auto start = std::chrono::steady_clock::now();
  for (uint32_t it = 0; it < params.iterations; ++it) {
    LaunchPlan plan = plan_launch(b, params, rng);
    // Initial values (PTX ISA 8.2.6) of every instance's locations.
    mem_host.assign(plan.mem_bytes, 0);
    for (size_t i = 0; i < plan.instances; ++i)
      for (size_t l = 0; l < nlocs; ++l)
        std::memcpy(&mem_host[plan.loc_offset[i * nlocs + l]], &b.locs[l].init, b.locs[l].size);
    roles.put(plan.roles);
    bmap.put(plan.blockmap);
    locs.put(plan.loc_offset);
    cfg.put(plan.cfg);
    mem.put(mem_host);
    CK(cuMemsetD8(out.ptr, 0, out.bytes));
    CK(cuMemsetD32(barrier.ptr, 0, 1));
    void* args[] = {&roles.ptr, &bmap.ptr, &locs.ptr, &mem.ptr, &out.ptr, &scratch.ptr, &barrier.ptr, &cfg.ptr};
    CK(cuLaunchKernel(fn, plan.grid, 1, 1, plan.block, 1, 1, 0, nullptr, args, nullptr));
    CK(cuCtxSynchronize());
    out_host.assign(size_t{plan.instances} * rec_words, 0);
    CK(cuMemcpyDtoH(out_host.data(), out.ptr, out_host.size() * 8));
    CK(cuMemcpyDtoH(mem_host.data(), mem.ptr, mem_host.size()));
    for (size_t i = 0; i < plan.instances; ++i) {
      const uint64_t* o = &out_host[i * rec_words];
      if ((o[b.nout] & all_roles) != all_roles) {
        ++rec.incomplete;
        continue;
      }
      for (size_t k = 0; k < b.obs.size(); ++k) {
        const ObsVar& v = b.obs[k];
        values[k] = 0;
        if (v.is_reg) values[k] = o[v.out];
        else std::memcpy(&values[k], &mem_host[plan.loc_offset[i * nlocs + v.loc]], b.locs[v.loc].size);
      }
      ++rec.histogram[outcome_text(b, values)];
      ++rec.instances;
    }
  }
  rec.seconds = std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count();
  std::ofstream(out_path) << recording_to_json(rec).dump(1) << "\n";
  std::fprintf(stderr, "%s: %llu instances, %llu incomplete, %zu outcomes, %.2f s on %s\n", b.test.c_str(),
               static_cast<unsigned long long>(rec.instances), static_cast<unsigned long long>(rec.incomplete),
               rec.histogram.size(), rec.seconds, name);
  CK(cuModuleUnload(mod));
  CK(cuDevicePrimaryCtxRelease(dev));
  return 0;
}
