internal import Hummingbird

/// The metrics listener (`--metrics-port`): `/metrics` only.
struct MetricsResponder: HTTPResponder {
  typealias Context = BasicRequestContext
  let server: ImageServer

  func respond(to request: Request, context: Context) async throws -> Response {
    request.uri.path == "/metrics"
      ? server.metricsResponse() : ImageServer.text(.notFound, "not found")
  }
}
