import Foundation
import Testing
import ThumbForgeTestSupport
import Vips

/// A build SIGKILLed at random moments, then run to completion, ends byte-identical to an
/// uninterrupted build, with no torn file at any point and no temporary file left.
@Suite("Kill resilience", .timeLimit(.minutes(10)))
struct KillResilienceTests {
  static let sourceCount = 150

  @Test(
    "SIGKILL mid-build three times, then a full run: identical to an uninterrupted build",
    .enabled(if: TestTier.slowRuns, "\(TestTier.slowSkipReason)"))
  func killAndResume() async throws {
    let box = try Self.makeBatch()
    let expected = try await Self.buildReference(box)
    var killedMidRun = 0
    for round in 1...3 {
      if try await killRound(round, box, expected: expected) { killedMidRun += 1 }
    }
    #expect(
      killedMidRun > 0, "no run was killed mid-build; the corpus is too small for this machine")
    try await expectResumedBuild(box, equals: expected)
  }

  /// A sandbox of ``sourceCount`` photos in five groups, each made a variants and a tile.
  static func makeBatch() throws -> Sandbox {
    let box = try Sandbox(
      config: """
        output: ../out/Assets.xcassets
        rules:
          - match: "**"
            recipes: [variants, tile]
        recipes:
          tile: { size: [100, 100] }

        """)
    let clock = ContinuousClock()
    let generation = clock.now
    for index in 0..<Self.sourceCount {
      let photo = try Fixtures.photo(width: 600, height: 400, seed: index)
      try box.image("Batch\(index % 5)/Photo\(index).jpg", photo, quality: 85)
    }
    print("KillResilienceTests: \(Self.sourceCount) sources made in \(clock.now - generation)")
    return box
  }

  /// The uninterrupted reference build, in another folder: its catalog and manifest.
  static func buildReference(_ box: Sandbox) async throws -> FolderSnapshot {
    let clock = ContinuousClock()
    let reference = box.root.appendingPathComponent("reference/Assets.xcassets")
    let started = clock.now
    let full = try await box.build(["--jobs", "2", "--output", reference.path])
    print("KillResilienceTests: the uninterrupted build took \(clock.now - started)")
    expectExit(full, 0)
    let expected = FolderSnapshot(reference.deletingLastPathComponent(), skipHidden: true)
    #expect(expected.paths.count == Self.sourceCount * 6 + 6 + 1)
    return expected
  }

  /// Round `round` of three: a build killed with SIGKILL once the catalog holds a share of
  /// the files it still has to write, after which every file there is whole and equal to the
  /// reference's. Whether the kill landed mid-run.
  ///
  /// Kill moments are spread over the run by progress, not time (a timed kill misses when
  /// the machine is faster or less loaded than during the reference build): round k kills
  /// once the catalog holds a random share, in the k-th third of 5–80 %, of the files the
  /// run still has to write.
  func killRound(_ round: Int, _ box: Sandbox, expected: FolderSnapshot) async throws
    -> Bool
  {
    let expectedFiles = expected.paths.count - 1  // the manifest is not in the catalog
    let before = catalogFileCount(box.catalog)
    let remaining = expectedFiles - before
    let low = 0.05 + 0.75 * Double(round - 1) / 3
    let share = Double.random(in: low...(low + 0.25))
    let target = before + max(1, Int(Double(remaining) * share))
    let running = try RunningCLI(
      arguments: ["build", box.assets.path, "--jobs", "2"], in: box.root)
    // Watched from a thread of its own: a poll on the (small, shared) cooperative pool
    // can wake too late, under load or a sanitizer, to catch the run midway.
    let catalog = box.catalog
    await withCheckedContinuation { (done: CheckedContinuation<Void, Never>) in
      Thread.detachNewThread {
        while !running.hasEnded && catalogFileCount(catalog) < target { usleep(1000) }
        running.send(SIGKILL)
        done.resume()
      }
    }
    let result = await running.wait()
    if !result.signalled {
      expectExit(result, 0)
    }
    // Whatever exists now is a whole file: the new version (equal to the reference).
    let now = FolderSnapshot(box.catalog)
    print(
      "KillResilienceTests: round \(round): SIGKILL at \(target) of \(expectedFiles) files: "
        + (result.signalled ? "killed" : "had already finished")
        + " with \(now.paths.filter { !isTemporary($0) }.count) of \(expected.paths.count - 1) files written"
    )
    for (path, entry) in now.files where !isTemporary(path) {
      #expect(
        entry.bytes == expected.files["Assets.xcassets/" + path]?.bytes, "torn or wrong: \(path)")
    }
    return result.signalled
  }

  /// A full run after the kills ends equal to the reference, with no temporary file or
  /// pending list left, and `check` agrees.
  func expectResumedBuild(_ box: Sandbox, equals expected: FolderSnapshot) async throws {
    let clock = ContinuousClock()
    let resumed = clock.now
    let final = try await box.build(["--jobs", "2"])
    print("KillResilienceTests: the resumed build took \(clock.now - resumed)")
    expectExit(final, 0)
    let actual = FolderSnapshot(box.out, skipHidden: true)
    #expect(actual.paths == expected.paths)
    #expect(actual.changedContent(comparedTo: expected) == [])
    let leftovers = FolderSnapshot(box.out).paths.filter(isTemporary)
    #expect(leftovers == [], "temporary files left behind")
    #expect(
      !FileManager.default.fileExists(
        atPath: box.out.appendingPathComponent(".thumbforge-pending.json").path))
    expectExit(try await box.check(), 0)
  }

  @Test("a run killed after every file but before the manifest resumes to the same catalog")
  func killedBeforeTheManifest() async throws {
    // The state such a run leaves, made exactly: every catalog file written (group
    // Contents.json included), the pending list naming what it was writing, no manifest or
    // caches, and a temporary file of a dead process beside them.
    let box = try Sandbox(
      config: """
        output: ../out/Assets.xcassets
        rules:
          - match: "**"
            recipes: [variants, tile]

        """)
    for index in 0..<4 {
      let photo = try Fixtures.photo(width: 300, height: 200, seed: index)
      try box.image("Group\(index % 2)/Sub/Photo\(index).jpg", photo)
    }
    expectExit(try await box.build(), 0)
    let expected = FolderSnapshot(box.out, skipHidden: true)
    let manifest = try JSONSerialization.jsonObject(with: Data(contentsOf: box.manifest))
    let sets = ((manifest as? [String: Any])?["imageSets"] as? [[String: Any]]) ?? []
    let groups = ((manifest as? [String: Any])?["groups"] as? [String]) ?? []
    #expect(groups.sorted() == ["Group0", "Group0/Sub", "Group1", "Group1/Sub"])
    let pendingFolders = sets.compactMap { $0["folder"] as? String } + groups
    try FileManager.default.removeItem(at: box.manifest)
    for name in [".thumbforge-probe-cache", ".thumbforge-manifest-cache"] {
      try? FileManager.default.removeItem(at: box.out.appendingPathComponent(name))
    }
    try JSONSerialization.data(withJSONObject: pendingFolders.sorted()).write(
      to: box.out.appendingPathComponent(".thumbforge-pending.json"))
    let leftover = box.out.appendingPathComponent(".thumbforge-tmp-2147483600-1-manifest.json")
    try Data("{".utf8).write(to: leftover)

    expectExit(try await box.build(), 0)
    let actual = FolderSnapshot(box.out, skipHidden: true)
    #expect(actual.paths == expected.paths)
    #expect(actual.changedContent(comparedTo: expected) == [])
    #expect(!FileManager.default.fileExists(atPath: leftover.path))
    expectExit(try await box.check(), 0)
  }

  /// Finished (non-temporary) files in the catalog.
  func catalogFileCount(_ catalog: URL) -> Int {
    guard let files = FileManager.default.enumerator(atPath: catalog.path) else { return 0 }
    var count = 0
    while let path = files.nextObject() as? String {
      if !isTemporary(path) && path.contains(".") && !path.hasSuffix(".imageset") { count += 1 }
    }
    return count
  }

  func isTemporary(_ path: String) -> Bool {
    path.split(separator: "/").last?.hasPrefix(".thumbforge-tmp-") == true
  }
}
