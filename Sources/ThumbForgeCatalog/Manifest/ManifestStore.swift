package import Foundation
internal import ThumbForgeBasics

/// Reads and writes manifests: sorted keys, pretty-printed, atomic.
package enum ManifestStore {
  /// The JSON bytes of a manifest (deterministic): `JSONEncoder`'s, sorted keys and
  /// pretty-printed, with a final line break.
  package static func encode(_ manifest: Manifest) throws -> [UInt8] {
    let encoder = JSONEncoder()
    encoder.outputFormatting = [.sortedKeys, .prettyPrinted, .withoutEscapingSlashes]
    return Array(try encoder.encode(manifest)) + [UInt8(ascii: "\n")]
  }

  /// Reads a manifest; nil when there is none. Throws when one exists but is unreadable.
  package static func read(at url: URL) throws -> Manifest? {
    guard FileManager.default.fileExists(atPath: url.path) else { return nil }
    let data = try Data(contentsOf: url)
    let manifest = try JSONDecoder().decode(Manifest.self, from: data)
    return manifest
  }

  package static func write(_ manifest: Manifest, to url: URL) throws {
    try AtomicFile.write(encode(manifest), to: url.path)
  }
}
