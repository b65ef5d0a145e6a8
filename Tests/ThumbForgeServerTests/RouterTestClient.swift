import HTTPTypes
import Hummingbird
import Logging
import NIOConcurrencyHelpers
import NIOCore
import NIOEmbedded
import ServiceLifecycle

/// How a test reaches the application: in process, straight to its responder.
enum ApplicationTestMode { case router }

/// One answer of the application's responder.
struct RouterTestResponse: Sendable {
  var head: HTTPResponse
  var body: ByteBuffer
  var status: HTTPResponse.Status { head.status }
  var headers: HTTPFields { head.headerFields }
  var bytes: [UInt8] { Array(body.readableBytesView) }
  var text: String { String(buffer: body) }
}

/// Sends requests straight to an application's responder, as HummingbirdTesting's router
/// framework does, through Hummingbird's public API only: no socket and no HTTP client, so
/// this test target builds without an HTTP client library and its TLS.
struct RouterTestClient<Responder: HTTPResponder>: Sendable
where Responder.Context: InitializableFromSource<ApplicationRequestContextSource> {
  let responder: Responder
  let logger: Logger

  /// Sends one request and gives its response to `testCallback`.
  @discardableResult
  func execute<Return>(
    uri: String, method: HTTPRequest.Method, headers: HTTPFields = [:], body: ByteBuffer? = nil,
    testCallback: (RouterTestResponse) async throws -> Return = { $0 }
  ) async throws -> Return {
    var headers = headers
    if let body { headers[.contentLength] = String(body.readableBytes) }
    let request = Request(
      head: HTTPRequest(
        method: method, scheme: "http", authority: "localhost", path: uri, headerFields: headers),
      body: RequestBody(buffer: body ?? ByteBuffer()))
    let context = Responder.Context(
      source: ApplicationRequestContextSource(channel: NIOAsyncTestingChannel(), logger: logger))
    let response: Response
    do {
      response = try await responder.respond(to: request, context: context)
    } catch {
      response = Response(status: .internalServerError)
    }
    let head = response.head
    let collected = CollectedBody()
    try await response.body.write(CollectingWriter(collected: collected))
    return try await testCallback(RouterTestResponse(head: head, body: collected.buffer))
  }
}

/// The bytes a response body writes.
private final class CollectedBody: Sendable {
  private let box = NIOLockedValueBox(ByteBuffer())
  var buffer: ByteBuffer { box.withLockedValue { $0 } }
  func append(_ buffer: ByteBuffer) { _ = box.withLockedValue { $0.writeImmutableBuffer(buffer) } }
}

private struct CollectingWriter: ResponseBodyWriter {
  let collected: CollectedBody
  func write(_ buffer: ByteBuffer) async throws { collected.append(buffer) }
  func finish(_ trailingHeaders: HTTPFields?) async throws {}
}

extension ApplicationProtocol {
  /// Runs `test` against the application: its start-up processes first, its services
  /// running beside the test, then shut down.
  func test<Value>(
    _ mode: ApplicationTestMode, _ test: (RouterTestClient<Responder>) async throws -> Value
  ) async throws -> Value {
    let client = RouterTestClient(responder: try await responder, logger: logger)
    guard !services.isEmpty else {
      for process in processesRunBeforeServerStart { try await process() }
      return try await test(client)
    }
    let (started, signal) = AsyncStream.makeStream(of: Void.self)
    let group = ServiceGroup(
      configuration: .init(
        services: services + [StartedService(signal: signal)], gracefulShutdownSignals: [],
        logger: logger))
    return try await withThrowingTaskGroup(of: Void.self) { tasks in
      tasks.addTask { try await group.run() }
      do {
        for process in processesRunBeforeServerStart { try await process() }
        // The services must be running before the test, or a shutdown could come first.
        for await _ in started { break }
        let value = try await test(client)
        await group.triggerGracefulShutdown()
        return value
      } catch {
        await group.triggerGracefulShutdown()
        throw error
      }
    }
  }
}

/// Says that the service group runs its services, then waits for the shutdown.
private struct StartedService: Service {
  let signal: AsyncStream<Void>.Continuation
  func run() async throws {
    signal.finish()
    try? await gracefulShutdown()
  }
}
