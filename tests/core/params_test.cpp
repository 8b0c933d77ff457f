// params: parameter counts from the published configurations, summed by hand, and what one GPU
// holds under each schedule's stage layout (the memory model's view, pipesim/memory.h).
#include <catch2/catch.hpp>

#include "invariants.h"
#include "pipesim/exercises.h"

using namespace pipesim;
using pipesim::testing::simulate_checked;

namespace {

ParamsResult run(const char* model, int pp, int ep = 1, int dp = 1) {
  ParamsRequest q;
  q.model = model_preset(model).value();
  q.pp = pp;
  q.ep = ep;
  q.dp = dp;
  auto r = params(q);
  REQUIRE(r.ok());
  return r.value();
}

std::int64_t part(const ParamCount& c, const std::string& name) {
  for (const ParamPart& p : c.breakdown)
    if (p.part == name) return p.params;
  FAIL("no part " << name);
  return 0;
}

const MemoryResult& footprint(const ParamsResult& r, const std::string& schedule) {
  for (const ScheduleFootprint& f : r.schedules)
    if (f.schedule == schedule) return f.memory;
  FAIL("no schedule " << schedule);
  return r.schedules.front().memory;
}

Error params_json_error(const char* text) {
  auto json = parse_json(text);
  REQUIRE(json.ok());
  auto r = params_request_from_json(json.value());
  REQUIRE_FALSE(r.ok());
  return r.error();
}

}  // namespace

