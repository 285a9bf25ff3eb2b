// Binary relations over the events of one Skeleton, as bit matrices.
// Contract: a Relation has a fixed size n (events 0..n-1); row a holds the
// set {b | (a,b) in R}. All binary operations require equal sizes. Sizes up
// to a few hundred events are expected; every operation is O(n^2/64) or
// O(n^3/64) at worst (composition, closure).
#pragma once
#include <cstdint>
#include <string>
#include <utility>
#include <vector>

namespace ptxcheck::mm {

// A set of events, as a bit vector of size n.
class EventSet {
 public:
  EventSet() = default;
  explicit EventSet(int n) : n_(n), w_((n + 63) / 64, 0) {}
  static EventSet full(int n) {
    EventSet s(n);
    for (int a = 0; a < n; ++a) s.set(a);
    return s;
  }
  int size() const { return n_; }
  bool has(int a) const { return (w_[a >> 6] >> (a & 63)) & 1U; }
  void set(int a, bool v = true) {
    if (v) w_[a >> 6] |= uint64_t{1} << (a & 63);
    else w_[a >> 6] &= ~(uint64_t{1} << (a & 63));
  }
  bool empty() const;
  int count() const;
  std::vector<int> elements() const;
  EventSet operator|(const EventSet& o) const;
  EventSet operator&(const EventSet& o) const;
  EventSet operator-(const EventSet& o) const;  // set difference
  bool operator==(const EventSet& o) const = default;
  const std::vector<uint64_t>& words() const { return w_; }
  std::vector<uint64_t>& words() { return w_; }

 private:
  int n_ = 0;
  std::vector<uint64_t> w_;
};

class Relation {
 public:
  Relation() = default;
  explicit Relation(int n) : n_(n), wpr_((n + 63) / 64), bits_(static_cast<size_t>(n) * wpr_, 0) {}
  static Relation identity(int n);
  static Relation identity(const EventSet& s);          // [S]
  static Relation product(const EventSet& a, const EventSet& b);  // A * B

  int size() const { return n_; }
  bool has(int a, int b) const { return (row(a)[b >> 6] >> (b & 63)) & 1U; }
  void add(int a, int b) { row(a)[b >> 6] |= uint64_t{1} << (b & 63); }
  void remove(int a, int b) { row(a)[b >> 6] &= ~(uint64_t{1} << (b & 63)); }
  bool empty() const;
  int count() const;
  std::vector<std::pair<int, int>> pairs() const;
  EventSet successors(int a) const;
  EventSet domain() const;
  EventSet range() const;

  Relation operator|(const Relation& o) const;
  Relation operator&(const Relation& o) const;
  Relation operator-(const Relation& o) const;  // difference
  Relation& operator|=(const Relation& o);
  Relation& operator&=(const Relation& o);
  bool operator==(const Relation& o) const = default;
  bool subset_of(const Relation& o) const;

  Relation compose(const Relation& o) const;  // this ; o
  Relation inverse() const;
  Relation plus() const;           // transitive closure R+
  Relation star() const;           // reflexive-transitive closure R*
  Relation optional() const;       // R?  (R | id)
  Relation restrict(const EventSet& dom, const EventSet& ran) const;  // [dom];R;[ran]
  Relation domain_restrict(const EventSet& dom) const;  // [dom];R
  Relation range_restrict(const EventSet& ran) const;   // R;[ran]

  bool irreflexive() const;
  bool acyclic() const;            // no cycle in R (self loops count)
  // One cycle of R as a list of events (first == last omitted), empty if acyclic.
  std::vector<int> find_cycle() const;

  std::string to_string() const;   // "{(a,b), ...}" for diagnostics

  const std::vector<uint64_t>& words() const { return bits_; }  // row-major bits (hashing, memo keys)
  const uint64_t* row(int a) const { return bits_.data() + static_cast<size_t>(a) * wpr_; }
  uint64_t* row(int a) { return bits_.data() + static_cast<size_t>(a) * wpr_; }

 private:
  int n_ = 0;
  int wpr_ = 0;
  std::vector<uint64_t> bits_;
};

}  // namespace ptxcheck::mm
