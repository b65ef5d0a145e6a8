import Foundation
import HTTPTypes
import Hummingbird
import Testing
import ThumbForge
import Vips

@testable import ThumbForgeServer

@Suite("serve: images and statuses", .timeLimit(.minutes(10)))
struct ImageServerTests {
  @Test("catalog outputs are sent as built; without a catalog, rendered to the same bytes")
  func sameBytesAsBuild() async throws {
    let harness = try ServerHarness()
    defer { harness.remove() }
    try harness.build()
    let expected = [
      ("/unsafe/flag/Flags/Austria@2x.png", "Flags/Austria-flag.imageset/Austria@2x.png"),
      ("/unsafe/tile/Resorts/les-arcs@3x.jpg", "Resorts/les-arcs-tile.imageset/les-arcs@3x.jpg"),
      ("/unsafe/fill/Resorts/les-arcs@2x.jpg", "Resorts/les-arcs-fill.imageset/les-arcs@2x.jpg"),
      (
        "/unsafe/variants/Flags/United%20States@3x.png",
        "Flags/United States.imageset/United States@3x.png"
      ),
    ]
    let built = try expected.map { try harness.catalogFile($0.1) }
    let (server, app) = try harness.server()
    try await ServerHarness.expectServed(expected.map(\.0), bytes: built, by: app)
    #expect(server.renderCount == 0)  // all from the catalog

    // Without the catalog every output is rendered, to the same bytes.
    try FileManager.default.removeItem(at: harness.catalog)
    let (fresh, app2) = try harness.server()
    try await ServerHarness.expectServed(expected.map(\.0), bytes: built, by: app2)
    // One render per source job: the photo's three outputs come from one job.
    #expect(fresh.renderCount == 3)
  }

  @Test func headersETagAnd304AndHead() async throws {
    let harness = try ServerHarness()
    defer { harness.remove() }
    let (_, app) = try harness.server()
    try await app.test(.router) { client in
      let uri = "/unsafe/flag/Flags/Italy@2x.png"
      let etag = try await client.execute(uri: uri, method: .get) { response in
        #expect(response.status == .ok)
        #expect(response.headers[.contentType] == "image/png")
        #expect(response.headers[.contentLength] == String(response.bytes.count))
        #expect(response.headers[.cacheControl] == "public, max-age=3600")
        return try #require(response.headers[.eTag])
      }
      #expect(etag.hasPrefix("\"") && etag.count == 66)
      try await client.execute(uri: uri, method: .get, headers: [.ifNoneMatch: etag]) { response in
        #expect(response.status == .notModified)
        #expect(response.bytes.isEmpty)
        #expect(response.headers[.eTag] == etag)
        #expect(response.headers[.cacheControl] == "public, max-age=3600")
        #expect(response.headers[.contentType] == nil)
      }
      // A weak validator, a list and `*` name it too, for GET and HEAD alike.
      for header in ["W/" + etag, "\"other\", " + etag, "*"] {
        for method in [HTTPRequest.Method.get, .head] {
          try await client.execute(uri: uri, method: method, headers: [.ifNoneMatch: header]) {
            response in
            #expect(response.status == .notModified, "\(method) If-None-Match: \(header)")
          }
        }
      }
      // Only images have a validator: a health check is answered in full.
      try await client.execute(uri: "/healthz", method: .get, headers: [.ifNoneMatch: "*"]) {
        response in
        #expect(response.status == .ok)
      }
      try await client.execute(uri: uri, method: .get, headers: [.ifNoneMatch: "\"other\""]) {
        response in
        #expect(response.status == .ok)
      }
      try await client.execute(uri: uri, method: .head) { response in
        #expect(response.status == .ok)
        #expect(response.bytes.isEmpty)
        #expect(Int(response.headers[.contentLength] ?? "") ?? 0 > 0)
        #expect(response.headers[.eTag] == etag)
      }
      try await client.execute(uri: uri, method: .post) { response in
        #expect(response.status == .methodNotAllowed)
      }
    }
  }

  @Test func statuses() async throws {
    let harness = try ServerHarness(
      config: ServerHarness.config + "  ad-hoc: true\n  max-size: 1000\n")
    defer { harness.remove() }
    // An empty master and a truncated one (over the pixel limit: overThePixelLimitIs413).
    try Data(repeating: 0, count: 0).write(
      to: harness.folder.appendingPathComponent("Resorts/empty@2x.jpg"))
    let photo = try Data(
      contentsOf: harness.folder.appendingPathComponent("Resorts/les-arcs@2x.jpg"))
    try photo.prefix(photo.count / 3).write(
      to: harness.folder.appendingPathComponent("Resorts/cut@2x.jpg"))
    let (_, app) = try harness.server()
    let cases: [(String, HTTPResponse.Status)] = [
      ("/unsafe/fill:600x400/Resorts/les-arcs@2x.jpg", .ok),
      ("/unsafe/fit:300x300/Resorts/les-arcs@1x.webp", .ok),
      ("/unsafe/fill:10000x10000/Resorts/les-arcs@2x.jpg", .badRequest),
      ("/unsafe/nope/Flags/Italy@2x.png", .badRequest),
      ("/unsafe/flag/Flags/Italy@5x.png", .badRequest),
      ("/unsafe/flag/Flags/Italy@2x.gif", .badRequest),
      ("/unsafe/flag/Flags/..@2x.png", .notFound),  // a name, not a `..` segment: no such asset
      ("/unsafe/flag/Flags/Atlantis@2x.png", .notFound),
      ("/signature/flag/Flags/Italy@2x.png", .forbidden),
      ("/unsafe/variants/Resorts/les-arcs@3x.jpg", .notFound),  // a 2x master is not enlarged
      ("/unsafe/tile/Resorts/empty@2x.jpg", .unprocessableContent),
      ("/unsafe/tile/Resorts/cut@2x.jpg", .unprocessableContent),
      ("/healthz", .ok), ("/readyz", .ok), ("/nothing", .badRequest),
    ]
    try await app.test(.router) { client in
      for (uri, status) in cases {
        try await client.execute(uri: uri, method: .get) { response in
          #expect(response.status == status, "\(uri): \(response.text)")
          if response.status != .ok {
            #expect(!response.text.contains(harness.root.path), "\(uri) leaks a path")
            #expect(!response.text.lowercased().contains("vips"), "\(uri) leaks libvips")
          }
        }
      }
    }
  }

  @Test func overThePixelLimitIs413() async throws {
    let harness = try ServerHarness(config: ServerHarness.config + "limit-input-pixels: 100000\n")
    defer { harness.remove() }
    let (_, app) = try harness.server()
    try await app.test(.router) { client in
      try await client.execute(uri: "/unsafe/tile/Resorts/les-arcs@2x.jpg", method: .get) {
        response in
        #expect(response.status == .contentTooLarge)
      }
      try await client.execute(uri: "/unsafe/flag/Flags/Italy@2x.png", method: .get) {
        response in
        #expect(response.status == .ok)
      }
    }
  }
}
