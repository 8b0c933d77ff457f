// The precision recipes: bytes per parameter of each kind of training state, as data, each with
// the source that states it. A recipe is added here and nowhere else: the CLI, the JSON reader,
// the catalogue (the page's choices) and the results' assumptions all read this table.
#include <optional>
#include <string>
#include <vector>

#include "fields.h"
#include "pipesim/memory.h"
#include "pipesim/rules.h"

namespace pipesim {

namespace {

// The recipe with its label (unless a name) and source in English from their rows of
// PIPESIM_MEMORY_TEXTS, so the words are written once.
PrecisionRecipe said(PrecisionRecipe r) {
  if (r.label_text) r.label = plan_text(*r.label_text).english();
  if (r.source_text) r.source = plan_text(*r.source_text).english();
  return r;
}

}  // namespace

// Formats are number formats only ("fp32", not "fp32 momentum and variance"): every language
// shows them as written, and what the bytes hold is the recipe's source, a phrase.
const std::vector<PrecisionRecipe>& precision_recipes() {
  static const std::vector<PrecisionRecipe> kRecipes = {
      said({
               "mixed-adam",
               "",
               "",
               "",
               2, 2, 4, 8,
               "fp16/bf16", "fp16/bf16", "fp32", "fp32",
               PlanTextId::MemoryRecipeMixedAdam, PlanTextId::MemoryRecipeMixedAdamSource,
           }),
      said({
          "deepseek-v3",
          "DeepSeek-V3",
          "",
          // §3.3.3 lists the master weights, gradients and moments, not the weights the GEMMs
          // read. Its FP8 framework (§3.3, Figure 6) quantizes each Linear's weight to FP8 as the
          // GEMM runs, from a BF16 copy of the FP32 master: we count that BF16 copy.
          "the report does not list the weights the GEMMs read: we read its FP8 framework (§3.3, "
          "Figure 6) as keeping a BF16 copy of the FP32 master weights, quantized to FP8 as each "
          "GEMM runs, and count 2 bytes for it (no lasting FP8 copy)",
          2, 4, 4, 4,
          "bf16", "fp32", "fp32", "bf16",
          std::nullopt, PlanTextId::MemoryRecipeDeepSeekSource,
      }),
  };
  return kRecipes;
}

Result<PrecisionRecipe> find_recipe(const std::string& id, const std::string& path) {
  std::string allowed;
  for (const PrecisionRecipe& r : precision_recipes()) {
    if (r.id == id) return r;
    allowed += (allowed.empty() ? "" : ", ") + r.id;
  }
  return make_error(Rule::FieldOneOf, path,
                    {{"field", detail::dotted(path)}, {"allowed", allowed}, {"got", summary(id)}});
}

const char* recompute_name(Recompute recompute) {
  switch (recompute) {
    case Recompute::None:
      return "none";
    case Recompute::Selective:
      return "selective";
    case Recompute::Full:
      return "full";
  }
  return "none";
}

}  // namespace pipesim
