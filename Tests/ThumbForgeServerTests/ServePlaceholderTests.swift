import Foundation
import HTTPTypes
import Hummingbird
import Testing
import ThumbForge

@testable import ThumbForgeServer

/// `GET /{signature}/{recipe}/{asset}.thumbhash`: the placeholder the last build recorded.
@Suite("serve: placeholders", .timeLimit(.minutes(5)))
struct ServePlaceholderTests {
  /// The manifest's entry of `folder`, as JSON.
  static func entry(_ harness: ServerHarness, folder: String) throws -> [String: Any] {
    let manifest = try JSONSerialization.jsonObject(
      with: Data(contentsOf: harness.root.appendingPathComponent("Build/manifest.json")))
    let sets = (manifest as? [String: Any])?["imageSets"] as? [[String: Any]] ?? []
    return try #require(sets.first { $0["folder"] as? String == folder })
  }

  @Test("the manifest's ThumbHash and the point size, as JSON with an ETag; 404s that say why")
  func served() async throws {
    let harness = try ServerHarness(config: ServerHarness.config + "placeholders: thumbhash\n")
    defer { harness.remove() }
    let (_, unbuilt) = try harness.server()
    try await unbuilt.test(.router) { client in
      try await client.execute(uri: "/unsafe/flag/Flags/Italy.thumbhash", method: .get) {
        response in
        #expect(response.status == .notFound)
        #expect(String(buffer: response.body).contains("run thumbforge build"))
      }
    }
    try harness.build()
    let flag = try Self.entry(harness, folder: "Flags/Italy-flag.imageset")
    let thumbHash = try #require(flag["thumbHash"] as? String)
    let (_, app) = try harness.server()
    try await app.test(.router) { client in
      let etag = try await client.execute(
        uri: "/unsafe/flag/Flags/Italy.thumbhash", method: .get
      ) { response in
        #expect(response.status == .ok)
        #expect(response.headers[.contentType] == "application/json")
        #expect(
          String(buffer: response.body)
            == "{\"height\":25,\"thumbHash\":\"\(thumbHash)\",\"width\":40}\n")
        return try #require(response.headers[.eTag])
      }
      try await client.execute(
        uri: "/unsafe/flag/Flags/Italy.thumbhash", method: .get, headers: [.ifNoneMatch: etag]
      ) { response in
        #expect(response.status == .notModified)
      }
      let photo = try Self.entry(harness, folder: "Resorts/les-arcs-tile.imageset")
      try await client.execute(uri: "/unsafe/tile/Resorts/les-arcs.thumbhash", method: .get) {
        response in
        #expect(String(buffer: response.body).contains("\"thumbHash\":\"\(photo["thumbHash"]!)\""))
        #expect(String(buffer: response.body).contains("\"width\":300"))
      }
      for (uri, status) in [
        ("/unsafe/tile/Flags/Italy.thumbhash", HTTPResponse.Status.notFound),
        ("/unsafe/flag/Flags/Nowhere.thumbhash", .notFound),
        ("/unsafe/fill:10x10/Flags/Italy.thumbhash", .badRequest),
        ("/unsafe/flag/.thumbhash", .badRequest),
        ("/nosig/flag/Flags/Italy.thumbhash", .forbidden),
      ] {
        try await client.execute(uri: uri, method: .get) { response in
          #expect(response.status == status, "\(uri)")
        }
      }
    }
  }

  @Test("a signed placeholder path: the signature covers it like an image's")
  func signed() async throws {
    let harness = try ServerHarness(config: ServerHarness.config + "placeholders: thumbhash\n")
    defer { harness.remove() }
    try harness.build()
    let environment = [
      "THUMBFORGE_KEY": String(repeating: "ab", count: 32),
      "THUMBFORGE_SALT": String(repeating: "cd", count: 16),
    ]
    let signer = try #require(try URLSigner.fromEnvironment(environment))
    let path = "/flag/Flags/Italy.thumbhash"
    let (_, app) = try harness.server(environment: environment)
    try await app.test(.router) { client in
      try await client.execute(uri: signer.signed(path), method: .get) {
        response in
        #expect(response.status == .ok)
      }
      try await client.execute(uri: "/unsafe" + path, method: .get) { response in
        #expect(response.status == .forbidden)
      }
    }
  }

  @Test("without placeholders in the configuration: 404 naming the setting")
  func off() async throws {
    let harness = try ServerHarness()
    defer { harness.remove() }
    try harness.build()
    let (_, app) = try harness.server()
    try await app.test(.router) { client in
      try await client.execute(uri: "/unsafe/flag/Flags/Italy.thumbhash", method: .get) {
        response in
        #expect(response.status == .notFound)
        #expect(String(buffer: response.body).contains("placeholders: thumbhash"))
      }
    }
  }
}
