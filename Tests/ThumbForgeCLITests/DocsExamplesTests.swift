import Foundation
import Testing
import ThumbForgeTestSupport
import Vips

/// The shell examples of the README, `docs/` and CONTRIBUTING.md. Each block of `thumbforge`
/// commands is run here as written, as one `sh -e` script, in a checkout (a copy of the
/// sample folder `Assets/`, the built binary on the PATH); every other block names what runs
/// it. A new block that is neither fails ``everyBlockIsRun()``.
@Suite("Shell examples in the docs", .timeLimit(.minutes(10)))
struct DocsExamplesTests {
  /// One fenced `sh` block: its page, the line of its first command, and its text.
  struct Block: CustomStringConvertible {
    var page: String
    var firstCommand: String
    var script: String
    var key: String { "\(page): \(firstCommand)" }
    var description: String { key }
  }

  /// Blocks run by this suite, by key.
  static let runHere: Set<String> = [
    "README.md: thumbforge init --from App/Assets.xcassets Assets",
    "README.md: thumbforge init Assets", "docs/adopting.md: cd MyApp",
    "docs/adopting.md: rm Art/Flags/uk.imageset/uk.png Art/Flags/uk.imageset/uk@2x.png",
    "docs/ci.md: thumbforge build Assets --shard 1/4 --part parts/1",
    "docs/placeholders.md: printf '\\nplaceholders: thumbhash\\n' >> Assets/thumbforge.yml",
    "docs/android.md: printf '\\nandroid:\\n  folder: ../Build/android/res\\n' >> Assets/thumbforge.yml",
    "docs/web.md: printf '\\nweb:\\n  folder: ../Build/web\\n' >> Assets/thumbforge.yml",
    "docs/serving.md: export THUMBFORGE_KEY=$(openssl rand -hex 32) THUMBFORGE_SALT=$(openssl rand -hex 16)",
    "docs/xcode-and-plugin.md: export PATH=\"$PATH:/opt/homebrew/bin:/usr/local/bin\"",
  ]

  /// Blocks run elsewhere, by key: what runs them.
  static let runElsewhere: [String: String] = [
    "README.md: Scripts/run.sh": ".ci/run runs both scripts",
    "CONTRIBUTING.md: Scripts/run.sh": ".ci/run runs both scripts",
    "docs/serving.md: Scripts/run.sh":
      ".ci/run (run.sh); Scripts/attack.sh (the release build, serving a folder); ServeCLITests (serve on a copy of Assets/, GET /unsafe/…)",
    "docs/xcode-and-plugin.md: swift package --allow-writing-to-package-directory thumbforge build":
      "PluginTests (slow tier)",
    "docs/adopting.md: Scripts/adopt-check.sh ~/src/MyApp/MyApp/Images.xcassets":
      "by hand, on a real catalog; AdoptionRoundTripTests does the same on generated ones",
    "CONTRIBUTING.md: swift build -c release --sanitize=fuzzer --sanitize=address --scratch-path .build-fuzz-swift \\":
      "Scripts/fuzz.sh --smoke (in .ci/run)",
    "CONTRIBUTING.md: Fuzz/state-files/build.sh .build-fuzz/state-files":
      "Scripts/fuzz.sh --smoke (in .ci/run)",
  ]

  /// Every `sh` block of the pages users read.
  static func blocks() throws -> [Block] {
    let root = ExamplesTests.repository
    let docs = try FileManager.default.contentsOfDirectory(
      atPath: root.appendingPathComponent("docs").path
    ).filter { $0.hasSuffix(".md") }.sorted().map { "docs/" + $0 }
    var blocks: [Block] = []
    for page in ["README.md", "CONTRIBUTING.md"] + docs {
      let text = try String(contentsOf: root.appendingPathComponent(page), encoding: .utf8)
      var lines: [String]? = nil
      for line in text.split(separator: "\n", omittingEmptySubsequences: false).map(String.init) {
        if lines == nil, line == "```sh" {
          lines = []
        } else if let body = lines, line == "```" {
          let first = body.first.map(Self.command) ?? ""
          blocks.append(
            Block(page: page, firstCommand: first, script: body.joined(separator: "\n")))
          lines = nil
        } else if lines != nil {
          lines?.append(line)
        }
      }
    }
    return blocks
  }

  /// A line without its trailing comment and spaces.
  static func command(_ line: String) -> String {
    let code = line.range(of: "  #").map { String(line[..<$0.lowerBound]) } ?? line
    return code.trimmingCharacters(in: .whitespaces)
  }

