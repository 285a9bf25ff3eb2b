// Every kernel launch spec of the corpus (corpus/kernels/*.json,
// corpus/kernels/features/*.json) through the driver API on the shim, against
// `ptxcheck run` of the same spec in this process: every buffer must come back
// bit-identical, and a launch `ptxcheck run` reports as failing must fail.
// This exercises the shim's parameter packing (every .param signature of
// the corpus), buffer upload/download and dynamic shared memory.
// A spec's "cluster" shape goes through cuLaunchKernelEx.
#include <cuda.h>

#include <catch2/catch.hpp>
#include <cctype>
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
  for (const char* dir : {"corpus/kernels", "corpus/kernels/features"})
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

// The module's .target, read here from the text: whether a compute
// capability 9.0 device runs it (plain targets up to sm_90; "a" targets
// only sm_90a; "f" targets sm_90f).
bool runs_on_sm90(const std::string& ptx) {
  size_t p = ptx.find("\n.target sm_");
  if (p == std::string::npos) return true;
  p += 12;
  unsigned arch = 0;
  while (p < ptx.size() && std::isdigit(static_cast<unsigned char>(ptx[p]))) arch = arch * 10 + unsigned(ptx[p++] - '0');
  const char suffix = p < ptx.size() ? ptx[p] : ' ';
  if (suffix == 'a') return arch == 90;
  if (suffix == 'f') return arch == 90;
  return arch <= 90;
}

}  // namespace

