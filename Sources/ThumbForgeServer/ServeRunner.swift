internal import Foundation
package import Hummingbird
internal import HummingbirdCore
package import Logging
internal import NIOCore
internal import ServiceLifecycle
internal import ThumbForge
internal import ThumbForgeBasics
internal import ThumbForgeConfig
internal import UnixSignals
internal import Vips

/// Builds and runs the server: the folder loaded and planned, libvips set up for untrusted
/// input when asked, Hummingbird on the chosen address, the folder watched for changes, and
/// a graceful shutdown on SIGTERM/SIGINT that finishes in-flight renders within the render
/// timeout.
package enum ServeRunner {
  /// The listen queue: connections the kernel completes before the server accepts them.
  ///
  /// Hummingbird's default (256) overflows under a burst of connections (a slowloris
  /// opening 1 500 at once): the kernel then drops a health check's SYN and the client
  /// retries only after a second. Linux caps the value at `net.core.somaxconn` (4096 since
  /// 5.4), as nginx's `backlog=-1` does.
  static let listenBacklog = 4096

  /// The server's responder and the Hummingbird application around it.
  package static func makeApplication(
    _ options: ServeOptions, environment: [String: String], logger: Logger
  ) throws -> (ImageServer, some ApplicationProtocol) {
    let signer: URLSigner?
    do { signer = try URLSigner.fromEnvironment(environment) } catch {
      throw ServeError(message: error.message)
    }
    if signer == nil && !options.isLoopback && !options.allowUnsigned {
      throw ServeError(
        message:
          "refusing to serve unsigned paths on \(options.host): set \(URLSigner.keyVariable) and \(URLSigner.saltVariable) (hex), or pass --allow-unsigned"
      )
    }
    let workers = options.workers ?? max(1, ProcessInfo.processInfo.activeProcessorCount)
    // As for builds, and before the folder's first scan reads a master: one malloc arena
    // per render worker, and the event loops'.
    Vips.configureForImageWork(threads: workers + 2)
    let folder: OnDemandFolder
    do { folder = try OnDemandFolder.load(options.build) } catch {
      throw ServeError(message: error.description)
    }
    let settings = folder.config.serve
    let cache = URL(fileURLWithPath: settings.cache, relativeTo: folder.folder).standardizedFileURL
    if FolderPath.isInside(cache, folder: folder.folder) {
      throw ServeError(
        message: "serve.cache '\(settings.cache)' is inside the asset folder; put it outside")
    }
    let server = try ImageServer(
      folder: folder, signer: signer, preview: settings.preview ?? options.isLoopback,
      workers: workers, logger: logger, metricsHere: options.metricsPort == nil)
    let connections = server.connections
    let writeTimeout = TimeAmount.seconds(Int64(settings.writeTimeout))
    let app = Application(
      router: server.router(),
      server: .http1(
        configuration: HTTP1Channel.Configuration(
          additionalChannelHandlers: [ConnectionGate(connections, writeTimeout: writeTimeout)],
          idleTimeout: .seconds(Int64(settings.readTimeout)))),
      configuration: ApplicationConfiguration(
        address: .hostname(options.host, port: options.port), serverName: "thumbforge",
        backlog: listenBacklog),
      services: [FolderWatch(server: server), DrainOnShutdown(server: server)],
      logger: logger)
    return (server, app)
  }

  /// Runs until SIGTERM or SIGINT, then drains: no new renders, in-flight ones finish
  /// (within the render timeout), and the function returns, logging the start of the drain
  /// and its end.
  ///
  /// - Throws: ``ServeError`` when the folder cannot be served or a listener cannot bind
  ///   (naming its address).
  package static func run(_ options: ServeOptions, logger: Logger) async throws {
    let (server, app) = try makeApplication(
      options, environment: ProcessInfo.processInfo.environment, logger: logger)
    var services: [any Service] = [
      NamedListener(wrapped: app, host: options.host, port: options.port)
    ]
    if let port = options.metricsPort {
      services.append(
        NamedListener(
          wrapped: Application(
            responder: MetricsResponder(server: server),
            configuration: ApplicationConfiguration(
              address: .hostname(options.metricsHost, port: port),
              serverName: "thumbforge-metrics"),
            logger: logger),
          host: options.metricsHost, port: port, role: "metrics"))
    }
    var configuration = ServiceGroupConfiguration(
      services: services, gracefulShutdownSignals: [.sigterm, .sigint], logger: logger)
    configuration.maximumGracefulShutdownDuration = .seconds(
      server.currentFolder.config.serve.timeout + 5)
    try await ServiceGroup(configuration: configuration).run()
    logger.info("stopped: in-flight requests answered, exiting")
  }
}
