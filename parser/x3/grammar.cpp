// The one translation unit that instantiates the PTX grammar.
#include "parser/x3/grammar_def.hpp"

namespace ptxcheck::x3g {

BOOST_SPIRIT_INSTANTIATE(module_type, iterator_type, context_type)
BOOST_SPIRIT_INSTANTIATE(statements_type, iterator_type, context_type)

const module_type& module_rule() { return ptx_module; }
const statements_type& statements_rule() { return statements_r; }

}  // namespace ptxcheck::x3g
