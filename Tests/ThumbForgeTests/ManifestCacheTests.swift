import Foundation
import Testing
import Vips

@testable import ThumbForge
@testable import ThumbForgeBasics
@testable import ThumbForgeCatalog
@testable import ThumbForgePlanning

@Suite("Manifest cache")
struct ManifestCacheTests {
  static let facts = FileFacts(
    size: 11_451_461, modified: 1_763_765_432_123_456_789, changed: 1_763_765_432_987_654_321,
    inode: 4_242)

  /// A manifest exercising every field: optional values present and absent, empty and
  /// repeated lists, and text with tabs, line feeds, backslashes and non-ASCII letters.
  static func sample() -> Manifest {
    var flag = ManifestImageSet(
      asset: "Flags/Côte d'Ivoire", group: ["Flags"], recipe: "flag", recipeHash: "aa11",
      folder: "Flags/Côte d'Ivoire-flag.imageset", contentsHash: "bb22",
      sources: [
        ManifestSource(path: "Flags/Côte d'Ivoire.svg", hash: "cc33"),
        ManifestSource(path: "Flags/Côte d'Ivoire~dark.svg", hash: "dd44"),
      ],
      outputs: [
        ManifestOutput(
          path: "Flags/Côte d'Ivoire-flag.imageset/Côte d'Ivoire@2x.png", scale: 2,
          appearance: nil, width: 80, height: 50, bytes: 706, hash: "ee55",
          crop: PixelRect(x: 10, y: 0, width: 80, height: 50)),
        ManifestOutput(
          path: "Flags/Côte d'Ivoire-flag.imageset/Côte d'Ivoire~dark@2x.png", scale: 2,
          appearance: "dark", width: 80, height: 50, bytes: 0, hash: "ff66", crop: nil),
        ManifestOutput(
          path: "Flags/Côte d'Ivoire-flag.imageset/Côte d'Ivoire~P3@2x.png", scale: 2,
          appearance: nil, width: 80, height: 50, bytes: 9, hash: "ab77", crop: nil,
          displayGamut: "display-P3"),
      ],
      warnings: ["@2x: enlarges\ta tab", "line\nfeed and back\\slash \\t"],
      skipped: ["@3x (dark): no master"], focus: FocusPoint(x: 0.1, y: 0.333_333_333_333_333_3))
    flag.thumbHash = "3OcRJYB4d3h/iIeHeEh3eIhw+j3A"
    flag.web = Self.sampleWeb
    flag.android = Self.sampleAndroid
    let odd = ManifestImageSet(
      asset: "A\tB/C\\D", group: ["A\tB", "", "x\n"], recipe: "", recipeHash: "",
      folder: "A\tB/C\\D.imageset", contentsHash: "", sources: [],
      outputs: [
        ManifestOutput(
          path: "-", scale: 0, appearance: "", width: 1, height: 1, bytes: 1, hash: "+",
          crop: PixelRect(x: -1, y: 0, width: 0, height: 0))
      ], warnings: [], skipped: ["", ""])
    let plain = ManifestImageSet(
      asset: "Logo", group: [], recipe: "variants", recipeHash: "0011", folder: "Logo.imageset",
      contentsHash: "2233", sources: [ManifestSource(path: "Logo@3x.png", hash: "4455")],
      outputs: [], warnings: [], skipped: [])
    var manifest = Manifest(
      toolVersion: "0.1.0", libvipsVersion: "8.14.1", configHash: "", catalog: "Assets.xcassets",
      groups: ["Flags", "A\tB"], imageSets: [plain, flag, odd])
    // Keep an order the initializer would not choose: the cache must not re-sort.
    manifest.groups = ["Flags", "A\tB"]
    manifest.imageSets = [plain, odd, flag]
    manifest.failed = [
      ManifestFailure(path: "Broken@3x.png", reason: "PNG truncated after 2.9 KB\t(tab)"),
      ManifestFailure(path: "Gone.jpg", reason: "not an image file libvips can read"),
    ]
    manifest.settings = ["master-scale": "2", "assets: Photos/A\tB focus": "[0.25, 0.5]"]
    return manifest
  }

