public import Foundation
internal import Glibc

/// Remembered file facts keyed by path, reused while size and modification time match, so
/// a no-change rebuild neither decodes headers nor hashes files. A cache only: deleting it
/// is always safe.
public struct ProbeCache: Codable, Sendable {
  public var version = 1
  /// Masters, by asset-folder-relative path.
  public var sources: [String: ProbeResult] = [:]
  /// Outputs, by catalog-relative path: size, mtime and hash.
  public var outputs: [String: FileStamp] = [:]

  public init() {}

  public static func read(at url: URL) -> ProbeCache {
    guard let data = try? Data(contentsOf: url),
      let cache = try? JSONDecoder().decode(ProbeCache.self, from: data), cache.version == 1
    else { return ProbeCache() }
    return cache
  }

  public func write(to url: URL) throws {
    let encoder = JSONEncoder()
    encoder.outputFormatting = [.sortedKeys]
    try AtomicFile.write(Array(try encoder.encode(self)), to: url.path)
  }
}

/// Size, modification time and hash of a file on disk.
public struct FileStamp: Codable, Sendable, Equatable {
  public var byteSize: Int
  public var modified: Int64
  public var hash: String

  /// Reads size and mtime (nil when the file is missing).
  public static func current(at path: String) -> (byteSize: Int, modified: Int64)? {
    var info = stat()
    guard stat(path, &info) == 0 else { return nil }
    return (
      Int(info.st_size), Int64(info.st_mtim.tv_sec) * 1_000_000_000 + Int64(info.st_mtim.tv_nsec)
    )
  }
}
