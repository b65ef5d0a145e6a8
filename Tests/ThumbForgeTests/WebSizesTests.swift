import Foundation
import Testing
import Vips

@testable import ThumbForge
@testable import ThumbForgeBasics
@testable import ThumbForgeCatalog
@testable import ThumbForgeConfig
@testable import ThumbForgePlanning
@testable import ThumbForgeRendering

/// `web:`: width-based sizes of every imageset beside the catalog, planned from its largest
/// sRGB file, read back at their planned sizes, recorded in the manifest, checked by `check`
/// and removed when no longer planned.
@Suite("Web sizes")
struct WebSizesTests {
  static let config = """
    master-scale: 2
    placeholders: thumbhash
    web:
      folder: ../out/web
      widths: [64, 100, 200]
      formats: [webp, auto, jpeg]
    rules:
      - match: "Flags/*"
        recipes: [flag]

    """

  /// A folder of generated masters: a photo, one with dark art, a flag (rounded, with
  /// alpha), and an icon narrower than every width.
  static func harness(_ config: String = config) throws -> RenderHarness {
    let harness = try RenderHarness(config: config)
    try harness.add(
      try TestImages.photo(width: 240, height: 160), as: "Photos/Lake@2x.jpg", format: .jpeg)
    try harness.add(
      try TestImages.photo(width: 180, height: 240), as: "Photos/Tower@2x.png", format: .png)
    try harness.add(
      try TestImages.photo(width: 180, height: 240), as: "Photos/Tower~dark@2x.png", format: .png)
    try harness.add(
      try TestImages.photo(width: 300, height: 200), as: "Flags/Italy@2x.png", format: .png)
    try harness.add(
      try VipsImage.solid(width: 40, height: 40, color: [10, 200, 30]), as: "Icons/Dot@2x.png",
      format: .png)
    return harness
  }

  static func options(_ harness: RenderHarness) -> BuildOptions {
    var options = BuildOptions(folder: harness.folder)
    options.jobs = 2
    return options
  }

