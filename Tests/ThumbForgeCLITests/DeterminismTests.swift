import Foundation
import Testing
import ThumbForgeTestSupport
import Vips

/// Two builds of one folder give byte-identical images, Contents.json and manifest.json,
/// whatever `--jobs` is.
@Suite("Determinism", .timeLimit(.minutes(10)))
struct DeterminismTests {
  @Test("--jobs 1 and --jobs 2 into two catalogs give identical bytes; so does --force")
  func identicalBuilds() async throws {
    let box = try Sandbox(
      config: """
        output: ../out/Assets.xcassets
        rules:
          - match: "Flags/**"
            recipes: [variants, flag]
          - match: "Photos/**"
            recipes: [variants, hero, banner, tile]
        recipes:
          hero: { kind: fit, size: [120, 80], pad: true, background: "#20406080" }
          banner: { kind: fill, size: [100, 30], gravity: attention }
          tile: { size: [40, 40], format: webp, quality: 70 }

        """)
    try box.makeStandardAssets()
    for seed in 0..<6 {
      try box.image(
        "Photos/Extra\(seed).jpg", Fixtures.photo(width: 240 + seed * 30, height: 180, seed: seed))
    }
    try box.image("Photos/Alpha.png", Fixtures.icon(width: 150, height: 120, seed: 4))

    let one = box.root.appendingPathComponent("one/Assets.xcassets")
    let two = box.root.appendingPathComponent("two/Assets.xcassets")
    async let first = box.build(["--jobs", "1", "--output", one.path])
    async let second = box.build(["--jobs", "2", "--output", two.path])
    expectExit(try await first, 0)
    expectExit(try await second, 0)

    let a = FolderSnapshot(one.deletingLastPathComponent(), skipHidden: true)
    let b = FolderSnapshot(two.deletingLastPathComponent(), skipHidden: true)
    #expect(a.paths.count > 40, "\(a.paths)")
    #expect(a.paths.contains("manifest.json"))
    #expect(a.paths == b.paths)
    #expect(a.changedContent(comparedTo: b) == [])

    let forced = try await box.build(["--jobs", "2", "--force", "--output", one.path])
    expectExit(forced, 0)
    let c = FolderSnapshot(one.deletingLastPathComponent(), skipHidden: true)
    #expect(c.changedContent(comparedTo: a) == [], "a forced rebuild changes no byte")
  }
}
