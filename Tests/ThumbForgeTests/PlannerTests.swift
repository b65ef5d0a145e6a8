import Foundation
import Testing
import Vips

@testable import ThumbForge
@testable import ThumbForgeBasics
@testable import ThumbForgeConfig
@testable import ThumbForgePlanning

@Suite("Planner")
struct PlannerTests {
  static func master(
    _ path: String, _ scale: Int?, _ width: Int, _ height: Int, alpha: Bool = false
  ) -> Master {
    let ext = String(path.split(separator: ".").last!)
    return Master(
      path: path, scale: scale, isVector: scale == nil, isDark: path.contains("~dark"),
      fileExtension: ext,
      pixelSize: PixelSize(width: width, height: height), hasAlpha: alpha || scale == nil,
      isPlainSRGB: true,
      hash: "h-\(path)")
  }

  static let flagSource = AssetSource(
    group: ["Flags"], name: "Italy",
    masters: [master("Flags/Italy@2x.png", 2, 400, 200), master("Flags/Italy@3x.png", 3, 600, 300)])
  static let photoSource = AssetSource(
    group: ["Resorts"], name: "les-arcs",
    masters: [master("Resorts/les-arcs@2x.jpg", 2, 2048, 1024)])
  static let vectorSource = AssetSource(
    group: [], name: "Mountain", masters: [master("Mountain.svg", nil, 24, 24)])

  func planner(_ yaml: String = "") throws -> Planner {
    Planner(
      config: try ConfigLoader.parse(yaml, file: "t.yml"), vipsVersion: "8.14.1",
      savableFormats: [.png, .jpeg, .webp])
  }

  @Test("variants: per-scale masters are copied; a photo's 3x would upscale and is skipped")
  func variants() throws {
    let plan = try planner("scales: [1, 2, 3]").plan([Self.flagSource, Self.photoSource])
    let flag = try #require(plan.jobs.first { $0.source.name == "Italy" }?.imageSets.first)
    #expect(flag.folder == "Flags/Italy.imageset")
    #expect(flag.outputs.map(\.scale) == [1, 2, 3])
    #expect(flag.outputs.map(\.mode) == [.render, .copy, .copy])
    #expect(flag.outputs[0].pixelSize == PixelSize(width: 200, height: 100))
    #expect(flag.outputs[0].master == "Flags/Italy@3x.png")
    #expect(flag.outputs.map(\.fileName) == ["Italy@1x.png", "Italy@2x.png", "Italy@3x.png"])
    let photo = try #require(plan.jobs.first { $0.source.name == "les-arcs" }?.imageSets.first)
    #expect(photo.outputs.map(\.scale) == [1, 2])
    #expect(photo.outputs.map(\.format) == [.jpeg, .jpeg])
    #expect(photo.skipped.count == 1 && photo.skipped[0].contains("@3x"))
  }

