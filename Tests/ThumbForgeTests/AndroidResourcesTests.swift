import Foundation
import Testing
import Vips

@testable import ThumbForge
@testable import ThumbForgeBasics
@testable import ThumbForgeCatalog
@testable import ThumbForgeConfig
@testable import ThumbForgePlanning
@testable import ThumbForgeRendering

/// `android:`: every imageset as drawables at each density up to its catalog file's scale,
/// dark art under `-night`, names valid and unique, read back at their planned sizes, checked
/// by `check` and removed when no longer planned. Scripts/android-check.sh compiles a real
/// build's `res` folder with `aapt`.
@Suite("Android resources")
struct AndroidResourcesTests {
  static let config = """
    master-scale: 2
    android:
      folder: ../out/android/res
    rules:
      - match: "Flags/*"
        recipes: [flag]

    """

  static func options(_ harness: RenderHarness) -> BuildOptions {
    var options = BuildOptions(folder: harness.folder)
    options.jobs = 2
    return options
  }

  @Test("names: accents dropped, lower case, `_` for the rest, never a digit first or a keyword")
  func names() {
    #expect(AndroidResourceName.make("Côte d'Ivoire-flag") == "cote_d_ivoire_flag")
    #expect(AndroidResourceName.make("United States") == "united_states")
    #expect(AndroidResourceName.make("les-arcs-tile") == "les_arcs_tile")
    #expect(AndroidResourceName.make("3D Logo") == "img_3d_logo")
    #expect(AndroidResourceName.make("New") == "img_new")
    #expect(AndroidResourceName.make("__--") == "img")
    #expect(AndroidResourceName.make("Ünïcödé_Naïve") == "unicode_naive")
    // Generated names: whatever the characters, a valid name.
    var random = SeededRandom(seed: 49)
    let alphabet = Array("aZ09_- .'@~éßØ日本\t\u{301}()+") + ["👍🏽"]
    for _ in 0..<2000 {
      let name = String(
        (0..<Int.random(in: 0...12, using: &random)).map { _ in
          alphabet.randomElement(using: &random)!
        })
      let made = AndroidResourceName.make(name)
      #expect(AndroidResourceName.isValid(made), "\(name.debugDescription) → \(made)")
      #expect(AndroidResourceName.make(made) == made, "not stable: \(made)")
    }
    for invalid in ["", "1a", "A", "a-b", "class", "é"] {
      #expect(!AndroidResourceName.isValid(invalid), "\(invalid)")
    }
  }

