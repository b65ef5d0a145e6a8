internal import ServiceLifecycle
internal import ThumbForge

/// Reloads the folder when a master, the configuration or the manifest changed, once the
/// folder has settled: looked at every second, a change is loaded when one look after it
/// shows nothing new, as `build --watch` builds, so that a master still being copied or
/// saved in is not read half-written.
struct FolderWatch: Service {
  let server: ImageServer
  var interval: Duration = .seconds(1)

  func run() async throws {
    // Ends (without an error, which would fail the whole group) when shutdown begins.
    try? await cancelWhenGracefulShutdown {
      while !Task.isCancelled {
        try await Task.sleep(for: interval)
        var last = server.currentFolder.look()
        guard server.currentFolder.differs(from: last) else { continue }
        while !Task.isCancelled {
          try await Task.sleep(for: interval)
          let now = server.currentFolder.look()
          if now == last { break }
          last = now
        }
        server.reloadIfChanged()
      }
    }
  }
}
