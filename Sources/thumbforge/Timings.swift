import Foundation
import Synchronization
import ThumbForge

/// `--timings`: how long each stage of a run took, the CPU time the process spent in it and
/// the cores it kept busy, printed to stderr after the summary. The time before `main`
/// (loading the libraries) and the process's exit are outside it: `Scripts/bench/phases.py`
/// measures those from outside.
final class Timings: Sendable {
  /// Read first thing in `main`: the start of the first stage.
  static let mainEntered = PhaseClock.Reading.now()

  private let phases: Mutex<[PhaseTime]>

  /// Starts with the stage from `start` to now (the command line and the configuration,
  /// before the run), when given.
  init(setupSince start: PhaseClock.Reading?) {
    var setup: [PhaseTime] = []
    if let start {
      var clock = PhaseClock(since: start)
      setup.append(clock.lap("arguments and configuration"))
    }
    phases = Mutex(setup)
  }

  /// A run's event handler: `next`, after `timings` (if any) recorded the stages.
  static func events(
    recordedBy timings: Timings?, then next: @escaping @Sendable (BuildEvent) -> Void = { _ in }
  ) -> @Sendable (BuildEvent) -> Void {
    guard let timings else { return next }
    return { event in
      if case .phase(let phase) = event { timings.phases.withLock { $0.append(phase) } }
      next(event)
    }
  }

  /// Writes ``table()`` to stderr.
  func print() {
    FileHandle.standardError.write(Data((table() + "\n").utf8))
  }

  /// The table: one line per stage and a total.
  func table() -> String {
    let phases = phases.withLock { $0 }
    let total = PhaseTime(
      name: "total", wall: phases.reduce(0) { $0 + $1.wall }, cpu: phases.reduce(0) { $0 + $1.cpu })
    let width = (phases + [total]).map(\.name.count).max() ?? 0
    func right(_ text: String, _ width: Int) -> String {
      String(repeating: " ", count: max(0, width - text.count)) + text
    }
    func line(_ phase: PhaseTime) -> String {
      let name = phase.name.padding(toLength: width, withPad: " ", startingAt: 0)
      let cores = phase.wall > 0 ? phase.cpu / phase.wall : 0
      return "  \(name)  "
        + String(format: "%9.1f %9.1f %6.2f", phase.wall * 1000, phase.cpu * 1000, cores)
    }
    let header =
      "timings:".padding(toLength: width + 4, withPad: " ", startingAt: 0)
      + right("wall ms", 9) + " " + right("CPU ms", 9) + " " + right("cores", 6)
    return ([header] + phases.map(line) + [line(total)]).joined(separator: "\n")
  }
}
