import Foundation
import Testing
import ThumbForgeTestSupport
import Vips

/// `build --shard I/N` as separate processes, then `merge`: the same catalog, manifest and
/// accessors as one build, byte for byte; refusals of parts that do not belong together.
@Suite("Sharded builds and merge", .timeLimit(.minutes(10)))
struct ShardMergeTests {
  static let config = """
    output: ../out/Assets.xcassets
    swift: ../out/Asset.swift
    rules:
      - match: "Flags/**"
        recipes: [variants, flag]
      - match: "Photos/**"
        recipes: [variants, tile, fill]
    recipes:
      tile: { size: [60, 60] }
      fill: { size: [80, 40], gravity: attention }

    """

  /// 210 masters: SVG flags, JPEG and PNG photos in nested groups, RGBA icons (one with a
  /// dark appearance), so that every recipe kind is split between shards.
  static func mixedFolder() throws -> Sandbox {
    let box = try Sandbox(config: config)
    for index in 0..<60 {
      try box.svg(
        "Flags/Flag\(index).svg", width: 60, height: 40,
        colors: ["#\(String(format: "%06x", index * 40_503 % 0xffffff))", "#ffffff"])
    }
    for index in 0..<90 {
      let photo = try Fixtures.photo(width: 240 + index % 7 * 30, height: 160, seed: index)
      let ext = index % 3 == 0 ? "png" : "jpg"
      try box.image("Photos/Set\(index % 4)/Photo\(index).\(ext)", photo, quality: 80)
    }
    for index in 0..<60 {
      try box.image("Icons/Icon\(index).png", Fixtures.icon(width: 90, height: 90, seed: index))
    }
    try box.image("Icons/Icon0~dark.png", Fixtures.icon(width: 90, height: 90, seed: 999))
    return box
  }

  /// Starts every shard of `count` at once, each in its own process; returns their results.
  static func runShards(_ box: Sandbox, count: Int, parts: URL) async throws -> [CLIResult] {
    let running = try (1...count).map { index in
      try RunningCLI(
        arguments: [
          "build", box.assets.path, "--shard", "\(index)/\(count)", "--part",
          parts.appendingPathComponent("\(index)").path, "--jobs", "1",
        ], in: box.root)
    }
    var results: [CLIResult] = []
    for process in running { results.append(await process.wait()) }
    return results
  }

  static func merge(_ box: Sandbox, parts: [URL], into folder: URL) async throws -> CLIResult {
    try await CLI.run(
      ["merge"] + parts.map(\.path) + [
        "--output", folder.appendingPathComponent("Assets.xcassets").path, "--swift",
        folder.appendingPathComponent("Asset.swift").path,
      ], in: box.root)
  }