  /// The sample's web sizes and drawables, with a name to escape and a dark file each.
  static let sampleWeb = ManifestDerived(
    files: [
      ManifestDerivedFile(
        path: "../Web/Flags/Côte d'Ivoire-flag-120w.webp", appearance: nil, width: 120,
        height: 75, bytes: 310, hash: "bb22"),
      ManifestDerivedFile(
        path: "../Web/Flags/Côte d'Ivoire-flag~dark-120w.png", appearance: "dark", width: 120,
        height: 75, bytes: 0, hash: "cc33"),
    ], json: "../Web/Flags/Côte d'Ivoire-flag.json", jsonHash: "aa11")
  static let sampleAndroid = ManifestDerived(files: [
    ManifestDerivedFile(
      path: "res/drawable-night-hdpi/cote_d_ivoire_flag.png", appearance: "dark", width: 60,
      height: 38, bytes: 77, hash: "dd44")
  ])

  static func temporaryURL() -> URL {
    FileManager.default.temporaryDirectory.appendingPathComponent(
      "manifest-cache-\(UUID().uuidString)")
  }

  @Test("round-trips every field, order and escaped character")
  func roundTrip() throws {
    let url = Self.temporaryURL()
    defer { try? FileManager.default.removeItem(at: url) }
    let manifest = Self.sample()
    try ManifestCache.write(manifest, to: url, facts: Self.facts)
    #expect(ManifestCache.read(at: url, matching: Self.facts) == manifest)

    var empty = Manifest(
      toolVersion: "", libvipsVersion: "", configHash: "", catalog: "", groups: [],
      imageSets: [])
    empty.schema = 7
    empty.tool = "other"
    try ManifestCache.write(empty, to: url, facts: Self.facts)
    #expect(ManifestCache.read(at: url, matching: Self.facts) == empty)

    // Records no build writes, read from a manifest.json edited by hand, still round-trip:
    // no files, a JSON without its hash, an empty one, Android with a JSON.
    var odd = manifest
    odd.imageSets[0].web = ManifestDerived(files: [])
    odd.imageSets[0].android = ManifestDerived(files: [], json: "", jsonHash: nil)
    odd.imageSets[1].web = ManifestDerived(files: Self.sampleAndroid.files, json: "-", jsonHash: "")
    odd.imageSets[1].android = Self.sampleWeb
    try ManifestCache.write(odd, to: url, facts: Self.facts)
    #expect(ManifestCache.read(at: url, matching: Self.facts) == odd)
  }

