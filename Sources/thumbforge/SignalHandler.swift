import Dispatch
import Foundation
import ThumbForge
internal import ThumbForgeBasics

/// Turns Ctrl-C and SIGTERM into a cancellation: jobs in flight finish and are recorded,
/// nothing new starts, the manifest is written. A second Ctrl-C exits at once (atomic
/// writes still leave no torn file).
final class SignalHandler {
  private let sources: [any DispatchSourceSignal]

  init(
    cancellation: CancellationFlag,
    message: String = "stopping: finishing files in progress…"
  ) {
    var sources: [any DispatchSourceSignal] = []
    for number in [SIGINT, SIGTERM] {
      signal(number, SIG_IGN)
      let source = DispatchSource.makeSignalSource(signal: number, queue: .global())
      source.setEventHandler {
        if cancellation.isCancelled { Foundation.exit(130) }
        FileHandle.standardError.write(Data("\n\(message)\n".utf8))
        cancellation.cancel()
      }
      source.resume()
      sources.append(source)
    }
    self.sources = sources
  }

  func restore() {
    for source in sources { source.cancel() }
    signal(SIGINT, SIG_DFL)
    signal(SIGTERM, SIG_DFL)
  }
}
