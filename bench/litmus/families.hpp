// Generated scaling families of litmus tests for bench/litmus (issue 11):
// N threads, each in its own CTA of one GPU, in the native litmus format.
// Each family carries its verdict under the default model (ptx75), argued
// from PTX ISA 9.2 chapter 8 in families.cpp, so that the benchmark checks
// answers as well as time.
#pragma once
#include <string>
#include <vector>

namespace ptxcheck::bench {

struct Family {
  const char* name;
  std::string (*make)(int n);  // the test with n threads
  int min_n;
  bool ok;  // expected herd verdict (true = Ok) for every n
};

const std::vector<Family>& families();

}  // namespace ptxcheck::bench
