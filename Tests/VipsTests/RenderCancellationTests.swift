import Dispatch
import Foundation
import Testing
import ThumbForgeTestSupport
import Vips

/// A render cancelled from another thread stops inside libvips (its loaded images' kill
/// flag) or between the resampler's strips, instead of running to the end.
@Suite struct RenderCancellationTests {
  /// Resizes while decoding a 6000×4500 image computed on demand (an enlargement, long work
  /// strip by strip): cancelled from another thread, it stops at the next strip.
  @Test func cancellingStopsAResizeUnderWay() throws {
    let png = try Fixtures.gradient(width: 4, height: 3).encoded(as: .png)
    let cancellation = RenderCancellation()
    let started = DispatchSemaphore(value: 0)
    // A thread of its own, not a worker of Dispatch's global queue: while the rest of the
    // suite runs in parallel, that queue's few workers may all be busy for longer than the
    // resize takes, and the cancel would come after the end.
    Thread {
      started.wait()
      Thread.sleep(forTimeInterval: 0.1)
      cancellation.cancel()
    }.start()
    let outcome = cancellation.run { () -> Result<Int, any Error> in
      Result {
        let huge = try VipsImage.load(bytes: png).resize(scale: 1500)
        started.signal()
        let made = try huge.resizedInOnePass(
          [ResizeRequest(width: 600, height: 450)], alsoHalve: false)
        return made.images.count
      }
    }
    guard case .failure(let error) = outcome else {
      Issue.record("the resize ran to the end")
      return
    }
    #expect("\(error)".contains("cancelled"), "\(error)")
  }

  /// Once cancelled, the next operation of the work fails at once.
  @Test func cancelledWorkRunsNoMoreOperations() throws {
    let png = try Fixtures.gradient(width: 40, height: 30).encoded(as: .png)
    let cancellation = RenderCancellation()
    cancellation.cancel()
    #expect(throws: VipsError.self) {
      try cancellation.run { () throws(VipsError) in _ = try VipsImage.load(bytes: png) }
    }
    // Outside the cancelled work, the same load works.
    #expect(try VipsImage.load(bytes: png).width == 40)
  }
}
