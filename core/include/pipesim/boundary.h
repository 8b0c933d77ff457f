// For the two boundaries over the core, the CLI and the WASM exports: each command or export
// runs its steps with unwrap(), and its one catch turns a Failure into the boundary's error
// shape (one stderr line, or an {ok:false, error} envelope). Core itself never throws for bad
// input; only boundary code includes this.
#pragma once

#include <utility>

#include "pipesim/error.h"

namespace pipesim {

/// A user-facing Error ending the current command or export.
struct Failure {
  Error error;
};

/// The value of `r`, or throws Failure with its error.
template <typename T>
T unwrap(Result<T> r) {
  if (!r.ok()) throw Failure{r.error()};
  return std::move(r).value();
}

}  // namespace pipesim