  @Test(
    "the plan: widths up to the file's own, its own in place of wider ones, formats resolved once")
  func plan() throws {
    let harness = try Self.harness()
    defer { harness.remove() }
    let plan = try BuildEngine(options: Self.options(harness)).plan()
    let sets = Dictionary(
      uniqueKeysWithValues: plan.jobs.flatMap(\.imageSets).map { ($0.folder, $0) })
    let lake = try #require(sets["Photos/Lake.imageset"])
    // auto is the catalog file's JPEG, listed once with jpeg.
    #expect(
      lake.derivedFiles(.web).map(\.path) == [
        "Photos/Lake-64w.webp", "Photos/Lake-100w.webp", "Photos/Lake-200w.webp",
        "Photos/Lake-64w.jpg", "Photos/Lake-100w.jpg", "Photos/Lake-200w.jpg",
      ])
    #expect(lake.derivedFiles(.web).map(\.pixelSize.height) == [43, 67, 133, 43, 67, 133])
    #expect(lake.webJSON == "Photos/Lake.json")
    let tower = try #require(sets["Photos/Tower.imageset"])
    // 200 is past the 180-pixel file: its own width instead.
    #expect(
      tower.derivedFiles(.web).filter { $0.appearance == .any && $0.format == .webp }.map(
        \.pixelSize) == [
          PixelSize(width: 64, height: 85), PixelSize(width: 100, height: 133),
          PixelSize(width: 180, height: 240),
        ])
    #expect(tower.derivedFiles(.web).filter { $0.appearance == .dark }.count == 9)
    #expect(tower.derivedFiles(.web).contains { $0.path == "Photos/Tower~dark-100w.png" })
    // A PNG file's auto is PNG; only JPEG is flattened.
    #expect(tower.derivedFiles(.web).allSatisfy { ($0.flatten == nil) == ($0.format != .jpeg) })
    let dot = try #require(sets["Icons/Dot.imageset"])
    #expect(Set(dot.derivedFiles(.web).map(\.pixelSize)) == [PixelSize(width: 40, height: 40)])
    // Off: none planned, and the keys differ.
    try Data("output: ../out/Assets.xcassets\nmaster-scale: 2\nplaceholders: thumbhash\n".utf8)
      .write(to: harness.folder.appendingPathComponent("thumbforge.yml"))
    let off = try BuildEngine(options: Self.options(harness)).plan().jobs.flatMap(\.imageSets)
    #expect(off.allSatisfy { $0.derivedFiles(.web).isEmpty && $0.webJSON == nil })
    #expect(off.first { $0.folder == lake.folder }?.key != lake.key)
  }

  @Test("a build writes every planned file at its planned size, and a JSON that lists them")
  func build() throws {
    let harness = try Self.harness()
    defer { harness.remove() }
    let engine = try BuildEngine(options: Self.options(harness))
    let report = try engine.run()
    #expect(report.failed == 0)
    let base = engine.workspace.state.folder
    let manifest = try #require(try ManifestStore.read(at: engine.workspace.manifest))
    let planned = engine.plan().jobs.flatMap(\.imageSets)
    #expect(planned.allSatisfy { !$0.derivedFiles(.web).isEmpty })
    for set in planned {
      let entry = try #require(manifest.imageSets.first { $0.folder == set.folder })
      let web = try #require(entry.web, "\(set.folder)")
      #expect(web.files.map(\.path) == set.derivedFiles(.web).map { "web/" + $0.path })
      for (file, candidate) in zip(web.files, set.derivedFiles(.web)) {
        let bytes = Array(try Data(contentsOf: base.appendingPathComponent(file.path)))
        let image = try VipsImage.load(bytes: bytes)
        #expect(image.width == candidate.pixelSize.width, "\(file.path)")
        #expect(image.height == candidate.pixelSize.height, "\(file.path)")
        #expect(file.hash == ContentHash.of(bytes) && file.bytes == bytes.count)
        // JPEG has no alpha; the flag's rounded corners keep theirs elsewhere.
        if candidate.format == .jpeg { #expect(!image.hasAlpha) }
        if set.recipe.kind == .flag && candidate.format != .jpeg {
          #expect(image.hasAlpha, "\(file.path)")
        }
      }
      let jsonPath = try #require(web.json)
      let json =
        try JSONSerialization.jsonObject(
          with: Data(contentsOf: base.appendingPathComponent(jsonPath))) as? [String: Any]
      let sources = try #require(json?["sources"] as? [[String: Any]])
      let formats = Set(set.derivedFiles(.web).filter { $0.appearance == .any }.map(\.format))
      #expect(sources.count == formats.count)
      let listed = sources.flatMap { ($0["files"] as? [[String: Any]]) ?? [] }
      #expect(listed.count == set.derivedFiles(.web).filter { $0.appearance == .any }.count)
      #expect((json?["dark"] != nil) == set.derivedFiles(.web).contains { $0.appearance == .dark })
      #expect(json?["placeholder"] as? String == entry.thumbHash)
    }
    // Nothing changed: nothing rendered, the same manifest.
    #expect(try engine.run().rendered == 0)
    #expect(try ManifestStore.read(at: engine.workspace.manifest) == manifest)
  }

  @Test("check fails when a web file is deleted or edited; a build restores the same bytes")
  func checkAndRestore() throws {
    let harness = try Self.harness()
    defer { harness.remove() }
    let engine = try BuildEngine(options: Self.options(harness))
    _ = try engine.run()
    let base = engine.workspace.state.folder
    let manifest = try #require(try ManifestStore.read(at: engine.workspace.manifest))
    let lake = try #require(manifest.imageSets.first { $0.asset == "Photos/Lake" }?.web)
    let before = try Data(contentsOf: base.appendingPathComponent(lake.files[1].path))
    try FileManager.default.removeItem(at: base.appendingPathComponent(lake.files[1].path))
    let lakeJSON = try #require(lake.json)
    try Data("{}".utf8).write(to: base.appendingPathComponent(lakeJSON))
    var check = Self.options(harness)
    check.mode = .check
    let stale = try BuildEngine(options: check).run().stale
    #expect(
      Set(stale.map(\.path)) == [lake.files[1].path, lakeJSON], "\(stale)")
    _ = try engine.run()
    #expect(try BuildEngine(options: check).run().stale.isEmpty)
    #expect(try Data(contentsOf: base.appendingPathComponent(lake.files[1].path)) == before)
    #expect(try ManifestStore.read(at: engine.workspace.manifest) == manifest)
  }

  @Test("a manifest listing an imageset's web files in another order still records its plan")
  func recordOrder() throws {
    let harness = try Self.harness()
    defer { harness.remove() }
    let engine = try BuildEngine(options: Self.options(harness))
    _ = try engine.run()
    let url = engine.workspace.manifest
    var manifest = try #require(try ManifestStore.read(at: url))
    let index = try #require(manifest.imageSets.firstIndex { $0.asset == "Photos/Lake" })
    // Reversed (as a hand merge might leave them): the same files, so nothing to render.
    manifest.imageSets[index].web?.files.reverse()
    try ManifestStore.write(manifest, to: url)
    var check = Self.options(harness)
    check.mode = .check
    #expect(try BuildEngine(options: check).run().stale.isEmpty)
    // A size the plan does not have, in whatever order, is stale.
    manifest.imageSets[index].web?.files[0].width += 1
    try ManifestStore.write(manifest, to: url)
    let stale = try BuildEngine(options: check).run().stale
    #expect(stale.map(\.path) == [manifest.imageSets[index].folder], "\(stale)")
  }

  @Test("new widths make check name the setting; turning web off removes every web file")
  func changeAndTurnOff() throws {
    let harness = try Self.harness()
    defer { harness.remove() }
    let engine = try BuildEngine(options: Self.options(harness))
    _ = try engine.run()
    let webFolder = engine.workspace.state.folder.appendingPathComponent("web")
    let yml = harness.folder.appendingPathComponent("thumbforge.yml")
    try Data(
      ("output: ../out/Assets.xcassets\n" + Self.config).replacingOccurrences(
        of: "[64, 100, 200]", with: "[50, 100]"
      ).utf8
    ).write(to: yml)
    var check = Self.options(harness)
    check.mode = .check
    let stale = try BuildEngine(options: check).run().stale
    #expect(!stale.isEmpty && stale.allSatisfy { $0.detail.contains("web widths") }, "\(stale)")
    _ = try BuildEngine(options: Self.options(harness)).run()
    let files = try FileManager.default.subpathsOfDirectory(atPath: webFolder.path)
    #expect(files.contains("Photos/Lake-50w.webp") && !files.contains("Photos/Lake-200w.webp"))
    // A file of the team's own in the web folder is left alone.
    try Data("mine".utf8).write(to: webFolder.appendingPathComponent("Photos/notes.txt"))
    try Data("output: ../out/Assets.xcassets\nmaster-scale: 2\n".utf8).write(to: yml)
    _ = try BuildEngine(options: Self.options(harness)).run()
    #expect(
      try FileManager.default.subpathsOfDirectory(atPath: webFolder.path) == [
        "Photos", "Photos/notes.txt",
      ])
    #expect(try BuildEngine(options: check).run().stale.isEmpty)
  }

  @Test("generated sizes and widths: every file exactly its planned size, never enlarged")
  func generated() throws {
    var random = SeededRandom(seed: 49)
    let widths = (0..<4).map { _ in Int.random(in: 1...400, using: &random) }
    let harness = try RenderHarness(
      config: """
        master-scale: 1
        web: { folder: ../out/web, widths: [\(Set(widths).sorted().map(String.init).joined(separator: ", "))], formats: [png] }
        recipes:
          variants: { scales: [1] }

        """)
    defer { harness.remove() }
    for index in 0..<6 {
      let width = Int.random(in: 1...300, using: &random)
      let height = Int.random(in: 1...300, using: &random)
      try harness.add(
        try TestImages.photo(width: width, height: height), as: "Generated\(index).png",
        format: .png)
    }
    let engine = try BuildEngine(options: Self.options(harness))
    _ = try engine.run()
    let manifest = try #require(try ManifestStore.read(at: engine.workspace.manifest))
    #expect(manifest.imageSets.count == 6)
    for entry in manifest.imageSets {
      let source = try #require(entry.outputs.first)
      let web = try #require(entry.web)
      for file in web.files {
        let image = try VipsImage.load(
          path: engine.workspace.state.folder.appendingPathComponent(file.path).path)
        #expect(image.width == file.width && image.height == file.height, "\(file.path)")
        #expect(file.width <= source.width)
        let expected = max(
          1, Int((Double(source.height * file.width) / Double(source.width)).rounded()))
        #expect(file.height == expected, "\(file.path)")
      }
    }
  }

  @Test(
    "web folders inside the asset folder or holding the catalog are refused; a shard keeps its web sizes in its part"
  )
  func refusals() throws {
    let harness = try Self.harness()
    defer { harness.remove() }
    let yml = harness.folder.appendingPathComponent("thumbforge.yml")
    for (folder, words) in [
      ("web", "inside the asset folder"), ("../out/Assets.xcassets/web", "hold one another"),
      ("../out", "hold one another"),
    ] {
      try Data("output: ../out/Assets.xcassets\nweb: { folder: \(folder) }\n".utf8).write(to: yml)
      #expect(throws: ConfigError.self, "\(folder)") {
        try BuildEngine(options: Self.options(harness))
      }
      do { _ = try BuildEngine(options: Self.options(harness)) } catch {
        #expect(error.message.contains(words), "\(error.message)")
      }
    }
    try Data("output: ../out/Assets.xcassets\nweb: { folder: ../web, widths: [10, 10] }\n".utf8)
      .write(to: yml)
    #expect(throws: ConfigError.self) { try BuildEngine(options: Self.options(harness)) }
    // A shard keeps its web sizes in its part, for `merge`; it writes nothing to the folder.
    try Data("output: ../out/Assets.xcassets\nweb: { folder: ../web }\n".utf8).write(to: yml)
    var shard = Self.options(harness)
    shard.shard = try Shard(index: 1, count: 1)
    let part = URL(fileURLWithPath: try BuildEngine(options: shard).run().manifest)
      .deletingLastPathComponent()
    let web = harness.folder.deletingLastPathComponent().appendingPathComponent("web")
    #expect(
      FileManager.default.fileExists(
        atPath: part.appendingPathComponent("web/Photos/Lake.json").path))
    #expect(!FileManager.default.fileExists(atPath: web.path))
  }
}

extension WebSizesTests {
  @Test("a web format this libvips cannot write is left out with one problem; the rest stay")
  func unsavableFormat() throws {
    let harness = try Self.harness(
      "master-scale: 2\nweb: { folder: ../out/web, widths: [64], formats: [avif, webp] }\n")
    defer { harness.remove() }
    let engine = try BuildEngine(options: Self.options(harness))
    let sources = engine.plan().jobs.map(\.source)
    var config = engine.workspace.config
    config.web.formats = [.avif, .webp]
    let planner = Planner(
      config: config, vipsVersion: "test", savableFormats: [.png, .jpeg, .webp],
      unsavableReasons: [.avif: "no AV1 encoder"])
    let plan = planner.plan(sources)
    let problems = plan.problems.filter { $0.path == "web" }
    #expect(problems.count == 1)
    #expect(problems.first?.reason.contains("no AV1 encoder") == true)
    let formats = Set(
      plan.jobs.flatMap(\.imageSets).flatMap { $0.derivedFiles(.web) }.map(\.format))
    #expect(formats == [.webp])
  }
}
