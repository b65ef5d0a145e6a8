import Foundation
import Testing
import ThumbForgeTestSupport
import Vips

@testable import ThumbForge
@testable import ThumbForgeBasics
@testable import ThumbForgeCatalog
@testable import ThumbForgeConfig
@testable import ThumbForgePlanning
@testable import ThumbForgeRendering

/// `placeholders: thumbhash`: the encoder against another implementation, the planner's
/// choice of file, and the hashes a build records and keeps. Scripts/placeholders-check.sh
/// decodes a real build's with an independent decoder.
@Suite("Placeholders")
struct PlaceholderTests {
  /// Generated opaque pictures, RGBA rows.
  static func picture(width: Int, height: Int, _ pixel: (Int, Int) -> [Int]) -> [UInt8] {
    var rgba: [UInt8] = []
    for y in 0..<height {
      for x in 0..<width { rgba += pixel(x, y).map { UInt8($0 % 256) } + [255] }
    }
    return rgba
  }

  @Test("the encoder's bytes equal another implementation's (PyPI thumbhash 0.1.2's encoder)")
  func knownAnswers() {
    let landscape = Self.picture(width: 12, height: 7) { x, y in [x * 21, y * 37, x * y * 11 + 40] }
    #expect(
      ThumbHash.encode(width: 12, height: 7, rgba: landscape) == [
        27, 8, 14, 36, 154, 113, 118, 119, 112, 135, 136, 119, 136, 134, 192, 130, 10, 247, 120,
      ])
    let portrait = Self.picture(width: 5, height: 9) { x, y in [200 - x * 30 + 256, y * 25, 90] }
    #expect(
      ThumbHash.encode(width: 5, height: 9, rgba: portrait) == [
        219, 72, 10, 52, 22, 124, 8, 135, 136, 136, 135, 120, 119, 119, 140, 128, 200, 248, 136,
      ])
  }

  @Test("the header holds the average colour, the aspect ratio and whether there is alpha")
  func header() {
    // A solid colour: its luminance in 6 bits, no alpha, as many terms across as along.
    let grey = ThumbHash.encode(
      width: 10, height: 10, rgba: Self.picture(width: 10, height: 10) { _, _ in [128, 128, 128] })
    #expect(grey[0] & 63 == 32)  // 63 × 128/255, rounded
    #expect(grey[2] & 0x80 == 0 && grey[3] & 7 == 7 && grey[4] & 0x80 == 0)
    // 2:1: 7 terms along, 3.5 → 4 across (halves round up, as the reference's Math.round).
    let wide = ThumbHash.encode(
      width: 100, height: 50, rgba: Self.picture(width: 100, height: 50) { x, _ in [x, x, x] })
    #expect(wide[3] & 7 == 4 && wide[4] & 0x80 != 0)
    let tall = ThumbHash.encode(
      width: 50, height: 100, rgba: Self.picture(width: 50, height: 100) { _, y in [y, y, y] })
    #expect(tall[3] & 7 == 4 && tall[4] & 0x80 == 0)
    // Half transparent: the alpha flag and the alpha byte (average alpha in 4 bits).
    var half = Self.picture(width: 8, height: 8) { _, _ in [0, 90, 200] }
    for i in stride(from: 3, to: half.count / 2, by: 4) { half[i] = 0 }
    let alpha = ThumbHash.encode(width: 8, height: 8, rgba: half)
    #expect(alpha[2] & 0x80 != 0)
    #expect(alpha[5] & 15 == 8)  // 15 × 0.5, rounded up
  }

  @Test("the plan makes the largest sRGB file of the any appearance the placeholder's source")
  func planChoosesTheLargest() throws {
    let harness = try RenderHarness(
      config: """
        placeholders: thumbhash
        rules:
          - match: "Photos/*"
            recipes: [variants, tile]
        recipes:
          variants: { scales: [1, 2, 3] }
        """)
    defer { harness.remove() }
    try harness.add(
      try TestImages.photo(width: 300, height: 200), as: "Photos/Lake@3x.png", format: .png)
    try harness.add(
      try TestImages.photo(width: 300, height: 200), as: "Photos/Lake~dark@3x.png", format: .png)
    let plan = try BuildEngine(options: BuildOptions(folder: harness.folder)).plan()
    let sets = plan.jobs.flatMap(\.imageSets)
    #expect(sets.count == 2)
    for set in sets {
      let chosen = set.outputs.filter(\.makesPlaceholder)
      #expect(chosen.count == 1)
      #expect(chosen.first?.slot == Slot(scale: 3))
      #expect(set.placeholder == chosen.first?.path)
    }
    // Off (the default): no output is chosen, and the keys differ.
    try Data("output: ../out/Assets.xcassets\nrecipes:\n  variants: { scales: [1, 2, 3] }\n".utf8)
      .write(to: harness.folder.appendingPathComponent("thumbforge.yml"))
    let off = try BuildEngine(options: BuildOptions(folder: harness.folder)).plan()
    let offSets = off.jobs.flatMap(\.imageSets)
    #expect(
      offSets.allSatisfy {
        $0.placeholder == nil && !$0.outputs.contains(where: \.makesPlaceholder)
      })
    let variants = try #require(sets.first { $0.recipe.kind == .variants })
    #expect(offSets.first { $0.folder == variants.folder }.map(\.key) != variants.key)
  }

  @Test(
    "a build records one per imageset, made from the chosen file's pixels, the same on every build")
  func buildRecordsAndKeeps() throws {
    let harness = try RenderHarness(config: "placeholders: thumbhash\nmaster-scale: 2\n")
    defer { harness.remove() }
    try harness.add(
      try TestImages.photo(width: 240, height: 120), as: "Photo@2x.jpg", format: .jpeg)
    try harness.add(try TestImages.photo(width: 60, height: 90), as: "Tall@2x.png", format: .png)
    try harness.add(
      try VipsImage.solid(width: 40, height: 40, color: [10, 200, 30]), as: "Icon@2x.png",
      format: .png)
    var options = BuildOptions(folder: harness.folder)
    options.jobs = 1
    let engine = try BuildEngine(options: options)
    _ = try engine.run()
    let manifest = try #require(try ManifestStore.read(at: engine.workspace.manifest))
    #expect(manifest.imageSets.count == 3)
    let catalog = engine.workspace.catalog
    for set in manifest.imageSets {
      let hash = try #require(set.thumbHash.flatMap { Data(base64Encoded: $0) }, "\(set.folder)")
      // Made from the file the plan chose (the copied @2x master here), read back as it is.
      let file = try #require(set.outputs.max { $0.width * $0.height < $1.width * $1.height })
      let bytes = Array(try Data(contentsOf: catalog.appendingPathComponent(file.path)))
      #expect(Array(hash) == (try Placeholder.thumbHash(ofFile: bytes, failOn: .warning)))
      #expect((hash[4] & 0x80 != 0) == (file.width > file.height), "\(set.folder): orientation")
    }
    // Nothing changed: nothing rendered, the same manifest (placeholders included).
    let again = try engine.run()
    #expect(again.rendered == 0)
    #expect(try ManifestStore.read(at: engine.workspace.manifest) == manifest)
    // A deleted file other than the placeholder's: its set rendered again, the same placeholder.
    let tall = try #require(manifest.imageSets.first { $0.asset == "Tall" })
    let small = try #require(tall.outputs.min { $0.width < $1.width })
    try FileManager.default.removeItem(at: catalog.appendingPathComponent(small.path))
    _ = try engine.run()
    #expect(try ManifestStore.read(at: engine.workspace.manifest) == manifest)
  }
}

