import Foundation
import Testing
import Vips

@testable import ThumbForge
@testable import ThumbForgeCatalog
@testable import ThumbForgeConfig
@testable import ThumbForgePlanning

/// `kind: appicon`: the `.appiconset` Xcode 15+ writes (one universal iOS icon with dark and
/// tinted appearances) and the per-size set of Xcode 13, with exact `Contents.json` texts,
/// exact pixel sizes, and alpha only where the App Store allows it.
@Suite("App icon sets")
struct AppIconTests {
  static let rule = "rules: [{ match: \"AppIcon*\", recipes: [appicon] }]\n"

  /// A 1024×1024 master: a blue square on a transparent background, a red mark in the
  /// top-left corner (alpha, and where the crop is, are visible).
  static func master(side: Int = 1024, height: Int? = nil) throws -> VipsImage {
    let clear = try VipsImage.solid(width: side, height: height ?? side, color: [0, 0, 0, 0])
    let blue = try VipsImage.solid(width: side / 2, height: side / 2, color: [20, 60, 220, 255])
    let red = try VipsImage.solid(width: side / 8, height: side / 8, color: [230, 20, 20, 255])
    return try clear.composite(blue, x: side / 4, y: (height ?? side) / 4).composite(red)
      .copiedToMemory()
  }

  static let singleWithAppearances = """
    {
      "images" : [
        {
          "filename" : "AppIcon-1024.png",
          "idiom" : "universal",
          "platform" : "ios",
          "size" : "1024x1024"
        },
        {
          "appearances" : [
            {
              "appearance" : "luminosity",
              "value" : "dark"
            }
          ],
          "filename" : "AppIcon~dark-1024.png",
          "idiom" : "universal",
          "platform" : "ios",
          "size" : "1024x1024"
        },
        {
          "appearances" : [
            {
              "appearance" : "luminosity",
              "value" : "tinted"
            }
          ],
          "filename" : "AppIcon~tinted-1024.png",
          "idiom" : "universal",
          "platform" : "ios",
          "size" : "1024x1024"
        }
      ],
      "info" : {
        "author" : "xcode",
        "version" : 1
      }
    }

    """

  @Test("single size: Xcode 15+'s Contents.json with dark and tinted, opaque light icon")
  func singleSizeWithAppearances() throws {
    let harness = try RenderHarness(config: Self.rule)
    defer { harness.remove() }
    try harness.add(Self.master(), as: "AppIcon.png", format: .png)
    try harness.add(Self.master(), as: "AppIcon~dark.png", format: .png)
    try harness.add(Self.master(), as: "AppIcon~tinted.png", format: .png)
    let (plan, images, problems) = try harness.render()
    #expect(problems.isEmpty, "\(problems)")
    let set = try #require(plan.jobs.first?.imageSets.first)
    #expect(set.folder == "AppIcon.appiconset")
    #expect(set.contents == Self.singleWithAppearances)
    #expect(set.warnings.isEmpty, "\(set.warnings)")

    let light = try #require(images["AppIcon.appiconset/AppIcon-1024.png"])
    #expect(light.width == 1024 && light.height == 1024)
    #expect(!light.hasAlpha, "the App Store refuses an icon with alpha")
    #expect(try light.pixel(x: 1000, y: 1000) == [255, 255, 255], "flattened onto white")
    #expect(try light.pixel(x: 10, y: 10) == [230, 20, 20])
    let dark = try #require(images["AppIcon.appiconset/AppIcon~dark-1024.png"])
    #expect(dark.width == 1024 && dark.hasAlpha)
    #expect(try dark.pixel(x: 1000, y: 1000)[3] == 0, "dark icons may be transparent")
    let tinted = try #require(images["AppIcon.appiconset/AppIcon~tinted-1024.png"])
    #expect(tinted.width == 1024 && tinted.bands == 2 && tinted.interpretation == .bw)
    #expect(try tinted.pixel(x: 1000, y: 1000)[1] == 0)
  }

