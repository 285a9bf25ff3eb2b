// Data-integrity tests for the corpus: every kernel test's launch spec is
// well formed (docs/launch-spec.md), its args match the kernel's .param list
// in the PTX, its expected file lists exactly its outputs with one valid value
// per buffer element; every CUDA source has its PTX; and, when ptxas is
// installed, every PTX file assembles for the target it declares; and, when
// g++ is installed, the reference generator reproduces every committed spec
// and expected file byte for byte.
#include <catch2/catch.hpp>
#include <nlohmann/json.hpp>

#include <algorithm>
#include <cstdlib>
#include <filesystem>
#include <fstream>
#include <map>
#include <regex>
#include <set>
#include <sstream>
#include <string>
#include <unistd.h>

namespace fs = std::filesystem;
using nlohmann::json;

namespace {

fs::path src_root() {
    const char* s = std::getenv("PTXCHECK_SRC");
    return s ? fs::path(s) : fs::path(".");
}

std::string slurp(const fs::path& p) {
    std::ifstream in(p);
    std::stringstream ss;
    ss << in.rdbuf();
    return ss.str();
}

// Element size in bytes of each launch-spec type (launch-spec.md).
const std::map<std::string, size_t> kTypeSize = {
    {"b8", 1}, {"u8", 1}, {"s8", 1}, {"u16", 2}, {"s16", 2}, {"u32", 4}, {"s32", 4},
    {"u64", 8}, {"s64", 8}, {"f16", 2}, {"bf16", 2}, {"f32", 4}, {"f64", 8}};

bool is_float_type(const std::string& t) { return t == "f16" || t == "bf16" || t == "f32" || t == "f64"; }

// Whether v is a value the spec accepts for an element of type t.
bool valid_value(const json& v, const std::string& t) {
    if (is_float_type(t)) {
        if (v.is_number()) return true;
        if (!v.is_string()) return false;
        std::string s = v.get<std::string>();
        if (s == "nan" || s == "inf" || s == "-inf" || s == "-0.0") return true;
        size_t digits = 2 * kTypeSize.at(t);
        return std::regex_match(s, std::regex("0x[0-9a-fA-F]{" + std::to_string(digits) + "}"));
    }
    if (!v.is_number_integer()) return false;
    size_t bits = 8 * kTypeSize.at(t);
    if (t[0] == 's') {
        if (v.is_number_unsigned() && bits == 64) return v.get<uint64_t>() <= uint64_t(INT64_MAX);
        int64_t x = v.get<int64_t>();
        return bits == 64 || (x >= -(int64_t(1) << (bits - 1)) && x < (int64_t(1) << (bits - 1)));
    }
    if (v.is_number_unsigned()) return bits == 64 || v.get<uint64_t>() < (uint64_t(1) << bits);
    int64_t x = v.get<int64_t>();
    return x >= 0 && (bits == 64 || uint64_t(x) < (uint64_t(1) << bits));
}

// Sizes in bytes of the .param list of `.entry kernel(...)`; empty optional
// signalled by found = false.
std::vector<size_t> entry_param_sizes(const std::string& ptx, const std::string& kernel, bool& found) {
    std::smatch m;
    found = std::regex_search(ptx, m, std::regex("\\.entry\\s+" + kernel + "\\s*\\(([^)]*)\\)"));
    std::vector<size_t> sizes;
    if (!found) return sizes;
    std::string params = m[1];
    std::regex param("\\.param\\s+(?:\\.align\\s+\\d+\\s+)?\\.[a-z]+(\\d+)\\s+\\w+(?:\\[(\\d+)\\])?");
    for (auto it = std::sregex_iterator(params.begin(), params.end(), param); it != std::sregex_iterator(); ++it)
        sizes.push_back(std::stoul((*it)[1]) / 8 * ((*it)[2].matched ? std::stoul((*it)[2]) : 1));
    return sizes;
}

void check_spec(const fs::path& spec_path) {
    INFO("spec " << spec_path.string());
    json spec = json::parse(slurp(spec_path));
    for (const char* k : {"ptx", "kernel", "grid", "block", "buffers", "args", "outputs"}) REQUIRE(spec.contains(k));
    for (const char* k : {"grid", "block"}) {
        REQUIRE(spec[k].is_array());
        REQUIRE(spec[k].size() >= 1);
        REQUIRE(spec[k].size() <= 3);
        for (const json& d : spec[k]) REQUIRE((d.is_number_unsigned() && d.get<uint64_t>() >= 1));
    }
    const json& buffers = spec["buffers"];
    for (auto& [name, b] : buffers.items()) {
        INFO("buffer " << name);
        std::string type = b.at("type");
        REQUIRE(kTypeSize.count(type) == 1);
        size_t count = b.at("count");
        REQUIRE(count >= 1);
        const json& init = b.at("init");
        if (init.is_string()) { REQUIRE(init == "zero"); continue; }
        if (init.contains("fill")) REQUIRE(valid_value(init["fill"], type));
        else if (init.contains("values")) {
            REQUIRE(!init["values"].empty());
            for (const json& v : init["values"]) REQUIRE(valid_value(v, type));
        } else if (init.contains("iota")) {
            REQUIRE(init["iota"].contains("start"));
            REQUIRE(init["iota"].contains("step"));
        } else {
            REQUIRE(init.contains("file"));
            REQUIRE(fs::file_size(spec_path.parent_path() / init["file"].get<std::string>()) ==
                    count * kTypeSize.at(type));
        }
    }
    std::vector<size_t> arg_sizes;
    for (const json& a : spec["args"]) {
        REQUIRE(a.size() == 1);
        if (a.contains("buffer")) {
            REQUIRE(buffers.contains(a["buffer"].get<std::string>()));
            arg_sizes.push_back(8);
        } else {
            std::string type = a.begin().key();
            REQUIRE(kTypeSize.count(type) == 1);
            REQUIRE(valid_value(a.begin().value(), type));
            arg_sizes.push_back(kTypeSize.at(type));
        }
    }
    fs::path ptx = spec_path.parent_path() / spec["ptx"].get<std::string>();
    REQUIRE(fs::exists(ptx));
    bool found = false;
    std::vector<size_t> params = entry_param_sizes(slurp(ptx), spec["kernel"], found);
    REQUIRE(found);
    REQUIRE(params == arg_sizes);

    fs::path exp_path = spec_path;
    exp_path.replace_extension(".expected.json");
    REQUIRE(fs::exists(exp_path));
    json expected = json::parse(slurp(exp_path));
    std::set<std::string> outs;
    for (const json& o : spec["outputs"]) {
        std::string name = o;
        INFO("output " << name);
        REQUIRE(buffers.contains(name));
        outs.insert(name);
        REQUIRE(expected.contains(name));
        const json& vals = expected[name];
        std::string type = buffers[name]["type"];
        REQUIRE(vals.size() == buffers[name]["count"].get<size_t>());
        for (const json& v : vals) REQUIRE(valid_value(v, type));
    }
    for (auto& [key, v] : expected.items()) {
        if (key == "tolerance") {
            REQUIRE(v.contains("ulp"));
            REQUIRE(v["ulp"].is_number_unsigned());
        } else {
            REQUIRE(outs.count(key) == 1);
        }
    }
}

std::vector<fs::path> files(const fs::path& dir, const std::string& ext) {
    std::vector<fs::path> r;
    if (fs::exists(dir))
        for (const auto& e : fs::directory_iterator(dir))
            if (e.path().extension() == ext) r.push_back(e.path());
    std::sort(r.begin(), r.end());
    return r;
}

}  // namespace

