// The CLI's own rules (flags, files, commands), made like core's (pipesim/rules.h): a stable id,
// a code and an English template, so every error the CLI prints is one filled-in template.
// They never reach the page, so they are not in the catalogue.
#pragma once

#include "pipesim/error.h"

namespace pipesim::cli {

// X(enumerator, id, code, English template)
#define PIPESIM_CLI_RULES(X)                                                                     \
  X(UnknownCommand, "cli.unknown_command", InvalidConfig,                                        \
    "unknown command \"{command}\" (try pipesim help)")                                          \
  X(UnexpectedArgument, "cli.unexpected_argument", InvalidConfig, "unexpected argument \"{arg}\"")\
  X(FlagNeedsValue, "cli.flag_needs_value", InvalidConfig, "--{flag} needs a value")             \
  X(SwitchValue, "cli.switch_value", InvalidConfig, "--{flag} takes no value (got \"{got}\")")   \
  X(UnknownOption, "cli.unknown_option", InvalidConfig, "unknown option --{flag}")               \
  X(FlagTwice, "cli.flag_twice", InvalidConfig, "--{flag} is given twice")                       \
  X(FlagMissing, "cli.flag_missing", InvalidConfig, "missing --{flag}")                          \
  X(FlagNeedsCommRatio, "cli.needs_comm_ratio", InvalidConfig, "--{flag} needs --comm-ratio")    \
  X(FlagWithInput, "cli.flag_with_input", InvalidConfig, "--{flag} cannot be combined with --input") \
  X(FlagChoice, "cli.flag_choice", InvalidConfig, "{flag} must be {allowed} (got {got})")        \
  X(InputMissing, "cli.input_missing", InvalidConfig, "missing --input (a spec file, or - for stdin)") \
  X(CommRatioMissing, "cli.comm_ratio_missing", InvalidConfig,                                   \
    "missing --comm-ratio (or --input with a comm model)")                                       \
  X(InputUnreadable, "cli.input_unreadable", InvalidConfig, "cannot read input file {file}")     \
  X(IntList, "cli.int_list", InvalidConfig,                                                      \
    "{field} must be a list like 4,8,16 or a range like 4:64:2 (got {got})")                     \
  X(ListEmptyEntry, "cli.list_empty_entry", InvalidConfig,                                       \
    "{field} has an empty entry (got \"{got}\")")                                                \
  X(RangeTooLong, "cli.range_too_long", TooLarge, "{field} range is too long")                   \
  X(OutputFailed, "cli.output_failed", OutputFailed, "cannot write standard output: {reason}")   \
  X(OutputFileFailed, "cli.output_file_failed", OutputFailed,                                    \
    "cannot write \"{file}\": {reason}")                                                         \
  X(TraceMissing, "cli.trace_missing", InvalidConfig,                                            \
    "missing the trace (pipesim trace-import FILE, or --input - for stdin)")                     \
  X(TraceTwice, "cli.trace_twice", InvalidConfig,                                                \
    "give the trace once, as FILE or as --input, not both")\
  X(FlagsExclusive, "cli.flags_exclusive", InvalidConfig,                                      \
    "--{flag} cannot be combined with --{other}")                                                \
  X(StageCostsList, "cli.stage_costs", InvalidConfig,                                            \
    "--stage-costs must be stages like 1/2/1/3,0.5/1,1x14 (F/B/W/F&B, empty fields take the "     \
    "costs, xN repeats) or a .json file (got {got})")

enum class CliRule {
#define PIPESIM_CLI_RULE_ENUM(name, id, code, text) name,
  PIPESIM_CLI_RULES(PIPESIM_CLI_RULE_ENUM)
#undef PIPESIM_CLI_RULE_ENUM
};

/// The error of `rule` at `path` with `params`.
Error cli_error(CliRule rule, ErrorParams params = {}, std::string path = "");

}  // namespace pipesim::cli
