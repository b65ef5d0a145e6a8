import Foundation
import Testing

@testable import ThumbForge
@testable import ThumbForgeBasics
@testable import ThumbForgeCatalog
@testable import ThumbForgeConfig

/// The `state-files` fuzz target's seeds and the inputs its runs found, replayed through the
/// same check (``StateFileProbe``), plus each finding's fix tested directly.
@Suite("State-file fuzz regressions")
struct StateFileFuzzRegressionTests {
  static let seeds = URL(fileURLWithPath: #filePath)
    .deletingLastPathComponent().deletingLastPathComponent().deletingLastPathComponent()
    .appendingPathComponent("Fuzz/state-files/seeds")

  static func seedNames() -> [String] {
    ((try? FileManager.default.contentsOfDirectory(atPath: seeds.path)) ?? []).sorted()
  }

  private func scratch() throws -> URL {
    let url = FileManager.default.temporaryDirectory.appendingPathComponent(
      "state-fuzz-\(UUID().uuidString)")
    try FileManager.default.createDirectory(at: url, withIntermediateDirectories: true)
    return url
  }

  @Test("every committed seed passes the fuzz target's check", arguments: seedNames())
  func seed(_ name: String) throws {
    let bytes = try [UInt8](Data(contentsOf: Self.seeds.appendingPathComponent(name)))
    let directory = try scratch()
    defer { try? FileManager.default.removeItem(at: directory) }
    #expect(throws: Never.self) { try StateFileProbe.check(fuzzInput: bytes, directory: directory) }
  }

  @Test("the destinations seeds are read, web sizes and drawables included (not refused)")
  func destinationSeeds() throws {
    let cache = try [UInt8](
      Data(contentsOf: Self.seeds.appendingPathComponent("manifest-cache-destinations")))
    let read = Array(cache.dropFirst()).withUnsafeBufferPointer { buffer in
      var reader = ManifestCacheReader(bytes: buffer)
      return reader.manifest(expecting: StateFileProbe.facts)
    }
    let manifest = try #require(read)
    #expect(manifest.imageSets.contains { $0.web?.json != nil && $0.android != nil })
    let json = try Data(
      contentsOf: Self.seeds.appendingPathComponent("manifest-json-destinations")
    ).dropFirst()
    let decoded = try JSONDecoder().decode(Manifest.self, from: Data(json))
    #expect(decoded.imageSets.map(\.web) == manifest.imageSets.map(\.web))
    #expect(decoded.imageSets.map(\.android) == manifest.imageSets.map(\.android))
  }

  @Test("Int.min, which String(Int.min) writes, reads back from the cache line format")
  func integerMinimum() {
    let text = Array(
      "\(Int.min)\t\(Int.max)\t-\(Int.max)\t9223372036854775808\t-9223372036854775809".utf8)
    text.withUnsafeBufferPointer { buffer in
      var lines = TabSeparatedLines(buffer)
      let moved = lines.next()
      #expect(moved)
      #expect(lines.integer(0, signed: true) == Int.min)
      #expect(lines.integer(0) == nil)
      #expect(lines.integer(1) == Int.max)
      #expect(lines.integer(2, signed: true) == -Int.max)
      #expect(lines.integer(3, signed: true) == nil)
      #expect(lines.integer(4, signed: true) == nil)
    }
  }

  @Test("a manifest output of width Int.min round-trips through the manifest cache")
  func manifestCacheIntegerMinimum() {
    var output = ManifestOutput(
      path: "A.imageset/A@2x.png", scale: 2, appearance: nil, width: Int.min, height: 1,
      bytes: Int.min, hash: "h", crop: PixelRect(x: Int.min, y: 0, width: 1, height: 1))
    output.appearance = "dark"
    let set = ManifestImageSet(
      asset: "A", group: [], recipe: "variants", recipeHash: "k", folder: "A.imageset",
      contentsHash: "h", sources: [], outputs: [output], warnings: [], skipped: [])
    let manifest = Manifest(
      toolVersion: "0", libvipsVersion: "8", configHash: "", catalog: "c", groups: [],
      imageSets: [set])
    let facts = FileFacts(size: 1, modified: Int64.min, changed: 0, inode: 0)
    let bytes = ManifestCache.encode(manifest, stamp: facts)
    let read = bytes.withUnsafeBufferPointer { buffer in
      var reader = ManifestCacheReader(bytes: buffer)
      return reader.manifest(expecting: facts)
    }
    #expect(read == manifest)
  }

  @Test("a box side beyond 10 000 pt is a configuration error, not a crash when planning")
  func hugeSize() throws {
    for text in [
      "recipes:\n  big: { kind: fit, size: 1e300 }\n",
      "recipes:\n  fit: { size: [400, 1e19] }\n",
      "recipes:\n  flag: { size: [1e300, 1e300], stroke-width: 1e300 }\n",
    ] {
      #expect {
        _ = try ConfigLoader.parse(text, file: "thumbforge.yml")
      } throws: { error in
        "\(error)".contains("larger than the largest box side (10000 pt)")
      }
    }
    let largest = try ConfigLoader.parse(
      "recipes:\n  big: { kind: fill, size: [10000, 0.5] }\n", file: "thumbforge.yml")
    #expect(largest.recipes["big"]?.size.pixels(scale: 3) == PixelSize(width: 30_000, height: 2))
    #expect(PointSize(width: 1e300, height: 2).description == "1e+300 × 2 pt")
  }
}
