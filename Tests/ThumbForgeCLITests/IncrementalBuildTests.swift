import Foundation
import Testing
import ThumbForgeTestSupport
import Vips

/// `thumbforge build` end to end: a full build, a no-change rebuild, an edited source, a
/// deleted source, `regenerate`, and imagesets ThumbForge did not make.
@Suite("Incremental builds", .timeLimit(.minutes(10)))
struct IncrementalBuildTests {
  @Test("A full build writes every output at its exact pixel size, the manifest and Contents.json")
  func fullBuild() async throws {
    let box = try Sandbox()
    try box.makeStandardAssets()
    try box.addHandMadeItems()
    let handMade = box.handMadeSnapshot()

    let result = try await box.build()
    expectExit(result, 0)
    #expect(result.stdout.contains("14 rendered"), "\(result)")

    let written = FolderSnapshot(box.catalog).paths.filter { Sandbox.handMade[$0] == nil }
    #expect(written == Sandbox.standardCatalogFiles)
    for (path, size) in Sandbox.standardOutputs {
      let actual = try imageSize(box.inCatalog(path))
      #expect(actual == size, "\(path) is \(actual), expected \(size)")
    }
    for folder in Sandbox.standardImageSets {
      let data = try Data(contentsOf: box.inCatalog(folder + "/Contents.json"))
      let json = try JSONSerialization.jsonObject(with: data) as? [String: Any]
      #expect(json?["images"] != nil, "\(folder)/Contents.json has no images")
    }
    #expect(FileManager.default.fileExists(atPath: box.manifest.path))
    let sets = try box.manifestImageSets()
    #expect(sets.keys.sorted() == Sandbox.standardImageSets)
    let outputs = sets.values.flatMap { ($0["outputs"] as? [[String: Any]]) ?? [] }
    for output in outputs {
      let path = try #require(output["path"] as? String)
      let size = try #require(Sandbox.standardOutputs[path], "unexpected output \(path)")
      #expect(output["width"] as? Int == size.0 && output["height"] as? Int == size.1, "\(path)")
      let bytes = try Data(contentsOf: box.inCatalog(path))
      #expect(output["bytes"] as? Int == bytes.count, "\(path)")
    }
    #expect(outputs.count == Sandbox.standardOutputs.count)
    #expect(box.handMadeSnapshot() == handMade)
  }

  @Test("A second build renders nothing, says so, and writes nothing in the catalog")
  func noChangeRebuild() async throws {
    let box = try Sandbox()
    try box.makeStandardAssets()
    try box.addHandMadeItems()
    expectExit(try await box.build(), 0)
    let before = FolderSnapshot(box.catalog)
    let manifest = try Data(contentsOf: box.manifest)

    let again = try await box.build()
    expectExit(again, 0)
    #expect(again.stdout.contains("up to date"), "\(again)")
    #expect(again.stdout.contains("nothing to render"), "\(again)")
    #expect(!again.stderr.contains("rendering"), "\(again)")
    #expect(FolderSnapshot(box.catalog).touched(comparedTo: before) == [])
    #expect(try Data(contentsOf: box.manifest) == manifest)

    let json = try await box.build(["--json"])
    expectExit(json, 0)
    let report = try JSONSerialization.jsonObject(with: Data(json.stdout.utf8)) as? [String: Any]
    #expect(report?["rendered"] as? Int == 0)
    #expect(report?["unchanged"] as? Int == Sandbox.standardOutputs.count)
  }

  @Test("Rewriting one source re-renders only that source's outputs")
  func editedSource() async throws {
    let box = try Sandbox()
    try box.makeStandardAssets()
    try box.addHandMadeItems()
    expectExit(try await box.build(), 0)
    let before = FolderSnapshot(box.catalog)
    let setsBefore = try canonicalEntries(try box.manifestImageSets())

    try box.image("Photos/Lake.jpg", Fixtures.photo(width: 300, height: 150, seed: 99))
    let result = try await box.build()
    expectExit(result, 0)
    #expect(result.stdout.contains("2 rendered"), "\(result)")

    let after = FolderSnapshot(box.catalog)
    let lake = "Photos/Lake.imageset/"
    #expect(
      after.changedContent(comparedTo: before) == [lake + "Lake@2x.jpg", lake + "Lake@3x.jpg"])
    let touchedElsewhere = after.touched(comparedTo: before).filter { !$0.hasPrefix(lake) }
    #expect(touchedElsewhere == [], "files of other sources were rewritten")
    #expect(try imageSize(box.inCatalog(lake + "Lake@2x.jpg")) == (200, 100))

