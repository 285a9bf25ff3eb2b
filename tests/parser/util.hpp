// Shared helpers of the parser tests: locating data, reading files, running
// commands.
#pragma once
#include <cstdlib>
#include <filesystem>
#include <fstream>
#include <sstream>
#include <string>
#include <vector>

namespace ptxtest {

inline std::filesystem::path src_root() {
  const char* s = std::getenv("PTXCHECK_SRC");
  return s ? std::filesystem::path(s) : std::filesystem::current_path();
}

inline std::string read_file(const std::filesystem::path& p) {
  std::ifstream in(p, std::ios::binary);
  std::stringstream ss;
  ss << in.rdbuf();
  return ss.str();
}

// Every *.ptx below `dir`, sorted (corpus folders are filled by other tools).
inline std::vector<std::filesystem::path> ptx_files(const std::filesystem::path& dir) {
  std::vector<std::filesystem::path> out;
  if (!std::filesystem::exists(dir)) return out;
  for (const auto& e : std::filesystem::recursive_directory_iterator(dir))
    if (e.is_regular_file() && e.path().extension() == ".ptx") out.push_back(e.path());
  std::sort(out.begin(), out.end());
  return out;
}

// ptxas from $CUDA_HOME or /usr/local/cuda; empty when absent.
inline std::string find_ptxas() {
  std::vector<std::string> cands;
  if (const char* h = std::getenv("CUDA_HOME")) cands.push_back(std::string(h) + "/bin/ptxas");
  cands.push_back("/usr/local/cuda/bin/ptxas");
  for (const auto& c : cands)
    if (std::filesystem::exists(c)) return c;
  return "";
}

inline std::string find_tool(const std::string& name) {
  auto ptxas = find_ptxas();
  if (ptxas.empty()) return "";
  auto p = std::filesystem::path(ptxas).parent_path() / name;
  return std::filesystem::exists(p) ? p.string() : "";
}

}  // namespace ptxtest
