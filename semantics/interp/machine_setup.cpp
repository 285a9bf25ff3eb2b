// Launch checks and memory set-up of a Machine: the block, cluster and
// cooperative shape against the kernel's directives, then the module's
// globals, the spec's buffers, textures and references, the device heap and
// the kernel parameters.
#include <stdexcept>
#include <string>

#include "semantics/interp/device_heap.hpp"
#include "semantics/interp/machine_state.hpp"
#include "semantics/interp/tensormap.hpp"

namespace ptxcheck::interp {

namespace {
constexpr uint64_t kMaxCoopThreads = 1u << 20;  // threads of a cooperative launch, all resident at once
}  // namespace

// The launch must satisfy the kernel's .reqntid/.maxntid/.reqnctapercluster
// (PTX ISA 11.4); a spec "cluster" overrides the cluster directive only when
// they agree.
void Machine::check_launch() {
  auto dims = [](const std::array<uint32_t, 3>& d) {
    return std::to_string(d[0]) + "x" + std::to_string(d[1]) + "x" + std::to_string(d[2]);
  };
  if (prog.reqntid[0] && prog.reqntid != spec.block)
    throw InputError(
        spec.file, {1, 1},
        "kernel '" + spec.kernel + "' requires .reqntid " + dims(prog.reqntid) + "; block is " + dims(spec.block));
  if (prog.maxntid[0] && uint64_t{spec.block[0]} * spec.block[1] * spec.block[2] >
                             uint64_t{prog.maxntid[0]} * prog.maxntid[1] * prog.maxntid[2])
    throw InputError(spec.file, {1, 1},
                     "block " + dims(spec.block) + " exceeds the kernel's .maxntid " + dims(prog.maxntid));
  cl_ = spec.cluster;
  explicit_cl_ = spec.explicit_cluster || prog.explicitcluster;
  if (prog.reqnctapercluster[0]) {
    if (spec.explicit_cluster && spec.cluster != prog.reqnctapercluster)
      throw InputError(spec.file, {1, 1},
                       "\"cluster\" " + dims(spec.cluster) + " differs from the kernel's .reqnctapercluster " +
                           dims(prog.reqnctapercluster));
    cl_ = prog.reqnctapercluster;
    explicit_cl_ = true;
  }
  for (int d = 0; d < 3; ++d)
    if (!cl_[d] || spec.grid[d] % cl_[d])
      throw InputError(spec.file, {1, 1},
                       "grid " + dims(spec.grid) + " is not a multiple of the cluster shape " + dims(cl_));
  coop_ = spec.cooperative;
  if (coop_ && cluster_size() != 1)
    throw InputError(spec.file, {1, 1},
                     "a cooperative launch with clusters of more than one CTA (" + dims(cl_) + ") is not supported");
  // All CTAs of a cooperative launch are resident at once (run()).
  const uint64_t coop_threads =
      uint64_t{spec.grid[0]} * spec.grid[1] * spec.grid[2] * spec.block[0] * spec.block[1] * spec.block[2];
  if (coop_ && coop_threads > kMaxCoopThreads)
    throw LimitError("a cooperative launch runs all its CTAs at once: " + std::to_string(coop_threads) +
                     " threads exceed the limit of " + std::to_string(kMaxCoopThreads));
}

void Machine::setup_memory() {
  // The device heap, before anything holds a pointer to a global allocation.
  bool heap = false;
  for (const Function& f : prog.funcs) heap |= !f.defined && (f.name == "malloc" || f.name == "free");
  if (heap) {
    if (!heap_) {
      own_heap_ = std::make_shared<DeviceHeap>();
      heap_ = own_heap_.get();
    }
    if (!image_) {  // after the spec's allocations (finish() finds buffers by index)
      setup_memory_spec();
      heap_->place(mem);
      return;
    }
    heap_->place(mem);
  }
  setup_memory_spec();
}

void Machine::setup_memory_spec() {
  if (image_) {  // caller-owned globals, raw parameter bytes (LaunchImage)
    mem.constant().bytes = prog.const_bytes;
    mem.params().bytes = image_->params;
    mem.params().bytes.resize(prog.kparam_bytes, 0);
    return;
  }
  for (const auto& g : prog.globals) {
    uint64_t a = mem.add_global(g.name, g.bytes);
    if (a != g.addr) throw std::logic_error("global layout mismatch");
  }
  for (size_t i = 0; i < spec.buffers.size(); ++i) {
    const BufferSpec& b = spec.buffers[i];
    if (taken_)
      buffer_addr.push_back(mem.add_global(b.name, std::move(taken_->buffers[i].init)));
    else
      buffer_addr.push_back(mem.add_global(b.name, b.init));
  }
  // The spec's texture and surface objects, over the placed buffers.
  for (const auto& t : spec.textures) {
    TexDesc d = t.desc;
    d.addr += buffer_addr[static_cast<size_t>(spec.buffer_index(t.buffer))];
    spec_textures_[t.handle] = d;
  }
  // "references": a .texref/.surfref/.samplerref variable's address names
  // its binding (texture.hpp: TexSite::handle).
  for (const auto& r : spec.refs) {
    const Program::GlobalVar* g = nullptr;
    for (const auto& v : prog.globals)
      if (v.name == r.var) g = &v;
    if (!g)
      throw InputError(spec.file, r.pos,
                       "the PTX declares no module-scope .texref, .surfref or .samplerref variable '" + r.var + "'");
    spec_textures_[g->addr] = r.sampler ? r.smp : spec_textures_.at(spec.texobj(r.object, r.surface)->handle);
  }
  if (!spec_textures_.empty()) textures_ = &spec_textures_;
  auto ref = [&](const ArgSpec& a) -> uint64_t {
    if (a.is_buffer) return buffer_addr[static_cast<size_t>(spec.buffer_index(a.buffer))];
    return a.texture.empty() ? spec.texobj(a.surface, true)->handle : spec.texobj(a.texture, false)->handle;
  };
  mem.constant().bytes = prog.const_bytes;
  // Kernel parameters: check the argument list against the .param list
  // (PTX ISA 5.1.6.1), then lay the values out.
  const auto& kp = prog.kparams;
  if (spec.args.size() != kp.size())
    throw InputError(spec.file, spec.args_pos,
                     "kernel '" + spec.kernel + "' takes " + std::to_string(kp.size()) + " parameter(s); args gives " +
                         std::to_string(spec.args.size()));
  auto& pb = mem.params().bytes;
  pb.assign(prog.kparam_bytes, 0);
  for (size_t i = 0; i < kp.size(); ++i) {
    const ArgSpec& a = spec.args[i];
    if (a.size() != kp[i].size)
      throw InputError(spec.file, a.pos,
                       "argument " + std::to_string(i + 1) + " has " + std::to_string(a.size()) +
                           " bytes; parameter '" + kp[i].name + "' has " + std::to_string(kp[i].size));
    if (a.size() % kp[i].align && kp[i].align > a.size())
      throw InputError(spec.file, a.pos,
                       "argument " + std::to_string(i + 1) + " cannot satisfy the alignment " +
                           std::to_string(kp[i].align) + " of parameter '" + kp[i].name + "'");
    if (!a.tensormap.empty()) {  // a tensor-map object by value (tensormap.hpp)
      const TensorMapSpec& t = *spec.tensormap(a.tensormap);
      TensorMap tm = t.tm;
      tm.addr += buffer_addr[static_cast<size_t>(spec.buffer_index(t.buffer))];
      tensormap_encode(tm, &pb[kp[i].offset]);
      continue;
    }
    arg_bytes(a, ref, &pb[kp[i].offset]);
  }
}

}  // namespace ptxcheck::interp
