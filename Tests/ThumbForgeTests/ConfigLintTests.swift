import Foundation
import Testing
import ThumbForgeTestSupport

@testable import ThumbForge

/// `lint`'s warnings, one test per kind: each names the configuration file and line, and
/// what the user never wrote is never reported.
@Suite("Config lint")
struct ConfigLintTests {
  /// Lints a folder holding `files` (empty placeholders: lint reads names, not pixels) and
  /// `config` as its `thumbforge.yml`.
  func lint(_ config: String, files: [String] = ["Flags/Italy@2x.png", "Photos/Lake.jpg"])
    throws -> ConfigLint.Report
  {
    let root = try Fixtures.temporaryDirectory(prefix: "thumbforge-lint")
    defer { try? FileManager.default.removeItem(at: root) }
    let folder = root.appendingPathComponent("assets")
    for file in files {
      let url = folder.appendingPathComponent(file)
      try FileManager.default.createDirectory(
        at: url.deletingLastPathComponent(), withIntermediateDirectories: true)
      try Data([0]).write(to: url)
    }
    try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
    try Data(config.utf8).write(to: folder.appendingPathComponent("thumbforge.yml"))
    return try ConfigLint.run(BuildOptions(folder: folder))
  }

  @Test(
    "top-level defaults change the built-in recipes without defining them: no warning",
    arguments: [
      "scales: [1, 2, 3]\n", "quality: 70\n", "scales: [2]\nquality: 90\nkernel: lanczos3\n",
    ])
  func topLevelDefaultsOnly(config: String) throws {
    let report = try lint("output: ../out/Assets.xcassets\n" + config)
    #expect(report.warnings.isEmpty, "\(report.warnings)")
  }

  @Test("a recipe the file writes and no rule uses: warned at its line")
  func unusedRecipe() throws {
    let report = try lint(
      """
      scales: [2, 3]
      recipes:
        used: { kind: fit, size: [100, 100] }
        big:
          kind: fit
          size: [900, 900]
        fill: { gravity: attention }
      rules:
        - match: "**"
          recipes: [variants, used]

      """)
    #expect(
      report.warnings == [
        "thumbforge.yml:4: recipe 'big' is defined but no rule uses it",
        "thumbforge.yml:7: recipe 'fill' is defined but no rule uses it",
      ], "\(report.warnings)")
  }

  @Test("a rule that matches no master: warned at its line")
  func ruleMatchesNothing() throws {
    let report = try lint(
      """
      rules:
        - match: "Flags/**"
          recipes: [variants, flag]

        - match: "Nope/**"

      """)
    #expect(report.warnings == ["thumbforge.yml:5: rule 2 (match: \"Nope/**\") matches no master"])
  }

  @Test("a rule whose masters an earlier rule takes: warned at its line")
  func ruleShadowed() throws {
    let report = try lint(
      """
      rules:
        - match: "**"
        - match: "Flags/**"
          recipes: [flag]

      """)
    #expect(
      report.warnings == [
        "thumbforge.yml:3: rule 2 (match: \"Flags/**\") matches only masters that an earlier rule takes (the first matching rule wins)"
      ])
  }

  @Test("an assets: entry naming no asset: warned at its line")
  func unknownAsset() throws {
    let report = try lint(
      """
      assets:
        Photos/Lake: { focus: [0.2, 0.5] }
        Photos/Pond:
          focus: [0.2, 0.5]

      """)
    #expect(
      report.warnings == ["thumbforge.yml:3: assets: 'Photos/Pond' names no asset of the folder"])
  }

  @Test("a file with an unknown scale suffix: warned naming the file and why")
  func unknownScaleSuffix() throws {
    let report = try lint("", files: ["Icons/Weird@4x.png", "Icons/Half@1.5x.png", "Ok@2X.png"])
    #expect(report.masters == 1)
    #expect(report.warnings.count == 2)
    #expect(
      report.warnings.contains {
        $0.hasPrefix("Icons/Weird@4x.png: unknown scale suffix '@4x': ThumbForge reads @1x, @2x")
      }, "\(report.warnings)")
    #expect(
      report.warnings.contains { $0.hasPrefix("Icons/Half@1.5x.png: unknown scale suffix '@1.5x'") }
    )
  }
}
