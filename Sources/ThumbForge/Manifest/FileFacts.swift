internal import Glibc

/// What identifies one version of a file: size, modification and change times (ns), inode.
struct FileFacts: Equatable {
  var size: Int
  var modified: Int
  var changed: Int
  var inode: Int

  static func current(at path: String) -> FileFacts? {
    var info = stat()
    guard stat(path, &info) == 0 else { return nil }
    return FileFacts(
      size: Int(info.st_size),
      modified: Int(info.st_mtim.tv_sec) * 1_000_000_000 + Int(info.st_mtim.tv_nsec),
      changed: Int(info.st_ctim.tv_sec) * 1_000_000_000 + Int(info.st_ctim.tv_nsec),
      inode: Int(truncatingIfNeeded: info.st_ino))
  }
}