extension PlaceholderTests {
  @Test("turning placeholders on makes every imageset stale in check, naming the setting")
  func checkNamesTheSetting() throws {
    let harness = try RenderHarness(config: "master-scale: 2\n")
    defer { harness.remove() }
    for name in ["Alpha", "Beta"] {
      try harness.add(
        try VipsImage.solid(width: 20, height: 20, color: [9, 99, 199]), as: "\(name)@2x.png",
        format: .png)
    }
    var options = BuildOptions(folder: harness.folder)
    options.jobs = 1
    _ = try BuildEngine(options: options).run()
    try Data("output: ../out/Assets.xcassets\nmaster-scale: 2\nplaceholders: thumbhash\n".utf8)
      .write(to: harness.folder.appendingPathComponent("thumbforge.yml"))
    var check = options
    check.mode = .check
    let report = try BuildEngine(options: check).run()
    #expect(report.stale.map(\.path).sorted() == ["Alpha.imageset", "Beta.imageset"])
    #expect(report.stale.allSatisfy { $0.detail.contains("placeholders") }, "\(report.stale)")
    _ = try BuildEngine(options: options).run()
    #expect(try BuildEngine(options: check).run().stale.isEmpty)
  }
}

extension PlaceholderTests {
  @Test("shards and merge record the placeholders one build does")
  func shardsAndMerge() throws {
    let harness = try RenderHarness(config: "placeholders: thumbhash\nmaster-scale: 2\n")
    defer { harness.remove() }
    for (index, name) in ["Alpha", "Beta", "Gamma", "Delta"].enumerated() {
      try harness.add(
        try TestImages.photo(width: 40 + 20 * index, height: 60), as: "\(name)@2x.png",
        format: .png)
    }
    let out = harness.folder.deletingLastPathComponent().appendingPathComponent("out")
    var options = BuildOptions(folder: harness.folder)
    options.jobs = 1
    options.output = out.appendingPathComponent("single/Assets.xcassets")
    let single = try BuildEngine(options: options)
    _ = try single.run()
    let expected = try #require(try ManifestStore.read(at: single.workspace.manifest))
    #expect(expected.imageSets.count == 4 && expected.imageSets.allSatisfy { $0.thumbHash != nil })

    options.output = out.appendingPathComponent("merged/Assets.xcassets")
    var parts: [URL] = []
    for index in 1...2 {
      var shard = options
      shard.shard = try Shard(index: index, count: 2)
      shard.part = out.appendingPathComponent("part-\(index)")
      _ = try BuildEngine(options: shard).run()
      parts.append(try #require(shard.part))
    }
    _ = try CatalogMerge.run(MergeOptions(parts: parts, output: options.output!))
    let merged = try #require(
      try ManifestStore.read(at: try BuildEngine(options: options).workspace.manifest))
    #expect(merged.imageSets.map(\.thumbHash) == expected.imageSets.map(\.thumbHash))
  }
}

