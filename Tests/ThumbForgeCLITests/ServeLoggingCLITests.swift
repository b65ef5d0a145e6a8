import Foundation
import Testing
import ThumbForgeTestSupport

#if canImport(Glibc)
  import Glibc
#elseif canImport(Darwin)
  import Darwin
#endif

/// `thumbforge serve`'s start-up failures, log formats and shutdown lines, as a real process.
@Suite("serve: bind errors, log format and level, shutdown line", .timeLimit(.minutes(10)))
struct ServeLoggingCLITests {
  /// Before: `bind(descriptor:ptr:bytes:): Address already in use) (errno: 98)`, no port.
  @Test("a port in use: one line naming host and port, exit non-zero")
  func portInUse() async throws {
    let sandbox = try Sandbox()
    try sandbox.write(
      try Data(contentsOf: Fixtures.packageRoot.appendingPathComponent("Assets/Flags/Italy.svg")),
      to: "Flags/Italy.svg")
    let (fd, port) = try Self.listeningSocket()
    defer { close(fd) }
    let cli = try RunningCLI(
      arguments: ["serve", sandbox.assets.path, "--port", String(port)], in: sandbox.root)
    let result = await cli.wait()
    #expect(!result.signalled && result.status != 0, "\(result)")
    let lines = result.stderr.split(separator: "\n")
    #expect(lines.count == 1, "\(result)")
    #expect(
      lines.first
        == "error: cannot listen on 127.0.0.1:\(port): the port is already in use (another server? choose another port)",
      "\(result)")
  }

  @Test(
    "a result cache inside the asset folder is refused before listening, in one line naming it",
    arguments: ["cache", "./Flags/../.results", "."])
  func cacheInsideTheFolder(cache: String) async throws {
    let sandbox = try Sandbox(config: Sandbox.defaultConfig + "serve:\n  cache: \"\(cache)\"\n")
    try sandbox.write(
      try Data(contentsOf: Fixtures.packageRoot.appendingPathComponent("Assets/Flags/Italy.svg")),
      to: "Flags/Italy.svg")
    let result = try await CLI.run(
      ["serve", sandbox.assets.path, "--port", String(try RawHTTP.freePort())], in: sandbox.root)
    #expect(!result.signalled && result.status != 0, "\(result)")
    #expect(
      result.stderr
        == "error: serve.cache '\(cache)' is inside the asset folder; put it outside\n",
      "\(result)")
  }

  @Test("THUMBFORGE_LOG_FORMAT=json: every line one JSON object; SIGTERM logs the shutdown")
  func jsonLinesAndShutdown() async throws {
    let server = try await ServeCLITests.Running(
      environment: ["THUMBFORGE_LOG_FORMAT": "json"])
    #expect(try RawHTTP.get("/healthz", port: server.port).status == 200)
    server.cli.send(SIGTERM)
    let result = await server.cli.wait()
    #expect(!result.signalled && result.status == 0, "\(result)")
    let objects = try result.stderr.split(separator: "\n").map { line in
      let object = try JSONSerialization.jsonObject(with: Data(line.utf8)) as? [String: Any]
      return try #require(object, "not a JSON object: \(line)")
    }
    for object in objects {
      #expect(Set(object.keys) == ["timestamp", "level", "message", "metadata"], "\(object)")
      #expect(object["metadata"] is [String: Any])
    }
    let request = try #require(objects.first { $0["message"] as? String == "GET /healthz 200" })
    #expect(request["level"] as? String == "info")
    let metadata = try #require(request["metadata"] as? [String: Any])
    #expect(Set(metadata.keys).isSuperset(of: ["bytes", "ms", "cache"]), "\(metadata)")
    let messages = objects.compactMap { $0["message"] as? String }
    let drain = try #require(messages.firstIndex { $0.hasPrefix("shutting down") }, "\(result)")
    let stopped = try #require(messages.firstIndex { $0.hasPrefix("stopped") }, "\(result)")
    #expect(drain < stopped)
    #expect(stopped == messages.count - 1)
  }

  @Test("--log-level warning (over THUMBFORGE_LOG_LEVEL) leaves out request lines")
  func logLevel() async throws {
    let server = try await ServeCLITests.Running(
      arguments: ["--log-level", "warning"], environment: ["THUMBFORGE_LOG_LEVEL": "debug"])
    #expect(try RawHTTP.get("/healthz", port: server.port).status == 200)
    server.cli.send(SIGTERM)
    let result = await server.cli.wait()
    #expect(result.status == 0, "\(result)")
    #expect(!result.stderr.contains("/healthz"), "\(result)")
    #expect(!result.stderr.contains("stopped"), "\(result)")
  }

  @Test("a bad --log-format or THUMBFORGE_LOG_LEVEL is a usage error naming it")
  func badLogSettings() async throws {
    let sandbox = try Sandbox()
    let flag = await
      (try RunningCLI(
        arguments: ["serve", sandbox.assets.path, "--log-format", "xml"], in: sandbox.root)).wait()
    #expect(flag.status == 64 || flag.status == 2, "\(flag)")
    #expect(flag.stderr.contains("--log-format 'xml' is not one of text, json"), "\(flag)")
    let variable = await
      (try RunningCLI(
        arguments: ["serve", sandbox.assets.path], in: sandbox.root,
        environment: ["THUMBFORGE_LOG_LEVEL": "loud"])).wait()
    #expect(variable.status != 0)
    #expect(
      variable.stderr.contains("THUMBFORGE_LOG_LEVEL 'loud' is not one of trace"), "\(variable)")
  }

  /// A socket listening on a free loopback port, and the port.
  static func listeningSocket() throws -> (Int32, Int) {
    let fd = socket(AF_INET, RawHTTP.streamSocket, 0)
    var address = RawHTTP.loopback(port: 0)
    let bound = withUnsafePointer(to: &address) {
      $0.withMemoryRebound(to: sockaddr.self, capacity: 1) {
        bind(fd, $0, socklen_t(MemoryLayout<sockaddr_in>.size))
      }
    }
    guard bound == 0, listen(fd, 1) == 0 else {
      close(fd)
      throw POSIXError(.EADDRINUSE)
    }
    var length = socklen_t(MemoryLayout<sockaddr_in>.size)
    _ = withUnsafeMutablePointer(to: &address) {
      $0.withMemoryRebound(to: sockaddr.self, capacity: 1) { getsockname(fd, $0, &length) }
    }
    return (fd, Int(UInt16(bigEndian: address.sin_port)))
  }
}
