// The CLI's output: buffered until the command succeeds, then written with checked write(2)
// calls to standard output or to an --output file (output.h).
#include "output.h"

#include <fcntl.h>
#include <sys/stat.h>
#include <unistd.h>

#include <cerrno>
#include <climits>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <iostream>
#include <sstream>
#include <vector>

#include "cli_errors.h"
#include "pipesim/boundary.h"

namespace pipesim::cli {
namespace {

// A stream buffer over a file descriptor that remembers the first failed write's errno. Writes
// are whole (write(2) may take part of a block, and is retried after EINTR).
class FdBuffer : public std::streambuf {
 public:
  void open(int fd) {
    fd_ = fd;
    block_.resize(1 << 16);
    setp(block_.data(), block_.data() + block_.size());
  }
  int error() const { return error_; }

 protected:
  int_type overflow(int_type ch) override {
    if (!drain()) return traits_type::eof();
    if (!traits_type::eq_int_type(ch, traits_type::eof())) {
      *pptr() = traits_type::to_char_type(ch);
      pbump(1);
    }
    return traits_type::not_eof(ch);
  }
  std::streamsize xsputn(const char* s, std::streamsize n) override {
    if (n < static_cast<std::streamsize>(epptr() - pptr())) {
      std::memcpy(pptr(), s, static_cast<std::size_t>(n));
      pbump(static_cast<int>(n));
      return n;
    }
    // Larger than what is left of the block: the block, then the text itself, unbuffered.
    if (!drain() || !write_all(s, static_cast<std::size_t>(n))) return 0;
    return n;
  }
  int sync() override { return drain() ? 0 : -1; }

 private:
  bool drain() {
    const bool ok = write_all(pbase(), static_cast<std::size_t>(pptr() - pbase()));
    setp(block_.data(), block_.data() + block_.size());
    return ok;
  }
  bool write_all(const char* data, std::size_t size) {
    if (error_ != 0) return false;
    while (size > 0) {
      const ssize_t n = ::write(fd_, data, size);
      if (n < 0 && errno == EINTR) continue;
      if (n <= 0) {
        error_ = n < 0 ? errno : EIO;
        return false;
      }
      data += n;
      size -= static_cast<std::size_t>(n);
    }
    return true;
  }

  int fd_ = -1;
  int error_ = 0;
  std::vector<char> block_;
};

struct OutputState {
  std::ostringstream buffered;
  std::streambuf* original = nullptr;  // std::cout's own buffer, put back when done
  FdBuffer sink;
  bool stdout_open = true;   // fd 1 was open when we started (a closed one is EBADF, not /dev/null)
  bool to_file = false;      // --output FILE given (not "-")
  std::string path;          // --output's FILE
  std::string destination;   // the file finally written (path with symbolic links resolved)
  std::string temporary;     // the file being written, renamed to destination once complete
  int fd = -1;
  bool committed = false;
  bool failed = false;
  Error failure;
};

// Never destroyed: std::cout may be flushed at exit, after static destructors would have run.
OutputState& state() {
  static OutputState* s = new OutputState();
  return *s;
}

// Records the failure and throws it: "cannot write standard output: No space left on device",
// "cannot write "out.json": Permission denied".
[[noreturn]] void fail(int error) {
  OutputState& s = state();
  if (!s.failed) {
    s.failed = true;
    s.failure = s.to_file ? cli_error(CliRule::OutputFileFailed, {{"file", s.path}, {"reason", std::strerror(error)}})
                          : cli_error(CliRule::OutputFailed, {{"reason", std::strerror(error)}});
  }
  throw Failure{s.failure};
}

// Opens --output: a regular file (or a new one) through a temporary beside it; anything else
// (a device such as /dev/null, a pipe) directly, since it cannot be renamed over.
int open_file(OutputState& s) {
  char resolved[PATH_MAX];
  s.destination = realpath(s.path.c_str(), resolved) != nullptr ? std::string(resolved) : s.path;
  struct stat info {};
  const bool exists = stat(s.destination.c_str(), &info) == 0;
  if (exists && !S_ISREG(info.st_mode)) return ::open(s.destination.c_str(), O_WRONLY | O_TRUNC | O_CLOEXEC);
  std::string name = s.destination + ".XXXXXX.partial";
  const int fd = mkstemps(name.data(), 8);
  if (fd < 0) return fd;
  s.temporary = name;
  // mkstemp makes 0600: give the file the mode of the one it replaces, or the one open(2) would.
  const mode_t mask = umask(0);
  umask(mask);
  if (fchmod(fd, exists ? (info.st_mode & 07777) : (0666 & ~mask)) != 0) {
    const int error = errno;
    ::close(fd);
    errno = error;
    return -1;
  }
  return fd;
}

void remove_temporary(OutputState& s) {
  if (!s.temporary.empty()) std::remove(s.temporary.c_str());
  s.temporary.clear();
}

}  // namespace

void begin_output() {
  OutputState& s = state();
  s.stdout_open = fcntl(STDOUT_FILENO, F_GETFD) != -1;
  s.original = std::cout.rdbuf(s.buffered.rdbuf());
}

void set_output_file(const std::string& path) {
  state().to_file = path != "-";
  state().path = path;
}

std::ostream& commit_output() {
  OutputState& s = state();
  if (s.committed) return std::cout;
  s.committed = true;
  if (!s.to_file) {
    if (!s.stdout_open) fail(EBADF);
    s.fd = STDOUT_FILENO;
  } else {
    s.fd = open_file(s);
    if (s.fd < 0) fail(errno);
  }
  s.sink.open(s.fd);
  std::cout.rdbuf(&s.sink);
  std::cout.exceptions(std::ios::badbit);  // the first failed write ends the command
  const std::string text = s.buffered.str();
  s.buffered.str(std::string());
  std::cout.write(text.data(), static_cast<std::streamsize>(text.size()));
  return std::cout;
}

void finish_output() {
  OutputState& s = state();
  try {
    commit_output();
    std::cout.flush();
  } catch (const std::ios_base::failure&) {
    fail(s.sink.error());
  } catch (const Failure&) {
    remove_temporary(s);
    throw;
  }
  std::cout.exceptions(std::ios::goodbit);
  std::cout.rdbuf(s.original);
  // close(2) reports what a file system could only tell then (NFS, quotas); standard output too.
  const int fd = s.fd;
  s.fd = -1;
  if (::close(fd) != 0 && errno != EINTR) {
    const int error = errno;
    remove_temporary(s);
    fail(error);
  }
  if (!s.temporary.empty() && std::rename(s.temporary.c_str(), s.destination.c_str()) != 0) {
    const int error = errno;
    remove_temporary(s);
    fail(error);
  }
  s.temporary.clear();
}

void abandon_output() {
  OutputState& s = state();
  std::cout.exceptions(std::ios::goodbit);
  std::cout.rdbuf(s.original);
  s.buffered.str(std::string());
  if (s.fd >= 0 && s.to_file) ::close(s.fd);  // an --output file's, never standard output
  s.fd = -1;
  remove_temporary(s);
}

const Error* output_failure() {
  OutputState& s = state();
  if (!s.failed && s.sink.error() != 0) {
    try {
      fail(s.sink.error());
    } catch (const Failure&) {
    }
  }
  return s.failed ? &s.failure : nullptr;
}

}  // namespace pipesim::cli
