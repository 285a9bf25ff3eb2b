// Plain C++ reference for gemm_tma_wgmma.cu (no interpreter involved): C =
// A * B with A (64 x 192) and B^T (64 x 192) row-major bf16, filled
// cyclically from the lists below as the launch spec's "values" lists do.
// Every value is a small multiple of 0.5 (exact in bf16), every product a
// multiple of 0.25 below 16 and every partial sum below 2^12 in magnitude, so
// f32 holds each exactly whatever the order or internal precision: the tile
// is bit-identical under the numeric policy of docs/mma.md, and on hardware.
//
// Also writes the launch specs, so that spec and reference cannot drift:
//   gemm_ref SPEC EXPECTED NOFENCE_SPEC
// regen.sh runs it; check_gemm.py checks the committed files are its output.
#include <cstdint>
#include <cstdio>
#include <fstream>
#include <sstream>
#include <string>
#include <vector>

namespace {

const int M = 64, N = 64, K = 192;
// Multiples of 0.5 in [-3, 3] from a fixed LCG, in lists of prime lengths
// above 64: row m of A starts at offset (m * K) % 67, column n of B at
// (n * K) % 71, so no two rows (columns) of the tile see the same sequence.
std::vector<double> draw(unsigned count, uint64_t seed) {
  std::vector<double> v;
  for (unsigned i = 0; i < count; ++i) {
    seed = seed * 6364136223846793005ull + 1442695040888963407ull;
    v.push_back(static_cast<int>((seed >> 33) % 13) * 0.5 - 3);
  }
  return v;
}
const std::vector<double> kA = draw(67, 1), kB = draw(71, 2);

std::string list(const std::vector<double>& v) {
  std::ostringstream o;
  for (size_t i = 0; i < v.size(); ++i) o << (i ? ", " : "") << v[i];
  return o.str();
}

std::string spec(const std::string& ptx, const std::string& kernel, bool outputs, const std::string& comment, const std::string& extra) {
  std::ostringstream o;
  o << "{\n"
    << " \"ptx\": \"" << ptx << "\",\n"
    << " \"kernel\": \"" << kernel << "\",\n"
    << " \"grid\": [1],\n"
    << " \"block\": [256],\n"
    << " \"buffers\": {\n"
    << "  \"a\": {\"type\": \"bf16\", \"count\": " << M * K << ", \"init\": {\"values\": [" << list(kA) << "]}},\n"
    << "  \"bt\": {\"type\": \"bf16\", \"count\": " << N * K << ", \"init\": {\"values\": [" << list(kB) << "]}},\n"
    << "  \"c\": {\"type\": \"f32\", \"count\": " << M * N << ", \"init\": \"zero\"}\n"
    << " },\n"
    << " \"tensormaps\": {\n"
    << "  \"tA\": {\"buffer\": \"a\", \"type\": \"bf16\", \"dims\": [" << K << ", " << M << "], \"strides\": ["
    << K * 2 << "], \"box\": [32, 64], \"swizzle\": \"64B\"},\n"
    << "  \"tB\": {\"buffer\": \"bt\", \"type\": \"bf16\", \"dims\": [" << K << ", " << N << "], \"strides\": ["
    << K * 2 << "], \"box\": [32, 64], \"swizzle\": \"64B\"},\n"
    << "  \"tC\": {\"buffer\": \"c\", \"type\": \"f32\", \"dims\": [" << N << ", " << M << "], \"strides\": ["
    << N * 4 << "], \"box\": [64, 64]}\n"
    << " },\n"
    << " \"args\": [{\"tensormap\": \"tA\"}, {\"tensormap\": \"tB\"}, {\"tensormap\": \"tC\"}],\n"
    << " \"outputs\": [" << (outputs ? "\"c\"" : "") << "],\n"
    << " \"comment\": \"" << comment << "\"" << extra << "\n"
    << "}\n";
  return o.str();
}

// The PTX as each spec names it, relative to the spec: the kernel test in
// corpus/kernels/features, the fault in tests/interp/faults.
const char* const kKernelPtx = "../../../tests/interp/gemm/gemm_tma_wgmma.ptx";
const char* const kFaultPtx = "../gemm/gemm_tma_wgmma.ptx";

bool write(const char* path, const std::string& text) {
  std::ofstream f(path, std::ios::binary);
  f << text;
  return static_cast<bool>(f);
}

}  // namespace

int main(int argc, char** argv) {
  if (argc != 4) {
    std::fprintf(stderr, "usage: gemm_ref SPEC EXPECTED NOFENCE_SPEC\n");
    return 2;
  }
  std::ostringstream e;
  e << "{\"c\": [";
  for (int m = 0; m < M; ++m)
    for (int n = 0; n < N; ++n) {
      double s = 0;  // exact: multiples of 0.25 below 2^12
      for (int k = 0; k < K; ++k) s += kA[(m * K + k) % kA.size()] * kB[(n * K + k) % kB.size()];
      e << (m || n ? ", " : "") << s;
    }
  e << "]}\n";
  const bool ok =
      write(argv[1], spec(kKernelPtx, "gemm_tma_wgmma_cu", true,
                          "nvcc-compiled 64x64x192 bf16 GEMM tile (gemm_tma_wgmma.cu): TMA loads with 64B swizzle "
                          "(6 k blocks) into a 3-stage mbarrier pipeline, warp-specialised producer/consumer, wgmma m64n64k16, "
                          "TMA store; expected from gemm_ref.cpp",
                          "")) &&
      write(argv[2], e.str()) &&
      write(argv[3], spec(kFaultPtx, "gemm_tma_wgmma_cu_nofence", false,
                          "gemm_tma_wgmma.cu without fence.proxy.async before the TMA store: its async-proxy reads "
                          "race with the generic writes of the tile",
                          ",\n \"_expect_diagnostic\": \"data-race\""));
  return ok ? 0 : 1;
}
