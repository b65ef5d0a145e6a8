import Foundation
import Synchronization
import ThumbForge

/// Shows progress: a live bar with counts, rate and ETA on a terminal; plain lines at most
/// every few seconds otherwise (CI logs). Problems always go to stderr, one line each;
/// warnings too with `--verbose` (otherwise the run ends with a summary of them).
final class ProgressDisplay: Sendable {
  private struct State {
    var total = 0
    var started = Date()
    var lastLine = Date.distantPast
    var drewBar = false
  }

  private let state = Mutex(State())
  private let quiet: Bool
  private let verbose: Bool
  private let isTerminal = isatty(STDERR_FILENO) == 1

  init(quiet: Bool, verbose: Bool) {
    self.quiet = quiet
    self.verbose = verbose
  }

  @Sendable func handle(_ event: BuildEvent) {
    switch event {
    case .problem(let problem):
      clearBar()
      ReportPrinter.problem(problem)
    case .warning(let warning):
      if verbose { clearBar(); ReportPrinter.warning(warning) }
    case .note(let note):
      if verbose { clearBar(); write("note: \(note)\n") }
    case .phase:
      break
    case .started(let jobs, let outputs):
      state.withLock {
        $0.total = jobs
        $0.started = Date()
      }
      if !quiet && jobs > 0 {
        write("rendering \(counted(outputs, "output")) from \(counted(jobs, "source"))\n")
      }
    case .jobFinished(let asset, let done, let total):
      guard !quiet else { return }
      if verbose { clearBar(); write("rendered \(asset)\n") }
      let (elapsed, shouldPrint) = state.withLock { state -> (Double, Bool) in
        let now = Date()
        let due = now.timeIntervalSince(state.lastLine) >= (isTerminal ? 0.1 : 5) || done == total
        if due { state.lastLine = now }
        return (now.timeIntervalSince(state.started), due)
      }
      guard shouldPrint else { return }
      let rate = elapsed > 0 ? Double(done) / elapsed : 0
      let eta = rate > 0 ? Double(total - done) / rate : 0
      let stats =
        "\(done)/\(counted(total, "source"))  \(String(format: "%.1f", rate))/s  ETA \(Int(eta.rounded()))s"
      if isTerminal {
        let width = 30
        let filled = total > 0 ? width * done / total : width
        let bar =
          String(repeating: "█", count: filled) + String(repeating: "░", count: width - filled)
        write("\r\u{1B}[K\(bar) \(stats)")
        state.withLock { $0.drewBar = true }
      } else {
        write("progress: \(stats)\n")
      }
    }
  }

  func finish() { clearBar() }

  private func clearBar() {
    let drew = state.withLock { state -> Bool in
      defer { state.drewBar = false }
      return state.drewBar
    }
    if drew { write("\r\u{1B}[K") }
  }

  private func write(_ text: String) {
    FileHandle.standardError.write(Data(text.utf8))
  }
}
