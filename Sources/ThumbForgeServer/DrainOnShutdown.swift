internal import ServiceLifecycle

/// Marks the server as draining as soon as a graceful shutdown begins.
struct DrainOnShutdown: Service {
  let server: ImageServer

  func run() async throws {
    try? await gracefulShutdown()
    server.startDraining()
  }
}
