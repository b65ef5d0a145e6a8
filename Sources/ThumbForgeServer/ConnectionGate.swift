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

  let limit: Int
  private let state = Mutex(State())

  private struct State {
    var connections: [ObjectIdentifier: Entry] = [:]
    var clock: UInt64 = 0
  }

  private struct Entry {
    let channel: any Channel
    /// Requests read and not yet answered.
    var inProgress = 0
    /// When the connection last became idle (or was opened).
    var idleSince: UInt64
  }

  init(limit: Int) {
    self.limit = max(1, min(limit, Self.descriptorLimit() - Self.reservedDescriptors))
  }

  /// Connections open now.
  var open: Int { state.withLock { $0.connections.count } }

  /// Counts `channel` in, closing the connection idle longest when at the cap; false when
  /// every connection is busy (the caller closes `channel`).
  func admit(_ channel: any Channel) -> Bool {
    let (admitted, evicted) = state.withLock { state -> (Bool, (any Channel)?) in
      state.clock += 1
      var evicted: (any Channel)?
      if state.connections.count >= limit {
        guard
          let oldest = state.connections.filter({ $0.value.inProgress == 0 })
            .min(by: { $0.value.idleSince < $1.value.idleSince })
        else { return (false, nil) }
        evicted = state.connections.removeValue(forKey: oldest.key)?.channel
      }
      state.connections[ObjectIdentifier(channel)] = Entry(channel: channel, idleSince: state.clock)
      return (true, evicted)
    }
    evicted?.close(promise: nil)
    return admitted
  }

  func release(_ channel: any Channel) {
    _ = state.withLock { $0.connections.removeValue(forKey: ObjectIdentifier(channel)) }
  }

  /// A request started (`true`) or its response ended (`false`) on `channel`.
  func request(on channel: any Channel, started: Bool) {
    state.withLock { state in
      let key = ObjectIdentifier(channel)
      guard state.connections[key] != nil else { return }
      state.clock += 1
      state.connections[key]!.inProgress += started ? 1 : -1
      if state.connections[key]!.inProgress == 0 { state.connections[key]!.idleSince = state.clock }
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
  private var admitted = false
  private var stalled: Scheduled<Void>?

  init(_ connections: OpenConnections, writeTimeout: TimeAmount) {
    self.connections = connections
    self.writeTimeout = writeTimeout
  }

  func handlerAdded(context: ChannelHandlerContext) {
    admitted = connections.admit(context.channel)
    if !admitted { context.close(promise: nil) }
  }

  func handlerRemoved(context: ChannelHandlerContext) {
    if admitted { connections.release(context.channel) }
    admitted = false
    stalled?.cancel()
    stalled = nil
  }

  func channelRead(context: ChannelHandlerContext, data: NIOAny) {
    if case .head = unwrapInboundIn(data) {
      connections.request(on: context.channel, started: true)
    }
    context.fireChannelRead(data)
  }

  func write(context: ChannelHandlerContext, data: NIOAny, promise: EventLoopPromise<Void>?) {
    if case .end = unwrapOutboundIn(data) {
      connections.request(on: context.channel, started: false)
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
