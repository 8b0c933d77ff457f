// Every sentence the planner says, in one table: a stable id and the English template whose
// {placeholders} are the phrase's params. Like the error rules (pipesim/rules.h), a plan's prose
// is only ever made from a row of this table (plan_text), so the table is the complete list a
// client has to say in its own language: the page renders id + params with its own templates,
// and tests/browser check that each id here has one. The trace reader's derivations (trace.h)
// are a second table of the same kind. Changing an id or a placeholder changes every catalogue.
//
// Each row is a whole message: no row is a clause another row's template is glued around. A
// variant of a sentence (with or without expert parallelism, a clause the English adds) is a
// row of its own; a sentence whose words depend on a count is a plural family, rows
// `<id>.one` and `<id>.other` (English's CLDR categories) with the count as {n}: a phrase of the
// family carries the id `<id>`, and each language picks its own form by its plural rules (the
// page: Intl.PluralRules; core's English: one for n = 1).
//
// A placeholder may name a format after a colon, so params stay numbers and names (the facts)
// and each language writes them its own way:
//   {n}        an integer or a name as it is; a number as %.15g; a whole sentence, said from its
//              own row ({reject} in plan.step.reject)
//   {x:f0}     %.0f, likewise f1 and f2          {x:pct}   a fraction as a percentage: "5.26%"
//   {x:si}     %.4g with T, B or M: "671B"        {x:k0}    thousands with K: "2664K" (k1: "12.3K")
//   {s:title}  a schedule name as its catalogue title: "dualpipe" -> "DualPipe"
// Ids: plan.step.* (reasoning steps), plan.reject.*, plan.recommend.* (what to do instead, shown
// after "Recommendation:"), plan.refusal.*, plan.kernel.* (the all-to-all advice),
// plan.rollback.*, plan.no_plan; trace.derived.* (the trace reader's derivations); memory.* (the
// memory model's sources and labels).
#pragma once

#include <cstdint>
#include <initializer_list>
#include <string>
#include <type_traits>
#include <utility>
#include <variant>
#include <vector>

#include "pipesim/json.h"

