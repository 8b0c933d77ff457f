// The planner (pipesim/planner.h): every decision-table rule, refusal and hard reject fires on one
// spec and just misses on a neighbouring one; numbers are worked by hand from the memory model
// stated in planner.h (16 bytes per parameter, ZeRO paper §3.1) and DeepSeek-V3's figures.
#include "pipesim/planner.h"

#include <catch2/catch.hpp>
#include <set>
#include <string>

#include "invariants.h"
#include "pipesim/catalogue.h"
#include "pipesim/engine.h"
#include "pipesim/exercises.h"
#include "pipesim/schedule.h"

using namespace pipesim;
using pipesim::testing::read_text_file;

namespace {

// DeepSeek-V3 as the report gives it: 2048 H800 in 256 nodes of 8 (§3.1), IB 50 GB/s = 400 Gbps
// per GPU (§3.2.2), 671B total / 37B active, 61 layers, 256 routed experts, EP 64 (§3.2, §4.2),
// 14.8T tokens.
Json deepseek() {
  return Json::parse(R"({"title":"DeepSeek-V3",
    "cluster":{"gpus":2048,"gpuModel":"H800","memoryPerGpuGb":80,"nodes":256,"gpusPerNode":8,"interconnectGbpsPerGpu":400},
    "model":{"totalParams":671e9,"activeParams":37e9,"type":"moe","layers":61,"experts":256,"expertParallel":64},
    "trainingTokens":14.8e12,"customAllToAllKernel":true})");
}

// A dense model of `params` on `gpus` GPUs, one GPU per node so any count is a valid cluster.
Json dense(int gpus, double params, int layers = 80) {
  Json j = Json::parse(
      R"({"cluster":{"gpuModel":"H100","memoryPerGpuGb":80,"gpusPerNode":1,"interconnectGbpsPerGpu":400},
    "model":{"type":"dense"},"trainingTokens":1e12,"customAllToAllKernel":false})");
  j["cluster"]["gpus"] = gpus;
  j["cluster"]["nodes"] = gpus;
  j["model"]["totalParams"] = params;
  j["model"]["layers"] = layers;
  return j;
}

Plan plan_of(const Json& spec) {
  auto parsed = plan_spec_from_json(spec);
  INFO(spec.dump());
  REQUIRE(parsed.ok());
  auto plan = make_plan(parsed.value());
  REQUIRE(plan.ok());
  return plan.value();
}

Error error_of(const Json& spec) {
  auto parsed = plan_spec_from_json(spec);
  if (!parsed.ok()) return parsed.error();
  auto plan = make_plan(parsed.value());
  REQUIRE_FALSE(plan.ok());
  return plan.error();
}

std::string schedule_of(const Plan& p) { return p.schedule.value_or("none"); }

const std::string kPresets = std::string(PIPESIM_GOLDEN_DIR) + "/../../lessons/planner-presets/";

}  // namespace

