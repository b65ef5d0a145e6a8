package import Foundation
internal import ThumbForgeBasics
package import ThumbForgeCatalog

#if canImport(Glibc)
  internal import Glibc
#elseif canImport(Darwin)
  internal import Darwin
#endif

/// Remembered file facts keyed by path, reused while size and modification time match, so
/// a no-change rebuild neither decodes headers nor hashes files. A cache only: deleting it
/// is always safe. Stored as tab-separated lines: it is read on every run, and a line
/// format parses faster than JSON for tens of thousands of entries.
package struct ProbeCache: Sendable, Equatable {
  static let header = "thumbforge-cache 6"

  /// Masters, by asset-folder-relative path.
  package var sources: [String: ProbeResult] = [:]
  /// Outputs, by catalog-relative path: size, mtime and hash.
  package var outputs: [String: FileStamp] = [:]

  init() {}

  package static func read(at url: URL) -> ProbeCache {
    guard let data = FileManager.default.contents(atPath: url.path) else { return ProbeCache() }
    return data.withUnsafeBytes { raw in parse(raw.bindMemory(to: UInt8.self)) }
  }

  private static func parse(_ bytes: UnsafeBufferPointer<UInt8>) -> ProbeCache {
    var cache = ProbeCache()
    var lines = TabSeparatedLines(bytes)
    func nextLine() -> Bool {
      while lines.next() {
        if lines.fields.count > 1 || !lines.fields[0].isEmpty { return true }  // skip empty lines
      }
      return false
    }
    guard nextLine(), lines.fields.count == 1, lines.field(0, equals: header) else { return cache }
    // Size the tables once instead of growing them.
    var sourceLines = 0
    var lineCount = 0
    for index in 0..<(bytes.count - 1) where bytes[index] == .newline {
      lineCount += 1
      if bytes[index + 1] == UInt8(ascii: "S") { sourceLines += 1 }
    }
    cache.sources.reserveCapacity(sourceLines)
    cache.outputs.reserveCapacity(lineCount - sourceLines)
    while nextLine() {
      let count = lines.fields.count
      guard count >= 5, let path = lines.text(1), let size = lines.integer(2),
        let hash = lines.text(4)
      else { continue }
      let modified = Int64(lines.integer(3, signed: true) ?? -1)  // before 1970: negative
      let kind = lines.field(0).first
      if count == 12, kind == UInt8(ascii: "S"), let width = lines.integer(5),
        let height = lines.integer(6)
      {
        cache.sources[path] = ProbeResult(
          byteSize: size, modified: modified, hash: hash, width: width, height: height,
          hasAlpha: lines.field(7).first == UInt8(ascii: "1"),
          isPlainSRGB: lines.field(8).first == UInt8(ascii: "1"),
          isWideGamut: lines.field(9).first == UInt8(ascii: "1"),
          hasMetadata: lines.field(10).first == UInt8(ascii: "1"),
          frames: lines.integer(11) ?? 1)
      } else if count == 5, kind == UInt8(ascii: "O") {
        cache.outputs[path] = FileStamp(byteSize: size, modified: modified, hash: hash)
      }
    }
    return cache
  }

  package func write(to url: URL) throws {
    var text = Self.header + "\n"
    for (path, item) in sources.sorted(by: { $0.key < $1.key }) where Self.storable(path) {
      text += "S\t\(path)\t\(item.byteSize)\t\(item.modified)\t\(item.hash)\t\(item.width)\t"
      text += "\(item.height)\t\(item.hasAlpha ? 1 : 0)\t\(item.isPlainSRGB ? 1 : 0)\t"
      text += "\(item.isWideGamut ? 1 : 0)\t\(item.hasMetadata ? 1 : 0)\t\(item.frames)\n"
    }
    for (path, stamp) in outputs.sorted(by: { $0.key < $1.key }) where Self.storable(path) {
      text += "O\t\(path)\t\(stamp.byteSize)\t\(stamp.modified)\t\(stamp.hash)\n"
    }
    // Not durable: a cache a crash damaged reads as empty and is rebuilt.
    try AtomicFile.write(Array(text.utf8), to: url.path, durable: false)
  }

  /// Paths with tabs or line breaks are simply not cached.
  private static func storable(_ path: String) -> Bool {
    !path.contains("\t") && !path.contains("\n")
  }
}
