import Foundation
import Testing
import ThumbForgeTestSupport
import Vips

@testable import ThumbForge
@testable import ThumbForgeBasics
@testable import ThumbForgePlanning

/// Adopting a catalog changes nothing: `init --from` then `build` gives back every generated
/// catalog (every set kind, attribute, name and group) file for file, in place and elsewhere,
/// and `check` is green right after.
@Suite("adoption round trip", .timeLimit(.minutes(10)))
struct AdoptionRoundTripTests {
  /// Every file under `url` (hidden ones left out) by relative path, with its bytes.
  static func tree(_ url: URL) throws -> [String: Data] {
    var files: [String: Data] = [:]
    let base = url.standardizedFileURL.path
    let enumerator = FileManager.default.enumerator(atPath: base)
    while let path = enumerator?.nextObject() as? String {
      let full = base + "/" + path
      var isFolder: ObjCBool = false
      guard !path.split(separator: "/").contains(where: { $0.hasPrefix(".") }),
        FileManager.default.fileExists(atPath: full, isDirectory: &isFolder), !isFolder.boolValue
      else { continue }
      files[path] = try Data(contentsOf: URL(fileURLWithPath: full))
    }
    return files
  }

  /// Adopts `catalog` into `App/Art` beside it; returns the asset folder.
  static func adopt(_ catalog: URL) throws -> URL {
    let art = catalog.deletingLastPathComponent().appendingPathComponent("Art")
    var starter = try StarterFolder.fromCatalog(catalog, folder: art)
    try starter.write(into: art)
    #expect(starter.problems.isEmpty, "\(starter.problems)")
    return art
  }

  static func build(_ folder: URL, output: URL? = nil, mode: BuildMode = .build) throws
    -> BuildReport
  {
    var options = BuildOptions(folder: folder)
    options.output = output
    options.mode = mode
    let report = try BuildEngine(options: options).run()
    #expect(report.problems.isEmpty, "\(report.problems)")
    #expect(report.failedOutputs == 0)
    return report
  }

  /// The generated catalogs' seeds: 0..<12, or 0..<N with `THUMBFORGE_ADOPT_CASES=N`
  /// (property runs: `THUMBFORGE_ADOPT_CASES=500 swift test --filter AdoptionRoundTrip`).
  static let seeds: Range<UInt64> =
    0..<(ProcessInfo.processInfo.environment["THUMBFORGE_ADOPT_CASES"].flatMap(UInt64.init) ?? 12)

  @Test(
    "generated catalogs come back byte for byte, in place and elsewhere", arguments: Self.seeds)
  func roundTrip(seed: UInt64) throws {
    let root = try Fixtures.temporaryDirectory(prefix: "adopt-\(seed)")
    defer { try? FileManager.default.removeItem(at: root) }
    let app = root.appendingPathComponent("App")
    var generator = CatalogGenerator(seed: seed)
    let catalog = try generator.write(into: app)
    let original = try Self.tree(catalog)
    let art = try Self.adopt(catalog)

    // Elsewhere: a fresh catalog of the same name, every file as it was.
    let elsewhere = root.appendingPathComponent("Out").appendingPathComponent(
      catalog.lastPathComponent)
    _ = try Self.build(art, output: elsewhere)
    let rebuilt = try Self.tree(elsewhere)
    #expect(rebuilt.keys.sorted() == original.keys.sorted())
    for (path, bytes) in original where rebuilt[path] != bytes {
      Issue.record("\(path) differs (seed \(seed))")
    }
    #expect(try Self.build(art, output: elsewhere, mode: .check).stale.isEmpty)

    // In place: the manifest of the run above is replaced, and not one byte of the catalog
    // changes.
    try FileManager.default.removeItem(at: art.appendingPathComponent("manifest.json"))
    _ = try Self.build(art)
    #expect(try Self.tree(catalog) == original)
    let check = try Self.build(art, mode: .check)
    #expect(check.stale.isEmpty, "\(check.stale)")
  }

  @Test("a sharded build merged gives the same catalog as one build", arguments: 0..<4)
  func shardsAndMerge(seed: UInt64) throws {
    let root = try Fixtures.temporaryDirectory(prefix: "adopt-shards-\(seed)")
    defer { try? FileManager.default.removeItem(at: root) }
    var generator = CatalogGenerator(seed: seed)
    let catalog = try generator.write(into: root.appendingPathComponent("App"))
    let original = try Self.tree(catalog)
    let art = try Self.adopt(catalog)
    var parts: [URL] = []
    for index in 1...2 {
      var options = BuildOptions(folder: art)
      options.shard = try Shard(index: index, count: 2)
      options.part = root.appendingPathComponent("parts/\(index)")
      _ = try BuildEngine(options: options).run()
      parts.append(options.part!)
    }
    let merged = root.appendingPathComponent("Merged").appendingPathComponent(
      catalog.lastPathComponent)
    let report = try CatalogMerge.run(MergeOptions(parts: parts, output: merged))
    #expect(report.problems.isEmpty, "\(report.problems)")
    #expect(try Self.tree(merged) == original)
  }

