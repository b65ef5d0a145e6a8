import Foundation
import Testing
import ThumbForgeTestSupport
import Vips

#if canImport(Glibc)
  import Glibc
#elseif canImport(Darwin)
  import Darwin
#endif

/// `thumbforge serve` as a real process on a real socket.
@Suite("serve over a socket", .serialized, .timeLimit(.minutes(10)))
struct ServeCLITests {
  /// A sandbox with flags and a large photo, and a running server on a free port.
  final class Running: @unchecked Sendable {
    let sandbox: Sandbox
    let cli: RunningCLI
    let port: Int

    init(
      _ name: String = #function, bigPhoto: Bool = false, serve: String = "",
      arguments: [String] = [], environment: [String: String] = [:],
      before: (Sandbox) throws -> Void = { _ in }
    ) async throws {
      let config = Sandbox.defaultConfig + serve
      sandbox = try Sandbox(name, config: config)
      try before(sandbox)
      try sandbox.write(
        try Data(contentsOf: Fixtures.packageRoot.appendingPathComponent("Assets/Flags/Italy.svg")),
        to: "Flags/Italy.svg")
      if bigPhoto {
        // A large master, so that its render takes long enough to be interrupted; made by
        // libvips (a gradient made pixel by pixel in a debug build takes seconds).
        try sandbox.image(
          "Photos/Big@2x.png", try Fixtures.photo(width: 6000, height: 4000, seed: 1))
      }
      port = try RawHTTP.freePort()
      cli = try RunningCLI(
        arguments: ["serve", sandbox.assets.path, "--port", String(port), "--jobs", "1"]
          + arguments,
        in: sandbox.root, environment: environment)
      let deadline = ContinuousClock.now + .seconds(30)
      while (try? RawHTTP.get("/healthz", port: port).status) != 200 {
        if ContinuousClock.now > deadline || cli.hasEnded {
          let result = await cli.wait()
          Issue.record("serve did not start: \(result)")
          throw CancellationError()
        }
        try await Task.sleep(for: .milliseconds(50))
      }
    }
  }

  @Test("SIGTERM mid-render: the render finishes, its request gets 200, exit 0")
  func sigtermDrains() async throws {
    // A generous `serve.timeout`: the claim is the drain, not how fast a loaded machine
    // renders the big photo.
    let server = try await Running(bigPhoto: true, serve: "serve:\n  timeout: 600\n")
    let port = server.port
    // On a thread of its own: a blocking socket call must not wait for a thread of the
    // (small, shared) cooperative pool, or the render may not start before the deadline.
    let slow = Task {
      try await offPool { try RawHTTP.get("/unsafe/variants/Photos/Big@1x.png", port: port) }
    }
    // Wait until the render is running, then ask the server to stop.
    let deadline = ContinuousClock.now + .seconds(20)
    while true {
      let metrics = try RawHTTP.get("/metrics", port: port)
      if String(decoding: metrics.body, as: UTF8.self).contains("thumbforge_renders_in_flight 1") {
        break
      }
      #expect(ContinuousClock.now < deadline)
      if ContinuousClock.now > deadline { break }
      try await Task.sleep(for: .milliseconds(5))
    }
    server.cli.send(SIGTERM)
    let answer = try await slow.value
    let result = await server.cli.wait()
    #expect(answer.status == 200, "\(result)")
    #expect(try VipsImage.load(bytes: answer.body).width == 3000)
    #expect(!result.signalled && result.status == 0, "\(result)")
    #expect(result.stderr.contains("GET /unsafe/variants/Photos/Big@1x.png 200"))
  }

  @Test("hostile requests: traversal, encoded separators, NUL, slow clients; others still served")
  func hostileRequests() async throws {
    // A file beside the asset folder that no request may reach.
    let server = try await Running()
    defer { server.cli.send(SIGKILL) }
    try Data("secret".utf8).write(to: server.sandbox.root.appendingPathComponent("secret.png"))
    let port = server.port
    // A client that sends half a request and then nothing.
    let stalled = try RawHTTP.connect(port: port)
    RawHTTP.send(stalled, "GET /unsafe/flag/Flags/Italy@2x.png HTTP/1.1\r\nHost: x\r\n")
    defer { close(stalled) }
    for target in [
      "/unsafe/variants/../secret@1x.png", "/unsafe/variants/..%2Fsecret@1x.png",
      "/unsafe/variants/%2e%2e/secret@1x.png", "/unsafe/variants/a%00b@1x.png",
      "/unsafe/variants/%2Ftmp%2Fsecret@1x.png", "/unsafe/variants/..\\secret@1x.png",
      "/unsafe/variants//secret@1x.png",
      "/unsafe/variants/" + String(repeating: "a", count: 2000) + "@1x.png",
      "/unsafe/fill:10000x10000/Flags/Italy@3x.png",
    ] {
      let answer = try RawHTTP.get(target, port: port)
      #expect([400, 404].contains(answer.status), "\(target) → \(answer.status)")
      #expect(!String(decoding: answer.body, as: UTF8.self).contains("secret\n"))
    }
    #expect(try RawHTTP.get("/unsafe/secret@1x.png", port: port).status == 400)
    #expect(try RawHTTP.get("/unsafe/variants/secret@1x.png", port: port).status == 404)
    // The stalled client does not keep the others waiting.
    let good = try RawHTTP.get("/unsafe/flag/Flags/Italy@2x.png", port: port)
    #expect(good.status == 200)
    #expect(try VipsImage.load(bytes: good.body).width == 80)
  }

