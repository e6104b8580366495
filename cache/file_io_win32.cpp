// file_io.h on Windows. Files are opened with CreateFileW, sharing read, write and delete as
// POSIX files do, and wrapped as C runtime descriptors (_open_osfhandle) so that the cache's
// code keeps one `int` handle type on both systems; every call here works on the HANDLE behind
// the descriptor. Windows errors come back mapped to errno values.

#include "cache/file_io.h"

#include <algorithm>
#include <cerrno>
#include <cstdlib>
#include <cstring>
#include <fcntl.h>
#include <io.h>
#include <windows.h>

namespace kiln::cache {

namespace {

// The one byte every FileLock locks: far beyond any real end of file (LockFileEx locks are
// mandatory, so a lock on data would block other handles' reads), and below 2^63 so that Wine
// can pass it on as a POSIX byte-range lock.
constexpr std::uint64_t kLockOffset = 0x7fff'ffff'ffff'fffeULL;

int errno_of(DWORD error) {
  switch (error) {
  case ERROR_SUCCESS:
    return 0;
  case ERROR_FILE_NOT_FOUND:
  case ERROR_PATH_NOT_FOUND:
    return ENOENT;
  case ERROR_ACCESS_DENIED:
  case ERROR_SHARING_VIOLATION:
    return EACCES;
  case ERROR_LOCK_VIOLATION:
    return EWOULDBLOCK;
  case ERROR_DISK_FULL:
  case ERROR_HANDLE_DISK_FULL:
    return ENOSPC;
  case ERROR_FILE_EXISTS:
  case ERROR_ALREADY_EXISTS:
    return EEXIST;
  case ERROR_NOT_ENOUGH_MEMORY:
  case ERROR_OUTOFMEMORY:
    return ENOMEM;
  case ERROR_WRITE_PROTECT:
    return EROFS;
  case ERROR_INVALID_HANDLE:
    return EBADF;
  case ERROR_INVALID_PARAMETER:
    return EINVAL;
  case ERROR_TOO_MANY_OPEN_FILES:
    return EMFILE;
  default:
    return EIO;
  }
}

// The last Windows error as an errno value, also stored in errno (callers read either).
int last_error() {
  const int error = errno_of(::GetLastError());
  errno = error != 0 ? error : EIO;
  return errno;
}

std::wstring wide(const std::string& utf8) {
  if (utf8.empty()) return {};
  const int length = ::MultiByteToWideChar(CP_UTF8, 0, utf8.data(), int(utf8.size()), nullptr, 0);
  std::wstring out(std::size_t(length > 0 ? length : 0), L'\0');
  if (length > 0)
    ::MultiByteToWideChar(CP_UTF8, 0, utf8.data(), int(utf8.size()), out.data(), length);
  return out;
}

HANDLE handle_of(int fd) {
  return reinterpret_cast<HANDLE>(::_get_osfhandle(fd));
}

OVERLAPPED at(std::uint64_t offset) {
  OVERLAPPED overlapped{};
  overlapped.Offset = DWORD(offset);
  overlapped.OffsetHigh = DWORD(offset >> 32);
  return overlapped;
}

int identity_of_handle(HANDLE handle, FileIdentity& out, std::uint64_t* size) {
  BY_HANDLE_FILE_INFORMATION info;
  if (!::GetFileInformationByHandle(handle, &info)) return last_error();
  out = {std::uint64_t(info.dwVolumeSerialNumber),
         (std::uint64_t(info.nFileIndexHigh) << 32) | info.nFileIndexLow};
  if (size) *size = (std::uint64_t(info.nFileSizeHigh) << 32) | info.nFileSizeLow;
  return 0;
}

constexpr DWORD kShareAll = FILE_SHARE_READ | FILE_SHARE_WRITE | FILE_SHARE_DELETE;

} // namespace

void FileDescriptor::reset() {
  if (fd_ >= 0) ::_close(fd_); // closes the HANDLE too
  fd_ = -1;
}

FileDescriptor open_file_descriptor(const std::string& path, OpenMode mode) {
  const bool write = mode != OpenMode::Read;
  const DWORD disposition = mode == OpenMode::Read     ? OPEN_EXISTING
                            : mode == OpenMode::Append ? OPEN_ALWAYS
                                                       : CREATE_ALWAYS;
  HANDLE handle = ::CreateFileW(wide(path).c_str(), GENERIC_READ | (write ? GENERIC_WRITE : 0),
                                kShareAll, nullptr, disposition, FILE_ATTRIBUTE_NORMAL, nullptr);
  if (handle == INVALID_HANDLE_VALUE) {
    last_error();
    return FileDescriptor();
  }
  const int fd =
      ::_open_osfhandle(reinterpret_cast<intptr_t>(handle), _O_BINARY | (write ? 0 : _O_RDONLY));
  if (fd < 0) {
    ::CloseHandle(handle);
    errno = EMFILE;
  }
  return FileDescriptor(fd);
}

bool FileLock::lock(int fd, Mode mode, bool wait) {
  unlock();
  OVERLAPPED overlapped = at(kLockOffset);
  const DWORD flags = (mode == Mode::Exclusive ? LOCKFILE_EXCLUSIVE_LOCK : 0) |
                      (wait ? 0 : LOCKFILE_FAIL_IMMEDIATELY);
  if (!::LockFileEx(handle_of(fd), flags, 0, 1, 0, &overlapped)) {
    last_error();
    return false;
  }
  fd_ = fd;
  return true;
}

void FileLock::unlock() {
  if (fd_ >= 0) {
    OVERLAPPED overlapped = at(kLockOffset);
    ::UnlockFileEx(handle_of(fd_), 0, 1, 0, &overlapped);
  }
  fd_ = -1;
}

int Mapping::map(int fd, std::uint64_t size) {
  reset();
  if (size == 0) return 0;
  HANDLE section = ::CreateFileMappingW(handle_of(fd), nullptr, PAGE_READONLY, DWORD(size >> 32),
                                        DWORD(size), nullptr);
  if (!section) return last_error();
  void* address = ::MapViewOfFile(section, FILE_MAP_READ, 0, 0, SIZE_T(size));
  const int error = address ? 0 : last_error();
  ::CloseHandle(section); // the view keeps the section alive
  if (!address) return error;
  data_ = static_cast<const std::uint8_t*>(address);
  size_ = size;
  return 0;
}

void Mapping::reset() {
  if (data_) ::UnmapViewOfFile(data_);
  data_ = nullptr;
  size_ = 0;
}

int identity_of_fd(int fd, FileIdentity& out, std::uint64_t* size) {
  return identity_of_handle(handle_of(fd), out, size);
}

int identity_of_path(const std::string& path, FileIdentity& out) {
  HANDLE handle = ::CreateFileW(wide(path).c_str(), FILE_READ_ATTRIBUTES, kShareAll, nullptr,
                                OPEN_EXISTING, FILE_FLAG_BACKUP_SEMANTICS, nullptr);
  if (handle == INVALID_HANDLE_VALUE) return last_error();
  const int error = identity_of_handle(handle, out, nullptr);
  ::CloseHandle(handle);
  return error;
}

int read_at(int fd, std::uint64_t offset, std::span<std::uint8_t> bytes) {
  std::size_t done = 0;
  while (done < bytes.size()) {
    OVERLAPPED overlapped = at(offset + done);
    const DWORD chunk = DWORD(std::min<std::size_t>(bytes.size() - done, 1u << 30));
    DWORD n = 0;
    if (!::ReadFile(handle_of(fd), bytes.data() + done, chunk, &n, &overlapped))
      return ::GetLastError() == ERROR_HANDLE_EOF ? EIO : last_error();
    if (n == 0) return EIO;
    done += n;
  }
  return 0;
}

int write_all(int fd, std::span<const std::uint8_t> bytes) {
  HANDLE handle = handle_of(fd);
  LARGE_INTEGER end{};
  if (!::SetFilePointerEx(handle, end, nullptr, FILE_END)) return last_error();
  std::size_t done = 0;
  while (done < bytes.size()) {
    const DWORD chunk = DWORD(std::min<std::size_t>(bytes.size() - done, 1u << 30));
    DWORD n = 0;
    if (!::WriteFile(handle, bytes.data() + done, chunk, &n, nullptr)) return last_error();
    if (n == 0) return ENOSPC;
    done += n;
  }
  return 0;
}

int truncate_file(int fd, std::uint64_t size) {
  HANDLE handle = handle_of(fd);
  LARGE_INTEGER position;
  position.QuadPart = LONGLONG(size);
  if (!::SetFilePointerEx(handle, position, nullptr, FILE_BEGIN) || !::SetEndOfFile(handle))
    return last_error();
  return 0;
}

int sync_file(int fd) {
  return ::FlushFileBuffers(handle_of(fd)) ? 0 : last_error();
}

// MoveFileEx cannot replace a file that another handle has open (Windows before POSIX rename
// semantics, and Wine): the cache file always is. Every kiln handle shares delete access, so
// the open file can be renamed out of the way first, to a temporary name that
// remove_orphaned_temporaries() recognises, and marked for deletion (it goes when its last
// handle closes); then `from` takes its place. A process opening `to` between the two renames
// finds no file and creates one, which is moved out of the way in turn; the cache's lock
// protocol then sends that process to the new file, as it does after any replacement.
int replace_file(const std::string& from, const std::string& to) {
  const std::wstring source = wide(from), target = wide(to);
  constexpr DWORD kFlags = MOVEFILE_REPLACE_EXISTING | MOVEFILE_WRITE_THROUGH;
  if (::MoveFileExW(source.c_str(), target.c_str(), kFlags)) return 0;
  for (int attempt = 0; attempt < 100; ++attempt) {
    const DWORD error = ::GetLastError();
    if (error != ERROR_ACCESS_DENIED && error != ERROR_SHARING_VIOLATION) return last_error();
    const std::wstring aside = wide(to + ".tmp." + std::to_string(current_process_id()) +
                                    ".replaced." + std::to_string(attempt));
    if (!::MoveFileExW(target.c_str(), aside.c_str(), MOVEFILE_REPLACE_EXISTING) &&
        ::GetLastError() != ERROR_FILE_NOT_FOUND)
      return last_error();
    ::DeleteFileW(aside.c_str());
    if (::MoveFileExW(source.c_str(), target.c_str(), kFlags)) return 0;
  }
  return last_error();
}

int remove_file(const std::string& path) {
  return ::DeleteFileW(wide(path).c_str()) ? 0 : last_error();
}

int sync_directory(const std::string&) {
  return 0; // MoveFileEx with MOVEFILE_WRITE_THROUGH has made the rename durable
}

std::string errno_text(int error) {
  return std::strerror(error); // the C runtime's buffer is per thread
}

std::uint64_t current_process_id() {
  return ::GetCurrentProcessId();
}

bool process_is_gone(std::uint64_t pid) {
  if (pid == 0 || pid > 0xffff'ffffu) return false;
  HANDLE process = ::OpenProcess(PROCESS_QUERY_LIMITED_INFORMATION, FALSE, DWORD(pid));
  if (!process) return ::GetLastError() == ERROR_INVALID_PARAMETER; // no such process
  DWORD code = 0;
  const bool exited = ::GetExitCodeProcess(process, &code) && code != STILL_ACTIVE;
  ::CloseHandle(process);
  return exited;
}

std::filesystem::path user_cache_base() {
  if (const wchar_t* local = ::_wgetenv(L"LOCALAPPDATA"); local && *local) return local;
  return {};
}

} // namespace kiln::cache
