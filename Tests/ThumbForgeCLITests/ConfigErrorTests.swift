import Foundation
import Testing
import ThumbForgeTestSupport

/// Configuration and usage errors exit 2 with one message that names the file, the line and
/// the key, and write nothing.
@Suite("Configuration and usage errors", .timeLimit(.minutes(10)))
struct ConfigErrorTests {
  struct Case: CustomTestStringConvertible, Sendable {
    var name: String
    var file = "thumbforge.yml"
    var text: String
    var line: Int
    var key: String
    /// Words (any one) the message must contain, case-insensitive.
    var words: [String]

    var testDescription: String { name }
  }

  static let cases: [Case] = [
    Case(
      name: "unknown key",
      text: """
        output: ../out/Assets.xcassets
        colour: red

        """, line: 2, key: "colour", words: ["unknown key"]),
    Case(
      name: "unknown key in a recipe",
      text: """
        output: ../out/Assets.xcassets
        recipes:
          tile:
            size: [300, 300]
            gravty: north

        """, line: 5, key: "recipes.tile.gravty", words: ["unknown key"]),
    Case(
      name: "wrong type: a word for an integer",
      text: """
        output: ../out/Assets.xcassets
        concurrency: lots

        """, line: 2, key: "concurrency", words: ["integer"]),
    Case(
      name: "wrong type: a number for a list",
      text: """
        output: ../out/Assets.xcassets
        # scales are a list
        scales: 2

        """, line: 3, key: "scales", words: ["list"]),
    Case(
      name: "zero size",
      text: """
        output: ../out/Assets.xcassets
        recipes:
          tile:
            size: [300, 0]

        """, line: 4, key: "recipes.tile.size", words: ["greater than zero", "zero"]),
    Case(
      name: "negative size",
      text: """
        output: ../out/Assets.xcassets
        recipes:
          hero: { kind: fit, size: [-390, 260] }

        """, line: 3, key: "recipes.hero.size", words: ["greater than zero", "zero"]),
    Case(
      name: "scale 0",
      text: """
        output: ../out/Assets.xcassets
        scales: [0, 2]

        """, line: 2, key: "scales", words: ["range", "scale"]),
    Case(
      name: "scale 0 in a recipe",
      text: """
        output: ../out/Assets.xcassets
        recipes:
          tile:
            scales: [2, 0]

        """, line: 4, key: "recipes.tile.scales", words: ["range", "scale"]),
    Case(
      name: "radius larger than half the short side",
      text: """
        output: ../out/Assets.xcassets
        recipes:
          flag:
            radius: 13

        """, line: 4, key: "recipes.flag.radius", words: ["radius", "half"]),
    Case(
      name: "output folder inside the input folder",
      text: """
        # the catalog must not be read back as input
        output: Build/Assets.xcassets

        """, line: 2, key: "output", words: ["inside"]),
    Case(
      name: "output folder is the input folder",
      text: """
        scales: [2, 3]
        output: .

        """, line: 2, key: "output", words: ["inside"]),
    Case(
      name: "unknown key in a JSON configuration", file: "thumbforge.json",
      text: """
        {
          "output": "../out/Assets.xcassets",
          "sclaes": [2, 3]
        }

        """, line: 3, key: "sclaes", words: ["unknown key"]),
  ]

  @Test("A configuration error exits 2 naming file, line and key", arguments: cases)
  func configError(_ item: Case) async throws {
    let box = try Sandbox(config: nil)
    try box.write(item.text, to: item.file)
    try box.image("Photo.jpg", Fixtures.photo(width: 90, height: 60, seed: 1))

    for command in ["build", "check"] {
      let result = try await CLI.run([command, box.assets.path], in: box.root)
      expectExit(result, 2)
      let lines = result.stderr.split(separator: "\n").filter { $0.contains(item.file) }
      #expect(lines.count == 1, "one message naming \(item.file)\n\(result)")
      let line = String(lines.first ?? "")
      #expect(line.contains("\(item.file):\(item.line):"), "line \(item.line) named\n\(result)")
      #expect(line.contains(item.key), "key \(item.key) named\n\(result)")
      #expect(
        item.words.contains { line.lowercased().contains($0.lowercased()) },
        "message says one of \(item.words)\n\(result)")
      #expect(result.stdout.isEmpty, "\(result)")
    }
    #expect(!FileManager.default.fileExists(atPath: box.out.path), "nothing may be written")
    #expect(
      !FileManager.default.fileExists(atPath: box.asset("Build").path), "nothing may be written")
  }

  @Test(
    "A usage error exits 2",
    arguments: [
      ["build", "assets", "--jobs", "0"],
      ["build", "assets", "-j", "-3"],
      ["build", "assets", "--jobs", "two"],
      ["build", "assets", "--frobnicate"],
      ["build", "assets", "--quiet", "--verbose"],
      ["regenerate", "-f", "assets"],
      ["check", "assets", "--output", "assets/Inside.xcassets"],
      ["build", "no-such-folder"],
    ])
  func usageError(_ arguments: [String]) async throws {
    let box = try Sandbox()
    try box.image("Photo.jpg", Fixtures.photo(width: 90, height: 60, seed: 1))
    let result = try await CLI.run(arguments, in: box.root)
    expectExit(result, 2)
    #expect(!result.stderr.isEmpty, "\(result)")
    if arguments.contains(where: { $0 == "--jobs" || $0 == "-j" }) {
      #expect(result.stderr.contains("jobs"), "\(result)")
    }
    if arguments.contains("--output") {
      #expect(result.stderr.contains("--output") && result.stderr.contains("inside"), "\(result)")
    }
    #expect(!FileManager.default.fileExists(atPath: box.out.path), "nothing may be written")
    #expect(!FileManager.default.fileExists(atPath: box.asset("Inside.xcassets").path))
  }
}
