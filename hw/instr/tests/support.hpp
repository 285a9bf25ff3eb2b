// Helpers shared by the instruction-campaign tests (test_gen.cpp,
// test_wgmma_gen.cpp).
#pragma once
#include <unistd.h>

#include <cstdlib>
#include <filesystem>
#include <string>

namespace ptxcheck::instrgen::test {

// A fresh folder under the system temporary folder, named after `tool`,
// `what` and the process id.
inline std::filesystem::path tmpdir(const std::string& tool, const std::string& what) {
  auto d =
      std::filesystem::temp_directory_path() / ("ptxcheck-" + tool + "-" + what + "-" + std::to_string(::getpid()));
  std::filesystem::create_directories(d);
  return d;
}

// $CUDA_HOME/bin/ptxas, else /usr/local/cuda/bin/ptxas, else "" (tests
// that need it skip).
inline std::string find_ptxas() {
  namespace fs = std::filesystem;
  if (const char* h = std::getenv("CUDA_HOME"); h && fs::exists(std::string(h) + "/bin/ptxas"))
    return std::string(h) + "/bin/ptxas";
  return fs::exists("/usr/local/cuda/bin/ptxas") ? "/usr/local/cuda/bin/ptxas" : "";
}

}  // namespace ptxcheck::instrgen::test
