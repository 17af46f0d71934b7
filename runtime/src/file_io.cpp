//===- file_io.cpp - Reading and writing whole files safely ---------------===//

#include "file_io.h"

#include <fcntl.h>
#include <sys/stat.h>
#include <unistd.h>

#include <cerrno>
#include <cstdio>
#include <cstring>

namespace onnx_tosa {
namespace {

std::string errnoText(int e) { return std::strerror(e); }

/// Closes a descriptor on every path out.
struct Fd {
  int fd = -1;
  ~Fd() {
    if (fd >= 0)
      ::close(fd);
  }
};

const char *kindOf(mode_t mode) {
  if (S_ISDIR(mode))
    return "a directory";
  if (S_ISFIFO(mode))
    return "a FIFO";
  if (S_ISCHR(mode) || S_ISBLK(mode))
    return "a device";
  if (S_ISSOCK(mode))
    return "a socket";
  return "not a regular file";
}

} // namespace

bool readRegularFile(const std::string &path, const std::string &what,
                     std::vector<uint8_t> &out, std::string &error,
                     uint64_t limit, bool prefixOnly) {
  // O_NONBLOCK: opening a FIFO for reading would otherwise wait for a
  // writer; it changes nothing for a regular file.
  Fd f;
  f.fd = ::open(path.c_str(), O_RDONLY | O_NONBLOCK | O_CLOEXEC);
  if (f.fd < 0) {
    error = "cannot open " + what + " '" + path + "': " + errnoText(errno);
    return false;
  }
  struct stat st;
  if (::fstat(f.fd, &st) != 0) {
    error = "cannot read " + what + " '" + path + "': " + errnoText(errno);
    return false;
  }
  if (!S_ISREG(st.st_mode)) {
    error = what + " '" + path + "' is " + kindOf(st.st_mode) +
            ", not a regular file";
    return false;
  }
  uint64_t size = static_cast<uint64_t>(st.st_size);
  if (size > limit) {
    if (!prefixOnly) {
      error = what + " '" + path + "' is " + std::to_string(size) +
              " bytes, more than the " + std::to_string(limit) + " allowed";
      return false;
    }
    size = limit;
  }
  out.resize(size);
  uint64_t done = 0;
  while (done < size) {
    ssize_t n = ::read(f.fd, out.data() + done, size - done);
    if (n < 0 && errno == EINTR)
      continue;
    if (n < 0) {
      error = "cannot read " + what + " '" + path + "': " + errnoText(errno);
      return false;
    }
    if (n == 0)
      break;
    done += static_cast<uint64_t>(n);
  }
  if (done != size && !prefixOnly) {
    error = what + " '" + path + "' changed while it was read (" +
            std::to_string(done) + " of " + std::to_string(size) + " bytes)";
    return false;
  }
  out.resize(done);
  return true;
}

bool writeFileAtomically(const std::string &path, const void *data,
                         size_t size, std::string &error) {
  std::string tmp = path + ".XXXXXX";
  Fd f;
  f.fd = ::mkstemp(tmp.data());
  if (f.fd < 0) {
    error = "cannot write '" + path + "': " + errnoText(errno);
    return false;
  }
  auto fail = [&](int e) {
    ::unlink(tmp.c_str());
    error = "cannot write '" + path + "': " + errnoText(e);
    return false;
  };
  // mkstemp's 0600, widened as umask allows, as a new file would be.
  mode_t mask = ::umask(0);
  ::umask(mask);
  if (::fchmod(f.fd, 0666 & ~mask) != 0)
    return fail(errno);
  const auto *bytes = static_cast<const uint8_t *>(data);
  for (size_t done = 0; done < size;) {
    ssize_t n = ::write(f.fd, bytes + done, size - done);
    if (n < 0 && errno == EINTR)
      continue;
    if (n < 0)
      return fail(errno);
    done += static_cast<size_t>(n);
  }
  int fd = f.fd;
  f.fd = -1;
  if (::close(fd) != 0)
    return fail(errno);
  if (::rename(tmp.c_str(), path.c_str()) != 0)
    return fail(errno);
  return true;
}

} // namespace onnx_tosa
