// C++ reference for k.cu: same float operation order as the kernel.
#include <cstdio>
#include <cstring>
float poly(float x, int k) { float r = 1.f; for (int i = 0; i < k; ++i) r = r * x + 0.5f; return r; }
int fib(int n) { return n < 2 ? n : fib(n - 1) + fib(n - 2); }
int main() {
  const int n = 300; float in[n]; for (int i = 0; i < n; ++i) in[i] = (float)((i*37%101)/10.0);
  float out[3]; int hist[8] = {0}; unsigned long long total = 0;
  for (int b = 0; b < 3; ++b) {
    float s[128];
    for (int t = 0; t < 128; ++t) { int i = b*128+t; s[t] = i < n ? poly(in[i], 3) : 0.f; }
    for (int st = 64; st > 16; st >>= 1) for (int t = 0; t < st; ++t) s[t] += s[t+st];
    float w[32]; for (int t = 0; t < 32; ++t) w[t] = s[t];
    for (int o = 16; o; o >>= 1) { float nw[32]; for (int t = 0; t < 32; ++t) nw[t] = w[t] + (t + o < 32 ? w[t+o] : w[t]); memcpy(w, nw, sizeof w); }
    out[b] = w[0];
  }
  for (int i = 0; i < n; ++i) { hist[((int)in[i]) & 7]++; total += fib(i % 10); }
  printf("{\"out\": ["); for (int b = 0; b < 3; ++b) printf("%s%.9g", b ? ", " : "", out[b]); printf("], \"hist\": [");
  for (int k = 0; k < 8; ++k) printf("%s%d", k ? ", " : "", hist[k]); printf("], \"total\": [%llu]}\n", total);
}
