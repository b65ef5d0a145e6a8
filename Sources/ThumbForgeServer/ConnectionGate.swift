internal import NIOCore
internal import NIOHTTPTypes
internal import Synchronization

#if canImport(Glibc)
  internal import Glibc
#elseif canImport(Darwin)
  internal import Darwin
#endif

/// The connections open at once, and their cap (`serve.max-connections`, never more than
/// the file-descriptor limit leaves room for).
///
/// At the cap, a new connection takes the place of the one idle longest — one that has not
/// finished sending a request, or waits between requests — which is closed; only when
/// every open connection has a request in progress is the new one closed instead. So
/// clients that open connections and send nothing (slowloris) can hold at most the
/// connections nobody else needs: a health check or a real request still gets in, and
/// `serve.read-timeout` closes the idle ones anyway.
final class OpenConnections: Sendable {
  /// Descriptors kept for everything but connections (files, the cache, libvips' modules).
  static let reservedDescriptors = 128

  private let table: Mutex<ConnectionTable<any Channel>>
  /// Orders the moments connections become idle (no lock on a request's path).
  private let clock = Atomic<UInt64>(0)

  init(limit: Int) {
    table = Mutex(
      ConnectionTable(
        limit: max(1, min(limit, Self.descriptorLimit() - Self.reservedDescriptors))))
  }

  /// Connections open now.
  var open: Int { table.withLock { $0.count } }

  /// Counts `channel` in, closing the connection idle longest when at the cap; nil when
  /// every connection is busy (the caller closes `channel`), else the connection's record
  /// of its requests.
  func admit(_ channel: any Channel) -> ConnectionActivity? {
    let activity = ConnectionActivity()
    activity.idleSince.store(clock.add(1, ordering: .relaxed).newValue, ordering: .relaxed)
    let (admitted, evicted) = table.withLock {
      $0.admit(ObjectIdentifier(channel), .init(payload: channel, activity: activity))
    }
    evicted?.close(promise: nil)
    return admitted ? activity : nil
  }

  func release(_ channel: any Channel) {
    table.withLock { $0.remove(ObjectIdentifier(channel)) }
  }

  /// A request started (`true`) or its response ended (`false`) on a connection.
  func request(_ activity: ConnectionActivity, started: Bool) {
    if started {
      activity.inProgress.add(1, ordering: .relaxed)
    } else if activity.inProgress.subtract(1, ordering: .relaxed).newValue == 0 {
      activity.idleSince.store(clock.add(1, ordering: .relaxed).newValue, ordering: .relaxed)
    }
  }

  /// The soft limit on open file descriptors.
  private static func descriptorLimit() -> Int {
    var limit = rlimit()
    guard getrlimit(Int32(RLIMIT_NOFILE.rawValue), &limit) == 0, limit.rlim_cur != rlim_t.max
    else { return Int.max }
    return Int(clamping: limit.rlim_cur)
  }
}

/// Added to every connection's pipeline: counts it in ``OpenConnections`` (which may close
/// it, or an idle one, at the cap), follows its requests, and closes it when the client
/// stops reading: once the socket's send buffer is full (the channel not writable, so
/// response bodies wait, see `ImageServer.streamed`), the client has `writeTimeout` to
/// accept more bytes.
///
/// Headers that never complete and idle keep-alive connections are Hummingbird's idle
/// timeout (`serve.read-timeout`).
final class ConnectionGate: ChannelDuplexHandler, RemovableChannelHandler {
  typealias InboundIn = HTTPRequestPart
  typealias InboundOut = HTTPRequestPart
  typealias OutboundIn = HTTPResponsePart
  typealias OutboundOut = HTTPResponsePart

  private let connections: OpenConnections
  private let writeTimeout: TimeAmount
  /// This connection's record, once admitted.
  private var activity: ConnectionActivity?
  private var stalled: Scheduled<Void>?

  init(_ connections: OpenConnections, writeTimeout: TimeAmount) {
    self.connections = connections
    self.writeTimeout = writeTimeout
  }

  func handlerAdded(context: ChannelHandlerContext) {
    activity = connections.admit(context.channel)
    if activity == nil { context.close(promise: nil) }
  }

  func handlerRemoved(context: ChannelHandlerContext) {
    if activity != nil { connections.release(context.channel) }
    activity = nil
    stalled?.cancel()
    stalled = nil
  }

  func channelRead(context: ChannelHandlerContext, data: NIOAny) {
    if let activity, case .head = unwrapInboundIn(data) {
      connections.request(activity, started: true)
    }
    context.fireChannelRead(data)
  }

  func write(context: ChannelHandlerContext, data: NIOAny, promise: EventLoopPromise<Void>?) {
    if let activity, case .end = unwrapOutboundIn(data) {
      connections.request(activity, started: false)
    }
    context.write(data, promise: promise)
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
}
