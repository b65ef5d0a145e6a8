import Foundation
import Testing
import ThumbForgeTestSupport
import Yams

/// The sharded-build examples under `Examples/` are run here as written: their shell steps,
/// with the CI system's or Kubernetes' variables filled in, on a copy of the sample folder
/// `Assets/`; the merged catalog must equal a single build's.
@Suite("Examples", .timeLimit(.minutes(10)))
struct ExamplesTests {
  static let repository = URL(fileURLWithPath: #filePath)
    .deletingLastPathComponent().deletingLastPathComponent().deletingLastPathComponent()

  /// A folder laid out as a checkout: `Assets/` (a copy of the sample folder) and
  /// `bin/thumbforge` (the built binary), with `bin` first on the PATH.
  static func checkout() throws -> (root: URL, environment: [String: String]) {
    let root = FileManager.default.temporaryDirectory
      .appendingPathComponent("thumbforge-examples-\(UUID().uuidString.prefix(8))")
    try FileManager.default.createDirectory(
      at: root.appendingPathComponent("bin"), withIntermediateDirectories: true)
    try FileManager.default.copyItem(
      at: repository.appendingPathComponent("Assets"), to: root.appendingPathComponent("Assets"))
    try FileManager.default.createSymbolicLink(
      at: root.appendingPathComponent("bin/thumbforge"), withDestinationURL: try CLI.binary())
    let path = ProcessInfo.processInfo.environment["PATH"] ?? "/usr/bin:/bin"
    return (root, ["PATH": root.appendingPathComponent("bin").path + ":" + path])
  }

  /// Runs a step's shell text with `sh -e`; returns its exit status and output. Waited for
  /// on a thread of its own (see ``offPool(_:)``).
  static func shell(_ script: String, in folder: URL, environment: [String: String])
    async throws -> (status: Int32, output: String)
  {
    try await offPool { try wait(script, in: folder, environment: environment) }
  }

  private static func wait(_ script: String, in folder: URL, environment: [String: String])
    throws -> (status: Int32, output: String)
  {
    let process = Process()
    process.executableURL = URL(fileURLWithPath: "/bin/sh")
    process.arguments = ["-e", "-c", script]
    process.currentDirectoryURL = folder
    process.environment = ProcessInfo.processInfo.environment.merging(environment) { $1 }
    let pipe = Pipe()
    process.standardOutput = pipe
    process.standardError = pipe
    try process.run()
    let output = String(decoding: pipe.fileHandleForReading.readDataToEndOfFile(), as: UTF8.self)
    process.waitUntilExit()
    return (process.terminationStatus, output)
  }

  /// The catalog and manifest of a single build of the sample folder, in `folder`.
  static func singleBuild(into folder: URL, in root: URL) async throws -> FolderSnapshot {
    let result = try await CLI.run(
      [
        "build", root.appendingPathComponent("Assets").path, "-q", "--output",
        folder.appendingPathComponent("Assets.xcassets").path, "--swift",
        folder.appendingPathComponent("Asset.swift").path,
      ], in: root)
    expectExit(result, 0)
    return FolderSnapshot(folder, skipHidden: true)
  }

  @Test("GitHub Actions: the matrix's shard steps, the merge and the check give the single build")
  func githubActions() async throws {
    let text = try String(
      contentsOf: Self.repository.appendingPathComponent(
        "Examples/github-actions/thumbforge-shards.yml"), encoding: .utf8)
    let workflow = try #require(try Yams.load(yaml: text) as? [String: Any])
    let jobs = try #require(workflow["jobs"] as? [String: [String: Any]])
    let matrix = try #require(
      ((jobs["shard"]?["strategy"] as? [String: Any])?["matrix"] as? [String: Any])?["shard"]
        as? [Int])
    func runs(_ job: String) -> [String] {
      (jobs[job]?["steps"] as? [[String: Any]] ?? []).compactMap { $0["run"] as? String }
        .filter { $0.contains("thumbforge ") }
    }
    let (root, environment) = try Self.checkout()
    defer { try? FileManager.default.removeItem(at: root) }
    #expect(matrix == Array(1...matrix.count))
    for shard in matrix {
      for script in runs("shard") {
        let step = try await Self.shell(
          script.replacingOccurrences(of: "${{ matrix.shard }}", with: "\(shard)"), in: root,
          environment: environment)
        #expect(step.status == 0, "shard \(shard): \(step.output)")
      }
    }
    for script in runs("merge") {
      let step = try await Self.shell(script, in: root, environment: environment)
      #expect(step.status == 0, "\(script)\n\(step.output)")
    }
    let single = try await Self.singleBuild(
      into: root.appendingPathComponent("single"), in: root)
    let merged = FolderSnapshot(root.appendingPathComponent("Build"), skipHidden: true)
    #expect(single.paths.count > 50)
    #expect(single.changedContent(comparedTo: merged) == [])
  }

  @Test("Kubernetes: the Indexed Job's command for every completion index, then the merge Job's")
  func kubernetesIndexedJob() async throws {
    let text = try String(
      contentsOf: Self.repository.appendingPathComponent("Examples/kubernetes/build-shards.yaml"),
      encoding: .utf8)
    let documents = try Yams.load_all(yaml: text).compactMap { $0 as? [String: Any] }
    func job(_ name: String) throws -> [String: Any] {
      try #require(
        documents.first {
          $0["kind"] as? String == "Job"
            && ($0["metadata"] as? [String: Any])?["name"] as? String == name
        })
    }
    func script(_ job: [String: Any]) throws -> String {
      let spec = try #require(
        ((job["spec"] as? [String: Any])?["template"] as? [String: Any])?["spec"]
          as? [String: Any])
      let container = try #require((spec["containers"] as? [[String: Any]])?.first)
      return try #require((container["args"] as? [String])?.first)
    }
    let shards = try job("thumbforge-build-shards")
    let spec = try #require(shards["spec"] as? [String: Any])
    #expect(spec["completionMode"] as? String == "Indexed")
    let completions = try #require(spec["completions"] as? Int)
    let (root, environment) = try Self.checkout()
    defer { try? FileManager.default.removeItem(at: root) }
    func local(_ script: String) -> String {
      script.replacingOccurrences(of: "/data/", with: root.path + "/")
    }
    for index in 0..<completions {
      var variables = environment
      variables["JOB_COMPLETION_INDEX"] = "\(index)"
      let step = try await Self.shell(
        local(try script(shards)), in: root, environment: variables)
      #expect(step.status == 0, "completion index \(index): \(step.output)")
    }
    let merge = try await Self.shell(
      local(try script(job("thumbforge-merge"))), in: root, environment: environment)
    #expect(merge.status == 0, "\(merge.output)")
    let single = try await Self.singleBuild(
      into: root.appendingPathComponent("single"), in: root)
    let merged = FolderSnapshot(root.appendingPathComponent("Build"), skipHidden: true)
    // The merge Job writes no accessors file (its command has no --swift).
    #expect(single.paths.count > 50)
    #expect(single.changedContent(comparedTo: merged).filter { $0 != "Asset.swift" } == [])
  }
}