  static func block(_ key: String) throws -> Block {
    try #require(try blocks().first { $0.key == key }, "no block \(key)")
  }

  /// Runs `block` as written in `folder`; a `--watch` line gets SIGINT once its first build
  /// has reported (a line that starts with its time), when it is idle however loaded the
  /// machine is, and then exits with that build's status.
  static func run(_ block: Block, in folder: URL, environment: [String: String]) async throws
    -> String
  {
    let script = block.script.split(separator: "\n").map { line in
      let code = command(String(line))
      guard code.hasSuffix("--watch") else { return String(line) }
      return #"log=$(mktemp); "#
        + #"\#(code) > "$log" 2>&1 & pid=$!; n=0; "#
        + #"until grep -q '^\[[0-9:]*\] ' "$log" || [ $n -ge 1200 ]; do sleep 0.1; n=$((n+1)); done; "#
        + #"kill -INT $pid; s=0; wait $pid || s=$?; cat "$log"; rm -f "$log"; [ $s -eq 0 ]"#
    }.joined(separator: "\n")
    let result = try await ExamplesTests.shell(script, in: folder, environment: environment)
    #expect(result.status == 0, "\(block)\n\(result.output)")
    return result.output
  }

  @Test("every sh block of the docs is run here or names what runs it")
  func everyBlockIsRun() throws {
    let keys = try Self.blocks().map(\.key)
    #expect(keys.count > 10)
    let unrun = keys.filter { !Self.runHere.contains($0) && Self.runElsewhere[$0] == nil }
    #expect(unrun.isEmpty, "blocks no test runs: \(unrun)")
    let gone = Self.runHere.union(Self.runElsewhere.keys).subtracting(keys)
    #expect(gone.isEmpty, "listed blocks the docs no longer have: \(gone.sorted())")
  }

