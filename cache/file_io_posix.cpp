// file_io.h on Linux (and other POSIX systems).

#include "cache/file_io.h"

#include <cerrno>
#include <cstdlib>
#include <cstring>
#include <fcntl.h>
#include <signal.h>
#include <sys/file.h>
#include <sys/mman.h>
#include <sys/stat.h>
#include <unistd.h>

namespace kiln::cache {

void FileDescriptor::reset() {
  if (fd_ >= 0) ::close(fd_);
  fd_ = -1;
}

FileDescriptor open_file_descriptor(const std::string& path, OpenMode mode) {
  int flags = O_CLOEXEC;
  switch (mode) {
  case OpenMode::Read:
    flags |= O_RDONLY;
    break;
  case OpenMode::Append:
    flags |= O_RDWR | O_CREAT | O_APPEND;
    break;
  case OpenMode::Truncate:
    flags |= O_RDWR | O_CREAT | O_TRUNC | O_APPEND;
    break;
  }
  return FileDescriptor(::open(path.c_str(), flags, 0644));
}

bool FileLock::lock(int fd, Mode mode, bool wait) {
  unlock();
  const int operation = (mode == Mode::Shared ? LOCK_SH : LOCK_EX) | (wait ? 0 : LOCK_NB);
  int rc;
  do rc = ::flock(fd, operation);
  while (rc != 0 && errno == EINTR);
  if (rc == 0) fd_ = fd;
  return rc == 0;
}

void FileLock::unlock() {
  if (fd_ >= 0) ::flock(fd_, LOCK_UN);
  fd_ = -1;
}

int Mapping::map(int fd, std::uint64_t size) {
  reset();
  if (size == 0) return 0;
  void* address = ::mmap(nullptr, size, PROT_READ, MAP_SHARED, fd, 0);
  if (address == MAP_FAILED) return errno;
  data_ = static_cast<const std::uint8_t*>(address);
  size_ = size;
  return 0;
}

void Mapping::reset() {
  if (data_) ::munmap(const_cast<std::uint8_t*>(data_), size_);
  data_ = nullptr;
  size_ = 0;
}

int identity_of_fd(int fd, FileIdentity& out, std::uint64_t* size) {
  struct stat info;
  if (::fstat(fd, &info) != 0) return errno;
  out = {std::uint64_t(info.st_dev), std::uint64_t(info.st_ino)};
  if (size) *size = std::uint64_t(info.st_size);
  return 0;
}

int identity_of_path(const std::string& path, FileIdentity& out) {
  struct stat info;
  if (::stat(path.c_str(), &info) != 0) return errno;
  out = {std::uint64_t(info.st_dev), std::uint64_t(info.st_ino)};
  return 0;
}

int read_at(int fd, std::uint64_t offset, std::span<std::uint8_t> bytes) {
  std::size_t done = 0;
  while (done < bytes.size()) {
    const ssize_t n = ::pread(fd, bytes.data() + done, bytes.size() - done, off_t(offset + done));
    if (n < 0 && errno == EINTR) continue;
    if (n < 0) return errno;
    if (n == 0) return EIO;
    done += std::size_t(n);
  }
  return 0;
}

int write_all(int fd, std::span<const std::uint8_t> bytes) {
  std::size_t done = 0;
  while (done < bytes.size()) {
    const ssize_t n = ::write(fd, bytes.data() + done, bytes.size() - done);
    if (n < 0 && errno == EINTR) continue;
    if (n < 0) return errno;
    if (n == 0) return ENOSPC;
    done += std::size_t(n);
  }
  return 0;
}

int truncate_file(int fd, std::uint64_t size) {
  return ::ftruncate(fd, off_t(size)) == 0 ? 0 : errno;
}

int sync_file(int fd) {
  return ::fsync(fd) == 0 ? 0 : errno;
}

int replace_file(const std::string& from, const std::string& to) {
  return ::rename(from.c_str(), to.c_str()) == 0 ? 0 : errno;
}

int remove_file(const std::string& path) {
  return ::unlink(path.c_str()) == 0 ? 0 : errno;
}

int sync_directory(const std::string& directory) {
  FileDescriptor fd(::open(directory.c_str(), O_RDONLY | O_DIRECTORY | O_CLOEXEC));
  if (!fd.valid()) return errno;
  return ::fsync(fd.get()) == 0 ? 0 : errno;
}

std::string errno_text(int error) {
  char buffer[256];
  return std::string(strerror_r(error, buffer, sizeof buffer));
}

std::uint64_t current_process_id() {
  return std::uint64_t(::getpid());
}

bool process_is_gone(std::uint64_t pid) {
  return pid > 0 && ::kill(pid_t(pid), 0) != 0 && errno == ESRCH;
}

std::filesystem::path user_cache_base() {
  if (const char* xdg = std::getenv("XDG_CACHE_HOME"); xdg && *xdg) return xdg;
  if (const char* home = std::getenv("HOME"); home && *home)
    return std::filesystem::path(home) / ".cache";
  return {};
}

} // namespace kiln::cache
