// Core benchmarks (issue #2): simulated ops per second for DualPipe at R=64 M=1024 and R=16
// M=4096, for every catalogue schedule at R=64 M=1024 (issue 26: each simulate() with its
// timeline >= 50 Mops/s natively, in the first table: a fresh result each call), and
// the wall time of a full sweep (the catalogue but Chimera x even R 4..64 x M in {2R,4R,8R,16R}).
// Built natively and, for the wasm-vs-native ratios, as a Node program (see CMakeLists.txt).
// Each figure is the best of several repetitions, measured in one run; nothing asserts on time.
// The process's first sweep is reported too, before anything warms up: natively that is what the
// CLI's sweep costs (a fresh heap), in wasm it includes V8's tiering.
#include <algorithm>
#include <chrono>
#include <cstdio>
#include <utility>
#include <vector>

#include "pipesim/engine.h"
#include "pipesim/pytorch_csv.h"
#include "pipesim/sweep.h"

#ifdef __GLIBC__
#include <malloc.h>
#endif

using namespace pipesim;
using Clock = std::chrono::steady_clock;

// Calls per simulate() distribution: enough for a p95 of more than a couple of calls.
constexpr int kDistributionReps = 61;

namespace {

// Seconds of each of `reps` calls, sorted.
template <typename F>
std::vector<double> sorted_seconds(int reps, F&& f) {
  std::vector<double> times;
  for (int i = 0; i < reps; ++i) {
    const auto t0 = Clock::now();
    f();
    times.push_back(std::chrono::duration<double>(Clock::now() - t0).count());
  }
  std::sort(times.begin(), times.end());
  return times;
}

template <typename F>
double best_seconds(int reps, F&& f) {
  return sorted_seconds(reps, f).front();
}

std::size_t op_count(const SimConfig& config) {
  const Schedule schedule = generate_schedule(config).value();
  std::size_t ops = 0;
  for (const auto& list : schedule.rank_ops) ops += list.size();
  return ops;
}

SweepRequest full_sweep() {
  SweepRequest sweep;
  for (const auto& info : list_schedules())
    if (info.name != "chimera") sweep.schedules.push_back(info.name);
  for (int r = 4; r <= 64; r += 2) sweep.ranks.push_back(r);
  sweep.microbatches = {{2, true}, {4, true}, {8, true}, {16, true}};
  return sweep;
}

void bench_simulation(int ranks, int microbatches) {
  const SimConfig config{"dualpipe", ranks, microbatches, Costs{}};
  const Schedule schedule = generate_schedule(config).value();
  std::size_t ops = 0;
  for (const auto& list : schedule.rank_ops) ops += list.size();
  // Warm-up: V8 first runs wasm in its baseline compiler and swaps in optimised code, compiled in
  // the background, only for later calls. Half a second of calls covers that on a busy 2-core
  // machine (five calls did not: the first shape measured came out up to 2x slower than the next).
  const auto warm_until = Clock::now() + std::chrono::milliseconds(500);
  while (Clock::now() < warm_until) (void)simulate(config);
  const double total = best_seconds(5, [&] { (void)simulate(config); });
  const double checked = best_seconds(5, [&] { (void)simulate_schedule(schedule, config.costs); });
  std::printf("dualpipe R=%-3d M=%-5d %8zu ops  simulate() %7.2f Mops/s (%6.2f ms)  checked simulate_schedule() %7.2f Mops/s\n",
              ranks, microbatches, ops, ops / total / 1e6, total * 1e3, ops / checked / 1e6);
  // The distributions the JS API's simulate is set against (wasm-bench.mjs): on a shared machine
  // the median is the figure two processes can compare, the best is not. Ops is simulate() as
  // the CLI calls it; Columns is what the JS API's call runs inside the module, which also records
  // the activation steps ("steps": the same with them, so the two lines give their cost).
  struct Variant {
    SimOptions options;
    const char* name;
  };
  // A plain loop variable: C++17 lambdas cannot capture structured bindings (clang rejects it).
  for (const Variant& variant : {Variant{{TimelineForm::Ops, false}, "ops"},
                                 Variant{{TimelineForm::Columns, false}, "columns"},
                                 Variant{{TimelineForm::Columns, true}, "steps"}}) {
    const std::vector<double> times =
        sorted_seconds(kDistributionReps, [&] { (void)simulate(config, variant.options); });
    std::printf("dualpipe R=%-3d M=%-5d simulate(%s) over %d calls: median %.3f ms, p95 %.3f ms\n", ranks,
                microbatches, variant.name, kDistributionReps, times[times.size() / 2] * 1e3,
                times[times.size() * 95 / 100] * 1e3);
  }
}

// Issue 12's import goal: a 64-rank x 2,000-action torch CSV read in under 50 ms (native). 1F1B
// at R=64, M=1000 is exactly that: every rank runs 1,000 F and 1,000 B.
void bench_csv_import() {
  const SimConfig config{"1f1b", 64, 1000, Costs{}};
  const std::string csv = schedule_to_pytorch_csv(generate_schedule(config).value());
  const double read = best_seconds(5, [&] { (void)schedule_from_pytorch_csv(csv); });
  const double run = best_seconds(5, [&] { (void)simulate_pytorch_csv(csv, config.costs); });
  std::printf("torch CSV import, 64 ranks x 2000 actions (%zu KB): read %.2f ms, read + check + simulate %.2f ms (goal: read < 50 ms native)\n",
              csv.size() / 1024, read * 1e3, run * 1e3);
}

// One line per schedule, generation included (simulate() generates, then runs), default chunks:
// with the timeline, as the page asks, and metrics only, as a sweep cell runs. The lines do not
// start "dualpipe R=", which wasm-bench.mjs reads as the DualPipe figures.
// One line per catalogue schedule: simulate() with its timeline, and (when `metrics_too`) with
// metrics only.
void print_schedule_rates(int ranks, int microbatches, bool metrics_too) {
  SimOptions metrics_only;
  metrics_only.timeline = TimelineForm::None;
  for (const auto& info : list_schedules()) {
    const SimConfig config{info.name, ranks, microbatches, Costs{}};
    const std::size_t ops = op_count(config);
    const double full = best_seconds(5, [&] { (void)simulate(config); });
    std::printf("  %-17s %8zu ops %7.2f Mops/s", info.name.c_str(), ops, ops / full / 1e6);
    if (metrics_too)
      std::printf(" %7.2f Mops/s", ops / best_seconds(5, [&] { (void)simulate(config, metrics_only); }) / 1e6);
    std::printf("\n");
  }
}

void bench_every_schedule(int ranks, int microbatches) {
  std::printf("every schedule at R=%d M=%d: simulate() with timeline, and metrics only:\n", ranks,
              microbatches);
  print_schedule_rates(ranks, microbatches, true);
}

#ifdef __GLIBC__
// Natively, a timeline of more than a few MB is slow in a loop for a reason outside the engine:
// glibc sizes its heap thresholds by the largest single block freed (one rank's op list, ~150
// KB), so after each call it hands the timeline's ~10 MB back to the OS and the next call faults
// every page in again. Page faults are slow on the VMs this runs on (zb-h1 64x1024: ~250 ms a
// call with defaults, ~2 ms with the heap kept). A long-running embedder would keep its heap, so
// this repeats the with-timeline figures with glibc told to, printed last because the setting
// changes the process for good. wasm never returns memory, so its figures need no such line.
void bench_every_schedule_heap_kept(int ranks, int microbatches) {
  mallopt(M_MMAP_THRESHOLD, 64 << 20);
  mallopt(M_TRIM_THRESHOLD, 256 << 20);
  std::printf("every schedule at R=%d M=%d, simulate() with timeline, glibc heap kept between calls:\n",
              ranks, microbatches);
  print_schedule_rates(ranks, microbatches, false);
}
#endif

}  // namespace

int main() {
#ifdef __EMSCRIPTEN__
  std::printf("core benchmarks, wasm under Node (best of 5)\n");
#else
  std::printf("native benchmarks (best of 5; goal: every schedule's simulate() with timeline >= 50 Mops/s at R=64 M=1024)\n");
#endif
  const SweepRequest sweep = full_sweep();
  const double first = best_seconds(1, [&] { (void)run_sweep(sweep); });
  bench_simulation(64, 1024);
  bench_simulation(16, 4096);
  bench_every_schedule(64, 1024);
  std::size_t cells = 0;
  const double seconds = best_seconds(3, [&] { cells = run_sweep(sweep).value().size(); });
  std::printf("full sweep: %zu cells (%zu schedules x %zu ranks x 4 M) in %.1f ms\n", cells,
              sweep.schedules.size(), sweep.ranks.size(), seconds * 1e3);
  std::printf("the process's first sweep (cold): %.1f ms\n", first * 1e3);
  bench_csv_import();
#ifdef __GLIBC__
  bench_every_schedule_heap_kept(64, 1024);
#endif
  return 0;
}
