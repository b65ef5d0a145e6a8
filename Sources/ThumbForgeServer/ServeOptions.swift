package import ThumbForge

/// What `thumbforge serve` is asked to do: the folder (its configuration and catalog, as for
/// `build`), where to listen, and whether unsigned paths may be served beyond loopback.
package struct ServeOptions: Sendable {
  package var build: BuildOptions
  package var host = "127.0.0.1"
  package var port = 8080
  package var allowUnsigned = false
  /// Render workers (default: one per core).
  package var workers: Int?
  /// A listener of its own for `/metrics` (then not answered on `host:port`): its port,
  /// and its address (default loopback).
  package var metricsPort: Int?
  package var metricsHost = "127.0.0.1"

  package init(build: BuildOptions) {
    self.build = build
  }

  /// Whether `host` only accepts connections from this machine.
  package var isLoopback: Bool {
    ["127.0.0.1", "::1", "localhost"].contains(host) || host.hasPrefix("127.")
  }
}