TEST_CASE("the DeepSeek-V3 preset yields DualPipe at P = 16") {
  const std::string text = read_text_file(kPresets + "deepseek-v3-2048-h800.json");
  REQUIRE_FALSE(text.empty());
  const Plan p = plan_of(Json::parse(text));
  CHECK(schedule_of(p) == "dualpipe");
  CHECK(p.rule == "moe-expert-parallel");
  CHECK(p.ranks == 16);  // the guide for frontier MoE, and DeepSeek-V3's own PP degree (§3.2)
  CHECK(p.microbatches == 128);  // 8 per rank
  CHECK_FALSE(p.refusal);
  CHECK_FALSE(p.reject);
  // 1F1B's bubble fraction is (P-1)/(M+P-1) = 15/143; the planner simulates it.
  CHECK(*p.bubble_fraction_1f1b == Approx(15.0 / 143.0));
  CHECK(*p.bubble_fraction ==
        simulate(SimConfig{"dualpipe", 16, 128, Costs{}}).value().bubble_fraction);
  // Budget: 180K H800 GPU-hours per trillion tokens x 14.8 = 2,664K, the report's pre-training.
  CHECK(*p.gpu_hours == Approx(2.664e6));
  CHECK(p.gpu_hours_source == "estimated");
  // recover's definition: C x (u / u_1F1B - 1) with u_1F1B = 128/143.
  CHECK(*p.gpu_hours_saved_vs_1f1b ==
        Approx(2.664e6 * ((1 - *p.bubble_fraction) / (128.0 / 143.0) - 1)));
  // Memory, by hand from the preset's routedParams (pipesim params' count, 58 MoE layers x 256
  // experts x 3 x 7168 x 2048 = 653,908,770,816 of 671,026,419,200): per copy, replicated
  // 17,117,648,384/16 = 1,069,853,024 and experts 653,908,770,816/(16*64) = 638,582,784
  // parameters; weights+grads 4 B each = 6.833743232 GB; optimizer 12 B over 128 data-parallel
  // replicas (experts over 128/64 = 2): 12 * (8,358,226.75 + 319,291,392) B = 3.931795425 GB.
  // Two copies: 3,416,871,616 parameters, 21.53107731 GB of 64 usable.
  REQUIRE(p.memory);
  CHECK(p.memory->param_copies == 2);
  CHECK(p.memory->params_per_gpu == Approx(3416871616.0));
  CHECK(p.memory->total_gb == Approx(21.531077314));
  CHECK(p.memory->replication_gb == Approx(10.765538657));
  CHECK(p.memory->fits);
  // Under the communication model DualPipe computes far more of the time than 1F1B.
  REQUIRE(p.comm);
  CHECK(p.comm->ratio == 1);
  CHECK(p.comm->layers == 4);  // 61 layers / 16 stages, rounded: the profile's 4 layers per chunk
  CHECK(p.comm->compute_utilization > p.comm->compute_utilization_1f1b);
  CHECK(p.rollback_fallback == "zb-h1");
}

TEST_CASE("the other presets: 70B dense on 1024 GPUs gets DualPipeV, 7B on 8 GPUs is rejected") {
  const Plan big = plan_of(Json::parse(read_text_file(kPresets + "dense-70b-1024.json")));
  CHECK(schedule_of(big) == "dualpipev");
  CHECK(big.rule == "dense-500-plus");
  // Fits from P = 5 (4 B x 70e9 / 5 = 56 GB + 12 B x 70e9 / 1024 = 0.82 GB); the guide says 8.
  CHECK(big.ranks == 8);
  CHECK(big.stages == 16);
  CHECK(big.microbatches == 64);
  const Plan small = plan_of(Json::parse(read_text_file(kPresets + "dense-7b-8gpu.json")));
  REQUIRE(small.reject);
  CHECK(small.reject->rule == "fits-one-gpu");
  CHECK(small.reject->recommend.english() == "data parallelism only");
  CHECK_FALSE(small.schedule);
}

TEST_CASE("decision table: under 100 GPUs 1F1B, then Zero Bubble, from 500 DualPipeV") {
  // 30B dense does not fit one GPU: 4 B x 30e9 = 120 GB of weights and gradients.
  Plan p = plan_of(dense(99, 30e9));
  CHECK(schedule_of(p) == "1f1b");
  CHECK(p.rule == "small-run");
  CHECK(p.ranks == 9);  // the guide says 4; the first depth >= 4 that divides 99
  p = plan_of(dense(100, 30e9));
  CHECK(schedule_of(p) == "zb-h1");
  CHECK(p.rule == "dense-under-500");
  p = plan_of(dense(496, 30e9));
  CHECK(schedule_of(p) == "zb-h1");
  p = plan_of(dense(500, 30e9));
  CHECK(schedule_of(p) == "dualpipev");
  CHECK(p.rule == "dense-500-plus");
}

