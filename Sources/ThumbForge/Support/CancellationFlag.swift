import Synchronization

/// A flag that stops a ``WorkQueue`` from starting new work (Ctrl-C, SIGTERM).
public final class CancellationFlag: Sendable {
  private let flag = Atomic<Bool>(false)
  public init() {}
  public func cancel() { flag.store(true, ordering: .relaxed) }
  public var isCancelled: Bool { flag.load(ordering: .relaxed) }
}
