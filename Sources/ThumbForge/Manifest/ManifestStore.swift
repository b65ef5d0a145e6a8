internal import Foundation

/// Reads and writes manifests: sorted keys, pretty-printed, atomic.
enum ManifestStore {
  /// The JSON bytes of a manifest (deterministic): `JSONEncoder`'s, sorted keys and
  /// pretty-printed. The imagesets, nearly all of the work, are encoded on every core and
  /// put in place in the encoding of the rest (the same bytes as encoding the whole: see
  /// ``spliced(_:entries:)``); a build writes the manifest last, while the other cores idle.
  static func encode(_ manifest: Manifest) throws -> [UInt8] {
    var shell = manifest
    shell.imageSets = []
    let rest = try makeEncoder().encode(shell)
    let entries = ParallelMap.map(manifest.imageSets, perChunk: 32) { encoder, entry in
      Result { try encoder.encode(entry) }
    } makingState: {
      makeEncoder()
    }
    return spliced(Array(rest), entries: try entries.map { try $0.get() }) + [UInt8(ascii: "\n")]
  }

  /// `JSONEncoder`'s encoding of a whole manifest, for the tests that check ``encode(_:)``.
  static func encodeWhole(_ manifest: Manifest) throws -> [UInt8] {
    Array(try makeEncoder().encode(manifest)) + [UInt8(ascii: "\n")]
  }

  /// The encoder of manifests and of each of their imagesets.
  private static func makeEncoder() -> JSONEncoder {
    let encoder = JSONEncoder()
    encoder.outputFormatting = [.sortedKeys, .prettyPrinted, .withoutEscapingSlashes]
    return encoder
  }

  /// The empty `imageSets` array as `JSONEncoder` prints it in a manifest: a key of the
  /// top-level object (two spaces in), whose string values cannot hold an unescaped quote.
  private static let emptyImageSets = Array("  \"imageSets\" : [\n\n  ]".utf8)

  /// `rest` (a manifest encoded without imagesets) with `entries` (each imageset encoded
  /// alone) in its `imageSets` array, as `JSONEncoder` nests them: every line but the empty
  /// ones (inside empty arrays) four spaces in, entries separated by `,` and a line break.
  static func spliced(_ rest: [UInt8], entries: [Data]) -> [UInt8] {
    guard !entries.isEmpty, let marker = rest.firstRange(of: emptyImageSets) else { return rest }
    let newline = UInt8(ascii: "\n")
    let indent: [UInt8] = Array("    ".utf8)
    var out: [UInt8] = []
    out.reserveCapacity(rest.count + entries.reduce(0) { $0 + $1.count * 5 / 4 })
    out += rest[..<marker.lowerBound]
    out += Array("  \"imageSets\" : [\n".utf8)
    for (position, entry) in entries.enumerated() {
      if position > 0 { out += [UInt8(ascii: ","), newline] }
      entry.withUnsafeBytes { (bytes: UnsafeRawBufferPointer) in
        for line in bytes.split(separator: newline, omittingEmptySubsequences: false)
          .enumerated()
        {
          if line.offset > 0 { out.append(newline) }
          if !line.element.isEmpty { out += indent }
          out += line.element
        }
      }
    }
    out += Array("\n  ]".utf8)
    out += rest[marker.upperBound...]
    return out
  }

  /// Reads a manifest; nil when there is none. Throws when one exists but is unreadable.
  static func read(at url: URL) throws -> Manifest? {
    guard FileManager.default.fileExists(atPath: url.path) else { return nil }
    let data = try Data(contentsOf: url)
    let manifest = try JSONDecoder().decode(Manifest.self, from: data)
    return manifest
  }

  static func write(_ manifest: Manifest, to url: URL) throws {
    try AtomicFile.write(encode(manifest), to: url.path)
  }
}
