// The memory limit of `ptxcheck outcomes` (memory_limit.hpp).
#include "semantics/outcomes/memory_limit.hpp"

#include <unistd.h>

#include <algorithm>
#include <fstream>
#include <sstream>
#include <string>

#include "support/error.hpp"

namespace ptxcheck::outcomes {

namespace {

constexpr uint64_t kMiB = 1024 * 1024;

// The first number in `path`, if the file exists and starts with one
// ("max" in cgroup v2's memory.max: none).
bool read_number(const std::string& path, uint64_t& v) {
  std::ifstream f(path);
  return static_cast<bool>(f >> v);
}

// MemAvailable of /proc/meminfo in bytes (Linux's estimate of the memory a
// new workload can get without swapping); 0 if unknown.
uint64_t mem_available() {
  std::ifstream f("/proc/meminfo");
  std::string key;
  uint64_t kb = 0;
  std::string unit;
  while (f >> key >> kb) {
    std::getline(f, unit);
    if (key == "MemAvailable:") return kb * 1024;
  }
  return 0;
}

// The free part of the memory cgroup's limit (v2: memory.max minus
// memory.current; v1: memory.limit_in_bytes minus memory.usage_in_bytes),
// for the process's own cgroup or, where that path is not visible in this
// mount namespace, the mount's root; ~0 if there is no limit.
uint64_t cgroup_free() {
  std::ifstream f("/proc/self/cgroup");
  std::string line, v2_path, v1_path;
  while (std::getline(f, line)) {
    const size_t a = line.find(':'), b = line.find(':', a + 1);
    if (a == std::string::npos || b == std::string::npos) continue;
    const std::string ctrl = line.substr(a + 1, b - a - 1), path = line.substr(b + 1);
    if (line.compare(0, a, "0") == 0 && ctrl.empty()) v2_path = path;
    std::stringstream ss(ctrl);
    for (std::string c; std::getline(ss, c, ',');)
      if (c == "memory") v1_path = path;
  }
  uint64_t best = ~uint64_t{0};
  auto consider = [&](const std::string& dir, const char* max_file, const char* cur_file) {
    uint64_t max = 0, cur = 0;
    if (!read_number(dir + "/" + max_file, max) || !read_number(dir + "/" + cur_file, cur)) return false;
    if (max < (uint64_t{1} << 60)) best = std::min(best, max > cur ? max - cur : 0);
    return true;
  };
  if (!consider("/sys/fs/cgroup" + v2_path, "memory.max", "memory.current"))
    consider("/sys/fs/cgroup", "memory.max", "memory.current");
  if (!v1_path.empty() &&
      !consider("/sys/fs/cgroup/memory" + v1_path, "memory.limit_in_bytes", "memory.usage_in_bytes"))
    consider("/sys/fs/cgroup/memory", "memory.limit_in_bytes", "memory.usage_in_bytes");
  return best;
}

}  // namespace

uint64_t resident_bytes() {
  std::ifstream f("/proc/self/statm");
  uint64_t size = 0, resident = 0;
  if (!(f >> size >> resident)) return 0;
  const long page = sysconf(_SC_PAGESIZE);
  return resident * static_cast<uint64_t>(page > 0 ? page : 4096);
}

uint64_t memory_limit_bytes(uint64_t mib) {
  if (mib) return mib * kMiB;
  uint64_t avail = mem_available();
  const uint64_t cg = cgroup_free();
  if (avail == 0 && cg == ~uint64_t{0}) return 0;
  if (avail == 0 || cg < avail) avail = cg;
  return resident_bytes() + avail / 4 * 3;
}

void MemoryGuard::check() const {
  if (!limit_) return;
  const uint64_t rss = resident_bytes();
  if (rss <= limit_) return;
  throw LimitError("out of memory: the exploration uses " + std::to_string(rss / kMiB) + " MiB, over its limit of " +
                   std::to_string(limit_ / kMiB) + " MiB (" +
                   (mib_ ? std::string("--memory ") + std::to_string(mib_)
                         : std::string("3/4 of the memory available at the start; --memory MIB sets it")) +
                   ")");
}

}  // namespace ptxcheck::outcomes
