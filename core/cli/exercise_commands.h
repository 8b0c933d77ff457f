// The exercise calculators as CLI commands: pipesim recover | params | trace. Flags are turned
// into the same JSON request the WASM module receives, so both report the same errors.
#pragma once

#include <string>
#include <vector>

#include "pipesim/error.h"

namespace pipesim::cli {

/// True for "recover", "params" and "trace".
bool is_exercise_command(const std::string& command);

/// Runs one of them on its flags; returns everything to print on stdout, or the input error.
Result<std::string> run_exercise_command(const std::string& command,
                                         const std::vector<std::string>& argv);

/// Usage lines for the main help text.
extern const char* const kExerciseUsage;

}  // namespace pipesim::cli
