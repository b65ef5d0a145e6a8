import Foundation
import Testing
import Vips

@testable import ThumbForge
@testable import ThumbForgeConfig
@testable import ThumbForgePlanning

@Suite("AVIF outputs: planning and the unavailable-encoder error")
struct AVIFPlanningTests {
  static let config = """
    rules:
      - match: "Resorts/**"
        recipes: [hero]
    recipes:
      hero: { kind: fill, size: [100, 50], format: avif }

    """

  @Test("without an AV1 encoder: one line naming the recipe and saying why")
  func unavailable() throws {
    let planner = Planner(
      config: try ConfigLoader.parse(Self.config, file: "t.yml"), vipsVersion: "8.14.1",
      savableFormats: [.png, .jpeg, .webp, .heif],
      unsavableReasons: [.avif: "libheif has no AV1 encoder"])
    let plan = planner.plan([PlannerTests.photoSource])
    #expect(plan.jobs.isEmpty)
    #expect(plan.problems.count == 1)
    #expect(
      plan.problems.first?.reason
        == "recipe 'hero': AVIF encoding is unavailable: libheif has no AV1 encoder")
  }

  @Test("with one: .avif files of the recipe")
  func planned() throws {
    let planner = Planner(
      config: try ConfigLoader.parse(Self.config, file: "t.yml"), vipsVersion: "8.14.1",
      savableFormats: [.png, .jpeg, .avif])
    let plan = planner.plan([PlannerTests.photoSource])
    #expect(plan.problems.isEmpty)
    let set = try #require(plan.jobs.first?.imageSets.first)
    #expect(set.outputs.map(\.fileName) == ["les-arcs@2x.avif", "les-arcs@3x.avif"])
    #expect(set.outputs.allSatisfy { $0.format == .avif })
  }

  @Test("this machine: canSave(.avif) is what an actual AVIF encode does, with a reason when not")
  func probe() throws {
    // Independent of the probe: encode a tiny image and look at what comes out.
    let image = try VipsImage.solid(width: 16, height: 16, color: [200, 40, 90])
    let encoded = try? image.encoded(as: .avif, options: SaveOptions(quality: 50))
    let isAVIF = encoded.map { $0.count > 12 && Array($0[4..<12]) == Array("ftypavif".utf8) }
    #expect(Vips.canSave(.avif) == (isAVIF == true), "encode gave \(encoded?.count ?? -1) bytes")
    #expect((Vips.avifUnavailableReason == nil) == Vips.canSave(.avif))
    if let reason = Vips.avifUnavailableReason { #expect(!reason.isEmpty) }
  }
}
