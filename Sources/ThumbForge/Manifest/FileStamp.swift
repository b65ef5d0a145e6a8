#if canImport(Glibc)
  internal import Glibc
#elseif canImport(Darwin)
  internal import Darwin
#endif

/// Size, modification time and hash of a file on disk.
struct FileStamp: Codable, Sendable, Equatable {
  var byteSize: Int
  var modified: Int64
  var hash: String

  /// Reads size and mtime (nil when the file is missing).
  static func current(at path: String) -> (byteSize: Int, modified: Int64)? {
    var info = stat()
    guard stat(path, &info) == 0 else { return nil }
    return facts(info)
  }

  /// Reads size and mtime of a file in `folder` (nil when the file is missing).
  static func current(at relativePath: String, in folder: OpenFolder) -> (
    byteSize: Int, modified: Int64
  )? {
    folder.info(of: relativePath).map(facts)
  }

  private static func facts(_ info: stat) -> (byteSize: Int, modified: Int64) {
    (Int(info.st_size), info.modifiedNanoseconds)
  }
}
