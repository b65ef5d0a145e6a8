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

  @Test(
    "drained runs once, when the first worker finds no item left, while the others finish theirs",
    arguments: [1, 2, 3])
  func drainedRunsOnceWhenTheQueueRunsDry(width: Int) {
    let started = Atomic<Int>(0)
    let finished = Atomic<Int>(0)
    // At the call: items started, items finished.
    let calls = Mutex<[(Int, Int)]>([])
    let items = Array(0..<7)
    let results = WorkQueue(width: width).run(items) { item in
      started.add(1, ordering: .relaxed)
      // The last item takes longest, so that the others' workers run dry before it ends.
      Thread.sleep(forTimeInterval: item == 6 ? 0.05 : 0.002)
      finished.add(1, ordering: .relaxed)
      return item
    } drained: {
      let now = (started.load(ordering: .relaxed), finished.load(ordering: .relaxed))
      calls.withLock { $0.append(now) }
    }
    #expect(results == items)
    let seen = calls.withLock { $0 }
    #expect(seen.count == 1, "\(seen)")
    // Every item had started; with more than one worker, the long last one was still running.
    #expect(seen.first?.0 == items.count)
    if width > 1 { #expect((seen.first?.1 ?? items.count) < items.count, "\(seen)") }
  }
}
