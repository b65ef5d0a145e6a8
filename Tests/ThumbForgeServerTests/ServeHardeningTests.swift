import Foundation
import HTTPTypes
import Hummingbird
import Testing
import ThumbForgeTestSupport
import Vips

@testable import ThumbForgeServer

/// `serve` facing hostile folders and requests; the rows that need a real
/// process, a socket or a proxy are in `Scripts/attack.sh` and `ServeCLITests`.
@Suite("serve: hardening")
struct ServeHardeningTests {
  /// A master replaced by a 4-megapixel file after the scan, before the reload: rendering it
  /// would cache the new file's output under the old master's address, past the limit.
  @Test("a master swapped before the reload is not rendered (503, then 413 once reloaded)")
  func swappedMaster() async throws {
    let harness = try ServerHarness(config: "limit-input-pixels: 3000000\n" + ServerHarness.config)
    defer { harness.remove() }
    let (server, app) = try harness.server()
    let big = try VipsImage.load(bytes: Array(Fixtures.blackPNG(width: 2000, height: 2000)))
    try Data(try big.encoded(as: .jpeg))
      .write(to: harness.folder.appendingPathComponent("Resorts/les-arcs@2x.jpg"))
    try await app.test(.router) { client in
      try await client.execute(uri: "/unsafe/tile/Resorts/les-arcs@2x.jpg", method: .get) {
        response in
        #expect(response.status == .serviceUnavailable)
        #expect(response.headers[.retryAfter] == "1")
      }
      server.reloadIfChanged()
      try await client.execute(uri: "/unsafe/tile/Resorts/les-arcs@2x.jpg", method: .get) {
        response in
        #expect(response.status == .contentTooLarge)
      }
    }
    #expect(server.renderCount <= 1)
    #expect(server.cache.usage.entries == 0)
  }

  /// A 404 body says what is missing, never which file or size the folder holds.
  @Test("a 404 body names no master file and no size")
  func notFoundBodies() async throws {
    let harness = try ServerHarness()
    defer { harness.remove() }
    let (_, app) = try harness.server()
    try await app.test(.router) { client in
      for uri in [
        "/unsafe/variants/Resorts/les-arcs@3x.jpg", "/unsafe/variants/Resorts/nothing@2x.jpg",
      ] {
        try await client.execute(uri: uri, method: .get) { response in
          #expect(response.status == .notFound, "\(uri)")
          let body = String(buffer: response.body)
          #expect(
            !body.contains(".jpg") && !body.contains("2048") && !body.contains("px"), "\(body)")
        }
      }
    }
  }
}