TEST_CASE("MoE with expert parallelism gets DualPipe, MoE without it the dense rules") {
  Json spec = deepseek();
  CHECK(schedule_of(plan_of(spec)) == "dualpipe");
  // All 671B on every data-parallel rank would need P > 61 layers; a 200B MoE without EP fits
  // from P = 13 (4 B x 200e9 / P + 12 B x 200e9 / 2048 <= 64 GB) and takes the frontier guide 16.
  spec["model"]["expertParallel"] = 1;
  spec["model"]["totalParams"] = 200e9;
  const Plan p = plan_of(spec);
  CHECK(schedule_of(p) == "dualpipev");
  CHECK(p.rule == "dense-500-plus");
  CHECK_FALSE(p.comm);  // no expert all-to-all to model
}

TEST_CASE("refusal: interconnect at or below 200 Gbps per GPU gives DualPipeV") {
  Json spec = deepseek();
  spec["cluster"]["interconnectGbpsPerGpu"] = 200;
  Plan p = plan_of(spec);
  REQUIRE(p.refusal);
  CHECK(p.refusal->rule == "interconnect-200gbps");
  CHECK(p.refusal->refused == "dualpipe");
  CHECK(p.refusal->instead == "dualpipev");
  CHECK(schedule_of(p) == "dualpipev");
  CHECK(p.comm->ratio == 2);  // DeepSeek's 1:1 at 400 Gbps, at half the bandwidth
  spec["cluster"]["interconnectGbpsPerGpu"] = 201;
  p = plan_of(spec);
  CHECK_FALSE(p.refusal);
  CHECK(schedule_of(p) == "dualpipe");
}

TEST_CASE("refusal: without a custom all-to-all kernel, Zero Bubble instead of DualPipe") {
  Json spec = deepseek();
  spec["customAllToAllKernel"] = false;
  const Plan p = plan_of(spec);
  REQUIRE(p.refusal);
  CHECK(p.refusal->rule == "no-custom-all-to-all");
  CHECK(p.refusal->instead == "zb-h1");
  CHECK(schedule_of(p) == "zb-h1");
  CHECK(p.rule == "no-custom-all-to-all");
  CHECK(p.memory->param_copies == 1);
  spec["customAllToAllKernel"] = true;
  CHECK_FALSE(plan_of(spec).refusal);
}

TEST_CASE("refusal: under 1B training tokens, no pipeline plan at all") {
  Json spec = deepseek();
  spec["trainingTokens"] = 0.99e9;
  Plan p = plan_of(spec);
  REQUIRE(p.refusal);
  CHECK(p.refusal->rule == "under-1b-tokens");
  CHECK(p.refusal->instead == "data + tensor parallelism");
  CHECK_FALSE(p.schedule);
  CHECK(p.ranks == 0);
  spec["trainingTokens"] = 1e9;
  p = plan_of(spec);
  CHECK_FALSE(p.refusal);
  CHECK(schedule_of(p) == "dualpipe");
}

TEST_CASE("reject: DualPipe without expert parallelism") {
  Json spec = dense(2048, 70e9);
  spec["requested"] = Json{{"schedule", "dualpipe"}};
  Plan p = plan_of(spec);
  REQUIRE(p.reject);
  CHECK(p.reject->rule == "dualpipe-without-ep");
  CHECK_FALSE(p.schedule);
  spec = deepseek();
  spec["model"]["expertParallel"] = 8;
  spec["requested"] = Json{{"schedule", "dualpipe"}};
  p = plan_of(spec);
  CHECK_FALSE(p.reject);
  CHECK(schedule_of(p) == "dualpipe");
  CHECK(p.rule == "requested");
}

