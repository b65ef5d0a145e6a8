internal import Foundation
internal import Synchronization

/// One piece of work started on another thread at once; ``value()`` waits for its result.
final class BackgroundTask<Value: Sendable, Failure: Error>: Sendable {
  private let result = Mutex<Result<Value, Failure>?>(nil)
  private let finished = DispatchGroup()

  init(_ body: @escaping @Sendable () throws(Failure) -> Value) {
    finished.enter()
    DispatchQueue.global().async {
      let outcome = Result(catching: body)
      self.result.withLock { $0 = outcome }
      self.finished.leave()
    }
  }

  /// The work's result (or error), waiting for it if need be; may be asked for many times.
  func value() throws(Failure) -> Value {
    finished.wait()
    return try result.withLock { $0! }.get()
  }
}
