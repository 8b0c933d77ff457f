// Schedules in and out as torch.distributed.pipelining's compute-only CSV (schedules.py:
// PipelineScheduleMulti._dump_csv / _load_csv, _Action.from_str): one row per rank, one cell per
// action in the rank's order, an action being <stage><type><microbatch> with global stage numbers:
// "0F1" forward, "1I0" backward for input (our zero-bubble B), "2W3" weight gradient, "3B0" full
// backward, and "(0F7;7B3)OVERLAP_F_B" an overlapped forward-backward pair. torch's rows are a
// step grid (column k is time step k, one step per action, an empty cell an idle step); we write
// that grid when the run has one (every op lasting the same time) and otherwise each rank's actions
// in order without gaps. Reading skips empty cells, so both forms read back to the same op order. A B followed later on its rank by a W of the same chunk is read as an
// input-only backward: older torch versions wrote input-only backwards as B.
//
// Two-direction schedules (DualPipe, Chimera) have no torch equivalent. They are written with
// direction 1 as a second set of stages (stages + s) fed by the second half of the micro-batches
// (M/2 + mb); on reading, a file whose first-half stages see only first-half micro-batches and
// second-half stages only the rest is read back as two directions. torch itself would run such a
// file as one long pipeline, so it is for round trips and inspection, not for torch.
#pragma once

#include <cstdint>
#include <string>
#include <vector>

#include "pipesim/config.h"
#include "pipesim/engine.h"
#include "pipesim/error.h"
#include "pipesim/json.h"
#include "pipesim/schedule.h"

namespace pipesim {

/// Per rank, in order, the step (0-based column) of each op of a run.
using PytorchCsvSteps = std::vector<std::vector<std::int64_t>>;

/// The steps of `result`'s ops when its timeline (TimelineForm::Ops) is an exact step grid: every
/// op lasts the same time u > 0 and starts at a whole multiple of u (step = start / u). Empty when
/// it is not (unequal costs, a p2p latency that is not a whole step, a communication model).
PytorchCsvSteps pytorch_csv_steps(const SimResult& result);

/// The CSV of `schedule`'s per-rank op lists, rows ending in "\r\n" as Python's csv.writer ends
/// them. With `steps` (pytorch_csv_steps of its run) each action goes in its step's column with
/// empty cells for idle steps, as torch dumps a schedule; a row ends at its last action. Without,
/// the compact form: each rank's actions one after another.
std::string schedule_to_pytorch_csv(const Schedule& schedule, const PytorchCsvSteps& steps = {});

/// Reads a CSV into a Schedule named "custom" (not yet checked: simulate_schedule runs
/// check_schedule). Errors, each naming the 1-based row (rank) and column (cell):
/// invalid_schedule (csv.action: not an action; csv.comm_action: a send, receive or FSDP action;
/// csv.overlap: a pair other than one F then one full B), too_large (csv.too_large: above kMaxRanks
/// rows, kMaxOps actions or kMaxStages stages; input.too_large above kMaxInputBytes of text),
/// invalid_schedule (csv.empty: no action at all).
/// Structural faults (a missing or repeated action) are found later, by check_schedule.
Result<Schedule> schedule_from_pytorch_csv(const std::string& text);

/// simulate_schedule of the CSV's schedule under `costs`, with structural errors re-pointed to
/// the CSV: their path becomes /<row>/<column> (0-based) and the message gains "row R, column C:".
Result<SimResult> simulate_pytorch_csv(const std::string& text, const Costs& costs,
                                       const SimOptions& options = {});

/// The JSON form of a CSV run, {"schedule":"custom","csv":TEXT,"costs"?:{...}} (what the page
/// sends; simulate_request hands such a request here): simulate_pytorch_csv of TEXT, the CSV's
/// errors under /csv (/csv/<row>/<column>), the costs' under /costs. Errors: custom.missing
/// without csv, field.string for a csv that is not a string, field.unknown for any other key.
Result<SimResult> simulate_csv_request(const Json& json, const SimOptions& options = {});

/// The CSV of any request simulate_request runs: a built-in schedule's config (its generated op
/// lists), a hand-written schedule (rankOps) or a CSV one (read and written back). The schedule
/// is checked first, with the errors simulate_request gives, then run under the request's costs:
/// when the run is a step grid (pytorch_csv_steps) the CSV is that grid, else compact (also when
/// the run fails, e.g. a deadlock: such a schedule is still written). What `pipesim export` and
/// the JS exportCsv use.
Result<std::string> pytorch_csv_from_request(const Json& json);

/// The CSV of a built-in schedule's config, as pytorch_csv_from_request writes it (grid or compact
/// by the run under config.costs and config.timing). Errors: those of generate_schedule.
Result<std::string> pytorch_csv_from_config(const SimConfig& config);

}  // namespace pipesim
