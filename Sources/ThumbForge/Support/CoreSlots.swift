internal import Foundation
internal import Synchronization

/// The cores a build may keep busy, as slots: the work queue takes one for each job it
/// runs, and a running job may borrow a free one for a moment — to encode its outputs on a
/// second core — but only when no job is waiting to start (a waiting job is woken first).
///
/// So a folder's last, largest masters still use every core once the queue is empty, and
/// never more work runs at once than there are slots: the memory bound of a job (*Limits and
/// memory* in the README) counts all of its outputs alive at once already.
final class CoreSlots: Sendable {
  private let semaphore: DispatchSemaphore
  /// The number of slots.
  let count: Int
  /// Slots taken or borrowed and not given back.
  private let inUse = Atomic<Int>(0)
  /// Slots borrowed so far (read by the tests, to see that jobs did borrow).
  let borrowed = Atomic<Int>(0)

  init(_ count: Int) {
    self.count = max(1, count)
    semaphore = DispatchSemaphore(value: self.count)
  }

  /// Waits for a free slot.
  func take() {
    semaphore.wait()
    inUse.add(1, ordering: .relaxed)
  }

  /// A free slot if one is free now and nobody waits for it; false otherwise.
  func borrow() -> Bool {
    guard semaphore.wait(timeout: .now()) == .success else { return false }
    inUse.add(1, ordering: .relaxed)
    borrowed.add(1, ordering: .relaxed)
    return true
  }

  /// Gives back a slot taken or borrowed.
  func give() {
    inUse.subtract(1, ordering: .relaxed)
    semaphore.signal()
  }

  deinit {
    // libdispatch stops the process when a semaphore goes below its start value and is
    // freed (a caller that stopped early, a test): give every slot back first.
    for _ in 0..<max(0, inUse.load(ordering: .relaxed)) { semaphore.signal() }
  }
}