// Meta's Llama 3 70B configuration: hidden 8192, 80 layers, FFN 28672, 64 heads and 8 KV heads of
// dim 128, vocabulary 128256, untied. By hand: embedding = head = 128256 x 8192 = 1,050,673,152;
// attention per layer 8192x8192 (q) + 2 x 8192x1024 (k, v) + 8192x8192 (o) = 150,994,944, x 80 =
// 12,079,595,520; FFN 3 x 8192 x 28672 = 704,643,072, x 80 = 56,371,445,760; norms 80 x 2 x 8192
// = 1,310,720 plus the final 8192. Total 70,553,706,496 ("70.6B").
TEST_CASE("Llama-3-70B counts 70,553,706,496 parameters") {
  const ParamCount c = run("llama3-70b", 8).count;
  CHECK(part(c, "embedding") == 1'050'673'152);
  CHECK(part(c, "attention") == 12'079'595'520);
  CHECK(part(c, "denseFfn") == 56'371'445'760);
  CHECK(part(c, "layerNorms") == 1'310'720);
  CHECK(part(c, "outputHead") == 1'050'673'152);
  CHECK(c.total == 70'553'706'496);
  CHECK(c.routed == 0);
}

// deepseek-ai/DeepSeek-V3 inference/configs/config_671B.json and inference/model.py. By hand:
// MLA per layer: wq_a 7168x1536 = 11,010,048, q_norm 1536, wq_b 1536 x 128x192 = 37,748,736,
//   wkv_a 7168 x (512+64) = 4,128,768, kv_norm 512, wkv_b 512 x 128x256 = 16,777,216,
//   wo 16384 x 7168 = 117,440,512: 187,107,328; x 61 = 11,413,547,008.
// dense FFN 3 x 7168 x 18432 = 396,361,728, x 3 = 1,189,085,184.
// expert 3 x 7168 x 2048 = 44,040,192; shared: x 58 = 2,554,331,136;
//   routed: x 256 x 58 = 653,908,770,816; gate 256 x (7168 + 1 bias) x 58 = 106,445,312.
// norms 61 x 2 x 7168 = 874,496 + final 7,168; embedding = head = 129280 x 7168 = 926,679,040.
// Total 671,026,419,200 ("671B"). MTP: one more MoE layer (187,107,328 + 14,336 + 44,040,192 +
// 1,835,264 + 11,274,289,152 = 11,507,286,272) + eh_proj 2x7168x7168 = 102,760,448 + 3 norms
// 21,504 = 11,610,068,224, excluded (README_WEIGHTS.md: "11.5B unique parameters").
TEST_CASE("DeepSeek-V3 counts 671,026,419,200 parameters, 653,908,770,816 of them routed") {
  const ParamCount c = run("deepseek-v3", 16, 64, 128).count;
  CHECK(part(c, "attention") == 11'413'547'008);
  CHECK(part(c, "denseFfn") == 1'189'085'184);
  CHECK(part(c, "sharedExperts") == 2'554'331'136);
  CHECK(part(c, "router") == 106'445'312);
  CHECK(part(c, "routedExperts") == 653'908'770'816);
  CHECK(part(c, "layerNorms") == 874'496);
  CHECK(part(c, "embedding") == 926'679'040);
  CHECK(c.total == 671'026'419'200);
  CHECK(c.routed == 653'908'770'816);
  REQUIRE(c.excluded.size() == 1);
  CHECK(c.excluded[0].params == 11'610'068'224);
}

// Llama-3-70B at P = 8 (no TP, one data-parallel replica, the default mixed-precision Adam, no
// ZeRO): 1F1B and DualPipeV hold 70,553,706,496 / 8 = 8,819,213,312 parameters per GPU, 17.64 GB
// of bf16 weights and 16 x 8,819,213,312 = 141,107,412,992 bytes of model states; DualPipe and
// Chimera twice that, so the second copy costs 141.1 GB, 1/8 of the model, 176% of 80 GB.
TEST_CASE("Llama-3-70B at P=8 without sharding: DualPipe's second copy costs 141 GB per GPU") {
  const ParamsResult r = run("llama3-70b", 8);
  CHECK(footprint(r, "1f1b").held.total() == Approx(8'819'213'312.0));
  CHECK(footprint(r, "dualpipev").held.total() == Approx(8'819'213'312.0));
  CHECK(footprint(r, "dualpipe").held.total() == Approx(17'638'426'624.0));
  CHECK(footprint(r, "chimera").held.total() == Approx(17'638'426'624.0));
  CHECK(footprint(r, "1f1b").states.weights == Approx(17'638'426'624.0));
  CHECK(footprint(r, "1f1b").states.total() == Approx(141'107'412'992.0));
  CHECK(r.overhead_bytes_per_gpu == Approx(141'107'412'992.0));
  CHECK(r.overhead_share_of_model == Approx(0.125));
  CHECK(r.overhead_share_of_gpu_memory == Approx(141'107'412'992.0 / 80e9));
}

// DeepSeek-V3 at P = 16, EP = 64 (DP 128, expert DP 2): per GPU 17,117,648,384 / 16 (everything
// but routed experts) + 653,908,770,816 / (16 x 64) = 1,069,853,024 + 638,582,784 =
// 1,708,435,808 parameters, 3.42 GB in bf16; DualPipe doubles it. Under DeepSeek's recipe with
// ZeRO-1 the second copy is 12,871,811,798 bytes (worked in memory_model_test.cpp).
TEST_CASE("DeepSeek-V3 at P=16 EP=64: 1.71B parameters per copy, 12.9 GB for the second under its recipe") {
  ParamsRequest q;
  q.model = model_preset("deepseek-v3").value();
  q.pp = 16;
  q.ep = 64;
  q.dp = 128;
  q.recipe = "deepseek-v3";
  q.zero = 1;
  const ParamsResult r = params(q).value();
  CHECK(footprint(r, "1f1b").held.total() == Approx(1'708'435'808.0));
  CHECK(footprint(r, "dualpipev").held.total() == Approx(1'708'435'808.0));
  CHECK(footprint(r, "dualpipe").held.total() == Approx(3'416'871'616.0));
  CHECK(footprint(r, "1f1b").states.weights == Approx(2 * 1'708'435'808.0));
  CHECK(r.overhead_params_per_gpu == Approx(1'708'435'808.0));
  CHECK(r.overhead_bytes_per_gpu == Approx(12'871'811'798.0));
  CHECK(r.overhead_share_of_model == Approx(1'708'435'808.0 / 671'026'419'200.0));
}

// ZeRO-1 (Rajbhandari et al. §5): the 12 bytes of fp32 master weights and Adam moments are sharded
// over the data-parallel group: 2 + 2 + 12/4 = 7 bytes per parameter at DP = 4.
TEST_CASE("ZeRO-1 shards the optimizer's 12 bytes per parameter over DP") {
  ParamsRequest q;
  q.model = model_preset("llama3-70b").value();
  q.pp = 8;
  q.zero = 1;
  q.dp = 4;
  const ParamsResult r = params(q).value();
  CHECK(footprint(r, "1f1b").states.master_weights + footprint(r, "1f1b").states.optimizer_states ==
        Approx(8'819'213'312.0 * 3));
  CHECK(footprint(r, "1f1b").states.total() == Approx(8'819'213'312.0 * 7));
}

TEST_CASE("the stage layouts match what the schedules report when simulated") {
  const ParamsResult r = run("llama3-70b", 4);
  for (const ScheduleFootprint& f : r.schedules) {
    const SimResult s = simulate_checked({f.schedule, 4, 8, {}});
    CHECK(s.stages == f.memory.stages);
    CHECK(s.stages_per_rank == f.memory.stages_per_rank);
    CHECK(s.param_copies == f.memory.param_copies);
  }
}

TEST_CASE("a custom model with Llama-3-70B's configuration counts the same") {
  auto json = parse_json(R"({"model":"custom","pp":8,"custom":{"layers":80,"hidden":8192,
      "intermediate":28672,"vocab":128256,"heads":64,"kvHeads":8}})");
  REQUIRE(json.ok());
  auto q = params_request_from_json(json.value());
  REQUIRE(q.ok());
  const ParamsResult r = params(q.value()).value();
  CHECK(r.count.total == 70'553'706'496);
  const Json out = params_result_to_json(r);
  CHECK(out.at("totalParams").get<std::int64_t>() == 70'553'706'496);
  CHECK(out.at("schedules").at("dualpipe").at("paramsPerGpu").get<double>() ==
        Approx(17'638'426'624.0));
  CHECK(out.at("dualpipeOverhead").at("shareOfModel").get<double>() == Approx(0.125));
  // One accounting for every row, said once, without any one schedule's copies.
  CHECK(out.at("assumptions").at("recipe").at("id") == "mixed-adam");
  CHECK_FALSE(out.at("assumptions").contains("copies"));
}

TEST_CASE("params names the offending field") {
  Error e = params_json_error(R"({"model":"deepseek-v3","pp":16,"ep":48,"dp":96})");
  CHECK(e.code == ErrorCode::InvalidConfig);
  CHECK(e.message == "ep must divide the routed experts = 256 (got 48)");
  CHECK(e.path == "/ep");
  e = params_json_error(R"({"model":"llama3-70b","pp":8,"ep":8})");
  CHECK(e.message == "ep must be 1 for a model without routed experts (got 8)");
  e = params_json_error(R"({"model":"gpt-5","pp":8})");
  CHECK(e.message == "model must be one of llama3-70b, deepseek-v3, custom (got \"gpt-5\")");
  CHECK(e.path == "/model");
  e = params_json_error(R"({"model":"llama3-70b","pp":0})");
  CHECK(e.message == "pp must be an integer in [1, 1024] (got 0)");
  CHECK(e.path == "/pp");
  e = params_json_error(R"({"model":"llama3-70b"})");
  CHECK(e.message == "missing field pp");
  e = params_json_error(R"({"model":"deepseek-v3","pp":16,"ep":64,"dp":32})");
  CHECK(e.message == "ep must divide dp = 32 (got 64)");
  CHECK(e.path == "/ep");
  e = params_json_error(R"({"model":"llama3-70b","pp":8,"recipe":"adam"})");
  CHECK(e.message == "recipe must be one of mixed-adam, deepseek-v3 (got \"adam\")");
  CHECK(e.path == "/recipe");
  e = params_json_error(R"({"model":"llama3-70b","pp":8,"bytesPerParam":2})");
  CHECK(e.message == "unknown field \"bytesPerParam\"");
  e = params_json_error(
      R"({"model":"custom","pp":8,"custom":{"layers":2,"hidden":100,"vocab":10,"heads":3,"intermediate":8}})");
  CHECK(e.message == "custom.heads must divide custom.hidden = 100 (got 3)");
  CHECK(e.path == "/custom/heads");
  e = params_json_error(
      R"({"model":"custom","pp":8,"custom":{"layers":2,"hidden":64,"vocab":10,"heads":4,"kvHeads":3,"intermediate":8}})");
  CHECK(e.message == "custom.kvHeads must divide custom.heads = 4 (got 3)");
  e = params_json_error(
      R"({"model":"custom","pp":8,"custom":{"layers":2,"hidden":64,"vocab":10,"heads":4,"size":1}})");
  CHECK(e.message == "unknown field \"size\" in custom");
  CHECK(e.path == "/custom/size");
  e = params_json_error(R"({"model":"custom","pp":8,"custom":{"layers":2,"hidden":64,"heads":4}})");
  CHECK(e.message == "missing field custom.vocab");
  CHECK(e.path == "/custom/vocab");
  e = params_json_error(
      R"({"model":"custom","pp":8,"custom":{"layers":0,"hidden":64,"vocab":10,"heads":4}})");
  CHECK(e.message == "custom.layers must be an integer in [1, 1024] (got 0)");
  e = params_json_error(R"({"model":"llama3-70b","pp":8,"custom":{}})");
  CHECK(e.message == "custom is only allowed with model \"custom\" (got model \"llama3-70b\")");
}
