import Foundation
import Testing
import ThumbForgeTestSupport

/// What a team's asset folder holds besides plain masters: an existing catalog, and files
/// whose scale suffix ThumbForge does not read.
@Suite("input folders", .timeLimit(.minutes(10)))
struct InputFolderTests {
  @Test("an .xcassets inside the input is read as masters, never nested into the output")
  func existingCatalogInInput() async throws {
    let box = try Sandbox()
    let set = "Legacy.xcassets/Old.imageset"
    try box.write(
      #"{ "info" : { "author" : "xcode", "version" : 1 } }"#, to: "Legacy.xcassets/Contents.json")
    try box.write(
      """
      {
        "images" : [
          { "idiom" : "universal", "scale" : "1x" },
          { "filename" : "Old@2x.png", "idiom" : "universal", "scale" : "2x" },
          { "idiom" : "universal", "scale" : "3x" }
        ],
        "info" : { "author" : "xcode", "version" : 1 }
      }
      """, to: "\(set)/Contents.json")
    try box.image("\(set)/Old@2x.png", Fixtures.icon(width: 60, height: 60, seed: 4))
    let result = try await box.build()
    expectExit(result, 0)
    let files = FolderSnapshot(box.catalog).files.keys.sorted()
    #expect(files.contains("Old.imageset/Old@2x.png"), "\(files)")
    #expect(try imageSize(box.inCatalog("Old.imageset/Old@2x.png")) == (60, 60))
    #expect(!files.contains { $0.contains(".xcassets") }, "a catalog inside the catalog: \(files)")
    #expect(
      !files.contains { $0.components(separatedBy: ".imageset/").count > 2 },
      "an imageset inside an imageset: \(files)")
  }

  @Test("unknown scale suffixes are problems naming the file, not part of an asset's name")
  func unknownScaleSuffixes() async throws {
    let box = try Sandbox()
    try box.image("Weird@4x.png", Fixtures.icon(width: 40, height: 40, seed: 1))
    try box.image("Half@1.5x.png", Fixtures.icon(width: 40, height: 40, seed: 2))
    try box.image("Upper@2X.png", Fixtures.icon(width: 40, height: 40, seed: 3))
    let result = try await box.build()
    expectExit(result, 1)
    let output = result.stdout + result.stderr
    for line in [
      "Weird@4x.png: unknown scale suffix '@4x': ThumbForge reads @1x, @2x and @3x",
      "Half@1.5x.png: unknown scale suffix '@1.5x'",
    ] {
      #expect(output.contains(line), "\(line)\n\(result)")
    }
    let files = FolderSnapshot(box.catalog).files.keys.sorted()
    #expect(!files.contains { $0.contains("Weird") || $0.contains("Half") }, "\(files)")
    // @2X is read as @2x: a 2x master, the asset named Upper.
    #expect(try imageSize(box.inCatalog("Upper.imageset/Upper@2x.png")) == (40, 40), "\(files)")
  }

  @Test("a name clash writes nothing of the clashing asset, and its advice fixes it")
  func nameClash() async throws {
    let box = try Sandbox(
      config: """
        output: ../out/Assets.xcassets
        rules:
          - match: "Icons/Logo.png"
            recipes: [variants, tile]

        """)
    try box.image("Icons/Logo.png", Fixtures.icon(width: 90, height: 90, seed: 1))
    try box.image("Icons/Logo-tile.png", Fixtures.icon(width: 90, height: 90, seed: 2))
    try box.image("Photos/Logo-tile.png", Fixtures.icon(width: 90, height: 90, seed: 3))
    let clashed = try await box.build()
    expectExit(clashed, 1)
    let output = clashed.stdout + clashed.stderr
    #expect(output.contains("rename Logo-tile.png or Logo.png"), "\(clashed)")
    #expect(output.contains("set provides-namespace: true"), "\(clashed)")
    let files = FolderSnapshot(box.catalog).files.keys
    #expect(!files.contains { $0.hasPrefix("Photos/") }, "nothing of Photos/Logo-tile: \(files)")
    // Renaming the file in the group and namespacing the groups removes both clashes.
    try FileManager.default.moveItem(
      at: box.asset("Icons/Logo-tile.png"), to: box.asset("Icons/LogoTiled.png"))
    try box.write(
      "output: ../out/Assets.xcassets\nprovides-namespace: true\nrules:\n  - match: \"Icons/Logo.png\"\n    recipes: [variants, tile]\n",
      to: "thumbforge.yml")
    let fixed = try await box.build()
    expectExit(fixed, 0)
    let after = FolderSnapshot(box.catalog).files.keys
    for path in [
      "Icons/Logo-tile.imageset/Contents.json", "Icons/LogoTiled.imageset/Contents.json",
      "Photos/Logo-tile.imageset/Contents.json",
    ] {
      #expect(after.contains(path), "\(path): \(after.sorted())")
    }
  }
}
