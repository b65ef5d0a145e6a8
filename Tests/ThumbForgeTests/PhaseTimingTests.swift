import Foundation
import Synchronization
import Testing
import Vips

@testable import ThumbForge

/// The stage timings a run reports for `--timings` (``BuildEvent/phase(_:)``).
@Suite("Stage timings")
struct PhaseTimingTests {
  @Test("a clock's laps cover the time from its start to the last lap, without gaps")
  func lapsAddUp() {
    // Readings given, not taken: the laps are exact differences, with no clock involved.
    let start = PhaseClock.Reading(wall: 100, cpu: 7)
    var clock = PhaseClock(since: start)
    let ends = [(100.25, 7.5), (101.0, 7.5), (103.5, 9.0)]
    let laps = zip(["a", "b", "c"], ends).map { name, end in
      clock.lap(name, at: PhaseClock.Reading(wall: end.0, cpu: end.1))
    }
    #expect(laps.map(\.name) == ["a", "b", "c"])
    #expect(laps.map(\.wall) == [0.25, 0.75, 2.5])
    #expect(laps.map(\.cpu) == [0.5, 0, 1.5])
    #expect(laps.reduce(0) { $0 + $1.wall } == 103.5 - start.wall)
  }

  @Test("a build reports its stages in order, within the time the run took")
  func buildReportsItsStages() throws {
    let harness = try RenderHarness(config: "scales: [1, 2]\nmaster-scale: 2\n")
    defer { harness.remove() }
    for name in ["Alpha", "Beta", "Gamma"] {
      try harness.add(
        try VipsImage.solid(width: 64, height: 32, color: [20, 200, 20]), as: "Icons/\(name).png",
        format: .png)
    }
    var options = BuildOptions(folder: harness.folder)
    for mode in [BuildMode.build, .check] {
      options.mode = mode
      let phases = Mutex<[PhaseTime]>([])
      let before = PhaseClock.Reading.now()
      _ = try BuildEngine(options: options).run { event in
        if case .phase(let phase) = event { phases.withLock { $0.append(phase) } }
      }
      let elapsed = PhaseClock.Reading.now().wall - before.wall
      let seen = phases.withLock { $0 }
      let expected =
        mode == .check
        ? ["previous state", "discovery", "decisions", "comparison"]
        : [
          "previous state", "discovery", "decisions", "rendering", "rendering, last jobs", "commit",
        ]
      #expect(seen.map(\.name) == expected)
      #expect(seen.allSatisfy { $0.wall >= 0 && $0.cpu >= 0 })
      #expect(seen.reduce(0) { $0 + $1.wall } <= elapsed)
    }
  }
}
