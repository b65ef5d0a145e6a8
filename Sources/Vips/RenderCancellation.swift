internal import Synchronization

#if canImport(Glibc)
  internal import Glibc
#elseif canImport(Darwin)
  internal import Darwin
#endif

/// Stops a render from another thread: once cancelled, the render's next libvips operation
/// and the next strip of rows of ThumbForge's resampler (a decode with resizes) fail with a
/// ``VipsError`` ("cancelled"), so the render unwinds and its memory is released.
///
/// The work runs inside ``run(_:)`` on its own thread. One libvips operation under way (a
/// smart crop's analysis, one encode) runs to its end: libvips 8.14 checks its kill flag
/// only on the image a sink writes, which for those is an internal image no caller can
/// reach, and its progress signals do not reach them either (a 14-second smart crop
/// emitted none). Their size is bounded by the plan's limits (`limit-render-pixels`).
package final class RenderCancellation: Sendable {
  private let cancelled = Atomic<Bool>(false)

  package init() {}

  /// Whether ``cancel()`` was called.
  package var isCancelled: Bool { cancelled.load(ordering: .relaxed) }

  /// Cancels the work (from any thread).
  package func cancel() {
    cancelled.store(true, ordering: .relaxed)
  }

  /// Runs `work` on this thread with this cancellation in effect.
  package func run<T, E: Error>(_ work: () throws(E) -> T) throws(E) -> T {
    let previous = pthread_getspecific(Self.key)
    pthread_setspecific(Self.key, Unmanaged.passUnretained(self).toOpaque())
    defer { pthread_setspecific(Self.key, previous) }
    return try work()
  }

  /// The cancellation of the work running on this thread, if any.
  package static var current: RenderCancellation? {
    pthread_getspecific(key).map {
      Unmanaged<RenderCancellation>.fromOpaque($0).takeUnretainedValue()
    }
  }

  /// Throws when the work running on this thread was cancelled.
  static func check(_ context: String) throws(VipsError) {
    if let current, current.isCancelled {
      throw VipsError(context: context, message: "cancelled")
    }
  }

  private static let key: pthread_key_t = {
    var key = pthread_key_t()
    pthread_key_create(&key, nil)
    return key
  }()
}
