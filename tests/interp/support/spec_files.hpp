// The launch specs of the interpreter's test folders, for the test programs
// that run them (test_kernels.cpp, test_parallel.cpp).
#pragma once
#include <algorithm>
#include <cstdlib>
#include <filesystem>
#include <string>
#include <vector>

namespace ptxcheck::test {

// The source root: $PTXCHECK_SRC (set by meson test), else ".".
inline std::string src_dir() {
  const char* s = std::getenv("PTXCHECK_SRC");
  return s ? s : ".";
}

// Every launch spec NAME.json of `dir` (not the goldens NAME.expected.json),
// sorted; empty when `dir` is not a folder.
inline std::vector<std::filesystem::path> specs_in(const std::filesystem::path& dir) {
  std::vector<std::filesystem::path> out;
  if (!std::filesystem::is_directory(dir)) return out;
  for (const auto& e : std::filesystem::directory_iterator(dir)) {
    std::string n = e.path().filename().string();
    if (e.path().extension() == ".json" && n.find(".expected.") == std::string::npos) out.push_back(e.path());
  }
  std::sort(out.begin(), out.end());
  return out;
}

}  // namespace ptxcheck::test
