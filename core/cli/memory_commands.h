// pipesim memory: the memory model (pipesim/memory.h) as a CLI command, and the flags that give
// `pipesim simulate` a model (its memoryModel) and the text both print.
#pragma once

#include <optional>
#include <ostream>
#include <string>
#include <vector>

#include "args.h"
#include "pipesim/error.h"
#include "pipesim/json.h"
#include "pipesim/memory.h"

namespace pipesim::cli {

/// True for "memory".
bool is_memory_command(const std::string& command);

/// Runs it on its flags; returns everything to print on stdout, or the input error.
Result<std::string> run_memory_command(const std::vector<std::string>& argv);

/// The flags that set a simulation's memoryModel (simulate): model, params, recipe, zero, layout
/// (without pp) and activations.
const std::vector<std::string>& memory_model_flags();

/// The memoryModel JSON those flags give, or nothing when none of them is present.
std::optional<Json> memory_model_from_flags(const Args& args);

/// A result as text: what one GPU holds, then every assumption with its source.
void print_memory_text(const MemoryResult& result, std::ostream& out);

/// Usage lines for the main help text.
extern const char* const kMemoryUsage;

}  // namespace pipesim::cli
