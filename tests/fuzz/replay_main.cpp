// Replays inputs through a fuzz target's LLVMFuzzerTestOneInput without
// libFuzzer (meson tests `fuzz-regress-TARGET`, in the normal and the
// sanitizer build). Arguments: files or folders (every regular file in them,
// sorted). A finding aborts; an argument with no inputs at all fails, so the
// test cannot pass on an empty or missing folder.
#include <algorithm>
#include <cstdint>
#include <cstdio>
#include <filesystem>
#include <fstream>
#include <iterator>
#include <string>
#include <vector>

extern "C" int LLVMFuzzerTestOneInput(const uint8_t* data, size_t size);

int main(int argc, char** argv) {
  namespace fs = std::filesystem;
  if (argc < 2) {
    std::fprintf(stderr, "usage: %s FILE|DIR...\n", argv[0]);
    return 2;
  }
  for (int a = 1; a < argc; ++a) {
    std::vector<fs::path> files;
    std::error_code ec;
    if (fs::is_directory(argv[a], ec)) {
      for (const auto& e : fs::directory_iterator(argv[a]))
        if (e.is_regular_file()) files.push_back(e.path());
    } else if (fs::is_regular_file(argv[a], ec)) {
      files.emplace_back(argv[a]);
    }
    std::sort(files.begin(), files.end());
    if (files.empty()) {
      std::fprintf(stderr, "%s: no inputs\n", argv[a]);
      return 1;
    }
    for (const auto& f : files) {
      std::ifstream in(f, std::ios::binary);
      std::string bytes((std::istreambuf_iterator<char>(in)), std::istreambuf_iterator<char>());
      std::fprintf(stderr, "replay %s\n", f.c_str());
      LLVMFuzzerTestOneInput(reinterpret_cast<const uint8_t*>(bytes.data()), bytes.size());
    }
    std::printf("%s: %zu inputs replayed\n", argv[a], files.size());
  }
  return 0;
}
