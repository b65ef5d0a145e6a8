package import ThumbForgeBasics

#if canImport(Glibc)
  internal import Glibc
#elseif canImport(Darwin)
  internal import Darwin
#endif

/// Size, modification time and hash of a file on disk.
package struct FileStamp: Codable, Sendable, Equatable {
  package var byteSize: Int
  package var modified: Int64
  package var hash: String

  package init(byteSize: Int, modified: Int64, hash: String) {
    self.byteSize = byteSize
    self.modified = modified
    self.hash = hash
  }

  /// Reads size and mtime (nil when the file is missing).
  package static func current(at path: String) -> (byteSize: Int, modified: Int64)? {
    var info = stat()
    guard stat(path, &info) == 0 else { return nil }
    return info.sizeAndModified
  }

  /// Reads size and mtime of a file in `folder` (nil when the file is missing).
  package static func current(at relativePath: String, in folder: OpenFolder) -> (
    byteSize: Int, modified: Int64
  )? {
    folder.info(of: relativePath).map(\.sizeAndModified)
  }
}

extension FileStamp {
  /// A stamp of the file whose size and modification time are `facts` (from ``current(at:)``
  /// or ``AtomicFile/write(_:to:durable:)``) and whose content hash is `hash`.
  package init(_ facts: (byteSize: Int, modified: Int64), hash: String) {
    self.init(byteSize: facts.byteSize, modified: facts.modified, hash: hash)
  }
}
