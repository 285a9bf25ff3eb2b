// `ptxcheck exec` (exec.hpp).
#include "cuda/exec/exec.hpp"

#include <sys/stat.h>
#include <sys/wait.h>
#include <unistd.h>

#include <cerrno>
#include <csignal>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <fstream>
#include <nlohmann/json.hpp>
#include <string>

namespace ptxcheck::cuda_exec {

namespace {

using nlohmann::json;

std::string dim(const json& a) {
  if (!a.is_array() || a.size() != 3) return "?";
  return "(" + std::to_string(a[0].get<uint64_t>()) + "," + std::to_string(a[1].get<uint64_t>()) + "," +
         std::to_string(a[2].get<uint64_t>()) + ")";
}

// The child: the program with the shim first on the library path.
[[noreturn]] void exec_child(const Options& opt, const std::string& report) {
  std::string path = opt.shim_dir;
  if (const char* old = std::getenv("LD_LIBRARY_PATH"); old && *old) path += std::string(":") + old;
  setenv("LD_LIBRARY_PATH", path.c_str(), 1);
  setenv("PTXCHECK_SHIM_REPORT", report.c_str(), 1);
  setenv("PTXCHECK_SHIM_RACES", opt.races == "off" ? "0" : opt.races == "strict" ? "strict" : "1", 1);
  if (opt.max_steps) setenv("PTXCHECK_SHIM_MAX_STEPS", std::to_string(opt.max_steps).c_str(), 1);
  if (!opt.device.empty()) setenv("PTXCHECK_DEVICE", opt.device.c_str(), 1);
  if (!opt.ptx_dir.empty()) setenv("PTXCHECK_SHIM_PTX_DIR", opt.ptx_dir.c_str(), 1);
  if (opt.jobs) setenv("PTXCHECK_JOBS", std::to_string(opt.jobs).c_str(), 1);
  std::vector<char*> argv;
  for (const auto& a : opt.argv) argv.push_back(const_cast<char*>(a.c_str()));
  argv.push_back(nullptr);
  execvp(argv[0], argv.data());
  std::fprintf(stderr, "ptxcheck exec: %s: %s\n", opt.argv[0].c_str(), std::strerror(errno));
  _exit(127);
}

}  // namespace

int run(const Options& opt) {
  struct stat st{};
  if (stat((opt.shim_dir + "/libcuda.so.1").c_str(), &st) != 0) {
    std::fprintf(stderr, "ptxcheck exec: no libcuda.so.1 in '%s' (build the shim, or set PTXCHECK_SHIM_DIR)\n",
                 opt.shim_dir.c_str());
    return 2;
  }
  char tmpl[] = "/tmp/ptxcheck-exec-XXXXXX";
  int fd = mkstemp(tmpl);
  if (fd < 0) {
    std::fprintf(stderr, "ptxcheck exec: cannot create a temporary file: %s\n", std::strerror(errno));
    return 2;
  }
  close(fd);
  const std::string report = tmpl;
  std::fflush(nullptr);
  pid_t pid = fork();
  if (pid < 0) {
    std::fprintf(stderr, "ptxcheck exec: fork: %s\n", std::strerror(errno));
    unlink(report.c_str());
    return 2;
  }
  if (pid == 0) exec_child(opt, report);
  int wstatus = 0;
  while (waitpid(pid, &wstatus, 0) < 0 && errno == EINTR) {
  }
  int status = WIFEXITED(wstatus) ? WEXITSTATUS(wstatus) : 128 + WTERMSIG(wstatus);

  // The shim's records: a launch line, then that launch's diagnostics.
  json launches = json::array();
  uint64_t errors = 0, warnings = 0;
  {
    std::ifstream in(report);
    std::string line;
    while (std::getline(in, line)) {
      json r = json::parse(line, nullptr, false);
      if (r.is_discarded() || !r.is_object()) continue;  // a line cut short by a crash of the program
      if (r.contains("grid")) {
        r["diagnostics"] = json::array();
        launches.push_back(std::move(r));
      } else if (!launches.empty()) {
        (r.value("severity", "") == "error" ? errors : warnings) += 1;
        r.erase("launch");
        launches.back()["diagnostics"].push_back(std::move(r));
      }
    }
  }
  unlink(report.c_str());
  const uint64_t diags = errors + warnings;
  std::string sig = WIFSIGNALED(wstatus) ? std::string(" (killed by ") + strsignal(WTERMSIG(wstatus)) + ")" : "";
  std::fprintf(stderr, "========= ptxcheck exec: %zu kernel launch%s, %llu diagnostic%s (%llu error%s, %llu warning%s); "
               "program exit status %d%s\n",
               launches.size(), launches.size() == 1 ? "" : "es", static_cast<unsigned long long>(diags),
               diags == 1 ? "" : "s", static_cast<unsigned long long>(errors), errors == 1 ? "" : "s",
               static_cast<unsigned long long>(warnings), warnings == 1 ? "" : "s", status, sig.c_str());
  for (const auto& l : launches)
    for (const auto& d : l["diagnostics"]) {
      std::string src = d.contains("cuda_file")
                            ? d["cuda_file"].get<std::string>() + ":" + std::to_string(d["cuda_line"].get<uint64_t>()) +
                                  ":" + std::to_string(d.value("cuda_col", 0u))
                            : "";
      std::fprintf(stderr, "=========   %s %s: %s\n=========     kernel %s (launch %llu), CTA %s, thread %s, at %s%s%s\n",
                   d.value("severity", "").c_str(), d.value("kind", "").c_str(), d.value("message", "").c_str(),
                   l.value("kernel", "").c_str(), static_cast<unsigned long long>(l.value("launch", 0ull)),
                   dim(d["cta"]).c_str(), dim(d["thread"]).c_str(), src.empty() ? "" : (src + ", PTX ").c_str(),
                   (d.value("ptx_file", "") + ":" + std::to_string(d.value("ptx_line", 0u)) + ":" +
                    std::to_string(d.value("ptx_col", 0u)))
                       .c_str(),
                   d.value("count", 1u) > 1 ? (" [" + std::to_string(d.value("count", 1u)) + " times]").c_str() : "");
    }
  if (!opt.report.empty()) {
    json out = {{"program", opt.argv},
                {"device", opt.device.empty() ? "sm_90" : opt.device},
                {"races", opt.races},
                {"exit_status", status},
                {"launches", launches},
                {"summary", {{"launches", launches.size()}, {"diagnostics", diags}, {"errors", errors},
                             {"warnings", warnings}}}};
    std::string tmp = opt.report + ".tmp";
    {
      std::ofstream f(tmp, std::ios::binary);
      f << out.dump(1) << "\n";
      if (!f) {
        std::fprintf(stderr, "ptxcheck exec: cannot write %s\n", opt.report.c_str());
        unlink(tmp.c_str());
        return 2;
      }
    }
    if (std::rename(tmp.c_str(), opt.report.c_str()) != 0) {
      std::fprintf(stderr, "ptxcheck exec: cannot write %s: %s\n", opt.report.c_str(), std::strerror(errno));
      unlink(tmp.c_str());
      return 2;
    }
  }
  // A launch the step budget ended (a resource limit, and likely a hung
  // kernel): exit 3, whatever the program made of its launch's
  // CUDA_ERROR_LAUNCH_TIMEOUT.
  for (const auto& l : launches)
    for (const auto& d : l["diagnostics"])
      if (d.value("kind", "") == "step-limit") {
        std::fprintf(stderr, "ptxcheck exec: limit reached: launch %llu of %s: %s\n",
                     static_cast<unsigned long long>(l.value("launch", 0ull)), l.value("kernel", "").c_str(),
                     d.value("message", "").c_str());
        return 3;
      }
  if (diags > 0 && opt.error_exitcode >= 0) return opt.error_exitcode;
  return status;
}

}  // namespace ptxcheck::cuda_exec