TEST_CASE("reject: pipeline depth above 64, requested or needed to fit") {
  Json spec = deepseek();
  spec["model"]["layers"] = 128;  // room for 64 stages
  spec["requested"] = Json{{"ranks", 65}};
  Plan p = plan_of(spec);
  REQUIRE(p.reject);
  CHECK(p.reject->rule == "depth-over-64");
  spec["requested"] = Json{{"ranks", 32}};
  p = plan_of(spec);
  CHECK_FALSE(p.reject);
  CHECK(p.ranks == 32);
  // At P = 64 each pipeline stage has 2048 / 64 = 32 data-parallel GPUs, too few for the 64-way
  // expert parallelism carved out of them (the memory model's layout rule).
  spec["requested"] = Json{{"ranks", 64}};
  const Error e = error_of(spec);
  CHECK(e.message == "model.expertParallel must divide cluster.gpus / requested.ranks = 32 (got 64)");
  CHECK(e.path == "/requested/ranks");
  // Dense on 4096 GPUs at P = 64: 4 B x N / 64 + 12 B x N / 4096 = 0.0654296875 N bytes, within
  // 64 GB up to N = 978e9. 970e9 needs 63.47 GB (fits only at P = 64); 990e9 needs 64.78 GB.
  p = plan_of(dense(4096, 970e9, 128));
  CHECK_FALSE(p.reject);
  CHECK(p.ranks == 64);
  CHECK(p.memory->total_gb == Approx(63.466796875));
  p = plan_of(dense(4096, 990e9, 128));
  REQUIRE(p.reject);
  CHECK(p.reject->rule == "depth-over-64");
}

TEST_CASE("reject: an odd micro-batch count for DualPipe, not for DualPipeV") {
  Json spec = deepseek();
  spec["requested"] = Json{{"microbatches", 129}};
  Plan p = plan_of(spec);
  REQUIRE(p.reject);
  CHECK(p.reject->rule == "odd-microbatches");
  spec["requested"] = Json{{"microbatches", 130}};
  p = plan_of(spec);
  CHECK_FALSE(p.reject);
  CHECK(p.microbatches == 130);
  // DualPipeV runs one copy of 2P stages: deepseek-ai/DualPipe dualpipev.py asserts only
  // M >= 2P, and so does our simulate, so an odd M is planned and simulated (issue 12).
  spec = dense(1024, 70e9);
  spec["requested"] = Json{{"microbatches", 65}};
  p = plan_of(spec);
  CHECK(schedule_of(p) == "dualpipev");
  CHECK_FALSE(p.reject);
  CHECK(p.microbatches == 65);
  CHECK(*p.bubble_fraction == simulate(SimConfig{"dualpipev", p.ranks, 65, Costs{}}).value().bubble_fraction);
  spec["requested"] = Json{{"schedule", "zb-h1"}, {"microbatches", 65}};
  CHECK_FALSE(plan_of(spec).reject);
}

TEST_CASE("reject: no pipeline at all when the model fits one GPU") {
  // 8 GPUs of 80 GB (64 usable): data parallelism needs 4 B x N + 12 B x N / 8 = 5.5 N bytes.
  // N = 11.6e9 -> 63.8 GB fits; N = 11.7e9 -> 64.35 GB does not.
  Plan p = plan_of(dense(8, 11.6e9, 32));
  REQUIRE(p.reject);
  CHECK(p.reject->rule == "fits-one-gpu");
  p = plan_of(dense(8, 11.7e9, 32));
  CHECK_FALSE(p.reject);
  CHECK(schedule_of(p) == "1f1b");
  CHECK(p.ranks == 4);
}

TEST_CASE("a requested shape the simulator cannot run is a spec error on /requested") {
  Json spec = deepseek();
  spec["requested"] = Json{{"microbatches", 20}};
  Error e = error_of(spec);
  CHECK(e.message == "microbatches must be >= 2 * ranks = 32 for dualpipe (got 20)");
  CHECK(e.path == "/requested/microbatches");
  spec["requested"] = Json{{"ranks", 3}};
  e = error_of(spec);
  CHECK(e.message == "requested.ranks must divide cluster.gpus = 2048 (got 3)");
}

