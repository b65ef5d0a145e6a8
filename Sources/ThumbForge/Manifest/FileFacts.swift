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
      modified: Int(info.st_mtim.nanoseconds),
      changed: Int(info.st_ctim.nanoseconds),
      inode: Int(truncatingIfNeeded: info.st_ino))
  }
}
