// Reference framework for the kernel corpus: a Test records a launch spec
// (PTX path, kernel, grid, block, buffers with their init, args, outputs)
// together with the expected output values computed by plain C++ that mirrors
// the CUDA source. write() emits NAME.json and NAME.expected.json in the
// format of docs/launch-spec.md, after checking the args against the
// kernel's .param list in the PTX file. No PTX is executed here.
#pragma once
#include "numerics.hpp"
#include <cstdint>
#include <functional>
#include <string>
#include <type_traits>
#include <vector>

namespace ref {

// Element types of spec buffers; Half and BF16 hold raw bit patterns.
template <class T> struct TypeInfo;
#define REF_TYPE(CT, NAME) \
    template <> struct TypeInfo<CT> { static constexpr const char* name = NAME; };
REF_TYPE(uint8_t, "u8") REF_TYPE(int8_t, "s8") REF_TYPE(uint16_t, "u16") REF_TYPE(int16_t, "s16")
REF_TYPE(uint32_t, "u32") REF_TYPE(int32_t, "s32") REF_TYPE(uint64_t, "u64") REF_TYPE(int64_t, "s64")
REF_TYPE(Half, "f16") REF_TYPE(BF16, "bf16") REF_TYPE(float, "f32") REF_TYPE(double, "f64")
#undef REF_TYPE

// JSON text of one value, read back bit-exactly by value (launch-spec.md).
std::string fmt(int64_t v);
std::string fmt(uint64_t v);
inline std::string fmt(int32_t v) { return fmt(int64_t(v)); }
inline std::string fmt(uint32_t v) { return fmt(uint64_t(v)); }
inline std::string fmt(int16_t v) { return fmt(int64_t(v)); }
inline std::string fmt(uint16_t v) { return fmt(uint64_t(v)); }
inline std::string fmt(int8_t v) { return fmt(int64_t(v)); }
inline std::string fmt(uint8_t v) { return fmt(uint64_t(v)); }
std::string fmt(float v);
std::string fmt(double v);
std::string fmt(Half v);
std::string fmt(BF16 v);

// A buffer initialiser: its JSON form and the values it denotes.
template <class T> struct Init {
    std::string json;
    std::function<std::vector<T>(size_t)> make;
};
template <class T> Init<T> zero() {
    return {"\"zero\"", [](size_t n) { return std::vector<T>(n, T{}); }};
}
template <class T> Init<T> fill(T v) {
    return {"{ \"fill\": " + fmt(v) + " }", [v](size_t n) { return std::vector<T>(n, v); }};
}
// Integer iota (element i = start + i*step, wrapping to the type).
template <class T> Init<T> iota(int64_t start, int64_t step) {
    static_assert(std::is_integral_v<T>, "use fiota for floating-point buffers");
    return {"{ \"iota\": { \"start\": " + fmt(start) + ", \"step\": " + fmt(step) + " } }",
            [=](size_t n) {
                std::vector<T> v(n);
                for (size_t i = 0; i < n; ++i) v[i] = T(uint64_t(start) + uint64_t(step) * i);
                return v;
            }};
}
// Float iota; start and step must make every element exact in T (checked).
template <class T> Init<T> fiota(double start, double step);
// An explicit list; shorter than count repeats cyclically.
template <class T> Init<T> values(std::vector<T> vals) {
    std::string s = "{ \"values\": [";
    for (size_t i = 0; i < vals.size(); ++i) s += (i ? (i % 16 ? ", " : ",\n        ") : "") + fmt(vals[i]);
    s += "] }";
    return {s, [vals](size_t n) {
                std::vector<T> v(n);
                for (size_t i = 0; i < n; ++i) v[i] = vals[i % vals.size()];
                return v;
            }};
}

// The block-reversal kernels: every block of `per` elements of in reversed,
// each element mapped by f.
template <class T, class F> std::vector<T> reversed_blocks(const std::vector<T>& in, size_t per, F f) {
    std::vector<T> out(in.size());
    for (size_t b = 0; b < in.size() / per; ++b)
        for (size_t i = 0; i < per; ++i) out[b * per + i] = T(f(in[b * per + per - 1 - i]));
    return out;
}

class Test {
public:
    // ptx is relative to corpus/kernels/, e.g. "../ptx/sm_80/saxpy.ptx".
    Test(std::string name, std::string ptx, std::string kernel, std::vector<unsigned> grid,
         std::vector<unsigned> block, unsigned dynamic_shared_bytes = 0);

    template <class T> std::vector<T> buffer(const std::string& name, size_t count, const Init<T>& init) {
        buffers_.push_back({name, TypeInfo<T>::name, count, sizeof(T), init.json});
        return init.make(count);
    }
    void arg_buffer(const std::string& name);
    // buffer() that is also passed as the next kernel argument.
    template <class T> std::vector<T> buffer_arg(const std::string& name, size_t count, const Init<T>& init) {
        std::vector<T> v = buffer<T>(name, count, init);
        arg_buffer(name);
        return v;
    }
    template <class T> void arg(T v) { args_.push_back({TypeInfo<T>::name, fmt(v), sizeof(T), ""}); }
    // Records an output buffer's expected final contents (must match its count).
    template <class T> void expect(const std::string& name, const std::vector<T>& v) {
        std::vector<std::string> s;
        for (const T& x : v) s.push_back(fmt(x));
        expect_raw(name, TypeInfo<T>::name, s);
    }
    void tolerance_ulp(unsigned ulp) { ulp_ = ulp; }
    // Writes DIR/NAME.json and DIR/NAME.expected.json; aborts on any
    // inconsistency. The PTX path is resolved against base (the folder the
    // spec will live in, normally DIR).
    void write(const std::string& dir, const std::string& base) const;
    const std::string& name() const { return name_; }

private:
    struct Buf { std::string name, type; size_t count, elem; std::string init; };
    struct Arg { std::string type, value; size_t size; std::string buffer; };
    struct Out { std::string name; std::vector<std::string> vals; };
    void expect_raw(const std::string& name, const std::string& type, const std::vector<std::string>& vals);
    void check_params(const std::string& dir) const;
    std::string name_, ptx_, kernel_;
    std::vector<unsigned> grid_, block_;
    unsigned dyn_;
    std::vector<Buf> buffers_;
    std::vector<Arg> args_;
    std::vector<Out> outs_;
    unsigned ulp_ = 0;
};

// Every test registers a function building its Test; main runs them all.
using TestFn = Test (*)();
std::vector<TestFn>& registry();
struct Register { explicit Register(TestFn f) { registry().push_back(f); } };
#define REF_TEST(FN) static ref::Test FN(); static ref::Register reg_##FN(FN); static ref::Test FN()

[[noreturn]] void die(const std::string& msg);
inline void require(bool ok, const std::string& msg) { if (!ok) die(msg); }

}  // namespace ref