namespace pipesim {

// X(enumerator, id, English template)
#define PIPESIM_PLAN_TEXTS(X)                                                                     \
  /* training length */                                                                           \
  X(StepTokens, "plan.step.tokens",                                                               \
    "{tokens:si} training tokens: at least the {min:si} below which the spec refuses to plan "     \
    "pipeline parallelism.")                                                                               \
  X(RefusalTokens, "plan.refusal.under_1b_tokens",                                                \
    "Only {tokens:si} training tokens (under {min:si}): the run is too short for a pipeline plan to "   \
    "pay for its engineering.")                                                                   \
  X(StepTokensRefused, "plan.step.tokens_refused",                                                \
    "{refusal} Recommendation: data parallelism plus tensor parallelism.")                        \
  X(StepMemorySplit, "plan.step.memory_split",                                                    \
    "Under plain data parallelism each GPU would hold {perGpu:f1} GB of weights, gradients and "  \
    "optimizer shard, more than the usable {usable:f1} GB ({usablePercent:f0}% of {memory:f0} "   \
    "GB): the model must be split.")                                                              \
  /* hard rejects: the reasoning step is the reject and its recommendation */                     \
  X(StepReject, "plan.step.reject", "{reject} Recommendation: {recommend}.")                      \
  X(RejectFitsOneGpu, "plan.reject.fits_one_gpu",                                                 \
    "The model's training state ({perGpu:f1} GB per GPU under data parallelism with ZeRO-1) "    \
    "fits in the usable {usable:f1} GB of one GPU, so pipeline parallelism would only add "       \
    "bubbles.")                                                                                   \
  X(RejectDepthRequested, "plan.reject.depth_requested",                                          \
    "Requested P = {ranks} is above {max}; the bubble grows with P whatever the schedule.")       \
  X(RejectDepthToFit, "plan.reject.depth_to_fit",                                                 \
    "Even at P = {max} each GPU would need {perGpu:f1} GB, above the usable {usable:f1} GB: "     \
    "fitting would take P > {max}, and the bubble grows with P whatever the schedule.")           \
  X(RejectDualPipeWithoutEp, "plan.reject.dualpipe_without_ep",                                   \
    "DualPipe keeps two copies of the parameters; without expert parallelism there is no "        \
    "all-to-all to hide that would justify them.")                                                \
  X(RejectOddMicrobatches, "plan.reject.odd_microbatches",                                        \
    "M = {microbatches} is odd; {schedule:title} splits the micro-batches over two directions, "  \
    "so the schedule will not close.")                                                            \
  X(RecommendDataParallel, "plan.recommend.data_parallel", "data parallelism only")               \
  X(RecommendShallower, "plan.recommend.shallower", "P <= {max}, with more data parallelism")     \
  X(RecommendMoreMemory, "plan.recommend.more_memory",                                            \
    "more memory per GPU or more model sharding (tensor or expert parallelism)")                  \
  X(RecommendOneCopy, "plan.recommend.one_copy", "DualPipeV (one copy) or Zero Bubble")           \
  X(RecommendEvenMicrobatches, "plan.recommend.even_microbatches", "an even M")                   \
  /* the schedule */                                                                              \
  X(StepScheduleRequested, "plan.step.schedule_requested",                                        \
    "{schedule:title}: requested in the spec; checked against the hard rejects.")                 \
  X(StepScheduleMoe, "plan.step.schedule_moe",                                                    \
    "MoE with expert parallelism (EP = {ep}) -> DualPipe: its overlapped forward-backward pairs " \
    "hide the all-to-all.")                                                                       \
  X(StepScheduleSmallRun, "plan.step.schedule_small_run",                                         \
    "{gpus} GPUs, under {limit} -> 1F1B is fine: the bubble costs little at this scale.")             \
  X(StepScheduleDenseUnder500, "plan.step.schedule_dense_under_500",                              \
    "No heavy all-to-all on {gpus} GPUs ({from} to {to}) -> Zero Bubble (ZB-H1).")                    \
  X(StepScheduleDense500Plus, "plan.step.schedule_dense_500_plus",                                \
    "No heavy all-to-all on {gpus} GPUs ({from} or more) -> DualPipeV: DualPipe's bubble with one "  \
    "parameter copy.")                                                                            \
  /* refusals of DualPipe (each is also the reasoning step) */                                    \
  X(RefusalNoKernel, "plan.refusal.no_custom_all_to_all",                                         \
    "No custom all-to-all kernel for this topology: DualPipe's overlap depends on one, so the "   \
    "plan falls back to {fallback:title}.")                                                       \
  X(RefusalInterconnect, "plan.refusal.interconnect_200gbps",                                     \
    "Interconnect {gbps:f0} Gbps per GPU (at or below {limit:f0}): the all-to-all overlap window is too "\
    "narrow to justify DualPipe's second parameter copy; DualPipeV keeps one.")                   \
  /* depth, chunks, layers, micro-batches */                                                      \
  X(StepDepthRequested, "plan.step.depth_requested", "P = {ranks}: requested.")                   \
  /* the depth's guide: the lesson's default, for a small cluster or for frontier MoE; with */   \
  /* expert parallelism P must also leave whole EP groups */                                      \
  X(StepDepth, "plan.step.depth",                                                                 \
    "P = {ranks}: the lesson's guide is {guide}; the training state fits from P = {fit}; P must " \
    "divide {gpus} GPUs.")                                                                        \
  X(StepDepthEp, "plan.step.depth_ep",                                                            \
    "P = {ranks}: the lesson's guide is {guide}; the training state fits from P = {fit}; P must " \
    "divide {gpus} GPUs and leave a multiple of EP = {ep} data-parallel ranks.")                  \
  X(StepDepthSmall, "plan.step.depth_small_cluster",                                              \
    "P = {ranks}: the lesson's guide is {guide} for a small cluster; the training state fits "    \
    "from P = {fit}; P must divide {gpus} GPUs.")                                                 \
  X(StepDepthSmallEp, "plan.step.depth_small_cluster_ep",                                         \
    "P = {ranks}: the lesson's guide is {guide} for a small cluster; the training state fits "    \
    "from P = {fit}; P must divide {gpus} GPUs and leave a multiple of EP = {ep} data-parallel "  \
    "ranks.")                                                                                     \
  X(StepDepthFrontier, "plan.step.depth_frontier_moe",                                            \
    "P = {ranks}: the lesson's guide is {guide} for frontier MoE; the training state fits from "  \
    "P = {fit}; P must divide {gpus} GPUs.")                                                      \
  X(StepDepthFrontierEp, "plan.step.depth_frontier_moe_ep",                                       \
    "P = {ranks}: the lesson's guide is {guide} for frontier MoE; the training state fits from "  \
    "P = {fit}; P must divide {gpus} GPUs and leave a multiple of EP = {ep} data-parallel ranks.")\
  X(StepChunksRequested, "plan.step.chunks_requested",                                            \
    "V = {chunks} model chunks per rank (requested): each rank holds {chunks} non-adjacent "      \
    "stages, which divides the warm-up bubble by V and multiplies the point-to-point transfers "  \
    "by V.")                                                                                      \
  X(StepChunksDefault, "plan.step.chunks_default",                                                \
    "V = {chunks} model chunks per rank (the schedule's default): each rank holds {chunks} "      \
    "non-adjacent stages, which divides the warm-up bubble by V and multiplies the "              \
    "point-to-point transfers by V.")                                                             \
  X(StepLayers, "plan.step.layers",                                                               \
    "{layers} layers over {stages} stages: about {perStage:f1} layers per stage.")                \
  X(StepMicrobatches, "plan.step.microbatches",                                                   \
    "M = {microbatches} (M/P = {perRank:f1}; the lesson's typical range is {low}-{high}; we take "\
    "the low end to keep the global batch small).")                                              \
  X(StepMicrobatchesRequested, "plan.step.microbatches_requested",                                \
    "M = {microbatches} (M/P = {perRank:f1}; the lesson's typical range is {low}-{high}; "        \
    "requested).")                                                                                \
  /* budget, bubble, communication, memory, activations */                                        \
  X(StepBudget, "plan.step.budget",                                                               \
    "About {gpuHours:k0} GPU-hours, scaled from DeepSeek-V3's {reference:k0} H800 GPU-hours per "  \
    "trillion tokens at {referenceActive:si} active parameters; enter the run's GPU-hours to use "\
    "your own figure.")                                                                           \
  X(StepBudgetUnknownGpu, "plan.step.budget_unknown_gpu",                                         \
    "About {gpuHours:k0} GPU-hours, scaled from DeepSeek-V3's {reference:k0} H800 GPU-hours per "  \
    "trillion tokens at {referenceActive:si} active parameters (GPU model \"{gpu}\" not in our "   \
    "table: assumed as fast as an H800); enter the run's GPU-hours to use your own figure.")      \
  X(StepBubble, "plan.step.bubble",                                                               \
    "Simulated bubble fraction {bubble:pct} against 1F1B's {bubble1f1b:pct} at the same P = {p} " \
    "and M = {microbatches} (chunk costs F={f}, B={b}, W={w}, F&B={fb}; no communication): "      \
    "{saved:k1} GPU-hours saved over the run, at this M and these costs.")                        \
  X(StepCommunication, "plan.step.communication",                                                 \
    "With expert all-to-all at compute:communication 1:{ratio:f2} (DeepSeek-V3's "              \
    "1:{referenceRatio} at {referenceGbps:f0} Gbps, scaled to {gbps:f0} Gbps) and {layers} layers per chunk, {schedule:title} hides "      \
    "{hidden:pct} of it and computes {utilization:pct} of the time, against "                     \
    "{utilization1f1b:pct} for 1F1B: {saved:k1} GPU-hours saved.")                                \
  /* one parameter copy, or two (a schedule holds at most two: the planner checks) */           \
  X(StepMemoryFits, "plan.step.memory_fits",                                                      \
    "{params:si} parameters per GPU: about {total:f1} GB of training state against {usable:f1} "  \
    "GB usable, so it fits.")                                                                     \
  X(StepMemoryTooBig, "plan.step.memory_too_big",                                                 \
    "{params:si} parameters per GPU: about {total:f1} GB of training state against {usable:f1} "  \
    "GB usable, so it does NOT fit: raise P.")                                                    \
  X(StepMemoryFitsTwoCopies, "plan.step.memory_fits_two_copies",                                  \
    "{params:si} parameters per GPU (2 copies, {replication:f1} GB for the extra copy): about "   \
    "{total:f1} GB of training state against {usable:f1} GB usable, so it fits.")                 \
  X(StepMemoryTooBigTwoCopies, "plan.step.memory_too_big_two_copies",                             \
    "{params:si} parameters per GPU (2 copies, {replication:f1} GB for the extra copy): about "   \
    "{total:f1} GB of training state against {usable:f1} GB usable, so it does NOT fit: raise P.")\
  X(StepRoutedUnknown, "plan.step.routed_unknown",                                                \
    "The spec does not say how many parameters sit in routed experts, so the active parameters "  \
    "are counted as held on every GPU, which overstates memory.")                                 \
  X(StepActivations, "plan.step.activations",                                                     \
    "{schedule:title} holds at most {peak:f1} micro-batches' activations per GPU at once (one "   \
    "unit: a micro-batch through 1/P of the model), against 1F1B's {peak1f1b:f1} at the same P "  \
    "and M; activation memory is not in the training state above.")                              \
  /* alternatives */                                                                              \
  /* a plural family: {n} parameter copies */                                                    \
  X(StepNoAlternativeOne, "plan.step.no_alternative.one",                                         \
    "No other schedule with at most {n} parameter copy does better at the same P and M.")         \
  X(StepNoAlternative, "plan.step.no_alternative.other",                                          \
    "No other schedule with at most {n} parameter copies does better at the same P and M.")       \
  X(StepNoAlternativeCommOne, "plan.step.no_alternative_all_to_all.one",                          \
    "No other schedule with at most {n} parameter copy does better at the same P and M with the " \
    "all-to-all counted.")                                                                        \
  X(StepNoAlternativeComm, "plan.step.no_alternative_all_to_all.other",                           \
    "No other schedule with at most {n} parameter copies does better at the same P and M with "   \
    "the all-to-all counted.")                                                                    \
  /* the alternatives: a step that introduces them, then a step per schedule, best first */       \
  X(StepAlternatives, "plan.step.alternatives",                                                   \
    "At the same P and M, with no more parameter copies, the schedules below would do better "    \
    "than {schedule:title}, which idles {bubble:pct} and holds {peak:f1} units of activations. "  \
    "The spec's decision table does not choose them; weigh their activation memory before "       \
    "requesting one.")                                                                            \
  X(StepAlternativesComm, "plan.step.alternatives_all_to_all",                                    \
    "At the same P and M, with no more parameter copies, the schedules below would do better "    \
    "than {schedule:title}, which computes {utilization:pct} of the time and holds {peak:f1} "    \
    "units of activations. The spec's decision table does not choose them; weigh their "          \
    "activation memory before requesting one.")                                                   \
  X(StepAlternative, "plan.step.alternative",                                                     \
    "{schedule:title} idles {bubble:pct} and holds {peak:f1} units of activations.")              \
  X(StepAlternativeChunks, "plan.step.alternative_chunks",                                        \
    "{schedule:title} (V = {chunks}) idles {bubble:pct} and holds {peak:f1} units of "            \
    "activations.")                                                                               \
  X(StepAlternativeComm, "plan.step.alternative_all_to_all",                                      \
    "{schedule:title} computes {utilization:pct} of the time and holds {peak:f1} units of "       \
    "activations.")                                                                               \
  X(StepAlternativeChunksComm, "plan.step.alternative_chunks_all_to_all",                         \
    "{schedule:title} (V = {chunks}) computes {utilization:pct} of the time and holds {peak:f1} " \
    "units of activations.")                                                                      \
  /* the all-to-all kernel */                                                                     \
  X(KernelNone, "plan.kernel.none",                                                               \
    "No expert all-to-all: pipeline send/receive and data-parallel gradient reduction are the "   \
    "only collectives, and the stock collective library handles them.")                           \
  /* plural families: EP spans {n} nodes */                                                      \
  X(KernelStockOne, "plan.kernel.stock.one",                                                      \
    "EP = {ep} spans {n} node. Without a topology-aware kernel, use the stock all-to-all and "    \
    "keep it off the critical path with Zero Bubble; revisit DualPipe once a kernel like "        \
    "DeepSeek's DeepEP (node-limited routing, IB-to-NVLink forwarding) runs on this cluster.")    \
  X(KernelStock, "plan.kernel.stock.other",                                                       \
    "EP = {ep} spans {n} nodes. Without a topology-aware kernel, use the stock all-to-all and "   \
    "keep it off the critical path with Zero Bubble; revisit DualPipe once a kernel like "        \
    "DeepSeek's DeepEP (node-limited routing, IB-to-NVLink forwarding) runs on this cluster.")    \
  X(KernelCustomOne, "plan.kernel.custom.one",                                                    \
    "EP = {ep} spans {n} node. Run your topology-aware all-to-all kernel inside the overlapped "  \
    "forward-backward pairs on a fixed share of SMs (DeepSeek-V3 used 20 of the H800's 132 SMs, " \
    "report §3.2.2), so dispatch and combine run under the other chunk's computation.")           \
  X(KernelCustom, "plan.kernel.custom.other",                                                     \
    "EP = {ep} spans {n} nodes. Run your topology-aware all-to-all kernel inside the overlapped " \
    "forward-backward pairs on a fixed share of SMs (DeepSeek-V3 used 20 of the H800's 132 SMs, " \
    "report §3.2.2), so dispatch and combine run under the other chunk's computation.")           \
  /* the rollback trigger */                                                                      \
  X(RollbackNoFallback, "plan.rollback.no_fallback",                                              \
    "Measure aggregate GPU utilization over the first {steps} steps. If it stays below "          \
    "{threshold:pct} (this schedule's simulated ceiling), no simpler schedule will help: look "   \
    "for stragglers, then lower P.")                                                              \
  X(RollbackFallback, "plan.rollback.fallback",                                                   \
    "Measure aggregate GPU utilization over the first {steps} steps. If it stays below "          \
    "{threshold:pct}, the simulated ceiling of {fallback:title} at the same P and M, "            \
    "{schedule:title} is not paying for its complexity: switch to {fallback:title}. (Our "        \
    "threshold rule; the spec names the metric but no number.)")                                  \
  X(RollbackFallbackExposed, "plan.rollback.fallback_all_to_all_exposed",                         \
    "Measure aggregate GPU utilization over the first {steps} steps. If it stays below "          \
    "{threshold:pct}, the simulated ceiling of {fallback:title} at the same P and M with its "     \
    "all-to-all exposed, {schedule:title} is not paying for its complexity: switch to "           \
    "{fallback:title}. (Our threshold rule; the spec names the metric but no number.)")           \
  /* a rejected or refused plan has no kernel advice or rollback trigger */                       \
  X(NoPlan, "plan.no_plan", "Not applicable: no pipeline plan.")

// X(enumerator, id, English template): how the trace reader derived each cost it measured
// (pipesim/trace.h, Derived), said like the planner's phrases. Part names (attn(F), mlp(W)) and
// ProfilerStep annotations are names, the same in every language.
#define PIPESIM_TRACE_TEXTS(X)                                                                    \
  X(TracePairs, "trace.derived.pairs",                                                            \
    "one chunk pair per device and ProfilerStep whose part annotations launched GPU work; the "   \
    "first: device {device}, {step}")                                                             \
  X(TracePairsOutsideSteps, "trace.derived.pairs_outside_steps",                                  \
    "one chunk pair per device and ProfilerStep whose part annotations launched GPU work; the "   \
    "first: device {device}, outside any ProfilerStep")                                           \
  /* a plural family: {n} times per pair */                                                      \
  X(TraceLayersOne, "trace.derived.layers.one",                                                   \
    "each of the ten parts launched GPU work {n} time per pair")                                  \
  X(TraceLayers, "trace.derived.layers.other",                                                    \
    "each of the ten parts launched GPU work {n} times per pair")                                 \
  X(TraceComponent, "trace.derived.component",                                                    \
    "{part}: GPU busy time of the kernels launched inside it (union over streams), summed over "  \
    "its layers")                                                                                 \
  X(TraceComponentMean, "trace.derived.component_mean",                                           \
    "{part}: GPU busy time of the kernels launched inside it (union over streams), summed over "  \
    "its layers, mean over the pairs")                                                            \
  X(TraceForward, "trace.derived.forward", "attn(F) + mlp(F) = {attn} ms + {mlp} ms")             \
  X(TraceBackward, "trace.derived.backward",                                                      \
    "attn(B) + attn(W) + mlp(B) + mlp(W) = {attn} ms + {attnWeight} ms + {mlp} ms + "             \
    "{mlpWeight} ms")                                                                             \
  X(TraceWeight, "trace.derived.weight", "attn(W) + mlp(W) = {attnWeight} ms + {mlpWeight} ms")   \
  X(TraceOverlapped, "trace.derived.overlapped",                                                  \
    "forward + backward = {forward} ms + {backward} ms: the pair's computation, measured inside " \
    "the pair; the communication model adds the all-to-all time it leaves exposed")               \
  X(TraceCommRatio, "trace.derived.comm_ratio",                                                   \
    "(dispatch(F) + combine(F)) / forward = {comm} ms / {forward} ms (the ratio form's "          \
    "all-to-all time per unit of forward; the backward's, {backwardComm} ms, is in the explicit " \
    "components)")                                                                                \
  X(TraceAttnShare, "trace.derived.attn_share", "attn(F) / forward = {attn} ms / {forward} ms")   \
  X(TraceForwardAlone, "trace.derived.forward_alone",                                             \
    "forward + dispatch(F) + combine(F): a lone F waits for its own all-to-alls")                 \
  X(TraceBackwardAlone, "trace.derived.backward_alone",                                           \
    "backward + dispatch(B) + combine(B): a lone full B waits for its own all-to-alls")           \
  X(TracePairMs, "trace.derived.pair_ms",                                                         \
    "from the first part kernel's start to the last one's end")                                   \
  X(TracePairMsMean, "trace.derived.pair_ms_mean",                                                \
    "from the first part kernel's start to the last one's end, mean over the pairs")              \
  X(TraceModelPair, "trace.derived.model_pair_ms",                                                \
    "the communication model's pair on these costs (pipesim overlap: DeepSeek-V3 Fig. 4 order; "  \
    "layers per chunk: {layers}), to set beside the measured pair")

// X(enumerator, id, English template): the memory model's words that are not names
// (pipesim/memory.h): where each assumption comes from (MemoryAssumption::source_text), the
// precision recipes' labels and sources (PrecisionRecipe, data with its sources) and the labels
// and sources of models that are not presets. Paper titles, sections and file paths inside them
// are names, the same in every language; a source that is only a name (a preset's config files,
// a schedule's citation) has no row.
#define PIPESIM_MEMORY_TEXTS(X)                                                                   \
  /* models that are not presets */                                                              \
  X(MemoryModelParams, "memory.model.params", "the model")                                        \
  X(MemoryModelCustom, "memory.model.custom", "custom")                                           \
  X(MemorySourceGiven, "memory.source.given", "given")                                            \
  X(MemorySourceUserInput, "memory.source.user_input", "user input")                              \
  X(MemorySourceLlama3, "memory.source.llama3_70b",                                               \
    "Meta Llama 3 70B configuration (config.json / params.json)")                                 \
  /* precision recipes */                                                                         \
  X(MemoryRecipeMixedAdam, "memory.recipe.mixed_adam", "Mixed-precision Adam")                    \
  X(MemoryRecipeMixedAdamSource, "memory.recipe_source.mixed_adam",                               \
    "Rajbhandari et al., \"ZeRO: Memory Optimizations Toward Training Trillion Parameter "        \
    "Models\" (SC'20), §3.1: fp16 parameters and gradients, 2 + 2 bytes; fp32 parameters, "       \
    "momentum and variance, K = 12 bytes")                                                        \
  X(MemoryRecipeDeepSeekSource, "memory.recipe_source.deepseek_v3",                               \
    "DeepSeek-V3 Technical Report (arXiv 2412.19437), §3.3.3 \"Low-Precision Optimizer "          \
    "States\": BF16 AdamW moments; master weights and gradients kept in FP32")                    \
  /* the assumptions' sources */                                                                  \
  X(MemorySourceSharding, "memory.source.sharding",                                                \
    "Rajbhandari et al., \"ZeRO: Memory Optimizations Toward Training Trillion Parameter "        \
    "Models\" (SC'20), §5; routed experts over their own data-parallel group, DP / EP, as "       \
    "DeepSeek-V3 trains (report §3.2: 64-way EP, ZeRO-1 data parallelism)")                       \
  X(MemorySourceEvenSplit, "memory.source.even_split",                                            \
    "our assumption: an even split (embedding and head are not placed on the first and last "     \
    "stages; Megatron keeps norm vectors whole on each TP GPU, a negligible share)")              \
  X(MemorySourceStageLayout, "memory.source.stage_layout",                                        \
    "the schedule catalogue's stage layout; {citation}")                                          \
  X(MemorySourceActivations, "memory.source.activations",                                         \
    "Korthikanti et al., \"Reducing Activation Recomputation in Large Transformer Models\" "      \
    "(arXiv 2205.05198), §4, Table 2")

/// One phrase per row of PIPESIM_PLAN_TEXTS, then of PIPESIM_TRACE_TEXTS, then of
/// PIPESIM_MEMORY_TEXTS, in table order.
enum class PlanTextId {
#define PIPESIM_PLAN_TEXT_ENUM(name, id, text) name,
  PIPESIM_PLAN_TEXTS(PIPESIM_PLAN_TEXT_ENUM) PIPESIM_TRACE_TEXTS(PIPESIM_PLAN_TEXT_ENUM)
      PIPESIM_MEMORY_TEXTS(PIPESIM_PLAN_TEXT_ENUM)
#undef PIPESIM_PLAN_TEXT_ENUM
};

/// A row of the table.
struct PlanTextInfo {
  PlanTextId text;
  const char* id;       ///< stable dotted id, e.g. "plan.step.depth"
  const char* message;  ///< English template, e.g. "P = {ranks}: requested."
};

/// Every phrase, in table order.
const std::vector<PlanTextInfo>& list_plan_texts();

/// The plural family `id` belongs to ("plan.kernel.stock.one" -> "plan.kernel.stock"), or "" for
/// a row outside any.
std::string plan_text_family(const std::string& id);

/// The placeholder names of a plan template without their formats, in order of first
/// appearance ("{bubble:pct} vs {b}" -> bubble, b).
std::vector<std::string> plan_text_params(const std::string& text);

struct PlanText;
/// A param of a phrase: a number, a name, or a whole sentence said inside it (as a list of one).
struct PlanParam {
  template <typename T, std::enable_if_t<std::is_integral_v<T> && !std::is_same_v<T, bool>, int> = 0>
  PlanParam(std::string param_name, T v)  // NOLINT: implicit by design
      : name(std::move(param_name)), value(static_cast<std::int64_t>(v)) {}
  PlanParam(std::string param_name, double v) : name(std::move(param_name)), value(v) {}
  PlanParam(std::string param_name, std::string v) : name(std::move(param_name)), value(std::move(v)) {}
  PlanParam(std::string param_name, const char* v) : name(std::move(param_name)), value(std::string(v)) {}
  PlanParam(std::string param_name, std::vector<PlanText> v);  ///< phrases, joined by "; "
  PlanParam(std::string param_name, PlanText v);               ///< one sentence

