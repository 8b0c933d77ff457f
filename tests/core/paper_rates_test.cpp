// The Zero Bubble paper's own numbers (lessons/papers/zero-bubble-bubble-rates.json: its Table 9
// per-op times and Table 5 bubble rates) against our schedules run at those times. The paper's
// bubble rate is (cost - m(T_F+T_B+T_W)) / cost with cost the longest time any stage takes from
// its first op to its last (§5.3), with T_comm on every hop between stages: our p2p latency.
#include <algorithm>
#include <cmath>
#include <fstream>
#include <sstream>
#include <string>

#include <catch2/catch.hpp>

#include "invariants.h"
#include "pipesim/json.h"

using namespace pipesim;
using pipesim::testing::simulate_checked;

namespace {

Json paper_table() {
  std::ifstream in(std::string(PIPESIM_GOLDEN_DIR) + "/../../lessons/papers/zero-bubble-bubble-rates.json");
  std::ostringstream ss;
  ss << in.rdbuf();
  return Json::parse(ss.str());
}

double paper_bubble_rate(const SimResult& r, double work_per_rank) {
  double cost = 0;
  for (const auto& ops : r.timeline) cost = std::max(cost, ops.back().end - ops.front().start);
  return (cost - work_per_rank) / cost;
}

}  // namespace

TEST_CASE("1F1B, ZB-H1 and ZB-H2 at the Zero Bubble paper's profiled times give its Table 5 rates") {
  const Json table = paper_table();
  REQUIRE(table.at("rows").size() == 12);
  for (const Json& row : table.at("rows")) {
    const int p = row.at("stages"), m = row.at("microbatches");
    const double tf = row.at("tF"), tb = row.at("tB"), tw = row.at("tW"), comm = row.at("tComm");
    // Our B is the whole backward; the paper's T_B is its input-gradient part.
    const Costs costs{tf, tb + tw, tw, tf + tb + tw, comm};
    for (const char* name : {"1f1b", "zb-h1", "zb-h2"}) {
      const double published = row.at("published").at(name);
      const double ours = paper_bubble_rate(simulate_checked({name, p, m, costs}), m * (tf + tb + tw));
      INFO(row.at("model").get<std::string>() << " p=" << p << " m=" << m << " " << name << ": ours "
                                              << ours << ", published " << published);
      CHECK(std::fabs(ours - published) <= 0.00005 + 1e-12);  // the table prints 4 decimals
    }
  }
}

// The paper's 1F1B-I makes every layer a chunk, and its first and last stages hold one layer fewer
// (§5.1: 22 layers on 8 stages are 2, 3, ..., 3, 2), a layout our equal chunks cannot express. We
// take V = the middle stages' layers = (layers + 2) / p, each chunk 1/V of a stage's profiled time.
// The rate then comes out 0.001 to 0.004 above the published one; the paper does not say how its
// 1F1B-I figure treats the uneven stages, so this bound documents the gap rather than explains it.
TEST_CASE("interleaved 1F1B at the paper's times lands just above its Table 5 rate (equal chunks)") {
  const Json table = paper_table();
  for (const Json& row : table.at("rows")) {
    const int p = row.at("stages"), m = row.at("microbatches"), layers = row.at("layers");
    const int v = (layers + 2) / p;
    REQUIRE(v * p - 2 == layers);
    const double tf = row.at("tF"), tb = row.at("tB"), tw = row.at("tW"), comm = row.at("tComm");
    SimConfig config{"interleaved-1f1b", p, m, Costs{tf / v, (tb + tw) / v, tw / v, 1, comm}};
    config.chunks = v;
    const double published = row.at("published").at("interleaved-1f1b");
    const double ours = paper_bubble_rate(simulate_checked(config), m * (tf + tb + tw));
    INFO(row.at("model").get<std::string>() << " m=" << m << " V=" << v << ": ours " << ours
                                            << ", published " << published);
    CHECK(ours >= published);
    CHECK(ours - published < 0.004);
  }
}
