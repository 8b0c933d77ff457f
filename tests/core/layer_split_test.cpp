// The layer split (pipesim/layer_split.h): DeepSeek-V3's preset, the published and balanced
// splits, stage costs that average the given costs, and the request's checks.
#include <numeric>
#include <vector>

#include <catch2/catch.hpp>

#include "invariants.h"
#include "pipesim/layer_split.h"

using namespace pipesim;
using pipesim::testing::simulate_checked;

namespace {

LayerSplit split_of(const char* json) {
  auto s = layer_split_request(Json::parse(json));
  INFO(json);
  REQUIRE(s.ok());
  return s.value();
}

std::vector<int> layers_of(const LayerSplit& s) {
  std::vector<int> out;
  for (const SplitStage& st : s.stages) out.push_back(st.layers);
  return out;
}

}  // namespace

// The module costs from DeepSeek-V3's configuration (inference/configs/config_671B.json), as
// matmul weights per token, by hand: MLA attention 187,107,328 weights (wq_a 7168 x 1536 +
// q_norm 1536 + wq_b 1536 x 128 x 192 + wkv_a 7168 x 576 + kv_norm 512 + wkv_b 512 x 128 x 256 +
// wo 128 x 128 x 7168) plus 9 experts' FFNs of 3 x 7168 x 2048 = 396,361,728: a layer is
// 583,469,056. The head is 129280 x 7168 = 926,679,040 = 1.5882 layers; MTP is a layer, its
// 2 x 7168 x 7168 projection and the head again: 1,612,912,640 = 2.7643 layers.
TEST_CASE("DeepSeek-V3's module costs in layers come from its configuration") {
  const LayerModel m = layer_model_preset("deepseek-v3").value();
  CHECK(m.layers == 61);
  CHECK(m.embedding == 0);
  CHECK(m.head == Approx(926679040.0 / 583469056.0));
  CHECK(m.mtp == Approx((583469056.0 + 2.0 * 7168 * 7168 + 926679040.0) / 583469056.0));
  CHECK(m.head == Approx(1.5882).margin(1e-4));
  CHECK(m.mtp == Approx(2.7643).margin(1e-4));
}

// NVIDIA's layout "Et|(tt|)*30mL" joined two pieces a stage: (E t)(t t) = E + 3 layers, 14
// stages of 4, (t t)(m L) = 2 layers + MTP + head.
TEST_CASE("DeepSeek-V3 on 16 stages: NVIDIA's published layout joined in pairs") {
  const LayerSplit s = split_of(R"({"model":"deepseek-v3","stages":16})");
  CHECK(s.rule == "published");
  std::vector<int> expected(16, 4);
  expected.front() = 3;
  expected.back() = 2;
  CHECK(layers_of(s) == expected);
  CHECK(s.stages.front().first_layer == 0);
  CHECK(s.stages.back().first_layer == 59);
  CHECK(s.stages.back().head);
  CHECK(s.stages.back().mtp);
  const LayerModel& m = s.request.model;
  CHECK(s.stages.back().weight == Approx(2 + m.head + m.mtp));
  CHECK(s.mean_weight == Approx((61 + m.head + m.mtp) / 16));
  // The stages average the given costs: same total work as 16 equal stages.
  double forward = 0, backward = 0;
  for (const SplitStage& st : s.stages) {
    forward += st.cost.forward;
    backward += st.cost.backward;
  }
  CHECK(forward / 16 == Approx(1).margin(16e-6));
  CHECK(backward / 16 == Approx(2).margin(16e-6));
  CHECK(s.stages[1].cost.forward == Approx(4 / s.mean_weight).margin(1e-6));
  // 8 stages join four pieces each: E + 7, 6 x 8, 6 + MTP + head.
  CHECK(layers_of(split_of(R"({"model":"deepseek-v3","stages":8})")) ==
        std::vector<int>{7, 8, 8, 8, 8, 8, 8, 6});
}

// Balanced: each layer to the lightest stage. At 12 stages the last starts at 1.59 + 2.76 = 4.35
// and the others at 0; after 5 rounds of 11 layers (55) the first eleven weigh 5, the last 4.35,
// so the next goes to the last (5.35) and the remaining 5 to stages 0..4: 6,6,6,6,6,5,...,5,1.
TEST_CASE("a stage count the published layout does not divide gets the balanced split") {
  const LayerSplit s = split_of(R"({"model":"deepseek-v3","stages":12})");
  CHECK(s.rule == "balanced");
  CHECK(layers_of(s) == std::vector<int>{6, 6, 6, 6, 6, 5, 5, 5, 5, 5, 5, 1});
  const std::vector<int> layers = layers_of(s);
  const int total = std::accumulate(layers.begin(), layers.end(), 0);
  CHECK(total == 61);
}

TEST_CASE("a custom model and a given split") {
  // 10 layers, head 1 and MTP 1 on 3 stages: weights 4, 4, 2 + 2 = 4: all equal, so every stage
  // costs exactly the given costs.
  const LayerSplit s = split_of(
      R"({"model":"custom","custom":{"layers":10,"head":1,"mtp":1},"stages":3,"layersPerStage":[4,4,2],
          "costs":{"forward":1.5,"backward":3,"weight":1,"overlapped":4}})");
  CHECK(s.rule == "given");
  for (const SplitStage& st : s.stages) {
    CHECK(st.weight == Approx(4));
    CHECK(st.cost.forward == Approx(1.5));
    CHECK(st.cost.overlapped == Approx(4));
  }
}

TEST_CASE("layer split requests are checked with exact messages and paths") {
  auto e = layer_split_request(Json::parse(R"({"model":"deepseek-v3","stages":4,"layersPerStage":[20,20,20]})"));
  CHECK(e.error().message == "layersPerStage must have one entry per stage: 4 (got 3)");
  CHECK(e.error().path == "/layersPerStage");
  e = layer_split_request(Json::parse(R"({"model":"deepseek-v3","stages":3,"layersPerStage":[20,20,20]})"));
  CHECK(e.error().message == "layersPerStage must add up to the model's 61 layers (got 60)");
  e = layer_split_request(Json::parse(R"({"model":"custom","custom":{"layers":2},"stages":3})"));
  CHECK(e.error().rule == "layer_split.empty_stage");
  CHECK(e.error().message ==
        "stage 2 would hold no layer and no module; a stage must have work (layers = 2, stages = 3)");
  e = layer_split_request(Json::parse(R"({"model":"gpt","stages":3})"));
  CHECK(e.error().message == "model must be one of deepseek-v3, custom (got \"gpt\")");
  e = layer_split_request(Json::parse(R"({"model":"custom","custom":{"layers":4,"head":-1},"stages":2})"));
  CHECK(e.error().path == "/custom/head");
}

// The preset on DualPipe at DeepSeek's shape: the same total work as equal stages, but the last
// stage (2 layers + head + MTP, 1.56 x the mean) paces the pipeline, so the step takes longer.
TEST_CASE("DeepSeek-V3's split slows DualPipe at 16 ranks against equal stages") {
  const LayerSplit s = split_of(R"({"model":"deepseek-v3","stages":16})");
  Costs costs;
  for (const SplitStage& st : s.stages) costs.stages.push_back(st.cost);
  const SimResult uneven = simulate_checked({"dualpipe", 16, 32, costs});
  const SimResult equal = simulate_checked({"dualpipe", 16, 32, {}});
  CHECK(uneven.makespan > equal.makespan);
}
