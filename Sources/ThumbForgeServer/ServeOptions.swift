public import ThumbForge

/// What `thumbforge serve` is asked to do: the folder (its configuration and catalog, as for
/// `build`), where to listen, and whether unsigned paths may be served beyond loopback.
public struct ServeOptions: Sendable {
  public var build: BuildOptions
  public var host = "127.0.0.1"
  public var port = 8080
  public var allowUnsigned = false
  /// Render workers (default: one per core).
  public var workers: Int?
  /// A listener of its own for `/metrics` (then not answered on `host:port`): its port,
  /// and its address (default loopback).
  public var metricsPort: Int?
  public var metricsHost = "127.0.0.1"

  public init(build: BuildOptions) {
    self.build = build
  }

  /// Whether `host` only accepts connections from this machine.
  public var isLoopback: Bool {
    ["127.0.0.1", "::1", "localhost"].contains(host) || host.hasPrefix("127.")
  }
}
