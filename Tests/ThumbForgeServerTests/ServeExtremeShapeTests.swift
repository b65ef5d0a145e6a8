import Foundation
import HTTPTypes
import Hummingbird
import Testing
import ThumbForgeTestSupport

@testable import ThumbForgeServer

/// One GET of a 1×2 000 000 master (a 4 KB PNG) through the built-in `fill` at 3x killed the
/// server (SIGILL in an `Int32` conversion). It is now refused from the plan, 413, and the
/// server goes on answering.
@Suite("serve: extreme shapes")
struct ServeExtremeShapeTests {
  @Test("a master too thin for its box is 413; the next request is served")
  func thinMasterIs413() async throws {
    let harness = try ServerHarness(
      config: ServerHarness.config + "  ad-hoc: true\n  max-size: 1000\n")
    defer { harness.remove() }
    try Fixtures.blackPNG(width: 1, height: 2_000_000)
      .write(to: harness.folder.appendingPathComponent("Resorts/pole@2x.png"))
    let (_, app) = try harness.server()
    try await app.test(.router) { client in
      for uri in [
        "/unsafe/fill/Resorts/pole@3x.png", "/unsafe/tile/Resorts/pole@2x.png",
        "/unsafe/fill/Resorts/pole@2x.png",
      ] {
        try await client.execute(uri: uri, method: .get) { response in
          #expect(response.status == .contentTooLarge, "\(uri)")
        }
      }
      try await client.execute(uri: "/unsafe/flag/Flags/Italy@2x.png", method: .get) {
        response in
        #expect(response.status == .ok)
      }
    }
  }
}
