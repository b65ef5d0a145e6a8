import Foundation
import Testing
import ThumbForge
internal import ThumbForgePlanning
import ThumbForgeTestSupport
import Vips

/// `--json`: the real report of each case conforms to
/// `Schemas/build-report.schema.json`, says its schema version, and exists for a
/// configuration error and an interrupted run too (which printed nothing, or were
/// undescribed).
@Suite("JSON report schema", .timeLimit(.minutes(10)))
struct JSONReportSchemaTests {
  static let schemaURL = DailyUseTests.repository.appendingPathComponent(
    "Schemas/build-report.schema.json")

  /// The schema; a missing or unparsable file stops the test run (an empty schema would
  /// accept every report).
  static let schema: JSONSchemaCheck = {
    guard let text = try? String(contentsOf: schemaURL, encoding: .utf8),
      let root = try? JSONValue.parse(text), case .object(let fields) = root, !fields.isEmpty
    else { fatalError("\(schemaURL.path) is missing or not a JSON schema") }
    return JSONSchemaCheck(root: root)
  }()

  /// Parses `result`'s stdout and checks it against the schema, its status and exit code.
  @discardableResult
  static func expectConforming(
    _ result: CLIResult, status: String, sourceLocation: SourceLocation = #_sourceLocation
  ) throws -> JSONValue {
    let report = try JSONValue.parse(result.stdout)
    #expect(schema.errors(report) == [], "\(result)", sourceLocation: sourceLocation)
    #expect(report["schemaVersion"] == .integer(1), sourceLocation: sourceLocation)
    #expect(report["status"]?.string == status, "\(result)", sourceLocation: sourceLocation)
    #expect(
      report["exitCode"]?.integer == Int(result.status), "\(result)",
      sourceLocation: sourceLocation)
    return report
  }

  @Test("the schema uses only the keywords the check knows, and its warning kinds are the tool's")
  func schemaItself() throws {
    #expect(FileManager.default.fileExists(atPath: Self.schemaURL.path))
    let root = Self.schema.root
    #expect(root["properties"]?["schemaVersion"]?["const"] == .integer(1))
    let kinds = root["properties"]?["warnings"]?["items"]?["properties"]?["kind"]?["enum"]
    #expect(kinds == .array(BuildWarning.Kind.allCases.map { .string($0.rawValue) }))
    // The check is not vacuous: a missing field, a wrong type and an unknown field fail.
    let bad = try JSONValue.parse(
      #"{"schemaVersion": 1, "tool": "thumbforge", "rendered": "3", "colour": "red"}"#)
    let errors = Self.schema.errors(bad)
    #expect(errors.contains { $0.contains("'status' is required") }, "\(errors)")
    #expect(errors.contains { $0.contains("/rendered: expected integer") }, "\(errors)")
    #expect(errors.contains { $0.contains("'colour' is not allowed") }, "\(errors)")
    let unknown = JSONSchemaCheck(root: try JSONValue.parse(#"{"type": "object", "oneOf": []}"#))
    #expect(unknown.errors(.object([:])).count == 1)
  }

  @Test("build: success, then failures and warnings; regenerate; check up to date and stale")
  func buildAndCheck() async throws {
    let box = try Sandbox()
    try box.makeStandardAssets()
    try await Self.expectConforming(box.build(["--json"]), status: "success")
    try await Self.expectConforming(box.check(["--json"]), status: "success")
    try await Self.expectConforming(box.regenerate(["Red"], ["--json"]), status: "success")
    try box.image("Photos/Lake.jpg", Fixtures.photo(width: 300, height: 150, seed: 9))
    let stale = try await Self.expectConforming(box.check(["--json"]), status: "stale")
    #expect(stale["stale"]?.array?.isEmpty == false)

    let warned = try DailyUseTests.warningBox()
    let report = try await Self.expectConforming(warned.build(["--json"]), status: "failed")
    #expect(report["warnings"]?.array?.count == 3)
    #expect(report["problems"]?.array?.count == 1)
  }

  @Test("a configuration error prints a report too (build and check), with file and line")
  func configurationError() async throws {
    let box = try Sandbox(config: "output: ../out/Assets.xcassets\nconcurrency: lots\n")
    for command in ["build", "check"] {
      let result = try await CLI.run([command, box.assets.path, "--json"], in: box.root)
      expectExit(result, 2)
      let report = try Self.expectConforming(result, status: "configuration-error")
      #expect(report["command"]?.string == command)
      #expect(
        report["error"]?["file"]?.string
          == box.assets.appendingPathComponent("thumbforge.yml").standardizedFileURL.path)
      #expect(report["error"]?["line"]?.integer == 2)
      #expect(report["error"]?["key"]?.string == "concurrency")
      #expect(result.stderr.contains("thumbforge.yml:2:"), "\(result)")
    }
  }

  /// Ctrl-C mid-build: files in progress finish, the manifest is written, and the report
  /// says `interrupted` (exit 130).
  @Test("an interrupted build prints a report: status interrupted, exit 130")
  func interrupted() async throws {
    let box = try Sandbox(
      config: """
        output: ../out/Assets.xcassets
        rules:
          - match: "**"
            recipes: [variants, tile]

        """)
    // Enough work for one job to take several seconds, so that Ctrl-C lands mid-build.
    for index in 0..<64 {
      try box.image(
        "Batch\(index % 4)/Photo\(index).jpg", Fixtures.photo(width: 1200, height: 800, seed: index)
      )
    }
    var interrupted: CLIResult?
    for attempt in 1...3 where interrupted == nil {
      let running = try RunningCLI(
        arguments: ["build", box.assets.path, "--json", "--jobs", "1", "--force"], in: box.root)
      let catalog = box.catalog
      // The first imageset written: the build is under way.
      let started = await running.waitFor(seconds: 120) { _, _ in
        (FileManager.default.enumerator(atPath: catalog.path)?.allObjects as? [String])?
          .contains { $0.hasSuffix(".jpg") } == true
      }
      if started && !running.hasEnded { running.send(SIGINT) }
      let result = await running.wait()
      if result.status == 130 {
        interrupted = result
      } else {
        print("JSONReportSchemaTests: attempt \(attempt): the build finished before Ctrl-C")
      }
    }
    let result = try #require(interrupted, "no build could be interrupted")
    let report = try Self.expectConforming(result, status: "interrupted")
    #expect(report["cancelled"] == .bool(true))
    #expect(FileManager.default.fileExists(atPath: box.manifest.path))
  }

  @Test("merge --json conforms")
  func merge() async throws {
    let box = try Sandbox()
    try box.makeStandardAssets()
    let part = box.root.appendingPathComponent("part")
    expectExit(
      try await CLI.run(
        ["build", box.assets.path, "--shard", "1/1", "--part", part.path], in: box.root), 0)
    let result = try await CLI.run(
      ["merge", part.path, "--output", box.catalog.path, "--json"], in: box.root)
    expectExit(result, 0)
    let report = try Self.expectConforming(result, status: "success")
    #expect(report["command"]?.string == "merge")
  }
}
