internal import Foundation
import Synchronization

/// Runs work items on Dispatch queues, at most `width` at a time, so memory stays
/// bounded whatever the number of items. Items already started always finish; items not yet
/// started are skipped after cancellation (their result is nil).
///
/// Failed items can be retried one at a time after the parallel pass (`retrySerially`):
/// libvips' error buffer is shared by every thread, so two files failing at the same moment
/// can swap or lose their messages; run alone, each fails for its own reason.
struct WorkQueue: Sendable {
  /// One slot per item running; shared with the items when they borrow idle cores.
  let slots: CoreSlots

  init(width: Int) {
    slots = CoreSlots(width)
  }

  init(slots: CoreSlots) {
    self.slots = slots
  }

  func run<Item: Sendable, Result: Sendable>(
    _ items: [Item], cancellation: CancellationFlag = CancellationFlag(),
    body: @escaping @Sendable (Item) -> Result,
    completed: @escaping @Sendable (Int, Result) -> Void = { _, _ in },
    retrySerially retry: (Item, Result) -> Result? = { _, _ in nil }
  ) -> [Result?] {
    let slots = self.slots
    let group = DispatchGroup()
    let results = Mutex<[Result?]>(Array(repeating: nil, count: items.count))
    for (index, item) in items.enumerated() {
      slots.take()
      if cancellation.isCancelled {
        slots.give()
        break
      }
      // Each item on its own serial queue, which libdispatch gives a thread at once: a
      // concurrent queue runs at most one item per core however many slots there are, and
      // starts more only when its monitor sees the threads blocked (about a second).
      DispatchQueue(label: "thumbforge.work").async(group: group) {
        let result = body(item)
        results.withLock { $0[index] = result }
        completed(index, result)
        slots.give()
      }
    }
    group.wait()
    var finished = results.withLock { $0 }
    for (index, result) in finished.enumerated() {
      if let result, let again = retry(items[index], result) { finished[index] = again }
    }
    return finished
  }
}
