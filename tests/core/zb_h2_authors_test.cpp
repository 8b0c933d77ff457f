// ZB-H2 against the Zero Bubble authors' own construction. Their efficiency script
// (sail-sg/zero-bubble-pipeline-parallelism, branch arxiv, commit f68d387,
// megatron/core/pipeline_parallel/efficiency.py, get_hand_schedule(p, n, f, b, w, c, warmup_c=2))
// is what computes the paper's ZB-H2 bubble rates. This file ports it, written afresh in C++:
// its op lists (a code per slot: F, B or W) and its timing recurrence (columns of the lists in
// order, ranks 0..p-1 within a column, every dependency already timed, T_comm added on each hop,
// the cost being the longest span from a rank's first forward to its last op). Our generator must
// produce the same lists, and the engine the same times.
#include <algorithm>
#include <string>
#include <vector>

#include <catch2/catch.hpp>

#include "invariants.h"

using namespace pipesim;
using pipesim::testing::rank_op_labels;
using pipesim::testing::simulate_checked;

namespace {

enum class Code { F, B, W };

// The script's stage lists: rank r runs 2(p-1-r) forwards, then for each i < n the forward
// warmup + i while there is one, B_i, and a W once warmup + i >= 2(p-1); then the W's owed.
std::vector<std::vector<Code>> authors_lists(int p, int n) {
  std::vector<std::vector<Code>> stage(static_cast<std::size_t>(p));
  for (int rank = 0; rank < p; ++rank) {
    auto& list = stage[static_cast<std::size_t>(rank)];
    const int warmup = (p - rank - 1) * 2;
    for (int k = 0; k < warmup; ++k) list.push_back(Code::F);
    for (int i = 0; i < n; ++i) {
      if (warmup + i < n) list.push_back(Code::F);
      list.push_back(Code::B);
      if (warmup + i >= (p - 1) * 2) list.push_back(Code::W);
    }
    for (int k = 0; k < (p - 1) * 2 - warmup; ++k) list.push_back(Code::W);
  }
  return stage;
}

// The lists as our labels: each rank numbers its F's, B's and W's in order, as the script does
// (fc, bc, and i - fc - bc for W).
std::vector<std::string> authors_labels(int p, int n, int rank) {
  std::vector<std::string> out;
  int f = 0, b = 0, w = 0;
  const std::string at = "@" + std::to_string(rank);
  const auto lists = authors_lists(p, n);
  for (Code c : lists[static_cast<std::size_t>(rank)]) {
    if (c == Code::F) out.push_back("F0." + std::to_string(f++) + at);
    if (c == Code::B) out.push_back("Bz0." + std::to_string(b++) + at);
    if (c == Code::W) out.push_back("W0." + std::to_string(w++) + at);
  }
  return out;
}

// The script's timing: tf, tb (input gradient only), tw, comm. Returns its cost, the longest
// span from a rank's first forward's start to its last op's end, or -1 if a dependency was not
// yet timed when its column came (the script asserts there).
double authors_cost(int p, int n, double tf, double tb, double tw, double comm) {
  const auto lists = authors_lists(p, n);
  auto id = [&](int kind, int rank, int mb) { return (kind * p + rank) * n + mb; };
  std::vector<double> t(static_cast<std::size_t>(3 * p * n), -1);  // end times
  std::vector<double> e(static_cast<std::size_t>(p), 0);           // when each rank is free
  std::vector<int> fc(static_cast<std::size_t>(p), 0), bc(static_cast<std::size_t>(p), 0);
  for (int i = 0; i < 3 * n; ++i)
    for (int rank = 0; rank < p; ++rank) {
      const auto rz = static_cast<std::size_t>(rank);
      const Code c = lists[rz][static_cast<std::size_t>(i)];
      double end = 0;
      if (c == Code::F) {
        end = e[rz] + tf;
        if (rank > 0) {
          const double dep = t[static_cast<std::size_t>(id(0, rank - 1, fc[rz]))];
          if (dep <= 0) return -1;
          end = std::max(end, dep + comm + tf);
        }
        t[static_cast<std::size_t>(id(0, rank, fc[rz]++))] = end;
      } else if (c == Code::B) {
        end = e[rz] + tb;
        if (rank < p - 1) {
          const double dep = t[static_cast<std::size_t>(id(1, rank + 1, bc[rz]))];
          if (dep <= 0) return -1;
          end = std::max(end, dep + comm + tb);
        }
        t[static_cast<std::size_t>(id(1, rank, bc[rz]++))] = end;
      } else {
        end = e[rz] + tw;
        t[static_cast<std::size_t>(id(2, rank, i - fc[rz] - bc[rz]))] = end;
      }
      e[rz] = end;
    }
  double cost = 0;
  for (int rank = 0; rank < p; ++rank)
    cost = std::max(cost, e[static_cast<std::size_t>(rank)] - t[static_cast<std::size_t>(id(0, rank, 0))] + tf);
  return cost;
}

double our_span_cost(const SimResult& r) {
  double cost = 0;
  for (const auto& ops : r.timeline) cost = std::max(cost, ops.back().end - ops.front().start);
  return cost;
}

}  // namespace

