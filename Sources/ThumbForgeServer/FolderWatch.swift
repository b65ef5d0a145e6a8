internal import ServiceLifecycle

/// Reloads the folder once a second when a master, the configuration or the manifest changed.
struct FolderWatch: Service {
  let server: ImageServer

  func run() async throws {
    // Ends (without an error, which would fail the whole group) when shutdown begins.
    try? await cancelWhenGracefulShutdown {
      while !Task.isCancelled {
        try await Task.sleep(for: .seconds(1))
        server.reloadIfChanged()
      }
    }
  }
}
