import Foundation
import Testing

@testable import ThumbForge

/// `manifest.json` is encoded imageset by imageset on every core and the pieces put in place
/// (``ManifestStore/encode(_:)``): the bytes must be exactly `JSONEncoder`'s for the whole
/// manifest, which earlier versions wrote and which a committed catalog's manifest holds.
@Suite("Manifest encoding")
struct ManifestStoreTests {
  @Test("gives JSONEncoder's bytes for a manifest exercising every field")
  func sample() throws {
    let manifest = ManifestCacheTests.sample()
    #expect(try ManifestStore.encode(manifest) == ManifestStore.encodeWhole(manifest))
  }

  @Test("gives JSONEncoder's bytes without imagesets, and with one")
  func edges() throws {
    var manifest = ManifestCacheTests.sample()
    let first = manifest.imageSets[0]
    manifest.imageSets = []
    #expect(try ManifestStore.encode(manifest) == ManifestStore.encodeWhole(manifest))
    manifest.imageSets = [first]
    #expect(try ManifestStore.encode(manifest) == ManifestStore.encodeWhole(manifest))
  }

  @Test(
    "gives JSONEncoder's bytes for generated manifests, split over every core or not",
    arguments: [UInt64(1), 2, 3, 4, 5, 6])
  func generated(seed: UInt64) throws {
    var random = SeededRandom(seed: seed)
    // Up to several chunks' worth of imagesets (32 per chunk), and sometimes none.
    let count = seed == 1 ? 0 : Int.random(in: 1...400, using: &random)
    let manifest = Manifest(
      toolVersion: Self.text(&random), libvipsVersion: "8.14.1",
      configHash: Self.text(&random), catalog: Self.text(&random),
      groups: (0..<Int.random(in: 0...3, using: &random)).map { _ in Self.text(&random) },
      imageSets: (0..<count).map { index in Self.imageSet(index, &random) })
    let split = try ManifestStore.encode(manifest)
    #expect(split == (try ManifestStore.encodeWhole(manifest)))
    #expect(try JSONDecoder().decode(Manifest.self, from: Data(split)) == manifest)
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
