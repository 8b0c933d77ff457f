// Private: a model named in a request ("model" and, for "custom", its "custom" object) and a
// model as JSON. `pipesim params` and the memory model read and write models the same way.
#pragma once

#include "fields.h"
#include "pipesim/json.h"
#include "pipesim/model.h"

namespace pipesim::detail {

/// The request's "model" (a preset name or "custom") and, for "custom", its "custom" object,
/// validated. Errors: invalid_config at /model or /custom/<field>.
Result<ModelConfig> read_model(const FieldReader& request);

/// {"name","label","source","layers","hidden","vocab",...} as `pipesim params` prints it.
Json model_to_json(const ModelConfig& model);

}  // namespace pipesim::detail
