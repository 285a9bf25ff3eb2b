// Shards, JSONL logs and expectations of litmus campaigns (campaign.hpp).
#include "checker/campaign.hpp"

#include <fcntl.h>
#include <sys/stat.h>
#include <unistd.h>

#include <cerrno>
#include <cstring>
#include <filesystem>
#include <fstream>
#include <nlohmann/json.hpp>

#include "memmodel/models.hpp"
#include "parser/diagnostic.hpp"

namespace ptxcheck::cli {

namespace fs = std::filesystem;

std::pair<int, int> parse_shard(const std::string& text) {
  int i = 0, n = 0;
  char tail = 0;
  if (std::sscanf(text.c_str(), "%d/%d%c", &i, &n, &tail) != 2 || n < 1 || i < 1 || i > n)
    throw InputError("--shard", {1, 1}, "expected I/N with 1 <= I <= N, got '" + text + "'");
  return {i, n};
}

std::vector<std::string> select_shard(const std::vector<std::string>& files, int i, int n) {
  std::vector<std::string> out;
  for (size_t k = static_cast<size_t>(i - 1); k < files.size(); k += static_cast<size_t>(n)) out.push_back(files[k]);
  return out;
}

Expectations read_expect(const std::string& csv) {
  std::ifstream in(csv);
  if (!in) throw InputError(csv, {}, "cannot read expectations");
  Expectations out;
  uint32_t line_no = 0;
  for (std::string line; std::getline(in, line);) {
    ++line_no;
    while (!line.empty() && (line.back() == '\r' || line.back() == ' ')) line.pop_back();
    if (line.empty() || line[0] == '#') continue;
    size_t comma = line.rfind(',');
    std::string v = comma == std::string::npos ? "" : line.substr(comma + 1);
    if (v != "0" && v != "1") throw InputError(csv, {line_no, 1}, "expected `path,1` or `path,0`");
    out.emplace_back(line.substr(0, comma), v == "1" ? 1 : 0);
  }
  return out;
}

int expected_for(const std::string& path, const Expectations& exp) {
  std::string p = fs::path(path).lexically_normal().string();
  for (const auto& [suffix, v] : exp)
    if (p.size() >= suffix.size() && p.compare(p.size() - suffix.size(), suffix.size(), suffix) == 0 &&
        (p.size() == suffix.size() || p[p.size() - suffix.size() - 1] == '/'))
      return v;
  return -1;
}

namespace {

nlohmann::json parse_line(const std::string& line, const std::string& file, uint32_t line_no) {
  nlohmann::json j;
  try {
    j = nlohmann::json::parse(line);
  } catch (const nlohmann::json::parse_error& e) {
    throw InputError(file, {line_no, static_cast<uint32_t>(e.byte)}, "not a JSON line of `ptxcheck --json`");
  }
  if (!j.is_object() || !j.contains("file") || !j["file"].is_string() || !j.contains("status") ||
      !j["status"].is_string())
    throw InputError(file, {line_no, 1}, "not a JSON line of `ptxcheck --json` (needs \"file\" and \"status\")");
  return j;
}

RunKey key_of(const nlohmann::json& j) {
  return {j["file"].get<std::string>(), j.value("model", mm::default_model_name()), j.value("unroll", 1)};
}

}  // namespace

LitmusRun run_from_json(const std::string& line, const std::string& file, uint32_t line_no) {
  const nlohmann::json j = parse_line(line, file, line_no);
  LitmusRun r;
  try {
    r.path = j["file"].get<std::string>();
    r.name = j.value("name", r.path);
    r.model = j.value("model", mm::default_model_name());
    r.engine = j.value("engine", std::string("enum"));
    r.unroll = j.value("unroll", 1);
    r.seconds = j.value("time", 0.0);
    const std::string st = j["status"].get<std::string>();
    if (st == "decided") {
      const std::string v = j.at("verdict").get<std::string>();
      if (v != "Ok" && v != "No") throw InputError(file, {line_no, 1}, "verdict must be Ok or No");
      r.result.ok = v == "Ok";
      r.result.bound_hit = j.value("bound_hit", false);
      r.result.positive = j.value("positive", uint64_t{0});
      r.result.negative = j.value("negative", uint64_t{0});
    } else {
      r.status = st == "invalid-input" ? LitmusRun::InputErr : st == "limit" ? LitmusRun::LimitErr : LitmusRun::InternalErr;
      r.error = j.value("error", st);
    }
  } catch (const nlohmann::json::exception& e) {
    throw InputError(file, {line_no, 1}, std::string("malformed test line: ") + e.what());
  }
  return r;
}

JsonlLog::JsonlLog(const std::string& path) : path_(path) {
  fd_ = ::open(path.c_str(), O_RDWR | O_CREAT | O_APPEND | O_CLOEXEC, 0644);
  if (fd_ < 0) throw InputError(path, {}, std::string("cannot open JSONL log: ") + std::strerror(errno));
  std::string text;
  char buf[1 << 16];
  for (ssize_t got; (got = ::pread(fd_, buf, sizeof buf, static_cast<off_t>(text.size()))) > 0;)
    text.append(buf, static_cast<size_t>(got));
  // A run killed in the middle of a write leaves a line without its newline:
  // that test is not done; drop the fragment so the file stays line-clean.
  if (!text.empty() && text.back() != '\n') {
    const size_t keep = text.rfind('\n') == std::string::npos ? 0 : text.rfind('\n') + 1;
    if (::ftruncate(fd_, static_cast<off_t>(keep)) != 0)
      throw InputError(path, {}, std::string("cannot drop a partial last line: ") + std::strerror(errno));
    text.resize(keep);
  }
  uint32_t line_no = 0;
  size_t at = 0;
  while (at < text.size()) {
    const size_t nl = text.find('\n', at);
    const std::string line = text.substr(at, nl - at);
    at = nl + 1;
    ++line_no;
    if (line.empty()) continue;
    done_.insert(key_of(parse_line(line, path, line_no)));
  }
}

JsonlLog::~JsonlLog() {
  if (fd_ >= 0) ::close(fd_);
}

void JsonlLog::append(const std::string& json_line) {
  const std::string line = json_line + "\n";
  const ssize_t put = ::write(fd_, line.data(), line.size());
  if (put != static_cast<ssize_t>(line.size()))
    throw InputError(path_, {}, std::string("cannot append: ") + (put < 0 ? std::strerror(errno) : "short write"));
  done_.insert(key_of(nlohmann::json::parse(json_line)));
}

}  // namespace ptxcheck::cli