    let setsAfter = try canonicalEntries(try box.manifestImageSets())
    #expect(setsAfter.keys.sorted() == setsBefore.keys.sorted())
    for folder in setsBefore.keys where folder != "Photos/Lake.imageset" {
      #expect(setsAfter[folder] == setsBefore[folder], "manifest entry \(folder) changed")
    }
    #expect(setsAfter["Photos/Lake.imageset"] != setsBefore["Photos/Lake.imageset"])
  }

  @Test("Deleting sources removes exactly their outputs; hand-made catalog items survive")
  func deletedSource() async throws {
    let box = try Sandbox()
    try box.makeStandardAssets()
    try box.addHandMadeItems()
    let handMade = box.handMadeSnapshot()
    expectExit(try await box.build(), 0)
    expectExit(try await box.build(), 0)
    let before = FolderSnapshot(box.catalog)

    try FileManager.default.removeItem(at: box.asset("Photos/Tree.png"))
    let result = try await box.build()
    expectExit(result, 0)
    #expect(result.stdout.contains("removed"), "\(result)")
    let after = FolderSnapshot(box.catalog)
    let tree = "Photos/Tree.imageset/"
    #expect(after.paths == before.paths.filter { !$0.hasPrefix(tree) })
    #expect(after.touched(comparedTo: before) == before.paths.filter { $0.hasPrefix(tree) })
    #expect(!FileManager.default.fileExists(atPath: box.inCatalog("Photos/Tree.imageset").path))
    #expect(try box.manifestImageSets()["Photos/Tree.imageset"] == nil)
    #expect(box.handMadeSnapshot() == handMade)

    // A whole group's sources gone: its imagesets and its group folder go too.
    try FileManager.default.removeItem(at: box.asset("Flags"))
    expectExit(try await box.build(), 0)
    #expect(!FileManager.default.fileExists(atPath: box.inCatalog("Flags").path))
    let remaining = FolderSnapshot(box.catalog).paths.filter { Sandbox.handMade[$0] == nil }
    #expect(
      remaining == [
        "Contents.json", "Icon.imageset/Contents.json", "Icon.imageset/Icon@2x.png",
        "Icon.imageset/Icon@3x.png", "Photos/Contents.json", "Photos/Lake.imageset/Contents.json",
        "Photos/Lake.imageset/Lake@2x.jpg", "Photos/Lake.imageset/Lake@3x.jpg",
      ])
    #expect(box.handMadeSnapshot() == handMade)
    expectExit(try await box.build(["--force"]), 0)
    #expect(box.handMadeSnapshot() == handMade)
  }

  @Test("regenerate NAME renders only that asset and leaves every other file as it was")
  func regenerateOneAsset() async throws {
    let box = try Sandbox()
    try box.makeStandardAssets()
    try box.addHandMadeItems()
    expectExit(try await box.build(), 0)
    let before = FolderSnapshot(box.catalog)

    let result = try await box.regenerate(["Lake"])
    expectExit(result, 0)
    #expect(result.stdout.contains("2 rendered"), "\(result)")
    let after = FolderSnapshot(box.catalog)
    let lake = "Photos/Lake.imageset/"
    let touched = after.touched(comparedTo: before)
    #expect(touched.contains(lake + "Lake@2x.jpg") && touched.contains(lake + "Lake@3x.jpg"))
    #expect(touched.filter { !$0.hasPrefix(lake) } == [], "other assets were rewritten")
    #expect(after.changedContent(comparedTo: before) == [], "same source, same bytes")

    // A qualified name renders every imageset of that asset (variants and flag) only.
    let flag = try await box.regenerate(["Flags/Red"])
    expectExit(flag, 0)
    #expect(flag.stdout.contains("4 rendered"), "\(flag)")
    let third = FolderSnapshot(box.catalog)
    #expect(
      third.touched(comparedTo: after).allSatisfy {
        $0.hasPrefix("Flags/Red.imageset/") || $0.hasPrefix("Flags/Red-flag.imageset/")
      })

    let unknown = try await box.regenerate(["Nope"])
    expectExit(unknown, 1)
    #expect(unknown.stderr.contains("Nope"), "\(unknown)")
    #expect(FolderSnapshot(box.catalog).touched(comparedTo: third) == [])
  }

  @Test("An imageset ThumbForge did not make is never overwritten, unless --adopt")
  func foreignImageSet() async throws {
    let box = try Sandbox()
    try box.makeStandardAssets()
    let foreign = "Photos/Lake.imageset/Contents.json"
    let text = Sandbox.handMade["Other.imageset/Contents.json"]!
    try box.write(Data(text.utf8), to: foreign, in: box.catalog)
    let original = FolderSnapshot(box.catalog).files[foreign]

    let result = try await box.build()
    expectExit(result, 1)
    let line = result.stderr.split(separator: "\n").first { $0.contains("Photos/Lake.imageset") }
    #expect(line != nil, "the error must name the imageset\n\(result)")
    #expect(line?.contains("--adopt") == true, "\(result)")
    #expect(FolderSnapshot(box.catalog).files[foreign] == original)
    #expect(
      !FileManager.default.fileExists(
        atPath: box.inCatalog("Photos/Lake.imageset/Lake@2x.jpg").path))
    // The other sources are built.
    #expect(
      FileManager.default.fileExists(atPath: box.inCatalog("Photos/Tree.imageset/Tree@2x.png").path)
    )
    #expect(try box.manifestImageSets()["Photos/Lake.imageset"] == nil)

    // Still refused on the next run.
    expectExit(try await box.build(), 1)
    #expect(FolderSnapshot(box.catalog).files[foreign] == original)

    let adopted = try await box.build(["--adopt"])
    expectExit(adopted, 0)
    #expect(try imageSize(box.inCatalog("Photos/Lake.imageset/Lake@3x.jpg")) == (300, 150))
    let contents = try String(contentsOf: box.inCatalog(foreign), encoding: .utf8)
    #expect(contents.contains("Lake@2x.jpg"))
    #expect(try box.manifestImageSets()["Photos/Lake.imageset"] != nil)
    expectExit(try await box.build(), 0)
  }
}
