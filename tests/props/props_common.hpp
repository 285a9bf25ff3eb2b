// Helpers shared by the property suites in tests/props.
#pragma once
#include <cstdlib>
#include <string>

namespace ptxcheck::props {

inline std::string env_or(const char* name, const std::string& dflt) {
  const char* v = std::getenv(name);
  return v && *v ? std::string(v) : dflt;
}
inline std::string src_root() { return env_or("PTXCHECK_SRC", "."); }
inline std::string shared_root() { return env_or("PTXCHECK_SHARED", src_root() + "/../shared"); }
// PTXCHECK_PROPS_LONG=1 multiplies the number of random cases.
inline int scale() { return env_or("PTXCHECK_PROPS_LONG", "0") != "0" ? 10 : 1; }

}  // namespace ptxcheck::props
