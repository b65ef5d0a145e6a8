import Foundation
import Testing
import ThumbForgeTestSupport

/// `thumbforge init`: a starter configuration, or an asset folder from a catalog a team
/// already has; never an overwrite.
@Suite("init", .timeLimit(.minutes(10)))
struct InitCommandTests {
  /// Every imageset of `catalog` with its `Contents.json` images as (scale, appearance,
  /// has a file), sorted: what a round trip must give back (file names may differ).
  static func imageSets(_ catalog: URL) throws -> [String: [String]] {
    var sets: [String: [String]] = [:]
    for path in FolderSnapshot(catalog).paths
    where path.hasSuffix(".imageset/Contents.json") {
      let data = try Data(contentsOf: catalog.appendingPathComponent(path))
      let json = try #require(try JSONSerialization.jsonObject(with: data) as? [String: Any])
      let images = try #require(json["images"] as? [[String: Any]])
      sets[path] = images.map { image in
        let dark = (image["appearances"] as? [[String: String]])?.first?["value"] ?? "any"
        let scale = image["scale"] as? String ?? "single"
        return
          "\(image["idiom"] ?? "?") \(scale) \(dark) \(image["filename"] == nil ? "empty" : "file")"
      }
    }
    return sets
  }

  @Test("--from: building the folder it writes gives back the same imagesets")
  func roundTrip() async throws {
    let box = try Sandbox(
      config: """
        output: ../out/Assets.xcassets
        rules:
          - match: "Flags/**"
            recipes: [variants, flag]
          - match: "Icons/**"
            recipes: [small]
        recipes:
          small: { kind: variants, scales: [1, 2, 3] }

        """)
    try box.makeStandardAssets()
    try box.image("Icons/Star.png", Fixtures.icon(width: 90, height: 90, seed: 5))
    try box.image("Icons/Star~dark.png", Fixtures.icon(width: 90, height: 90, seed: 6))
    expectExit(try await box.build(), 0)
    try box.write(Data("{}".utf8), to: "AccentColor.colorset/Contents.json", in: box.catalog)
    let original = try Self.imageSets(box.catalog)
    #expect(original.count == 8, "\(original.keys.sorted())")

    let again = box.root.appendingPathComponent("again")
    let made = try await CLI.run(["init", "--from", box.catalog.path, again.path], in: box.root)
    expectExit(made, 0)
    #expect(made.stdout.contains("note: Assets.xcassets/AccentColor.colorset"), "\(made)")
    #expect(made.stdout.contains("and 9 masters from 8 imagesets"), "\(made)")
    for master in ["Icons/Star-small@3x.png", "Icons/Star-small~dark@3x.png", "Photos/Lake@3x.jpg"]
    {
      #expect(
        FileManager.default.fileExists(atPath: again.appendingPathComponent(master).path),
        "\(master)")
    }
    let rebuilt = try await CLI.run(["build", again.path], in: box.root)
    expectExit(rebuilt, 0)
    let catalog = box.root.appendingPathComponent("Build/Assets.xcassets")
    #expect(try Self.imageSets(catalog) == original)
  }

  @Test("--from never overwrites: a file it would write exists, so it writes nothing")
  func noOverwriteFromCatalog() async throws {
    let box = try Sandbox()
    try box.makeStandardAssets()
    expectExit(try await box.build(), 0)
    let again = box.root.appendingPathComponent("again")
    try FileManager.default.createDirectory(
      at: again.appendingPathComponent("Photos"), withIntermediateDirectories: true)
    try Data("mine".utf8).write(to: again.appendingPathComponent("Photos/Lake@3x.jpg"))
    let refused = try await CLI.run(["init", "--from", box.catalog.path, again.path], in: box.root)
    expectExit(refused, 2)
    #expect(refused.stderr.contains("Photos/Lake@3x.jpg already exists"), "\(refused)")
    #expect(FolderSnapshot(again).paths == ["Photos/Lake@3x.jpg"], "nothing else written")
    #expect(
      try Data(contentsOf: again.appendingPathComponent("Photos/Lake@3x.jpg")) == Data("mine".utf8))
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
