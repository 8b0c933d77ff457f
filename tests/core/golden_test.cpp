// Golden files: tests/golden/<case>.json holds {"config": ..., "result": ...}; the result must be
// reproduced byte for byte. Regenerate only deliberately, with `make goldens`, and review the diff.

#include <catch2/catch.hpp>

#include "invariants.h"
#include "pipesim/json.h"

using namespace pipesim;
using pipesim::testing::read_text_file;

namespace {
const char* const kCases[] = {"dualpipe-8x20", "dualpipe-8x20-fb2.4", "dualpipev-4x10", "1f1b-4x8",
                              "zb-h1-4x8", "gpipe-4x4-latency", "interleaved-1f1b-4x8-v2",
                              "zb-h2-4x8", "zb-v-4x8"};

}  // namespace

TEST_CASE("golden simulations reproduce byte for byte") {
  for (const char* name : kCases) {
    INFO(name);
    const std::string text = read_text_file(std::string(PIPESIM_GOLDEN_DIR) + "/" + name + ".json");
    REQUIRE_FALSE(text.empty());
    const Json golden = Json::parse(text);
    auto config = config_from_json(golden.at("config"));
    REQUIRE(config.ok());
    auto result = simulate(config.value());
    REQUIRE(result.ok());
    CHECK(result_to_json(result.value()).dump() == golden.at("result").dump());
  }
}
