import Foundation
import Testing
import Vips

@testable import ThumbForge
@testable import ThumbForgeBasics
@testable import ThumbForgeCatalog
@testable import ThumbForgeConfig
@testable import ThumbForgePlanning

/// What the renderer does after the resize is planned once per output (``OutputFinish``), and
/// the manifest records the crop a smart crop actually cut.
@Suite("Output finish planned, smart crops recorded")
struct OutputFinishTests {
  static let config = """
    rules: [{ match: "**", recipes: [smart, north, boxed, flag, variants] }]
    recipes:
      smart: { kind: fill, size: [100, 60], gravity: attention, scales: [2] }
      north: { kind: fill, size: [100, 60], gravity: north, scales: [2] }
      boxed: { kind: fit, size: [100, 100], pad: true, background: "#FF000080", scales: [2] }
      variants: { format: jpeg, scales: [1] }

    """

  /// A large photo (shrunk by every box) and a small icon with alpha (enlarged by them).
  static func harness() throws -> RenderHarness {
    let harness = try RenderHarness(config: config)
    try harness.add(TestImages.photo(width: 900, height: 450), as: "Photo@3x.jpg", format: .jpeg)
    try harness.add(
      TestImages.photo(width: 60, height: 40).addingAlpha(), as: "Icon@1x.png", format: .png)
    return harness
  }

  static func output(_ plan: BuildPlan, _ folder: String) throws -> PlannedOutput {
    let set = try #require(plan.jobs.flatMap(\.imageSets).first { $0.folder == folder })
    return try #require(set.outputs.first)
  }

  @Test("each recipe's finish is decided in the plan")
  func planned() throws {
    let harness = try Self.harness()
    defer { harness.remove() }
    let plan = try BuildEngine(options: BuildOptions(folder: harness.folder)).plan()
    let box = PixelSize(width: 200, height: 120)
    // Smart: after the resize when it shrinks, before it (on the master) when it enlarges.
    #expect(
      try Self.output(plan, "Photo-smart.imageset").finish.cut
        == .smart(interesting: .attention, box: box, beforeResize: false))
    #expect(
      try Self.output(plan, "Icon-smart.imageset").finish.cut
        == .smart(interesting: .attention, box: box, beforeResize: true))
    // A compass point is a planned rectangle, cut with the resize.
    let north = try Self.output(plan, "Photo-north.imageset")
    #expect(north.finish.cut == .none && north.crop?.y == 0)
    #expect(
      try Self.output(plan, "Photo-boxed.imageset").finish.cut
        == .pad(
          canvas: PixelSize(width: 200, height: 200),
          background: RGBAColor(red: 255, green: 0, blue: 0, alpha: 128)))
    let flag = try Self.output(plan, "Photo-flag.imageset")
    #expect(flag.finish.shape?.radius == 10 && flag.finish.flatten == nil)
    #expect(try Self.output(plan, "Photo-smart.imageset").finish.shape == nil)
    // A JPEG of a master with alpha is flattened onto the recipe's background.
    #expect(try Self.output(plan, "Icon.imageset").finish.flatten == .white)
    #expect(try Self.output(plan, "Photo.imageset").finish.flatten == .white)
  }

  @Test("the manifest records where a smart crop cut, shrinking or enlarging")
  func recorded() throws {
    let harness = try Self.harness()
    defer { harness.remove() }
    var options = BuildOptions(folder: harness.folder)
    options.jobs = 1
    let engine = try BuildEngine(options: options)
    let report = try engine.run()
    #expect(report.problems.isEmpty)
    let manifest = try #require(try ManifestStore.read(at: engine.workspace.manifest))
    let outputs = Dictionary(
      manifest.imageSets.flatMap(\.outputs).map { ($0.path, $0) }, uniquingKeysWith: { a, _ in a })
    let plan = engine.plan()
    for name in ["Photo", "Icon"] {
      let planned = try Self.output(plan, "\(name)-smart.imageset")
      let crop = try #require(outputs[planned.path]?.crop, "\(name): no crop recorded")
      #expect(crop.width == 200 && crop.height == 120)
      #expect(crop.x + crop.width <= planned.resizeTo.width)
      #expect(crop.y + crop.height <= planned.resizeTo.height)
    }
    // The recorded rectangle is where the pixels came from: the master resized by libvips
    // alone and cut there matches the output, and cut elsewhere does not.
    let planned = try Self.output(plan, "Photo-smart.imageset")
    let crop = try #require(outputs[planned.path]?.crop)
    let master = try VipsImage.load(
      path: harness.folder.appendingPathComponent("Photo@3x.jpg").path)
    let reference = try master.resize(
      width: planned.resizeTo.width, height: planned.resizeTo.height)
    let written = try VipsImage.load(
      path: engine.workspace.catalog.appendingPathComponent(planned.path).path)
    let there = try reference.crop(x: crop.x, y: crop.y, width: crop.width, height: crop.height)
    #expect(try TestImages.meanDifference(there, written) < 3)
    let other = crop.x > 0 ? 0 : planned.resizeTo.width - crop.width
    let elsewhere = try reference.crop(x: other, y: crop.y, width: crop.width, height: crop.height)
    #expect(try TestImages.meanDifference(elsewhere, written) > 10)
    // A rebuild finds everything up to date and keeps the record.
    let again = try engine.run()
    #expect(again.rendered == 0)
    #expect(try ManifestStore.read(at: engine.workspace.manifest) == manifest)
  }
}
