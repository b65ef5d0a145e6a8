import Foundation
import Testing
import ThumbForgeTestSupport
import Vips

@testable import ThumbForge
@testable import ThumbForgeConfig
@testable import ThumbForgePlanning
@testable import ThumbForgeRendering

/// A master both shipped as-is and resized is decoded once: the decode that checks the
/// copied bytes feeds the resizes.
@Suite("Shared decode of copied masters")
struct SharedDecodeTests {
  static let config = """
    scales: [1, 2, 3]
    rules:
      - match: "Big@2x.jpg"
        recipes: [variants, big]
      - match: "**/*.jpg"
        recipes: [variants, fill, tile]
      - match: "**/*.png"
        recipes: [variants, flag]
    recipes:
      fill: { size: [300, 200], scales: [1, 2] }
      tile: { size: [150, 150], scales: [2, 3] }
      big: { kind: fill, size: [600, 300], scales: [2] }
    """

  /// A folder of `@2x` masters (their 2x files are copies, the others resized): a JPEG
  /// photo whose resizes let it shrink on load (two decodes), another whose largest resize
  /// needs it whole, and an alpha PNG icon (one decode each).
  static func folder() throws -> RenderHarness {
    let harness = try RenderHarness(config: config)
    try harness.add(
      Fixtures.photo(width: 1200, height: 800, seed: 7), as: "Photo@2x.jpg", format: .jpeg)
    try harness.add(
      Fixtures.photo(width: 1200, height: 800, seed: 8), as: "Big@2x.jpg", format: .jpeg)
    try harness.add(
      Fixtures.icon(width: 400, height: 400, seed: 2), as: "Icon@2x.png", format: .png)
    return harness
  }

  static func work(_ job: Job) -> [(Recipe, PlannedOutput)] {
    job.imageSets.flatMap { set in set.outputs.map { (set.recipe, $0) } }
  }

  @Test("one decode gives the bytes of two, copies included")
  func sameBytes() throws {
    let harness = try Self.folder()
    defer { harness.remove() }
    let plan = try BuildEngine(options: BuildOptions(folder: harness.folder)).plan()
    var twice = Renderer(folder: harness.folder)
    twice.sharesDecodes = false
    let once = Renderer(folder: harness.folder)
    #expect(plan.jobs.count == 3)
    for job in plan.jobs {
      let work = Self.work(job)
      #expect(work.contains { $0.1.mode == .copy } && work.contains { $0.1.mode != .copy })
      let a = twice.render(work, masters: job.source.allMasters)
      let b = once.render(work, masters: job.source.allMasters)
      #expect(a.problems.isEmpty && b.problems.isEmpty)
      #expect(a.files.count == work.count)
      #expect(a.files.map(\.output.path) == b.files.map(\.output.path))
      #expect(a.files.map(\.bytes) == b.files.map(\.bytes))
      #expect(a.files.map(\.hash) == b.files.map(\.hash))
    }
  }

  @Test("the shared decode is used when the resizes need the full size, not when a JPEG shrinks")
  func onlyWithoutShrinkOnLoad() throws {
    let harness = try Self.folder()
    defer { harness.remove() }
    let plan = try BuildEngine(options: BuildOptions(folder: harness.folder)).plan()
    let photo = try #require(
      plan.jobs.flatMap(\.source.allMasters).first { $0.path == "Photo@2x.jpg" })
    let bytes = Array(try Data(contentsOf: harness.folder.appendingPathComponent(photo.path)))
    let check = VerifiedCopy(master: photo, failOn: .warning)
    let full = try check.checkDecoding(
      bytes, resizes: [ResizeRequest(width: 900, height: 600)],
      limitInputPixels: 100_000_000, profile: .sRGB)
    #expect(full?.decoded.image.width == 1200 && full?.decoded.image.height == 800)
    #expect(full?.hash == photo.hash)
    // libjpeg-turbo decodes the bytes itself (the fast path), not through libvips' region.
    #expect(full?.decoded.decodesDirectly == true)
    // 300×200 needs a quarter of the photo: libjpeg would decode it shrunk.
    let shrunk = try check.checkDecoding(
      bytes, resizes: [ResizeRequest(width: 300, height: 200)],
      limitInputPixels: 100_000_000, profile: .sRGB)
    #expect(shrunk == nil)
  }

  @Test("the resizes are made from the bytes read for shipping, not from the file again")
  func decodesTheShippedBytes() throws {
    let harness = try Self.folder()
    defer { harness.remove() }
    let plan = try BuildEngine(options: BuildOptions(folder: harness.folder)).plan()
    let big = try #require(plan.jobs.flatMap(\.source.allMasters).first { $0.path == "Big@2x.jpg" })
    let url = harness.folder.appendingPathComponent(big.path)
    let bytes = Array(try Data(contentsOf: url))
    let opened = try #require(
      try VerifiedCopy(master: big, failOn: .warning).checkDecoding(
        bytes, resizes: [ResizeRequest(width: 900, height: 600)],
        limitInputPixels: 100_000_000, profile: .sRGB))
    // The file is replaced by a damaged one after it was read: the decode does not see it.
    try Data(bytes.prefix(bytes.count / 3)).write(to: url)
    var sizes: [Int] = []
    try opened.decoded.resize([ResizeRequest(width: 900, height: 600)]) {
      (_: [Int], image: VipsImage) throws(VipsError) in
      sizes.append(image.width)
      _ = try image.average()
    }
    #expect(sizes == [900])
  }

  @Test("a damaged master copied and resized ships nothing, and its problem names it")
  func damagedMaster() throws {
    for name in ["Photo@2x.jpg", "Big@2x.jpg", "Icon@2x.png"] {
      let harness = try Self.folder()
      defer { harness.remove() }
      let plan = try BuildEngine(options: BuildOptions(folder: harness.folder)).plan()
      let url = harness.folder.appendingPathComponent(name)
      let data = try Data(contentsOf: url)
      try data.prefix(data.count * 6 / 10).write(to: url)
      let job = try #require(plan.jobs.first { $0.source.allMasters.contains { $0.path == name } })
      let result = Renderer(folder: harness.folder).render(
        Self.work(job), masters: job.source.allMasters)
      #expect(result.files.isEmpty, "\(name): \(result.files.map(\.output.path))")
      #expect(result.problems.map(\.path) == [name], "\(result.problems)")
    }
  }
}
