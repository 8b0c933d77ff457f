// Text and CSV renderings of simulations, sweeps and the lesson comparison.
#include "text_output.h"

#include <cstdio>
#include <string>

#include "pipesim/comm.h"
#include "memory_commands.h"
#include "pipesim/formulas.h"
#include "text_format.h"

namespace pipesim::cli {
namespace {

std::string percent(double fraction) { return fixed(fraction * 100.0, 1) + "%"; }

constexpr std::size_t kMaxOpsListed = 400;  // per rank; longer lists are summarised

}  // namespace

void print_simulation_text(const SimResult& r, std::ostream& out) {
  const Costs& c = r.config.costs;
  out << r.config.schedule << ": " << r.config.ranks << " ranks, " << r.stages << " stages, "
      << r.config.microbatches << " micro-batches (F=" << shortest(c.forward)
      << " B=" << shortest(c.backward) << " W=" << shortest(c.weight)
      << " F&B=" << shortest(c.overlapped) << " p2p=" << shortest(c.p2p_latency) << ")"
      << (r.config.timing == Timing::Runtime ? ", timing runtime" : "")
      << (r.config.a2a_overlap ? (r.config.delay_wgrad ? ", a2a overlap, delayed wgrad" : ", a2a overlap")
                               : "")
      << "\n";
  if (!c.stages.empty()) {  // they replace F, B, W and F&B above on every stage
    out << "stage costs  F/B/W/F&B:";
    for (std::size_t s = 0; s < c.stages.size(); ++s)
      out << (s == 0 ? " " : ", ") << shortest(c.stages[s].forward) << "/" << shortest(c.stages[s].backward)
          << "/" << shortest(c.stages[s].weight) << "/" << shortest(c.stages[s].overlapped);
    out << "\n";
  }
  out << "makespan     " << shortest(r.makespan) << "\n";
  out << "bubble max   " << shortest(r.bubble_max) << "  (max per-rank idle)\n";
  const ReferenceBubble ref = result_reference(r);
  if (!ref.formula.empty())
    out << "  published " << ref.formula << " = " << shortest(ref.bubble_max)
        << (ref.applies           ? ""
            : ref.reason.empty() ? "  (not exact here: needs " + ref.condition + ")"
                                 : "  (not exact here: " + ref.reason + ")")
        << "\n";
  out << "bubble total " << shortest(r.bubble_total) << "\n";
  out << "bubble frac  " << percent(r.bubble_fraction) << "   utilization " << percent(r.utilization) << "\n";
  if (r.comm)  // the communication model (pipesim/comm.h)
    out << "all-to-all   " << shortest(r.comm->total) << " ("
        << (c.comm->explicit_components ? std::string("explicit components") : "ratio " + shortest(c.comm->ratio)) << ", "
        << c.comm->layers << " layers/chunk, " << part_order_name(part_order(r.config))
        << " part order): exposed " << shortest(r.comm->exposed) << ", hidden "
        << percent(r.comm->hidden_fraction) << "   compute utilization " << percent(r.comm->compute_utilization)
        << "\n";
  out << "stages/rank  " << r.stages_per_rank << "   parameter copies " << r.param_copies
      << "   peak activations " << r.max_peak_activations << "\n";
  if (r.config.memory_model) {  // the memory model (pipesim/memory.h) at this run's peak
    out << "\n";
    print_memory_text(memory_of(memory_request_for(r.config), r.max_peak_activation_memory), out);
  }
  out << "\n";
  out << "rank      busy      idle  peak  ops\n";
  for (const RankStats& s : r.per_rank) {
    const auto& ops = r.timeline[static_cast<std::size_t>(s.rank)];
    out << pad_left(std::to_string(s.rank), 4) << pad_left(shortest(s.busy), 10) << pad_left(shortest(s.idle), 10)
        << pad_left(std::to_string(s.peak_activations), 6) << "  ";
    if (ops.size() > kMaxOpsListed) {
      out << ops.size() << " ops (use --format json for the timeline)\n";
      continue;
    }
    for (std::size_t i = 0; i < ops.size(); ++i) out << (i ? " " : "") << op_label(ops[i].op);
    out << "\n";
  }
}

void print_sweep_text(const std::vector<SweepRow>& rows, std::ostream& out) {
  out << "schedule   ranks  micro  stages   makespan  bubble-max  bubble   peak-act\n";
  for (const SweepRow& r : rows) {
    out << r.schedule << std::string(r.schedule.size() < 10 ? 10 - r.schedule.size() : 1, ' ')
        << pad_left(std::to_string(r.ranks), 6) << pad_left(std::to_string(r.microbatches), 7);
    if (!r.ok) {
      out << "  n/a: " << r.error.message << "\n";
      continue;
    }
    out << pad_left(std::to_string(r.stages), 8) << pad_left(shortest(r.makespan), 11)
        << pad_left(shortest(r.bubble_max), 12) << pad_left(percent(r.bubble_fraction), 8)
        << pad_left(std::to_string(r.max_peak_activations), 11) << "\n";
  }
}

void print_sweep_csv(const std::vector<SweepRow>& rows, std::ostream& out) {
  out << "schedule,ranks,microbatches,stages,makespan,bubble_max,bubble_fraction,utilization,"
         "max_peak_activations,param_copies,error\n";
  for (const SweepRow& r : rows) {
    out << r.schedule << "," << r.ranks << "," << r.microbatches << ",";
    if (!r.ok) {
      std::string msg = r.error.message;
      for (char& ch : msg)
        if (ch == '"') ch = '\'';
      out << ",,,,,,\"" << msg << "\"\n";
      continue;
    }
    out << r.stages << "," << shortest(r.makespan) << "," << shortest(r.bubble_max) << ","
        << shortest(r.bubble_fraction) << "," << shortest(r.utilization) << ","
        << r.max_peak_activations << "," << r.param_copies << ",\n";
  }
}

namespace {

void print_cells(const std::vector<LessonCell>& cells, bool by_stages, std::ostream& out) {
  out << pad_left(by_stages ? "P" : "M", 5) << "  schedule     lesson   simulated\n";
  for (const LessonCell& c : cells) {
    out << pad_left(std::to_string(by_stages ? c.stages : c.microbatches), 5) << "  " << c.schedule
        << std::string(11 - c.schedule.size(), ' ') << pad_left(percent(c.lesson), 8) << "  ";
    if (!c.simulated) {
      out << "     n/a  (" << c.note << ")\n";
      continue;
    }
    out << pad_left(percent(*c.simulated), 9) << (c.differs ? "  <- differs" : "") << "\n";
  }
}

}  // namespace

void print_lesson_text(const LessonReport& r, std::ostream& out) {
  const Costs& c = r.costs;
  out << "The lesson script's bubble fractions beside simulated ones (F=" << shortest(c.forward)
      << " B=" << shortest(c.backward) << " W=" << shortest(c.weight)
      << " F&B=" << shortest(c.overlapped) << "). P = pipeline stages; DualPipeV runs P stages on\n"
      << "P/2 ranks. \"differs\" marks a gap above " << fixed(kLessonTolerance * 100, 1)
      << " percentage points.\n\n";
  out << "Step 1: P=8, M=16\n";
  print_cells(r.step1, true, out);
  out << "\nStep 2: P=8, M sweep\n";
  print_cells(r.step2, false, out);
  out << "\nStep 3: M=64, P sweep\n";
  print_cells(r.step3, true, out);
  out << "\nStep 4: GPU-hours recovered moving 1F1B -> DualPipe at P=16, M=128 over "
      << shortest(r.total_gpu_hours) << " GPU-hours\n";
  print_cells({r.step4_1f1b, r.step4_dualpipe}, true, out);
  out << "  lesson:    " << fixed(r.step4_lesson_recovered, 0) << " GPU-hours\n";
  out << "  simulated: " << fixed(r.step4_simulated_recovered, 0) << " GPU-hours\n";
}

}  // namespace pipesim::cli