TEST_CASE("every kernel test is a consistent launch spec with expected outputs", "[corpus-kernels]") {
    fs::path dir = src_root() / "corpus" / "kernels";
    size_t n = 0;
    for (const fs::path& p : files(dir, ".json")) {
        if (p.string().size() > 14 && p.string().ends_with(".expected.json")) continue;
        check_spec(p);
        ++n;
    }
    CHECK(n >= 40);
}

TEST_CASE("valid_value rejects malformed values", "[corpus-kernels]") {
    CHECK(valid_value(json(255), "u8"));
    CHECK_FALSE(valid_value(json(256), "u8"));
    CHECK_FALSE(valid_value(json(-129), "s8"));
    CHECK_FALSE(valid_value(json(1.5), "s32"));
    CHECK(valid_value(json("0x7fc00000"), "f32"));
    CHECK_FALSE(valid_value(json("0x7fc0"), "f32"));
    CHECK_FALSE(valid_value(json("NaN"), "f64"));
    CHECK(valid_value(json::parse("18446744073709551615"), "u64"));
    CHECK_FALSE(valid_value(json::parse("18446744073709551615"), "s64"));
}

TEST_CASE("every CUDA source has its PTX and every PTX file declares a target", "[corpus-ptx-files]") {
    fs::path dir = src_root() / "corpus" / "ptx";
    auto sources = files(dir / "src", ".cu");
    CHECK(sources.size() >= 40);
    for (const fs::path& src : sources) {
        INFO("source " << src.string());
        std::smatch m;
        std::string text = slurp(src);
        std::vector<std::string> archs = {"sm_80", "sm_90"};
        if (std::regex_search(text, m, std::regex("// corpus-arch: ([a-z0-9_ ]+)"))) {
            std::istringstream ss(m[1].str());
            archs.clear();
            for (std::string a; ss >> a;) archs.push_back(a);
        }
        for (const std::string& a : archs) CHECK(fs::exists(dir / a / (src.stem().string() + ".ptx")));
    }
    auto handwritten = files(dir / "handwritten", ".ptx");
    CHECK(handwritten.size() >= 10);
    for (const char* sub : {"sm_80", "sm_90", "handwritten"})
        for (const fs::path& p : files(dir / sub, ".ptx")) {
            INFO("ptx " << p.string());
            std::string text = slurp(p);
            CHECK(std::regex_search(text, std::regex("^\\.version \\d+\\.\\d+$", std::regex::multiline)));
            CHECK(std::regex_search(text, std::regex("^\\.target sm_\\d+a?$", std::regex::multiline)));
            CHECK(text.find("/work/") == std::string::npos);  // no checkout paths leak into outputs
        }
}

