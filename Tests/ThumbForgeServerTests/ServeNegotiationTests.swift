import Foundation
import HTTPTypes
import Hummingbird
import Testing
import ThumbForge
import Vips

@testable import ThumbForgeServer

/// `.auto` requests: the format from `Accept` (AVIF, WebP, else the recipe's own), with
/// `Vary: Accept`; and `.avif` paths.
@Suite("serve: Accept negotiation and AVIF", .timeLimit(.minutes(10)))
struct ServeNegotiationTests {
  static let chrome = "image/avif,image/webp,image/apng,image/svg+xml,image/*,*/*;q=0.8"

  @Test("Accept picks AVIF, then WebP, else the recipe's own format; Vary: Accept")
  func negotiation() async throws {
    let harness = try ServerHarness()
    defer { harness.remove() }
    let (_, app) = try harness.server()
    let avif = Vips.canSave(.avif)
    let photo = "/unsafe/tile/Resorts/les-arcs@2x.auto"
    let cases: [(String, String?, String)] = [
      (photo, Self.chrome, avif ? "image/avif" : "image/webp"),
      (photo, "image/webp", "image/webp"),
      (photo, "image/avif;q=0, image/webp;q=0.5", "image/webp"),
      (photo, "image/*,*/*;q=0.8", "image/jpeg"),
      (photo, nil, "image/jpeg"),
      ("/unsafe/flag/Flags/Italy@2x.auto", "*/*", "image/png"),
      ("/unsafe/flag/Flags/Italy@2x.auto", "image/webp", "image/webp"),
    ]
    try await app.test(.router) { client in
      for (uri, accept, type) in cases {
        var headers = HTTPFields()
        if let accept { headers[.accept] = accept }
        try await client.execute(uri: uri, method: .get, headers: headers) { response in
          #expect(response.status == .ok, "\(uri) \(accept ?? "-")")
          #expect(response.headers[.contentType] == type, "\(uri) \(accept ?? "-")")
          #expect(response.headers[.vary] == "Accept", "\(uri)")
          let image = try VipsImage.load(bytes: response.bytes)
          #expect(image.width == (uri.contains("flag") ? 80 : 600))
        }
      }
      // A fixed extension is not negotiated.
      try await client.execute(
        uri: "/unsafe/tile/Resorts/les-arcs@2x.jpg", method: .get,
        headers: [.accept: Self.chrome]
      ) { response in
        #expect(response.headers[.contentType] == "image/jpeg")
        #expect(response.headers[.vary] == nil)
      }
    }
  }

  @Test(
    "AVIF outputs: same bytes from two servers, and as .auto for an AVIF browser",
    .enabled(if: Vips.canSave(.avif), "no AV1 encoder in libheif here"))
  func avifDeterministic() async throws {
    var bodies: [[UInt8]] = []
    for _ in 0..<2 {
      let harness = try ServerHarness()
      defer { harness.remove() }
      let (_, app) = try harness.server()
      bodies += try await app.test(.router) { client in
        let fixed = try await client.execute(
          uri: "/unsafe/fill/Resorts/les-arcs@2x.avif", method: .get
        ) { response in
          #expect(response.status == .ok)
          #expect(response.headers[.contentType] == "image/avif")
          return response.bytes
        }
        let negotiated = try await client.execute(
          uri: "/unsafe/fill/Resorts/les-arcs@2x.auto", method: .get,
          headers: [.accept: Self.chrome]
        ) { response in
          #expect(response.headers[.contentType] == "image/avif")
          return response.bytes
        }
        return [fixed, negotiated]
      }
    }
    #expect(bodies.count == 4)
    #expect(Set(bodies).count == 1, "AVIF bytes differ between renders")
    let image = try VipsImage.load(bytes: bodies[0])
    #expect(image.width == 780 && image.height == 240)
  }

  @Test("ServePath: .auto leaves the format to the server; .avif is AVIF")
  func paths() throws {
    #expect(try ServePath("/unsafe/tile/Resorts/les-arcs@2x.auto").format == nil)
    #expect(try ServePath("/unsafe/tile/Resorts/les-arcs@2x.AVIF").format == .avif)
    #expect(throws: ServePathError.self) { try ServePath("/unsafe/tile/a@2x.gif") }
  }

  @Test("Accept parsing: explicit types with a quality above 0; no wildcards")
  func acceptHeader() {
    let header = AcceptHeader(" image/AVIF ; q=0.9,image/webp;q=0 ,text/html")
    #expect(header.accepts("image/avif"))
    #expect(!header.accepts("image/webp"))
    #expect(header.accepts("text/html"))
    #expect(!AcceptHeader("image/*,*/*").accepts("image/avif"))
  }
}