TEST_CASE("bad or incomplete specs name the field") {
  Json spec = deepseek();
  spec["cluster"].erase("gpus");
  Error e = error_of(spec);
  CHECK(e.message == "missing field cluster.gpus");
  CHECK(e.path == "/cluster/gpus");
  spec = deepseek();
  spec["cluster"]["gpus"] = 2048.5;
  CHECK(error_of(spec).message == "cluster.gpus must be an integer (got 2048.5)");
  spec = deepseek();
  spec["cluster"]["nodes"] = 128;
  CHECK(error_of(spec).message ==
        "cluster.nodes x cluster.gpusPerNode must equal cluster.gpus = 2048 (got 128 x 8)");
  spec = deepseek();
  spec["model"]["type"] = "sparse";
  CHECK(error_of(spec).message == "model.type must be \"dense\" or \"moe\" (got \"sparse\")");
  spec = deepseek();
  spec["model"].erase("activeParams");
  CHECK(error_of(spec).message == "missing field model.activeParams");
  spec = deepseek();
  spec["model"]["expertParallel"] = 3;
  CHECK(error_of(spec).message == "model.expertParallel must divide model.experts = 256 (got 3)");
  spec = deepseek();
  spec["trainingTokens"] = -1;
  CHECK(error_of(spec).message == "trainingTokens must be a number in (0, 1e+18] (got -1)");
  spec = deepseek();
  spec.erase("customAllToAllKernel");
  CHECK(error_of(spec).message == "missing field customAllToAllKernel");
  spec = deepseek();
  spec["clusterr"] = 1;
  CHECK(error_of(spec).message == "unknown field \"clusterr\"");
  spec = dense(64, 30e9);
  spec["model"]["experts"] = 8;
  CHECK(error_of(spec).message == "model.experts must be 0 for a dense model (got 8)");
  spec = deepseek();
  spec["requested"] = Json{{"schedule", "pipedream"}};
  e = error_of(spec);
  CHECK(e.code == ErrorCode::UnknownSchedule);
  CHECK(e.path == "/requested/schedule");
}

TEST_CASE("a given GPU-hour budget replaces the estimate") {
  Json spec = deepseek();
  spec["gpuHours"] = 1e6;
  const Plan p = plan_of(spec);
  CHECK(*p.gpu_hours == 1e6);
  CHECK(p.gpu_hours_source == "given");
  CHECK(*p.gpu_hours_saved_vs_1f1b ==
        Approx(1e6 * ((1 - *p.bubble_fraction) / (1 - *p.bubble_fraction_1f1b) - 1)));
  // An A100's dense BF16 peak is 312 of the H800's 989 TFLOPS: the estimate grows by 989/312.
  CHECK(*relative_gpu_speed("A100-80GB") == Approx(312.0 / 989.0));
  CHECK_FALSE(relative_gpu_speed("TPUv5"));
}

TEST_CASE("the Markdown plan states schedule, P, M, replication and the rollback trigger") {
  const Plan p = plan_of(deepseek());
  const std::string md = plan_to_markdown(p);
  CHECK(md.find("# Pipeline plan: DeepSeek-V3\n") == 0);
  CHECK(md.find("| Schedule | **DualPipe** (rule `moe-expert-parallel`) |") != std::string::npos);
  CHECK(md.find("| Pipeline depth P | 16 ranks, 16 stages |") != std::string::npos);
  CHECK(md.find("| Micro-batches M | 128 (M/P = 8.0) |") != std::string::npos);
  CHECK(md.find("| Parameter replication cost | 15.7 GB per GPU |") != std::string::npos);
  CHECK(
      md.find(
          "## Rollback trigger\n\nMeasure aggregate GPU utilization over the first 1000 steps.") !=
      std::string::npos);
  const Json j = plan_to_json(p);
  CHECK(j.at("schedule") == "dualpipe");
  CHECK(j.at("ranks") == 16);
  CHECK(j.at("reject").is_null());
  CHECK(j.at("rollback").at("fallback") == "zb-h1");
}

TEST_CASE("the planner's GPU-hours saved is recover's for the same run") {
  // Issue 12: the planner used (fraction difference) x budget, recover C x (u_to / u_from - 1).
  Json spec = deepseek();
  spec["gpuHours"] = 1e6;
  const Plan p = plan_of(spec);
  RecoverRequest q;
  q.ranks = p.ranks;
  q.microbatches = p.microbatches;
  q.from = "1f1b";
  q.to = schedule_of(p);
  q.gpu_hours_per_million_tokens = 1e6;
  const RecoverResult rec = recover(q).value();
  CHECK(*p.gpu_hours_saved_vs_1f1b == Approx(rec.recovered_gpu_hours_per_million_tokens));
}

