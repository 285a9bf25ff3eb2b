// ptxas legality probe of the candidate forms (writes legal.inc).
#pragma once
#include <string>

namespace ptxcheck::instrgen {
// Runs `ptxas` on every candidate for sm_80 and sm_90 and writes the table to
// `out_path`. Returns 0 on success, 2 when ptxas could not be run.
int probe(const std::string& ptxas, const std::string& out_path);
}  // namespace ptxcheck::instrgen
