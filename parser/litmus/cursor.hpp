// A hand-written scanner shared by the litmus front ends. Litmus files are
// column- and block-structured (rows of `|`-separated cells), which a
// position-tracking cursor handles more directly than a generated grammar.
// Contract: every failure throws InputError carrying file:line:col.
#pragma once
#include <cstdint>
#include <string>
#include <string_view>
#include <vector>

#include "parser/diagnostic.hpp"
#include "parser/litmus/litmus_ast.hpp"

namespace ptxcheck::litmus {

// Parentheses and negations of a condition nest at most this deep: deeper
// input is refused at its position rather than overflowing the stack
// (cursor.cpp), and print.cpp refuses a condition whose printed form would
// nest deeper (it parenthesises every negation and compound).
inline constexpr int kMaxCondDepth = 256;

class Cursor {
 public:
  Cursor(std::string_view text, std::string file, size_t off = 0)
      : text_(text), file_(std::move(file)), off_(off) {}

  // While a condition is parsed: the number of threads of the test, so that
  // a register of a thread that does not exist is an error at its position
  // (-1: not checked).
  int known_threads = -1;

  // Skips blanks, newlines and comments: `(* ... *)`, `// ...`.
  void skip_ws();
  bool eof() { skip_ws(); return off_ >= text_.size(); }
  char peek() { skip_ws(); return off_ < text_.size() ? text_[off_] : '\0'; }
  // After skip_ws: consumes `s` if the text continues with it.
  bool accept(std::string_view s);
  // As accept, but only when `s` is not followed by an identifier character.
  bool accept_word(std::string_view s);
  void expect(std::string_view s);
  // [A-Za-z_%$][A-Za-z0-9_.%$]* ; fails with "expected <what>".
  std::string ident(const char* what = "identifier");
  bool at_ident();
  // Decimal, 0x hex, or negative decimal (two's complement).
  uint64_t number();
  bool at_number();

  [[noreturn]] void fail(const std::string& msg) const { fail_at(off_, msg); }
  [[noreturn]] void fail_at(size_t at, const std::string& msg) const;
  SourcePos pos_of(size_t at) const { return position_of(text_, at); }
  SourcePos pos() const { return pos_of(off_); }

  size_t off() const { return off_; }
  void set_off(size_t o) { off_ = o; }
  std::string_view text() const { return text_; }
  const std::string& file() const { return file_; }

 private:
  std::string_view text_;
  std::string file_;
  size_t off_;
};

// The final condition: `~exists`/`exists`/`forall` followed by a formula
// over `P1:r0` (or `1:r0`, `T1:%r0`), locations and constants, with
// `/\ \/ ~ =>` (also `&& || not`) and parentheses.
void parse_condition(Cursor& c, Test& t);
// Register initialisations (at the offsets init_at) must name threads of t.
void check_reg_inits(Cursor& c, const Test& t, const std::vector<size_t>& init_at);
// The id `n` of a thread's place at level `lvl` (cta, cluster, gpu, warp),
// written at offset `at`: an error there if it is out of range.
int place_id(Cursor& c, size_t at, const std::string& lvl, uint64_t n);

// How a dialect spells registers: Dat3M's `r<N>`, the native format's
// `%name`. `shape` appears in error messages.
struct RegSyntax {
  bool (*is_reg)(std::string_view);
  const char* shape;
};

// A register of `syntax`; fails at the identifier otherwise.
std::string reg_operand(Cursor& c, const RegSyntax& syntax);
// A register of `syntax` or a constant.
Operand value_operand(Cursor& c, const RegSyntax& syntax);
// "ld.acquire.gpu" -> {"ld", "acquire", "gpu"}.
std::vector<std::string> split_dots(const std::string& mnemonic);

// Parses "P3", "T3" or "3" as a thread index; -1 if not of that shape.
int thread_index(std::string_view s);

}  // namespace ptxcheck::litmus
