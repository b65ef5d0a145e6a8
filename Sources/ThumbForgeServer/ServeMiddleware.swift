internal import Foundation
internal import Hummingbird
internal import Logging
internal import ThumbForge

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
      if let detail = (failure as? ServeFailure)?.logDetail { logger.warning("\(detail)") }
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

/// Conditional GET: a response with an `ETag` that the request's `If-None-Match` names (or
/// `*`) becomes 304 Not Modified, its headers kept but the body's type and length.
struct ConditionalGet: RouterMiddleware {
  typealias Context = ServeContext

  func handle(
    _ request: Request, context: Context,
    next: (Request, Context) async throws -> Response
  ) async throws -> Response {
    let response = try await next(request, context)
    guard response.status == .ok, let etag = response.headers[.eTag],
      let match = request.headers[.ifNoneMatch], Self.matches(match, etag)
    else { return response }
    var headers = response.headers
    headers[.contentType] = nil
    headers[.contentLength] = nil
    return Response(status: .notModified, headers: headers)
  }

  /// Whether an `If-None-Match` value names `etag` (or is `*`).
  static func matches(_ header: String, _ etag: String) -> Bool {
    header.split(separator: ",").contains { part in
      let tag = part.trimmingCharacters(in: .whitespaces)
      return tag == "*" || tag == etag || tag == "W/" + etag
    }
  }
}

/// Answers every path the fixed routes do not match as an image path: parses it (400 when
/// malformed), checks its signature (403: signed paths under a key, `unsafe` ones without),
/// and asks the server for the image.
///
/// ``ImageServer/router()`` adds it after the fixed routes, so Hummingbird applies it only to
/// what they leave unmatched (its not-found responder) and it never calls `next`. As a `**`
/// route instead, every image path was walked through the router's trie one character at a
/// time: a visible share of a cached answer's instructions (callgrind, `Scripts/loadtest.sh`'s
/// warm paths).
struct ImageRoute: RouterMiddleware {
  typealias Context = ServeContext
  let server: ImageServer
  let signer: URLSigner?

  func handle(
    _ request: Request, context: Context,
    next: (Request, Context) async throws -> Response
  ) async throws -> Response {
    let path: ServePath
    do {
      if let placeholder = try PlaceholderPath(request.uri.path) {
        if let refusal = refusal(placeholder.signature, placeholder.signedPart) {
          throw ServeFailure(status: .forbidden, message: refusal)
        }
        return try server.placeholder(placeholder)
      }
      path = try ServePath(request.uri.path)
    } catch let error as ServePathError {
      throw ServeFailure(status: .badRequest, message: error.message)
    }
    if let refusal = refusal(path.signature, path.signedPart) {
      throw ServeFailure(status: .forbidden, message: refusal)
    }
    return try await server.image(request, path: path, context: context)
  }

  /// Why a path's signature segment is refused for the rest of the path (nil: accepted).
  func refusal(_ signature: String, _ signedPart: String) -> String? {
    guard let signer else {
      return signature == URLSigner.unsignedSegment
        ? nil : "this server takes unsigned paths (/unsafe/…)"
    }
    guard signature != URLSigner.unsignedSegment,
      signer.verify(signature: signature, path: signedPart)
    else { return "bad signature" }
    return nil
  }
}