TEST_CASE("ZB-H2's op lists are the Zero Bubble authors' (efficiency.py get_hand_schedule)") {
  int compared = 0;
  for (int p = 1; p <= 9; ++p)
    for (int n : {2 * p, 2 * p + 1, 3 * p, 5 * p + 2, 8 * p}) {
      for (int rank = 0; rank < p; ++rank) {
        INFO("p=" << p << " n=" << n << " rank " << rank);
        CHECK(rank_op_labels({"zb-h2", p, n, {}}, rank) == authors_labels(p, n, rank));
        ++compared;
      }
    }
  CHECK(compared == 5 * 45);
  // Below the script's n >= 2p our rule still applies while the warm-up is whole (n >= 2p-2):
  // the same lists.
  for (int p = 2; p <= 6; ++p)
    for (int n : {2 * p - 2, 2 * p - 1})
      for (int rank = 0; rank < p; ++rank) {
        INFO("p=" << p << " n=" << n << " rank " << rank);
        CHECK(rank_op_labels({"zb-h2", p, n, {}}, rank) == authors_labels(p, n, rank));
      }
}

// Worked by hand (F = 1, input-gradient B = 2.5 - 0.5 = 2, W = 0.5, 0.5 per hop), the authors'
// lists are rank 0: F0 F1 F2 B0 W0 F3 B1 W1 B2 W2 B3 W3 and rank 1: F0 B0 F1 B1 F2 B2 W0 F3 B3 W1
// W2 W3. Rank 1's B's end at 4.5, 7.5, 10.5 and 14 (its F3 waits for rank 0's F3, which ends at
// 8.5, until it is free at 11); rank 0's B_i starts 0.5 after rank 1's B_i ends (5, 8, 11, 14.5),
// so its last W ends at 14.5 + 2 + 0.5 = 17. The order we built before in unit slots (rank 0:
// F0 F1 F2 B0 W0 B1 F3 B2 W1 W2 B3 W3; rank 1 the same as theirs) ended at 17.5.
TEST_CASE("ZB-H2 at P = 2, M = 4 with p2p latency takes the authors' 17, not 17.5") {
  const SimResult r = simulate_checked({"zb-h2", 2, 4, Costs{1, 2.5, 0.5, 3, 0.5}});
  CHECK(r.makespan == Approx(17.0));
  CHECK(authors_cost(2, 4, 1, 2, 0.5, 0.5) == Approx(17.0));
}

TEST_CASE("ZB-H2's times equal the authors' timing recurrence at any costs and latency") {
  const double costs[][4] = {{1, 1, 1, 0},       {1, 2, 0.5, 0.5},    {1.3, 0.7, 0.9, 0.2},
                             {0.4, 2.5, 0.1, 1}, {2, 1, 1.5, 0.25},   {18.5, 18.1, 9.3, 0.6}};
  for (const auto& c : costs)
    for (int p : {1, 2, 3, 4, 8})
      for (int n : {2 * p, 3 * p + 1, 6 * p}) {
        const double tf = c[0], tb = c[1], tw = c[2], comm = c[3];
        INFO("p=" << p << " n=" << n << " F=" << tf << " B-W=" << tb << " W=" << tw << " c=" << comm);
        const double theirs = authors_cost(p, n, tf, tb, tw, comm);
        REQUIRE(theirs > 0);
        const SimResult r = simulate_checked({"zb-h2", p, n, Costs{tf, tb + tw, tw, 3, comm}});
        CHECK(our_span_cost(r) == Approx(theirs).epsilon(1e-12));
      }
}
