// The CLI's rule table (cli_errors.h).
#include "cli_errors.h"

#include "pipesim/rules.h"

namespace pipesim::cli {

Error cli_error(CliRule rule, ErrorParams params, std::string path) {
  struct Row {
    const char* id;
    ErrorCode code;
    const char* text;
  };
  static const Row kRows[] = {
#define PIPESIM_CLI_RULE_ROW(name, id, code, text) {id, ErrorCode::code, text},
      PIPESIM_CLI_RULES(PIPESIM_CLI_RULE_ROW)
#undef PIPESIM_CLI_RULE_ROW
  };
  const Row& row = kRows[static_cast<int>(rule)];
  // Every string these rules quote came from the command line (a command, a flag, a value, a
  // file name): quoted as a summary, like any value the user gives.
  for (ErrorParam& p : params)
    if (auto* text = std::get_if<std::string>(&p.value)) *text = summary(*text);
  return Error::from_template(row.code, row.id, row.text, std::move(path), std::move(params));
}

}  // namespace pipesim::cli
