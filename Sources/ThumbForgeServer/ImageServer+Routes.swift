internal import Hummingbird

extension ImageServer {
  /// The routes of `serve`, by concept: health, metrics, the preview page, and images (every
  /// other path, ``ImageRoute``, behind the signature check). Every request is logged and
  /// counted and its failures answered (``RequestLog``), anything but GET and HEAD refused
  /// (405, ``MethodFilter``), and a response whose `ETag` the client has is a 304
  /// (``ConditionalGet``).
  func router() -> Router<ServeContext> {
    let router = Router(context: ServeContext.self, options: .autoGenerateHeadEndpoints)
    router.add(middleware: RequestLog(metrics: metrics, logger: logger))
    router.add(middleware: MethodFilter())
    router.add(middleware: ConditionalGet())
    addHealthRoutes(to: router)
    addMetricsRoute(to: router)
    addPreviewRoutes(to: router)
    // Last, so that it wraps only what no route above matched (see ImageRoute).
    router.add(middleware: ImageRoute(server: self, signer: signer))
    return router
  }

  /// `/healthz` (the process answers) and `/readyz` (it takes renders: 503 once draining).
  private func addHealthRoutes(to router: Router<ServeContext>) {
    router.get("/healthz") { _, _ in ImageServer.text(.ok, "ok") }
    router.get("/readyz") { [self] _, _ in readiness() }
  }

  /// `/metrics`, unless the metrics have a listener of their own (404 here then).
  private func addMetricsRoute(to router: Router<ServeContext>) {
    router.get("/metrics") { [self] _, _ in
      guard metricsHere else { throw ServeFailure.notFound }
      return metricsResponse()
    }
  }

  /// The preview page at `/` (404 when `serve.preview` is off), and `/favicon.ico`, which
  /// browsers ask for on every visit: 404, not an image path (that would be 400).
  private func addPreviewRoutes(to router: Router<ServeContext>) {
    router.get("/") { [self] _, _ in try previewPage() }
    router.get("/favicon.ico") { _, _ -> Response in
      throw ServeFailure.notFound
    }
  }
}
