import Foundation
import Testing

/// `thumbforge lint`: the configuration checked against the folder, nothing rendered.
@Suite("lint", .timeLimit(.minutes(10)))
struct LintCommandTests {
  @Test("A good configuration: exit 0, a summary, nothing written")
  func clean() async throws {
    let box = try Sandbox()
    try box.makeStandardAssets()
    let result = try await CLI.run(["lint", box.assets.path], in: box.root)
    expectExit(result, 0)
    #expect(result.stdout.contains("thumbforge.yml: 1 rules"), "\(result)")
    #expect(result.stdout.contains("5 masters; no warnings"), "\(result)")
    #expect(!FileManager.default.fileExists(atPath: box.out.path), "lint writes nothing")
  }

  @Test("Likely mistakes are warnings (exit 1); a file that does not load is an error (exit 2)")
  func warningsAndErrors() async throws {
    let box = try Sandbox(
      config: """
        rules:
          - match: "**"
            recipes: [variants]
          - match: "Flags/**"
            recipes: [flag]
          - match: "Nope/**"
        recipes:
          big: { kind: fit, size: [900, 900] }
        assets:
          Photos/Lake: { focus: [0.2, 0.5] }
          Photos/Pond: { focus: [0.2, 0.5] }

        """)
    try box.makeStandardAssets()
    try box.write("credits", to: "CREDITS.md")
    let warned = try await CLI.run(["lint", box.assets.path, "--verbose"], in: box.root)
    expectExit(warned, 1)
    for line in [
      "warning: thumbforge.yml:4: rule 2 (match: \"Flags/**\") matches only masters that an earlier rule takes",
      "warning: thumbforge.yml:6: rule 3 (match: \"Nope/**\") matches no master",
      "warning: thumbforge.yml:8: recipe 'big' is defined but no rule uses it",
      "warning: thumbforge.yml:11: assets: 'Photos/Pond' names no asset of the folder",
      "note: CREDITS.md: not a master",
      "4 warnings; 1 file is not a master",
    ] {
      #expect(warned.stdout.contains(line), "\(line)\n\(warned)")
    }
    #expect(!warned.stdout.contains("Photos/Lake'"), "an existing asset is no warning")
    // Top-level defaults change the built-in recipes; they define none, so none is unused.
    try box.write(
      "output: ../out/Assets.xcassets\nscales: [1, 2, 3]\nquality: 70\n", to: "thumbforge.yml")
    let defaults = try await CLI.run(["lint", box.assets.path], in: box.root)
    expectExit(defaults, 0)
    #expect(defaults.stdout.contains("no warnings"), "\(defaults)")
    try box.write(
      "recipes:\n  big: { kind: fit, size: [900, 900], pad: maybe }\n", to: "thumbforge.yml")
    let broken = try await CLI.run(["lint", box.assets.path], in: box.root)
    expectExit(broken, 2)
    #expect(broken.stderr.contains("error: thumbforge.yml:2: recipes.big.pad"), "\(broken)")
  }
}
