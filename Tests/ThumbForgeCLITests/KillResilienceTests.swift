import Foundation
import Testing
import Vips

/// A build SIGKILLed at random moments, then run to completion, ends byte-identical to an
/// uninterrupted build, with no torn file at any point and no temporary file left.
@Suite("Kill resilience")
struct KillResilienceTests {
  static let sourceCount = 150

  @Test("SIGKILL mid-build three times, then a full run: identical to an uninterrupted build")
  func killAndResume() async throws {
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

    // The uninterrupted reference, in another folder.
    let reference = box.root.appendingPathComponent("reference/Assets.xcassets")
    print("KillResilienceTests: \(Self.sourceCount) sources made in \(clock.now - generation)")
    let started = clock.now
    let full = try await box.build(["--jobs", "2", "--output", reference.path])
    let elapsed = clock.now - started
    expectExit(full, 0)
    let expected = FolderSnapshot(reference.deletingLastPathComponent(), skipHidden: true)
    #expect(expected.paths.count == Self.sourceCount * 6 + 6 + 1)

    // Kill moments spread over the run, whatever speed this machine has today: round k
    // kills at a random moment in the k-th third of the first 80 % of a build.
    let total =
      Int(elapsed.components.seconds * 1000)
      + Int(elapsed.components.attoseconds / 1_000_000_000_000_000)
    let span = max(600, min(4000, total * 8 / 10))
    var killedMidRun = 0
    for round in 1...3 {
      let low = 50 + (span - 50) * (round - 1) / 3
      let delay = Int.random(in: low...(50 + (span - 50) * round / 3))
      let running = try RunningCLI(
        arguments: ["build", box.assets.path, "--jobs", "2"], in: box.root)
      try await Task.sleep(for: .milliseconds(delay))
      running.send(SIGKILL)
      let result = await running.wait()
      if result.signalled {
        killedMidRun += 1
      } else {
        expectExit(result, 0)
      }
      // Whatever exists now is a whole file: the new version (equal to the reference).
      let now = FolderSnapshot(box.catalog)
      print(
        "KillResilienceTests: round \(round): SIGKILL after \(delay) ms of a ~\(total) ms build: "
          + (result.signalled ? "killed" : "had already finished")
          + " with \(now.paths.filter { !isTemporary($0) }.count) of \(expected.paths.count - 1) files written"
      )
      for (path, entry) in now.files where !isTemporary(path) {
        #expect(
          entry.bytes == expected.files["Assets.xcassets/" + path]?.bytes, "torn or wrong: \(path)")
      }
    }
    #expect(
      killedMidRun > 0, "no run was killed mid-build; the corpus is too small for this machine")

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

  func isTemporary(_ path: String) -> Bool {
    path.split(separator: "/").last?.hasPrefix(".thumbforge-tmp-") == true
  }
}
