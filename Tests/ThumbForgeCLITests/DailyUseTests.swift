import Foundation
import Testing
import ThumbForgeTestSupport
import Vips

/// Daily use in an iOS team: each problem a team meets, through the real binary.
/// Every test here failed on the code before its fix.
@Suite("Daily use", .timeLimit(.minutes(10)))
struct DailyUseTests {
  /// A timestamped line of a watch: `[14:03:07] …`.
  static func isStamped(_ line: Substring) -> Bool {
    line.wholeMatch(of: #/\[\d\d:\d\d:\d\d\] .+/#) != nil
  }

  // MARK: 1. Watch mode

  /// `build --watch` exited 2 the moment `thumbforge.yml` was saved half-written or wrong;
  /// with stdout redirected, no summary appeared (buffered, lost on Ctrl-C); there was no
  /// start banner and no timestamp.
  @Test(
    "watch: banner and timestamped lines reach a file at once; a bad save is reported and watching goes on; the fixed save rebuilds"
  )
  func watchSurvivesABadSave() async throws {
    let box = try Sandbox(config: "output: ../out/Assets.xcassets\nscales: [2]\n")
    try box.image("Photos/Lake.jpg", Fixtures.photo(width: 300, height: 150, seed: 1))
    // stdout is a file, as with `| tee` or `> log`: fully buffered unless the tool says not.
    let watch = try RunningCLI(arguments: ["build", box.assets.path, "--watch"], in: box.root)
    defer { if !watch.hasEnded { watch.send(SIGKILL) } }

    let first = await watch.waitFor(seconds: 90) { out, _ in
      out.split(separator: "\n").contains { Self.isStamped($0) && $0.contains("1 rendered") }
    }
    var (out, err) = watch.outputSoFar()
    #expect(first, "the first build's timestamped summary, while the watch runs\n\(out)\n\(err)")
    #expect(
      out.hasPrefix("watching \(box.assets.standardizedFileURL.path)"), "a start banner\n\(out)")

    // A wrong save: reported with file and line, and the watch goes on.
    try box.write(
      "output: ../out/Assets.xcassets\nscales: [2]\nconcurrency: lots\n", to: "thumbforge.yml")
    let reported = await watch.waitFor(seconds: 90) { out, err in
      err.contains("thumbforge.yml:3:") && out.contains("configuration error")
    }
    (out, err) = watch.outputSoFar()
    #expect(reported, "the bad save reported\n\(out)\n\(err)")
    #expect(!watch.hasEnded, "the watch goes on after a bad save\n\(out)\n\(err)")
    let errorLine = out.split(separator: "\n").first { $0.contains("configuration error") }
    #expect(errorLine.map(Self.isStamped) == true, "\(out)")
    #expect(errorLine?.contains("thumbforge.yml changed") == true, "\(out)")

    // The fixed save is built: a new scale appears.
    try box.write("output: ../out/Assets.xcassets\nscales: [1, 2]\n", to: "thumbforge.yml")
    let oneX = box.inCatalog("Photos/Lake.imageset/Lake@1x.jpg")
    let rebuilt = await watch.waitFor(seconds: 90) { out, _ in
      FileManager.default.fileExists(atPath: oneX.path)
        && out.split(separator: "\n").filter { Self.isStamped($0) && $0.contains("rendered") }
          .count >= 2
    }
    (out, err) = watch.outputSoFar()
    #expect(rebuilt, "the fixed save rebuilds\n\(out)\n\(err)")
    let stamped = out.split(separator: "\n").filter(Self.isStamped)
    #expect(stamped.count == 3, "one timestamped line per build\n\(out)")
    // (A new scale changes the imageset's key: both of its outputs are rendered again.)
    #expect(
      stamped.last?.contains("thumbforge.yml changed; 2 rendered, 0 unchanged") == true, "\(out)")

