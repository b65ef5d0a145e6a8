#if canImport(Glibc)
  package import Glibc
#elseif canImport(Darwin)
  package import Darwin
#endif

/// What a file's metadata says of one version of it: the one notion of a file's identity.
/// Two strengths of "the same file" are asked of it: ``==``, nothing has touched it (size,
/// modification and change times, inode: the manifest cache's test), and
/// ``hasSameSizeAndTime(as:)``, the same content as far as metadata can tell, which survives a
/// copy that keeps times (the probe cache's, the manifest's stamps' and `--watch`'s test).
package struct FileFacts: Hashable, Sendable {
  /// Size in bytes.
  package var size: Int
  /// Modification time in nanoseconds since 1970.
  package var modified: Int64
  /// Status change time in nanoseconds since 1970.
  package var changed: Int64
  package var inode: Int

  package init(size: Int, modified: Int64, changed: Int64, inode: Int) {
    self.size = size
    self.modified = modified
    self.changed = changed
    self.inode = inode
  }

  /// The facts of a `stat` (or `fstat`, `fstatat`).
  package init(_ info: stat) {
    self.init(
      size: Int(info.st_size), modified: info.modifiedNanoseconds,
      changed: info.changedNanoseconds, inode: Int(truncatingIfNeeded: info.st_ino))
  }

  /// The facts of the file at `path`; nil when it is missing.
  package static func current(at path: String) -> FileFacts? {
    var info = stat()
    guard stat(path, &info) == 0 else { return nil }
    return FileFacts(info)
  }

  /// The facts of the file at `relativePath` in `folder`; nil when it is missing.
  package static func current(at relativePath: String, in folder: OpenFolder) -> FileFacts? {
    folder.info(of: relativePath).map(FileFacts.init)
  }

  /// Whether `other` has this version's size and modification time.
  package func hasSameSizeAndTime(as other: FileFacts) -> Bool {
    size == other.size && modified == other.modified
  }
}
