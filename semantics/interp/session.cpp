#include "semantics/interp/session.hpp"

#include <algorithm>

#include "parser/parse.hpp"
#include "semantics/interp/lower.hpp"
#include "semantics/interp/lower_ctx.hpp"

namespace ptxcheck::interp {

SessionKernel* SessionModule::kernel(std::string_view name) {
  for (auto& k : kernels)
    if (k.name == name) return &k;
  return nullptr;
}

const SessionModule::Var* SessionModule::var(std::string_view name) const {
  for (const auto& v : vars)
    if (v.name == name) return &v;
  return nullptr;
}

uint64_t Session::alloc(uint64_t bytes, uint64_t align) {
  if (bytes == 0 || bytes > capacity_ - used_) throw LimitError("device memory exhausted");
  uint64_t base = (next_heap_ + align - 1) / align * align;
  // Memory::add_global's rule: 256-aligned, one unused 256-byte block after.
  uint64_t step = ((bytes + 255) / 256 + 1) * 256;
  if (base + step > kDeviceHeapBase) throw LimitError("device address space exhausted (addresses are not reused)");
  if (!mem_.add_global_at("cuMemAlloc@" + std::to_string(heap_.size()), base, std::vector<uint8_t>(bytes, 0)))
    throw std::logic_error("heap allocation overlaps another");
  next_heap_ = base + step;
  heap_[base] = bytes;
  used_ += bytes;
  return base;
}

uint64_t Session::reserve(uint64_t bytes) {
  if (bytes == 0 || bytes > capacity_) throw LimitError("device memory exhausted");
  uint64_t base = (next_heap_ + 255) / 256 * 256;
  uint64_t step = ((bytes + 255) / 256 + 1) * 256;
  if (base + step > kDeviceHeapBase) throw LimitError("device address space exhausted (addresses are not reused)");
  next_heap_ = base + step;
  return base;
}

void Session::alloc_at(uint64_t addr, uint64_t bytes) {
  if (bytes == 0 || bytes > capacity_ - used_) throw LimitError("device memory exhausted");
  if (heap_.count(addr) || !mem_.add_global_at("cuMemAlloc@" + std::to_string(heap_.size()), addr, std::vector<uint8_t>(bytes, 0)))
    throw std::logic_error("heap allocation overlaps another");
  heap_[addr] = bytes;
  used_ += bytes;
}

bool Session::alloc_fixed(uint64_t addr, uint64_t bytes, bool counted) {
  if (bytes == 0) throw LimitError("device memory exhausted");
  if (counted && bytes > capacity_ - used_) throw LimitError("device memory exhausted");
  const uint64_t end = addr + bytes;
  auto overlaps = [&](uint64_t lo, uint64_t hi) { return addr < hi && lo < end; };
  if (end < addr || overlaps(kGlobalBase, kDeviceHeapBase + kDeviceHeapWin) ||
      overlaps(kSharedWin, kGridWorkspace + kWinSize))
    return false;
  for (const auto& [slot, m] : modules_)  // the module's .global variables
    if (overlaps(kModuleBase + slot * kModuleSlot, kModuleBase + (slot + 1) * kModuleSlot)) return false;
  if (heap_.count(addr) ||
      !mem_.add_global_at("host@" + std::to_string(fixed_.size()), addr, std::vector<uint8_t>(bytes, 0)))
    return false;
  heap_[addr] = counted ? bytes : 0;
  fixed_[addr] = bytes;
  used_ += heap_[addr];
  return true;
}

bool Session::free(uint64_t addr) {
  auto it = heap_.find(addr);
  if (it == heap_.end()) return false;
  used_ -= it->second;
  heap_.erase(it);
  fixed_.erase(addr);
  mem_.remove_global(addr);
  return true;
}

std::vector<uint8_t>* Session::init_map(uint64_t base, uint64_t n) {
  Region* r = mem_.global_at(base, n);
  return r && r->base == base && r->bytes.size() == n ? &r->init : nullptr;
}

uint8_t* Session::host_bytes(uint64_t addr, uint64_t n) {
  if (Region* r = mem_.global_at(addr, n)) return r->bytes.data() + (addr - r->base);
  if (addr >= kConstAlias && addr < kConstAlias + uint64_t{kMaxModules} * kModuleSlot) {
    auto it = modules_.find(static_cast<uint32_t>((addr - kConstAlias) / kModuleSlot));
    if (it == modules_.end()) return nullptr;
    auto& bank = it->second->const_bank;
    uint64_t off = (addr - kConstAlias) % kModuleSlot;
    if (off > bank.size() || n > bank.size() - off) return nullptr;
    return bank.data() + off;
  }
  return nullptr;
}

bool Session::allocation(uint64_t addr, uint64_t& base, uint64_t& size) {
  Region* r = mem_.global_at(addr, 1);
  if (!r) return false;
  base = r->base;
  size = r->bytes.size();
  return true;
}

SessionModule& Session::load_module(std::string_view text, const std::string& file) {
  uint32_t slot = 0;
  // A slot is free when no module and no alloc_fixed range holds it.
  auto taken = [&](uint32_t k) {
    const uint64_t lo = kModuleBase + k * kModuleSlot, hi = lo + kModuleSlot;
    auto it = fixed_.lower_bound(hi);
    return modules_.count(k) || (it != fixed_.begin() && std::prev(it)->first + std::prev(it)->second > lo);
  };
  while (slot < kMaxModules && taken(slot)) ++slot;
  if (slot >= kMaxModules) throw LimitError("too many modules loaded (" + std::to_string(kMaxModules) + ")");
  ast::Module am = parse_module(text, file);
  am.file = file;
  auto m = std::make_unique<SessionModule>();
  m->slot = slot;
  m->file = file;
  m->ptx_version = am.version.major * 10 + am.version.minor;
  for (const auto& t : am.targets)
    if (t.rfind("sm_", 0) == 0) m->target = t;
  const uint64_t gbase = kModuleBase + slot * kModuleSlot;
  // Every kernel is lowered now, so that invalid PTX fails the load (as a
  // JIT compilation would) rather than the launch.
  for (const auto& it : am.items)
    if (auto* f = std::get_if<ast::Function>(&it.v); f && f->is_entry && f->has_body && !m->kernel(f->name))
      m->kernels.push_back(SessionKernel{f->name, lower(am, f->name, {}, file, gbase)});
  if (!m->kernels.empty()) {
    const Program& p = m->kernels.front().prog;
    for (const auto& g : p.globals) {
      if (g.addr + g.bytes.size() > gbase + kModuleSlot)
        throw LimitError(file + ": module .global variables exceed 4 GiB");
      m->vars.push_back({g.name, g.addr, g.bytes.size(), false});
    }
    for (const auto& it : am.items)
      if (auto* d = std::get_if<ast::VarDecl>(&it.v); d && d->space == ast::Mod::global)
        for (auto& v : m->vars)
          if (v.name == d->name) {
            v.opaque = d->type == ast::Mod::texref ? 1 : d->type == ast::Mod::surfref ? 2 : d->type == ast::Mod::samplerref ? 3 : 0;
            v.managed = std::find(d->attributes.begin(), d->attributes.end(), ".managed") != d->attributes.end();
          }
    m->const_bank = p.const_bytes;
    // Module-scope .const variables, by the lowering's placement rule
    // (declare_module_var: source order, each at its alignment).
    uint64_t off = 0;
    for (const auto& it : am.items)
      if (auto* d = std::get_if<ast::VarDecl>(&it.v); d && d->space == ast::Mod::const_) {
        uint64_t a = std::max<uint32_t>(1, decl_align(*d));
        off = (off + a - 1) / a * a;
        m->vars.push_back({d->name, kConstAlias + slot * kModuleSlot + off, decl_size(*d), true});
        off += decl_size(*d);
      }
    if (off > m->const_bank.size()) throw std::logic_error("const bank layout differs from the lowering's");
    size_t placed = 0;
    for (const auto& g : p.globals) {
      if (!mem_.add_global_at(g.name, g.addr, g.bytes)) break;
      ++placed;
    }
    if (placed != p.globals.size()) {
      for (size_t i = 0; i < placed; ++i) mem_.remove_global(p.globals[i].addr);
      throw std::logic_error("module globals overlap another allocation");
    }
  }
  SessionModule& ref = *m;
  modules_[slot] = std::move(m);
  return ref;
}

bool Session::is_loaded(const SessionModule* m) const {
  if (!m) return false;
  auto it = modules_.find(m->slot);
  return it != modules_.end() && it->second.get() == m;
}

bool Session::unload_module(const SessionModule* m) {
  if (!is_loaded(m)) return false;
  if (!m->kernels.empty())
    for (const auto& g : m->kernels.front().prog.globals) mem_.remove_global(g.addr);
  modules_.erase(m->slot);
  return true;
}

RunResult Session::launch(SessionModule& m, SessionKernel& k, const LaunchConfig& cfg, std::vector<uint8_t> params,
                          const RunOptions& opt) {
  if (params.size() != k.prog.kparam_bytes)
    throw InputError("cuLaunchKernel", {}, "kernel '" + k.name + "' takes " + std::to_string(k.prog.kparam_bytes) +
                                               " bytes of parameters; " + std::to_string(params.size()) + " given");
  LaunchSpec spec;
  spec.file = "cuLaunchKernel";
  spec.ptx_path = m.file;
  spec.kernel = k.name;
  spec.grid = cfg.grid;
  spec.block = cfg.block;
  spec.dynamic_shared_bytes = cfg.dynamic_shared_bytes;
  spec.cooperative = cfg.cooperative;
  if (cfg.cluster[0]) {
    spec.cluster = cfg.cluster;
    spec.explicit_cluster = true;
  }
  if (k.prog.const_bytes != m.const_bank) k.prog.const_bytes = m.const_bank;  // host writes to .const
  LaunchImage img{&mem_, std::move(params)};
  return run_program(k.prog, spec, opt, img, dheap_);
}

}  // namespace ptxcheck::interp
