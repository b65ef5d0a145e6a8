import Foundation
import Synchronization
import Testing

@testable import ThumbForge

/// The work queue's hook where the small items begin: what a build uses to give the large
/// jobs' freed memory back before the small ones (issue 26).
@Suite("Work queue")
struct WorkQueueTests {
  /// One entry per call or item, in the order they happened on each thread.
  struct Event: Sendable, Equatable {
    var thread: ObjectIdentifier
    var item: Int?  // nil: beforeSmall
  }

  @Test(
    "each worker calls beforeSmall once, before its first small item, and never if it runs none",
    arguments: [1, 2, 3])
  func beforeSmallRunsOncePerWorkerBeforeItsFirstSmallItem(width: Int) {
    let events = Mutex<[Event]>([])
    let items = Array(0..<12)
    let results = WorkQueue(width: width).run(items, smallFrom: 8) { item in
      events.withLock { $0.append(Event(thread: ObjectIdentifier(Thread.current), item: item)) }
      Thread.sleep(forTimeInterval: 0.002)  // lets every worker take items
      return item * 2
    } beforeSmall: {
      events.withLock { $0.append(Event(thread: ObjectIdentifier(Thread.current), item: nil)) }
    }
    #expect(results == items.map { $0 * 2 })
    let all = events.withLock { $0 }
    for thread in Set(all.map(\.thread)) {
      let mine = all.filter { $0.thread == thread }
      let calls = mine.indices.filter { mine[$0].item == nil }
      let firstSmall = mine.firstIndex { ($0.item ?? -1) >= 8 }
      if let firstSmall {
        #expect(calls == [firstSmall - 1], "a worker's events: \(mine.map(\.item))")
      } else {
        #expect(calls.isEmpty, "a worker without small items called it: \(mine.map(\.item))")
      }
    }
    #expect(all.filter { $0.item == nil }.count <= width)
  }

  @Test("without smallFrom, or when no item is small, beforeSmall never runs")
  func beforeSmallNeverRunsWithoutSmallItems() {
    let calls = Atomic<Int>(0)
    for smallFrom in [nil, 4] as [Int?] {
      let results = WorkQueue(width: 2).run(Array(0..<4), smallFrom: smallFrom) {
        $0
      } beforeSmall: {
        calls.add(1, ordering: .relaxed)
      }
      #expect(results == [0, 1, 2, 3])
    }
    #expect(calls.load(ordering: .relaxed) == 0)
  }
}