  @Test("a cache written for another version of the manifest file is not used")
  func stale() throws {
    let url = Self.temporaryURL()
    defer { try? FileManager.default.removeItem(at: url) }
    try ManifestCache.write(Self.sample(), to: url, facts: Self.facts)
    var other = [Self.facts, Self.facts, Self.facts, Self.facts]
    other[0].size += 1
    other[1].modified += 1
    other[2].changed += 1
    other[3].inode += 1
    for facts in other { #expect(ManifestCache.read(at: url, matching: facts) == nil) }
    #expect(ManifestCache.read(at: url, matching: nil) == nil)
  }

  @Test("a missing, cut short or damaged cache reads as none")
  func damaged() throws {
    let url = Self.temporaryURL()
    defer { try? FileManager.default.removeItem(at: url) }
    #expect(ManifestCache.read(at: url, matching: Self.facts) == nil)
    let bytes = ManifestCache.encode(Self.sample(), stamp: Self.facts)
    // Every cut, at any byte, is noticed.
    for length in 0..<bytes.count {
      try Data(bytes.prefix(length)).write(to: url)
      #expect(ManifestCache.read(at: url, matching: Self.facts) == nil, "cut at \(length)")
    }
    let text = String(decoding: bytes, as: UTF8.self)
    let damaged = Self.damagedVariants(of: text)
    for (index, variant) in damaged.enumerated() {
      #expect(variant != text, "variant \(index) changed nothing")
      try Data(variant.utf8).write(to: url)
      #expect(ManifestCache.read(at: url, matching: Self.facts) == nil, "variant \(index)")
    }
    var invalidUTF8 = bytes
    let index = try #require(invalidUTF8.firstIndex(of: 0xC3))  // the lead byte of "ô"
    invalidUTF8[index] = 0xFF
    try Data(invalidUTF8).write(to: url)
    #expect(ManifestCache.read(at: url, matching: Self.facts) == nil)
  }

  /// The sample's cache text damaged in every way a reader must notice, one way each.
  static func damagedVariants(of text: String) -> [String] {
    [
      text.replacingOccurrences(of: "thumbforge-manifest-cache 7", with: "thumbforge-cache 6"),
      // 0.4.0's earlier formats (no focus lines; no gamut field; no failures; no key
      // settings; no placeholders; no web sizes) are not read:
      // their imagesets are read again.
      text.replacingOccurrences(
        of: "thumbforge-manifest-cache 7", with: "thumbforge-manifest-cache 1"),
      text.replacingOccurrences(
        of: "thumbforge-manifest-cache 7", with: "thumbforge-manifest-cache 2"),
      text.replacingOccurrences(
        of: "thumbforge-manifest-cache 7", with: "thumbforge-manifest-cache 3"),
      text.replacingOccurrences(
        of: "thumbforge-manifest-cache 7", with: "thumbforge-manifest-cache 4"),
      text.replacingOccurrences(
        of: "thumbforge-manifest-cache 7", with: "thumbforge-manifest-cache 5"),
      text.replacingOccurrences(
        of: "thumbforge-manifest-cache 7", with: "thumbforge-manifest-cache 6"),
      // A destination twice, one no build writes, a file before any destination line, a
      // JSON field without its mark, a destination line cut short.
      text.replacingOccurrences(of: "\nD\tandroid\t-\t-\n", with: "\nD\tweb\t-\t-\n"),
      text.replacingOccurrences(of: "\nD\tandroid\t", with: "\nD\tios\t"),
      text.replacingOccurrences(
        of: "\nD\tweb\t+../Web/Flags/Côte d'Ivoire-flag.json\t+aa11\n", with: "\n"),
      text.replacingOccurrences(of: "\tweb\t+../Web/", with: "\tweb\t../Web/"),
      text.replacingOccurrences(of: "\t+aa11\n", with: "\n"),
      text.replacingOccurrences(of: "\t120\t75\t310", with: "\t120\tx\t310"),
      text.replacingOccurrences(of: "\tcc33\t+dark", with: "\tcc33\tdark"),
      text.replacingOccurrences(of: "\tdd44\t+dark", with: "\tdd44\t+dark\tmore"),
      text.replacingOccurrences(of: "\nH\t3OcR", with: "\nH\t3OcR\t"),
      text.replacingOccurrences(
        of: "\nH\t3OcRJYB4d3h/iIeHeEh3eIhw+j3A\n",
        with: "\nH\t3OcRJYB4d3h/iIeHeEh3eIhw+j3A\nH\tAAAA\n"),
      text.replacingOccurrences(of: "\nC\tmaster-scale\t2\n", with: "\nC\tmaster-scale\n"),
      text.replacingOccurrences(
        of: "\nC\tmaster-scale\t2\n", with: "\nC\tmaster-scale\t2\nC\tmaster-scale\t3\n"),
      text.replacingOccurrences(of: "\nX\tBroken@3x.png\t", with: "\nX\tBroken@3x.png\t\t"),
      text.replacingOccurrences(of: "\t+display-P3", with: "\tdisplay-P3"),
      text.replacingOccurrences(of: "\nP\t0.1\t", with: "\nP\tx\t"),
      text.replacingOccurrences(of: "\nW\t@2x", with: "\nP\t0.5\t0.5\nW\t@2x"),
      text.replacingOccurrences(of: "\nE\t3\n", with: "\nE\t2\n"),
      text.replacingOccurrences(of: "\nE\t3\n", with: "\nE\t3\nS\tx\ty\n"),
      text.replacingOccurrences(of: "\t+dark", with: "\t+dark\textra"),
      text.replacingOccurrences(of: "back\\\\slash", with: "back\\qslash"),
      text.replacingOccurrences(of: "\t80\t50\t706", with: "\t80\tfifty\t706"),
      text.replacingOccurrences(of: "10,0,80,50", with: "10,0,80"),
      text.replacingOccurrences(of: "\nI\tLogo", with: "\nZ\tLogo"),
      "{\"schema\": 1}\n",
    ]
  }

  @Test("builds write it; a damaged or stale cache falls back to manifest.json and is rewritten")
  func engineFallsBack() throws {
    let harness = try RenderHarness(config: "scales: [1, 2]\nmaster-scale: 2\n")
    defer { harness.remove() }
    for name in ["Alpha", "Beta", "Gamma"] {
      try harness.add(
        try VipsImage.solid(width: 16, height: 16, color: [200, 20, 20]), as: "Icons/\(name).png",
        format: .png)
    }
    var options = BuildOptions(folder: harness.folder)
    options.output = harness.folder.deletingLastPathComponent()
      .appendingPathComponent("out/Assets.xcassets")
    options.jobs = 1
    let engine = try BuildEngine(options: options)
    let workspace = engine.workspace
    let first = try engine.run()
    #expect(first.rendered == 6 && first.unchanged == 0)
    let manifest = try #require(try ManifestStore.read(at: workspace.manifest))
    let facts = FileFacts.current(at: workspace.manifest.path)
    #expect(ManifestCache.read(at: workspace.state.manifestCache, matching: facts) == manifest)

    // Damaged: the build reads the JSON, renders nothing and writes the cache again.
    try Data("thumbforge-manifest-cache 1\ngarbage\n".utf8).write(to: workspace.state.manifestCache)
    let again = try engine.run()
    #expect(again.rendered == 0 && again.unchanged == 6)
    #expect(ManifestCache.read(at: workspace.state.manifestCache, matching: facts) == manifest)

    // Stale: manifest.json now says Beta was made by another recipe. The cache still
    // describes the old file, which must not hide the change from `check`.
    let json = try String(contentsOf: workspace.manifest, encoding: .utf8)
    let beta = try #require(manifest.imageSets.first { $0.asset == "Icons/Beta" })
    try Data(json.replacingOccurrences(of: beta.recipeHash, with: "edited").utf8)
      .write(to: workspace.manifest)
    var checkOptions = options
    checkOptions.mode = .check
    let check = try BuildEngine(options: checkOptions).run()
    #expect(check.stale.map(\.path) == [beta.folder])
    #expect(check.stale.first?.detail == "its recipe or the plan of its master changed")
    let rebuilt = try engine.run()
    #expect(rebuilt.rendered == 2 && rebuilt.unchanged == 4)
    let updated = try #require(try ManifestStore.read(at: workspace.manifest))
    #expect(updated == manifest)
    #expect(
      ManifestCache.read(
        at: workspace.state.manifestCache, matching: FileFacts.current(at: workspace.manifest.path))
        == updated)
  }