TEST_CASE("ptxas accepts every corpus PTX file", "[corpus-ptxas]") {
    const char* env = std::getenv("PTXAS");
    std::string ptxas = env ? env : "/usr/local/cuda/bin/ptxas";
    if (!fs::exists(ptxas)) {
        WARN("ptxas not found at " << ptxas << ": skipped");
        return;
    }
    std::string cmd = "PTXAS='" + ptxas + "' sh '" + (src_root() / "corpus" / "ptx" / "check.sh").string() +
                      "' > /dev/null 2>&1";
    CHECK(std::system(cmd.c_str()) == 0);
}

TEST_CASE("the C++ references regenerate the committed specs and expected files", "[corpus-refs]") {
    if (std::system("command -v g++ > /dev/null 2>&1") != 0) {
        WARN("g++ not found: skipped");
        return;
    }
    fs::path kernels = src_root() / "corpus" / "kernels";
    fs::path out = fs::temp_directory_path() / ("ptxcheck-corpus-refs-" + std::to_string(::getpid()));
    fs::remove_all(out);
    fs::create_directories(out);
    std::string cmd = "OPT=-O0 sh '" + (kernels / "ref" / "gen.sh").string() + "' '" + out.string() + "' > /dev/null";
    REQUIRE(std::system(cmd.c_str()) == 0);
    size_t n = 0;
    for (const fs::path& p : files(out, ".json")) {
        INFO("generated " << p.filename().string());
        REQUIRE(fs::exists(kernels / p.filename()));
        CHECK(slurp(p) == slurp(kernels / p.filename()));
        ++n;
    }
    CHECK(n == files(kernels, ".json").size());  // nothing committed that the refs do not produce
    fs::remove_all(out);
}
