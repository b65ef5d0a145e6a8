import Foundation
import HTTPTypes
import Hummingbird
import Logging
import Testing
import ThumbForge
import ThumbForgeTestSupport

@testable import ThumbForgeServer

/// A temporary copy of some of the repository's sample assets (`Assets/`), a configuration,
/// and a server over them, built in-process.
struct ServerHarness {
  let root: URL
  var folder: URL { root.appendingPathComponent("Assets") }
  var catalog: URL { root.appendingPathComponent("Build/Assets.xcassets") }

  /// Copies `files` (paths under `Assets/`) and writes `config` (with `output` and a cache
  /// inside the temporary root).
  init(files: [String] = ServerHarness.flagsAndOnePhoto, config: String = ServerHarness.config)
    throws
  {
    root = FileManager.default.temporaryDirectory
      .appendingPathComponent("thumbforge-serve-\(UUID().uuidString)")
    for file in files {
      let target = root.appendingPathComponent("Assets/\(file)")
      try FileManager.default.createDirectory(
        at: target.deletingLastPathComponent(), withIntermediateDirectories: true)
      try FileManager.default.copyItem(
        at: Fixtures.packageRoot.appendingPathComponent("Assets/\(file)"), to: target)
    }
    try Data(config.utf8).write(to: folder.appendingPathComponent("thumbforge.yml"))
  }

  static let flagsAndOnePhoto = [
    "Flags/Austria.svg", "Flags/Italy.svg", "Flags/United States.svg",
    "Resorts/les-arcs@2x.jpg",
  ]

  static let config = """
    output: ../Build/Assets.xcassets
    rules:
      - match: "Flags/**"
        recipes: [variants, flag]
      - match: "Resorts/*.jpg"
        recipes: [variants, fill, tile]
    recipes:
      fill: { size: [390, 120], gravity: attention }
    serve:
      cache: ../Build/serve-cache

    """

  func remove() {
    try? FileManager.default.removeItem(at: root)
  }

  /// Builds the catalog as `thumbforge build` would.
  @discardableResult
  func build() throws -> BuildReport {
    try BuildEngine(options: BuildOptions(folder: folder)).run()
  }

  /// The server and its application; `environment` holds the signing keys, if any.
  func server(
    environment: [String: String] = [:], host: String = "127.0.0.1", workers: Int = 2
  ) throws -> (ImageServer, some ApplicationProtocol) {
    var options = ServeOptions(build: BuildOptions(folder: folder))
    options.host = host
    options.port = 0
    options.workers = workers
    var logger = Logger(label: "test")
    logger.logLevel = .critical
    return try ServeRunner.makeApplication(options, environment: environment, logger: logger)
  }

  /// Requests each of `uris` from `app` and expects a 200 with the matching `bytes`.
  static func expectServed(
    _ uris: [String], bytes: [[UInt8]], by app: some ApplicationProtocol
  ) async throws {
    try await app.test(.router) { client in
      for (uri, expected) in zip(uris, bytes) {
        try await client.execute(uri: uri, method: .get) { response in
          #expect(response.status == .ok, "\(uri)")
          #expect(response.bytes == expected, "\(uri)")
        }
      }
    }
  }

  /// The bytes of a catalog file.
  func catalogFile(_ path: String) throws -> [UInt8] {
    Array(try Data(contentsOf: catalog.appendingPathComponent(path)))
  }
}