  @Test(
    "4 shards in parallel processes, merged: byte-identical to one build; a killed shard re-run gives the same",
    .enabled(if: TestTier.slowRuns, "\(TestTier.slowSkipReason)"))
  func fourShardsEqualOneBuild() async throws {
    let box = try Self.mixedFolder()
    let parts = box.root.appendingPathComponent("parts")
    let merged = box.root.appendingPathComponent("merged")
    for result in try await Self.runShards(box, count: 4, parts: parts) { expectExit(result, 0) }
    let folders = (1...4).map { parts.appendingPathComponent("\($0)") }
    try Self.expectWorkShared(folders)
    expectExit(try await Self.merge(box, parts: folders, into: merged), 0)
    let single = try await Self.singleBuild(box)
    #expect(
      single.changedContent(comparedTo: FolderSnapshot(merged, skipHidden: true)).prefix(5) == [])
    expectExit(
      try await box.check([
        "--output", merged.appendingPathComponent("Assets.xcassets").path, "--swift",
        merged.appendingPathComponent("Asset.swift").path,
      ]), 0)
    try await Self.killAndRerunShard3(box, folders)
    let again = box.root.appendingPathComponent("again")
    expectExit(try await Self.merge(box, parts: folders, into: again), 0)
    #expect(
      single.changedContent(comparedTo: FolderSnapshot(again, skipHidden: true)).prefix(5) == [])
  }

  @Test("merge without --swift writes the configuration's swift file and style, so check is green")
  func mergeWritesConfiguredAccessors() async throws {
    let box = try Sandbox(
      config: "output: ../out/Assets.xcassets\nswift: ../out/Asset.swift\n"
        + "swift-style: swiftgen\nswift-access: internal\nswift-enum: Images\n")
    try box.makeStandardAssets()
    let parts = box.root.appendingPathComponent("parts")
    for result in try await Self.runShards(box, count: 2, parts: parts) { expectExit(result, 0) }
    let folders = (1...2).map { parts.appendingPathComponent("\($0)") }
    let merged = try await CLI.run(
      ["merge"] + folders.map(\.path) + ["--output", box.catalog.path], in: box.root)
    expectExit(merged, 0)
    let swift = try String(
      contentsOf: box.out.appendingPathComponent("Asset.swift"), encoding: .utf8)
    #expect(swift.contains("internal enum Images"), "\(swift.prefix(400))")
    expectExit(try await box.check(), 0)
  }

  @Test("a master that fails in a shard is recorded by merge as a single build records it")
  func failuresMerged() async throws {
    let box = try Sandbox()
    try box.makeStandardAssets()
    let png = Data(try Fixtures.photo(width: 300, height: 150, seed: 5).encoded(as: .png))
    try box.write(png.prefix(png.count / 2), to: "Flags/Broken@3x.png")
    let parts = box.root.appendingPathComponent("parts")
    let results = try await Self.runShards(box, count: 2, parts: parts)
    #expect(results.map(\.status).sorted() == [0, 1], "\(results)")
    let folders = (1...2).map { parts.appendingPathComponent("\($0)") }
    expectExit(
      try await CLI.run(
        ["merge"] + folders.map(\.path) + ["--output", box.catalog.path], in: box.root), 0)
    let merged = try Data(contentsOf: box.manifest)
    let single = box.root.appendingPathComponent("single")
    expectExit(
      try await box.build(["--output", single.appendingPathComponent("Assets.xcassets").path]), 1)
    let built = try Data(contentsOf: single.appendingPathComponent("manifest.json"))
    #expect(merged == built)
    #expect(String(decoding: merged, as: UTF8.self).contains("Flags/Broken@3x.png"))
  }

  @Test(
    "with web: and android:, merged shards write every destination file as one build does; an orphan's files go, and check is green"
  )
  func destinationsMerged() async throws {
    let box = try Sandbox(
      config: """
        output: ../out/Assets.xcassets
        swift: ../out/Asset.swift
        web: { folder: ../out/web, widths: [40, 80, 160] }
        android: { folder: ../out/android/res }
        rules:
          - match: "Flags/**"
            recipes: [variants, flag]
          - match: "AppIcon*"
            recipes: [appicon]

        """)
    try box.makeStandardAssets()
    try box.image("AppIcon.png", Fixtures.photo(width: 1024, height: 1024, seed: 7))
    // Round 1 from nothing, round 2 against round 1's merged catalog, a master removed.
    for round in 1...2 {
      if round == 2 { try FileManager.default.removeItem(at: box.asset("Photos/Lake.jpg")) }
      try? FileManager.default.removeItem(at: box.root.appendingPathComponent("parts"))
      let parts = box.root.appendingPathComponent("parts")
      for result in try await Self.runShards(box, count: 2, parts: parts) {
        expectExit(result, 0)
      }
      let folders = (1...2).map { parts.appendingPathComponent("\($0)") }
      expectExit(
        try await CLI.run(
          ["merge"] + folders.map(\.path) + ["--output", box.catalog.path], in: box.root), 0)
      expectExit(try await box.check(), 0)
      let merged = FolderSnapshot(box.out, skipHidden: true)
      #expect(merged.paths.contains { $0.hasPrefix("web/Photos/Tree-") })
      #expect(merged.paths.contains { $0.hasPrefix("android/res/mipmap-anydpi-v26/") })
      #expect(merged.paths.contains { $0.hasPrefix("android/res/drawable-xxxhdpi/") })
      #expect(merged.paths.contains { $0.contains("lake") || $0.contains("Lake") } == (round == 1))
      // The same folder built whole, from nothing.
      try FileManager.default.removeItem(at: box.out)
      expectExit(try await box.build(), 0)
      let single = FolderSnapshot(box.out, skipHidden: true)
      #expect(single.changedContent(comparedTo: merged).prefix(5) == [])
    }
  }

  /// Every shard of the parts `folders` got work, and none the bulk of it.
  static func expectWorkShared(_ folders: [URL]) throws {
    let written = try folders.map { folder in
      try #require(
        JSONSerialization.jsonObject(
          with: Data(contentsOf: folder.appendingPathComponent("shard.json"))) as? [String: Any]
      )["written"] as? [String] ?? []
    }
    let total = written.reduce(0) { $0 + $1.count }
    #expect(total == 60 * 2 + 90 * 3 + 60)
    for list in written {
      #expect(list.count > total / 8 && list.count < total / 2, "\(list.count)")
    }
  }

  /// The single build (catalog and Swift file), elsewhere: where the configuration puts the
  /// catalog, the shards would build against it (and find everything up to date).
  static func singleBuild(_ box: Sandbox) async throws -> FolderSnapshot {
    let reference = box.root.appendingPathComponent("single")
    expectExit(
      try await box.build([
        "--jobs", "2", "--output", reference.appendingPathComponent("Assets.xcassets").path,
        "--swift", reference.appendingPathComponent("Asset.swift").path,
      ]), 0)
    let single = FolderSnapshot(reference, skipHidden: true)
    #expect(single.paths.count > 700)
    return single
  }

  /// Shard 3 killed as soon as it has written something (its unfinished part is refused by
  /// `merge`), then run again from scratch.
  static func killAndRerunShard3(_ box: Sandbox, _ folders: [URL]) async throws {
    try FileManager.default.removeItem(at: folders[2])
    let killed = try RunningCLI(
      arguments: [
        "build", box.assets.path, "--shard", "3/4", "--part", folders[2].path, "--jobs", "1",
      ],
      in: box.root)
    let partCatalog = folders[2].appendingPathComponent("Assets.xcassets")
    while !killed.hasEnded && !FileManager.default.fileExists(atPath: partCatalog.path) {
      try await Task.sleep(for: .milliseconds(2))
    }
    killed.send(SIGKILL)
    let outcome = await killed.wait()
    if !outcome.signalled {
      // The shard finished before the kill landed: take its record away, which leaves
      // what a killed shard leaves (shard.json is written last).
      expectExit(outcome, 0)
      try FileManager.default.removeItem(at: folders[2].appendingPathComponent("shard.json"))
    }
    // A part without shard.json is refused, whatever it holds.
    let refused = try await Self.merge(
      box, parts: folders, into: box.root.appendingPathComponent("refused"))
    expectExit(refused, 2)
    #expect(refused.stderr.contains("not a finished shard part"), "\(refused)")
    expectExit(
      try await CLI.run(
        ["build", box.assets.path, "--shard", "3/4", "--part", folders[2].path], in: box.root), 0)
  }

  @Test("Merging one shard of one gives the shard's own catalog, equal to a single build")
  func oneShard() async throws {
    let box = try Sandbox(config: Self.config)
    try box.makeStandardAssets()
    let part = box.root.appendingPathComponent("part")
    expectExit(
      try await CLI.run(
        ["build", box.assets.path, "--shard", "1/1", "--part", part.path], in: box.root), 0)
    let merged = box.root.appendingPathComponent("merged")
    expectExit(try await Self.merge(box, parts: [part], into: merged), 0)
    expectExit(try await box.build(), 0)
    let single = FolderSnapshot(box.out, skipHidden: true)
    #expect(single.changedContent(comparedTo: FolderSnapshot(merged, skipHidden: true)) == [])
    let partCatalog = FolderSnapshot(part.appendingPathComponent("Assets.xcassets"))
    let imagesets = FolderSnapshot(box.catalog).files.filter { $0.key.contains(".imageset/") }
    #expect(partCatalog.files.mapValues(\.bytes) == imagesets.mapValues(\.bytes))
  }

  @Test("THUMBFORGE_SHARD and JOB_COMPLETION_INDEX with --shards pick the shard")
  func shardFromEnvironment() async throws {
    let box = try Sandbox(config: Self.config)
    try box.makeStandardAssets()
    let byEnvironment = try await RunningCLI(
      arguments: ["build", box.assets.path], in: box.root,
      environment: ["THUMBFORGE_SHARD": "2/2"]
    ).wait()
    expectExit(byEnvironment, 0)
    #expect(
      FileManager.default.fileExists(
        atPath: box.out.appendingPathComponent("shards/2-of-2/shard.json").path))
    #expect(!FileManager.default.fileExists(atPath: box.manifest.path), "a shard writes no catalog")
    let byIndex = try await RunningCLI(
      arguments: ["build", box.assets.path, "--shards", "2"], in: box.root,
      environment: ["JOB_COMPLETION_INDEX": "0"]
    ).wait()
    expectExit(byIndex, 0)
    let record = try String(
      contentsOf: box.out.appendingPathComponent("shards/1-of-2/shard.json"), encoding: .utf8)
    #expect(record.contains("\"index\" : 1"))
    let outOfRange = try await RunningCLI(
      arguments: ["build", box.assets.path, "--shards", "2"], in: box.root,
      environment: ["JOB_COMPLETION_INDEX": "2"]
    ).wait()
    expectExit(outOfRange, 2)
    #expect(outOfRange.stderr.contains("JOB_COMPLETION_INDEX=2 is out of range"), "\(outOfRange)")
    let bad = try await box.build(["--shard", "3/2"])
    expectExit(bad, 2)
    #expect(bad.stderr.contains("the shard index must be 1…2, got 3"), "\(bad)")
  }

  @Test("merge refuses, exit 2, parts that do not belong together, naming the shard")
  func refusals() async throws {
    let box = try Sandbox(config: Self.config)
    try box.makeStandardAssets()
    let merging = PartMerging(box: box)
    try await merging.shard("1/3", into: "a1")
    try await merging.shard("2/3", into: "a2")
    try await merging.shard("3/3", into: "a3")
    try await merging.shard("1/2", into: "b1")
    try await merging.expectRefusal(["a1", "a3"], "missing shard 2/3 (given: 1/3, 3/3)")
    try await merging.expectRefusal(["a1", "a2", "a3", "a2"], "shard 2/3 is given twice")
    try await merging.expectRefusal(["a1", "a2", "b1"], "(shard 1/2) is one of 2 shards")
    try await merging.expectRefusal(["a1", "a2", "a3", "nowhere"], "no such part folder")
    try await merging.refusesOtherConfigurationOrFolder()
    try await merging.refusesOtherToolOrLibvips()
    try await merging.refusesDamagedOrOverlappingParts()

    // The parts that do belong together merge.
    let good = try await Self.merge(
      box, parts: ["a1", "a2", "a3"].map(merging.part),
      into: box.root.appendingPathComponent("good"))
    expectExit(good, 0)
  }

  /// Shard parts of one sandbox, built and merged by name (`parts/NAME`), for ``refusals()``.
  struct PartMerging {
    let box: Sandbox

    /// The part folder `name`.
    func part(_ name: String) -> URL {
      box.root.appendingPathComponent("parts").appendingPathComponent(name)
    }

    /// Builds shard `spec` (`I/N`) into part `name`.
    func shard(_ spec: String, into name: String) async throws {
      expectExit(
        try await CLI.run(
          ["build", box.assets.path, "--shard", spec, "--part", part(name).path], in: box.root), 0)
    }

    /// Expects `merge` of the parts `names` to exit 2 saying `message`, writing nothing.
    func expectRefusal(
      _ names: [String], _ message: String, sourceLocation: SourceLocation = #_sourceLocation
    ) async throws {
      let out = box.root.appendingPathComponent("merged-\(UUID().uuidString.prefix(6))")
      let result = try await ShardMergeTests.merge(box, parts: names.map(part), into: out)
      expectExit(result, 2, sourceLocation: sourceLocation)
      #expect(result.stderr.contains(message), "\(result)", sourceLocation: sourceLocation)
      #expect(
        !FileManager.default.fileExists(atPath: out.path), "nothing written",
        sourceLocation: sourceLocation)
    }

    /// A shard built from another configuration (a recipe's size changed), and one built
    /// from another folder state (a master changed), are refused beside parts `a1`–`a3`.
    func refusesOtherConfigurationOrFolder() async throws {
      try box.write(
        ShardMergeTests.config.replacingOccurrences(of: "[60, 60]", with: "[64, 64]"),
        to: "thumbforge.yml")
      try await shard("2/3", into: "c2")
      try await expectRefusal(
        ["a1", "c2", "a3"], "(shard 2/3) was built from a different configuration")
      try box.write(ShardMergeTests.config, to: "thumbforge.yml")

      try box.image("Photos/Lake.jpg", Fixtures.photo(width: 300, height: 150, seed: 77))
      try await shard("3/3", into: "d3")
      try await expectRefusal(["a1", "a2", "d3"], "(shard 3/3) saw a different asset folder")
    }

    /// Records of part `a2` edited as another tool or libvips would have written them are
    /// refused.
    func refusesOtherToolOrLibvips() async throws {
      for (key, value, message) in [
        ("toolVersion", "0.3.0", "was built by thumbforge 0.3.0"),
        ("libvipsVersion", "8.15.0", "was built with libvips 8.15.0"),
      ] {
        let copy = part("e-\(key)")
        try FileManager.default.copyItem(at: part("a2"), to: copy)
        let record = copy.appendingPathComponent("shard.json")
        let text = try String(contentsOf: record, encoding: .utf8)
        let edited = text.replacingOccurrences(
          of: #""\#(key)" : "[^"]*""#, with: "\"\(key)\" : \"\(value)\"",
          options: .regularExpression)
        #expect(edited != text)
        try edited.write(to: record, atomically: true, encoding: .utf8)
        try await expectRefusal(["a1", "e-\(key)", "a3"], message)
      }
    }

    /// A part with an output missing, and two parts holding the same imageset (a part's
    /// manifest copied into another), are refused.
    func refusesDamagedOrOverlappingParts() async throws {
      let damaged = part("f1")
      try FileManager.default.copyItem(at: part("a1"), to: damaged)
      let catalog = damaged.appendingPathComponent("Assets.xcassets")
      let image = try #require(
        FileManager.default.enumerator(atPath: catalog.path)?.compactMap { $0 as? String }
          .first { $0.hasSuffix(".png") || $0.hasSuffix(".jpg") })
      try FileManager.default.removeItem(at: catalog.appendingPathComponent(image))
      try await expectRefusal(["f1", "a2", "a3"], "is missing or incomplete: the part is damaged")

      // A part whose manifest sends a file out of it (`..`) is refused before any write.
      let escaping = part("h1")
      try FileManager.default.copyItem(at: part("a1"), to: escaping)
      let url = escaping.appendingPathComponent("manifest.json")
      var manifest = try #require(
        JSONSerialization.jsonObject(with: Data(contentsOf: url)) as? [String: Any])
      var sets = try #require(manifest["imageSets"] as? [[String: Any]])
      var outputs = try #require(sets[0]["outputs"] as? [[String: Any]])
      outputs[0]["path"] = "../../escaped.png"
      sets[0]["outputs"] = outputs
      manifest["imageSets"] = sets
      try JSONSerialization.data(withJSONObject: manifest).write(to: url)
      try await expectRefusal(["h1", "a2", "a3"], "../../escaped.png leaves the part")

      let overlapping = part("g2")
      try FileManager.default.copyItem(at: part("a2"), to: overlapping)
      try FileManager.default.removeItem(at: overlapping.appendingPathComponent("manifest.json"))
      try FileManager.default.copyItem(
        at: part("a1").appendingPathComponent("manifest.json"),
        to: overlapping.appendingPathComponent("manifest.json"))
      try await expectRefusal(["a1", "g2", "a3"], "the parts overlap")
    }
  }

  @Test(
    "Shards built against a merged catalog render only what changed; merged into it, the result equals a fresh build"
  )
  func incrementalShards() async throws {
    let box = try Sandbox(config: Self.config)
    try box.makeStandardAssets()
    let parts = box.root.appendingPathComponent("parts")
    let folders = (1...2).map { parts.appendingPathComponent("\($0)") }
    _ = try await Self.runShards(box, count: 2, parts: parts)
    // Merged where the configuration puts the catalog: the next shards build against it.
    expectExit(try await Self.merge(box, parts: folders, into: box.out), 0)
    try box.image("Photos/Lake.jpg", Fixtures.photo(width: 300, height: 150, seed: 42))
    try FileManager.default.removeItem(at: box.asset("Icon.png"))
    for result in try await Self.runShards(box, count: 2, parts: parts) { expectExit(result, 0) }
    let written = try folders.flatMap { folder in
      try #require(
        JSONSerialization.jsonObject(
          with: Data(contentsOf: folder.appendingPathComponent("shard.json"))) as? [String: Any]
      )["written"] as? [String] ?? []
    }
    #expect(
      written.sorted() == [
        "Photos/Lake-fill.imageset", "Photos/Lake-tile.imageset", "Photos/Lake.imageset",
      ])

    // Into another (empty) catalog, the carried imagesets are missing: refused.
    let elsewhere = try await Self.merge(
      box, parts: folders, into: box.root.appendingPathComponent("elsewhere"))
    expectExit(elsewhere, 2)
    #expect(elsewhere.stderr.contains("does not hold that version"), "\(elsewhere)")

    let merge = try await Self.merge(box, parts: folders, into: box.out)
    expectExit(merge, 0)
    #expect(!FileManager.default.fileExists(atPath: box.inCatalog("Icon.imageset").path))
    let fresh = box.root.appendingPathComponent("fresh")
    expectExit(
      try await box.build([
        "--output", fresh.appendingPathComponent("Assets.xcassets").path, "--swift",
        fresh.appendingPathComponent("Asset.swift").path,
      ]), 0)
    #expect(
      FolderSnapshot(box.out, skipHidden: true).changedContent(
        comparedTo: FolderSnapshot(fresh, skipHidden: true)) == [])
    expectExit(try await box.check(), 0)
  }
}
