// PTX ISA 9.2 section 8.10 axioms (axioms.hpp).
#include "memmodel/axioms.hpp"

#include <algorithm>

#include "memmodel/fence_sc.hpp"

namespace ptxcheck::mm {

const char* axiom_name(Axiom a) {
  switch (a) {
#define AXIOM(id, text) \
  case Axiom::id: return text;
#include "memmodel/axioms.def"
#undef AXIOM
  }
  return "?";
}

bool coherence_holds(const StaticRelations& st, const Relation& cause, const Relation& co) {
  const EventSet w = st.writes;
  if (!((cause & st.loc).restrict(w, w)).subset_of(co)) return false;
  // Dat3M axiom-Coherence2: morally strong same-location writes are ordered.
  const Relation both = co | co.inverse();
  return (st.ms & st.loc).restrict(w, w).subset_of(both);
}

bool fence_sc_holds(const StaticRelations& st, const Relation& cause, const Relation& sync_fence) {
  return cause.restrict(st.sc_fences, st.sc_fences).subset_of(sync_fence);
}

bool atomicity_holds(const StaticRelations& st, const Relation& fr, const Relation& co) {
  const Relation bad = (st.ms & fr).compose(st.ms & co) & st.rmw;
  return bad.empty();
}

bool no_thin_air_holds(const StaticRelations& st, const Relation& rf) { return (rf | st.dep).acyclic(); }

bool sc_per_location_holds(const StaticRelations& st, const Model& m, const Relation& rf,
                           const Relation& co, const Relation& fr) {
  const Relation& overlap = m.kind == ModelKind::PTX6 ? st.loc : st.vloc;
  return ((st.ms & (rf | co | fr)) | (st.po & overlap)).acyclic();
}

bool causality_holds(const Relation& rf, const Relation& fr, const Relation& cause) {
  return (rf | fr).compose(cause).irreflexive();
}

bool sc_order_holds(const StaticRelations& st, const Relation& rf, const Relation& co, const Relation& fr) {
  if (!(fr.compose(co) & st.rmw).empty()) return false;
  // Asynchronous operations take their place by their ordering (8.9.1.1).
  return (st.ord | st.async_issue | rf | co | fr).acyclic();
}

std::vector<Axiom> violations(const StaticRelations& st, const Model& m, const CauseInfo& c, const Relation& co) {
  std::vector<Axiom> out;
  const Relation fr = from_reads(c.rf, co);
  if (st.barrier_hangs) out.push_back(Axiom::BarrierCompletes);
  if (!no_thin_air_holds(st, c.rf)) out.push_back(Axiom::NoThinAir);
  if (m.kind == ModelKind::SC) {
    if (!sc_order_holds(st, c.rf, co, fr)) out.push_back(Axiom::SCOrder);
    return out;
  }
  if (!coherence_holds(st, c.cause, co)) out.push_back(Axiom::Coherence);
  if (!fence_sc_holds(st, c.cause, c.sync_fence)) out.push_back(Axiom::FenceSC);
  if (!atomicity_holds(st, fr, co)) out.push_back(Axiom::Atomicity);
  if ((m.kind == ModelKind::PTX6 || m.sc_per_location) && !sc_per_location_holds(st, m, c.rf, co, fr))
    out.push_back(Axiom::SCPerLocation);
  if (!causality_holds(c.rf, fr, c.cause)) out.push_back(Axiom::Causality);
  return out;
}

AxiomCheck check_axioms(const Skeleton& s, const StaticRelations& st, const Model& m, const Execution& ex,
                        bool need_minimal) {
  Relation co(st.n);
  for (auto [a, b] : ex.co) co.add(a, b);
  co = co.plus();
  const bool given = !ex.fsc.empty() || m.kind == ModelKind::SC;
  std::vector<int> fsc = given ? ex.fsc : ordered_sc_fences(st);
  AxiomCheck out;
  bool first = true;
  do {
    for (size_t bar = 0; bar < st.sync_barrier_choices.size(); ++bar) {
      const CauseInfo c = compute_cause(st, m, ex.rf, fsc, bar);
      std::vector<Axiom> v = violations(st, m, c, co);
      if (!co.irreflexive() && std::find(v.begin(), v.end(), Axiom::Coherence) == v.end())
        v.insert(v.begin(), Axiom::Coherence);  // a cyclic co contradicts 8.9.6
      const bool minimal = need_minimal && v.empty() && coherence_minimal(s, st, m, c.cause, co);
      if (first || v.size() < out.violated.size() || (v.empty() && minimal && !out.co_minimal)) {
        out.violated = std::move(v);
        out.fsc = fsc;
        out.bar = bar;
        out.co_minimal = minimal;
      }
      first = false;
      if (out.violated.empty() && (!need_minimal || out.co_minimal)) return out;
    }
  } while (!given && std::next_permutation(fsc.begin(), fsc.end()));
  return out;
}

std::vector<std::string> violated_axioms(const Skeleton& s, const Model& m, const Execution& ex) {
  std::vector<std::string> out;
  for (Axiom a : check_axioms(s, build_static(s, m), m, ex).violated) out.emplace_back(axiom_name(a));
  return out;
}

}  // namespace ptxcheck::mm