  @Test("merge writes the cache too, so the first build after a merge reads it, not manifest.json")
  func mergeWritesIt() throws {
    let harness = try RenderHarness(config: "scales: [1, 2]\nmaster-scale: 2\n")
    defer { harness.remove() }
    for name in ["Alpha", "Beta", "Gamma", "Delta"] {
      try harness.add(
        try VipsImage.solid(width: 16, height: 16, color: [20, 200, 20]), as: "Icons/\(name).png",
        format: .png)
    }
    let out = harness.folder.deletingLastPathComponent().appendingPathComponent("out")
    var options = BuildOptions(folder: harness.folder)
    options.output = out.appendingPathComponent("Assets.xcassets")
    options.jobs = 1
    var parts: [URL] = []
    for index in 1...2 {
      var shard = options
      shard.shard = try Shard(index: index, count: 2)
      shard.part = out.deletingLastPathComponent().appendingPathComponent("part-\(index)")
      _ = try BuildEngine(options: shard).run()
      parts.append(try #require(shard.part))
    }
    let merged = try CatalogMerge.run(MergeOptions(parts: parts, output: options.output!))
    #expect(merged.rendered == 8)
    let workspace = try BuildEngine(options: options).workspace
    let manifest = try #require(try ManifestStore.read(at: workspace.manifest))
    let facts = FileFacts.current(at: workspace.manifest.path)
    #expect(ManifestCache.read(at: workspace.state.manifestCache, matching: facts) == manifest)
    // The next build finds the cache current: nothing to read from manifest.json, nothing to
    // render, and nothing rewritten.
    let previous = try PreviousBuild.load(workspace)
    #expect(previous.manifest == manifest)
    #expect(previous.recorded.staleCacheFacts == nil)
    let next = try BuildEngine(options: options).run()
    #expect(next.rendered == 0 && next.unchanged == 8)
    #expect(FileFacts.current(at: workspace.manifest.path) == facts)
  }
}
