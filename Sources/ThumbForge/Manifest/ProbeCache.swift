public import Foundation
internal import Glibc

/// Remembered file facts keyed by path, reused while size and modification time match, so
/// a no-change rebuild neither decodes headers nor hashes files. A cache only: deleting it
/// is always safe. Stored as tab-separated lines: it is read on every run, and a line
/// format parses many times faster than JSON for tens of thousands of entries.
public struct ProbeCache: Sendable, Equatable {
  static let header = "thumbforge-cache 2"

  /// Masters, by asset-folder-relative path.
  public var sources: [String: ProbeResult] = [:]
  /// Outputs, by catalog-relative path: size, mtime and hash.
  public var outputs: [String: FileStamp] = [:]

  public init() {}

  public static func read(at url: URL) -> ProbeCache {
    var cache = ProbeCache()
    guard let data = FileManager.default.contents(atPath: url.path) else { return cache }
    let bytes = [UInt8](data)
    var lines = bytes.split(separator: UInt8(ascii: "\n"))[...]
    guard let first = lines.popFirst(), first.elementsEqual(header.utf8) else { return cache }
    for line in lines {
      let fields = line.split(separator: UInt8(ascii: "\t"), omittingEmptySubsequences: false)
      guard fields.count >= 5, let path = String(validating: fields[1], as: UTF8.self),
        let size = integer(fields[2]), let hash = String(validating: fields[4], as: UTF8.self)
      else { continue }
      let modified = Int64(integer(fields[3]) ?? -1)
      if fields.count == 9, fields[0].first == UInt8(ascii: "S"), let width = integer(fields[5]),
        let height = integer(fields[6])
      {
        cache.sources[path] = ProbeResult(
          byteSize: size, modified: modified, hash: hash, width: width, height: height,
          hasAlpha: fields[7].first == UInt8(ascii: "1"),
          isPlainSRGB: fields[8].first == UInt8(ascii: "1"))
      } else if fields.count == 5, fields[0].first == UInt8(ascii: "O") {
        cache.outputs[path] = FileStamp(byteSize: size, modified: modified, hash: hash)
      }
    }
    return cache
  }

  /// A non-negative decimal integer, without going through `String`.
  private static func integer(_ digits: ArraySlice<UInt8>) -> Int? {
    guard !digits.isEmpty, digits.count <= 19 else { return nil }
    var value = 0
    for digit in digits {
      guard digit >= UInt8(ascii: "0") && digit <= UInt8(ascii: "9") else { return nil }
      let (times10, overflow) = value.multipliedReportingOverflow(by: 10)
      guard !overflow else { return nil }
      value = times10 + Int(digit - UInt8(ascii: "0"))
    }
    return value
  }

  public func write(to url: URL) throws {
    var text = Self.header + "\n"
    for (path, item) in sources.sorted(by: { $0.key < $1.key }) where Self.storable(path) {
      text += "S\t\(path)\t\(item.byteSize)\t\(item.modified)\t\(item.hash)\t\(item.width)\t"
      text += "\(item.height)\t\(item.hasAlpha ? 1 : 0)\t\(item.isPlainSRGB ? 1 : 0)\n"
    }
    for (path, stamp) in outputs.sorted(by: { $0.key < $1.key }) where Self.storable(path) {
      text += "O\t\(path)\t\(stamp.byteSize)\t\(stamp.modified)\t\(stamp.hash)\n"
    }
    try AtomicFile.write(Array(text.utf8), to: url.path)
  }

  /// Paths with tabs or line breaks are simply not cached.
  private static func storable(_ path: String) -> Bool {
    !path.contains("\t") && !path.contains("\n")
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
