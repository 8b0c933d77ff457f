// Flags as the JSON a page would send: the CLI's calculators build the same JSON request the WASM
// module receives from their flags, so both report the same errors. Shared by
// exercise_commands.cpp and memory_commands.cpp.
#pragma once

#include <string>
#include <utility>
#include <vector>

#include "args.h"
#include "pipesim/json.h"

namespace pipesim::cli {

/// A flag's text as the JSON value a page would send: a number (exactly as JSON writes numbers,
/// parse_json_number), true/false, or else a string, which the request's reader then rejects
/// where it wants a number ("ranks must be an integer (got "0x10")").
inline Json flag_json(const std::string& text) {
  if (text == "true") return true;
  if (text == "false") return false;
  if (auto number = parse_json_number(text)) return *number;
  return text;
}

/// A flag's name and the JSON key it fills.
using FlagKeys = std::vector<std::pair<const char*, const char*>>;

/// A custom model's configuration ("custom" in a params or memory request), flag by flag: the one
/// list `pipesim params` and `pipesim memory` both read.
inline const FlagKeys& custom_model_flags() {
  static const FlagKeys kFlags = {{"layers", "layers"},
                                  {"hidden", "hidden"},
                                  {"intermediate", "intermediate"},
                                  {"vocab", "vocab"},
                                  {"heads", "heads"},
                                  {"kv-heads", "kvHeads"},
                                  {"head-dim", "headDim"},
                                  {"tied-embeddings", "tiedEmbeddings"},
                                  {"dense-layers", "denseLayers"},
                                  {"routed-experts", "routedExperts"},
                                  {"shared-experts", "sharedExperts"},
                                  {"expert-intermediate", "expertIntermediate"}};
  return kFlags;
}

/// Copies present flags into `json` under their JSON names.
inline void copy_flags(const Args& args, Json& json, const FlagKeys& names) {
  for (const auto& [flag, key] : names)
    if (args.has(flag)) json[key] = flag_json(args.get(flag, ""));
}

}  // namespace pipesim::cli