TEST_CASE("the planner's memory is pipesim params' for the DeepSeek-V3 preset: one memory model") {
  // Issue 12: the planner counted all 37B active parameters as replicated by DualPipe (5.86B per
  // GPU) where `pipesim params` replicates only the non-routed weights (3.42B). Issue 26: both
  // read the memory model, so under the same recipe, ZeRO stage and layout the bytes agree too.
  const Plan p = plan_of(Json::parse(read_text_file(kPresets + "deepseek-v3-2048-h800.json")));
  ParamsRequest q;
  q.model = model_preset("deepseek-v3").value();
  q.pp = p.ranks;
  q.ep = 64;
  q.dp = 2048 / p.ranks;
  q.recipe = p.spec.recipe;
  q.zero = p.spec.zero;
  const ParamsResult counted = params(q).value();
  CHECK(Json::parse(read_text_file(kPresets + "deepseek-v3-2048-h800.json"))["model"]["routedParams"] ==
        counted.count.routed);
  for (const ScheduleFootprint& f : counted.schedules)
    if (f.schedule == "dualpipe") {
      CHECK(p.memory->params_per_gpu == Approx(f.memory.held.total()));
      CHECK(p.memory->total_gb * 1e9 == Approx(f.memory.states.total()));
      CHECK(p.memory->replication_gb * 1e9 == Approx(f.memory.extra_copy_bytes));
    }
}

// ---- the schedules beside DualPipe: interleaved 1F1B (chunks), ZB-H2, ZB-V ----------------------

namespace {

Json requested(Json spec, const Json& request) {
  spec["requested"] = request;
  return spec;
}

SimResult simulated(const std::string& schedule, int ranks, int microbatches, int chunks = 0,
                    const Costs& costs = Costs{}) {
  SimConfig c{schedule, ranks, microbatches, costs};
  c.chunks = chunks;
  auto r = simulate(c);
  REQUIRE(r.ok());
  return r.value();
}

}  // namespace

TEST_CASE("a requested interleaved 1F1B plans V chunks per rank: P x V stages, Megatron's bubble") {
  // 200 dense GPUs: the guide's P = 8, M = 8P = 64. The planner's costs are per chunk (F=1 B=2),
  // so a rank works M x V x (F+B) = 768 and, M being a multiple of P, idles Megatron's
  // (P-1)(F+B) = 21 (1/V of 1F1B's bubble at the same work per rank): 21 of a 789 step.
  const Plan p = plan_of(requested(dense(200, 30e9), {{"schedule", "interleaved-1f1b"}, {"chunks", 4}}));
  REQUIRE(schedule_of(p) == "interleaved-1f1b");
  CHECK(p.ranks == 8);
  CHECK(p.microbatches == 64);
  CHECK(p.chunks == 4);
  CHECK(p.stages == 32);
  CHECK(*p.bubble_fraction == Approx(21.0 / 789));
  CHECK(*p.bubble_fraction == Approx(simulated("interleaved-1f1b", 8, 64, 4).bubble_fraction));
  CHECK(p.rollback_fallback == "1f1b");
  CHECK(plan_to_json(p).at("chunks") == 4);
  CHECK(plan_to_markdown(p).find("32 stages (V = 4 chunks per rank)") != std::string::npos);
  // Without chunks: the catalogue's default, and 1F1B's plans say nothing of chunks.
  const Plan d = plan_of(requested(dense(200, 30e9), {{"schedule", "interleaved-1f1b"}}));
  CHECK(d.chunks == find_schedule_info("interleaved-1f1b")->chunks.default_chunks);
  CHECK(d.stages == 8 * d.chunks);
  CHECK(plan_of(dense(50, 30e9)).chunks == 0);
  CHECK(plan_to_json(plan_of(dense(50, 30e9))).at("chunks").is_null());
}