  @Test("a build writes each density up to the file's scale at dp × density, dark under -night")
  func build() throws {
    let harness = try RenderHarness(config: Self.config)
    defer { harness.remove() }
    // A 3x flag (40×25 pt), and a photo with dark art at 2x (120×80 pt).
    try harness.add(
      try TestImages.photo(width: 300, height: 200), as: "Flags/Côte d'Ivoire@3x.png",
      format: .png)
    try harness.add(
      try TestImages.photo(width: 240, height: 160), as: "Photos/Lake@2x.jpg", format: .jpeg)
    try harness.add(
      try TestImages.photo(width: 240, height: 160), as: "Photos/Lake~dark@2x.jpg", format: .jpeg)
    let engine = try BuildEngine(options: Self.options(harness))
    #expect(try engine.run().failed == 0)
    let base = engine.workspace.state.folder
    let res = try FileManager.default.subpathsOfDirectory(
      atPath: base.appendingPathComponent("android/res").path
    ).filter { $0.contains(".") }.sorted()
    #expect(
      res == [
        "drawable-hdpi/cote_d_ivoire_flag.png", "drawable-hdpi/lake.jpg",
        "drawable-mdpi/cote_d_ivoire_flag.png", "drawable-mdpi/lake.jpg",
        "drawable-night-hdpi/lake.jpg", "drawable-night-mdpi/lake.jpg",
        "drawable-night-xhdpi/lake.jpg", "drawable-xhdpi/cote_d_ivoire_flag.png",
        "drawable-xhdpi/lake.jpg", "drawable-xxhdpi/cote_d_ivoire_flag.png",
      ])
    let expected: [String: (Int, Int)] = [
      "mdpi/cote_d_ivoire_flag": (40, 25), "hdpi/cote_d_ivoire_flag": (60, 38),
      "xhdpi/cote_d_ivoire_flag": (80, 50), "xxhdpi/cote_d_ivoire_flag": (120, 75),
      "mdpi/lake": (120, 80), "hdpi/lake": (180, 120), "xhdpi/lake": (240, 160),
    ]
    let manifest = try #require(try ManifestStore.read(at: engine.workspace.manifest))
    let files = manifest.imageSets.flatMap { $0.android?.files ?? [] }
    #expect(files.count == res.count)
    for file in files {
      let image = try VipsImage.load(path: base.appendingPathComponent(file.path).path)
      #expect(image.width == file.width && image.height == file.height, "\(file.path)")
      let key = file.path.replacingOccurrences(of: "android/res/drawable-", with: "")
        .replacingOccurrences(of: "night-", with: "").split(separator: ".")[0]
      let size = try #require(expected[String(key)], "\(file.path)")
      #expect((file.width, file.height) == size, "\(file.path)")
      #expect((file.appearance == "dark") == file.path.contains("-night-"))
      // The flag keeps its rounded corners' alpha.
      #expect(image.hasAlpha == file.path.hasSuffix(".png"), "\(file.path)")
    }
    #expect(try engine.run().rendered == 0)
    #expect(try ManifestStore.read(at: engine.workspace.manifest) == manifest)
  }

  /// A 40×24 pt SVG: one black bar, its edges on whole pixels at every density.
  static let barSVG = """
    <svg xmlns="http://www.w3.org/2000/svg" width="40" height="24" viewBox="0 0 40 24">\
    <rect x="8" y="4" width="8" height="16" fill="#000"/></svg>
    """

  @Test(
    "a vector master's drawables are rendered from it at every density, crisp, as the catalog's")
  func vectorDensities() throws {
    let harness = try RenderHarness(
      config: """
        android:
          folder: ../out/android/res
        recipes:
          kept: { kind: variants, keep-vector: true }
        rules:
          - match: "Kept/*"
            recipes: [kept]
          - match: "Flags/*"
            recipes: [flag]

        """)
    defer { harness.remove() }
    try harness.add(text: Self.barSVG, as: "Icons/Bar.svg")
    try harness.add(text: Self.barSVG, as: "Kept/Bar.svg")
    try harness.add(
      text: Self.barSVG.replacingOccurrences(
        of: "width=\"40\" height=\"24\"", with: "width=\"80\" height=\"50\""),
      as: "Flags/Bar.svg")
    let engine = try BuildEngine(options: Self.options(harness))
    #expect(try engine.run().failed == 0)
    let base = engine.workspace.state.folder
    let manifest = try #require(try ManifestStore.read(at: engine.workspace.manifest))
    let densities: [(String, Double)] = [
      ("mdpi", 1), ("hdpi", 1.5), ("xhdpi", 2), ("xxhdpi", 3), ("xxxhdpi", 4),
    ]
    for (asset, name) in [
      ("Icons/Bar", "bar"), ("Kept/Bar", "bar_kept"), ("Flags/Bar", "bar_flag"),
    ] {
      let set = try #require(manifest.imageSets.first { $0.asset == asset && $0.android != nil })
      let files = set.android?.files ?? []
      // Every density, xxxhdpi too though the catalog stops at 3x: a vector never enlarges.
      #expect(files.map(\.path) == densities.map { "android/res/drawable-\($0.0)/\(name).png" })
      for (file, (_, factor)) in zip(files, densities) {
        let image = try VipsImage.load(path: base.appendingPathComponent(file.path).path)
        let points = name == "bar_flag" ? (40.0, 25.0) : (40.0, 24.0)
        let size = PointSize(width: points.0, height: points.1).pixels(scale: factor)
        #expect((image.width, image.height) == (size.width, size.height), "\(file.path)")
        #expect((file.width, file.height) == (size.width, size.height), "\(file.path)")
        if name != "bar_flag" { try Self.expectCrispBar(image, factor: factor, file.path) }
      }
    }
    // At a catalog scale, the drawable is the catalog's file, byte for byte.
    let catalog = engine.workspace.catalog
    for (drawable, file) in [
      ("drawable-xhdpi/bar.png", "Icons/Bar.imageset/Bar@2x.png"),
      ("drawable-xxhdpi/bar_flag.png", "Flags/Bar-flag.imageset/Bar@3x.png"),
    ] {
      #expect(
        try Data(contentsOf: base.appendingPathComponent("android/res/" + drawable))
          == Data(contentsOf: catalog.appendingPathComponent(file)), "\(drawable)")
    }
    #expect(try engine.run().rendered == 0)
  }

  @Test(
    "a vector's drawable over limit-render-pixels is left out by the plan, said as skipped; its catalog files are made, and a rebuild renders nothing"
  )
  func vectorDrawableOverLimit() throws {
    let harness = try RenderHarness(
      config: "limit-render-pixels: 10000\nandroid:\n  folder: ../out/android/res\n")
    defer { harness.remove() }
    try harness.add(text: Self.barSVG, as: "Icons/Bar.svg")
    let engine = try BuildEngine(options: Self.options(harness))
    let report = try engine.run()
    // 160×96 at xxxhdpi is over the limit; 120×72 at 3x, the catalog's largest, is not.
    #expect(report.problems.isEmpty && report.failed == 0, "\(report.problems)")
    let warning = try #require(
      report.warnings.first { $0.message.contains("drawable-xxxhdpi/bar.png") })
    #expect(warning.kind == .skipped && warning.file == "Icons/Bar.svg")
    #expect(warning.message.contains("limit-render-pixels") && warning.message.contains("left out"))
    let manifest = try #require(try ManifestStore.read(at: engine.workspace.manifest))
    let set = try #require(manifest.imageSets.first)
    #expect(set.outputs.count == 2)
    #expect(set.skipped.contains { $0.contains("drawable-xxxhdpi/bar.png") })
    #expect(set.android?.files.map(\.path).contains { $0.contains("xxxhdpi") } == false)
    #expect(set.android?.files.count == 4)
    #expect(try engine.run().rendered == 0)
  }

  @Test("a vector's drawables carry no metadata, though its recipe keeps the catalog's")
  func vectorDrawablesWithoutMetadata() throws {
    let harness = try RenderHarness(
      config: """
        recipes:
          variants: { keep-metadata: true }
        android:
          folder: ../out/android/res
          format: webp

        """)
    defer { harness.remove() }
    try harness.add(text: Self.barSVG, as: "Icons/Bar.svg")
    let engine = try BuildEngine(options: Self.options(harness))
    #expect(try engine.run().failed == 0)
    let manifest = try #require(try ManifestStore.read(at: engine.workspace.manifest))
    let files = manifest.imageSets.flatMap { $0.android?.files ?? [] }
    #expect(files.count == 5)
    for file in files {
      let url = engine.workspace.state.folder.appendingPathComponent(file.path)
      #expect(!(try VipsImage.load(path: url.path).hasMetadata), "\(file.path)")
    }
  }

  /// The bar of ``barSVG``, whose edges fall on whole pixels: rasterised at the density
  /// itself, every pixel is the bar's or the background's, none a resampled blend.
  static func expectCrispBar(_ image: VipsImage, factor: Double, _ path: String) throws {
    let alpha = try image.extractBand(image.bands - 1).pixelBytes()
    for y in 0..<image.height {
      for x in 0..<image.width {
        let inside =
          Double(x) >= 8 * factor && Double(x) < 16 * factor && Double(y) >= 4 * factor
          && Double(y) < 20 * factor
        #expect(alpha[y * image.width + x] == (inside ? 255 : 0), "\(path) (\(x), \(y))")
      }
    }
  }

  @Test("two assets of one name: the first keeps it, the other is an error naming both masters")
  func clash() throws {
    let harness = try RenderHarness(config: Self.config)
    defer { harness.remove() }
    try harness.add(try TestImages.photo(width: 80, height: 80), as: "A/Star@2x.png", format: .png)
    try harness.add(try TestImages.photo(width: 80, height: 80), as: "B/star@2x.png", format: .png)
    let engine = try BuildEngine(options: Self.options(harness))
    let report = try engine.run()
    let problem = try #require(report.problems.first { $0.reason.contains("Android") })
    #expect(problem.path == "B/star@2x.png")
    #expect(problem.reason.contains("A/Star@2x.png") && problem.reason.contains("'star'"))
    let manifest = try #require(try ManifestStore.read(at: engine.workspace.manifest))
    #expect(manifest.imageSets.first { $0.asset == "A/Star" }?.android?.files.count == 3)
    #expect(manifest.imageSets.first { $0.asset == "B/star" }?.android == nil)
    // Renamed: the second gets its drawables on the next build.
    try FileManager.default.moveItem(
      at: harness.folder.appendingPathComponent("B/star@2x.png"),
      to: harness.folder.appendingPathComponent("B/star-b@2x.png"))
    #expect(try engine.run().problems.isEmpty)
    let renamed = try #require(try ManifestStore.read(at: engine.workspace.manifest))
    #expect(renamed.imageSets.first { $0.asset == "B/star-b" }?.android?.files.count == 3)
  }

  @Test("check fails on a deleted drawable; new densities name the setting; off removes them all")
  func checkAndTurnOff() throws {
    let harness = try RenderHarness(config: Self.config)
    defer { harness.remove() }
    try harness.add(try TestImages.photo(width: 90, height: 60), as: "Dot@3x.png", format: .png)
    let engine = try BuildEngine(options: Self.options(harness))
    _ = try engine.run()
    let res = engine.workspace.state.folder.appendingPathComponent("android/res")
    try FileManager.default.removeItem(at: res.appendingPathComponent("drawable-hdpi/dot.png"))
    var check = Self.options(harness)
    check.mode = .check
    #expect(
      try BuildEngine(options: check).run().stale.map(\.path) == [
        "android/res/drawable-hdpi/dot.png"
      ])
    _ = try engine.run()
    #expect(try BuildEngine(options: check).run().stale.isEmpty)
    let yml = harness.folder.appendingPathComponent("thumbforge.yml")
    try Data(
      "output: ../out/Assets.xcassets\nandroid: { folder: ../out/android/res, densities: [xhdpi] }\n"
        .utf8
    ).write(to: yml)
    let stale = try BuildEngine(options: check).run().stale
    #expect(stale.allSatisfy { $0.detail.contains("android densities") }, "\(stale)")
    _ = try BuildEngine(options: Self.options(harness)).run()
    #expect(
      try FileManager.default.subpathsOfDirectory(atPath: res.path).sorted() == [
        "drawable-xhdpi", "drawable-xhdpi/dot.png",
      ])
    try Data("output: ../out/Assets.xcassets\n".utf8).write(to: yml)
    _ = try BuildEngine(options: Self.options(harness)).run()
    #expect(!FileManager.default.fileExists(atPath: res.path))
    #expect(try BuildEngine(options: check).run().stale.isEmpty)
  }

  @Test("an Android folder that holds the web folder, or inside the asset folder, is refused")
  func refusals() throws {
    let harness = try RenderHarness(config: Self.config)
    defer { harness.remove() }
    let yml = harness.folder.appendingPathComponent("thumbforge.yml")
    for (text, words) in [
      ("android: { folder: res }", "inside the asset folder"),
      ("web: { folder: ../out/web }\nandroid: { folder: ../out }", "hold one another"),
      ("web: { folder: ../site }\nandroid: { folder: ../site/res }", "web.folder"),
    ] {
      try Data("output: ../out/Assets.xcassets\n\(text)\n".utf8).write(to: yml)
      do {
        _ = try BuildEngine(options: Self.options(harness))
        Issue.record("accepted: \(text)")
      } catch {
        #expect(error.message.contains(words), "\(error.message)")
      }
    }
  }
}

