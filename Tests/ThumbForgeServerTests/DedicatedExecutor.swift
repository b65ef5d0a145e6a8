import Dispatch

/// Runs a test's tasks on a serial dispatch queue of their own instead of Swift's
/// cooperative pool.
///
/// The full suite keeps the pool's threads (two on a 2-core machine) busy with synchronous
/// renders for many seconds at a time. A test that waits for a background task to reach
/// a point ("the second render is queued") would then wait for the pool, not for the code
/// under test; with this executor its tasks make progress whatever the rest of the suite does.
final class DedicatedExecutor: TaskExecutor, @unchecked Sendable {
  private let queue: DispatchQueue

  init(_ label: String) {
    queue = DispatchQueue(label: "thumbforge.tests." + label)
  }

  func enqueue(_ job: consuming ExecutorJob) {
    let job = UnownedJob(job)
    let executor = asUnownedTaskExecutor()
    queue.async { job.runSynchronously(on: executor) }
  }
}
