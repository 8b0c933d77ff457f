// The envelope every Embind export of pipesim returns, shared by the two binding files
// (bindings.cpp, the entry points of every build; bindings_full.cpp, those only the full build
// has): {ok: true, result} or {ok: false, error}, and never a C++ exception crossing into JS (it
// would arrive as a bare number). `error` is the JSON text of {code, message, path, rule, params}
// (pipesim/rules.h); `result` a JSON string in the CLI's schema (docs/schema.md), or text.
// wasm/pipesim.js parses it and turns errors into thrown SimErrors.
#pragma once

#include <emscripten/val.h>

#include <exception>
#include <string>

#include "pipesim/boundary.h"
#include "pipesim/error.h"
#include "pipesim/json.h"
#include "pipesim/rules.h"

namespace pipesim::wasm {

/// `text` as a JS string, decoded by TextDecoder straight from the module's memory. Embind's own
/// std::string conversion copies the text once more and first visits every byte in JS: for the
/// 5 MB of a 74k-op simulateJson that was most of the call.
inline emscripten::val js_string(const std::string& text) {
  static const emscripten::val decoder = emscripten::val::global("TextDecoder").new_();
  const auto* bytes = reinterpret_cast<const unsigned char*>(text.data());
  return decoder.call<emscripten::val>("decode", emscripten::val(emscripten::typed_memory_view(text.size(), bytes)));
}

/// {ok: false, error}: the error as JSON text (error_to_json: code, message, path, rule, params),
/// parsed by pipesim.js like every result.
inline emscripten::val error_envelope(const Error& error) {
  emscripten::val out = emscripten::val::object();
  out.set("ok", false);
  // Messages and params are valid UTF-8 by construction (summary()); replace, not throw, if not.
  out.set("error", js_string(error_to_json(error).dump(-1, ' ', false, Json::error_handler_t::replace)));
  return out;
}

/// {ok: true, result}: `result_json` is the result's JSON text (or the result's text itself).
inline emscripten::val ok_envelope(const std::string& result_json) {
  emscripten::val out = emscripten::val::object();
  out.set("ok", true);
  out.set("result", js_string(result_json));
  return out;
}

/// Runs `body` (which returns the envelope) and maps every escaping exception to one envelope.
template <typename F>
emscripten::val guarded(F&& body) {
  try {
    return body();
  } catch (const Failure& f) {
    return error_envelope(f.error);
  } catch (const InternalError& e) {
    return error_envelope(make_error(Rule::Internal, "", {{"detail", e.what()}}));
  } catch (const std::exception& e) {
    return error_envelope(make_error(Rule::Internal, "", {{"detail", std::string("internal error: ") + e.what()}}));
  } catch (...) {
    return error_envelope(make_error(Rule::Internal, "", {{"detail", "internal error: unknown exception"}}));
  }
}

}  // namespace pipesim::wasm
