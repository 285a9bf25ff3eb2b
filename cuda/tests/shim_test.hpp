// Captures what the shim writes to stderr while it is alive (the shim's
// tests check its one-line messages). text() restores stderr and echoes the
// captured text there, so it stays visible in the test log.
#pragma once

#include <unistd.h>

#include <cstdio>
#include <string>

namespace shimtest {

class StderrCapture {
 public:
  StderrCapture() {
    std::fflush(stderr);
    file_ = std::tmpfile();
    saved_ = dup(2);
    dup2(fileno(file_), 2);
  }
  std::string text() {
    std::fflush(stderr);
    dup2(saved_, 2);
    close(saved_);
    std::string out;
    std::rewind(file_);
    char buf[4096];
    size_t n;
    while ((n = std::fread(buf, 1, sizeof buf, file_)) > 0) out.append(buf, n);
    std::fclose(file_);
    std::fputs(out.c_str(), stderr);
    return out;
  }

 private:
  std::FILE* file_ = nullptr;
  int saved_ = -1;
};

}  // namespace shimtest
