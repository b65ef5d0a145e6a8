import Foundation
import Testing
import ThumbForgeTestSupport

/// The accessor file's styles and access levels, as `build` writes them and `check` judges
/// them, type-checked by swiftc (on Linux the UIKit, AppKit and SwiftUI parts are behind
/// `#if canImport`, so what compiles is the rest).
@Suite("Swift accessors: styles, access levels, sizes")
struct SwiftAccessorStyleTests {
  /// Each style with a use of it that must type-check: (config keys, use, extra source).
  static let cases: [(String, String, String)] = [
    ("", "let names: [String] = [Asset.Flags.italy, Asset.Flags.italyFlag]", ""),
    (
      "swift-access: internal\nswift-enum: Images\n",
      "let names: [String] = [Images.Flags.italy, Images.Photos.sunsetTile]", ""
    ),
    (
      "swift-style: swiftgen\n",
      """
      let flag: ImageAsset = Asset.Flags.italyFlag
      let tile = Asset.Photos.sunsetTile
      let width: Double = tile.size.width + flag.width
      let name: String = Asset.Flags.italy.name
      let bundle: Bundle = ImageAsset.bundle
      """, ""
    ),
    (
      "swift-style: swiftgen\nswift-access: internal\nswift-bundle: main\n",
      "let size: CGSize = Asset.Photos.sunset.size", ""
    ),
    (
      "swift-style: swiftgen\nswift-bundle: module\n",
      "let size: CGSize = Asset.Photos.sunsetTile.size",
      // What SwiftPM generates for a package target with resources.
      "extension Foundation.Bundle { static var module: Bundle { .main } }"
    ),
  ]

  @Test(
    "every style builds, type-checks with a use of it, and is checked like any output",
    .enabled(
      if: DryRunAccessorsContactSheetTests.swiftc != nil,
      "swiftc not found: the accessors cannot be type-checked"),
    arguments: cases.indices)
  func styles(index: Int) async throws {
    let (keys, use, extra) = Self.cases[index]
    let swiftc = try #require(DryRunAccessorsContactSheetTests.swiftc)
    let box = try Sandbox(
      "styles\(index)",
      config: """
        output: ../out/Assets.xcassets
        swift: ../Generated/Asset.swift
        \(keys)rules:
          - match: "Flags/**"
            recipes: [variants, flag]
          - match: "Photos/**"
            recipes: [variants, tile]

        """)
    try box.svg("Flags/Italy.svg", width: 30, height: 20, colors: ["#009246"])
    try box.image("Photos/Sunset@2x.jpg", try Fixtures.gradient(width: 700, height: 500))
    expectExit(try await box.build(), 0)
    let file = box.root.appendingPathComponent("Generated/Asset.swift")
    let text = try String(contentsOf: file, encoding: .utf8)
    let useFile = box.root.appendingPathComponent("Generated/Use.swift")
    try "import Foundation\n\(extra)\n\(use)\n".write(
      to: useFile, atomically: true, encoding: .utf8)
    let check = try await DryRunAccessorsContactSheetTests.runTool(
      swiftc, ["-typecheck", file.path, useFile.path], in: box.root)
    #expect(check.status == 0, "swiftc -typecheck failed:\n\(check.output)\n\(text)")
    try FileManager.default.removeItem(at: useFile)

    // `check` compares the file like any output: up to date, then edited by hand.
    expectExit(try await box.check(), 0)
    try (text + "// edited\n").write(to: file, atomically: true, encoding: .utf8)
    let stale = try await box.check()
    expectExit(stale, 1)
    #expect(
      stale.stdout.contains("Asset.swift") || stale.stderr.contains("Asset.swift"), "\(stale)")
    if keys.contains("swiftgen") {
      // Points: the tile is 300 × 300, the flag 40 × 25, the photo 350 × 250.
      #expect(
        text.contains("Tile = ImageAsset(name: \"Sunset-tile\", width: 300, height: 300)"),
        "\(text)")
      #expect(text.contains("italyFlag = ImageAsset(name: \"Italy-flag\", width: 40, height: 25)"))
      #expect(text.contains("sunset = ImageAsset(name: \"Sunset\", width: 350, height: 250)"))
    }
  }
}