  @Test("single size without dark or tinted masters lists their slots empty, as Xcode 16 does")
  func singleSizeAlone() throws {
    let harness = try RenderHarness(
      config: Self.rule + "recipes: { appicon: { background: black } }\n")
    defer { harness.remove() }
    try harness.add(Self.master(), as: "AppIcon.png", format: .png)
    let (plan, images, problems) = try harness.render()
    #expect(problems.isEmpty, "\(problems)")
    let set = try #require(plan.jobs.first?.imageSets.first)
    let expected = Self.singleWithAppearances
      .replacing("      \"filename\" : \"AppIcon~dark-1024.png\",\n", with: "")
      .replacing("      \"filename\" : \"AppIcon~tinted-1024.png\",\n", with: "")
    #expect(set.contents == expected)
    #expect(images.keys.sorted() == ["AppIcon.appiconset/AppIcon-1024.png"])
    let light = try #require(images["AppIcon.appiconset/AppIcon-1024.png"])
    #expect(try light.pixel(x: 1000, y: 1000) == [0, 0, 0], "flattened onto `background`")
  }

  @Test("per-size iOS and Mac: Xcode's Contents.json, every icon at its exact pixel size")
  func perSize() throws {
    let harness = try RenderHarness(
      config: """
        rules: [{ match: "AppIcon*", recipes: [icons] }]
        recipes:
          icons: { kind: appicon, icon-layout: per-size, icon-platforms: [ios, macos] }

        """)
    defer { harness.remove() }
    try harness.add(Self.master(), as: "AppIcon.png", format: .png)
    try harness.add(Self.master(), as: "AppIcon~dark.png", format: .png)
    let (plan, images, problems) = try harness.render()
    #expect(problems.isEmpty, "\(problems)")
    let set = try #require(plan.jobs.first?.imageSets.first)
    let golden = URL(fileURLWithPath: #filePath).deletingLastPathComponent()
      .appendingPathComponent("Goldens/AppIcon-per-size-ios-macos.Contents.json")
    #expect(set.contents == (try String(contentsOf: golden, encoding: .utf8)))
    #expect(
      set.warnings == [
        "AppIcon~dark.png: only the single-size iOS icon has a dark appearance (icon-layout: single); not used"
      ])

    // Every slot's file has exactly the slot's points × scale pixels.
    let json = try #require(
      try JSONSerialization.jsonObject(with: Data(set.contents.utf8)) as? [String: Any])
    let slots = try #require(json["images"] as? [[String: String]])
    #expect(slots.count == 18 + 10)
    for slot in slots {
      let file = try #require(slot["filename"])
      let points = try #require(Double(slot["size"]!.split(separator: "x")[0]))
      let scale = try #require(Double(slot["scale"]!.dropLast()))
      let image = try #require(images["AppIcon.appiconset/" + file], "\(file)")
      let pixels = Int(points * scale)
      #expect(image.width == pixels && image.height == pixels, "\(file) for \(slot)")
      #expect(image.hasAlpha == (slot["idiom"] == "mac"), "\(file): alpha only on the Mac")
    }
    #expect(
      Set(images.values.map(\.width)).sorted() == [
        16, 20, 29, 32, 40, 58, 60, 64, 76, 80, 87, 120, 128, 152, 167, 180, 256, 512, 1024,
      ])
    // Small icons are the master scaled down, not cropped: the red mark stays in the corner.
    let small = try #require(images["AppIcon.appiconset/AppIcon-40.png"])
    let corner = try small.pixel(x: 2, y: 2)
    #expect(corner[0] > 200 && corner[2] < 60)
  }

  @Test("the slot table gives every icon's pixel size")
  func slotPixels() {
    #expect(
      AppIconSlot.slots(layout: .perSize, platforms: [.ios]).map(\.pixels) == [
        40, 60, 58, 87, 80, 120, 120, 180, 20, 40, 29, 58, 40, 80, 76, 152, 167, 1024,
      ])
    #expect(
      AppIconSlot.slots(layout: .single, platforms: [.macos]).map(\.pixels) == [
        16, 32, 32, 64, 128, 256, 256, 512, 512, 1024,
      ])
    #expect(
      AppIconSlot.slots(layout: .single, platforms: [.ios]).map(\.pixels) == [1024, 1024, 1024])
  }

  @Test("a master that is not square is centre-cropped; a small one is enlarged with a warning")
  func notSquareOrSmall() throws {
    let harness = try RenderHarness(config: Self.rule)
    defer { harness.remove() }
    try harness.add(
      VipsImage.solid(width: 900, height: 600, color: [10, 200, 10]), as: "AppIcon.png",
      format: .png)
    let (plan, images, problems) = try harness.render()
    #expect(problems.isEmpty, "\(problems)")
    let set = try #require(plan.jobs.first?.imageSets.first)
    #expect(
      set.warnings == [
        "AppIcon-1024.png: enlarges AppIcon.png (900x600) by 1.71x; App Store icons need a 1024x1024 master",
        "AppIcon.png is 900x600, not square; icons are its centred square crop",
      ])
    let icon = try #require(images["AppIcon.appiconset/AppIcon-1024.png"])
    #expect(icon.width == 1024 && icon.height == 1024)
    #expect(try icon.pixel(x: 512, y: 512) == [10, 200, 10])
  }

  @Test("tinted masters of other recipes are reported, not used; `~tinted` names an appearance")
  func tintedOutsideIcons() throws {
    let harness = try RenderHarness()
    defer { harness.remove() }
    try harness.add(Self.master(side: 300), as: "Logo@3x.png", format: .png)
    try harness.add(Self.master(side: 300), as: "Logo~tinted@3x.png", format: .png)
    let (plan, images, problems) = try harness.render()
    #expect(problems.isEmpty, "\(problems)")
    #expect(plan.jobs.count == 1)
    let set = try #require(plan.jobs.first?.imageSets.first)
    #expect(
      set.warnings == [
        "Logo~tinted@3x.png: only app icons (kind: appicon) have a tinted appearance; not used"
      ])
    #expect(images.keys.sorted() == ["Logo.imageset/Logo@2x.png", "Logo.imageset/Logo@3x.png"])
    #expect(MasterName(fileName: "AppIcon~tinted.png")?.isTinted == true)
    #expect(MasterName(fileName: "AppIcon~tinted.png")?.asset == "AppIcon")
  }

  @Test("app icon keys are checked: platforms, layout, and keys only imagesets take")
  func configErrors() throws {
    for (yaml, message) in [
      ("icon-platforms: []", "list at least one of: ios, macos"),
      ("icon-platforms: [ios, android]", "'android' is not one of: ios, macos"),
      ("icon-platforms: [ios, ios]", "'ios' is listed twice"),
      ("icon-layout: legacy", "'legacy' is not one of: single, per-size"),
      ("format: jpeg", "format"),
      ("scales: [2]", "scales"),
    ] {
      let text = "recipes:\n  icons: { kind: appicon, \(yaml) }\n"
      #expect(throws: ConfigError.self, "\(yaml)") {
        try ConfigLoader.parse(text, file: "thumbforge.yml")
      }
      do {
        _ = try ConfigLoader.parse(text, file: "thumbforge.yml")
      } catch {
        #expect("\(error)".contains(message), "\(yaml): \(error)")
      }
    }
    let config = try ConfigLoader.parse(
      "recipes:\n  icons: { kind: appicon, icon-platforms: [macos, ios] }\n", file: "thumbforge.yml"
    )
    #expect(config.recipes["icons"]?.iconPlatforms == [.ios, .macos])
    #expect(config.imageSetName(asset: "AppIcon", recipe: "icons") == "AppIcon")
  }
}
