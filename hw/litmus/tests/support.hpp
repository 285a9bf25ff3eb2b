// Shared helpers of the litmus harness tests: source paths, the litmus/
// folder, a deterministic sample of the Dat3M corpus, running a command.
#pragma once
#include <string>
#include <vector>

namespace hwtest {

std::string src_root();     // $PTXCHECK_SRC
std::string shared_root();  // $PTXCHECK_SHARED
std::vector<std::string> litmus_dir_files();  // litmus/*.litmus, sorted
std::vector<std::string> forms_fixtures();    // hw/litmus/tests/fixtures/forms/*.litmus
// Every `step`-th Dat3M test (sorted paths), or empty when the corpus is absent.
std::vector<std::string> dat3m_sample(size_t step);
std::string slurp(const std::string& path);
// Runs a shell command; returns its exit status and captures stdout+stderr.
int run(const std::string& cmd, std::string& output);
bool have_program(const std::string& name);

}  // namespace hwtest
