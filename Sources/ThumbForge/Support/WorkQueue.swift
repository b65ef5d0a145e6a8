internal import Foundation
import Synchronization

/// Runs work items on `width` threads of its own, at most `width` at a time, so memory stays
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

  /// Each worker thread's stack: glibc's default for a new thread on Linux (8 MB),
  /// stated so that every platform gives the decoders the same room.
  static let stackSize = 8 << 20

  /// Runs `body` on every item, `completed` with each result as it comes.
  ///
  /// Items sorted from the largest down can say where the small ones begin (`smallFrom`, a
  /// position in `items`): each worker then calls `beforeSmall` once, before its first item
  /// from there (a build returns the large items' freed memory to the system there).
  ///
  /// `drained` is called once, by the first worker to find no item left to start: from then
  /// on, fewer items run than there are workers (the last items' tail).
  func run<Item: Sendable, Result: Sendable>(
    _ items: [Item], cancellation: CancellationFlag = CancellationFlag(), smallFrom: Int? = nil,
    body: @escaping @Sendable (Item) -> Result,
    completed: @escaping @Sendable (Int, Result) -> Void = { _, _ in },
    beforeSmall: @escaping @Sendable () -> Void = {},
    drained: @escaping @Sendable () -> Void = {},
    retrySerially retry: (Item, Result) -> Result? = { _, _ in nil }
  ) -> [Result?] {
    let slots = self.slots
    let group = DispatchGroup()
    let results = Mutex<[Result?]>(Array(repeating: nil, count: items.count))
    let next = Atomic<Int>(0)
    let isDrained = Atomic<Bool>(false)
    // One thread per slot, each taking the next item while items are left, so that
    // `slots.count` items run at once whatever the core count. (Dispatch's concurrent
    // queues run one item per core and start more only when their monitor sees threads
    // blocked, much later; a serial queue per item was slower at two jobs on
    // SnowSeeker.)
    for _ in 0..<min(slots.count, items.count) {
      group.enter()
      let worker = Thread {
        defer { group.leave() }
        var reachedSmall = false
        while true {
          slots.take()
          let index = next.add(1, ordering: .relaxed).oldValue
          guard index < items.count, !cancellation.isCancelled else {
            slots.give()
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
          slots.give()
        }
      }
      worker.stackSize = Self.stackSize
      worker.start()
    }
    group.wait()
    var finished = results.withLock { $0 }
    for (index, result) in finished.enumerated() {
      if let result, let again = retry(items[index], result) { finished[index] = again }
    }
    return finished
  }
}
