// Safe outputs (output_target.hpp). POSIX calls throughout: the decisions hang on what lstat/stat say about the
// target, and the signal handler may only call async-signal-safe functions (unlink, sigaction, raise).
#include "platform/output_target.hpp"

#include <dirent.h>
#include <fcntl.h>
#include <glob.h>
#include <sys/stat.h>
#include <unistd.h>

#include <array>
#include <atomic>
#include <cerrno>
#include <csignal>
#include <cstring>
#include <iostream>
#include <mutex>
#include <set>
#include <utility>

namespace rr::platform {
namespace {

// ---- inputs this run reads --------------------------------------------------------------------------------

std::mutex inputs_mutex;
std::set<std::pair<dev_t, ino_t>>& protected_inputs() {
  static std::set<std::pair<dev_t, ino_t>> inputs;
  return inputs;
}

void protect_one(const std::string& path) {
  struct stat st {};
  if (::stat(path.c_str(), &st) != 0) return;
  if (S_ISDIR(st.st_mode)) {
    // A trace folder: the files in it (not deeper: trace folders are flat).
    DIR* dir = ::opendir(path.c_str());
    if (dir == nullptr) return;
    while (const dirent* entry = ::readdir(dir)) {
      const std::string name = entry->d_name;
      if (name == "." || name == "..") continue;
      struct stat member {};
      if (::stat((path + "/" + name).c_str(), &member) == 0 && !S_ISDIR(member.st_mode)) {
        std::lock_guard lock(inputs_mutex);
        protected_inputs().emplace(member.st_dev, member.st_ino);
      }
    }
    ::closedir(dir);
    return;
  }
  std::lock_guard lock(inputs_mutex);
  protected_inputs().emplace(st.st_dev, st.st_ino);
}

bool is_protected(const struct stat& st) {
  std::lock_guard lock(inputs_mutex);
  return protected_inputs().count({st.st_dev, st.st_ino}) > 0;
}

// ---- temporary files removed on signals -------------------------------------------------------------------

constexpr int kSlots = 64;
constexpr std::size_t kPathBytes = 4096;
std::array<std::array<char, kPathBytes>, kSlots> temp_paths;
std::array<std::atomic<bool>, kSlots> temp_used;
constexpr std::array<int, 4> kCleanupSignals{SIGINT, SIGTERM, SIGHUP, SIGQUIT};

extern "C" void remove_temporaries_and_die(int sig) {
  for (int i = 0; i < kSlots; ++i)
    if (temp_used[i].load(std::memory_order_acquire)) ::unlink(temp_paths[i].data());
  struct sigaction dfl {};
  dfl.sa_handler = SIG_DFL;
  ::sigaction(sig, &dfl, nullptr);
  ::raise(sig);
}

void install_handlers_once() {
  static std::once_flag once;
  std::call_once(once, [] {
    for (int sig : kCleanupSignals) {
      struct sigaction old {};
      if (::sigaction(sig, nullptr, &old) != 0 || old.sa_handler != SIG_DFL) continue;  // ignored (nohup): keep
      struct sigaction act {};
      act.sa_handler = remove_temporaries_and_die;
      sigemptyset(&act.sa_mask);
      ::sigaction(sig, &act, nullptr);
    }
  });
}

// A slot holding `path`, or -1 when every slot is taken (the file is then only removed on normal paths).
int register_temporary(const std::string& path) {
  if (path.size() >= kPathBytes) return -1;
  install_handlers_once();
  static std::mutex slots_mutex;
  std::lock_guard lock(slots_mutex);
  for (int i = 0; i < kSlots; ++i)
    if (!temp_used[i].load(std::memory_order_relaxed)) {
      std::memcpy(temp_paths[i].data(), path.c_str(), path.size() + 1);
      temp_used[i].store(true, std::memory_order_release);
      return i;
    }
  return -1;
}

void unregister_temporary(int slot) {
  if (slot >= 0) temp_used[slot].store(false, std::memory_order_release);
}

// `path` with every symlink followed, also when the last one dangles (the output then creates its target).
// Fails on a loop.
bool follow_symlinks(std::string path, std::string& out, int& err) {
  for (int hops = 0; hops < 40; ++hops) {
    struct stat st {};
    if (::lstat(path.c_str(), &st) != 0 || !S_ISLNK(st.st_mode)) {
      out = path;
      return true;
    }
    std::array<char, kPathBytes> buf{};
    const ssize_t n = ::readlink(path.c_str(), buf.data(), buf.size() - 1);
    if (n < 0) {
      err = errno;
      return false;
    }
    std::string link(buf.data(), static_cast<std::size_t>(n));
    if (link.empty() || link[0] != '/') {
      const auto slash = path.rfind('/');
      link = (slash == std::string::npos ? std::string() : path.substr(0, slash + 1)) + link;
    }
    path = std::move(link);
  }
  err = ELOOP;
  return false;
}

}  // namespace

void protect_input(const std::string& path) {
  struct stat st {};
  if (::stat(path.c_str(), &st) == 0 || path.find_first_of("*?[") == std::string::npos) {
    protect_one(path);
    return;
  }
  // A glob the reader will expand.
  glob_t found{};
  if (::glob(path.c_str(), 0, nullptr, &found) == 0)
    for (std::size_t i = 0; i < found.gl_pathc; ++i) protect_one(found.gl_pathv[i]);
  ::globfree(&found);
}

OutputTarget::OutputTarget(OutputTarget&& other) noexcept { *this = std::move(other); }

OutputTarget& OutputTarget::operator=(OutputTarget&& other) noexcept {
  if (this != &other) {
    discard();
    path_ = std::move(other.path_);
    target_ = std::move(other.target_);
    temp_ = std::move(other.temp_);
    file_ = std::exchange(other.file_, nullptr);
    mode_ = std::exchange(other.mode_, Mode::none);
    slot_ = std::exchange(other.slot_, -1);
    write_errno_ = other.write_errno_;
  }
  return *this;
}

OutputTarget::~OutputTarget() { discard(); }

void OutputTarget::discard() {
  if (file_ != nullptr) std::fclose(std::exchange(file_, nullptr));
  if (!temp_.empty()) ::unlink(temp_.c_str());
  unregister_temporary(std::exchange(slot_, -1));
  temp_.clear();
  mode_ = Mode::none;
}

std::string OutputTarget::error(const std::string& what, int err) const {
  return path_ + ": " + what + (err ? std::string(": ") + std::strerror(err) : std::string());
}

std::string OutputTarget::open(const std::string& path) {
  discard();
  path_ = path;
  write_errno_ = 0;
  // Without this, an empty path fails only at the final rename, as ": cannot rename into place".
  if (path.empty()) return "the output path is empty";
  int err = 0;
  if (!follow_symlinks(path, target_, err)) return error("cannot write", err);
  struct stat st {};
  const bool exists = ::stat(target_.c_str(), &st) == 0;
  if (exists && is_protected(st)) return error("refusing to overwrite a file this run reads", 0);
  if (exists && S_ISDIR(st.st_mode)) return error("cannot write", EISDIR);
  if (exists && !S_ISREG(st.st_mode)) {
    // A device, FIFO or socket: written directly (nothing to replace; a FIFO's reader sees the stream).
    file_ = std::fopen(target_.c_str(), "wb");
    if (file_ == nullptr) return error("cannot write", errno);
    mode_ = Mode::direct;
    return {};
  }
  // A regular file, or none yet: a temporary sibling of the target, created exclusively (never through a link
  // someone placed there), with the old file's mode.
  const mode_t mode = exists ? (st.st_mode & 07777) : 0666;
  for (int attempt = 0; attempt < 100 && file_ == nullptr; ++attempt) {
    temp_ = target_ + ".tmp." + std::to_string(::getpid()) + (attempt ? "." + std::to_string(attempt) : "");
    // Registered before it exists: a signal between creating the file and registering it would leave it behind
    // (a signal sent the moment the file shows, as a user's ^C may be). Until open succeeds the handler may unlink
    // a name that is not this file's, but only one with this process's id, which no other live process uses.
    slot_ = register_temporary(temp_);
    const int fd = ::open(temp_.c_str(), O_WRONLY | O_CREAT | O_EXCL | O_CLOEXEC, mode);
    if (fd < 0) {
      err = errno;
      unregister_temporary(std::exchange(slot_, -1));
      temp_.clear();
      if (err == EEXIST) continue;
      return error("cannot write", err);
    }
    if (exists) {
      // open() applied the umask; the old file's mode is what the user chose. Owner: only root may keep it.
      (void)::fchmod(fd, mode);
      if (::geteuid() == 0) (void)::fchown(fd, st.st_uid, st.st_gid);
    }
    file_ = ::fdopen(fd, "wb");
    if (file_ == nullptr) {
      err = errno;
      ::close(fd);
      discard();
      return error("cannot write", err);
    }
  }
  if (file_ == nullptr) return error("cannot write", EEXIST);
  // Always renamed into place, also over a file with other hard links: they keep the old content. Rewriting the
  // linked file in place could not be whole or not at all (a full disk, a kill or a second writer mid-copy left a
  // truncated file), and two writers renaming leave one of their outputs, complete.
  mode_ = Mode::replace;
  return {};
}

bool OutputTarget::write(std::string_view bytes) {
  if (file_ == nullptr) return false;
  if (bytes.empty()) return write_errno_ == 0;
  if (std::fwrite(bytes.data(), 1, bytes.size(), file_) != bytes.size() && write_errno_ == 0)
    write_errno_ = errno ? errno : EIO;
  return write_errno_ == 0;
}

std::string OutputTarget::commit() {
  if (file_ == nullptr) return error("cannot write", EBADF);
  if (std::fflush(file_) != 0 && write_errno_ == 0) write_errno_ = errno;
  const int close_result = std::fclose(std::exchange(file_, nullptr));
  if (close_result != 0 && write_errno_ == 0) write_errno_ = errno;
  if (write_errno_ != 0) {
    const int err = write_errno_;
    discard();
    return error("cannot write", err);
  }
  if (mode_ == Mode::direct) {
    mode_ = Mode::none;
    return {};
  }
  if (::rename(temp_.c_str(), target_.c_str()) != 0) {
    const int err = errno;
    discard();
    return error("cannot rename into place", err);
  }
  unregister_temporary(std::exchange(slot_, -1));
  temp_.clear();
  mode_ = Mode::none;
  return {};
}

std::string write_whole_file(const std::string& path, std::string_view contents) {
  OutputTarget out;
  if (auto err = out.open(path); !err.empty()) return err;
  out.write(contents);
  return out.commit();
}

std::string flush_stdout() {
  std::cout.flush();
  errno = 0;
  const bool failed = std::fflush(stdout) != 0 || std::ferror(stdout) || std::cout.fail();
  if (!failed) return {};
  return errno ? std::strerror(errno) : "write error";
}

}  // namespace rr::platform
