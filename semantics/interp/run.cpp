#include "semantics/interp/run.hpp"

#include "parser/parse.hpp"
#include "semantics/interp/launch_spec_reader.hpp"
#include "semantics/interp/lower.hpp"

namespace ptxcheck::interp {

RunReport run_spec_file(const std::string& spec_path, const RunOptions& opt, SpecBytes bytes) {
  RunReport r;
  r.spec = spec_detail::read_spec_file(spec_path, opt.jobs);
  std::string text;
  try {
    text = read_file_text(r.spec.ptx_path);
  } catch (const InputError&) {
    throw InputError(r.spec.file, r.spec.ptx_pos, "cannot read PTX file '" + r.spec.ptx_path + "'");
  }
  ast::Module m = parse_module(text, r.spec.ptx_path);
  m.file = r.spec.ptx_path;
  Program p = lower(m, r.spec.kernel, r.spec.kernel_pos, r.spec.file);
  r.result = bytes == SpecBytes::Move ? run_program_taking(p, r.spec, opt) : run_program(p, r.spec, opt);
  return r;
}

}  // namespace ptxcheck::interp
