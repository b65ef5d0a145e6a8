import Foundation
import Testing
import ThumbForgeTestSupport
import Vips

@testable import ThumbForge
@testable import ThumbForgeCatalog
@testable import ThumbForgeConfig
@testable import ThumbForgePlanning

/// `display-gamut: [sRGB, display-P3]`: Display P3 files beside the sRGB ones for masters
/// whose profile reaches beyond sRGB, in Xcode's gamut slots; none for sRGB masters.
@Suite("Display gamut")
struct DisplayGamutTests {
  static let config = """
    display-gamut: [sRGB, display-P3]
    rules: [{ match: "**", recipes: [variants, fill] }]
    recipes:
      fill: { size: [40, 30], scales: [2, 3] }

    """

  /// A saturated picture whose greens and reds lie outside sRGB once made in Display P3.
  static func picture() throws -> VipsImage {
    let base = try Fixtures.gradient(width: 180, height: 120)
    let green = try VipsImage.pixels(
      Array(repeating: [10, 235, 30], count: 60 * 40).flatMap { $0 }, width: 60, height: 40,
      bands: 3)
    return try base.composite(green.addingAlpha(), x: 60, y: 40).extractBand(0, count: 3)
      .copiedToMemory()
  }

  @Test("wide-gamut masters get P3 files with the P3 profile; sRGB masters a plain imageset")
  func planAndRender() throws {
    let harness = try RenderHarness(config: Self.config)
    defer { harness.remove() }
    let picture = try Self.picture()
    // The picture's numbers read as Display P3: its green (10, 235, 30) is outside sRGB.
    let p3Profile = try #require(try Fixtures.displayP3(picture).iccProfile)
    let wideMaster = try picture.settingBlob("icc-profile-data", p3Profile)
    // A Display P3 PNG, a 16-bit ProPhoto PNG with its dark appearance untagged, an sRGB
    // JPEG with an sRGB profile, and an untagged one.
    try harness.add(wideMaster, as: "Wide@3x.png", format: .png, keepMetadata: true)
    try harness.add(
      Fixtures.proPhoto(picture, folder: harness.folder.deletingLastPathComponent()),
      as: "Pro@3x.png", format: .png, keepMetadata: true)
    try harness.add(picture, as: "Pro~dark@3x.png", format: .png)
    try harness.add(
      picture.iccTransformed(to: "srgb"), as: "Tagged@3x.jpg", format: .jpeg, keepMetadata: true)
    try harness.add(picture, as: "Plain@3x.jpg", format: .jpeg)
    let (plan, images, problems) = try harness.render()
    #expect(problems.isEmpty, "\(problems)")
    let sets = Dictionary(
      uniqueKeysWithValues: plan.jobs.flatMap(\.imageSets).map { ($0.name, $0) })

    for name in ["Tagged", "Tagged-fill", "Plain", "Plain-fill"] {
      let set = try #require(sets[name])
      #expect(set.outputs.allSatisfy { $0.slot.gamut == .sRGB }, "\(name)")
      #expect(!set.contents.contains("display-gamut"), "\(name)")
    }
    for name in ["Wide", "Wide-fill", "Pro", "Pro-fill"] {
      try Self.checkP3Files(of: try #require(sets[name]), images: images, profile: p3Profile)
    }
    // Where the master is Display P3, the P3 file keeps its colours; the sRGB file clips the
    // saturated green (P3 10, 235, 30) to another colour.
    let wide = try #require(images["Wide.imageset/Wide~P3@3x.png"])
    let plain = try #require(images["Wide.imageset/Wide@3x.png"])
    let kept = try wide.pixel(x: 90, y: 60)
    #expect(zip(kept, [10, 235, 30]).allSatisfy { abs($0 - $1) <= 2 }, "\(kept)")
    let clipped = try plain.pixel(x: 90, y: 60)
    #expect(zip(clipped, [10, 235, 30]).contains { abs($0 - $1) > 15 }, "\(clipped)")
  }

  /// A wide-gamut master's imageset: a Display P3 file beside each any-appearance sRGB one,
  /// same size and crop, with the P3 profile, showing the same picture.
  static func checkP3Files(of set: PlannedImageSet, images: [String: VipsImage], profile: [UInt8])
    throws
  {
    let name = set.name
    let p3 = set.outputs.filter { $0.slot.gamut == .displayP3 }
    let srgb = set.outputs.filter { $0.slot.gamut == .sRGB }
    // The untagged dark master of Pro is sRGB: its dark slots have no P3 file.
    #expect(p3.count == 2 && srgb.count == (name.hasPrefix("Pro") ? 4 : 2), "\(name)")
    #expect(
      p3.allSatisfy { $0.slot.appearance == .any && $0.fileName.contains("~P3@") }, "\(name)")
    #expect(set.contents.contains("\"display-gamut\" : \"display-P3\""), "\(name)")
    for output in p3 {
      let sibling = try #require(
        srgb.first { $0.scale == output.scale && $0.slot.appearance == .any })
      #expect(output.pixelSize == sibling.pixelSize && output.crop == sibling.crop)
      let wide = try #require(images[output.path])
      let plain = try #require(images[sibling.path])
      #expect(wide.hasICCProfile && !plain.hasICCProfile, "\(output.path)")
      #expect(wide.iccProfile == profile)
      // The same picture: the P3 file shown in sRGB matches the sRGB file (up to the
      // edges of colours outside sRGB, resized before or after clipping, and the sRGB
      // profile's perceptual tables, which map ProPhoto's gamut otherwise than P3's).
      let comparison = try ImageComparison(plain, wide.toSRGB8())
      #expect(
        comparison.meanDifference < 2.5 && comparison.hashDistance <= 2,
        "\(output.path): \(comparison)")
    }

  }

  @Test("the catalog: Xcode's gamut slots, the manifest's display-P3 files, the same bytes again")
  func buildWritesGamutSlots() throws {
    let harness = try RenderHarness(
      config: "display-gamut: [sRGB, display-P3]\nscales: [2]\nmaster-scale: 2\n")
    defer { harness.remove() }
    try harness.add(
      Fixtures.displayP3(Self.picture()), as: "Aspen.jpg", format: .jpeg, keepMetadata: true)
    var options = BuildOptions(folder: harness.folder)
    options.jobs = 1
    let engine = try BuildEngine(options: options)
    let report = try engine.run()
    #expect(report.problems.isEmpty && report.failed == 0)
    let catalog = engine.workspace.catalog
    let contents = try String(
      contentsOf: catalog.appendingPathComponent("Aspen.imageset/Contents.json"), encoding: .utf8)
    #expect(
      contents == Self.aspenGamutSlots)
    let manifest = try #require(try ManifestStore.read(at: engine.workspace.manifest))
    let outputs = manifest.imageSets.flatMap(\.outputs)
    #expect(
      outputs.map(\.path) == ["Aspen.imageset/Aspen@2x.jpg", "Aspen.imageset/Aspen~P3@2x.jpg"])
    #expect(outputs.map(\.displayGamut) == [nil, "display-P3"])
    let jpeg = try VipsImage.load(path: catalog.appendingPathComponent(outputs[1].path).path)
    #expect(jpeg.hasICCProfile, "the P3 JPEG carries its profile")
    #expect(jpeg.width == 180 && jpeg.height == 120)
    // A forced rebuild writes the same bytes; check then finds nothing stale.
    options.mode = .force
    _ = try BuildEngine(options: options).run()
    let again = try #require(try ManifestStore.read(at: engine.workspace.manifest))
    #expect(again.imageSets.flatMap(\.outputs).map(\.hash) == outputs.map(\.hash))
    options.mode = .check
    #expect(try BuildEngine(options: options).run().exitCode == 0)
    // Turning P3 off removes the P3 file and the gamut slots.
    try Data("output: ../out/Assets.xcassets\nscales: [2]\nmaster-scale: 2\n".utf8)
      .write(to: harness.folder.appendingPathComponent("thumbforge.yml"))
    options.mode = .build
    _ = try BuildEngine(options: options).run()
    #expect(
      !FileManager.default.fileExists(
        atPath: catalog.appendingPathComponent("Aspen.imageset/Aspen~P3@2x.jpg").path))
  }

  /// `Aspen`'s `Contents.json`: sRGB and Display P3 slots of scales 1–3, files at 2x.
  static let aspenGamutSlots = """
    {
      "images" : [
        {
          "display-gamut" : "sRGB",
          "idiom" : "universal",
          "scale" : "1x"
        },
        {
          "display-gamut" : "display-P3",
          "idiom" : "universal",
          "scale" : "1x"
        },
        {
          "display-gamut" : "sRGB",
          "filename" : "Aspen@2x.jpg",
          "idiom" : "universal",
          "scale" : "2x"
        },
        {
          "display-gamut" : "display-P3",
          "filename" : "Aspen~P3@2x.jpg",
          "idiom" : "universal",
          "scale" : "2x"
        },
        {
          "display-gamut" : "sRGB",
          "idiom" : "universal",
          "scale" : "3x"
        },
        {
          "display-gamut" : "display-P3",
          "idiom" : "universal",
          "scale" : "3x"
        }
      ],
      "info" : {
        "author" : "xcode",
        "version" : 1
      }
    }

    """

  @Test("display-gamut lists sRGB; it applies to image sets, not app icons")
  func configuration() throws {
    let config = try ConfigLoader.parse(
      "display-gamut: [display-P3, sRGB]\nrecipes:\n  tile: { display-gamut: [sRGB] }\n",
      file: "t.yml")
    #expect(config.recipes["fill"]?.displayGamut == [.sRGB, .displayP3])
    #expect(config.recipes["tile"]?.displayGamut == [.sRGB])
    #expect(config.recipes["appicon"]?.displayGamut == [.sRGB])
    for (bad, message) in [
      ("display-gamut: [display-P3]\n", "t.yml:1: display-gamut: list sRGB too"),
      ("display-gamut: [sRGB, P3]\n", "t.yml:1: display-gamut[1]"),
      ("recipes:\n  appicon: { display-gamut: [sRGB] }\n", "does not apply to appicon"),
    ] {
      #expect {
        try ConfigLoader.parse(bad, file: "t.yml")
      } throws: { error in
        "\(error)".contains(message)
      }
    }
  }
}
