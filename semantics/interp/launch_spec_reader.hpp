// The launch-spec reader (launch_spec.hpp), shared by launch_spec.cpp
// (the spec's top level, buffers, tensor maps, arguments) and
// launch_spec_tex.cpp (CUDA arrays, texture and surface objects, sampler
// state, .texref/.surfref/.samplerref bindings). Not an interface for
// other code.
#pragma once
#include <array>
#include <cstdint>
#include <initializer_list>
#include <string>
#include <vector>

#include "semantics/interp/launch_spec.hpp"

namespace ptxcheck::interp::spec_detail {

constexpr uint64_t kMaxBufferBytes = 1ull << 30;

class SpecReader {
 public:
  SpecReader(const std::string& file, const std::string& dir) : file_(file), dir_(dir) {}

  [[noreturn]] void fail(SourcePos p, const std::string& msg) { throw InputError(file_, p, msg); }

  const JNode& need(const JNode& obj, const char* key, JNode::Kind kind, const char* what) {
    const JNode* n = obj.find(key);
    if (!n) fail(obj.pos, std::string("missing \"") + key + "\" (" + what + ")");
    if (n->kind != kind)
      fail(n->pos,
           std::string("\"") + key + "\" must be " + JNode::kind_name(kind) + ", got " + JNode::kind_name(n->kind));
    return *n;
  }

  uint64_t uint_of(const JNode& n, const char* what, uint64_t max) {
    uint64_t v = 0;
    if (n.kind != JNode::Kind::Number || n.text.find_first_of(".eE-") != std::string::npos)
      fail(n.pos, std::string(what) + " must be a non-negative integer");
    if (n.text.size() > 19) fail(n.pos, std::string(what) + " is too large");
    v = std::stoull(n.text);
    if (v > max) fail(n.pos, std::string(what) + " is too large (at most " + std::to_string(max) + ")");
    return v;
  }

  // Checks that obj has only the keys listed.
  void only_keys(const JNode& obj, std::initializer_list<const char*> keys, const std::string& what) {
    for (size_t j = 0; j < obj.members.size(); ++j) {
      bool ok = false;
      for (const char* k : keys) ok = ok || obj.members[j].first == k;
      if (!ok) fail(obj.key_pos[j], "unknown key \"" + obj.members[j].first + "\" in " + what);
    }
  }

  bool boolean(const JNode& obj, const char* key, bool dflt) {
    const JNode* n = obj.find(key);
    if (!n) return dflt;
    if (n->kind != JNode::Kind::Bool) fail(n->pos, std::string("\"") + key + "\" must be true or false");
    return n->boolean;
  }

  // launch_spec.cpp
  std::array<uint32_t, 3> dims(const JNode& root, const char* key, bool required, uint64_t max);
  std::string resolve(const std::string& rel) const;
  unsigned threads = 1;         // for large buffers (load_launch_spec)
  void fill(BufferSpec& b);     // b.init from b.fill (fill_elements), in parts on `threads` threads
  std::vector<size_t> pending;  // large buffers made after the last one (buffers())
  void fill_values(BufferSpec& b, const std::vector<uint64_t>& vals);
  void init_iota(BufferSpec& b, const JNode& io);
  void init_buffer(BufferSpec& b, const JNode& init);
  void buffers(LaunchSpec& s, const JNode& root);
  void tensormaps(LaunchSpec& s, const JNode& root);
  ArgSpec arg(const LaunchSpec& s, const JNode& an, bool field, unsigned depth);
  void args(LaunchSpec& s, const JNode& root);
  LaunchSpec spec(const std::string& text);

  // launch_spec_tex.cpp
  void format(TexDesc& d, const JNode& obj);
  unsigned extent(TexDesc& d, const JNode& obj, unsigned max_dims, bool required);
  void arrays(LaunchSpec& s, const JNode& root);
  void texobjs(LaunchSpec& s, const JNode& root, bool surface);
  void references(LaunchSpec& s, const JNode& root);
  void sampling(TexObjSpec& t, const JNode& tn, const std::string& label);
  void address_filter(TexDesc& d, const JNode& obj, const std::string& label, bool unnormalized);
  bool linear_filter(const JNode& f, const char* key);

 private:
  bool defer_ = false;  // the buffer being read is made later: fill() does nothing
  const std::string& file_;
  std::string dir_;
};

// load_launch_spec with `threads` threads for the buffers of 1 MiB or more
// (ptxcheck run passes its --jobs: run_spec_file); the bytes are the same
// with any number.
LaunchSpec read_spec_file(const std::string& path, unsigned threads);

}  // namespace ptxcheck::interp::spec_detail
