import Dispatch
import Foundation
import Testing
import ThumbForgeTestSupport
import Vips

/// `VipsImage` is `Sendable`: many threads may load, resize and encode at once, and every
/// result must equal the one a single thread computes.
@Suite struct ConcurrencyTests {
  static let threads = 8
  static let operationsPerThread = 50

  struct Outcome: Equatable {
    var width: Int
    var height: Int
    var bytes: [UInt8]
  }

  /// One load → resize → encode job; the inputs and sizes vary with `index`.
  static func job(_ index: Int, sources: [[UInt8]], shared: VipsImage) throws -> Outcome {
    let formats: [ImageFormat] = [.png, .jpeg, .webp]
    // Alternate between decoding fresh bytes and sharing one decoded image between threads.
    let image = index % 4 == 3 ? shared : try VipsImage.load(bytes: sources[index % sources.count])
    let width = 8 + (index * 7) % 90
    let height = 6 + (index * 5) % 70
    let resized = try image.resize(width: width, height: height)
    let bytes = try resized.encoded(as: formats[index % formats.count])
    return Outcome(width: resized.width, height: resized.height, bytes: bytes)
  }

  @Test func parallelLoadResizeEncodeMatchesSerial() throws {
    let photo = try Fixtures.gradient(width: 120, height: 90, layout: .rgba)
    let sources = [
      try photo.encoded(as: .png),
      try photo.encoded(as: .jpeg),
      try photo.encoded(as: .webp),
    ]
    let shared = try VipsImage.load(bytes: sources[0])
    let total = Self.threads * Self.operationsPerThread

    let serial = try (0..<total).map { try Self.job($0, sources: sources, shared: shared) }

    let results = Results<Outcome>(count: total)
    DispatchQueue.concurrentPerform(iterations: Self.threads) { thread in
      for step in 0..<Self.operationsPerThread {
        let index = thread * Self.operationsPerThread + step
        results.set(index, Result { try Self.job(index, sources: sources, shared: shared) })
      }
    }

    var mismatches: [Int] = []
    for index in 0..<total {
      switch results.get(index) {
      case .success(let outcome)?:
        if outcome != serial[index] { mismatches.append(index) }
      case .failure(let error)?:
        Issue.record("job \(index) failed: \(error)")
      case nil:
        Issue.record("job \(index) never ran")
      }
    }
    #expect(mismatches.isEmpty, "parallel results differ from serial ones at \(mismatches)")
    for index in 0..<total {
      #expect(serial[index].width == 8 + (index * 7) % 90)
      #expect(serial[index].height == 6 + (index * 5) % 70)
    }
  }

  /// libvips' liborc paths stay off: they are what needed a process-wide lock (see
  /// `Vips.isVectorEnabled`).
  @Test func liborcPathsAreOff() {
    #expect(!Vips.isVectorEnabled)
  }

  /// A slow operation — a smart crop that evaluates a huge enlarged image while it is being
  /// built, which used to run inside the process-wide lock — does not hold up trivial jobs
  /// on another thread: while it runs, whole trivial jobs start and finish.
  ///
  /// No time window decides it. Each trivial job is counted when it both started and
  /// finished inside the slow operation's call; under a process-wide lock only a job that
  /// slipped in before the slow one took the lock could be, so at least three are asked
  /// for. Both run on threads of their own, not on Dispatch's workers, which the rest of
  /// the suite may keep busy.
  @Test func slowOperationDoesNotHoldUpOthers() throws {
    let tiny = try Fixtures.gradient(width: 4, height: 3)
    let huge = try tiny.resize(scale: 800)  // 3 200 × 2 400, computed on demand
    let small = try Fixtures.gradient(width: 40, height: 30).encoded(as: .png)
    let inSlow = Flag()
    let slowDone = Flag()
    let slowFinished = DispatchSemaphore(value: 0)
    let trivialFinished = DispatchSemaphore(value: 0)
    let inside = Counter()
    Thread {
      inSlow.set()
      _ = try? huge.smartCrop(width: 300, height: 300, interesting: .attention)
      slowDone.set()
      slowFinished.signal()
    }.start()
    Thread {
      while !slowDone.isSet {
        let startedInside = inSlow.isSet
        _ = try? VipsImage.load(bytes: small).resize(width: 20, height: 15).encoded(as: .png)
        if startedInside && !slowDone.isSet { inside.increment() }
      }
      trivialFinished.signal()
    }.start()
    #expect(slowFinished.wait(timeout: .now() + 300) == .success)
    #expect(trivialFinished.wait(timeout: .now() + 60) == .success)
    #expect(inside.value >= 3, "trivial jobs finished during the smart crop: \(inside.value)")
  }

  @Test func sharedImageCanBeReadFromManyThreads() throws {
    let image = try Fixtures.gradient(width: 64, height: 64)
    let expected = try image.pixelBytes()
    let failures = Counter()
    DispatchQueue.concurrentPerform(iterations: Self.threads) { _ in
      for _ in 0..<10 {
        if (try? image.pixelBytes()) != expected { failures.increment() }
      }
    }
    #expect(failures.value == 0)
  }
}
