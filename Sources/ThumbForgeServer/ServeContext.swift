internal import Hummingbird
internal import NIOCore
internal import Synchronization

/// The request context of `serve`'s routes: Hummingbird's core context and how the response
/// body was obtained, for ``RequestLog``.
struct ServeContext: RequestContext {
  var coreContext: CoreRequestContextStorage
  /// How the body was obtained: `catalog`, `hit`, `miss`, `coalesced`, or `-`.
  let outcome = Outcome()
  /// The connection's event loop, which a large body's writes wait on (``BodyPacing``).
  let eventLoop: any EventLoop

  init(source: Source) {
    coreContext = .init(source: source)
    eventLoop = source.channel.eventLoop
  }

  /// Set by the image route, read by the log middleware around it (the context is passed
  /// down by value, so the record is shared by reference).
  final class Outcome: Sendable {
    private let value = Mutex("-")

    var current: String { value.withLock { $0 } }

    func record(_ outcome: String) {
      value.withLock { $0 = outcome }
    }
  }
}
