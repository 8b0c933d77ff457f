// Private: dense ids for what the trace reader meets as text or numbers (processes, threads,
// flow ids, annotation names), so its records hold 4-byte ids instead of strings. Keys for pid
// and tid are typed text: "n" + an integer's digits or "s" + a string, so 7 and "7" differ.
#pragma once

#include <cstdint>
#include <string>
#include <string_view>
#include <unordered_map>
#include <vector>

namespace pipesim::detail {

class TraceInterner {
 public:
  /// The id of thread (pid, tid); a new one's process goes to the end of `thread_process`.
  std::uint32_t thread(const std::string& pid, const std::string& tid, std::vector<std::uint32_t>& thread_process) {
    const auto process = processes_.emplace(pid, static_cast<std::uint32_t>(processes_.size())).first->second;
    const auto [it, added] = threads_.emplace(pid + '\x1f' + tid, static_cast<std::uint32_t>(threads_.size()));
    if (added) thread_process.push_back(process);
    return it->second;
  }

  /// The id of a flow: numbers (Kineto's ids) without building a string, strings by their key.
  std::uint32_t flow(std::int64_t number) { return flow_numbers_.emplace(number, next_flow()).first->second; }
  std::uint32_t flow(const std::string& key) { return flow_texts_.emplace(key, next_flow()).first->second; }

  /// The id of an annotation name; a new one goes to the end of `names`.
  std::uint32_t name(std::string_view text, std::vector<std::string>& names) {
    const auto [it, added] = names_.emplace(std::string(text), static_cast<std::uint32_t>(names_.size()));
    if (added) names.emplace_back(text);
    return it->second;
  }

 private:
  std::uint32_t next_flow() const { return static_cast<std::uint32_t>(flow_numbers_.size() + flow_texts_.size()); }

  std::unordered_map<std::string, std::uint32_t> processes_, threads_, flow_texts_, names_;
  std::unordered_map<std::int64_t, std::uint32_t> flow_numbers_;
};

}  // namespace pipesim::detail
