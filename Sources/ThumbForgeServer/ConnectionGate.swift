internal import NIOCore
internal import Synchronization

#if canImport(Glibc)
  internal import Glibc
#elseif canImport(Darwin)
  internal import Darwin
#endif

/// The connections open at once, and their cap (`serve.max-connections`, never more than
/// the file-descriptor limit leaves room for): a connection beyond it is closed as soon as
/// it is accepted, so idle or slow clients cannot take every descriptor the server needs
/// for files, the cache and `/healthz`.
final class OpenConnections: Sendable {
  /// Descriptors kept for everything but connections (files, the cache, libvips' modules).
  static let reservedDescriptors = 128

  let limit: Int
  private let count = Atomic<Int>(0)

  init(limit: Int) {
    self.limit = max(1, min(limit, Self.descriptorLimit() - Self.reservedDescriptors))
  }

  /// Connections open now.
  var open: Int { count.load(ordering: .relaxed) }

  /// Counts a new connection in; false when it is over the cap (and is not counted).
  func admit() -> Bool {
    if count.add(1, ordering: .relaxed).newValue <= limit { return true }
    count.subtract(1, ordering: .relaxed)
    return false
  }

  func release() {
    count.subtract(1, ordering: .relaxed)
  }

  /// The soft limit on open file descriptors.
  private static func descriptorLimit() -> Int {
    var limit = rlimit()
    guard getrlimit(Int32(RLIMIT_NOFILE.rawValue), &limit) == 0, limit.rlim_cur != rlim_t.max
    else { return Int.max }
    return Int(clamping: limit.rlim_cur)
  }
}

/// Added to every connection's pipeline: counts it in ``OpenConnections`` (closing it at
/// once when the cap is reached), and closes it when the client stops reading: once the
/// socket's send buffer is full (the channel not writable, so response bodies wait, see
/// `ImageServer.streamed`), the client has `writeTimeout` to accept more bytes.
///
/// Headers that never complete and idle keep-alive connections are Hummingbird's idle
/// timeout (`serve.read-timeout`).
final class ConnectionGate: ChannelInboundHandler, RemovableChannelHandler {
  typealias InboundIn = NIOAny

  private let connections: OpenConnections
  private let writeTimeout: TimeAmount
  private var admitted = false
  private var stalled: Scheduled<Void>?

  init(_ connections: OpenConnections, writeTimeout: TimeAmount) {
    self.connections = connections
    self.writeTimeout = writeTimeout
  }

  func handlerAdded(context: ChannelHandlerContext) {
    admitted = connections.admit()
    if !admitted { context.close(promise: nil) }
  }

  func handlerRemoved(context: ChannelHandlerContext) {
    if admitted { connections.release() }
    admitted = false
    stalled?.cancel()
    stalled = nil
  }

  func channelWritabilityChanged(context: ChannelHandlerContext) {
    if context.channel.isWritable {
      stalled?.cancel()
      stalled = nil
    } else if stalled == nil {
      let loopBound = NIOLoopBound(context, eventLoop: context.eventLoop)
      stalled = context.eventLoop.scheduleTask(in: writeTimeout) {
        loopBound.value.close(promise: nil)
      }
    }
    context.fireChannelWritabilityChanged()
  }

  func channelRead(context: ChannelHandlerContext, data: NIOAny) {
    context.fireChannelRead(data)
  }
}
