internal import Logging
internal import ServiceLifecycle
internal import ThumbForge
internal import ThumbForgeConfig

/// Marks the server as draining as soon as a graceful shutdown begins (SIGTERM, SIGINT), and
/// logs that it does. A cancelled group (a listener that could not start) drains silently.
struct DrainOnShutdown: Service {
  let server: ImageServer

  func run() async throws {
    do {
      try await gracefulShutdown()
    } catch {
      server.startDraining()
      return
    }
    server.logger.info(
      "shutting down: no new renders; in-flight ones finish within serve.timeout",
      metadata: ["timeout": "\(server.currentFolder.config.serve.timeout)"])
    server.startDraining()
  }
}
