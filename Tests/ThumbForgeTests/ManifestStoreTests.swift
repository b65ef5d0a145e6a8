import Foundation
import Testing

@testable import ThumbForge
@testable import ThumbForgeBasics
@testable import ThumbForgeCatalog

/// `manifest.json` is `JSONEncoder`'s encoding of the manifest, sorted keys and pretty-printed
/// (``ManifestStore/encode(_:)``): what earlier versions wrote and a committed catalog holds.
@Suite("Manifest encoding")
struct ManifestStoreTests {
  @Test("reads back every field of a manifest exercising them all, the same bytes each time")
  func sample() throws {
    let manifest = ManifestCacheTests.sample()
    let bytes = try ManifestStore.encode(manifest)
    #expect(try JSONDecoder().decode(Manifest.self, from: Data(bytes)) == manifest)
    #expect(try ManifestStore.encode(manifest) == bytes)
    #expect(bytes.last == UInt8(ascii: "\n"))
  }

  @Test(
    "reads back generated manifests, their top-level keys sorted",
    arguments: [UInt64(1), 2, 3, 4, 5, 6])
  func generated(seed: UInt64) throws {
    var random = SeededRandom(seed: seed)
    let count = seed == 1 ? 0 : Int.random(in: 1...400, using: &random)
    let manifest = Manifest(
      toolVersion: Self.text(&random), libvipsVersion: "8.14.1",
      configHash: Self.text(&random), catalog: Self.text(&random),
      groups: (0..<Int.random(in: 0...3, using: &random)).map { _ in Self.text(&random) },
      imageSets: (0..<count).map { index in Self.imageSet(index, &random) })
    let bytes = try ManifestStore.encode(manifest)
    #expect(try JSONDecoder().decode(Manifest.self, from: Data(bytes)) == manifest)
    let text = String(decoding: bytes, as: UTF8.self)
    let keys = text.split(separator: "\n").filter { $0.hasPrefix("  \"") }
      .map { $0.split(separator: ":")[0].trimmingCharacters(in: .whitespaces) }
    #expect(keys == keys.sorted())
  }

  /// Text with what JSON escapes or a splice could trip on: quotes, line feeds, tabs,
  /// backslashes, slashes, non-ASCII letters, and the array's own key.
  static func text(_ random: inout SeededRandom) -> String {
    let pieces = [
      "a", "Flags", "\"", "\n", "\t", "\\", "/", "é", "🏔", " : [", "\"imageSets\" : [", "{", "}",
      ",", "  ", "0",
    ]
    return (0..<Int.random(in: 0...6, using: &random)).map { _ in
      pieces.randomElement(using: &random)!
    }.joined()
  }

  static func imageSet(_ index: Int, _ random: inout SeededRandom) -> ManifestImageSet {
    func some<T>(_ make: (inout SeededRandom) -> T) -> [T] {
      (0..<Int.random(in: 0...3, using: &random)).map { _ in make(&random) }
    }
    return ManifestImageSet(
      asset: text(&random), group: some(text), recipe: text(&random),
      recipeHash: text(&random), folder: "\(index)-" + text(&random),
      contentsHash: text(&random),
      sources: some { ManifestSource(path: text(&$0), hash: text(&$0)) },
      outputs: some { random in
        ManifestOutput(
          path: text(&random), scale: Int.random(in: 1...3, using: &random),
          appearance: Bool.random(using: &random) ? text(&random) : nil,
          width: Int.random(in: 1...4096, using: &random),
          height: Int.random(in: 1...4096, using: &random),
          bytes: Int.random(in: 0...1_000_000, using: &random), hash: text(&random),
          crop: Bool.random(using: &random)
            ? PixelRect(x: -3, y: 7, width: 100, height: 50) : nil,
          displayGamut: Bool.random(using: &random) ? "display-P3" : nil)
      },
      warnings: some(text), skipped: some(text),
      focus: Bool.random(using: &random)
        ? FocusPoint(x: Double.random(in: 0...1, using: &random), y: 0.5) : nil)
  }
}
