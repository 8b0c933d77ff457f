// Every rule pipesim can report an input breaking, in one table: a stable id, its error code and
// the English message as a template whose {placeholders} are the error's params. An Error is only
// ever made from a row of this table (make_error), so the table is the complete list a client has
// to say in its own language: the page renders rule + params with its own templates, and
// tests/browser check that each id here has one. Never rename an id or a placeholder; add rows.
//
// Conventions for params: {field} is the input's name in dotted form ("costs.forward"); {got} is
// the value received: a number for range rules, and for type rules the received JSON as text
// (strings keep their quotes). Numbers print as format_number does (15 significant digits).
// A value the user gave is quoted through summary() (at most kSummaryBytes, one line), and every
// string param is held to kMaxParamBytes the same way, so a message is one short line.
#pragma once

#include <cstddef>
#include <cstdint>
#include <initializer_list>
#include <string>
#include <type_traits>
#include <vector>

#include "pipesim/error.h"

namespace pipesim {

// X(enumerator, id, code, English template)
#define PIPESIM_RULES(X)                                                                          \
  /* reading JSON */                                                                              \
  X(JsonInvalid, "json.invalid", ParseError, "input is not valid JSON: {detail}")                 \
  X(JsonTooDeep, "json.too_deep", ParseError,                                                     \
    "input nests arrays and objects more than {limit} levels deep")                               \
  X(JsonDuplicateKey, "json.duplicate_key", ParseError,                                           \
    "input has the key \"{key}\" twice in one object")                                            \
  X(InputTooLarge, "input.too_large", TooLarge, "input is larger than the limit of {limit} bytes")\
  X(FieldUnknown, "field.unknown", InvalidConfig, "unknown field \"{key}\"")                      \
  X(FieldUnknownIn, "field.unknown_in", InvalidConfig, "unknown field \"{key}\" in {object}")     \
  X(FieldMissing, "field.missing", InvalidConfig, "missing field {field}")                        \
  X(FieldInteger, "field.integer", InvalidConfig, "{field} must be an integer (got {got})")      \
  X(FieldInteger32, "field.integer32", InvalidConfig,                                             \
    "{field} must be an integer in the 32-bit range (got {got})")                                 \
  X(FieldNumber, "field.number", InvalidConfig, "{field} must be a number (got {got})")           \
  X(FieldString, "field.string", InvalidConfig, "{field} must be a string (got {got})")           \
  X(FieldNonEmptyString, "field.non_empty_string", InvalidConfig,                                 \
    "{field} must be a non-empty string (got {got})")                                             \
  X(FieldBoolean, "field.boolean", InvalidConfig, "{field} must be true or false (got {got})")    \
  X(FieldObject, "field.object", InvalidConfig, "{field} must be an object (got {got})")          \
  X(FieldJsonObject, "field.json_object", InvalidConfig,                                          \
    "{field} must be a JSON object (got {got})")                                                  \
  X(FieldArray, "field.array", InvalidConfig, "{field} must be an array")                        \
  X(FieldStrings, "field.strings", InvalidConfig, "{field} entries must be strings")             \
  X(FieldFinite, "field.finite", InvalidConfig, "{field} must be a finite number (got {got})")    \
  X(FieldNotJson, "field.not_json", InvalidConfig, "{field} cannot be written as JSON: {detail}") \
  X(InputUnreadable, "input.unreadable", InvalidConfig, "{field} could not be read: {detail}")    \
  X(FieldAtMostField, "field.at_most_field", InvalidConfig,                                       \
    "{field} must be <= {target} = {value} (got {got})")                                          \
  X(FieldOneOf, "field.one_of", InvalidConfig, "{field} must be one of {allowed} (got \"{got}\")")\
  /* numeric ranges */                                                                            \
  X(RangeInteger, "range.integer", InvalidConfig,                                                 \
    "{field} must be an integer in [{min}, {max}] (got {got})")                                   \
  X(RangeIntegers, "range.integers", InvalidConfig,                                               \
    "{field} must be integers in [{min}, {max}] (got {got})")                                     \
  X(RangePositive, "range.positive", InvalidConfig,                                               \
    "{field} must be a finite number > 0 (got {got})")                                            \
  X(RangeNonNegative, "range.non_negative", InvalidConfig,                                        \
    "{field} must be a finite number >= 0 (got {got})")                                           \
  X(RangeAtMost, "range.at_most", InvalidConfig, "{field} must be <= {max} (got {got})")          \
  X(RangeResolution, "range.resolution", InvalidConfig,                                           \
    "{field} must be >= {min}, the time resolution (got {got})")                                  \
  X(RangeNumber, "range.number", InvalidConfig,                                                   \
    "{field} must be a finite number in [{min}, {max}] (got {got})")                              \
  X(RangePositiveAtMost, "range.positive_at_most", InvalidConfig,                                 \
    "{field} must be a number in (0, {max}] (got {got})")                                         \
  /* simulation configs */                                                                        \
  X(ScheduleUnknown, "schedule.unknown", UnknownSchedule,                                         \
    "{field} must be one of {allowed} (got \"{got}\")")                                           \
  X(RanksEven, "ranks.even", InvalidConfig,                                                       \
    "ranks must be an even integer >= {min} for {schedule} (got {got})")                          \
  X(RanksMin, "ranks.min", InvalidConfig, "ranks must be >= {min} for {schedule} (got {got})")    \
  X(MicrobatchesEven, "microbatches.even", InvalidConfig,                                         \
    "microbatches must be even for {schedule} (got {got})")                                       \
  X(MicrobatchesMinMultipleOfRanks, "microbatches.min_multiple_of_ranks", InvalidConfig,          \
    "microbatches must be >= {k} * ranks = {min} for {schedule} (got {got})")                     \
  X(MicrobatchesMultipleOfRanks, "microbatches.multiple_of_ranks", InvalidConfig,                 \
    "microbatches must be a multiple of ranks = {ranks} for {schedule} (got {got})")              \
  X(TimingSchedule, "timing.schedule", InvalidConfig,                                             \
    "timing \"runtime\" follows DeepSeek's dualpipe.py and dualpipev.py, so schedule must be "    \
    "one of {allowed} (got \"{got}\")")                                                            \
  X(TimingComm, "timing.comm", InvalidConfig,                                                     \
    "timing \"runtime\" cannot be combined with costs.comm: DeepSeek's step waits for its sends "  \
    "and receives between ops, which the communication model does not place")                     \
  X(A2aOverlapSchedule, "a2a_overlap.schedule", InvalidConfig,                                    \
    "a2aOverlap is Megatron-Core's combined 1F1B (--overlap-moe-expert-parallel-comm), so "       \
    "schedule must be one of {allowed} (got \"{got}\")")                                          \
  X(A2aOverlapChunks, "a2a_overlap.chunks", InvalidConfig,                                        \
    "a2aOverlap on more than one rank needs chunks >= 2, as Megatron-Core requires virtual "       \
    "pipeline stages when PP > 1 ({schedule} has {chunks} per rank on {ranks} ranks)")            \
  X(DelayWgradA2aOverlap, "delay_wgrad.a2a_overlap", InvalidConfig,                               \
    "delayWgrad needs a2aOverlap: Megatron-Core's --delay-wgrad-compute requires "                \
    "--overlap-moe-expert-parallel-comm")                                                          \
  X(ChunksUnsupported, "chunks.unsupported", InvalidConfig,                                       \
    "chunks applies only to {allowed}; {schedule} has a fixed layout (got {got})")                \
  X(ChunksStages, "chunks.stages", InvalidConfig,                                                 \
    "ranks x chunks must be <= {max} stages for {schedule} (got {got})")                          \
  X(ConfigTooLarge, "config.too_large", TooLarge,                                                 \
    "ranks x microbatches is too large: about {ops} ops for {schedule}, above the limit of "      \
    "{limit}")                                                                                    \
  /* per-stage costs */                                                                           \
  X(StageCostsSize, "stage_costs.size", InvalidConfig,                                            \
    "stageCosts must have between 1 and {max} entries, one per pipeline stage (got {got})")       \
  X(StageCostsCount, "stage_costs.count", InvalidConfig,                                          \
    "stageCosts must have one entry per pipeline stage: {stages} here (got {got})")               \
  X(StageCostsPair, "stage_costs.pair", InvalidConfig,                                            \
    "stageCosts: a forward of stage {forward} overlapped with a backward of stage {backward} "    \
    "would last {got} (F + B less the smaller stage's F + B - F&B); it must be > 0")              \
  X(StageCostsComm, "stage_costs.comm", InvalidConfig,                                            \
    "stageCosts needs costs.comm in its ratio form: explicit components fix one stage's "         \
    "forward, backward and weight")                                                               \
  /* the layer split (pipesim/layer_split.h) */                                                   \
  X(LayerSplitCount, "layer_split.count", InvalidConfig,                                          \
    "layersPerStage must have one entry per stage: {stages} (got {got})")                         \
  X(LayerSplitSum, "layer_split.sum", InvalidConfig,                                              \
    "layersPerStage must add up to the model's {layers} layers (got {got})")                      \
  X(LayerSplitEmptyStage, "layer_split.empty_stage", InvalidConfig,                               \
    "stage {stage} would hold no layer and no module; a stage must have work (layers = {layers}, "\
    "stages = {stages})")                                                                         \
  /* the communication model */                                                                   \
  X(CommBothForms, "comm.both_forms", InvalidConfig,                                              \
    "{field} takes either ratio (and attnShare) or forward and backward components, not both")    \
  X(CommNoForm, "comm.no_form", InvalidConfig,                                                    \
    "{field} needs ratio or forward and backward components")                                     \
  X(CommSum, "comm.sum", InvalidConfig, "{parts} must add up to costs.{cost} = {expected} (got {got})") \
  X(CommTransferMax, "comm.transfer_max", InvalidConfig,                                          \
    "costs.comm.{pass}.dispatch + combine must be <= {max}")                                      \
  X(CommRequired, "comm.required", InvalidConfig,                                                 \
    "costs.comm is required to analyse an overlapped pair (give ratio or components)")            \
  /* sweeps */                                                                                    \
  X(SweepNotObject, "sweep.not_object", InvalidConfig, "sweep must be a JSON object")             \
  X(SweepEmpty, "sweep.empty", InvalidConfig,                                                     \
    "a sweep needs at least one schedule, one ranks value and one microbatches value")            \
  X(SweepScheduleUnknown, "sweep.schedule_unknown", UnknownSchedule, "unknown schedule \"{got}\"")\
  X(SweepMicrobatchSpec, "sweep.microbatch_spec", InvalidConfig,                                  \
    "microbatches entries must be positive integers or multiples of ranks like \"4R\" (got "      \
    "\"{got}\")")                                                                                 \
  X(SweepTooManyCells, "sweep.too_many_cells", TooLarge,                                          \
    "a sweep may have at most {limit} cells (got {got})")                                         \
  X(SweepTooManyOps, "sweep.too_many_ops", TooLarge,                                              \
    "the sweep would simulate about {ops} ops, above the limit of {limit}")                       \
  /* hand-written schedules */                                                                    \
  X(CustomMissing, "custom.missing", InvalidConfig, "missing field {field} for a custom schedule")\
  X(CustomDirections, "custom.directions", InvalidConfig, "directions must be 1 or 2 (got {got})")\
  X(CustomMicrobatches, "custom.microbatches", InvalidConfig,                                     \
    "microbatches must be a positive multiple of directions, at most {max} (got {got})")          \
  X(CustomTooManyChunks, "custom.too_many_chunks", TooLarge,                                      \
    "stages x microbatches must be between 1 and {max}")                                          \
  X(CustomRankOps, "custom.rank_ops", InvalidConfig,                                              \
    "rankOps must be an array of 1 to {max} op lists")                                            \
  X(CustomRankOpsEntry, "custom.rank_ops_entry", InvalidConfig,                                   \
    "each rankOps entry must be an array of ops")                                                 \
  X(CustomTooManyOps, "custom.too_many_ops", TooLarge,                                            \
    "a custom schedule may have at most {max} ops")                                               \
  X(OpLabel, "op.label", InvalidSchedule,                                                         \
    "op \"{label}\" is not of the form F0.3@2, B0.3@2, Bz0.3@2, W0.3@2 or FB(F0.4@1,B1.0@1)")     \
  X(OpType, "op.type", InvalidSchedule, "an op must be a label string or an op object")           \
  X(OpKindMissing, "op.kind_missing", InvalidSchedule,                                            \
    "op objects need an \"op\" field: F, B, W or FB")                                             \
  X(OpKind, "op.kind", InvalidSchedule, "op must be F, B, W or FB (got \"{got}\")")               \
  X(OpFieldMissing, "op.field_missing", InvalidSchedule, "missing field {field}")                 \
  X(OpZeroBubble, "op.zero_bubble", InvalidSchedule, "zb must be true or false")                  \
  /* torch.distributed.pipelining CSV (pipesim/pytorch_csv.h); rows and columns count from 1 */  \
  X(CsvAction, "csv.action", InvalidSchedule,                                                     \
    "row {row}, column {column}: \"{token}\" is not a compute action such as 0F1, 1I0, 2W3, 3B0 " \
    "or (0F7;7B3)OVERLAP_F_B")                                                                    \
  X(CsvCommAction, "csv.comm_action", InvalidSchedule,                                            \
    "row {row}, column {column}: {token} is a communication or sharding action; only "           \
    "compute-only schedules can be read")                                                         \
  X(CsvOverlap, "csv.overlap", InvalidSchedule,                                                   \
    "row {row}, column {column}: an OVERLAP_F_B pair must hold one forward and then one full "    \
    "backward (got {token})")                                                                     \
  X(CsvTooLarge, "csv.too_large", TooLarge,                                                       \
    "a CSV schedule may have at most {ranks} rows, {ops} actions and {stages} stages")           \
  X(CsvEmpty, "csv.empty", InvalidSchedule, "the CSV holds no action")                            \
  X(CsvSchedule, "csv.schedule", InvalidSchedule, "row {row}, column {column}: {detail}")         \
  X(ScheduleRankLists, "schedule.rank_lists", InvalidSchedule,                                    \
    "rankOps must have one list per rank ({ranks}, got {got})")                                   \
  X(ScheduleShape, "schedule.shape", InvalidSchedule,                                             \
    "a schedule needs stages >= 1, directions 1 or 2 and microbatches >= 1")                      \
  X(ScheduleOpOutOfRange, "schedule.op_out_of_range", InvalidSchedule,                            \
    "rank {rank} op {index}: {op} is out of range")                                               \
  X(ScheduleOpTwice, "schedule.op_twice", InvalidSchedule, "rank {rank} op {index}: {op} appears twice") \
  X(ScheduleBackwardRank, "schedule.backward_rank", InvalidSchedule,                              \
    "rank {rank} op {index}: {op} must run on rank {forwardRank}, which ran its F")               \
  X(ScheduleWeightOrder, "schedule.weight_order", InvalidSchedule,                                \
    "rank {rank} op {index}: {op} must follow a zero-bubble B of the same chunk on this rank")    \
  X(ScheduleOpMissing, "schedule.op_missing", InvalidSchedule, "{op} is missing")                 \
  X(ScheduleSameRank, "schedule.same_rank", InvalidSchedule,                                      \
    "F{chunk} and B{chunk} must run on the same rank")                                            \
  X(ScheduleWeightMissing, "schedule.weight_missing", InvalidSchedule,                            \
    "zero-bubble B{chunk} has no W")                                                              \
  X(ScheduleDeadlock, "schedule.deadlock", Deadlock, "schedule cannot make progress: {waits}")    \
  /* exercise calculators */                                                                      \
  X(ParamsNoExperts, "params.ep_without_experts", InvalidConfig,                                  \
    "ep must be 1 for a model without routed experts (got {got})")                                \
  X(ParamsEpDivides, "params.ep_divides_experts", InvalidConfig,                                  \
    "ep must divide the routed experts = {experts} (got {got})")                                  \
  X(ParamsCustomMissing, "params.custom_missing", InvalidConfig,                                  \
    "missing field custom (the model's configuration)")                                           \
  X(ParamsCustomOnly, "params.custom_only", InvalidConfig,                                        \
    "custom is only allowed with model \"custom\" (got model \"{got}\")")                         \
  X(ModelRoutedExperts, "model.routed_experts", InvalidConfig,                                    \
    "custom.routedExperts must be >= 1 when custom.denseLayers = {denseLayers} < custom.layers = "\
    "{layers}")                                                                                   \
  X(FieldDivides, "field.divides", InvalidConfig,                                                 \
    "{field} must divide {target} = {value} (got {got})")                                         \
  /* the memory model (pipesim/memory.h) */                                                      \
  X(MemoryModelOrParams, "memory.model_or_params", InvalidConfig,                                 \
    "give either model ({models}, custom) or params (a parameter count), not both")              \
  X(MemoryShapeMissing, "memory.shape_missing", InvalidConfig,                                    \
    "activations need the model's shape: give model (a preset or custom) or shape (layers, "      \
    "hidden, heads)")                                                                             \
  X(MemoryGpusProduct, "memory.gpus_product", InvalidConfig,                                      \
    "gpus must equal tp x pp x dp = {product} (got {got})")                                       \
  X(MemoryGpusDivide, "memory.gpus_divide", InvalidConfig,                                        \
    "gpus must be a multiple of tp x pp = {product} (got {got})")                                 \
  X(MemorySides, "memory.sides", InvalidConfig,                                                   \
    "sides must be an array of 2 to {max} requests (got {got})")                                  \
  X(TraceSlotMultiple, "trace.slot_multiple", InvalidConfig,                                      \
    "{field} must be a multiple of slotLength = {slot} for a slot grid (got {got})")              \
  X(TraceTooLarge, "trace.too_large", TooLarge,                                                   \
    "the slot grid would have {cells} cells (ranks x slots), above the limit of {limit}")         \
  /* the planner */                                                                               \
  X(FieldProduct, "field.product", InvalidConfig,                                                 \
    "{field} x {other} must equal {target} = {value} (got {a} x {b})")                            \
  X(ModelType, "model.type", InvalidConfig, "model.type must be \"dense\" or \"moe\" (got \"{got}\")") \
  X(DenseActiveParams, "model.dense_active_params", InvalidConfig,                                \
    "model.activeParams must equal model.totalParams = {total} for a dense model (got {got})")    \
  X(DenseOnly, "model.dense_value", InvalidConfig,                                                \
    "{field} must be {value} for a dense model (got {got})")                                      \
  X(PlanStagesFitLayers, "plan.stages_fit_layers", InvalidConfig,                                 \
    "requested.ranks x {perRank} stages must be <= model.layers = {layers} (got {got})")          \
  X(PlanNoDepth, "plan.no_depth", InvalidConfig,                                                  \
    "no pipeline depth P in [{from}, {max}] divides cluster.gpus = {gpus} into whole pipelines "  \
    "and at most model.layers = {layers} stages")                                                 \
  X(PlanNoDepthEp, "plan.no_depth_ep", InvalidConfig,                                             \
    "no pipeline depth P in [{from}, {max}] divides cluster.gpus = {gpus} into whole pipelines "  \
    "with gpus / P a multiple of model.expertParallel and at most model.layers = {layers} stages")\
  /* traces (pipesim/trace.h) */                                                                  \
  X(ProfileNotTrace, "profile.not_trace", InvalidConfig,                                          \
    "input is not a trace: expected an array of trace events or an object with a traceEvents "    \
    "array (got {got})")                                                                          \
  X(ProfileId, "profile.id", InvalidConfig, "{field} must be an integer or a string (got {got})") \
  X(ProfileAnnotationDepth, "profile.annotation_depth", InvalidConfig,                            \
    "user annotations nest more than {limit} levels deep on one thread (at {field})")             \
  X(ProfileCommPattern, "profile.comm_pattern", InvalidConfig,                                    \
    "commPattern must be 1 to {maxParts} non-empty kernel-name substrings separated by |, at "     \
    "most {maxBytes} bytes in all (got \"{got}\")")                                               \
  /* why a trace gives no costs (TraceReport::costs_missing): not errors, the report still reads */\
  X(ProfileNoParts, "profile.no_parts", InvalidConfig,                                            \
    "no GPU work was launched inside annotations named as DeepSeek's parts (attn(F), "            \
    "dispatch(F), mlp(F), combine(F), attn(B), attn(W), dispatch(B), mlp(B), mlp(W), combine(B))")\
  X(ProfilePartMissing, "profile.part_missing", InvalidConfig,                                    \
    "{part} launched no GPU work in the pair of device {device} in {step}, which other parts "    \
    "did: the costs need all ten parts of the pair")                                              \
  X(ProfilePartMissingOutsideSteps, "profile.part_missing_outside_steps", InvalidConfig,          \
    "{part} launched no GPU work in the pair of device {device} outside any ProfilerStep, which " \
    "other parts did: the costs need all ten parts of the pair")                                  \
  X(ProfilePartCount, "profile.part_count", InvalidConfig,                                        \
    "every part must occur once per layer of every pair, and {part} does not in the pair of "     \
    "device {device} in {step} (occurrences: {count}; of attn(F) in the first pair: {layers})")   \
  X(ProfilePartCountOutsideSteps, "profile.part_count_outside_steps", InvalidConfig,              \
    "every part must occur once per layer of every pair, and {part} does not in the pair of "     \
    "device {device} outside any ProfilerStep (occurrences: {count}; of attn(F) in the first "    \
    "pair: {layers})")                                                                            \
  X(ProfileTooManyLayers, "profile.too_many_layers", InvalidConfig,                               \
    "each part occurs {count} times per pair, more than the most layers a chunk may have ({max})")\
  X(ProfilePartTooLong, "profile.part_too_long", InvalidConfig,                                   \
    "{part} took {ms} ms per pair, more than the simulator's largest cost ({max})")               \
  X(ProfilePairTooLong, "profile.pair_too_long", InvalidConfig,                                   \
    "the pair took {ms} ms, more than the simulator's largest cost ({max})")                      \
  X(ProfileInvalidCosts, "profile.invalid_costs", InvalidConfig,                                  \
    "the measured costs are not valid simulator costs: {detail}")                                 \
  /* a bug, not the input */                                                                      \
  X(Internal, "internal", Internal, "{detail}")

/// One rule per row of PIPESIM_RULES, in table order.
enum class Rule {
#define PIPESIM_RULE_ENUM(name, id, code, text) name,
  PIPESIM_RULES(PIPESIM_RULE_ENUM)
#undef PIPESIM_RULE_ENUM
};

/// A row of the table.
struct RuleInfo {
  Rule rule;
  const char* id;        ///< stable snake_case id with a dotted prefix, e.g. "ranks.even"
  ErrorCode code;        ///< the error code every error of this rule carries
  const char* message;   ///< English template, e.g. "ranks must be ... for {schedule} (got {got})"
};

/// Every rule, in table order.
const std::vector<RuleInfo>& list_rules();
/// The row of `rule`.
const RuleInfo& rule_info(Rule rule);

/// The placeholders of a template, in order of first appearance ("{a} x {b}" -> a, b).
std::vector<std::string> template_params(const std::string& text);

/// `text` as a message quotes it: on one line, at most `max_bytes` bytes. Control characters
/// (U+0000-U+001F, U+007F-U+009F, U+2028, U+2029) are escaped as in JSON (\n, \t, \u0085), bytes
/// that are not UTF-8 as \xNN; if the result is longer than `max_bytes`, its first characters and
/// "... (N bytes)", N the length of `text`. Text that needs neither comes back unchanged.
/// wasm/pipesim.js's summary() is the same function for the values JS checks itself.
std::string summary(const std::string& text, std::size_t max_bytes = kSummaryBytes);

/// An error of `rule` at `path` with `params`; its message is the rule's template filled in.
/// Every placeholder must have a param and every param a placeholder (a mismatch is a bug and
/// throws InternalError), so a client's own template can always be filled from the params.
Error make_error(Rule rule, std::string path, ErrorParams params);

/// A param as a call site writes it, {"name", value}: a name literal and the value (a number) or
/// a pointer to it (a string), trivially destructible. A braced list of them costs each of the
/// ~100 call sites a few stores, where a list of ErrorParams built and destroyed a std::string
/// and a variant per param, and their exception cleanups; make_error makes the ErrorParams once,
/// out of line. A pointed-to string is a temporary of the caller's full expression, which
/// outlives the call. A value picks the constructor ErrorParam would, so params keep their types.
/// Measured: the wasm module 211.3 -> 200.6 KB gzipped (216389 -> 205386 bytes).
struct ErrorArg {
  enum class Kind : unsigned char { Int, Double, String, Chars };
  template <typename T, std::enable_if_t<std::is_integral_v<T> && !std::is_same_v<T, bool>, int> = 0>
  ErrorArg(const char* param_name, T v)  // NOLINT: implicit by design
      : name(param_name), kind(Kind::Int), i(static_cast<std::int64_t>(v)) {}
  ErrorArg(const char* param_name, double v) : name(param_name), kind(Kind::Double), d(v) {}
  ErrorArg(const char* param_name, const std::string& v) : name(param_name), kind(Kind::String), s(&v) {}
  ErrorArg(const char* param_name, const char* v) : name(param_name), kind(Kind::Chars), c(v) {}

  const char* name;
  Kind kind;
  union {
    std::int64_t i;
    double d;
    const std::string* s;
    const char* c;
  };
};

/// make_error with the params written {{"name", value}, ...} (see ErrorArg).
Error make_error(Rule rule, std::string path, std::initializer_list<ErrorArg> args = {});
/// The same for a literal path ("/ranks", ""), which then costs its call site a pointer rather
/// than a std::string's construction and cleanup (module 200.6 -> 199.0 KB gzipped).
Error make_error(Rule rule, const char* path, std::initializer_list<ErrorArg> args = {});

}  // namespace pipesim
