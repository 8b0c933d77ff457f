// The memory model (pipesim/memory.h): the ZeRO paper's worked example, the issue's numbers for
// DeepSeek-V3 and Llama-3-70B recounted from their configurations, Korthikanti et al.'s Table 2
// rows, the schedules' parameter copies, comparisons under one accounting, and the errors. Every
// expected value is worked by hand in the comment above its check.
#include <cmath>
#include <string>

#include <catch2/catch.hpp>

#include "pipesim/engine.h"
#include "pipesim/json.h"
#include "pipesim/memory.h"
#include "pipesim/plan_texts.h"
#include "pipesim/schedule.h"

using namespace pipesim;

namespace {

MemoryResult run_memory(const std::string& json) {
  auto request = memory_request_from_json(parse_json(json).value());
  REQUIRE(request.ok());
  auto r = memory(request.value());
  REQUIRE(r.ok());
  return r.value();
}

Error memory_error_of(const std::string& json) {
  auto request = memory_request_from_json(parse_json(json).value());
  REQUIRE_FALSE(request.ok());
  return request.error();
}

double round_gb1(double gb) { return std::round(gb * 10) / 10; }

}  // namespace

// Rajbhandari et al., ZeRO (SC'20), §5 and Figure 1: Psi = 7.5B parameters, mixed-precision Adam
// (K = 12), N_d = 64. Stage 0: (2 + 2 + K) Psi = 16 x 7.5e9 = 120e9 bytes. Stage 1 (P_os):
// 4 Psi + K Psi / N_d = 30e9 + 1.40625e9 = 31.40625e9 ("31.4GB"). Stage 2 (P_os+g): 2 Psi +
// (2 + K) Psi / N_d = 15e9 + 1.640625e9 = 16.640625e9 ("16.6GB"). Stage 3 (P_os+g+p):
// (2 + 2 + K) Psi / N_d = 1.875e9 ("1.9GB").
TEST_CASE("the ZeRO paper's example: 120, 31.4, 16.6 and 1.9 GB per GPU at stages 0 to 3") {
  const double expected[] = {120e9, 31.40625e9, 16.640625e9, 1.875e9};
  const double printed[] = {120, 31.4, 16.6, 1.9};
  for (int stage = 0; stage <= 3; ++stage) {
    INFO("ZeRO-" << stage);
    const MemoryResult r = run_memory(R"({"params":7.5e9,"layout":{"dp":64},"zero":)" + std::to_string(stage) + "}");
    CHECK(r.recipe.id == "mixed-adam");  // the default recipe
    CHECK(r.recipe.k() == 12);
    CHECK(r.states.total() == Approx(expected[stage]));
    CHECK(round_gb1(r.states.total() / 1e9) == Approx(printed[stage]));
    CHECK(r.total_bytes == r.states.total());  // no activations asked
  }
}

