#if Serve
  import ArgumentParser
  import Foundation
  import Logging
  import ThumbForge
  import ThumbForgeServer

  /// `thumbforge serve [FOLDER]`: the catalog's recipes over HTTP.
  struct ServeCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
      commandName: "serve",
      abstract:
        "Render the folder's recipes on demand over HTTP (same recipes and pixels as build).",
      discussion: """
        URLs: /{signature}/{recipe}/{asset}@{scale}x.{ext}, e.g. /…/tile/Resorts/les-arcs@2x.jpg. \
        Signing keys come from THUMBFORGE_KEY and THUMBFORGE_SALT (hex, comma-separated pairs for \
        rotation; see 'thumbforge sign'); without them the signature segment is 'unsafe' and the \
        server only listens on loopback unless --allow-unsigned. Also: /healthz, /readyz, \
        /metrics, and a preview page at / (serve.preview). SIGTERM drains, logs the shutdown and \
        exits 0. Exit codes: 0 stopped (SIGTERM or Ctrl-C, drained), 2 usage or configuration \
        error or the server could not start.
        """)

    @Argument(help: "The asset folder.")
    var folder: String = "Assets"

    @Option(name: .long, help: "Configuration file (default: thumbforge.yml in the folder).")
    var config: String?

    @Option(
      name: [.short, .long],
      help: "The catalog to send up-to-date outputs from (default: the configuration's 'output').")
    var output: String?

    @Option(name: .long, help: "Address to listen on.")
    var host = "127.0.0.1"

    @Option(name: .long, help: "Port to listen on.")
    var port = 8080

    @Option(name: [.short, .long], help: "Parallel renders (default: one per core).")
    var jobs: Int?

    @Flag(name: .long, help: "Serve unsigned paths on addresses other than loopback.")
    var allowUnsigned = false

    @Option(
      name: .long,
      help:
        "Answer /metrics on this port only (not on --port), so the public listener never shows it.")
    var metricsPort: Int?

    @Option(name: .long, help: "Address of the --metrics-port listener.")
    var metricsHost = "127.0.0.1"

    @Option(
      name: .long,
      help:
        "Log lines as 'text' (swift-log's) or 'json' (one object per line; default: THUMBFORGE_LOG_FORMAT, else text)."
    )
    var logFormat: String?

    @Option(
      name: .long,
      help:
        "Lowest level logged: trace, debug, info, notice, warning, error, critical (default: THUMBFORGE_LOG_LEVEL, else info)."
    )
    var logLevel: String?

    /// The log settings from the flags and the environment.
    var logSettings: LogSettings {
      get throws(ServeError) {
        try LogSettings(
          format: logFormat, level: logLevel, environment: ProcessInfo.processInfo.environment)
      }
    }

    func validate() throws {
      if !(0...65535).contains(port) {
        throw ValidationError("--port must be 0–65535, got \(port)")
      }
      if let metricsPort, !(1...65535).contains(metricsPort) || metricsPort == port {
        throw ValidationError("--metrics-port must be 1–65535 and not --port, got \(metricsPort)")
      }
      if let jobs, jobs < 1 { throw ValidationError("--jobs must be 1 or more, got \(jobs)") }
      do { _ = try logSettings } catch { throw ValidationError(error.message) }
    }

    func run() throws {
      var build = BuildOptions(folder: URL(fileURLWithPath: folder))
      build.configFile = config.map { URL(fileURLWithPath: $0) }
      build.output = output.map { URL(fileURLWithPath: $0) }
      var options = ServeOptions(build: build)
      options.host = host
      options.port = port
      options.allowUnsigned = allowUnsigned
      options.workers = jobs
      options.metricsPort = metricsPort
      options.metricsHost = metricsHost
      let logging = try logSettings
      LoggingSystem.bootstrap { logging.handler(label: $0) }
      let logger = Logger(label: "thumbforge.serve")
      let settings = options
      let outcome = BlockingTask { try await ServeRunner.run(settings, logger: logger) }.wait()
      if case .failure(let error) = outcome {
        let message = (error as? ServeError)?.message ?? "\(error)"
        FileHandle.standardError.write(Data("error: \(message)\n".utf8))
        throw ExitCode(2)
      }
    }
  }

  /// Runs async work to completion from synchronous code (the command line's `run`).
  final class BlockingTask: @unchecked Sendable {
    private let semaphore = DispatchSemaphore(value: 0)
    private var result: Result<Void, any Error> = .success(())

    init(_ work: @escaping @Sendable () async throws -> Void) {
      Task {
        do { try await work() } catch { self.result = .failure(error) }
        self.semaphore.signal()
      }
    }

    func wait() -> Result<Void, any Error> {
      semaphore.wait()
      return result
    }
  }
#endif
