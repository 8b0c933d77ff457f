// make bench, traces (issue 28): core's trace reader (import_trace) on one trace file, natively:
// the best of 3 reads of the text already in memory, as MB/s (goal: >= 50 MB/s on a 100 MB
// trace), and the process's peak memory, the text included, against the file's size (goal:
// <= 3x). bench/trace-bench.mjs runs it on the trace scripts/kineto-trace.py writes and sets the
// JS API's figures, in Node and in Chromium, beside it. Nothing asserts on time.
#include <sys/resource.h>

#include <algorithm>
#include <chrono>
#include <ctime>
#include <cstdio>
#include <string>

#include "pipesim/trace.h"

using Clock = std::chrono::steady_clock;

int main(int argc, char** argv) {
  if (argc != 2) {
    std::fprintf(stderr, "usage: pipesim_trace_bench TRACE.json\n");
    return 2;
  }
  std::FILE* file = std::fopen(argv[1], "rb");
  if (file == nullptr) {
    std::fprintf(stderr, "cannot read %s\n", argv[1]);
    return 2;
  }
  std::fseek(file, 0, SEEK_END);
  std::string text(static_cast<std::size_t>(std::ftell(file)), '\0');
  std::rewind(file);
  const std::size_t read = std::fread(text.data(), 1, text.size(), file);
  std::fclose(file);
  if (read != text.size()) return 2;
  // Wall time, and CPU time beside it: on a machine shared with other builds the wall time of
  // one read swings with the load, its CPU time much less.
  double best = 1e9, best_cpu = 1e9;
  std::size_t gpu_events = 0;
  for (int i = 0; i < 3; ++i) {
    const auto t0 = Clock::now();
    const std::clock_t c0 = std::clock();
    const auto report = pipesim::import_trace(text);
    best_cpu = std::min(best_cpu, static_cast<double>(std::clock() - c0) / CLOCKS_PER_SEC);
    best = std::min(best, std::chrono::duration<double>(Clock::now() - t0).count());
    if (!report.ok()) {
      std::fprintf(stderr, "%s\n", report.error().message.c_str());
      return 1;
    }
    gpu_events = static_cast<std::size_t>(report.value().gpu_events);
  }
  rusage usage{};
  getrusage(RUSAGE_SELF, &usage);
  const double mb = static_cast<double>(text.size()) / 1e6;
  const double peak = static_cast<double>(usage.ru_maxrss) * 1024;  // Linux: KB
  std::printf("trace import native: %.1f MB, %zu GPU events, best of 3 %.1f ms = %.1f MB/s (goal >= 50 MB/s), "
              "CPU %.1f ms = %.1f MB/s; peak memory %.1f MB = %.2fx the file (goal <= 3x)\n",
              mb, gpu_events, best * 1e3, mb / best, best_cpu * 1e3, mb / best_cpu, peak / 1e6,
              peak / static_cast<double>(text.size()));
  return 0;
}
