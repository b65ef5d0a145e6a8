import Foundation
import Testing
import Vips

@testable import ThumbForge
@testable import ThumbForgeBasics
@testable import ThumbForgeConfig
@testable import ThumbForgePlanning

/// The real SnowSeeker asset folder, beside the project (`../shared/corpus/snowseeker`).
enum SnowSeekerCorpus {
  static var images: URL? {
    var url = URL(fileURLWithPath: #filePath)
    for _ in 0..<3 { url.deleteLastPathComponent() }
    let images = url.deletingLastPathComponent().appendingPathComponent(
      "shared/corpus/snowseeker/Images")
    return FileManager.default.fileExists(atPath: images.path) ? images : nil
  }
}

@Suite("SnowSeeker corpus")
struct SnowSeekerCorpusTests {
  @Test(
    "every flag and photo through every applicable recipe",
    .enabled(if: SnowSeekerCorpus.images != nil, "../shared/corpus/snowseeker is absent; skipped"))
  func corpus() throws {
    let source = try #require(SnowSeekerCorpus.images)
    let harness = try RenderHarness(
      config: """
        scales: [1, 2, 3]
        rules:
          - match: "Flags/*.png"
            recipes: [variants, flag, tile]
          - match: "Resorts/*.jpg"
            recipes: [variants, fit, fill, tile]
        recipes:
          fit: { size: [390, 260] }
          fill: { size: [390, 120], gravity: attention }
          tile: { upscale: allow }
        """)
    defer { harness.remove() }
    let files = try FileManager.default.contentsOfDirectory(atPath: source.path)
    for name in files {
      let group = name.hasSuffix(".png") ? "Flags" : "Resorts"
      let target = harness.folder.appendingPathComponent(group)
      try FileManager.default.createDirectory(at: target, withIntermediateDirectories: true)
      try FileManager.default.copyItem(
        at: source.appendingPathComponent(name), to: target.appendingPathComponent(name))
    }
    let (plan, images, problems) = try harness.render()
    #expect(problems.isEmpty, "\(problems)")
    #expect(plan.jobs.count == 5 + 12)
    var checked = 0
    for job in plan.jobs {
      for set in job.imageSets {
        for output in set.outputs {
          let image = try #require(images[output.path], "\(output.path) not rendered")
          #expect(
            image.width == output.pixelSize.width && image.height == output.pixelSize.height,
            "\(output.path)")
          if set.recipe.kind == .flag {
            #expect(image.hasAlpha, "\(output.path)")
            #expect(try image.pixel(x: 0, y: 0)[3] == 0, "\(output.path)")
          }
          checked += 1
        }
      }
    }
    // Flags: variants 1x (from 3x), the per-scale masters at 2x/3x copied without their XMP
    // (never re-encoded), flag 2x/3x (80x50, 120x75).
    let canada = try #require(plan.jobs.first { $0.source.name == "Canada" })
    #expect(canada.imageSets[0].outputs.map(\.mode) == [.render, .copy, .copy])
    #expect(try #require(images["Flags/Canada.imageset/Canada@3x.png"]).hasMetadata == false)
    #expect(
      canada.imageSets[1].outputs.map(\.pixelSize)
        == [40, 80, 120].map { PixelSize(width: $0, height: $0 * 5 / 8) })
    // Photos have only a 2x master: their 3x variant is skipped, never upscaled.
    let arcs = try #require(plan.jobs.first { $0.source.name == "les-arcs" })
    #expect(
      arcs.imageSets[0].outputs.map(\.scale) == [1, 2] && arcs.imageSets[0].skipped.count == 1)
    // The palette-PNG Canada flag comes out as 8-bit sRGB.
    let canadaFlag = try #require(images["Flags/Canada-flag.imageset/Canada@3x.png"])
    #expect(canadaFlag.format == .uchar && canadaFlag.bands == 4)
    #expect(checked > 100)
  }
}
