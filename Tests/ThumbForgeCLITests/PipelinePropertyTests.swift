import Foundation
import Testing
import ThumbForgeTestSupport
import Vips

// The pipeline property: for generated asset folders and configurations
// (AssetFolderGenerator: every input format, extreme shapes, damaged masters, orientations,
// profiles, layouts, metadata; recipes from the key table with boundary values; web sizes
// and Android drawables), the real `thumbforge` binary, under a memory cap, never crashes;
// its problems name the folder's files; every manifest output, web size and drawable is the
// file it says; every Contents.json lists its files;
// `check` agrees with the build; a second build renders nothing; and the folder built as
// 2 or 3 shards and merged gives the build's files byte for byte.
//
//   swift test --filter PipelineProperty                         the fixed CI seeds
//   THUMBFORGE_PROPERTY_SEED=1234 swift test --filter PipelineProperty     one seed
//   THUMBFORGE_PROPERTY_CASES=50 swift test --filter PipelineProperty      50 random seeds
//   THUMBFORGE_PROPERTY_SECONDS=600 swift test --filter PipelineProperty   random seeds for 10 min
//     (Scripts/fuzz.sh --property 600)
//   THUMBFORGE_PROPERTY_ALLOW=webp-metadata   do not check WebP outputs for metadata
//     (libvips 8.14's webpsave writes EXIF despite `strip`: a known failure), to look for others
//
// Each case prints `pipeline property: seed S ok (…)` or `pipeline property: seed S FAILED`
// with a one-line reproducer.

enum PropertyCases {
  static let environment = ProcessInfo.processInfo.environment

  /// The fixed seeds: three in the everyday tier, fourteen in the slow one (CI).
  static let fixed: [UInt64] = Array(1...(TestTier.slowRuns ? 14 : 3))

  static var seconds: Double? { environment["THUMBFORGE_PROPERTY_SECONDS"].flatMap(Double.init) }

  /// `THUMBFORGE_PROPERTY_SEED`, else `THUMBFORGE_PROPERTY_CASES` random seeds, else the
  /// fixed ones.
  static let seeds: [UInt64] = {
    if let text = environment["THUMBFORGE_PROPERTY_SEED"], let seed = UInt64(text) {
      return [seed]
    }
    if let text = environment["THUMBFORGE_PROPERTY_CASES"], let count = Int(text), count > 0 {
      return (0..<count).map { _ in UInt64.random(in: 1...999_999_999) }
    }
    return fixed
  }()
}

/// One case of the property: generate, build, audit, check, build again.
struct PipelineProperty {
  /// The address-space cap of every `thumbforge` run (3 GiB).
  static let memoryLimitKB = 3 * 1024 * 1024
  /// A run longer than this is killed and reported as a hang.
  static let timeLimit: Double = 300

  let seed: UInt64

  static func reproducer(_ seed: UInt64) -> String {
    "THUMBFORGE_PROPERTY_SEED=\(seed) swift test --filter PipelineProperty"
  }

  /// Runs the case; returns its failures (empty when the property holds) and a summary.
  func run() async throws -> (failures: [String], summary: String) {
    let folder = try AssetFolderGenerator.make(seed: seed)
    let sandbox = try Sandbox("property\(seed)", config: nil)
    try folder.write(to: sandbox.assets)
    var runs = Runs(
      sandbox: sandbox,
      audit: CatalogAudit(
        folder: folder, assets: sandbox.assets, manifest: sandbox.manifest,
        allowsWebPMetadata: PropertyCases.environment["THUMBFORGE_PROPERTY_ALLOW"]
          == "webp-metadata"))

    // 1. The build ends with 0 or 1: no signal, no usage or configuration error (2).
    let first = try await runs.run(["build", sandbox.assets.path])
    if !first.signalled && first.status != 0 && first.status != 1 {
      runs.failures.append("build exited \(first.status) for a valid configuration")
    }
    if !first.signalled && (first.status == 0 || first.status == 1) {
      // 3, 4. The manifest's outputs and the catalog's imagesets.
      runs.failures += runs.audit.catalogViolations()
      try await runs.checkAgain(after: first)
      try await runs.shardAndMerge(count: 2 + Int(seed % 2))
    }
    let summary =
      "exit \(first.signalled ? "signal " : "")\(first.status), "
      + "\(CatalogAudit.errorLines(first.stderr).count) problems, \(folder.masters.count) masters"
    if !runs.failures.isEmpty {
      runs.failures.append(
        "generated folder:\n\(folder.summary)\n--- runs ---\n" + runs.log.joined(separator: "\n"))
    }
    return (runs.failures, summary)
  }

  /// The runs of the tool on one case's sandbox: their outputs, and the failures found.
  struct Runs {
    let sandbox: Sandbox
    let audit: CatalogAudit
    var failures: [String] = []
    var log: [String] = []