extension AndroidResourcesTests {
  /// The alpha of every pixel of the PNG at `url`, rows top to bottom.
  static func alpha(_ url: URL) throws -> (width: Int, height: Int, alpha: [UInt8]) {
    let image = try VipsImage.load(path: url.path)
    #expect(image.hasAlpha, "\(url.lastPathComponent) has no alpha")
    let bytes = try image.pixelBytes()
    let bands = image.bands
    return (
      image.width, image.height,
      stride(from: bands - 1, to: bytes.count, by: bands).map { bytes[$0] }
    )
  }

  @Test("launcher icons: 48 dp legacy and round, 108 dp layers, the foreground in the safe zone")
  func launcherIcons() throws {
    let harness = try RenderHarness(
      config: """
        rules: [{ match: "AppIcon*", recipes: [appicon] }]
        recipes: { appicon: { background: "#1F3B5C" } }
        android: { folder: ../out/android/res }

        """)
    defer { harness.remove() }
    try harness.add(
      try TestImages.photo(width: 1024, height: 1024), as: "AppIcon.png", format: .png)
    try harness.add(
      try TestImages.photo(width: 1024, height: 1024).colourspace(.bw), as: "AppIcon~tinted.png",
      format: .png)
    let engine = try BuildEngine(options: Self.options(harness))
    #expect(try engine.run().failed == 0)
    let res = engine.workspace.state.folder.appendingPathComponent("android/res")
    for density in AndroidDensity.allCases { try Self.checkLauncherFiles(res, density) }
    let xml = try String(
      contentsOf: res.appendingPathComponent("mipmap-anydpi-v26/ic_launcher.xml"), encoding: .utf8)
    #expect(xml.contains(#"<monochrome android:drawable="@mipmap/ic_launcher_monochrome"/>"#))
    #expect(
      try String(
        contentsOf: res.appendingPathComponent("mipmap-anydpi-v26/ic_launcher_round.xml"),
        encoding: .utf8) == xml)
    let color = try String(
      contentsOf: res.appendingPathComponent("values/ic_launcher_background.xml"), encoding: .utf8)
    #expect(color.contains(#"<color name="ic_launcher_background">#1F3B5C</color>"#))
    // Without a tinted master: no monochrome layer, and the XML names none.
    try FileManager.default.removeItem(
      at: harness.folder.appendingPathComponent("AppIcon~tinted.png"))
    _ = try engine.run()
    #expect(
      !FileManager.default.fileExists(
        atPath: res.appendingPathComponent("mipmap-mdpi/ic_launcher_monochrome.png").path))
    let without = try String(
      contentsOf: res.appendingPathComponent("mipmap-anydpi-v26/ic_launcher.xml"), encoding: .utf8)
    #expect(!without.contains("monochrome") && without.contains("ic_launcher_foreground"))
    var check = Self.options(harness)
    check.mode = .check
    #expect(try BuildEngine(options: check).run().stale.isEmpty)
  }

  /// The launcher files of `density` in `res`: sizes, the round mask, and both layers drawn
  /// inside the 66 dp safe zone only.
  static func checkLauncherFiles(_ res: URL, _ density: AndroidDensity) throws {
    let folder = res.appendingPathComponent("mipmap-\(density.rawValue)")
    let side = Int((48 * density.factor).rounded())
    let layer = Int((108 * density.factor).rounded())
    let legacy = try VipsImage.load(path: folder.appendingPathComponent("ic_launcher.png").path)
    #expect(legacy.width == side && legacy.height == side && !legacy.hasAlpha)
    let round = try Self.alpha(folder.appendingPathComponent("ic_launcher_round.png"))
    #expect(round.width == side && round.height == side)
    #expect(round.alpha[0] == 0 && round.alpha[side * side / 2 + side / 2] == 255)
    for layerName in ["ic_launcher_foreground.png", "ic_launcher_monochrome.png"] {
      let pixels = try Self.alpha(folder.appendingPathComponent(layerName))
      #expect(pixels.width == layer && pixels.height == layer, "\(density) \(layerName)")
      // Nothing outside the 66 dp circle; the centre drawn.
      let radius = 33 * density.factor
      let centre = Double(layer) / 2
      var outside = 0
      for y in 0..<layer {
        for x in 0..<layer where pixels.alpha[y * layer + x] > 0 {
          let dx = Double(x) + 0.5 - centre
          let dy = Double(y) + 0.5 - centre
          if (dx * dx + dy * dy).squareRoot() > radius { outside += 1 }
        }
      }
      #expect(outside == 0, "\(density) \(layerName): \(outside) pixels outside the safe zone")
      #expect(pixels.alpha.contains { $0 > 0 }, "\(density) \(layerName) is empty")
    }
    let foreground = try Self.alpha(folder.appendingPathComponent("ic_launcher_foreground.png"))
    #expect(foreground.alpha[layer * layer / 2 + layer / 2] == 255)
  }
}