TEST_CASE("corpus launch specs run identically through the shim", "[corpus]") {
  REQUIRE(cuInit(0) == CUDA_SUCCESS);
  ip::RunOptions opt;
  opt.check_races = false;
  int compared = 0, clustered = 0, refused = 0, with_refs = 0;
  for (const auto& path : specs()) {
    INFO(path.string());
    ip::RunReport ref = ip::run_spec_file(path.string(), opt);
    const ip::LaunchSpec& sp = ref.spec;
    if (!sp.refs.empty()) {
      // "references" bind .texref/.surfref/.samplerref variables by name; the
      // driver has no call that binds a .samplerref (independent mode is
      // OpenCL's), so these specs are the interpreter's alone; test_errors
      // binds references through cuModuleGetTexRef / cuTexRefSet*.
      ++with_refs;
      continue;
    }
    CUcontext ctx;
    REQUIRE(cuCtxCreate(&ctx, nullptr, 0, 0) == CUDA_SUCCESS);
    CUmodule mod;
    std::string ptx = read_text(sp.ptx_path);
    if (!runs_on_sm90(ptx)) {
      // A driver's JIT refuses PTX for a newer or another architecture-specific target.
      CHECK(cuModuleLoadData(&mod, ptx.c_str()) == CUDA_ERROR_INVALID_PTX);
      ++refused;
      REQUIRE(cuCtxDestroy(ctx) == CUDA_SUCCESS);
      continue;
    }
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
    // "arrays": a CUDA array each, filled from its buffer; "textures" and
    // "surfaces": objects through cuTexObjectCreate / cuSurfObjectCreate.
    // A mipmapped array ("levels") through cuMipmappedArrayCreate, each
    // level filled through cuMipmappedArrayGetLevel.
    std::vector<CUarray> arrays;
    std::vector<CUmipmappedArray> mipmaps;
    std::vector<std::vector<CUarray>> levels;  // per array: its level arrays (mipmapped only)
    auto copy3d = [&](const ip::ArraySpec& as, CUarray arr, const ip::TexLevel& L, bool to_array) {
      CUDA_MEMCPY3D c = {};
      CUdeviceptr dev = bufs[static_cast<size_t>(sp.buffer_index(as.buffer))] + L.offset;
      if (to_array) {
        c.srcMemoryType = CU_MEMORYTYPE_DEVICE, c.srcDevice = dev, c.srcPitch = L.pitch, c.srcHeight = L.height;
        c.dstMemoryType = CU_MEMORYTYPE_ARRAY, c.dstArray = arr;
      } else {
        c.srcMemoryType = CU_MEMORYTYPE_ARRAY, c.srcArray = arr;
        c.dstMemoryType = CU_MEMORYTYPE_DEVICE, c.dstDevice = dev, c.dstPitch = L.pitch, c.dstHeight = L.height;
      }
      c.WidthInBytes = L.pitch, c.Height = L.height, c.Depth = L.depth;
      REQUIRE(cuMemcpy3D(&c) == CUDA_SUCCESS);
    };
    auto copy_all = [&](size_t k, bool to_array) {
      const ip::TexDesc& d = sp.arrays[k].desc;
      if (d.levels.empty()) {
        copy3d(sp.arrays[k], arrays[k], ip::TexLevel{0, d.width, d.height, d.depth, d.pitch, d.slice}, to_array);
        return;
      }
      for (size_t l = 0; l < d.levels.size(); ++l) copy3d(sp.arrays[k], levels[k][l], d.levels[l], to_array);
    };
    for (const auto& as : sp.arrays) {
      const ip::TexDesc& d = as.desc;
      CUDA_ARRAY3D_DESCRIPTOR ad = {};
      ad.Width = d.width;
      ad.Height = d.dims >= 2 ? d.height : 0;
      ad.Depth = d.dims == 3 || d.layered ? d.depth : 0;
      ad.Format = static_cast<CUarray_format>(ip::tex_format_cu(d.kind, d.chan_bytes));
      ad.NumChannels = d.channels;
      ad.Flags = CUDA_ARRAY3D_SURFACE_LDST | (d.cubemap ? CUDA_ARRAY3D_CUBEMAP : 0u) |
                 (d.layered && (!d.cubemap || d.cube_layered) ? CUDA_ARRAY3D_LAYERED : 0u);
      CUarray arr = nullptr;
      CUmipmappedArray mm = nullptr;
      std::vector<CUarray> lv;
      if (d.levels.empty()) {
        REQUIRE(cuArray3DCreate(&arr, &ad) == CUDA_SUCCESS);
      } else {
        REQUIRE(cuMipmappedArrayCreate(&mm, &ad, static_cast<unsigned>(d.levels.size())) == CUDA_SUCCESS);
        for (unsigned l = 0; l < d.levels.size(); ++l) {
          CUarray la;
          REQUIRE(cuMipmappedArrayGetLevel(&la, mm, l) == CUDA_SUCCESS);
          lv.push_back(la);
        }
      }
      arrays.push_back(arr);
      mipmaps.push_back(mm);
      levels.push_back(lv);
      copy_all(arrays.size() - 1, true);
    }
    std::vector<uint64_t> handles;
    for (const auto& t : sp.textures) {
      const ip::TexDesc& d = t.desc;
      CUDA_RESOURCE_DESC rd = {};
      if (!t.array.empty()) {
        rd.resType = CU_RESOURCE_TYPE_ARRAY;
        for (size_t k = 0; k < sp.arrays.size(); ++k) {
          if (sp.arrays[k].name != t.array) continue;
          rd.res.array.hArray = arrays[k];
          if (!mipmaps[k]) continue;
          if (!d.levels.empty()) {  // the whole mipmapped array
            rd.resType = CU_RESOURCE_TYPE_MIPMAPPED_ARRAY;
            rd.res.mipmap.hMipmappedArray = mipmaps[k];
          } else {  // one level ("level"): the level whose texels it names
            for (size_t l = 0; l < levels[k].size(); ++l)
              if (sp.arrays[k].desc.levels[l].offset == d.addr) rd.res.array.hArray = levels[k][l];
          }
        }
      } else {
        const auto fmt = static_cast<CUarray_format>(ip::tex_format_cu(d.kind, d.chan_bytes));
        const CUdeviceptr p = bufs[static_cast<size_t>(sp.buffer_index(t.buffer))] + d.addr;
        if (d.dims == 1) {
          rd.resType = CU_RESOURCE_TYPE_LINEAR;
          rd.res.linear = {p, fmt, d.channels, d.width * d.elem_bytes()};
        } else {
          rd.resType = CU_RESOURCE_TYPE_PITCH2D;
          rd.res.pitch2D = {p, fmt, d.channels, d.width, d.height, d.pitch};
        }
      }
      unsigned long long h = 0;
      if (d.surface) {
        REQUIRE(cuSurfObjectCreate(&h, &rd) == CUDA_SUCCESS);
      } else {
        CUDA_TEXTURE_DESC td = {};
        for (unsigned k = 0; k < 3; ++k) td.addressMode[k] = static_cast<CUaddress_mode>(d.addr_mode[k]);
        td.filterMode = d.linear ? CU_TR_FILTER_MODE_LINEAR : CU_TR_FILTER_MODE_POINT;
        td.flags = (d.normalized ? CU_TRSF_NORMALIZED_COORDINATES : 0u) | (d.read_as_integer ? CU_TRSF_READ_AS_INTEGER : 0u);
        for (unsigned k = 0; k < 4; ++k) td.borderColor[k] = d.border[k];
        td.mipmapFilterMode = d.mip_linear ? CU_TR_FILTER_MODE_LINEAR : CU_TR_FILTER_MODE_POINT;
        td.mipmapLevelBias = d.mip_bias;
        td.minMipmapLevelClamp = d.mip_min;
        td.maxMipmapLevelClamp = d.mip_max;
        REQUIRE(cuTexObjectCreate(&h, &rd, &td, nullptr) == CUDA_SUCCESS);
      }
      handles.push_back(h);
    }
    auto ref_of = [&](const ip::ArgSpec& a) -> uint64_t {
      if (a.is_buffer) return bufs[static_cast<size_t>(sp.buffer_index(a.buffer))];
      const ip::TexObjSpec* t = a.texture.empty() ? sp.texobj(a.surface, true) : sp.texobj(a.texture, false);
      return handles[static_cast<size_t>(t - sp.textures.data())];
    };
    std::vector<std::vector<uint8_t>> vals(sp.args.size());
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
        auto sw = static_cast<CUtensorMapSwizzle>(ip::tensormap_cu_swizzle(t.tm));
        auto l2 = static_cast<CUtensorMapL2promotion>(t.tm.l2);
        auto oob = static_cast<CUtensorMapFloatOOBfill>(t.tm.oob_nan);
        auto dt = static_cast<CUtensorMapDataType>(t.tm.dtype);
        if (t.tm.mode == 1) {
          int lo[3], hi[3];
          for (unsigned k = 0; k < 3; ++k) lo[k] = t.tm.lower[k], hi[k] = t.tm.upper[k];
          REQUIRE(cuTensorMapEncodeIm2col(&maps[i], dt, t.tm.rank, base, dims, strides, lo, hi, t.tm.channels,
                                          t.tm.pixels, es, il, sw, l2, oob) == CUDA_SUCCESS);
        } else if (t.tm.mode == 2 || t.tm.mode == 3) {  // "im2col_wide"
          auto mode = t.tm.mode == 2 ? CU_TENSOR_MAP_IM2COL_WIDE_MODE_W : CU_TENSOR_MAP_IM2COL_WIDE_MODE_W128;
          REQUIRE(cuTensorMapEncodeIm2colWide(&maps[i], dt, t.tm.rank, base, dims, strides, t.tm.lower[0],
                                              t.tm.upper[0], t.tm.channels, t.tm.pixels, es, il, mode, sw, l2,
                                              oob) == CUDA_SUCCESS);
        } else {
          REQUIRE(cuTensorMapEncodeTiled(&maps[i], dt, t.tm.rank, base, dims, strides, box, es, il, sw, l2, oob) ==
                  CUDA_SUCCESS);
        }
        args.push_back(&maps[i]);
        continue;
      }
      vals[i].resize(a.size());
      ip::arg_bytes(a, ref_of, vals[i].data());
      args.push_back(vals[i].data());
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
    if (sp.cooperative) {  // "cooperative": true (never with a cluster shape)
      cluster.id = CU_LAUNCH_ATTRIBUTE_COOPERATIVE;
      cluster.value.cooperative = 1;
    }
    CUlaunchConfig cfg = {sp.grid[0], sp.grid[1], sp.grid[2], sp.block[0], sp.block[1], sp.block[2],
                          sp.dynamic_shared_bytes, nullptr, &cluster,
                          sp.explicit_cluster || sp.cooperative ? 1u : 0u};
    clustered += sp.explicit_cluster;
    CUresult launched = cuLaunchKernelEx(&cfg, f, args.empty() ? nullptr : args.data(), nullptr);
    REQUIRE(launched == CUDA_SUCCESS);
    CUresult synced = cuCtxSynchronize();
    bool fatal = false;
    for (const auto& d : ref.result.diagnostics)
      if (d.severity == "error" && d.kind != "data-race") fatal = true;
    CHECK((synced == CUDA_SUCCESS) == !fatal);
    if (synced == CUDA_SUCCESS) {
      for (size_t k = 0; k < arrays.size(); ++k) copy_all(k, false);  // what sust wrote
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
  std::printf("%d launch specs compared through the shim (%d with a cluster shape); %d refused (.target not for sm_90); "
              "%d with references skipped\n",
              compared, clustered, refused, with_refs);
  CHECK(refused >= 1);
  CHECK(compared >= 60);
}