  @Test("vector masters render at exactly each scale")
  func vectors() throws {
    let plan = try planner("scales: [1, 2, 3]").plan([Self.vectorSource])
    let set = try #require(plan.jobs.first?.imageSets.first)
    #expect(
      set.outputs.map(\.pixelSize) == [1, 2, 3].map { PixelSize(width: 24 * $0, height: 24 * $0) })
    #expect(set.outputs.allSatisfy { $0.mode == .render && $0.format == .png })
  }

  @Test("flag and tile: fill to the box, crop at the centre, PNG for flags")
  func boxed() throws {
    let plan = try planner(
      """
      rules: [{ match: "**", recipes: [flag, tile] }]
      recipes: { tile: { upscale: never } }
      """
    ).plan([Self.flagSource, Self.photoSource])
    let italy = try #require(plan.jobs.first { $0.source.name == "Italy" })
    let flag = italy.imageSets[0]
    #expect(flag.folder == "Flags/Italy-flag.imageset")
    #expect(
      flag.outputs.map(\.pixelSize) == [
        PixelSize(width: 80, height: 50), PixelSize(width: 120, height: 75),
      ])
    #expect(flag.outputs[0].resizeTo == PixelSize(width: 100, height: 50))
    #expect(flag.outputs[0].crop == PixelRect(x: 10, y: 0, width: 80, height: 50))
    #expect(flag.outputs.allSatisfy { $0.format == .png && $0.master == "Flags/Italy@3x.png" })
    // A 600x300 master cannot fill 900x900 without enlarging: upscale: never skips it.
    let tile = italy.imageSets[1]
    #expect(tile.outputs.isEmpty && tile.skipped.count == 2)
    let photoTile = try #require(plan.jobs.first { $0.source.name == "les-arcs" }?.imageSets[1])
    #expect(
      photoTile.outputs.map(\.pixelSize) == [
        PixelSize(width: 600, height: 600), PixelSize(width: 900, height: 900),
      ])
    #expect(photoTile.outputs.allSatisfy { $0.format == .jpeg })
  }

  @Test("upscale: warn renders and reports the factor")
  func upscaleWarn() throws {
    let plan = try planner("rules: [{ match: \"**\", recipes: [tile] }]").plan([Self.flagSource])
    let tile = try #require(plan.jobs.first?.imageSets.first)
    #expect(tile.outputs.count == 2 && tile.warnings.count == 2)
    #expect(tile.outputs[1].upscale.map { $0 > 2.9 } == true)
    #expect(tile.warnings[1].contains("enlarges Flags/Italy@3x.png"))
  }

  @Test(
    "upscale: keep never enlarges: fit keeps the master's size, fill and tile its largest centred crop of the box's aspect",
    arguments: ["fit", "fill", "tile"])
  func upscaleKeep(kind: String) throws {
    // 300×200 px at 3x is 100×67 pt: too small for a 200×200 pt box at 2x and 3x, big
    // enough for a 50×50 pt one.
    let small = AssetSource(
      group: [], name: "Small", masters: [Self.master("Small.jpg", 3, 300, 200)])
    let plan = try planner(
      """
      rules: [{ match: "**", recipes: [big, little] }]
      recipes:
        big: { kind: \(kind), size: [200, 200], scales: [2, 3], upscale: keep }
        little: { kind: \(kind), size: [50, 50], scales: [2, 3], upscale: keep }
      """
    ).plan([small])
    let job = try #require(plan.jobs.first)
    let big = try #require(job.imageSets.first { $0.recipe.name == "big" })
    let expected =
      kind == "fit" ? PixelSize(width: 300, height: 200) : PixelSize(width: 200, height: 200)
    #expect(big.outputs.map(\.pixelSize) == [expected, expected])
    #expect(big.outputs.allSatisfy { $0.resizeTo == PixelSize(width: 300, height: 200) })
    #expect(big.outputs.allSatisfy { $0.upscale == nil })
    if kind != "fit" {
      #expect(big.outputs.allSatisfy { $0.crop == PixelRect(x: 50, y: 0, width: 200, height: 200) })
    }
    #expect(big.warnings.count == 2 && big.warnings[0].contains("kept at"), "\(big.warnings)")
    #expect(big.skipped.isEmpty)
    // A master large enough is resized as with any other policy.
    let little = try #require(job.imageSets.first { $0.recipe.name == "little" })
    #expect(
      little.outputs.map(\.pixelSize) == [
        kind == "fit" ? PixelSize(width: 100, height: 67) : PixelSize(width: 100, height: 100),
        kind == "fit" ? PixelSize(width: 150, height: 100) : PixelSize(width: 150, height: 150),
      ])
    #expect(little.warnings.isEmpty)
  }

  @Test("fit with pad gives exactly the box; without pad the scaled image")
  func fit() throws {
    let plan = try planner(
      """
      rules: [{ match: "**", recipes: [fit, padded] }]
      recipes:
        fit: { size: [300, 300], scales: [2] }
        padded: { kind: fit, size: [300, 300], scales: [2], pad: true }
      """
    ).plan([Self.photoSource])
    let sets = try #require(plan.jobs.first?.imageSets)
    #expect(sets[0].outputs[0].pixelSize == PixelSize(width: 600, height: 300))
    #expect(sets[1].outputs[0].pixelSize == PixelSize(width: 600, height: 600))
    #expect(sets[1].outputs[0].resizeTo == PixelSize(width: 600, height: 300))
  }

  @Test("the same imageset name from two groups is an error unless namespaced")
  func nameClash() throws {
    let other = AssetSource(
      group: ["Other"], name: "Italy", masters: [Self.master("Other/Italy@2x.png", 2, 400, 200)])
    let plan = try planner().plan([Self.flagSource, other])
    #expect(plan.jobs.count == 1)
    #expect(plan.problems.count == 1 && plan.problems[0].reason.contains("Flags/Italy@2x.png"))
    let namespaced = try planner("provides-namespace: true").plan([Self.flagSource, other])
    #expect(namespaced.jobs.count == 2 && namespaced.problems.isEmpty)
  }

  @Test(
    "a clash across groups advises provides-namespace; nothing of the clashing asset is planned")
  func nameClashAcrossGroups() throws {
    let other = AssetSource(
      group: ["Other"], name: "Italy", masters: [Self.master("Other/Italy@2x.png", 2, 400, 200)])
    let yaml = """
      rules:
        - match: "Other/**"
          recipes: [variants, fill]

      """
    let plan = try planner(yaml).plan([Self.flagSource, other])
    // Other/Italy's fill imageset has a name of its own, but the asset is not half-written.
    #expect(plan.jobs.map(\.source.qualifiedName) == ["Flags/Italy"])
    #expect(plan.problems.count == 1)
    let reason = try #require(plan.problems.first?.reason)
    #expect(plan.problems.first?.path == "Other/Italy@2x.png")
    #expect(reason.contains("set provides-namespace: true"), "\(reason)")
    #expect(reason.contains("nothing of Other/Italy is written until then"), "\(reason)")
    // The advice fixes it.
    let fixed = try planner(yaml + "provides-namespace: true\n").plan([Self.flagSource, other])
    #expect(fixed.problems.isEmpty && fixed.jobs.count == 2)
  }

  @Test("a clash within one group advises renaming a file, not provides-namespace")
  func nameClashWithinGroup() throws {
    let logo = AssetSource(
      group: ["Icons"], name: "Logo", masters: [Self.master("Icons/Logo@2x.png", 2, 400, 400)])
    let logoFill = AssetSource(
      group: ["Icons"], name: "Logo-fill",
      masters: [Self.master("Icons/Logo-fill@2x.png", 2, 400, 400)])
    let yaml = """
      rules:
        - match: "Icons/Logo@*"
          recipes: [variants, fill]

      """
    for namespaced in [false, true] {
      let plan = try planner(yaml + "provides-namespace: \(namespaced)\n").plan([logoFill, logo])
      #expect(plan.jobs.map(\.source.qualifiedName) == ["Icons/Logo"])
      let reason = try #require(plan.problems.first?.reason)
      #expect(plan.problems.count == 1 && plan.problems[0].path == "Icons/Logo-fill@2x.png")
      #expect(reason.contains("rename Logo-fill@2x.png or Logo@2x.png"), "\(reason)")
      #expect(!reason.contains("provides-namespace"), "\(reason)")
    }
    // Renaming the file (another asset name) fixes it.
    let renamed = AssetSource(
      group: ["Icons"], name: "LogoFilled",
      masters: [Self.master("Icons/LogoFilled@2x.png", 2, 400, 400)])
    let fixed = try planner(yaml).plan([renamed, logo])
    #expect(fixed.problems.isEmpty && fixed.jobs.count == 2)
  }

  @Test("a recipe hash changes with any parameter, and only then")
  func recipeHash() throws {
    let a = try planner("rules: [{ match: \"**\", recipes: [flag] }]").plan([Self.flagSource])
    let b = try planner("rules: [{ match: \"**\", recipes: [flag] }]").plan([Self.flagSource])
    let c = try planner(
      "rules: [{ match: \"**\", recipes: [flag] }]\nrecipes: { flag: { radius: 4 } }"
    ).plan([Self.flagSource])
    #expect(a.jobs[0].imageSets[0].key == b.jobs[0].imageSets[0].key)
    #expect(a.jobs[0].imageSets[0].key != c.jobs[0].imageSets[0].key)
  }

  @Test("centre-aligned strokes grow the canvas by the stroke width")
  func centreStroke() throws {
    let plan = try planner(
      "rules: [{ match: \"**\", recipes: [flag] }]\nrecipes: { flag: { stroke-alignment: center } }"
    )
    .plan([Self.flagSource])
    #expect(
      plan.jobs[0].imageSets[0].outputs.map(\.pixelSize) == [
        PixelSize(width: 82, height: 52), PixelSize(width: 123, height: 78),
      ])
  }
}

@Suite("Vector masters kept as vectors")
struct KeptVectorTests {
  @Test("keep-vector ships the SVG as one single-scale image with preserves-vector-representation")
  func keepVector() throws {
    let config = try ConfigLoader.parse(
      "recipes: { variants: { keep-vector: true } }", file: "t.yml")
    let plan = Planner(config: config, vipsVersion: "8.14.1", savableFormats: [.png]).plan([
      PlannerTests.vectorSource
    ])
    let set = try #require(plan.jobs.first?.imageSets.first)
    #expect(set.outputs.count == 1)
    #expect(
      set.outputs[0].fileName == "Mountain.svg" && set.outputs[0].mode == .copy
        && set.outputs[0].scale == 0)
    #expect(
      set.contents == """
        {
          "images" : [
            {
              "filename" : "Mountain.svg",
              "idiom" : "universal"
            }
          ],
          "info" : {
            "author" : "xcode",
            "version" : 1
          },
          "properties" : {
            "preserves-vector-representation" : true
          }
        }

        """)
  }
}
