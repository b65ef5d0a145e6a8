internal import Hummingbird
internal import ThumbForge

/// An answer other than an image, thrown by routes and middleware and turned into its
/// response by ``RequestLog``: a status, one line of text, headers (`Allow`, `Retry-After`),
/// and what the server's log should say of it beyond the request line (nil: nothing).
struct ServeFailure: HTTPResponseError {
  let status: HTTPResponse.Status
  let message: String
  var headers: HTTPFields = [:]
  var logDetail: String? = nil

  func response(from request: Request, context: some RequestContext) throws -> Response {
    ImageServer.text(status, message, headers: headers)
  }

  /// 500, for an error no route expected; its detail goes to the log only.
  static func internalError(_ error: any Error) -> ServeFailure {
    ServeFailure(
      status: .internalServerError, message: "internal error", logDetail: "\(error)")
  }

  /// 404, for the fixed paths that are off here (`/metrics` on its own port, the preview
  /// page when `serve.preview` is off) and `/favicon.ico`.
  static let notFound = ServeFailure(status: .notFound, message: "not found")

  /// 503 while the server drains: no new renders.
  static let draining = ServeFailure(
    status: .serviceUnavailable, message: "the server is shutting down")
}

extension ServeFailure {
  /// The answer to a request the folder cannot serve: its status and line from the error,
  /// `Retry-After` while a master is being updated, and the detail (which may name the
  /// master and libvips' reason) logged for the statuses that need the operator (413 up).
  init(_ error: OnDemandError) {
    var headers = HTTPFields()
    if case .changed = error { headers[.retryAfter] = "1" }
    self.init(
      status: HTTPResponse.Status(code: error.status), message: error.message, headers: headers,
      logDetail: error.status >= 413 ? error.logDetail : nil)
  }

  /// The answer to a render the coordinator refused, for the asset named `asset`.
  init(_ refusal: RenderCoordinator.Refusal, asset: String) {
    switch refusal {
    case .queueFull:
      self.init(
        status: .tooManyRequests, message: "too many renders waiting",
        headers: [.retryAfter: "1"])
    case .timedOut:
      self.init(
        status: .serviceUnavailable, message: "the render takes longer",
        headers: [.retryAfter: "1"])
    case .overBudget(let need, let budget):
      self.init(
        status: .contentTooLarge, message: OnDemandError.tooLarge("").message,
        logDetail:
          "\(asset): the render needs about \(need >> 20) MB, over serve.memory-budget (\(budget >> 20) MB)"
      )
    }
  }
}