  @Test("README: five minutes from a folder of masters (init, lint, build, watch, check)")
  func fromMasters() async throws {
    let (root, environment) = try ExamplesTests.checkout()
    defer { try? FileManager.default.removeItem(at: root) }
    // Masters without a configuration, as a team drops them in.
    try FileManager.default.removeItem(at: root.appendingPathComponent("Assets/thumbforge.yml"))
    let output = try await Self.run(
      try Self.block("README.md: thumbforge init Assets"), in: root, environment: environment)
    #expect(output.contains("up to date"), "\(output)")
    #expect(
      FileManager.default.fileExists(
        atPath: root.appendingPathComponent("Build/manifest.json").path))
  }

  @Test("README: five minutes from an existing catalog gives it back file for file")
  func fromCatalog() async throws {
    let (root, environment) = try ExamplesTests.checkout()
    defer { try? FileManager.default.removeItem(at: root) }
    let app = root.appendingPathComponent("App")
    try await Self.makeCatalog(
      at: app.appendingPathComponent("Assets.xcassets"), root: root, environment)
    try FileManager.default.removeItem(at: root.appendingPathComponent("Assets"))
    let before = FolderSnapshot(app)
    let output = try await Self.run(
      try Self.block("README.md: thumbforge init --from App/Assets.xcassets Assets"), in: root,
      environment: environment)
    #expect(output.contains("up to date"), "\(output)")
    #expect(before.paths.count > 20)
    #expect(FolderSnapshot(app).touched(comparedTo: before) == [])
  }

  @Test("docs/adopting.md: adopt, build, check, git status; then a deleted 1x and 2x are made")
  func adopting() async throws {
    let (root, environment) = try ExamplesTests.checkout()
    defer { try? FileManager.default.removeItem(at: root) }
    let project = root.appendingPathComponent("MyApp")
    let catalog = project.appendingPathComponent("MyApp/Images.xcassets")
    try Self.handMadeFlag(in: catalog)
    let committed = try await ExamplesTests.shell(
      "git init -q && git add -A && git -c user.name=t -c user.email=t@t commit -qm catalog",
      in: project, environment: environment)
    #expect(committed.status == 0, "\(committed.output)")
    let output = try await Self.run(
      try Self.block("docs/adopting.md: cd MyApp"), in: root, environment: environment)
    let status = try await ExamplesTests.shell(
      "git status --porcelain", in: project, environment: environment)
    #expect(status.output.split(separator: "\n") == ["?? Art/"], "\(output)\n\(status.output)")
    _ = try await Self.run(
      try Self.block(
        "docs/adopting.md: rm Art/Flags/uk.imageset/uk.png Art/Flags/uk.imageset/uk@2x.png"),
      in: project, environment: environment)
    let set = catalog.appendingPathComponent("Flags/uk.imageset")
    for (file, width) in [("uk.png", 40), ("uk@2x.png", 80)] {
      let image = try VipsImage.load(path: set.appendingPathComponent(file).path)
      #expect(image.width == width && image.height == width * 5 / 8, "\(file)")
    }
  }

  @Test("docs/ci.md: four shards, merge, check")
  func shards() async throws {
    let (root, environment) = try ExamplesTests.checkout()
    defer { try? FileManager.default.removeItem(at: root) }
    let output = try await Self.run(
      try Self.block("docs/ci.md: thumbforge build Assets --shard 1/4 --part parts/1"), in: root,
      environment: environment)
    #expect(output.contains("up to date"), "\(output)")
  }

  @Test("docs/placeholders.md: one placeholder for each imageset of the sample folder")
  func placeholders() async throws {
    let (root, environment) = try ExamplesTests.checkout()
    defer { try? FileManager.default.removeItem(at: root) }
    let output = try await Self.run(
      try Self.block(
        "docs/placeholders.md: printf '\\nplaceholders: thumbhash\\n' >> Assets/thumbforge.yml"),
      in: root, environment: environment)
    let manifest =
      try JSONSerialization.jsonObject(
        with: Data(contentsOf: root.appendingPathComponent("Build/manifest.json")))
      as? [String: Any]
    let sets = try #require(manifest?["imageSets"] as? [[String: Any]])
    #expect(sets.count > 20 && sets.allSatisfy { $0["thumbHash"] is String })
    #expect(output.split(separator: "\n").last.map(String.init) == String(sets.count), "\(output)")
  }

  @Test("docs/android.md: drawables at every density up to each file's scale, valid names")
  func androidResources() async throws {
    let (root, environment) = try ExamplesTests.checkout()
    defer { try? FileManager.default.removeItem(at: root) }
    let output = try await Self.run(
      try Self.block(
        "docs/android.md: printf '\\nandroid:\\n  folder: ../Build/android/res\\n' >> Assets/thumbforge.yml"
      ),
      in: root, environment: environment)
    #expect(output.contains("drawable-mdpi\ndrawable-xhdpi\ndrawable-xxhdpi"), "\(output)")
    #expect(output.contains("italy_flag.png") && output.contains("united_states.png"))
    let res = root.appendingPathComponent("Build/android/res")
    for folder in try FileManager.default.contentsOfDirectory(atPath: res.path) {
      for file in try FileManager.default.contentsOfDirectory(
        atPath: res.appendingPathComponent(folder).path)
      {
        // aapt2's rule: lower-case letters, digits and `_`, not starting with a digit.
        let name = file.prefix { $0 != "." }
        #expect(
          name.first.map { !$0.isNumber } == true
            && name.allSatisfy { ("a"..."z").contains($0) || $0.isNumber || $0 == "_" },
          "\(folder)/\(file)")
      }
    }
  }

  @Test("docs/web.md: a JSON and web files for every imageset of the sample folder")
  func webSizes() async throws {
    let (root, environment) = try ExamplesTests.checkout()
    defer { try? FileManager.default.removeItem(at: root) }
    let output = try await Self.run(
      try Self.block(
        "docs/web.md: printf '\\nweb:\\n  folder: ../Build/web\\n' >> Assets/thumbforge.yml"),
      in: root, environment: environment)
    // The build's summary, then the JSON `cat` prints.
    let start = try #require(output.range(of: "{\n")?.lowerBound, "\(output)")
    let json = try #require(
      try JSONSerialization.jsonObject(with: Data(output[start...].utf8)) as? [String: Any])
    #expect(json["name"] as? String == "les-arcs-tile" && json["width"] as? Int == 900)
    let sources = try #require(json["sources"] as? [[String: Any]])
    #expect(
      sources.map { $0["srcset"] as? String } == [
        "les-arcs-tile-320w.webp 320w, les-arcs-tile-640w.webp 640w, les-arcs-tile-900w.webp 900w",
        "les-arcs-tile-320w.jpg 320w, les-arcs-tile-640w.jpg 640w, les-arcs-tile-900w.jpg 900w",
      ])
    let manifest =
      try JSONSerialization.jsonObject(
        with: Data(contentsOf: root.appendingPathComponent("Build/manifest.json")))
      as? [String: Any]
    let sets = try #require(manifest?["imageSets"] as? [[String: Any]])
    #expect(sets.count > 20)
    for set in sets {
      let web = try #require(set["web"] as? [String: Any], "\(set["folder"] ?? "")")
      for file in (web["files"] as? [[String: Any]]) ?? [] {
        let path = try #require(file["path"] as? String)
        #expect(
          FileManager.default.fileExists(atPath: root.appendingPathComponent("Build/" + path).path),
          "\(path)")
      }
    }
  }

  @Test("docs/serving.md: thumbforge sign and the shell recipe print the same signed path")
  func signInShell() async throws {
    let (root, environment) = try ExamplesTests.checkout()
    defer { try? FileManager.default.removeItem(at: root) }
    let key = try Self.block(
      "docs/serving.md: export THUMBFORGE_KEY=$(openssl rand -hex 32) THUMBFORGE_SALT=$(openssl rand -hex 16)"
    )
    let lines = try await Self.run(key, in: root, environment: environment).split(separator: "\n")
    #expect(lines.count == 2 && lines[0] == lines[1], "\(lines)")
    #expect(lines.first?.hasSuffix("/tile/Resorts/les-arcs@2x.jpg") == true, "\(lines)")
  }

  @Test("docs/xcode-and-plugin.md: the Run Script phase builds, or warns without the tool")
  func runScriptPhase() async throws {
    let (root, environment) = try ExamplesTests.checkout()
    defer { try? FileManager.default.removeItem(at: root) }
    let phase = try Self.block(
      "docs/xcode-and-plugin.md: export PATH=\"$PATH:/opt/homebrew/bin:/usr/local/bin\"")
    var variables = environment
    variables["SRCROOT"] = root.path
    _ = try await Self.run(phase, in: root, environment: variables)
    #expect(
      FileManager.default.fileExists(
        atPath: root.appendingPathComponent("Build/manifest.json").path))
    variables["PATH"] = "/usr/bin:/bin"
    let warned = try await Self.run(phase, in: root, environment: variables)
    #expect(warned.contains("warning: thumbforge is not installed"), "\(warned)")
  }
}

