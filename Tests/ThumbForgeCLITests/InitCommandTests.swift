import Foundation
import Testing
import ThumbForgeTestSupport
import Vips

/// `thumbforge init`: a starter configuration, or an asset folder from a catalog a team
/// already has, whose build gives the catalog back unchanged; never an overwrite.
@Suite("init", .timeLimit(.minutes(10)))
struct InitCommandTests {
  @Test("--from, then build in place: no file of the catalog changes, and check is green")
  func inPlace() async throws {
    let box = try Sandbox()
    try box.makeStandardAssets()
    expectExit(try await box.build(), 0)
    try box.addHandMadeItems()
    // A hand-made 1x slot next to the built ones, of a size no derivation would give.
    try box.write(
      Data(try Fixtures.photo(width: 100, height: 51, seed: 9).encoded(as: .jpeg)),
      to: "Photos/Lake.imageset/Lake.jpg", in: box.catalog)
    let before = FolderSnapshot(box.catalog, skipHidden: true).files.mapValues(\.bytes)

    let art = box.out.appendingPathComponent("Art")
    let made = try await CLI.run(["init", "--from", box.catalog.path, art.path], in: box.root)
    expectExit(made, 0)
    #expect(made.stdout.contains("sets from \(box.catalog.path)"), "\(made)")
    let config = try String(
      contentsOf: art.appendingPathComponent("thumbforge.yml"), encoding: .utf8)
    #expect(config.contains("output: ../Assets.xcassets"), "\(config)")
    #expect(
      FileManager.default.fileExists(
        atPath: art.appendingPathComponent("AccentColor.colorset/Contents.json").path))

    let built = try await CLI.run(["build", art.path], in: box.root)
    expectExit(built, 0)
    #expect(FolderSnapshot(box.catalog, skipHidden: true).files.mapValues(\.bytes) == before)
    expectExit(try await CLI.run(["check", art.path], in: box.root), 0)
  }

  @Test("--from: what cannot come back as it was is named, and the exit code is 1")
  func problems() async throws {
    let box = try Sandbox()
    try box.makeStandardAssets()
    expectExit(try await box.build(), 0)
    try FileManager.default.removeItem(
      at: box.catalog.appendingPathComponent("Photos/Lake.imageset/Lake@2x.jpg"))
    try box.write(Data("stray".utf8), to: "Photos/notes.txt", in: box.catalog)
    try box.write(Data("x".utf8), to: "Broken.colorset/readme", in: box.catalog)
    let art = box.root.appendingPathComponent("Art")
    let made = try await CLI.run(["init", "--from", box.catalog.path, art.path], in: box.root)
    expectExit(made, 1)
    for line in [
      "Assets.xcassets/Photos/Lake.imageset: Contents.json lists 'Lake@2x.jpg', which is missing; the build makes it from 'Lake@3x.jpg'",
      "Assets.xcassets/Photos/notes.txt: not inside a set folder",
      "Assets.xcassets/Broken.colorset: has no Contents.json",
    ] {
      #expect(made.stderr.contains(line), "\(line)\n\(made)")
    }
    #expect(made.stdout.contains("3 to look at"), "\(made)")
  }

  @Test("--from never overwrites: a file it would write exists, so it writes nothing")
  func noOverwriteFromCatalog() async throws {
    let box = try Sandbox()
    try box.makeStandardAssets()
    expectExit(try await box.build(), 0)
    let again = box.root.appendingPathComponent("again")
    let mine = "Photos/Lake.imageset/Lake@3x.jpg"
    try FileManager.default.createDirectory(
      at: again.appendingPathComponent("Photos/Lake.imageset"), withIntermediateDirectories: true)
    try Data("mine".utf8).write(to: again.appendingPathComponent(mine))
    let refused = try await CLI.run(["init", "--from", box.catalog.path, again.path], in: box.root)
    expectExit(refused, 2)
    #expect(refused.stderr.contains("\(mine) already exists"), "\(refused)")
    #expect(FolderSnapshot(again).files.keys.sorted() == [mine], "nothing else written")
    #expect(try Data(contentsOf: again.appendingPathComponent(mine)) == Data("mine".utf8))
    // A catalog inside the folder it would fill is refused (it would be read twice).
    let inside = try await CLI.run(
      ["init", "--from", box.catalog.path, box.out.path], in: box.root)
    expectExit(inside, 2)
  }

  @Test("without --from: a commented thumbforge.yml that loads; a second init refuses")
  func starter() async throws {
    let box = try Sandbox(config: nil)
    let fresh = box.root.appendingPathComponent("fresh")
    let made = try await CLI.run(["init", fresh.path], in: box.root)
    expectExit(made, 0)
    let config = fresh.appendingPathComponent("thumbforge.yml")
    let text = try String(contentsOf: config, encoding: .utf8)
    #expect(text.contains("# scales: [2, 3]") && text.contains("# rules:"))
    let lint = try await CLI.run(["lint", fresh.path], in: box.root)
    expectExit(lint, 0)
    try Data("mine\n".utf8).write(to: config)
    let again = try await CLI.run(["init", fresh.path], in: box.root)
    expectExit(again, 2)
    #expect(again.stderr.contains("thumbforge.yml already exists"), "\(again)")
    #expect(try String(contentsOf: config, encoding: .utf8) == "mine\n")
    let help = try await CLI.run(["init", "--help"], in: box.root)
    #expect(help.stdout.contains("Exit 0 when everything was written"), "\(help)")
  }
}
