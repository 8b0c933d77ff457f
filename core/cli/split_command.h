// Per-stage costs from the CLI: the layer split as a command (pipesim split) and as a flag of
// simulate and export (--layer-split MODEL: the split's stage costs for the config's stages).
#pragma once

#include <string>
#include <vector>

#include "args.h"
#include "pipesim/config.h"
#include "pipesim/error.h"

namespace pipesim::cli {

/// Runs `pipesim split` on its flags; returns everything to print on stdout, or the input error.
Result<std::string> cmd_split(const std::vector<std::string>& argv);

/// --stage-costs or --layer-split of a simulate or export call, into `config`'s costs (its
/// schedule, ranks and chunks give the stages the split needs). Errors: the flags' and the
/// split's; cli.flags_exclusive when both are given.
Status apply_stage_flags(const Args& args, SimConfig& config);

/// Usage lines for the main help text.
extern const char* const kSplitUsage;

}  // namespace pipesim::cli