TEST_CASE("chunks for a schedule with a fixed layout is the simulator's chunks.unsupported on /requested/chunks") {
  Error e = error_of(requested(dense(200, 30e9), {{"schedule", "zb-h1"}, {"chunks", 2}}));
  CHECK(e.rule == "chunks.unsupported");
  CHECK(e.path == "/requested/chunks");
  CHECK(e.message == "chunks applies only to interleaved-1f1b; zb-h1 has a fixed layout (got 2)");
  // The planner's own pick (ZB-H1 on 200 GPUs) takes no chunks either.
  e = error_of(requested(dense(200, 30e9), {{"chunks", 2}}));
  CHECK(e.rule == "chunks.unsupported");
  CHECK(e.path == "/requested/chunks");
  // Out of the catalogue's range: a spec error naming the field.
  e = error_of(requested(dense(200, 30e9), {{"schedule", "interleaved-1f1b"}, {"chunks", 17}}));
  CHECK(e.rule == "range.integer");
  CHECK(e.path == "/requested/chunks");
}

TEST_CASE("requested chunks must fit the model's layers: P x V stages at most") {
  const Error e = error_of(requested(dense(200, 30e9, 16),
                                     {{"schedule", "interleaved-1f1b"}, {"chunks", 4}, {"ranks", 8}}));
  CHECK(e.rule == "plan.stages_fit_layers");
  CHECK(e.message == "requested.ranks x 4 stages must be <= model.layers = 16 (got 8)");
  // Chosen depth starts at the guide (8) and only rises: every P from 8 up needs more than 16
  // stages at 4 chunks, so no depth is left (with 2 chunks, P = 8 fits exactly).
  const Error none = error_of(requested(dense(200, 30e9, 16), {{"schedule", "interleaved-1f1b"}, {"chunks", 4}}));
  CHECK(none.rule == "plan.no_depth");
  CHECK(none.path == "/cluster/gpus");
  const Plan p = plan_of(requested(dense(200, 30e9, 16), {{"schedule", "interleaved-1f1b"}, {"chunks", 2}}));
  CHECK(p.ranks == 8);
  CHECK(p.stages == 16);
}

TEST_CASE("every catalogue schedule but 1F1B and GPipe has a simpler schedule to fall back to") {
  for (const ScheduleInfo& info : list_schedules()) {
    INFO(info.name);
    const Plan p = plan_of(requested(deepseek(), {{"schedule", info.name}, {"ranks", 16}}));
    REQUIRE(schedule_of(p) == info.name);
    // The planner's rollback is the catalogue's entry, whatever it is.
    CHECK(p.rollback_fallback == info.fallback);
    if (info.name == "1f1b" || info.name == "gpipe") {
      CHECK(p.rollback_fallback.empty());
      continue;
    }
    CHECK((p.rollback_fallback == "zb-h1" || p.rollback_fallback == "1f1b"));
    CHECK(p.rollback_fallback != info.name);
    // The fallback holds fewer or as many stages per rank and one parameter copy.
    CHECK(find_schedule_info(p.rollback_fallback)->layout.stages_per_rank == 1);
  }
}

TEST_CASE("the catalogue's fallback chains name catalogue schedules and end without a cycle") {
  const std::size_t n = list_schedules().size();
  for (const ScheduleInfo& info : list_schedules()) {
    INFO(info.name);
    std::string at = info.name;
    std::size_t steps = 0;
    while (!find_schedule_info(at)->fallback.empty() && steps <= n) {
      at = find_schedule_info(at)->fallback;
      REQUIRE(find_schedule_info(at) != nullptr);
      ++steps;
    }
    CHECK(steps < n);  // n steps or more would revisit a schedule
    // Every chain ends at plain 1F1B; GPipe's is empty (nothing is simpler).
    CHECK(at == (info.name == "gpipe" ? "gpipe" : "1f1b"));
  }
  // The catalogue JSON the page reads carries the same entries, null for none.
  const Json catalogue = catalogue_to_json();
  for (const Json& s : catalogue.at("schedules")) {
    const ScheduleInfo& info = *find_schedule_info(s.at("name").get<std::string>());
    if (info.fallback.empty())
      CHECK(s.at("fallback").is_null());
    else
      CHECK(s.at("fallback") == info.fallback);
  }
}

