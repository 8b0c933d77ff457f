// torch.distributed.pipelining's compute-only CSV in and out (format and direction encoding in
// pipesim/pytorch_csv.h). Reading is one pass over the text into flat actions, then the shape
// (stages, micro-batches, directions) is inferred and the actions become Ops; a 64-rank x 2,000-
// action file reads in a few milliseconds (bench/bench_core.cpp).
#include "pipesim/pytorch_csv.h"

#include <algorithm>
#include <cstdint>
#include <string_view>
#include <vector>

#include "fields.h"
#include "pipesim/custom_schedule.h"
#include "pipesim/json.h"
#include "pipesim/rules.h"

namespace pipesim {
namespace {

// One compute action as torch writes it: global stage, type, micro-batch.
struct Action {
  int stage = 0;
  char type = 'F';  // F, I, W or B
  int mb = 0;
};

// A cell: one action, or an overlapped pair (first the F, then the B).
struct Cell {
  Action first;
  bool pair = false;
  Action second;
  int column = 0;  // 0-based
};

// What torch writes for one of our chunks under the two-direction encoding of the header.
Action to_action(const Schedule& s, const Chunk& c, char type) {
  return Action{c.dir * s.stages + c.stage, type, c.dir * s.microbatches_per_direction + c.mb};
}

void append_action(std::string& out, const Action& a) {
  out += std::to_string(a.stage);
  out += a.type;
  out += std::to_string(a.mb);
}

// Reads a non-negative integer of at most 9 digits at text[pos...].
bool read_int(std::string_view text, std::size_t& pos, int& out) {
  const std::size_t start = pos;
  int v = 0;
  while (pos < text.size() && text[pos] >= '0' && text[pos] <= '9' && pos - start < 9)
    v = v * 10 + (text[pos++] - '0');
  out = v;
  return pos > start && (pos >= text.size() || text[pos] < '0' || text[pos] > '9');
}

// "<stage><F|I|W|B><mb>" exactly (torch's regex also allows a missing micro-batch, which only
// its communication and sharding actions use).
bool parse_action(std::string_view text, Action& a) {
  std::size_t pos = 0;
  if (!read_int(text, pos, a.stage) || pos >= text.size()) return false;
  a.type = text[pos++];
  if (a.type != 'F' && a.type != 'I' && a.type != 'W' && a.type != 'B') return false;
  return read_int(text, pos, a.mb) && pos == text.size();
}

// torch's actions that move data or shard parameters rather than compute.
bool is_comm_action(std::string_view text) {
  std::size_t pos = 0;
  while (pos < text.size() && text[pos] >= '0' && text[pos] <= '9') ++pos;
  if (pos == 0) return false;
  const std::string_view rest = text.substr(pos);
  for (std::string_view name : {"SEND_F", "RECV_F", "SEND_B", "RECV_B", "UNSHARD", "RESHARD", "REDUCE_GRAD"})
    if (rest.substr(0, name.size()) == name) return true;
  return false;
}

std::string_view trim(std::string_view s) {
  while (!s.empty() && (s.front() == ' ' || s.front() == '\t')) s.remove_prefix(1);
  while (!s.empty() && (s.back() == ' ' || s.back() == '\t')) s.remove_suffix(1);
  if (s.size() >= 2 && s.front() == '"' && s.back() == '"') s = s.substr(1, s.size() - 2);
  return s;
}

// The cell is a value the user gave: quoted as its summary (80 bytes), like an op label, so the
// message stays one short line whatever the cell holds (found by fuzz_pytorch_csv: 56 bytes that
// are not UTF-8, each escaped as \xNN, made a 319-byte CLI line under the 200-byte param cap).
Error cell_error(Rule rule, std::size_t row, int column, std::string_view token) {
  return make_error(rule, "/" + std::to_string(row) + "/" + std::to_string(column),
                    {{"row", static_cast<std::int64_t>(row + 1)}, {"column", column + 1},
                     {"token", summary(std::string(token))}});
}

Result<Cell> parse_cell(std::string_view token, std::size_t row, int column) {
  Cell cell;
  cell.column = column;
  if (!token.empty() && token.front() == '(') {
    const std::size_t close = token.find(')');
    const std::size_t semi = token.find(';');
    if (close == std::string_view::npos || token.substr(close + 1) != "OVERLAP_F_B")
      return cell_error(Rule::CsvAction, row, column, token);
    if (semi == std::string_view::npos || semi > close ||
        !parse_action(trim(token.substr(1, semi - 1)), cell.first) ||
        !parse_action(trim(token.substr(semi + 1, close - semi - 1)), cell.second) ||
        cell.first.type != 'F' || cell.second.type != 'B')
      return cell_error(Rule::CsvOverlap, row, column, token);
    cell.pair = true;
    return cell;
  }
  if (parse_action(token, cell.first)) return cell;
  return cell_error(is_comm_action(token) ? Rule::CsvCommAction : Rule::CsvAction, row, column, token);
}

Error too_large() {
  return make_error(Rule::CsvTooLarge, "", {{"ranks", kMaxRanks}, {"ops", kMaxOps}, {"stages", kMaxStages}});
}

// Every row's cells, and the largest stage and micro-batch seen.
struct Grid {
  std::vector<std::vector<Cell>> rows;
  int max_stage = -1;
  int max_mb = -1;
};

Result<Grid> read_grid(const std::string& text) {
  // The same bound as any JSON input (pipesim/json.h): about a million actions.
  if (static_cast<std::int64_t>(text.size()) > kMaxInputBytes)
    return make_error(Rule::InputTooLarge, "", {{"limit", kMaxInputBytes}});
  Grid g;
  std::int64_t actions = 0;
  std::size_t pos = 0;
  while (pos < text.size()) {
    std::size_t end = text.find('\n', pos);
    if (end == std::string::npos) end = text.size();
    std::string_view line(text.data() + pos, end - pos);
    if (!line.empty() && line.back() == '\r') line.remove_suffix(1);
    pos = end + 1;
    if (g.rows.size() >= static_cast<std::size_t>(kMaxRanks)) return too_large();
    const std::size_t row = g.rows.size();
    std::vector<Cell>& cells = g.rows.emplace_back();
    int column = 0;
    for (std::size_t start = 0; start <= line.size(); ++column) {
      std::size_t comma = line.find(',', start);
      if (comma == std::string_view::npos) comma = line.size();
      const std::string_view token = trim(line.substr(start, comma - start));
      start = comma + 1;
      if (token.empty()) continue;  // an idle slot
      auto cell = parse_cell(token, row, column);
      if (!cell.ok()) return cell.error();
      for (const Action* a : {&cell.value().first, cell.value().pair ? &cell.value().second : nullptr}) {
        if (a == nullptr) continue;
        g.max_stage = std::max(g.max_stage, a->stage);
        g.max_mb = std::max(g.max_mb, a->mb);
      }
      if (++actions > kMaxOps) return too_large();
      cells.push_back(cell.value());
    }
  }
  while (!g.rows.empty() && g.rows.back().empty()) g.rows.pop_back();  // trailing blank lines
  if (actions == 0) return make_error(Rule::CsvEmpty, "");
  if (g.max_stage >= 2 * kMaxStages) return too_large();
  return g;
}

// Two directions when the stages and micro-batches split into halves that never meet (header).
bool two_directions(const Grid& g) {
  const int stages = g.max_stage + 1, mbs = g.max_mb + 1;
  if (stages % 2 != 0 || mbs % 2 != 0) return false;
  for (const auto& row : g.rows)
    for (const Cell& c : row)
      for (const Action* a : {&c.first, c.pair ? &c.second : nullptr})
        if (a != nullptr && (a->stage < stages / 2) != (a->mb < mbs / 2)) return false;
  return true;
}

}  // namespace

std::string schedule_to_pytorch_csv(const Schedule& s, const PytorchCsvSteps& steps) {
  std::string out;
  for (std::size_t r = 0; r < s.rank_ops.size(); ++r) {
    const std::vector<Op>& ops = s.rank_ops[r];
    // On the grid, an action's column is its step: one comma per column before it, so the idle
    // steps between two actions are empty cells. Compact: one comma between actions.
    const bool grid = r < steps.size() && steps[r].size() == ops.size();
    std::int64_t column = 0;
    for (std::size_t i = 0; i < ops.size(); ++i) {
      const Op& op = ops[i];
      const std::int64_t target = grid ? steps[r][i] : static_cast<std::int64_t>(i);
      if (i > 0) ++column, out += ',';
      for (; column < target; ++column) out += ',';
      switch (op.kind) {
        case OpKind::Forward: append_action(out, to_action(s, op.chunk, 'F')); break;
        case OpKind::Backward: append_action(out, to_action(s, op.chunk, op.zero_bubble ? 'I' : 'B')); break;
        case OpKind::Weight: append_action(out, to_action(s, op.chunk, 'W')); break;
        case OpKind::ForwardBackward:
          out += '(';
          append_action(out, to_action(s, op.chunk, 'F'));
          out += ';';
          append_action(out, to_action(s, op.backward_chunk, 'B'));
          out += ")OVERLAP_F_B";
          break;
      }
    }
    out += "\r\n";
  }
  return out;
}

Result<Schedule> schedule_from_pytorch_csv(const std::string& text) {
  auto grid = read_grid(text);
  if (!grid.ok()) return grid.error();
  const Grid& g = grid.value();
  Schedule s;
  s.name = "custom";
  s.ranks = static_cast<int>(g.rows.size());
  s.directions = two_directions(g) ? 2 : 1;
  s.stages = (g.max_stage + 1) / s.directions;
  s.microbatches_per_direction = (g.max_mb + 1) / s.directions;
  if (s.stages > kMaxStages || static_cast<std::int64_t>(s.stages) * (g.max_mb + 1) > kMaxOps)
    return too_large();
  s.stages_per_rank = (s.stages * s.directions + s.ranks - 1) / s.ranks;
  s.param_copies = s.directions;
  auto chunk = [&](const Action& a) {
    const int dir = a.stage / s.stages;
    return Chunk{dir, a.mb - dir * s.microbatches_per_direction, a.stage - dir * s.stages};
  };
  // Per chunk, where the last full B is: (rank << 32) + index + 1, 0 for none. An older
  // file's B followed by a W of its chunk becomes an input-only B.
  std::vector<std::int64_t> last_b(static_cast<std::size_t>(s.directions) * s.stages * s.microbatches_per_direction, 0);
  auto slot = [&](const Chunk& c) -> std::int64_t& {
    return last_b[(static_cast<std::size_t>(c.dir) * s.microbatches_per_direction + c.mb) * s.stages + c.stage];
  };
  s.rank_ops.resize(g.rows.size());
  for (std::size_t r = 0; r < g.rows.size(); ++r) {
    std::vector<Op>& ops = s.rank_ops[r];
    ops.reserve(g.rows[r].size());
    const std::int64_t tag = static_cast<std::int64_t>(r) << 32;
    for (const Cell& cell : g.rows[r]) {
      Op op;
      op.chunk = chunk(cell.first);
      if (cell.pair) {
        op.kind = OpKind::ForwardBackward;
        op.backward_chunk = chunk(cell.second);
      } else if (cell.first.type == 'F') {
        op.kind = OpKind::Forward;
      } else if (cell.first.type == 'W') {
        op.kind = OpKind::Weight;
        const std::int64_t b = slot(op.chunk);
        if (b > tag && b <= tag + static_cast<std::int64_t>(ops.size()))
          ops[static_cast<std::size_t>(b - tag - 1)].zero_bubble = true;
      } else {
        op.kind = OpKind::Backward;
        op.zero_bubble = cell.first.type == 'I';
        if (!op.zero_bubble) slot(op.chunk) = tag + static_cast<std::int64_t>(ops.size()) + 1;
      }
      ops.push_back(op);
    }
  }
  return s;
}

namespace {

// check_schedule's /rankOps/<rank>/<index> counts actions; the CSV's columns count cells. An
// error of `text`'s schedule with such a path becomes csv.schedule at /<row>/<column>.
Error csv_schedule_error(const std::string& text, Error e) {
  if (e.path.rfind("/rankOps/", 0) != 0) return e;
  const std::size_t slash = e.path.find('/', 9);
  if (slash == std::string::npos) return e;
  const std::size_t rank = std::stoul(e.path.substr(9, slash - 9));
  const std::size_t index = std::stoul(e.path.substr(slash + 1));
  auto grid = read_grid(text);
  if (!grid.ok() || rank >= grid.value().rows.size() || index >= grid.value().rows[rank].size())
    return e;
  const int column = grid.value().rows[rank][index].column;
  Error wrapped = make_error(Rule::CsvSchedule, "/" + std::to_string(rank) + "/" + std::to_string(column),
                             {{"row", static_cast<std::int64_t>(rank + 1)}, {"column", column + 1},
                              {"detail", e.message}});
  // The check's own error, for clients that say it in another language (its English is detail).
  wrapped.cause = ErrorCause{e.rule, e.params, e.path};
  return wrapped;
}

// An error about the CSV text of a JSON request: its path is inside "csv" ("" becomes "/csv").
Error in_csv(Error e) {
  e.path = "/csv" + e.path;
  return e;
}

}  // namespace

Result<SimResult> simulate_pytorch_csv(const std::string& text, const Costs& costs,
                                       const SimOptions& options) {
  auto schedule = schedule_from_pytorch_csv(text);
  if (!schedule.ok()) return schedule.error();
  auto result = simulate_schedule(schedule.value(), costs, options);
  if (result.ok()) return result;
  return csv_schedule_error(text, result.error());
}

namespace {

// The csv and costs of {"schedule":"custom","csv":TEXT,"costs"?,"stageCosts"?}.
struct CsvRequest {
  std::string text;
  Costs costs;
};

Result<CsvRequest> csv_request(const Json& json) {
  auto fields = detail::FieldReader::open(json, "", "custom schedule",
                                          {"schedule", "csv", "costs", "stageCosts"});
  if (!fields.ok()) return fields.error();
  const detail::FieldReader& f = fields.value();
  if (!f.has("csv")) return make_error(Rule::CustomMissing, "/csv", {{"field", "csv"}});
  CsvRequest req;
  if (Status st = f.read("csv", req.text); !st.ok()) return st.error();
  if (f.has("costs")) {
    auto costs = costs_from_json(f.at("costs"), f.path("costs"));
    if (!costs.ok()) return costs.error();
    req.costs = costs.value();
  }
  if (f.has("stageCosts")) {  // their count is checked against the CSV's stages
    auto stages = stage_costs_from_json(f.at("stageCosts"), f.path("stageCosts"), req.costs);
    if (!stages.ok()) return stages.error();
    req.costs.stages = std::move(stages).value();
  }
  if (Status st = validate_costs(req.costs); !st.ok()) return st.error();
  return req;
}

}  // namespace

Result<SimResult> simulate_csv_request(const Json& json, const SimOptions& options) {
  auto req = csv_request(json);
  if (!req.ok()) return req.error();
  auto result = simulate_pytorch_csv(req.value().text, req.value().costs, options);
  // Errors about the text sit under /csv; a stage cost list of the wrong length stays where it is.
  if (result.ok() || result.error().path.rfind("/stageCosts", 0) == 0) return result;
  return in_csv(result.error());
}

namespace {

// The grid form when `run` (of `schedule`) has a step grid, the compact form otherwise; a run
// that failed (a deadlock) has no times, so its schedule is written compact.
std::string csv_of_run(const Schedule& schedule, const Result<SimResult>& run) {
  return schedule_to_pytorch_csv(schedule, run.ok() ? pytorch_csv_steps(run.value()) : PytorchCsvSteps{});
}

}  // namespace

Result<std::string> pytorch_csv_from_request(const Json& json) {
  const bool custom = json.is_object() && json.contains("schedule") && json.at("schedule") == "custom";
  if (custom && json.contains("csv")) {
    auto req = csv_request(json);
    if (!req.ok()) return req.error();
    auto schedule = schedule_from_pytorch_csv(req.value().text);
    if (!schedule.ok()) return in_csv(schedule.error());
    if (Status st = check_schedule(schedule.value()); !st.ok())
      return in_csv(csv_schedule_error(req.value().text, st.error()));
    return csv_of_run(schedule.value(), simulate_schedule(schedule.value(), req.value().costs));
  }
  if (custom) {
    auto req = custom_schedule_from_json(json);
    if (!req.ok()) return req.error();
    if (Status st = check_schedule(req.value().schedule); !st.ok()) return st.error();
    return csv_of_run(req.value().schedule, simulate_schedule(req.value().schedule, req.value().costs));
  }
  auto config = config_from_json(json);  // parses and validates
  if (!config.ok()) return config.error();
  return pytorch_csv_from_config(config.value());
}

Result<std::string> pytorch_csv_from_config(const SimConfig& config) {
  auto schedule = generate_schedule(config);
  if (!schedule.ok()) return schedule.error();
  return csv_of_run(schedule.value(), simulate(config));
}

}  // namespace pipesim