extension PlaceholderTests {
  @Test("the decoder's pictures equal another implementation's (PyPI thumbhash-python 1.0.1), ±1")
  func decoderKnownAnswers() throws {
    // Every 37th byte of that decoder's RGBA, which rounds where the reference truncates.
    let cases: [(String, Int, Int, [Int])] = [
      (
        "qNYNJIZAqZqGeHeaeIZ2cHcIdw==", 32, 18,
        [
          87, 133, 233, 255, 33, 181, 237, 255, 98, 185, 232, 255, 136, 190, 186, 255, 155, 186,
          123, 255, 158, 95, 196, 255, 158, 61, 217, 255, 45, 156, 224, 255, 51, 177, 200, 255,
          152, 188, 187, 255, 173, 168, 88, 255, 188, 136, 132, 255, 182, 74, 214, 255, 159, 162,
          220, 255, 101, 222, 228, 255, 204, 226, 222,
        ]
      ),
      (
        "IcmaG5IPd3eHiHBniH+G+AgYeHiAgCc=", 32, 19,
        [
          127, 0, 0, 255, 149, 0, 7, 255, 172, 0, 28, 255, 182, 43, 87, 255, 200, 81, 140, 255,
          208, 163, 175, 255, 204, 209, 194, 255, 217, 224, 218, 255, 250, 220, 229, 255, 254,
          221, 220, 255, 241, 207, 170, 255, 230, 108, 157, 255, 210, 86, 110, 255, 121, 61, 67,
          255, 153, 13, 45, 255, 179, 0, 26, 255, 174, 0,
        ]
      ),
    ]
    for (text, width, height, samples) in cases {
      let hash = try #require(Data(base64Encoded: text))
      let picture = try #require(ThumbHash.decode(Array(hash)))
      #expect(picture.width == width && picture.height == height, "\(text)")
      let mine = stride(from: 0, to: picture.rgba.count, by: 37).map { Int(picture.rgba[$0]) }
      #expect(mine.count == samples.count)
      #expect(zip(mine, samples).allSatisfy { abs($0 - $1) <= 1 }, "\(text): \(mine)")
    }
    #expect(ThumbHash.decode([1, 2, 3]) == nil)
    #expect(ThumbHash.decode([0, 0, 0x80, 0, 0]) == nil)  // alpha announced, no alpha byte
    // Generated bytes: nil, or a picture of at most 32 pixels a side; never a crash.
    var random = PropertyRandom(seed: 0x7468_6465_636f)
    for _ in 0..<1000 {
      let bytes = (0..<random.int(0...40)).map { _ in UInt8(random.int(0...255)) }
      guard let picture = ThumbHash.decode(bytes) else { continue }
      #expect((1...32).contains(picture.width) && (1...32).contains(picture.height), "\(bytes)")
      #expect(picture.rgba.count == picture.width * picture.height * 4)
    }
  }
}
