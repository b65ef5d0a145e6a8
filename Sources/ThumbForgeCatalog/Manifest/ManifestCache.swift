package import Foundation
package import ThumbForgeBasics

/// A copy of the last manifest in tab-separated lines, kept beside it so that a run reads it
/// faster than the JSON. It records the size, modification and change times and
/// inode of the `manifest.json` it copies and is used only while all four still match, so
/// any edit, copy or replacement of the manifest makes the run read the JSON again. A cache
/// only: deleting it is always safe.
///
/// Lines: the header; `F` with the manifest file's facts; `M` with the scalar fields; `G`
/// with the groups; per imageset an `I` line followed by its `S` (source), `O` (output),
/// `P` (focus point), `H` (ThumbHash), `D` (a destination beside the catalog,
/// `web` or `android`, with its JSON and the JSON's hash) followed by its `B` (file) lines,
/// `W` (warning) and `K` (skipped) lines; an `X` line per failed master;
/// an `R` line per recipe (its name, then keys and values); a `C` line per key setting (its
/// name and value); `E` with the number of imagesets. Text fields
/// escape backslash, tab and line feed.
package enum ManifestCache {
  static let header = "thumbforge-manifest-cache 7"

  /// The manifest recorded in the cache at `url`; nil when the cache is missing or damaged,
  /// or was written for a manifest file other than the one with `facts` (nil: none).
  package static func read(at url: URL, matching facts: FileFacts?) -> Manifest? {
    guard let facts, let data = FileManager.default.contents(atPath: url.path) else {
      return nil
    }
    return data.withUnsafeBytes { raw in
      var reader = ManifestCacheReader(bytes: raw.bindMemory(to: UInt8.self))
      return reader.manifest(expecting: facts)
    }
  }

  /// Records `contents` as what the manifest file with `facts` holds.
  package static func write(_ contents: Manifest, to url: URL, facts: FileFacts) throws {
    // Not durable: a cache a crash damaged fails its checks and manifest.json is read.
    try AtomicFile.write(encode(contents, stamp: facts), to: url.path, durable: false)
  }

  /// The cache's bytes for a manifest whose file has the facts `stamp`.
  package static func encode(_ manifest: Manifest, stamp: FileFacts) -> [UInt8] {
    var out = ManifestCacheWriter()
    out.bytes.reserveCapacity(512 * manifest.imageSets.count + 4096)
    out.line("\(header)")
    out.line(
      "F", [Int64(stamp.size), stamp.modified, stamp.changed, Int64(stamp.inode)].map(String.init))
    out.line(
      "M",
      [
        String(manifest.schema), manifest.tool, manifest.toolVersion, manifest.libvipsVersion,
        manifest.configHash, manifest.catalog,
      ])
    out.line("G", manifest.groups)
    for set in manifest.imageSets {
      out.line(
        "I", [set.asset, set.recipe, set.recipeHash, set.folder, set.contentsHash] + set.group)
      for source in set.sources { out.line("S", [source.path, source.hash]) }
      for output in set.outputs {
        let crop = output.crop.map { "\($0.x),\($0.y),\($0.width),\($0.height)" } ?? "-"
        out.line(
          "O",
          [
            output.path, String(output.scale), String(output.width), String(output.height),
            String(output.bytes), output.hash, output.appearance.map { "+" + $0 } ?? "-", crop,
            output.displayGamut.map { "+" + $0 } ?? "-",
          ])
      }
      if let focus = set.focus { out.line("P", [String(focus.x), String(focus.y)]) }
      if let thumbHash = set.thumbHash { out.line("H", [thumbHash]) }
      for (destination, derived) in set.derived {
        out.line(
          "D",
          [
            destination, derived.json.map { "+" + $0 } ?? "-",
            derived.jsonHash.map { "+" + $0 } ?? "-",
          ])
        for file in derived.files {
          out.line(
            "B",
            [
              file.path, String(file.width), String(file.height), String(file.bytes), file.hash,
              file.appearance.map { "+" + $0 } ?? "-",
            ])
        }
      }
      for warning in set.warnings { out.line("W", [warning]) }
      for skipped in set.skipped { out.line("K", [skipped]) }
    }
    for failure in manifest.failed ?? [] { out.line("X", [failure.path, failure.reason]) }
    for (name, settings) in (manifest.recipes ?? [:]).sorted(by: { $0.key < $1.key }) {
      out.line("R", [name] + settings.sorted { $0.key < $1.key }.flatMap { [$0.key, $0.value] })
    }
    for (key, value) in (manifest.settings ?? [:]).sorted(by: { $0.key < $1.key }) {
      out.line("C", [key, value])
    }
    out.line("E", [String(manifest.imageSets.count)])
    return out.bytes
  }
}

/// Builds the cache's lines.
struct ManifestCacheWriter {
  var bytes: [UInt8] = []

  /// One line: `kind`, then each field after a tab, escaped.
  mutating func line(_ kind: String, _ fields: [String] = []) {
    bytes.append(contentsOf: kind.utf8)
    for field in fields {
      bytes.append(UInt8(ascii: "\t"))
      append(escaping: field)
    }
    bytes.append(UInt8(ascii: "\n"))
  }

  private mutating func append(escaping text: String) {
    let utf8 = text.utf8
    guard utf8.contains(where: { $0 == .backslash || $0 == .tab || $0 == .newline }) else {
      bytes.append(contentsOf: utf8)
      return
    }
    for byte in utf8 {
      switch byte {
      case .backslash: bytes += [.backslash, .backslash]
      case .tab: bytes += [.backslash, UInt8(ascii: "t")]
      case .newline: bytes += [.backslash, UInt8(ascii: "n")]
      default: bytes.append(byte)
      }
    }
  }
}
