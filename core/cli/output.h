// Where a command's output goes, and the check that all of it got there. A command writes to
// std::cout, which first points at a buffer, so a command that fails leaves nothing behind;
// commit_output() opens the destination (standard output, or the file of --output), writes the
// buffer there and lets the rest of the output stream straight to it (a 100 MB result need not
// be held twice). Every write, the final flush and the close are checked: the first failure ends
// the run as output_failed with the OS's reason ("No space left on device"). A regular --output
// file is written under a temporary name beside it and renamed over the destination only once
// complete and closed, so a failed run leaves no partial file and an existing file as it was.
#pragma once

#include <ostream>
#include <string>

#include "pipesim/error.h"

namespace pipesim::cli {

/// Points std::cout at the buffer; called once, first thing in main().
void begin_output();
/// Sends the output to `path` instead of standard output (--output; "-" is standard output).
void set_output_file(const std::string& path);
/// Opens the destination and writes what is buffered; from then on std::cout writes through to
/// it, and a failed write throws Failure{output_failed}. Idempotent.
std::ostream& commit_output();
/// commit_output(), then flushes and closes the destination (and renames a file into place).
/// Throws Failure{output_failed} if any of it fails, after removing the temporary file.
void finish_output();
/// After an error: drops what is buffered and removes a temporary file; nothing is renamed.
void abandon_output();
/// The error of the first failed write, if a write through std::cout failed (an ios failure
/// thrown by a command's `<<`), else nullptr.
const Error* output_failure();

}  // namespace pipesim::cli
