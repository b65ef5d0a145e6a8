internal import ThumbForgeBasics

#if canImport(Glibc)
  internal import Glibc
#elseif canImport(Darwin)
  internal import Darwin
#endif

/// What identifies one version of a file: size, modification and change times (ns), inode.
package struct FileFacts: Equatable {
  var size: Int
  var modified: Int
  var changed: Int
  var inode: Int

  package static func current(at path: String) -> FileFacts? {
    var info = stat()
    guard stat(path, &info) == 0 else { return nil }
    return FileFacts(
      size: Int(info.st_size),
      modified: Int(info.modifiedNanoseconds),
      changed: Int(info.changedNanoseconds),
      inode: Int(truncatingIfNeeded: info.st_ino))
  }

  package init(size: Int, modified: Int, changed: Int, inode: Int) {
    self.size = size
    self.modified = modified
    self.changed = changed
    self.inode = inode
  }
}