  @Test("deleted smaller scales are made from the largest file of their slot; the rest stays")
  func derivedScales() throws {
    let root = try Fixtures.temporaryDirectory(prefix: "adopt-derive")
    defer { try? FileManager.default.removeItem(at: root) }
    let set = root.appendingPathComponent("App/Images.xcassets/Flags/uk.imageset")
    try FileManager.default.createDirectory(at: set, withIntermediateDirectories: true)
    let dark = #"[{"appearance":"luminosity","value":"dark"}]"#
    var entries: [String] = []
    for (scale, light, darkSize) in [
      (1, (21, 13), (20, 12)), (2, (42, 26), (40, 24)), (3, (63, 39), (0, 0)),
    ] {
      let name = scale == 1 ? "uk.png" : "uk@\(scale)x.png"
      try Data(try Fixtures.photo(width: light.0, height: light.1, seed: scale).encoded(as: .png))
        .write(to: set.appendingPathComponent(name))
      entries.append(#"{"filename":"\#(name)","idiom":"universal","scale":"\#(scale)x"}"#)
      if darkSize.0 > 0 {
        let darkName = "uk~dark@\(scale)x.png"
        try Data(
          try Fixtures.icon(width: darkSize.0, height: darkSize.1, seed: scale).encoded(as: .png)
        ).write(to: set.appendingPathComponent(darkName))
        entries.append(
          #"{"appearances":\#(dark),"filename":"\#(darkName)","idiom":"universal","scale":"\#(scale)x"}"#
        )
      }
    }
    let contents =
      #"{"images":[\#(entries.joined(separator: ","))],"info":{"author":"xcode","version":1},"properties":{"template-rendering-intent":"template"}}"#
    try Data(contents.utf8).write(to: set.appendingPathComponent("Contents.json"))
    let catalog = set.deletingLastPathComponent().deletingLastPathComponent()
    let art = try Self.adopt(catalog)
    let masters = art.appendingPathComponent("Flags/uk.imageset")
    for deleted in ["uk.png", "uk@2x.png", "uk~dark@1x.png"] {
      try FileManager.default.removeItem(at: masters.appendingPathComponent(deleted))
    }
    _ = try Self.build(art)
    let expected = [
      ("uk.png", "uk@3x.png", 21, 13), ("uk@2x.png", "uk@3x.png", 42, 26),
      ("uk~dark@1x.png", "uk~dark@2x.png", 20, 12),
    ]
    for (made, from, width, height) in expected {
      let image = try VipsImage.load(path: set.appendingPathComponent(made).path)
      #expect((image.width, image.height) == (width, height), "\(made)")
      // An independent resize of the file it is made from (libvips' own Lanczos-3).
      let larger = try VipsImage.load(path: masters.appendingPathComponent(from).path)
      let reference = try larger.resize(width: width, height: height)
      let comparison = try ImageComparison(reference, image)
      #expect(comparison.isWithin(.lossy), "\(made): \(comparison)")
    }
    // Kept as they were: the Contents.json and the files that were not deleted.
    #expect(
      try String(contentsOf: set.appendingPathComponent("Contents.json"), encoding: .utf8)
        == contents)
    for kept in ["uk@3x.png", "uk~dark@2x.png"] {
      #expect(
        try Data(contentsOf: set.appendingPathComponent(kept))
          == Data(contentsOf: masters.appendingPathComponent(kept)))
    }
    #expect(try Self.build(art, mode: .check).stale.isEmpty)
    #expect(try Self.build(art).rendered == 0, "nothing left to make")
  }

  @Test("Swift accessors name an adopted set as Xcode does: with its group's namespace")
  func accessorsFollowCarriedNamespaces() throws {
    let root = try Fixtures.temporaryDirectory(prefix: "adopt-accessors")
    defer { try? FileManager.default.removeItem(at: root) }
    let catalog = root.appendingPathComponent("App/Images.xcassets")
    let info = #""info":{"author":"xcode","version":1}"#
    for (group, namespace) in [("Flags", true), ("Plain", false)] {
      let folder = catalog.appendingPathComponent(group)
      try FileManager.default.createDirectory(
        at: folder.appendingPathComponent("logo.imageset"), withIntermediateDirectories: true)
      let properties = namespace ? #","properties":{"provides-namespace":true}"# : ""
      try Data("{\(info)\(properties)}".utf8).write(
        to: folder.appendingPathComponent("Contents.json"))
      try Data(try Fixtures.photo(width: 8, height: 8, seed: 1).encoded(as: .png))
        .write(to: folder.appendingPathComponent("logo.imageset/logo.png"))
      try Data(#"{"images":[{"filename":"logo.png","idiom":"universal"}],\#(info)}"#.utf8)
        .write(to: folder.appendingPathComponent("logo.imageset/Contents.json"))
    }
    let art = try Self.adopt(catalog)
    var options = BuildOptions(folder: art)
    options.swiftFile = root.appendingPathComponent("Asset.swift")
    _ = try BuildEngine(options: options).run()
    let text = try String(contentsOf: options.swiftFile!, encoding: .utf8)
    #expect(text.contains(#""Flags/logo""#), "\(text)")
    #expect(text.contains(#"= "logo""#) && !text.contains(#""Plain/logo""#), "\(text)")
    options.mode = .check
    #expect(try BuildEngine(options: options).run().stale.isEmpty)
  }

  @Test("every set kind and odd names occur across the generated catalogs")
  func generatorCoversEveryKind() throws {
    let root = try Fixtures.temporaryDirectory(prefix: "adopt-kinds")
    defer { try? FileManager.default.removeItem(at: root) }
    var kinds: [String: Int] = [:]
    var paths = Set<String>()
    var withMetadata = 0
    for seed in 0..<12 {
      var generator = CatalogGenerator(seed: UInt64(seed))
      let catalog = try generator.write(into: root.appendingPathComponent("\(seed)"))
      kinds.merge(generator.kinds, uniquingKeysWith: +)
      withMetadata += generator.filesWithMetadata.count
      paths.formUnion(try Self.tree(catalog).keys)
    }
    let expected = [
      "imageset", "colorset", "appiconset", "dataset", "symbolset", "imagestack", "brandassets",
      "stickerpack", "arresourcegroup", "complicationset", "gcleaderboard", "spriteatlas",
    ]
    #expect(expected.filter { kinds[$0] == nil }.isEmpty, "\(kinds)")
    #expect(withMetadata > 0)
    for odd in [" ", "ö", "日本", "icon.small.imageset", "v1.2/"] {
      #expect(paths.contains { $0.contains(odd) }, "no path with \(odd)")
    }
  }

  @Test("keep-metadata false: copies lose their metadata, keep their pixels, never grow")
  func strippedCopies() throws {
    let root = try Fixtures.temporaryDirectory(prefix: "adopt-strip")
    defer { try? FileManager.default.removeItem(at: root) }
    var generator = CatalogGenerator(seed: 3)
    let catalog = try generator.write(into: root.appendingPathComponent("App"))
    #expect(!generator.filesWithMetadata.isEmpty)
    let art = try Self.adopt(catalog)
    let config = art.appendingPathComponent("thumbforge.yml")
    let text = try String(contentsOf: config, encoding: .utf8)
    #expect(text.contains("as-is: { keep-metadata: true }"), "\(text)")
    try text.replacingOccurrences(of: "keep-metadata: true", with: "keep-metadata: false")
      .write(to: config, atomically: true, encoding: .utf8)
    let out = root.appendingPathComponent("Out.xcassets")
    _ = try Self.build(art, output: out)
    let original = try Self.tree(catalog)
    let stripped = try Self.tree(out)
    #expect(stripped.keys.sorted() == original.keys.sorted())
    for (path, bytes) in original {
      let copy = try #require(stripped[path])
      guard generator.filesWithMetadata.contains(path) else {
        #expect(copy == bytes, "\(path) has no metadata and must be copied as it is")
        continue
      }
      #expect(copy.count < bytes.count, "\(path)")
      #expect(JPEGMetadata.stripped(Array(copy)) == nil && PNGMetadata.stripped(Array(copy)) == nil)
      let before = try VipsImage.load(bytes: Array(bytes))
      let after = try VipsImage.load(bytes: Array(copy))
      #expect(try after.pixelBytes() == before.pixelBytes(), "\(path)")
      #expect(!after.hasMetadata, "\(path)")
    }
    #expect(try Self.build(art, output: out, mode: .check).stale.isEmpty)
  }
}
