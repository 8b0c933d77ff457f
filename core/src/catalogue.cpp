// The catalogue (pipesim/catalogue.h): read off the registry, the limits, the defaults and the
// rule table, never restated.
#include "pipesim/catalogue.h"

#include "overlap/comm_json.h"
#include "pipesim/exercises.h"
#include "pipesim/layer_split.h"
#include "pipesim/formulas.h"
#include "pipesim/memory.h"
#include "pipesim/plan_texts.h"
#include "pipesim/rules.h"
#include "pipesim/sweep.h"
#include "pipesim/timeline_columns.h"
#include "pipesim/trace.h"

namespace pipesim {
namespace {

Json clauses_json(const std::vector<RegionClause>& clauses) {
  Json out = Json::array();
  for (const RegionClause& c : clauses)
    out.push_back(Json{{"left", c.left}, {"op", c.op}, {"right", c.right}});
  return out;
}

/// The formula's region as data, for a client to word in its own language: {any, all, note}.
Json region_json(const ReferenceBubble& ref) {
  Json any = Json::array();
  for (const auto& alternative : ref.any) any.push_back(clauses_json(alternative));
  return Json{{"any", any},
              {"all", clauses_json(ref.all)},
              {"note", ref.note.empty() ? Json(nullptr)
                                        : Json{{"id", ref.note_id}, {"text", ref.note}}}};
}

Json schedule_to_json(const ScheduleInfo& info) {
  const ShapeRules& s = info.shape;
  const StageLayout& l = info.layout;
  // The formula's text, condition and source do not depend on the shape or costs.
  const ReferenceBubble ref = reference_bubble(info.name, 2, 2, 2, Costs{});
  return Json{{"name", info.name},
              {"title", info.title},
              {"source", info.source},
              {"constraints", info.constraints},
              {"shape",
               {{"minRanks", s.min_ranks},
                {"evenRanks", s.even_ranks},
                {"evenMicrobatches", s.even_microbatches},
                {"minMicrobatchesPerRank", s.min_microbatches_per_rank},
                {"microbatchesMultipleOfRanks", s.microbatches_multiple_of_ranks}}},
              {"layout",
               {{"directions", l.directions},
                {"stagesPerRank", l.stages_per_rank},
                {"paramCopies", l.param_copies},
                {"opsPerChunk", l.ops_per_chunk}}},
              // null for a fixed layout; else the range and default of SimConfig::chunks
              {"chunks", info.chunks.taken() ? Json{{"min", info.chunks.min},
                                                    {"max", info.chunks.max},
                                                    {"default", info.chunks.default_chunks}}
                                             : Json(nullptr)},
              {"reference",
               {{"formula", ref.formula},
                {"condition", ref.condition},
                {"region", region_json(ref)},
                {"source", ref.source}}},
              // the timings this schedule runs under: "runtime" only where the op order is
              // DeepSeek's step() (ScheduleInfo::runtime_timing)
              {"timings", info.runtime_timing
                              ? Json::array({timing_name(Timing::Dependency), timing_name(Timing::Runtime)})
                              : Json::array({timing_name(Timing::Dependency)})},
              // whether SimConfig::a2a_overlap (and with it delayWgrad) applies: Megatron-Core's
              // combined 1F1B (ScheduleInfo::a2a_overlap)
              {"a2aOverlap", info.a2a_overlap},
              // the planner's rollback from this schedule, null when nothing is simpler
              {"fallback", info.fallback.empty() ? Json(nullptr) : Json(info.fallback)}};
}

Json limits_json() {
  return Json{{"maxRanks", kMaxRanks},
              {"maxStages", kMaxStages},
              {"maxMicrobatches", kMaxMicrobatches},
              {"maxChunks", kMaxChunks},
              {"maxOps", kMaxOps},
              {"maxCost", kMaxCost},
              {"tick", 1 / kTicksPerUnit},
              {"maxCommLayers", kMaxCommLayers},
              {"maxSweepCells", kMaxSweepCells},
              {"maxSweepOps", kMaxSweepOps},
              {"maxTraceCells", kMaxTraceCells},
              {"maxInputBytes", kMaxInputBytes},
              {"maxTraceBytes", kMaxTraceBytes},
              {"maxDepth", kMaxJsonDepth},
              {"maxPathBytes", kMaxPathBytes},
              {"summaryBytes", kSummaryBytes},
              {"maxParamBytes", kMaxParamBytes}};
}

Json rules_json() {
  Json rules = Json::array();
  for (const RuleInfo& r : list_rules())
    rules.push_back(Json{{"id", r.id},
                         {"code", error_code_name(r.code)},
                         {"message", r.message},
                         {"params", template_params(r.message)}});
  return rules;
}

// The memory model's choices (pipesim/memory.h): its recipes with their sources, the ZeRO stages,
// recomputation, model presets, defaults and limits, so the page offers exactly these.
Json memory_json_catalogue() {
  Json recipes = Json::array();
  for (const PrecisionRecipe& r : precision_recipes()) {
    recipes.push_back(Json{{"id", r.id},
                           {"label", r.label},
                           {"source", r.source},
                           {"reading", r.reading},
                           {"weightBytes", r.weight_bytes},
                           {"gradientBytes", r.gradient_bytes},
                           {"masterBytes", r.master_bytes},
                           {"optimizerBytes", r.optimizer_bytes},
                           {"weightFormat", r.weight_format},
                           {"gradientFormat", r.gradient_format},
                           {"masterFormat", r.master_format},
                           {"optimizerFormat", r.optimizer_format}});
    // The label and source as phrases a client says in its own language (none for a name).
    if (r.label_text) recipes.back()["labelText"] = plan_text_to_json(plan_text(*r.label_text));
    if (r.source_text) recipes.back()["sourceText"] = plan_text_to_json(plan_text(*r.source_text));
  }
  Json models = Json::array();
  for (const ModelConfig& m : model_presets()) {
    models.push_back(Json{{"name", m.name}, {"label", m.label}, {"layers", m.layers},
                          {"hidden", m.hidden}, {"heads", m.heads}, {"routedExperts", m.routed_experts}});
  }
  const MemoryRequest defaults;
  const ActivationSpec activation_defaults;
  return Json{{"recipes", std::move(recipes)},
              {"models", std::move(models)},
              {"zeroStages", Json::array({0, 1, 2, 3})},
              {"recompute", Json::array({recompute_name(Recompute::None), recompute_name(Recompute::Selective),
                                         recompute_name(Recompute::Full)})},
              {"defaults", {{"recipe", defaults.recipe},
                            {"zero", defaults.zero},
                            {"gpuMemoryGb", defaults.gpu_memory_gb},
                            {"tp", defaults.layout.tp},
                            {"pp", defaults.layout.pp},
                            {"ep", defaults.layout.ep},
                            {"dp", defaults.layout.dp},
                            {"seqLength", activation_defaults.seq_length},
                            {"microBatchSize", activation_defaults.micro_batch_size},
                            {"recompute", recompute_name(activation_defaults.recompute)}}},
              {"limits", {{"maxTensorParallel", kMaxTensorParallel},
                          {"maxDataParallel", kMaxDataParallel},
                          {"maxExpertParallel", kMaxExpertParallel},
                          {"maxSeqLength", kMaxSeqLength},
                          {"maxMicroBatchSize", kMaxMicroBatchSize},
                          {"maxZeroStage", kMaxZeroStage},
                          {"maxSides", kMaxMemorySides}}}};
}

Json plan_texts_json() {
  Json texts = Json::array();
  for (const PlanTextInfo& t : list_plan_texts())
    texts.push_back(Json{{"id", t.id}, {"message", t.message}, {"params", plan_text_params(t.message)}});
  return texts;
}

}  // namespace

Json schedules_to_json() {
  Json list = Json::array();
  for (const auto& info : list_schedules())
    list.push_back(Json{{"name", info.name},
                        {"title", info.title},
                        {"constraints", info.constraints},
                        {"source", info.source}});
  return list;
}

namespace {

// The layer split's presets (pipesim/layer_split.h), as layerSplit() results describe them.
Json layer_split_json() {
  Json presets = Json::array();
  for (const char* name : {"deepseek-v3"}) {
    const LayerModel m = layer_model_preset(name).value();
    presets.push_back(Json{{"name", m.name}, {"label", m.label}, {"source", m.source},
                           {"layers", m.layers}, {"embedding", m.embedding}, {"head", m.head},
                           {"mtp", m.mtp}});
  }
  return Json{{"presets", std::move(presets)}};
}

}  // namespace

Json catalogue_to_json() {
  Json schedules = Json::array();
  for (const auto& info : list_schedules()) schedules.push_back(schedule_to_json(info));
  Json ops = Json::array();
  for (OpKind k : {OpKind::Forward, OpKind::Backward, OpKind::Weight, OpKind::ForwardBackward})
    ops.push_back(op_kind_name(k));
  Json timeline = Json::array();
  for (const TimelineColumnInfo& c : timeline_column_infos())
    timeline.push_back(Json{{"name", c.name}, {"type", column_type_name(c.type)}, {"meaning", c.meaning}});
  Json codes = Json::array();
  // Up to Internal: OutputFailed is the CLI's own (error.h), never an answer to a request.
  for (int c = 0; c <= static_cast<int>(ErrorCode::Internal); ++c)
    codes.push_back(error_code_name(static_cast<ErrorCode>(c)));
  return Json{{"schedules", std::move(schedules)},
              {"limits", limits_json()},
              {"costs", costs_to_json(Costs{})},
              {"comm", detail::comm_to_json(CommCosts{})},  // the ratio form's defaults
              {"timing",
               {{"default", timing_name(SimConfig{}.timing)},
                {"values", {timing_name(Timing::Dependency), timing_name(Timing::Runtime)}}}},
              {"opKinds", std::move(ops)},
              {"timeline", std::move(timeline)},
              {"errorCodes", std::move(codes)},
              {"rules", rules_json()},
              // the trace reader's defaults (pipesim/trace.h)
              {"trace",
               {{"commPattern", kDefaultCommPattern},
                {"maxCommPatternBytes", kMaxCommPatternBytes},
                {"maxCommPatternParts", kMaxCommPatternParts},
                {"maxAnnotationDepth", kMaxAnnotationDepth}}},
              {"planTexts", plan_texts_json()},
              {"layerSplit", layer_split_json()},
              {"memory", memory_json_catalogue()}};
}

}  // namespace pipesim
