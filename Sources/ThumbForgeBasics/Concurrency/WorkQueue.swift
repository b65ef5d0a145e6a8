internal import Foundation
import Synchronization

/// Runs work items on `width` workers, at most `width` at a time, so memory stays bounded
/// whatever the number of items. Items already started always finish; items not yet started
/// are skipped after cancellation (their result is nil).
///
/// Each worker is a serial Dispatch queue taking the next item while items are left: a serial
/// queue gets a thread at once, so `width` items run together even above the core count
/// (`--jobs`), where Dispatch's concurrent queues start one item per core and add threads only
/// when they see them blocked.
///
/// Failed items can be retried one at a time after the parallel pass (`retrySerially`):
/// libvips' error buffer is shared by every thread, so two files failing at the same moment
/// can swap or lose their messages; run alone, each fails for its own reason.
package struct WorkQueue: Sendable {
  /// The number of items run at once.
  let width: Int

  package init(width: Int) {
    self.width = max(1, width)
  }

  /// Runs `body` on every item, `completed` with each result as it comes.
  ///
  /// Items sorted from the largest down can say where the small ones begin (`smallFrom`, a
  /// position in `items`): each worker then calls `beforeSmall` once, before its first item
  /// from there (a build returns the large items' freed memory to the system there).
  ///
  /// `drained` is called once, by the first worker to find no item left to start: from then
  /// on, fewer items run than there are workers (the last items' tail).
  package func run<Item: Sendable, Result: Sendable>(
    _ items: [Item], cancellation: CancellationFlag = CancellationFlag(), smallFrom: Int? = nil,
    body: @escaping @Sendable (Item) -> Result,
    completed: @escaping @Sendable (Int, Result) -> Void = { _, _ in },
    beforeSmall: @escaping @Sendable () -> Void = {},
    drained: @escaping @Sendable () -> Void = {},
    retrySerially retry: (Item, Result) -> Result? = { _, _ in nil }
  ) -> [Result?] {
    let group = DispatchGroup()
    let results = Mutex<[Result?]>(Array(repeating: nil, count: items.count))
    let next = Atomic<Int>(0)
    let isDrained = Atomic<Bool>(false)
    for worker in 0..<min(width, items.count) {
      DispatchQueue(label: "thumbforge.worker.\(worker)").async(group: group) {
        var reachedSmall = false
        while true {
          let index = next.add(1, ordering: .relaxed).oldValue
          guard index < items.count, !cancellation.isCancelled else {
            if !isDrained.exchange(true, ordering: .relaxed) { drained() }
            return
          }
          if let smallFrom, index >= smallFrom, !reachedSmall {
            reachedSmall = true
            beforeSmall()
          }
          let result = body(items[index])
          results.withLock { $0[index] = result }
          completed(index, result)
        }
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
