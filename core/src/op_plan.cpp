// OpPlan's setup and its conversion back to a Schedule: once per plan, so out of line (inlined,
// they were copied into every generator of the wasm module).
#include "op_plan.h"

#include <utility>

namespace pipesim::detail {

void OpPlan::begin(Schedule shape, std::size_t max_ops) {
  shape_ = std::move(shape);
  shape_.rank_ops.clear();
  index_ = ChunkIndex(shape_);
  // Keys below 2^31 and at most two directions (ChunkIndex::chunk): a runnable schedule has
  // at least one op per chunk, so this fails only for lists far beyond kMaxOps.
  PIPESIM_CHECK(index_.size() < (std::size_t{1} << 31) && shape_.directions <= 2,
                "chunk keys must fit in 31 bits");
  // Room for the bound, allocated only when a plan needs more than any before it and left
  // uninitialised (std::make_unique would zero it): pages no op reaches are never touched.
  if (max_ops > capacity_) {
    ops_.reset(new PlanOp[max_ops]);
    capacity_ = max_ops;
  }
  next_ = ops_.get();
  limit_ = next_ + max_ops;
  rank_begin_.clear();
}

Schedule OpPlan::schedule() const {
  Schedule s = shape_;
  s.rank_ops.resize(static_cast<std::size_t>(s.ranks));
  for (int r = 0; r < s.ranks; ++r) {
    std::vector<Op>& ops = s.rank_ops[static_cast<std::size_t>(r)];
    ops.reserve(static_cast<std::size_t>(end(r) - begin(r)));
    for (const PlanOp* p = begin(r); p != end(r); ++p) ops.push_back(plan_op_to_op(*p, index_));
  }
  return s;
}

}  // namespace pipesim::detail
