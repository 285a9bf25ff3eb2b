#include "parser/diagnostic.hpp"

namespace ptxcheck {

std::string format_error(std::string_view file, SourcePos pos, std::string_view msg) {
  std::string out(file);
  if (pos.line) {
    out += ':' + std::to_string(pos.line);
    if (pos.col) out += ':' + std::to_string(pos.col);
  }
  out += ": error: ";
  out += msg;
  return out;
}

std::string format_error_with_source(std::string_view file, SourcePos pos, std::string_view msg,
                                     std::string_view source) {
  std::string out = format_error(file, pos, msg);
  if (!pos.line || source.empty()) return out;
  size_t start = 0;
  for (uint32_t l = 1; l < pos.line && start != std::string_view::npos; ++l) {
    start = source.find('\n', start);
    if (start != std::string_view::npos) ++start;
  }
  if (start == std::string_view::npos || start > source.size()) return out;
  size_t end = source.find('\n', start);
  std::string_view line = source.substr(start, end == std::string_view::npos ? end : end - start);
  if (!line.empty() && line.back() == '\r') line.remove_suffix(1);
  out += '\n';
  out += line;
  out += '\n';
  std::string caret;
  for (uint32_t c = 1; c < pos.col && c - 1 < line.size(); ++c) caret += line[c - 1] == '\t' ? '\t' : ' ';
  out += caret + '^';
  return out;
}

SourcePos position_of(std::string_view text, size_t off) {
  SourcePos p{1, 1};
  for (size_t i = 0; i < off && i < text.size(); ++i) {
    if (text[i] == '\n') {
      ++p.line;
      p.col = 1;
    } else {
      ++p.col;
    }
  }
  return p;
}

}  // namespace ptxcheck