  std::string name;
  std::variant<std::int64_t, double, std::string, std::vector<PlanText>> value;
};

/// What the planner says, as facts: a row of the table and the values its template quotes.
struct PlanText {
  std::string id;
  std::vector<PlanParam> params;

  /// The English sentence: the template with every param written in its placeholder's format.
  std::string english() const;
};

/// The phrase `text` with `params`. Every placeholder must have a param and every param a
/// placeholder (a mismatch is a bug and throws InternalError), so a client's own template can
/// always be filled from the params. A plural family is made from its `.other` row, with an
/// integer {n}; the phrase's id is the family's.
PlanText plan_text(PlanTextId text, std::vector<PlanParam> params);

/// A param as a call site writes it, {"name", value}: a name literal and the value or a pointer
/// to it, trivially destructible. A braced list of them costs the call site a few stores, where
/// a list of PlanParams built and destroyed a std::string and a variant per param (and their
/// exception cleanups) at each of the planner's ~50 call sites; plan_text makes the PlanParams
/// once, out of line. Pointed-to values are temporaries of the caller's full expression, which
/// outlive the call. Which constructor a value picks is PlanParam's, so params keep their types.
/// Measured: the wasm module 215.3 -> 211.3 KB gzipped (220486 -> 216389 bytes).
struct PlanArg {
  enum class Kind : unsigned char { Int, Double, Name, Chars, Text, Texts };
  template <typename T, std::enable_if_t<std::is_integral_v<T> && !std::is_same_v<T, bool>, int> = 0>
  PlanArg(const char* param_name, T v)  // NOLINT: implicit by design
      : name(param_name), kind(Kind::Int), i(static_cast<std::int64_t>(v)) {}
  PlanArg(const char* param_name, double v) : name(param_name), kind(Kind::Double), d(v) {}
  PlanArg(const char* param_name, const std::string& v) : name(param_name), kind(Kind::Name), s(&v) {}
  PlanArg(const char* param_name, const char* v) : name(param_name), kind(Kind::Chars), c(v) {}
  PlanArg(const char* param_name, const PlanText& v) : name(param_name), kind(Kind::Text), t(&v) {}
  PlanArg(const char* param_name, const std::vector<PlanText>& v)
      : name(param_name), kind(Kind::Texts), ts(&v) {}

  const char* name;
  Kind kind;
  union {
    std::int64_t i;
    double d;
    const std::string* s;
    const char* c;
    const PlanText* t;
    const std::vector<PlanText>* ts;
  };
};

/// {"id", "params"}: what a client says in its own language (docs/schema.md "Planner"): numbers
/// and names as they are, a phrase said inside another as an array of phrases.
Json plan_text_to_json(const PlanText& text);

/// plan_text with the params written {{"name", value}, ...} (see PlanArg).
PlanText plan_text(PlanTextId text, std::initializer_list<PlanArg> args = {});

}  // namespace pipesim
