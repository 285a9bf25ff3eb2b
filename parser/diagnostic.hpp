// Diagnostics shared by every front end (PTX, litmus, launch specs, CLI).
// Contract: an error prints as one line `file:line:col: error: message`,
// followed by the source line and a caret when the source text is known.
// The error types and exit codes themselves live in support/error.hpp.
#pragma once
#include <string>
#include <string_view>

#include "support/error.hpp"

namespace ptxcheck {

// `file:line:col: error: message` (line/col omitted when unknown).
std::string format_error(std::string_view file, SourcePos pos, std::string_view msg);

// As format_error, plus the offending source line and a caret under `col`
// when `source` (the whole file text) is given.
std::string format_error_with_source(std::string_view file, SourcePos pos, std::string_view msg,
                                     std::string_view source);

// 1-based line/column of byte offset `off` in `text`.
SourcePos position_of(std::string_view text, size_t off);

}  // namespace ptxcheck
