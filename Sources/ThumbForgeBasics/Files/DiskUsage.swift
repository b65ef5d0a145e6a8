internal import Foundation

#if canImport(Glibc)
  internal import Glibc
#elseif canImport(Darwin)
  internal import Darwin
#endif

/// What a file takes: its byte count and the disk space of its allocated blocks (a 300-byte
/// file takes a whole 4 KB block on most file systems), for caches capped by disk use.
package enum DiskUsage {
  /// The file's bytes and disk space; nil when it cannot be read.
  package static func of(_ path: String) -> (bytes: Int, disk: Int)? {
    var info = stat()
    guard stat(path, &info) == 0 else { return nil }
    return (Int(info.st_size), max(Int(info.st_size), Int(info.st_blocks) * 512))
  }
}
