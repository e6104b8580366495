#pragma once
// Thin RAII wrappers over the POSIX calls the cache needs: a file descriptor, a flock() held
// for a scope, and a read-only mapping. Errors come back as errno values, never exceptions.

#include <cstdint>
#include <span>
#include <string>
#include <sys/types.h>
#include <utility>

namespace kiln::cache {

class FileDescriptor {
 public:
  FileDescriptor() = default;
  explicit FileDescriptor(int fd) : fd_(fd) {}
  ~FileDescriptor() { reset(); }
  FileDescriptor(FileDescriptor&& other) noexcept : fd_(std::exchange(other.fd_, -1)) {}
  FileDescriptor& operator=(FileDescriptor&& other) noexcept {
    if (this != &other) {
      reset();
      fd_ = std::exchange(other.fd_, -1);
    }
    return *this;
  }
  FileDescriptor(const FileDescriptor&) = delete;
  FileDescriptor& operator=(const FileDescriptor&) = delete;

  int get() const { return fd_; }
  bool valid() const { return fd_ >= 0; }
  void reset();

 private:
  int fd_ = -1;
};

// flock() for the lifetime of the object. Locks are per open file description: threads of one
// process serialize on their own mutex before taking it.
class FileLock {
 public:
  enum class Mode { Shared, Exclusive };
  FileLock() = default;
  FileLock(int fd, Mode mode) { lock(fd, mode); } // blocks; check locked()
  ~FileLock() { unlock(); }
  FileLock(const FileLock&) = delete;
  FileLock& operator=(const FileLock&) = delete;
  bool locked() const { return fd_ >= 0; }
  // Releases a lock already held first. With wait=false, fails at once when it is taken.
  bool lock(int fd, Mode mode, bool wait = true);
  void unlock();

 private:
  int fd_ = -1;
};

class Mapping {
 public:
  Mapping() = default;
  ~Mapping() { reset(); }
  Mapping(const Mapping&) = delete;
  Mapping& operator=(const Mapping&) = delete;
  // Maps the first `size` bytes of `fd` read-only; returns errno (0 on success).
  int map(int fd, std::uint64_t size);
  std::span<const std::uint8_t> bytes() const { return {data_, size_}; }
  void reset();

 private:
  const std::uint8_t* data_ = nullptr;
  std::size_t size_ = 0;
};

struct FileIdentity {
  std::uint64_t device = 0;
  std::uint64_t inode = 0;
  friend bool operator==(const FileIdentity&, const FileIdentity&) = default;
};

// Returns errno (0 on success).
int identity_of_fd(int fd, FileIdentity& out, std::uint64_t* size = nullptr);
int identity_of_path(const std::string& path, FileIdentity& out);
// Reads exactly bytes.size() bytes at `offset`; returns errno, or EIO for a short read.
int read_at(int fd, std::uint64_t offset, std::span<std::uint8_t> bytes);
// Writes all of `bytes` (one write() call, retried on a short write); returns errno.
int write_all(int fd, std::span<const std::uint8_t> bytes);
int sync_directory(const std::string& directory);
std::string errno_text(int error);

} // namespace kiln::cache
