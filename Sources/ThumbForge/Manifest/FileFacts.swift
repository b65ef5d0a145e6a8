#if canImport(Glibc)
  internal import Glibc
#elseif canImport(Darwin)
  internal import Darwin
#endif

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
      modified: Int(info.modifiedNanoseconds),
      changed: Int(info.changedNanoseconds),
      inode: Int(truncatingIfNeeded: info.st_ino))
  }
}
