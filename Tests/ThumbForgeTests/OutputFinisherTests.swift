import Foundation
import Synchronization
import Testing
import ThumbForgeTestSupport
import Vips

@testable import ThumbForge

/// A job's outputs finished on idle cores: in parallel, with the same bytes.
@Suite("Output finisher")
struct OutputFinisherTests {
  static func file(_ index: Int) -> RenderedFile {
    let size = PixelSize(width: 2, height: 2)
    let output = PlannedOutput(
      slot: Slot(scale: 1), pixelSize: size, resizeTo: size, crop: nil, master: "M.png",
      mode: .render, format: .png, fileName: "\(index).png", path: "out/\(index).png",
      upscale: nil)
    return RenderedFile(output: output, bytes: [UInt8(index)], hash: "\(index)")
  }

  @Test("a slot is borrowed only when one is free")
  func borrowOnlyWhenFree() {
    let slots = CoreSlots(2)
    slots.take()
    #expect(slots.borrow())
    #expect(!slots.borrow())
    slots.give()
    #expect(slots.borrow())
    let borrowed = slots.borrowed.load(ordering: .relaxed)
    #expect(borrowed == 2)
  }

  /// `concurrency` or `--jobs` above the core count: every job starts at once. On one
  /// concurrent Dispatch queue only one per core started, the rest when libdispatch saw the
  /// threads blocked, much later each (a build at four jobs on two cores took far longer).
  @Test("more jobs than cores all run at once")
  func moreJobsThanCoresStartAtOnce() {
    // Deterministic, without a time window: every job waits until all of them are running,
    // which only `width` threads at once allow. (How soon they start is the benchmarks'.)
    let width = ProcessInfo.processInfo.activeProcessorCount * 2 + 2
    let running = Atomic<Int>(0)
    let allRunning = DispatchSemaphore(value: 0)
    let results = WorkQueue(width: width).run(Array(0..<width)) { item in
      if running.add(1, ordering: .relaxed).newValue == width {
        for _ in 0..<width { allRunning.signal() }
      }
      return allRunning.wait(timeout: .now() + 60) == .success
    }
    #expect(results.compactMap { $0 }.allSatisfy { $0 }, "not every job was running at once")
  }

