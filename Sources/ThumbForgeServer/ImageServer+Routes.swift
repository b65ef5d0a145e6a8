internal import Hummingbird

extension ImageServer {
  /// The routes of `serve`: `/healthz`, `/readyz`, `/metrics` (unless it has a listener of
  /// its own), the preview page at `/`, `/favicon.ico` (404), and every other path an image (``ImageRoute``, behind
  /// the signature check); every request logged and counted, anything but GET and HEAD
  /// refused (405).
  func router() -> Router<ServeContext> {
    let router = Router(context: ServeContext.self, options: .autoGenerateHeadEndpoints)
    router.add(middleware: RequestLog(metrics: metrics, logger: logger))
    router.add(middleware: MethodFilter())
    router.get("/healthz") { _, _ in ImageServer.text(.ok, "ok") }
    router.get("/readyz") { [self] _, _ in readiness() }
    router.get("/metrics") { [self] _, _ in
      metricsHere ? metricsResponse() : ImageServer.text(.notFound, "not found")
    }
    router.get("/") { [self] _, _ in previewPage() }
    // Browsers ask for it on every visit: not an image path (that would be 400).
    router.get("/favicon.ico") { _, _ in ImageServer.text(.notFound, "not found") }
    // Last, so that it wraps only what no route above matched (see ImageRoute).
    router.add(middleware: ImageRoute(server: self, signer: signer))
    return router
  }
}
