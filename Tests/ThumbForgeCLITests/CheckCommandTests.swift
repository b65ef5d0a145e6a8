import Foundation
import Testing
import ThumbForgeTestSupport
import Vips

/// `thumbforge check`: 0 when up to date; 1 with one line per stale, missing, modified and
/// orphaned output; writes nothing; `--json` is JSON.
@Suite("check", .timeLimit(.minutes(10)))
struct CheckCommandTests {
  @Test("Up to date → exit 0, and check writes nothing")
  func upToDate() async throws {
    let box = try Sandbox()
    try box.makeStandardAssets()
    try box.addHandMadeItems()
    expectExit(try await box.build(), 0)
    let before = FolderSnapshot(box.out)

    let result = try await box.check()
    expectExit(result, 0)
    #expect(result.stdout.contains("up to date"), "\(result)")
    #expect(result.stderr.isEmpty, "\(result)")
    let json = try await box.check(["--json"])
    expectExit(json, 0)
    let report = try #require(
      try JSONSerialization.jsonObject(with: Data(json.stdout.utf8)) as? [String: Any])
    #expect((report["stale"] as? [Any])?.isEmpty == true, "\(json)")
    #expect(FolderSnapshot(box.out).touched(comparedTo: before) == [])
  }

  @Test(
    "after a recipe change each stale imageset is one line naming the cause, counted by imageset")
  func recipeChangeNamesItsCause() async throws {
    let box = try Sandbox()
    try box.makeStandardAssets()
    expectExit(try await box.build(), 0)
    // The flags' size changes: other files and sizes than the manifest records, yet not
    // edited by hand.
    try box.write(
      Sandbox.defaultConfig + "recipes:\n  flag: { size: [30, 20] }\n", to: "thumbforge.yml")
    let result = try await box.check()
    expectExit(result, 1)
    let lines = result.stdout.split(separator: "\n").map(String.init)
    // A source's imagesets share one key (its master is decoded once for all), so the
    // flags' variants are re-rendered too, and say so.
    #expect(
      lines.filter { $0.hasPrefix("stale: ") }
        == [
          "Flags/Blue-flag.imageset", "Flags/Blue.imageset", "Flags/Red-flag.imageset",
          "Flags/Red.imageset",
        ].map {
          "stale: \($0) (the configuration changed (thumbforge.yml): recipe 'flag': size [40, 25] → [30, 20])"
        }, "\(result)")
    #expect(!result.stdout.contains("modified:"), "\(result)")
    #expect(lines.last == "4 stale, 0 problems; run 'thumbforge build' to update", "\(result)")
    // A master changed: its own line names the file, and nothing else about that imageset.
    expectExit(try await box.build(), 0)
    try box.image("Photos/Lake.jpg", Fixtures.photo(width: 300, height: 150, seed: 77))
    let edited = try await box.check()
    expectExit(edited, 1)
    #expect(
      edited.stdout.split(separator: "\n").filter { $0.contains("Photos/Lake.imageset") }
        == ["stale: Photos/Lake.imageset (source Photos/Lake.jpg changed)"], "\(edited)")
  }

  @Test("a change of another setting that enters imageset keys is named: master-scale, a focus")
  func settingChangeNamesItsKey() async throws {
    let config =
      "output: ../out/Assets.xcassets\nrules:\n  - { match: \"Photos/**\", recipes: [fill] }\n"
    let box = try Sandbox(config: config)
    try box.image("Photos/Lake.png", Fixtures.photo(width: 600, height: 300, seed: 3))
    try box.image("Photos/Pier.png", Fixtures.photo(width: 600, height: 300, seed: 4))
    // An unsuffixed `variants` master: its sizes come from `master-scale`.
    try box.image("Icon.png", Fixtures.photo(width: 90, height: 90, seed: 5))
    expectExit(try await box.build(), 0)
    try box.write(config + "master-scale: 2\n", to: "thumbforge.yml")
    let scaled = try await box.check()
    expectExit(scaled, 1)
    #expect(
      scaled.stdout.contains(
        "stale: Icon.imageset (the configuration changed (thumbforge.yml): master-scale 3 → 2)"
      ), "\(scaled)")
    // One asset's focus point: named on that asset's line only.
    try box.write(config + "assets:\n  Photos/Lake: { focus: [0.25, 0.5] }\n", to: "thumbforge.yml")
    let focused = try await box.check()
    expectExit(focused, 1)
    let lines = focused.stdout.split(separator: "\n").filter { $0.hasPrefix("stale: ") }
    #expect(
      lines == [
        "stale: Photos/Lake-fill.imageset (the configuration changed (thumbforge.yml): assets: Photos/Lake focus unset → [0.25, 0.5])"
      ], "\(focused)")
  }

  @Test("after a master failed to build, check says so and why, not 'not built yet'")
  func failedLastTime() async throws {
    let box = try Sandbox(config: "output: ../out/Assets.xcassets\n")
    let png = Data(try Fixtures.photo(width: 300, height: 150, seed: 5).encoded(as: .png))
    try box.write(png.prefix(png.count / 2), to: "Broken@3x.png")
    try box.image("Fine@3x.png", Fixtures.photo(width: 30, height: 15, seed: 6))
    expectExit(try await box.build(), 1)
    let result = try await box.check()
    expectExit(result, 1)
    #expect(
      result.stdout.contains(
        "missing: Broken.imageset (Broken@3x.png failed in the last build: PNG truncated after"),
      "\(result)")
    #expect(!result.stdout.contains("not built yet"), "\(result)")
    // Regenerating another asset keeps the record of the one it did not try.
    expectExit(try await box.regenerate(["Fine"]), 0)
    #expect(try box.readManifest()["failed"] != nil)
    let afterRegenerate = try await box.check()
    #expect(
      afterRegenerate.stdout.contains("Broken@3x.png failed in the last build: PNG truncated"),
      "\(afterRegenerate)")
    // The manifest records it, and a repaired master clears it.
    try box.write(png, to: "Broken@3x.png")
    expectExit(try await box.build(), 0)
    #expect(try box.readManifest()["failed"] == nil)
    expectExit(try await box.check(), 0)
  }

  @Test("Before any build every imageset is missing")
  func neverBuilt() async throws {
    let box = try Sandbox()
    try box.makeStandardAssets()
    let result = try await box.check()
    expectExit(result, 1)
    for folder in Sandbox.standardImageSets {
      #expect(result.stdout.contains("missing: \(folder)"), "\(result)")
    }
    #expect(!FileManager.default.fileExists(atPath: box.out.path), "check must write nothing")
  }

  @Test("Edited source, deleted output, hand-edited output, orphan → exit 1, one line each")
  func everyKindOfDifference() async throws {
    let box = try Sandbox()
    try box.makeStandardAssets()
    try box.image("Photos/Pier.jpg", Fixtures.photo(width: 300, height: 150, seed: 4))
    try box.addHandMadeItems()
    expectExit(try await box.build(), 0)

    // stale: a source edited.
    try box.image("Photos/Lake.jpg", Fixtures.photo(width: 300, height: 150, seed: 77))
    // missing: an output deleted.
    try FileManager.default.removeItem(at: box.inCatalog("Icon.imageset/Icon@2x.png"))
    // modified: an output edited by hand.
    let edited = box.inCatalog("Photos/Tree.imageset/Tree@3x.png")
    try Data(try Fixtures.photo(width: 300, height: 150, seed: 3).encoded(as: .png)).write(
      to: edited)
    // orphaned: an output whose source is gone.
    try FileManager.default.removeItem(at: box.asset("Photos/Pier.jpg"))
    let before = FolderSnapshot(box.out)

    let result = try await box.check()
    expectExit(result, 1)
    let lines = result.stdout.split(separator: "\n").map(String.init)
    let expected = [
      ("stale", "Photos/Lake.imageset"),
      ("missing", "Icon.imageset/Icon@2x.png"),
      ("modified", "Photos/Tree.imageset/Tree@3x.png"),
      ("orphaned", "Photos/Pier.imageset"),
    ]
    for (kind, path) in expected {
      let matching = lines.filter { $0.hasPrefix("\(kind): \(path)") }
      #expect(matching.count == 1, "one '\(kind): \(path)' line\n\(result)")
    }
    let differences = lines.filter { line in
      ["stale:", "missing:", "modified:", "orphaned:"].contains { line.hasPrefix($0) }
    }
    #expect(differences.count == expected.count, "only these four differences\n\(result)")
    #expect(FolderSnapshot(box.out).touched(comparedTo: before) == [], "check must write nothing")

    // --json: the same four, machine-readably.
    let json = try await box.check(["--json"])
    expectExit(json, 1)
    let report = try #require(
      try JSONSerialization.jsonObject(with: Data(json.stdout.utf8)) as? [String: Any], "\(json)")
    let stale = try #require(report["stale"] as? [[String: Any]])
    let pairs = stale.map { "\($0["kind"] ?? "")|\($0["path"] ?? "")" }.sorted()
    #expect(pairs == expected.map { "\($0.0)|\($0.1)" }.sorted())
    #expect(FolderSnapshot(box.out).touched(comparedTo: before) == [])

    // A build repairs everything; check agrees.
    let build = try await box.build()
    expectExit(build, 0)
    #expect(!FileManager.default.fileExists(atPath: box.inCatalog("Photos/Pier.imageset").path))
    expectExit(try await box.check(), 0)
  }

  @Test("A hand-edited Contents.json is reported as modified")
  func editedContentsJSON() async throws {
    let box = try Sandbox()
    try box.makeStandardAssets()
    expectExit(try await box.build(), 0)
    let contents = box.inCatalog("Flags/Red.imageset/Contents.json")
    var text = try String(contentsOf: contents, encoding: .utf8)
    text = text.replacingOccurrences(of: "\"version\" : 1", with: "\"version\" : 2")
    try text.write(to: contents, atomically: false, encoding: .utf8)
    let result = try await box.check()
    expectExit(result, 1)
    #expect(
      result.stdout.contains("modified: Flags/Red.imageset/Contents.json"), "\(result)")
  }
}