    watch.send(SIGINT)
    let result = await watch.wait()
    expectExit(result, 0)
    #expect(result.stderr.contains("stopping the watch"), "\(result)")
  }

  /// `--watch --json`: one report per line, each a whole JSON object, as it is built.
  @Test("watch --json: one report per line on stdout, the banner on stderr")
  func watchJSONLines() async throws {
    let box = try Sandbox(config: "output: ../out/Assets.xcassets\nscales: [2]\n")
    try box.image("Photos/Lake.jpg", Fixtures.photo(width: 300, height: 150, seed: 1))
    let watch = try RunningCLI(
      arguments: ["build", box.assets.path, "--watch", "--json"], in: box.root)
    defer { if !watch.hasEnded { watch.send(SIGKILL) } }
    #expect(await watch.waitFor(seconds: 90) { out, _ in out.hasSuffix("}\n") })
    try box.write("output: ../out/Assets.xcassets\nscales: [2\n", to: "thumbforge.yml")
    #expect(
      await watch.waitFor(seconds: 90) { out, _ in
        out.split(separator: "\n").count == 2 && out.hasSuffix("}\n")
      })
    watch.send(SIGINT)
    let result = await watch.wait()
    // The last build's exit code: the configuration was left broken.
    expectExit(result, 2)
    let lines = result.stdout.split(separator: "\n").map(String.init)
    #expect(lines.count == 2, "\(result)")
    let reports = try lines.map(JSONValue.parse)
    #expect(reports.map { $0["status"]?.string } == ["success", "configuration-error"])
    #expect(result.stderr.contains("watching "), "\(result)")
    for report in reports { #expect(JSONReportSchemaTests.schema.errors(report) == []) }
  }

  // MARK: 2. Problems in plain sight

  static let warningConfig = """
    output: ../out/Assets.xcassets
    rules:
      - match: "Tiny/**"
        recipes: [hero]
      - match: "Small/**"
        recipes: [thumb]
      - match: "Broken/**"
        recipes: [variants]
    recipes:
      hero: { kind: fill, size: [400, 300], upscale: warn, scales: [2] }
      thumb: { kind: fill, size: [200, 200], upscale: never, scales: [2, 3] }

    """

  /// A 10x8 master enlarged 80x (`upscale: warn`), one whose two outputs are skipped
  /// (`upscale: never`), and a truncated master of two outputs.
  static func warningBox(_ name: String = #function) throws -> Sandbox {
    let box = try Sandbox(name, config: warningConfig)
    try box.image("Tiny/Dot.png", Fixtures.photo(width: 10, height: 8, seed: 1))
    try box.image("Small/Square.jpg", Fixtures.photo(width: 300, height: 300, seed: 2))
    let jpeg = Data(try Fixtures.photo(width: 300, height: 150, seed: 3).encoded(as: .jpeg))
    try box.write(truncated(jpeg), to: "Broken/Cut.jpg")
    return box
  }

  /// Warnings were shown only with `-v` (so never in an Xcode `--quiet` run), "2 skipped"
  /// gave no hint, and the text's "failed" added masters and outputs while `--json` counted
  /// outputs.
  @Test("warnings summed up by kind without --verbose, with --quiet too; failed counts agree")
  func warningsInPlainSight() async throws {
    let box = try Self.warningBox()
    let result = try await box.build()
    expectExit(result, 1)
    let warnings = result.stderr.split(separator: "\n").filter { $0.hasPrefix("warning: ") }
    #expect(warnings.count == 2, "one line per kind\n\(result)")
    #expect(
      warnings.contains {
        $0.hasPrefix(
          "warning: 1 output enlarged: Tiny/Dot-hero.imageset: @2x: enlarges Tiny/Dot.png")
          && $0.contains("by 80.0x")
      }, "\(result)")
    #expect(
      warnings.contains {
        $0.hasPrefix("warning: 2 outputs skipped, e.g. Small/Square-thumb.imageset: @2x")
      },
      "\(result)")
    #expect(result.stdout.contains("2 skipped"), "\(result)")
    #expect(result.stdout.contains("3 warnings (summed up above"), "\(result)")

    let quiet = try await box.build(["--quiet", "--force"])
    expectExit(quiet, 1)
    #expect(quiet.stdout.isEmpty, "\(quiet)")
    #expect(
      quiet.stderr.split(separator: "\n").filter { $0.hasPrefix("warning: ") }.count == 2,
      "--quiet still sums up the warnings\n\(quiet)")

    let verbose = try await box.build(["--verbose", "--force"])
    let each = verbose.stderr.split(separator: "\n").filter { $0.hasPrefix("warning: ") }
    #expect(each.count == 3 && !each.contains { $0.contains("e.g.") }, "\(verbose)")

    // The text's failed count is the JSON's: one per master.
    let text = try #require(
      result.stdout.firstMatch(of: #/(\d+) failed/#).flatMap { Int($0.1) }, "\(result)")
    let json = try await box.build(["--json", "--force"])
    expectExit(json, 1)
    let report = try JSONValue.parse(json.stdout)
    #expect(report["failed"]?.integer == text && text == 1, "\(result)\n\(json)")
    let outputs = try #require(report["failedOutputs"]?.integer)
    if outputs > 0 {
      #expect(result.stdout.contains("1 failed (\(outputs) outputs not made)"), "\(result)")
    }
    #expect(report["skipped"]?.integer == 2)
    #expect(report["warningCounts"]?["enlargement"]?.integer == 1)
    #expect(report["warningCounts"]?["skipped"]?.integer == 2)
    let enlargement = report["warnings"]?.array?.first { $0["kind"]?.string == "enlargement" }
    #expect(enlargement?["file"]?.string == "Tiny/Dot.png", "\(json)")
    #expect(enlargement?["imageSet"]?.string == "Tiny/Dot-hero.imageset", "\(json)")
  }

  // MARK: 3. Xcode's format

  /// Errors printed as `error: file:line: …`; Xcode makes only
  /// `/abs/path:line:column: error: message` clickable in a Run Script phase.
  @Test(
    "under Xcode (or --diagnostics xcode), errors and warnings are /abs/path:line:column: error|warning: message"
  )
  func xcodeDiagnostics() async throws {
    let box = try Self.warningBox()
    let folder = box.assets.standardizedFileURL.path
    let xcode = ["XCODE_VERSION_ACTUAL": "1600", "XCODE_PRODUCT_BUILD_VERSION": "16A242d"]
    for (arguments, environment) in [
      (["--quiet"], xcode), (["--quiet", "--diagnostics", "xcode"], [:]),
    ] {
      let result = try await RunningCLI(
        arguments: ["build", box.assets.path, "--force"] + arguments, in: box.root,
        environment: environment
      ).wait()
      expectExit(result, 1)
      let lines = result.stderr.split(separator: "\n").map(String.init)
      #expect(lines.contains { $0.hasPrefix("\(folder)/Broken/Cut.jpg:1:1: error: ") }, "\(result)")
      #expect(
        lines.contains { $0.hasPrefix("\(folder)/Tiny/Dot.png:1:1: warning: 1 output enlarged") },
        "\(result)")
      #expect(
        lines.contains {
          $0.hasPrefix("\(folder)/Small/Square.jpg:1:1: warning: 2 outputs skipped")
        },
        "\(result)")
      for line in lines {
        #expect(
          line.wholeMatch(of: #/\/[^:]+:\d+:\d+: (error|warning): .+/#) != nil,
          "every line in Xcode's format: \(line)")
      }
    }

    // A configuration error names the configuration file's absolute path and line.
    try box.write("output: ../out/Assets.xcassets\nconcurrency: lots\n", to: "thumbforge.yml")
    let config = try await RunningCLI(
      arguments: ["build", box.assets.path], in: box.root, environment: xcode
    ).wait()
    expectExit(config, 2)
    #expect(
      config.stderr.hasPrefix("\(folder)/thumbforge.yml:2:1: error: concurrency: "), "\(config)")
    #expect(config.stderr.split(separator: "\n").count == 1, "\(config)")
    // `lint` reports the same error the same way.
    let lint = try await RunningCLI(
      arguments: ["lint", box.assets.path], in: box.root, environment: xcode
    ).wait()
    expectExit(lint, 2)
    #expect(
      lint.stderr.hasPrefix("\(folder)/thumbforge.yml:2:1: error: concurrency: "), "\(lint)")
    // --diagnostics text wins over the environment.
    let text = try await RunningCLI(
      arguments: ["check", box.assets.path, "--diagnostics", "text"], in: box.root,
      environment: xcode
    ).wait()
    expectExit(text, 2)
    #expect(text.stderr.hasPrefix("error: thumbforge.yml:2: concurrency: "), "\(text)")
  }

  // MARK: 5. Usage errors

  /// Usage errors had no `Error:` prefix and no usage line, and every error, usage or not,
  /// ended with "Run 'thumbforge help' for usage" (`sign` without a key too).
  @Test(
    "usage errors: Error: and the subcommand's usage line, exit 2",
    arguments: [
      (["build", "assets", "--jobs", "0"], "Error: --jobs must be 1 or more", "build"),
      (["build", "no-such-folder"], "Error: no such asset folder", "build"),
      (
        ["build", "assets", "--shard", "3/2"], "Error: the shard index must be 1…2, got 3", "build"
      ),
      (
        ["check", "assets", "--output", "assets/Inside.xcassets"], "Error: --output '", "check"
      ),
      (["regenerate", "-f", "assets", "Flags/{a"], "Error: unbalanced '{'", "regenerate"),
      (["sign", "nothing"], "Error: 'nothing' is not a serve path", "sign"),
      (["build", "assets", "--diagnostics", "vs"], "Error: The value 'vs' is invalid", "build"),
    ])
  func usageErrors(_ arguments: [String], _ message: String, _ command: String) async throws {
    let box = try Sandbox()
    let result = try await CLI.run(arguments, in: box.root)
    expectExit(result, 2)
    #expect(result.stderr.hasPrefix(message), "\(result)")
    #expect(result.stderr.contains("Usage: thumbforge \(command) "), "\(result)")
    #expect(!result.stderr.contains("thumbforge help'"), "\(result)")
    #expect(result.stdout.isEmpty, "\(result)")
  }

  @Test("an error that is not about usage has no usage line and no 'thumbforge help'")
  func notAUsageError() async throws {
    let box = try Sandbox()
    let result = try await RunningCLI(
      arguments: ["sign", "tile/Resorts/les-arcs@2x.jpg"], in: box.root,
      removing: ["THUMBFORGE_KEY", "THUMBFORGE_SALT"]
    ).wait()
    expectExit(result, 2)
    #expect(result.stderr.hasPrefix("error: no signing key: set THUMBFORGE_KEY"), "\(result)")
    #expect(result.stderr.split(separator: "\n").count == 1, "\(result)")
    #expect(!result.stderr.contains("Usage:") && !result.stderr.contains("help"), "\(result)")
  }

  @Test(
    "every subcommand's help states its exit codes",
    arguments: ["build", "check", "regenerate", "lint", "merge", "serve", "sign"])
  func exitCodesInHelp(_ command: String) async throws {
    let box = try Sandbox()
    let result = try await CLI.run(["help", command], in: box.root)
    expectExit(result, 0)
    let help = result.stdout.replacingOccurrences(of: "\n", with: " ")
      .replacingOccurrences(of: #"\s+"#, with: " ", options: .regularExpression)
    #expect(help.firstMatch(of: #/Exit (codes: )?0/#) != nil, "\(result)")
    // Exit 2 stated with what it means ("2 usage …", "2 when it does not load"), after 0.
    #expect(
      help.firstMatch(of: #/Exit (codes: )?0\b.*\b2 (usage|when|not|or)\b/#) != nil, "\(result)")
  }

  @Test("sign takes the unsigned URL's path too, and its error asks for what it takes")
  func signUnsafePath() async throws {
    let box = try Sandbox()
    let key = [
      "THUMBFORGE_KEY": String(repeating: "ab", count: 32),
      "THUMBFORGE_SALT": String(repeating: "cd", count: 16),
    ]
    let plain = try await RunningCLI(
      arguments: ["sign", "tile/Resorts/les-arcs@2x.jpg"], in: box.root, environment: key
    ).wait()
    expectExit(plain, 0)
    let unsafe = try await RunningCLI(
      arguments: ["sign", "/unsafe/tile/Resorts/les-arcs@2x.jpg"], in: box.root, environment: key
    ).wait()
    expectExit(unsafe, 0)
    #expect(unsafe.stdout == plain.stdout, "\(unsafe)")
    #expect(!unsafe.stdout.contains("unsafe"), "\(unsafe)")
    let bad = try await CLI.run(["sign", "nothing"], in: box.root)
    expectExit(bad, 2)
    #expect(!bad.stderr.contains("{signature}"), "\(bad)")
    #expect(bad.stderr.contains("expected {recipe}/{asset}@{scale}x.{ext}"), "\(bad)")
  }

  // MARK: 6. check without a manifest

  /// Without a committed `manifest.json`, `check` printed one "exists … not made by
  /// ThumbForge" line per imageset and no hint.
  @Test("check without a manifest: one hint to commit manifest.json, not one line per imageset")
  func checkWithoutManifest() async throws {
    let box = try Sandbox()
    try box.makeStandardAssets()
    expectExit(try await box.build(), 0)
    // A clone where the catalog was committed and the manifest (and the caches) were not.
    for name in try FileManager.default.contentsOfDirectory(atPath: box.out.path)
    where name != "Assets.xcassets" {
      try FileManager.default.removeItem(at: box.out.appendingPathComponent(name))
    }
    let result = try await box.check()
    expectExit(result, 1)
    let errors = result.stderr.split(separator: "\n")
    #expect(errors.count == 1, "one line, not one per imageset\n\(result)")
    #expect(errors.first?.contains("commit manifest.json with the catalog") == true, "\(result)")
    #expect(
      errors.first?.contains("\(Sandbox.standardImageSets.count) imagesets") == true, "\(result)")
    #expect(!result.stderr.contains("not made by ThumbForge"), "\(result)")
    #expect(result.stdout.contains("missing: manifest.json"), "\(result)")
  }

  @Test("the CI and plugin pages say to commit manifest.json")
  func docsSayCommitTheManifest() throws {
    for page in ["docs/ci.md", "docs/xcode-and-plugin.md"] {
      let text = try String(
        contentsOf: Self.repository.appendingPathComponent(page), encoding: .utf8)
      #expect(text.contains("ommit `manifest.json` with the catalog"), "\(page)")
    }
  }

  /// Every long option of build, check, regenerate and merge is on the commands page.
  @Test("docs/commands.md documents every option of build, check, regenerate and merge")
  func docsDocumentEveryOption() async throws {
    let commands = try String(
      contentsOf: Self.repository.appendingPathComponent("docs/commands.md"), encoding: .utf8)
    let box = try Sandbox()
    for command in ["build", "check", "regenerate", "merge"] {
      let help = try await CLI.run(["help", command], in: box.root).stdout
      let options = Set(help.matches(of: #/--[a-z][a-z-]+/#).map { String($0.0) })
        .subtracting(["--help", "--version"])
      #expect(!options.isEmpty)
      let missing = options.sorted().filter { !commands.contains($0) }
      #expect(missing == [], "\(command): options docs/commands.md does not name")
    }
  }

  /// The repository's root (this file is Tests/ThumbForgeCLITests/DailyUseTests.swift).
  static let repository = URL(fileURLWithPath: #filePath).deletingLastPathComponent()
    .deletingLastPathComponent().deletingLastPathComponent()
}