    /// Runs `thumbforge ARGUMENTS` (killed after ``timeLimit``, within ``memoryLimitKB``);
    /// a signal and problems naming no file of the folder are failures.
    mutating func run(_ arguments: [String]) async throws -> CLIResult {
      let started = Date()
      let running = try RunningCLI(
        arguments: arguments, in: sandbox.root, memoryLimitKB: PipelineProperty.memoryLimitKB)
      let killer = Task {
        try await Task.sleep(nanoseconds: UInt64(PipelineProperty.timeLimit * 1e9))
        running.send(SIGKILL)
      }
      let result = await running.wait()
      killer.cancel()
      let elapsed = Date().timeIntervalSince(started)
      log.append(result.description)
      if result.signalled {
        failures.append(
          "thumbforge \(arguments.first ?? "") ended by signal \(result.status)"
            + (elapsed >= PipelineProperty.timeLimit
              ? " (killed after \(Int(PipelineProperty.timeLimit)) s)" : ""))
      }
      failures += audit.problemViolations(CatalogAudit.errorLines(result.stderr))
      return result
    }

    /// 5. `check` agrees with the `first` build; 6. a second build renders nothing (and
    /// fails as the first did).
    mutating func checkAgain(after first: CLIResult) async throws {
      let check = try await run(["check", sandbox.assets.path])
      if !check.signalled && check.status != first.status {
        failures.append("check exited \(check.status) after a build that exited \(first.status)")
      }
      // And on what: after a clean build it is up to date; after one with failures, every
      // imageset it finds missing names a master that failed, and nothing else differs.
      let lines = check.stdout.split(separator: "\n")
      if first.status == 0 && !check.signalled && !check.stdout.contains("up to date") {
        failures.append("check after a clean build: \(check.stdout)")
      }
      for line in lines where line.hasPrefix("missing: ") || line.hasPrefix("stale: ") {
        if !line.contains("failed in the last build") {
          failures.append("check after the build: \(line)")
        }
      }
      let second = try await run(["build", sandbox.assets.path, "--json"])
      guard !second.signalled else { return }
      if second.status != first.status {
        failures.append("the second build exited \(second.status), the first \(first.status)")
      }
      let report =
        (try? JSONSerialization.jsonObject(with: Data(second.stdout.utf8))) as? [String: Any]
      if let rendered = report?["rendered"] as? Int {
        if rendered != 0 { failures.append("the second build rendered \(rendered) outputs") }
      } else {
        failures.append("the second build printed no JSON report")
      }
    }

    /// 7. The folder built again as `count` shards, from nothing, and merged where the build
    /// wrote: every file (catalog, manifest, web sizes, drawables) the build's bytes.
    mutating func shardAndMerge(count: Int) async throws {
      let built = FolderSnapshot(sandbox.out, skipHidden: true)
      try FileManager.default.removeItem(at: sandbox.out)
      let parts = (1...count).map { sandbox.root.appendingPathComponent("parts/\($0)") }
      for (index, part) in zip(1..., parts) {
        let shard = try await run([
          "build", sandbox.assets.path, "--shard", "\(index)/\(count)", "--part", part.path,
        ])
        if !shard.signalled && shard.status != 0 && shard.status != 1 {
          failures.append("shard \(index)/\(count) exited \(shard.status)")
        }
      }
      let merge = try await run(["merge"] + parts.map(\.path) + ["--output", sandbox.catalog.path])
      guard !merge.signalled else { return }
      guard merge.status == 0 else {
        failures.append("merge of \(count) shards exited \(merge.status): \(merge.stderr)")
        return
      }
      let changed = built.changedContent(comparedTo: FolderSnapshot(sandbox.out, skipHidden: true))
      if !changed.isEmpty {
        failures.append(
          "\(count) shards merged differ from the build: \(changed.prefix(5).joined(separator: ", "))"
        )
      }
    }
  }

  /// Runs the case and records an issue (with the reproducer) when it fails.
  @discardableResult
  static func check(_ seed: UInt64) async throws -> Bool {
    let (failures, summary) = try await PipelineProperty(seed: seed).run()
    if failures.isEmpty {
      print("pipeline property: seed \(seed) ok (\(summary))")
      return true
    }
    print("pipeline property: seed \(seed) FAILED: \(failures[0]) — reproduce: \(reproducer(seed))")
    Issue.record(
      Comment(
        rawValue: "seed \(seed): the pipeline property failed\n"
          + failures.joined(separator: "\n") + "\nreproduce: \(reproducer(seed))"))
    return false
  }
}

@Suite("PipelineProperty", .serialized, .timeLimit(.minutes(60)))
struct PipelinePropertyTests {
  @Test(
    "the pipeline property for each seed",
    .enabled(if: PropertyCases.seconds == nil), arguments: PropertyCases.seeds)
  func property(seed: UInt64) async throws {
    try await PipelineProperty.check(seed)
  }

  /// `THUMBFORGE_PROPERTY_SECONDS=N`: random seeds until N seconds have passed.
  @Test(
    "the pipeline property for random seeds, for a time", .enabled(if: PropertyCases.seconds != nil)
  )
  func timed() async throws {
    let seconds = PropertyCases.seconds ?? 0
    let end = Date().addingTimeInterval(seconds)
    var cases = 0
    var failed: [UInt64] = []
    while Date() < end {
      let seed = UInt64.random(in: 1...999_999_999)
      cases += 1
      if !(try await PipelineProperty.check(seed)) { failed.append(seed) }
    }
    print(
      "pipeline property: \(cases) cases, \(failed.count) failed"
        + (failed.isEmpty ? "" : " (seeds: \(failed.map(String.init).joined(separator: " ")))"))
  }
}