extension DocsExamplesTests {
  /// A catalog as a team has one: built from the sample folder, with nothing of
  /// ThumbForge's beside it.
  static func makeCatalog(at catalog: URL, root: URL, _ environment: [String: String])
    async throws
  {
    let folder = catalog.deletingLastPathComponent().path
    let built = try await ExamplesTests.shell(
      "thumbforge build Assets -q --output '\(catalog.path)' && rm -f '\(folder)'/manifest.json '\(folder)'/.thumbforge*",
      in: root, environment: environment)
    #expect(built.status == 0, "\(built.output)")
  }

  /// `Flags/uk.imageset` with hand-made 1x, 2x and 3x files and Xcode's `Contents.json`.
  static func handMadeFlag(in catalog: URL) throws {
    let set = catalog.appendingPathComponent("Flags/uk.imageset")
    try FileManager.default.createDirectory(at: set, withIntermediateDirectories: true)
    for (scale, suffix) in [(1, ""), (2, "@2x"), (3, "@3x")] {
      let image = try Fixtures.photo(width: 40 * scale, height: 25 * scale, seed: scale)
      try Data(try image.encoded(as: .png)).write(to: set.appendingPathComponent("uk\(suffix).png"))
    }
    let images = [(1, ""), (2, "@2x"), (3, "@3x")].map { scale, suffix in
      "    {\n      \"filename\" : \"uk\(suffix).png\",\n      \"idiom\" : \"universal\",\n      \"scale\" : \"\(scale)x\"\n    }"
    }
    let contents =
      "{\n  \"images\" : [\n\(images.joined(separator: ",\n"))\n  ],\n  \"info\" : {\n    \"author\" : \"xcode\",\n    \"version\" : 1\n  }\n}\n"
    try Data(contents.utf8).write(to: set.appendingPathComponent("Contents.json"))
    let root = "{\n  \"info\" : {\n    \"author\" : \"xcode\",\n    \"version\" : 1\n  }\n}\n"
    try Data(root.utf8).write(to: catalog.appendingPathComponent("Contents.json"))
    try Data(root.utf8).write(to: catalog.appendingPathComponent("Flags/Contents.json"))
  }
}
