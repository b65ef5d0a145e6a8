internal import Foundation
internal import Hummingbird
internal import Logging

/// One log line (method, path, status, bytes, milliseconds, cache outcome) and the request
/// counters per request, whatever answered it: a route, a failure, or no route at all.
struct RequestLog: RouterMiddleware {
  typealias Context = ServeContext
  let metrics: ServerMetrics
  let logger: Logger

  func handle(
    _ request: Request, context: Context,
    next: (Request, Context) async throws -> Response
  ) async throws -> Response {
    let started = ContinuousClock.now
    var response: Response
    do {
      response = try await next(request, context)
    } catch let failure as any HTTPResponseError {
      response = try failure.response(from: request, context: context)
    }
    if request.method == .head { response = response.createHeadResponse() }
    let elapsed = ContinuousClock.now - started
    let outcome = context.outcome.current
    metrics.request(status: Int(response.status.code), outcome: outcome)
    logger.info(
      "\(request.method) \(request.uri.path) \(response.status.code)",
      metadata: [
        "bytes": "\(response.headers[.contentLength] ?? "0")",
        "ms": "\(Int(elapsed.seconds * 1000))", "cache": "\(outcome)",
      ])
    return response
  }
}

/// `serve` answers GET and HEAD only: anything else is 405 with `Allow`, before routing.
struct MethodFilter: RouterMiddleware {
  typealias Context = ServeContext

  func handle(
    _ request: Request, context: Context,
    next: (Request, Context) async throws -> Response
  ) async throws -> Response {
    guard request.method == .get || request.method == .head else {
      throw ServeFailure(
        status: .methodNotAllowed, message: "only GET and HEAD", headers: [.allow: "GET, HEAD"])
    }
    return try await next(request, context)
  }
}

/// Parses an image path (400 when malformed) and checks its signature (403), so the image
/// route only sees accepted paths: signed ones under a key, `unsafe` ones without.
struct SignatureCheck: RouterMiddleware {
  typealias Context = ServeContext
  let signer: URLSigner?

  func handle(
    _ request: Request, context: Context,
    next: (Request, Context) async throws -> Response
  ) async throws -> Response {
    let path: ServePath
    do { path = try ServePath(request.uri.path) } catch {
      throw ServeFailure(status: .badRequest, message: error.message)
    }
    if let refusal = refusal(path) { throw ServeFailure(status: .forbidden, message: refusal) }
    var context = context
    context.path = path
    return try await next(request, context)
  }

  /// Why the signature segment is refused (nil: accepted).
  func refusal(_ path: ServePath) -> String? {
    guard let signer else {
      return path.signature == URLSigner.unsignedSegment
        ? nil : "this server takes unsigned paths (/unsafe/…)"
    }
    guard path.signature != URLSigner.unsignedSegment,
      signer.verify(signature: path.signature, path: path.signedPart)
    else { return "bad signature" }
    return nil
  }
}
