// Test helpers (support.hpp).
#include "support.hpp"

#include <sys/wait.h>

#include <algorithm>
#include <array>
#include <cstdio>
#include <cstdlib>
#include <filesystem>
#include <fstream>
#include <sstream>

namespace fs = std::filesystem;

namespace hwtest {

std::string src_root() {
  const char* s = std::getenv("PTXCHECK_SRC");
  return s ? s : ".";
}

std::string shared_root() {
  const char* s = std::getenv("PTXCHECK_SHARED");
  return s ? s : src_root() + "/../shared";
}

std::vector<std::string> litmus_dir_files() {
  std::vector<std::string> out;
  for (const auto& e : fs::directory_iterator(src_root() + "/litmus"))
    if (e.path().extension() == ".litmus") out.push_back(e.path().string());
  std::sort(out.begin(), out.end());
  return out;
}

std::vector<std::string> forms_fixtures() {
  std::vector<std::string> out;
  for (const auto& e : fs::directory_iterator(src_root() + "/hw/litmus/tests/fixtures/forms"))
    if (e.path().extension() == ".litmus") out.push_back(e.path().string());
  std::sort(out.begin(), out.end());
  return out;
}

std::vector<std::string> dat3m_sample(size_t step) {
  std::vector<std::string> all, out;
  fs::path dir = fs::path(shared_root()) / "corpus/dat3m-ptx/litmus";
  if (!fs::is_directory(dir)) return out;
  for (const auto& e : fs::recursive_directory_iterator(dir))
    if (e.path().extension() == ".litmus") all.push_back(e.path().string());
  std::sort(all.begin(), all.end());
  for (size_t i = 0; i < all.size(); i += step) out.push_back(all[i]);
  return out;
}

std::string slurp(const std::string& path) {
  std::ifstream in(path, std::ios::binary);
  std::stringstream ss;
  ss << in.rdbuf();
  return ss.str();
}

int run(const std::string& cmd, std::string& output) {
  output.clear();
  FILE* p = popen((cmd + " 2>&1").c_str(), "r");
  if (!p) return -1;
  std::array<char, 4096> buf;
  size_t n;
  while ((n = fread(buf.data(), 1, buf.size(), p)) > 0) output.append(buf.data(), n);
  int st = pclose(p);
  return WIFEXITED(st) ? WEXITSTATUS(st) : -1;
}

bool have_program(const std::string& name) {
  std::string out;
  // Found and runnable: a wrapper left behind by a removed toolkit counts as absent.
  return run("command -v " + name + " && " + name + " --version", out) == 0;
}

}  // namespace hwtest
