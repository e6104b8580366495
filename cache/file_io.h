#pragma once
// The cache's platform layer: thin RAII wrappers over the file calls the cache needs (a file
// descriptor, a whole-file lock held for a scope, a read-only mapping) and the few other calls
// that differ between systems. One implementation per OS: file_io_posix.cpp (flock, mmap,
// rename, fsync) and file_io_win32.cpp (LockFileEx, CreateFileMapping, MoveFileEx,
// FlushFileBuffers). Paths are UTF-8. Errors come back as errno values, never exceptions.

#include <cstdint>
#include <filesystem>
#include <span>
#include <string>
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

// How open_file_descriptor() opens a file. Every mode lets other processes read, write, rename and
// delete the file while it is open (on Windows too: FILE_SHARE_READ | WRITE | DELETE).
enum class OpenMode {
  Read,     // read only; fails when missing
  Append,   // read and write, created when missing
  Truncate, // read and write, created when missing, emptied when not
};

// Opens `path`; an invalid descriptor, with errno set, on failure. Not inherited by children.
FileDescriptor open_file_descriptor(const std::string& path, OpenMode mode);

// A lock on the whole file (flock(); on Windows LockFileEx on one byte far past any end of
// file, so that it never blocks another handle's reads or writes) for the lifetime of the
// object. Locks belong to the open file (descriptor, handle): threads of one process serialize
// on their own mutex before taking it. The system releases them when the process dies.
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
// Writes all of `bytes` at the end of the file (every file the cache writes is written front to
// back, appended under its lock); returns errno.
int write_all(int fd, std::span<const std::uint8_t> bytes);
// Cuts the file to `size` bytes (ftruncate; SetEndOfFile). Returns errno.
int truncate_file(int fd, std::uint64_t size);
// Makes the file's data durable (fsync; FlushFileBuffers). Returns errno.
int sync_file(int fd);
// Puts `from` in the place of `to`, replacing it even while other processes hold `to` open
// (rename(); on Windows MoveFileEx, see file_io_win32.cpp). Returns errno.
int replace_file(const std::string& from, const std::string& to);
// Deletes the file (unlink; DeleteFile). Returns errno.
int remove_file(const std::string& path);
// Makes a rename in `directory` durable (fsync of the folder; nothing to do on Windows, where
// MoveFileEx writes through). Returns errno.
int sync_directory(const std::string& directory);
std::string errno_text(int error);

// This process's id, as temporaries' names carry it.
std::uint64_t current_process_id();
// True when no process `pid` exists any more (its temporaries can go).
bool process_is_gone(std::uint64_t pid);
// The per-user folder for caches: $XDG_CACHE_HOME, else $HOME/.cache; %LOCALAPPDATA% on
// Windows. Empty when the environment names none.
std::filesystem::path user_cache_base();

} // namespace kiln::cache
