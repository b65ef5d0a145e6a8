import Synchronization

/// A flag that stops a ``WorkQueue`` from starting new work (Ctrl-C, SIGTERM).
package final class CancellationFlag: Sendable {
  private let flag = Atomic<Bool>(false)
  package init() {}
  package func cancel() { flag.store(true, ordering: .relaxed) }
  package var isCancelled: Bool { flag.load(ordering: .relaxed) }
}