TEST_CASE("alternatives: schedules with no more copies that beat the plan at its P and M, as simulated") {
  // 200 dense GPUs: ZB-H1 at P = 8, M = 64, plain costs F=1 B=2 W=1.
  const Plan p = plan_of(dense(200, 30e9));
  REQUIRE(schedule_of(p) == "zb-h1");
  // 1F1B's peak is P micro-batches' activations on its first rank (one unit each per GPU).
  CHECK(*p.peak_activation_memory_1f1b == Approx(8));
  CHECK(*p.peak_activation_memory == Approx(simulated("zb-h1", 8, 64).max_peak_activation_memory));
  std::set<std::string> listed;
  for (const PlanAlternative& a : p.alternatives) {
    INFO(a.schedule);
    listed.insert(a.schedule);
    const SimResult r = simulated(a.schedule, 8, 64);
    CHECK(find_schedule_info(a.schedule)->layout.param_copies == 1);
    CHECK(a.bubble_fraction == Approx(r.bubble_fraction));
    CHECK(a.peak_activation_memory == Approx(r.max_peak_activation_memory));
    CHECK(a.bubble_fraction < *p.bubble_fraction);
    CHECK_FALSE(a.compute_utilization);
  }
  for (std::size_t i = 1; i < p.alternatives.size(); ++i)
    CHECK(p.alternatives[i - 1].bubble_fraction <= p.alternatives[i].bubble_fraction);
  // Every one-copy schedule that runs here and is not listed does no better.
  for (const ScheduleInfo& info : list_schedules()) {
    if (info.name == "zb-h1" || listed.count(info.name) || info.layout.param_copies > 1) continue;
    auto r = simulate(SimConfig{info.name, 8, 64, Costs{}});
    if (!r.ok()) continue;
    INFO(info.name);
    CHECK(r.value().bubble_fraction >= *p.bubble_fraction - 1e-12);
  }
  // At F = B-W = W, ZB-V has no bubble inside each rank's span (README) and holds 2P half-size
  // chunks, P units per GPU; ZB-H2's one-step bubble adds P - 1 at the edges, which is exactly
  // ZB-H1's (P-1)(F+B-2W), so it is not better and not listed.
  REQUIRE(listed.count("zb-v") == 1);
  for (const PlanAlternative& a : p.alternatives)
    if (a.schedule == "zb-v") CHECK(a.peak_activation_memory == Approx(8));
  CHECK(listed.count("zb-h2") == 0);
  CHECK(simulated("zb-h2", 8, 64).bubble_max == Approx(simulated("zb-h1", 8, 64).bubble_max));
  const Json j = plan_to_json(p);
  CHECK(j.at("alternatives").size() == p.alternatives.size());
  bool said = false;
  for (const PlanStep& s : p.reasoning) said = said || (s.topic == "alternatives" && s.text.find("ZB-V idles") != std::string::npos);
  CHECK(said);
  // A reject has no plan and so no alternatives.
  CHECK(plan_to_json(plan_of(requested(dense(2048, 70e9), {{"schedule", "dualpipe"}}))).at("alternatives").is_null());
}

TEST_CASE("with expert parallelism, alternatives are judged by compute utilisation with the all-to-all") {
  const Plan p = plan_of(deepseek());
  REQUIRE(schedule_of(p) == "dualpipe");
  REQUIRE(p.comm);
  for (const PlanAlternative& a : p.alternatives) {
    INFO(a.schedule);
    REQUIRE(a.compute_utilization);
    CHECK(*a.compute_utilization > p.comm->compute_utilization);
    CHECK(find_schedule_info(a.schedule)->layout.param_copies <= 2);
  }
}
