import Foundation
import Testing
import ThumbForgeTestSupport

/// The first word and short options: a mistyped subcommand is refused with a suggestion,
/// never built as a folder; `-j1` is `-j 1`; counts read in the right number.
@Suite("Command-line words", .timeLimit(.minutes(10)))
struct CommandLineWordsTests {
  @Test("an unknown or mistyped subcommand is refused (exit 2) even when a folder has its name")
  func unknownSubcommand() async throws {
    let box = try Sandbox()
    try box.makeStandardAssets()
    // Folders named like the words, in the working folder, holding a master each.
    for name in ["watch", "buidl"] {
      try FileManager.default.copyItem(at: box.assets, to: box.root.appendingPathComponent(name))
    }
    let watch = try await CLI.run(["watch"], in: box.root)
    expectExit(watch, 2)
    #expect(
      watch.stderr.contains(
        "'watch' is not a subcommand (did you mean 'thumbforge build --watch'?); to build a folder named 'watch', run 'thumbforge build watch'"
      ), "\(watch)")
    let typo = try await CLI.run(["buidl"], in: box.root)
    expectExit(typo, 2)
    #expect(typo.stderr.contains("unknown subcommand 'buidl' (did you mean 'build'?)"), "\(typo)")
    for word in ["chekc", "lnit", "serv"] {
      let result = try await CLI.run([word], in: box.root)
      expectExit(result, 2)
      #expect(result.stderr.contains("did you mean"), "\(word): \(result)")
    }
    let neither = try await CLI.run(["wibble"], in: box.root)
    expectExit(neither, 2)
    #expect(neither.stderr.contains("'wibble' is neither a subcommand (build, check"), "\(neither)")
    for folder in ["watch", "buidl"] {
      #expect(
        !FileManager.default.fileExists(atPath: box.root.appendingPathComponent("out").path),
        "\(folder) was built")
    }
    // A folder's own name still builds it, and `build NAME` builds a folder named like a word.
    let explicit = try await CLI.run(["build", "watch", "-o", "out2/A.xcassets"], in: box.root)
    expectExit(explicit, 0)
    let plain = try await CLI.run(["assets", "-o", "out3/A.xcassets"], in: box.root)
    expectExit(plain, 0)
  }

  @Test("-j1 and -j 1 are the same; 0 is refused with its reason")
  func joinedJobs() async throws {
    let box = try Sandbox()
    try box.makeStandardAssets()
    let joined = try await box.build(["-j1", "--dry-run"])
    expectExit(joined, 0)
    let spaced = try await box.build(["-j", "1", "--dry-run"])
    expectExit(spaced, 0)
    #expect(joined.stdout == spaced.stdout)
    let zero = try await box.build(["-j0"])
    expectExit(zero, 2)
    #expect(zero.stderr.contains("--jobs must be 1 or more, got 0"), "\(zero)")
  }

  @Test("one source reads '1 source'")
  func singular() async throws {
    let box = try Sandbox(config: "output: ../out/Assets.xcassets\n")
    try box.image("Only@2x.png", Fixtures.photo(width: 40, height: 40, seed: 1))
    let result = try await box.build(["--dry-run"])
    expectExit(result, 0)
    #expect(result.stdout.contains("1 source, "), "\(result)")
    #expect(!result.stdout.contains("1 sources"), "\(result)")
  }

  @Test(
    "lint --json reports a configuration error as JSON (exit 2); a duplicate key names its line")
  func lintJSONError() async throws {
    let box = try Sandbox(
      config: "output: ../out/Assets.xcassets\nscales: [2, 3]\nquality: 80\nscales: [1]\n")
    try box.makeStandardAssets()
    let result = try await CLI.run(["lint", box.assets.path, "--json"], in: box.root)
    expectExit(result, 2)
    let object = try #require(
      try JSONSerialization.jsonObject(with: Data(result.stdout.utf8)) as? [String: Any],
      "\(result)")
    #expect(object["status"] as? String == "configuration-error")
    let error = try #require(object["error"] as? [String: Any])
    #expect(error["line"] as? Int == 4, "\(error)")
    #expect(error["key"] as? String == "scales")
    #expect((error["message"] as? String)?.contains("first at line 2") == true, "\(error)")
    #expect(result.stderr.contains("thumbforge.yml:4"), "\(result)")
  }

  @Test("an unknown configuration key or value gets a suggestion")
  func configSuggestions() async throws {
    let box = try Sandbox(
      config: "output: ../out/Assets.xcassets\nrecipes:\n  flag: { radious: 4 }\n")
    try box.makeStandardAssets()
    let key = try await box.build()
    expectExit(key, 2)
    #expect(key.stderr.contains("unknown key (did you mean 'radius'?)"), "\(key)")
    try box.write(
      "output: ../out/Assets.xcassets\nrules:\n  - match: \"**\"\n    recipes: [variant]\n",
      to: "thumbforge.yml")
    let recipe = try await box.build()
    expectExit(recipe, 2)
    #expect(
      recipe.stderr.contains("unknown recipe 'variant' (did you mean 'variants'?)"), "\(recipe)")
    try box.write(
      "output: ../out/Assets.xcassets\nrecipes:\n  fill: { gravity: atention }\n",
      to: "thumbforge.yml")
    let value = try await box.build()
    expectExit(value, 2)
    #expect(value.stderr.contains("(did you mean 'attention'?)"), "\(value)")
  }
}