// DeepSeek-V3 (config_671B.json, counted in params_test.cpp): 671,026,419,200 parameters,
// 653,908,770,816 routed, so 17,117,648,384 non-expert. At P = 16, EP = 64 one copy per GPU is
// 17,117,648,384 / 16 = 1,069,853,024 non-expert + 653,908,770,816 / (16 x 64) = 638,582,784
// routed = 1,708,435,808 ("1.07 B + 0.64 B = 1.71 B"); routed share 638,582,784 / 1,708,435,808 =
// 37.38% ("about 37%").
// DeepSeek's recipe (report §3.3.3; bf16 compute weights our reading): 2 + 4 unsharded, master 4 +
// moments 2 + 2 sharded by ZeRO-1, on 2048 GPUs: DP 128, expert DP 128 / 64 = 2. The second copy:
// 1,069,853,024 x (6 + 8/128) = 6,485,983,958 + 638,582,784 x (6 + 8/2) = 6,385,827,840
// = 12,871,811,798 bytes ("roughly 13 GB"); the experts are 49.6% of its bytes.
TEST_CASE("DeepSeek-V3 at P=16, EP=64 on 2048 GPUs: 1.71B parameters per copy, a 12.9 GB second copy") {
  const MemoryResult r = run_memory(R"({"model":"deepseek-v3","recipe":"deepseek-v3","zero":1,
      "layout":{"pp":16,"ep":64,"gpus":2048},"schedule":"dualpipe"})");
  CHECK(r.request.layout.dp == 128);
  CHECK(r.request.layout.expert_dp() == 2);
  CHECK(r.param_copies == 2);
  CHECK(r.per_copy.non_routed == Approx(1'069'853'024.0));
  CHECK(r.per_copy.routed == Approx(638'582'784.0));
  CHECK(r.per_copy.total() == Approx(1'708'435'808.0));
  CHECK(r.held.total() == Approx(2 * 1'708'435'808.0));
  CHECK(r.per_copy.routed / r.per_copy.total() == Approx(0.37378).epsilon(1e-4));
  CHECK(r.extra_copy_bytes == Approx(12'871'811'798.0));
  CHECK(r.per_copy_routed_bytes.total() / r.per_copy_bytes.total() == Approx(0.4961).epsilon(1e-3));
  CHECK(r.states.total() == Approx(2 * 12'871'811'798.0));
}

// Llama-3-70B (70,553,706,496 parameters) as TP8 x PP8: 70,553,706,496 / 64 = 1,102,401,664 per
// GPU ("1.10 B"). Under the same accounting as DeepSeek-V3 above (its recipe, ZeRO-1, all 2048
// GPUs: DP = 2048 / 64 = 32) the second copy is 1,102,401,664 x (6 + 8/32) = 6,890,010,400 bytes:
// smaller than DeepSeek-V3's.
TEST_CASE("Llama-3-70B as TP8 x PP8 on 2048 GPUs: 1.10B parameters per copy, a 6.89 GB second copy") {
  const MemoryResult r = run_memory(R"({"model":"llama3-70b","recipe":"deepseek-v3","zero":1,
      "layout":{"tp":8,"pp":8,"gpus":2048},"schedule":"dualpipe"})");
  CHECK(r.request.layout.dp == 32);
  CHECK(r.per_copy.total() == Approx(1'102'401'664.0));
  CHECK(r.per_copy.routed == 0);
  CHECK(r.extra_copy_bytes == Approx(6'890'010'400.0));
}

// Every schedule holds param_copies / P of the model per GPU (DualPipe and Chimera two copies;
// DualPipeV, ZB-V, interleaved 1F1B one): 8e9 parameters on P = 4 are 2e9 per copy, and under the
// default recipe without ZeRO 16 bytes each.
TEST_CASE("a schedule's parameter copies come from the catalogue's stage layout") {
  for (const ScheduleInfo& info : list_schedules()) {
    INFO(info.name);
    const MemoryResult r = run_memory(R"({"params":8e9,"layout":{"pp":4},"schedule":")" + info.name + "\"}");
    CHECK(r.param_copies == info.layout.param_copies);
    CHECK(r.held.total() == Approx(info.layout.param_copies * 2e9));
    CHECK(r.states.total() == Approx(16 * r.held.total()));
    CHECK(r.extra_copy_bytes == Approx((info.layout.param_copies - 1) * 32e9));
  }
}

// Korthikanti et al., Table 2, per layer and micro-batch, at s = 2048, b = 1, h = 4096, a = 32:
// sbh = 8,388,608. Without parallelism sbh (34 + 5as/h) = 8,388,608 x (34 + 80) = 956,301,312.
// TP 4: sbh (10 + 24/4 + 5as/(4h)) = 8,388,608 x 36 = 301,989,888; with sequence parallelism
// sbh/4 (34 + 80) = 239,075,328; selective sbh (10 + 6) = 134,217,728; selective + SP sbh 34/4 =
// 71,303,168; full 2sbh = 16,777,216 (2sbh/4 = 4,194,304 with SP).
TEST_CASE("activations per layer follow Korthikanti et al.'s Table 2") {
  const auto per_layer = [](int tp, bool sp, const char* recompute) {
    const std::string json = R"({"params":1e9,"shape":{"layers":32,"hidden":4096,"heads":32},
        "layout":{"tp":)" + std::to_string(tp) + R"(,"sequenceParallel":)" + (sp ? "true" : "false") +
                             R"(},"activations":{"seqLength":2048,"recompute":")" + recompute + "\"}}";
    return run_memory(json).activations->bytes_per_layer;
  };
  CHECK(per_layer(1, false, "none") == Approx(956'301'312.0));
  CHECK(per_layer(4, false, "none") == Approx(301'989'888.0));
  CHECK(per_layer(4, true, "none") == Approx(239'075'328.0));
  CHECK(per_layer(4, false, "selective") == Approx(134'217'728.0));
  CHECK(per_layer(4, true, "selective") == Approx(71'303'168.0));
  CHECK(per_layer(4, false, "full") == Approx(16'777'216.0));
  CHECK(per_layer(4, true, "full") == Approx(4'194'304.0));
}

// The peak comes from the simulated schedule: 1F1B at P = 8 holds P = 8 micro-batches on rank 0,
// DualPipe 9 (README table: PP + 1). Llama-3-70B at TP 8, SP, selective, s = 8192, b = 1: per
// layer 8192 x 8192 x 34 / 8 = 285,212,672 bytes, 80 / 8 = 10 layers per unit: 2,852,126,720 per
// unit; 8 units = 22,817,013,760 bytes.
TEST_CASE("activations at the peak: the schedule's simulated in-flight micro-batches") {
  const std::string base = R"({"model":"llama3-70b","layout":{"tp":8,"pp":8,"dp":4,"sequenceParallel":true},
      "activations":{"seqLength":8192,"recompute":"selective"},"schedule":")";
  const MemoryResult f = run_memory(base + R"(1f1b"})");
  REQUIRE(f.activations);
  CHECK(f.activations->microbatches == 16);  // the default M = 2P
  CHECK(f.activations->peak_units == 8);
  CHECK(f.activations->bytes_per_unit == Approx(2'852'126'720.0));
  CHECK(f.activations->peak_bytes == Approx(22'817'013'760.0));
  CHECK(f.total_bytes == Approx(f.states.total() + 22'817'013'760.0));
  const MemoryResult d = run_memory(base + R"(dualpipe","microbatches":20})");
  const SimResult s = simulate({"dualpipe", 8, 20, {}}).value();
  CHECK(d.activations->peak_units == s.max_peak_activation_memory);
  CHECK(d.activations->peak_units == 9);
}

TEST_CASE("a simulation with a memoryModel counts the same model at its own peak") {
  auto config = config_from_json(parse_json(R"({"schedule":"dualpipev","ranks":4,"microbatches":10,
      "memoryModel":{"model":"llama3-70b","zero":1,"layout":{"dp":8},"activations":{"seqLength":4096}}})").value());
  REQUIRE(config.ok());
  const SimResult s = simulate(config.value()).value();
  const Json j = result_to_json(s, false);
  REQUIRE(j.contains("memory"));
  const Json& m = j.at("memory");
  CHECK(m.at("schedule") == "dualpipev");
  CHECK(m.at("paramCopies") == 1);
  CHECK(m.at("activations").at("peakUnits").get<double>() == s.max_peak_activation_memory);
  // The same request through pipesim memory at the same P and M gives the same bytes.
  const MemoryResult direct = run_memory(R"({"model":"llama3-70b","zero":1,"layout":{"pp":4,"dp":8},
      "activations":{"seqLength":4096},"schedule":"dualpipev","microbatches":10})");
  CHECK(m.at("totalBytes").get<double>() == Approx(direct.total_bytes));
  CHECK_FALSE(result_to_json(simulate({"1f1b", 4, 8, {}}).value(), false).contains("memory"));
}

TEST_CASE("every result lists its assumptions, each with a source") {
  const MemoryResult r = run_memory(R"({"model":"deepseek-v3","recipe":"deepseek-v3","zero":1,
      "layout":{"pp":16,"ep":64,"gpus":2048},"schedule":"dualpipe","activations":{"seqLength":4096}})");
  const char* topics[] = {"model", "recipe", "sharding", "layout", "copies", "activations"};
  REQUIRE(r.assumptions.size() == 6);
  for (std::size_t i = 0; i < 6; ++i) {
    CHECK(r.assumptions[i].topic == topics[i]);
    CHECK_FALSE(r.assumptions[i].text.empty());
    CHECK_FALSE(r.assumptions[i].source.empty());
  }
  CHECK(r.assumptions[1].source.find("§3.3.3") != std::string::npos);
  CHECK(r.assumptions[5].source.find("2205.05198") != std::string::npos);
  const Json j = memory_result_to_json(r).at("assumptions");
  CHECK(j.at("recipe").at("id") == "deepseek-v3");
  CHECK(j.at("sharding").at("zero") == 1);
  CHECK(j.at("layout").at("policy") == "gpus");
  CHECK(j.at("layout").at("gpus") == 2048);
}

TEST_CASE("every source and label that is not a name is a memory phrase whose English is the text") {
  // Words a learner reads (sources, recipe labels, a bare model's label) are rows of
  // PIPESIM_MEMORY_TEXTS, so every language says them from the id; the English is the row's.
  const auto is_memory_row = [](const std::string& id) {
    for (const PlanTextInfo& info : list_plan_texts())
      if (id == info.id) return id.rfind("memory.", 0) == 0;
    return false;
  };
  const MemoryResult r = run_memory(R"({"params":7.5e9,"shape":{"layers":32,"hidden":4096,"heads":32},
      "zero":1,"layout":{"pp":4,"dp":8},"schedule":"dualpipe","activations":{"seqLength":4096}})");
  const Json j = memory_result_to_json(r).at("assumptions");
  for (const MemoryAssumption& a : r.assumptions) {
    INFO(a.topic);
    REQUIRE(a.source_text);
    CHECK(is_memory_row(a.source_text->id));
    CHECK(a.source == a.source_text->english());
    CHECK(j.at(a.topic).at("sourceText") == plan_text_to_json(*a.source_text));
  }
  CHECK(j.at("layout").at("sourceText").at("id") == "memory.source.even_split");
  const std::string layout_source = j.at("layout").at("source");
  CHECK(layout_source.rfind("our assumption: an even split", 0) == 0);
  // The copies' source quotes the schedule's citation, a name, as its {citation}.
  CHECK(j.at("copies").at("sourceText").at("params").at("citation") ==
        find_schedule_info("dualpipe")->source);
  CHECK(j.at("model").at("labelText").at("id") == "memory.model.params");
  CHECK(j.at("model").at("label") == "the model");
  CHECK(j.at("recipe").at("labelText").at("id") == "memory.recipe.mixed_adam");
  CHECK(j.at("recipe").at("label") == "Mixed-precision Adam");
  // Names stay names: DeepSeek-V3's recipe label and the preset's config files have no phrase.
  const MemoryResult ds =
      run_memory(R"({"model":"deepseek-v3","recipe":"deepseek-v3","layout":{"pp":16,"ep":64,"dp":128}})");
  const Json d = memory_result_to_json(ds).at("assumptions");
  CHECK_FALSE(d.at("recipe").contains("labelText"));
  CHECK(d.at("recipe").at("sourceText").at("id") == "memory.recipe_source.deepseek_v3");
  CHECK_FALSE(d.at("model").contains("sourceText"));
  CHECK_FALSE(d.at("model").contains("labelText"));
  // Every recipe's source, and each label that is not a name, is a row.
  for (const PrecisionRecipe& p : precision_recipes()) {
    REQUIRE(p.source_text);
    CHECK(p.source == plan_text(*p.source_text).english());
    if (p.label_text) CHECK(p.label == plan_text(*p.label_text).english());
  }
}

TEST_CASE("a comparison counts every side the same way unless a side sets it apart") {
  const auto compare = [](const std::string& json) {
    auto c = memory_comparison(parse_json(json).value());
    REQUIRE(c.ok());
    return c.value();
  };
  const MemoryComparison same = compare(R"({"recipe":"deepseek-v3","zero":1,"layout":{"gpus":2048},
      "schedule":"dualpipe","sides":[{"model":"llama3-70b","layout":{"tp":8,"pp":8}},
      {"model":"deepseek-v3","layout":{"pp":16,"ep":64}}]})");
  REQUIRE(same.sides.size() == 2);
  CHECK(same.same_recipe);
  CHECK(same.same_sharding);
  CHECK(same.same_layout_policy);
  CHECK(same.sides[0].extra_copy_bytes == Approx(6'890'010'400.0));
  CHECK(same.sides[1].extra_copy_bytes == Approx(12'871'811'798.0));
  CHECK(same.accounting ==
        "every side: DeepSeek-V3 recipe, ZeRO-1 over each side's data-parallel group, all 2048 GPUs, "
        "DP = GPUs / (TP x PP)");
  const MemoryComparison apart = compare(R"({"zero":1,"layout":{"gpus":2048},"sides":[
      {"model":"llama3-70b","layout":{"tp":8,"pp":8}},
      {"model":"deepseek-v3","recipe":"deepseek-v3","layout":{"pp":16,"ep":64,"dp":64}}]})");
  CHECK_FALSE(apart.same_recipe);
  CHECK(apart.same_sharding);
  CHECK_FALSE(apart.same_layout_policy);
  CHECK(apart.accounting.find("recipe (side 1 (Llama-3-70B, 1f1b): Mixed-precision Adam; side 2 "
                              "(DeepSeek-V3, 1f1b): DeepSeek-V3)") != std::string::npos);
  // Two schedules of one model: only the copies differ.
  const MemoryComparison schedules = compare(R"({"model":"deepseek-v3","zero":1,"layout":{"pp":16,"ep":64,"dp":128},
      "sides":[{"schedule":"dualpipe"},{"schedule":"dualpipev"}]})");
  CHECK(schedules.sides[0].states.total() == Approx(2 * schedules.sides[1].states.total()));
}

TEST_CASE("comparison errors name the side whose own field is at fault") {
  auto bad = memory_comparison(parse_json(R"({"layout":{"gpus":2048},"sides":[{"model":"llama3-70b",
      "layout":{"tp":8,"pp":8}},{"model":"deepseek-v3","layout":{"pp":16,"ep":48}}]})").value());
  REQUIRE_FALSE(bad.ok());
  CHECK(bad.error().message == "ep must divide the routed experts = 256 (got 48)");
  CHECK(bad.error().path == "/sides/1/layout/ep");
  auto shared = memory_comparison(parse_json(R"({"zero":7,"sides":[{"params":1e9},{"params":2e9}]})").value());
  REQUIRE_FALSE(shared.ok());
  CHECK(shared.error().path == "/zero");
  auto one = memory_comparison(parse_json(R"({"sides":[{"params":1e9}]})").value());
  REQUIRE_FALSE(one.ok());
  CHECK(one.error().message == "sides must be an array of 2 to 8 requests (got [{\"params\":1000000000.0}])");
  CHECK(one.error().path == "/sides");
}

TEST_CASE("memory requests name the offending field") {
  Error e = memory_error_of(R"({"model":"deepseek-v3","layout":{"pp":16,"ep":64,"dp":32}})");
  CHECK(e.code == ErrorCode::InvalidConfig);
  CHECK(e.message == "ep must divide dp = 32 (got 64)");
  CHECK(e.path == "/layout/ep");
  e = memory_error_of(R"({"params":1e9,"layout":{"tp":2,"dp":4,"gpus":10}})");
  CHECK(e.message == "gpus must equal tp x pp x dp = 8 (got 10)");
  CHECK(e.path == "/layout/gpus");
  e = memory_error_of(R"({"params":1e9,"layout":{"tp":8,"pp":8,"gpus":100}})");
  CHECK(e.message == "gpus must be a multiple of tp x pp = 64 (got 100)");
  e = memory_error_of(R"({"params":1e9,"recipe":"fp8"})");
  CHECK(e.message == "recipe must be one of mixed-adam, deepseek-v3 (got \"fp8\")");
  CHECK(e.path == "/recipe");
  e = memory_error_of(R"({"params":1e9,"zero":4})");
  CHECK(e.message == "zero must be an integer in [0, 3] (got 4)");
  e = memory_error_of(R"({"params":1e9,"activations":{"seqLength":2048}})");
  CHECK(e.message == "activations need the model's shape: give model (a preset or custom) or shape "
                     "(layers, hidden, heads)");
  CHECK(e.path == "/activations");
  e = memory_error_of(R"({"params":1e9,"model":"llama3-70b"})");
  CHECK(e.message == "give either model (llama3-70b, deepseek-v3, custom) or params (a parameter "
                     "count), not both");
  e = memory_error_of(R"({"zero":1})");
  CHECK(e.path == "/model");
  e = memory_error_of(R"({"params":1e9,"layout":{"pp":3},"schedule":"dualpipe"})");
  CHECK(e.message == "ranks must be an even integer >= 2 for dualpipe (got 3)");
  CHECK(e.path == "/layout/pp");
  e = memory_error_of(R"({"model":"llama3-70b","layout":{"tp":3}})");
  CHECK(e.message == "tp must divide heads = 64 (got 3)");
  e = memory_error_of(R"({"model":"llama3-70b","layout":{"ep":2,"dp":2}})");
  CHECK(e.message == "ep must be 1 for a model without routed experts (got 2)");
  e = memory_error_of(R"({"params":1e9,"routedParams":2e9})");
  CHECK(e.message == "routedParams must be <= params = 1000000000 (got 2000000000)");
  e = memory_error_of(R"({"params":1e9,"activations":{"seqLength":0},"shape":{"layers":2,"hidden":8,"heads":2}})");
  CHECK(e.message == "activations.seqLength must be an integer in [1, 4194304] (got 0)");
  e = memory_error_of(R"({"params":1e9,"activations":{"seqLength":8,"recompute":"some"},"shape":{"layers":2,"hidden":8,"heads":2}})");
  CHECK(e.message == "activations.recompute must be one of none, selective, full (got \"some\")");
}

TEST_CASE("a config's memoryModel is checked at /memoryModel, without the config's own fields") {
  const auto config_error = [](const char* json) {
    auto c = config_from_json(parse_json(json).value());
    REQUIRE_FALSE(c.ok());
    return c.error();
  };
  Error e = config_error(R"({"schedule":"1f1b","ranks":4,"microbatches":8,"memoryModel":{"params":1e9,"zero":9}})");
  CHECK(e.path == "/memoryModel/zero");
  e = config_error(R"({"schedule":"1f1b","ranks":4,"microbatches":8,"memoryModel":{"params":1e9,"layout":{"pp":4}}})");
  CHECK(e.message == "unknown field \"pp\" in layout");
  CHECK(e.path == "/memoryModel/layout/pp");
  e = config_error(R"({"schedule":"1f1b","ranks":4,"microbatches":8,"memoryModel":{"model":"llama3-70b","layout":{"tp":3}}})");
  CHECK(e.path == "/memoryModel/layout/tp");
}