  /// A borrowed core while every worker of Dispatch's global queues is busy (more jobs
  /// than cores): it starts while they all still are, on a queue of its own, instead of
  /// waiting for one of them to finish. The blockers hold until it has run (or a minute has
  /// passed, which fails the test), so no time window decides it. (How soon it starts —
  /// at once, not when libdispatch adds a worker about a second later — is a benchmark's:
  /// a late start is idle core time in Scripts/bench/phases.py.)
  @Test("a borrowed core starts while the global queues are busy, without waiting for them")
  func borrowedCoreStartsWithBusyWorkers() throws {
    let busy = ProcessInfo.processInfo.activeProcessorCount * 2 + 2
    let gate = DispatchSemaphore(value: 0)
    let blockers = DispatchGroup()
    for _ in 0..<busy {
      DispatchQueue.global().async(group: blockers) { _ = gate.wait(timeout: .now() + 120) }
    }
    defer {
      for _ in 0..<busy { gate.signal() }
      blockers.wait()
    }
    let slots = CoreSlots(2)
    slots.take()  // the job's own slot
    let image = try VipsImage.solid(width: 2, height: 2, color: [1, 2, 3])
    let finished = DispatchSemaphore(value: 0)
    let finisher = OutputFinisher(slots: slots) { index, _, _ throws(VipsError) in
      finished.signal()
      return Self.file(index)
    }
    try finisher.submit([0], image)
    #expect(slots.borrowed.load(ordering: .relaxed) == 1)
    #expect(
      finished.wait(timeout: .now() + 60) == .success,
      "the borrowed core did not start while the global queues were busy")
    for _ in 0..<busy { gate.signal() }
    _ = try finisher.files(count: 1)
  }

  /// Output 0 waits until output 1 has started: only a second thread can let it finish.
  @Test("an output is finished on a borrowed core while the job goes on")
  func finishesInParallel() throws {
    let slots = CoreSlots(2)
    slots.take()  // the job's own slot
    let secondStarted = DispatchSemaphore(value: 0)
    let sawSecond = Atomic<Bool>(false)
    let image = try VipsImage.solid(width: 2, height: 2, color: [1, 2, 3])
    let finisher = OutputFinisher(slots: slots) { index, _, _ throws(VipsError) in
      if index == 0 {
        sawSecond.store(secondStarted.wait(timeout: .now() + 20) == .success, ordering: .relaxed)
      } else {
        secondStarted.signal()
      }
      return Self.file(index)
    }
    try finisher.submit([0], image)
    try finisher.submit([1], image)
    let files = try finisher.files(count: 2)
    let saw = sawSecond.load(ordering: .relaxed)
    #expect(saw, "output 0 never saw output 1 start")
    #expect(files.map(\.bytes) == [[0], [1]])
    // Both slots are back: the borrowed one was given back.
    #expect(slots.borrow() && !slots.borrow())
  }

  /// What a borrowed core finishes is linked to nothing the job goes on using (libvips
  /// 8.14 may crash when two threads compute pipelines linked to one image).
  @Test("a borrowed core gets pixels linked to nothing the job holds")
  func borrowedCoreGetsDetachedPixels() throws {
    let slots = CoreSlots(2)
    slots.take()  // the job's own slot
    let master = try VipsImage.solid(width: 40, height: 30, color: [10, 20, 30]).copiedToMemory()
    let resized = try master.resize(width: 20, height: 15, kernel: .nearest)
    #expect(resized.isLinked(below: master))
    let linked = Mutex<[Bool]>([])
    let finisher = OutputFinisher(slots: slots) { index, image, _ throws(VipsError) in
      let below = image.isLinked(below: master)
      linked.withLock { $0.append(below) }
      #expect(try image.pixelBytes() == resized.pixelBytes())
      return Self.file(index)
    }
    try finisher.submit([0], resized)
    _ = try finisher.files(count: 1)
    #expect(slots.borrowed.load(ordering: .relaxed) == 1)
    #expect(linked.withLock { $0 } == [false])
  }

  @Test("a failure on a borrowed core is thrown, the first output's by index")
  func failureOnBorrowedCore() throws {
    let slots = CoreSlots(4)
    let image = try VipsImage.solid(width: 2, height: 2, color: [1, 2, 3])
    let finisher = OutputFinisher(slots: slots) { index, _, _ throws(VipsError) in
      if index >= 1 { throw VipsError(context: "out/\(index)", message: "broken \(index)") }
      return Self.file(index)
    }
    try finisher.submit([2, 3], image)
    try finisher.submit([0, 1], image)
    let borrowed = slots.borrowed.load(ordering: .relaxed)
    #expect(borrowed == 2)
    #expect {
      try finisher.files(count: 4)
    } throws: { ($0 as? VipsError)?.message == "broken 1" }
  }

  /// Opaque and alpha masters with many outputs each: finished with idle cores to borrow,
  /// the files are the bytes of a job finished on its own thread.
  @Test("with idle cores a job's files are the same bytes as on one thread")
  func sameBytes() throws {
    let harness = try RenderHarness(
      config: """
        rules:
          - match: "**"
            recipes: [variants, small, thumb, flag]
        recipes:
          small: { kind: fit, size: [60, 60], scales: [1, 2, 3], format: png }
          thumb: { kind: fill, size: [120, 90], scales: [1, 2, 3], format: jpeg }
          flag: { kind: flag, size: [40, 25], scales: [2, 3], format: png }
        """)
    defer { harness.remove() }
    try harness.add(
      Fixtures.photo(width: 1200, height: 900, seed: 3), as: "Photo.jpg", format: .jpeg)
    try harness.add(Fixtures.icon(width: 800, height: 800, seed: 5), as: "Icon.png", format: .png)
    let plan = try BuildEngine(options: BuildOptions(folder: harness.folder)).plan()
    let slots = CoreSlots(4)
    slots.take()
    let alone = Renderer(folder: harness.folder)
    let parallel = Renderer(folder: harness.folder, spareCores: slots)
    #expect(plan.jobs.count == 2)
    for job in plan.jobs {
      let work = job.imageSets.flatMap { set in set.outputs.map { (set.recipe, $0) } }
      #expect(work.count >= 6)
      let one = alone.render(work, masters: job.source.allMasters)
      let many = parallel.render(work, masters: job.source.allMasters)
      #expect(one.problems.isEmpty && many.problems.isEmpty)
      #expect(one.files.map(\.output.path) == many.files.map(\.output.path))
      #expect(one.files.map(\.bytes) == many.files.map(\.bytes))
    }
    let borrowed = slots.borrowed.load(ordering: .relaxed)
    #expect(borrowed > 0)
  }
}
