internal import Foundation

/// Runs `work` on a thread of its own and waits for it without holding one of the shared
/// threads Swift Testing runs tests on: for blocking calls, such as waiting for a child
/// process, which would otherwise keep other tests from starting.
package func offPool<T: Sendable>(_ work: @escaping @Sendable () throws -> T) async throws -> T {
  try await withCheckedThrowingContinuation { continuation in
    Thread.detachNewThread { continuation.resume(with: Result { try work() }) }
  }
}