  /// Before: connections that never finished their headers stayed open forever, and with
  /// 1 024 descriptors `/healthz` timed out.
  @Test(
    "connections: unfinished headers are closed after read-timeout; at the cap an idle one makes room"
  )
  func connectionLimits() async throws {
    let server = try await Running(serve: "serve:\n  read-timeout: 1\n  max-connections: 4\n")
    defer { server.cli.send(SIGKILL) }
    let port = server.port
    var stalled: [Int32] = []
    defer { stalled.forEach { close($0) } }
    for _ in 0..<4 {
      let fd = try RawHTTP.connect(port: port)
      RawHTTP.send(fd, "GET /healthz HTTP/1.1\r\nHost: x\r\n")
      stalled.append(fd)
    }
    // At the cap, with every connection idle: a new one gets in (the oldest idle goes).
    #expect(try RawHTTP.get("/healthz", port: port).status == 200)
    // Past read-timeout (1 s), the server closes every unfinished one: reads see the end.
    // Each is waited for up to 8 s: well past the 1 s asked for, well before the default 10 s.
    for fd in stalled {
      var waiting = pollfd(fd: fd, events: Int16(POLLIN), revents: 0)
      #expect(poll(&waiting, 1, 8_000) == 1, "a connection with unfinished headers is still open")
      var byte: UInt8 = 0
      #expect(read(fd, &byte, 1) == 0, "a connection with unfinished headers got an answer")
    }
  }

  @Test("untrusted folders: SVG masters are refused (422), raster ones still served")
  func untrustedSources() async throws {
    // In the folder before the server starts, so the first scan meets them: a BMP named
    // .png (only ImageMagick reads it) and an SVG drawing a file from outside the folder.
    // Both loaders must already be blocked then: neither file may be parsed, ever.
    let outside = FileManager.default.temporaryDirectory
      .appendingPathComponent("thumbforge-outside-\(getpid()).png")
    try Data(try Fixtures.gradient(width: 8, height: 8).encoded(as: .png)).write(to: outside)
    defer { try? FileManager.default.removeItem(at: outside) }
    let server = try await Running(serve: "serve:\n  untrusted-sources: true\n") { sandbox in
      try sandbox.write(Self.bmp(width: 4, height: 4), to: "Photos/Sneaky@2x.png")
      try sandbox.write(
        Data(
          ("<svg xmlns=\"http://www.w3.org/2000/svg\" width=\"40\" height=\"25\">"
            + "<image href=\"file://\(outside.path)\" width=\"40\" height=\"25\"/></svg>").utf8),
        to: "Flags/Outside.svg")
    }
    defer { server.cli.send(SIGKILL) }
    #expect(
      try RawHTTP.get("/unsafe/variants/Photos/Sneaky@1x.png", port: server.port).status == 422)
    #expect(try RawHTTP.get("/unsafe/flag/Flags/Outside@2x.png", port: server.port).status == 422)
    try server.sandbox.image("Photos/Small@2x.png", try Fixtures.gradient(width: 200, height: 100))
    // The folder is reloaded within two seconds of the new file (once a look shows it settled).
    var status = 0
    for _ in 0..<50 where status != 200 {
      try await Task.sleep(for: .milliseconds(100))
      status = try RawHTTP.get("/unsafe/variants/Photos/Small@1x.png", port: server.port).status
    }
    #expect(status == 200)
    #expect(try RawHTTP.get("/unsafe/flag/Flags/Italy@2x.png", port: server.port).status == 422)
  }

  @Test("a master still being written is loaded once the folder has settled, not at each change")
  func reloadWaitsForTheFolderToSettle() async throws {
    let server = try await Running()
    defer { server.cli.send(SIGKILL) }
    let marker = "asset folder changed: reloaded"
    // Rewritten every 0.1 s for 3 s, as a slow copy or repeated saves would: no look a
    // second after another agrees with it until the writes stop.
    for i in 0..<30 {
      try server.sandbox.image(
        "Photos/Growing@2x.png", try Fixtures.gradient(width: 40 + 2 * i, height: 20))
      try await Task.sleep(for: .milliseconds(100))
    }
    let reloaded = await server.cli.waitFor(seconds: 10) { _, stderr in stderr.contains(marker) }
    #expect(reloaded)
    try await Task.sleep(for: .seconds(3))
    let log = server.cli.outputSoFar().stderr
    #expect(log.components(separatedBy: marker).count - 1 == 1, "\(log)")
    let answer = try RawHTTP.get("/unsafe/variants/Photos/Growing@1x.png", port: server.port)
    #expect(answer.status == 200)
  }

  /// A 24-bit BMP of black pixels (libvips reads BMP only through ImageMagick).
  static func bmp(width: Int, height: Int) -> Data {
    let row = (width * 3 + 3) / 4 * 4
    let size = 54 + row * height
    var bytes: [UInt8] = Array("BM".utf8)
    func le(_ value: Int, _ count: Int) {
      for index in 0..<count { bytes.append(UInt8(truncatingIfNeeded: value >> (8 * index))) }
    }
    le(size, 4); le(0, 4); le(54, 4)  // file header
    le(40, 4); le(width, 4); le(height, 4); le(1, 2); le(24, 2)  // info header
    le(0, 4); le(row * height, 4); le(2835, 4); le(2835, 4); le(0, 4); le(0, 4)
    bytes += [UInt8](repeating: 0, count: row * height)
    return Data(bytes)
  }
}
