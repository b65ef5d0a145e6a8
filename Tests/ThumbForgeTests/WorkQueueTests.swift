import Foundation
import Synchronization
import Testing

@testable import ThumbForge
@testable import ThumbForgeBasics

/// The work queue's hook where the small items begin: what a build uses to give the large
/// jobs' freed memory back before the small ones.
@Suite("Work queue")
struct WorkQueueTests {
  /// One entry per call or item, in the order they happened on each thread.
  struct Event: Sendable, Equatable {
    var thread: ObjectIdentifier
    var item: Int?  // nil: beforeSmall
  }

  @Test(
    "each worker calls beforeSmall once, before its first small item, and never if it runs none; width items at once, above the core count too",
    arguments: [1, 2, 3, 9])
  func beforeSmallRunsOncePerWorkerBeforeItsFirstSmallItem(width: Int) {
    let events = Mutex<[Event]>([])
    let items = Array(0..<12)
    // The first `width` items wait for one another, so every worker takes one: a barrier,
    // not a sleep.
    let arrived = Atomic<Int>(0)
    let barrier = DispatchSemaphore(value: 0)
    let results = WorkQueue(width: width).run(items, smallFrom: 8) { item in
      events.withLock { $0.append(Event(thread: ObjectIdentifier(Thread.current), item: item)) }
      if item < width {
        if arrived.add(1, ordering: .relaxed).newValue == width {
          for _ in 0..<width { barrier.signal() }
        }
        #expect(barrier.wait(timeout: .now() + 60) == .success, "a worker never took an item")
      }
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
    let last = items.count - 1
    // With more than one worker, the last item runs until `drained` has been called, and
    // `drained` waits until the last item has started: an order made by semaphores, not by
    // sleeps. (With one worker, `drained` can only come after every item.)
    let lastStarted = DispatchSemaphore(value: 0)
    let drainedCalled = DispatchSemaphore(value: 0)
    let results = WorkQueue(width: width).run(items) { item in
      started.add(1, ordering: .relaxed)
      if item == last, width > 1 {
        lastStarted.signal()
        #expect(drainedCalled.wait(timeout: .now() + 60) == .success, "drained never ran")
      }
      finished.add(1, ordering: .relaxed)
      return item
    } drained: {
      if width > 1 { _ = lastStarted.wait(timeout: .now() + 60) }
      let now = (started.load(ordering: .relaxed), finished.load(ordering: .relaxed))
      calls.withLock { $0.append(now) }
      drainedCalled.signal()
    }
    #expect(results == items)
    let seen = calls.withLock { $0 }
    #expect(seen.count == 1, "\(seen)")
    // Every item had started; with more than one worker, the last one was still running
    // (and at most the other workers' items with it).
    #expect(seen.first?.0 == items.count)
    let finishedAtCall = seen.first?.1 ?? -1
    if width > 1 {
      #expect(finishedAtCall < items.count && finishedAtCall >= items.count - width, "\(seen)")
    } else {
      #expect(finishedAtCall == items.count, "\(seen)")
    }
  }
}
