// Implementation of common.hpp: value formatting, spec/expected writers and
// the .param-list check against the PTX file.
#include "common.hpp"
#include <charconv>
#include <cstdio>
#include <cstdlib>
#include <fstream>
#include <iostream>
#include <cctype>
#include <sstream>

namespace ref {

void die(const std::string& msg) {
    std::cerr << "gen: " << msg << "\n";
    std::exit(1);
}

std::vector<TestFn>& registry() {
    static std::vector<TestFn> r;
    return r;
}

std::string fmt(int64_t v) { return std::to_string(v); }
std::string fmt(uint64_t v) { return std::to_string(v); }

static std::string hex(uint64_t bits, int digits) {
    char buf[32];
    std::snprintf(buf, sizeof buf, "\"0x%0*llx\"", digits, (unsigned long long)bits);
    return buf;
}

// Shortest round-trip decimal; NaN as "nan" (canonical) or a hex pattern,
// infinities as strings, negative zero as "-0.0" (a JSON -0 may parse as an
// integer and lose its sign).
template <class F> static std::string fmt_float(F v, uint64_t bits, uint64_t canonical_nan, int digits) {
    if (std::isnan(v)) return bits == canonical_nan ? "\"nan\"" : hex(bits, digits);
    if (std::isinf(v)) return v > 0 ? "\"inf\"" : "\"-inf\"";
    if (v == 0 && std::signbit(v)) return "\"-0.0\"";
    char buf[64];
    auto res = std::to_chars(buf, buf + sizeof buf, v);
    return std::string(buf, res.ptr);
}
std::string fmt(float v) { return fmt_float(v, bitcast<uint32_t>(v), 0x7fffffffu, 8); }
std::string fmt(double v) { return fmt_float(v, bitcast<uint64_t>(v), 0x7fffffffffffffffull, 16); }
// f16/bf16 values are exact in f32, so the f32 shortest form reads back exactly.
std::string fmt(Half h) { return fmt_float(fval(h), h.bits, 0x7fff, 4); }
std::string fmt(BF16 h) { return fmt_float(fval(h), h.bits, 0x7fff, 4); }

template <class T> Init<T> fiota(double start, double step) {
    return {"{ \"iota\": { \"start\": " + fmt(start) + ", \"step\": " + fmt(step) + " } }",
            [=](size_t n) {
                std::vector<T> v(n);
                for (size_t i = 0; i < n; ++i) {
                    double d = start + double(i) * step;
                    v[i] = T(d);
                    require(double(v[i]) == d, "fiota element not exact");
                }
                return v;
            }};
}
template Init<float> fiota<float>(double, double);
template Init<double> fiota<double>(double, double);

Test::Test(std::string name, std::string ptx, std::string kernel, std::vector<unsigned> grid,
           std::vector<unsigned> block, unsigned dyn)
    : name_(std::move(name)), ptx_(std::move(ptx)), kernel_(std::move(kernel)), grid_(std::move(grid)),
      block_(std::move(block)), dyn_(dyn) {}

void Test::arg_buffer(const std::string& name) {
    bool found = false;
    for (const Buf& b : buffers_) found |= b.name == name;
    require(found, name_ + ": arg names unknown buffer " + name);
    args_.push_back({"", "", 8, name});
}

void Test::expect_raw(const std::string& name, const std::string& type, const std::vector<std::string>& vals) {
    for (const Buf& b : buffers_)
        if (b.name == name) {
            require(b.type == type, name_ + ": expected type mismatch for " + name);
            require(b.count == vals.size(), name_ + ": expected count mismatch for " + name);
            outs_.push_back({name, vals});
            return;
        }
    die(name_ + ": output names unknown buffer " + name);
}

static std::string list(const std::vector<unsigned>& v) {
    std::string s = "[";
    for (size_t i = 0; i < v.size(); ++i) s += (i ? ", " : "") + std::to_string(v[i]);
    return s + "]";
}

// Reads the kernel's .entry parameter list from the PTX and compares count
// and sizes with the args (buffers pass 64-bit pointers).
void Test::check_params(const std::string& dir) const {
    std::ifstream in(dir + "/" + ptx_);
    require(bool(in), name_ + ": cannot read " + ptx_);
    std::stringstream ss;
    ss << in.rdbuf();
    std::string text = ss.str();
    // Plain scanning instead of <regex>: this file is compiled by a test.
    size_t at = std::string::npos;
    for (size_t p = text.find(".entry"); p != std::string::npos; p = text.find(".entry", p + 6)) {
        size_t q = text.find_first_not_of(" \t", p + 6);
        if (text.compare(q, kernel_.size(), kernel_) == 0 &&
            text.find_first_not_of(" \t\n", q + kernel_.size()) == text.find('(', q)) { at = q; break; }
    }
    require(at != std::string::npos, name_ + ": no .entry " + kernel_ + " in " + ptx_);
    size_t open = text.find('(', at), close = text.find(')', open);
    std::string params = text.substr(open + 1, close - open - 1);
    std::vector<size_t> sizes;
    std::stringstream list(params);
    for (std::string item; std::getline(list, item, ',');) {
        std::stringstream words(item);
        size_t size = 0;
        for (std::string w; words >> w;) {
            require(w.find('[') == std::string::npos, name_ + ": array params not supported");
            if (w.size() > 2 && w[0] == '.' && std::string("busf").find(w[1]) != std::string::npos &&
                std::isdigit(static_cast<unsigned char>(w[2])))
                size = std::stoul(w.substr(2)) / 8;
        }
        if (item.find(".param") != std::string::npos) sizes.push_back(size);
    }
    require(sizes.size() == args_.size(), name_ + ": " + std::to_string(args_.size()) + " args but kernel has " +
                                              std::to_string(sizes.size()) + " params");
    for (size_t i = 0; i < sizes.size(); ++i)
        require(sizes[i] == args_[i].size, name_ + ": arg " + std::to_string(i) + " size mismatch");
}

void Test::write(const std::string& dir, const std::string& base) const {
    check_params(base);
    std::ofstream s(dir + "/" + name_ + ".json");
    s << "{\n  \"ptx\": \"" << ptx_ << "\",\n  \"kernel\": \"" << kernel_ << "\",\n  \"grid\": " << list(grid_)
      << ",\n  \"block\": " << list(block_) << ",\n  \"dynamic_shared_bytes\": " << dyn_ << ",\n  \"buffers\": {\n";
    for (size_t i = 0; i < buffers_.size(); ++i) {
        const Buf& b = buffers_[i];
        s << "    \"" << b.name << "\": { \"type\": \"" << b.type << "\", \"count\": " << b.count
          << ", \"init\": " << b.init << " }" << (i + 1 < buffers_.size() ? ",\n" : "\n");
    }
    s << "  },\n  \"args\": [";
    for (size_t i = 0; i < args_.size(); ++i) {
        const Arg& a = args_[i];
        s << (i ? ", " : "");
        if (!a.buffer.empty()) s << "{ \"buffer\": \"" << a.buffer << "\" }";
        else s << "{ \"" << a.type << "\": " << a.value << " }";
    }
    s << "],\n  \"outputs\": [";
    for (size_t i = 0; i < outs_.size(); ++i) s << (i ? ", " : "") << "\"" << outs_[i].name << "\"";
    s << "]\n}\n";

    std::ofstream e(dir + "/" + name_ + ".expected.json");
    e << "{\n";
    for (size_t i = 0; i < outs_.size(); ++i) {
        e << "  \"" << outs_[i].name << "\": [";
        const auto& v = outs_[i].vals;
        for (size_t k = 0; k < v.size(); ++k) e << (k ? (k % 8 ? ", " : ",\n    ") : "") << v[k];
        e << "]" << (i + 1 < outs_.size() || ulp_ ? ",\n" : "\n");
    }
    if (ulp_) e << "  \"tolerance\": { \"ulp\": " << ulp_ << " }\n";
    e << "}\n";
    require(bool(s) && bool(e), name_ + ": write failed");
}

}  // namespace ref

int main(int argc, char** argv) {
    if (argc != 2 && argc != 3) ref::die("usage: gen OUTDIR [SPECDIR]");
    std::string base = argc == 3 ? argv[2] : argv[1];
    for (ref::TestFn f : ref::registry()) {
        ref::Test t = f();
        t.write(argv[1], base);
        std::cout << t.name() << "\n";
    }
}
