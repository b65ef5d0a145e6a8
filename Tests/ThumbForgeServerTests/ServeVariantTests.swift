import Foundation
import HTTPTypes
import Hummingbird
import Testing
import ThumbForge
import ThumbForgeTestSupport
import Vips

@testable import ThumbForgeServer

/// `serve` names a dark appearance's file and a wide-gamut master's Display P3 file as the
/// catalog does (`Name~dark@2x.png`, `Name~P3@2x.png`, `Name~dark~P3@2x.png`), and sends the
/// catalog's bytes for them, built or rendered.
@Suite("serve: dark and Display P3 files", .timeLimit(.minutes(10)))
struct ServeVariantTests {
  static let config = """
    output: ../Build/Assets.xcassets
    scales: [1, 2]
    display-gamut: [sRGB, display-P3]
    rules:
      - match: "Flags/**"
        recipes: [variants, flag]
      - match: "Photos/*"
        recipes: [variants, tile]
    serve:
      cache: ../Build/serve-cache
      ad-hoc: true

    """

  /// A harness whose `Photos/Wide` has a Display P3 master and an sRGB dark master.
  static func harness() throws -> ServerHarness {
    let harness = try ServerHarness(files: ["Flags/Italy.svg"], config: config)
    let photos = harness.folder.appendingPathComponent("Photos")
    try FileManager.default.createDirectory(at: photos, withIntermediateDirectories: true)
    let light = try Fixtures.displayP3(try Fixtures.photo(width: 240, height: 160, seed: 3))
    try light.save(
      path: photos.appendingPathComponent("Wide@2x.png").path, as: .png,
      options: SaveOptions(stripMetadata: false))
    try Fixtures.photo(width: 240, height: 160, seed: 4).save(
      path: photos.appendingPathComponent("Wide~dark@2x.png").path, as: .png,
      options: SaveOptions())
    return harness
  }

  static let files = [
    "Wide@1x.png", "Wide~P3@1x.png", "Wide~dark@1x.png", "Wide@2x.png", "Wide~P3@2x.png",
    "Wide~dark@2x.png",
  ]

  @Test("each file of the imageset is served with the catalog's bytes, built or rendered")
  func catalogBytes() async throws {
    let harness = try Self.harness()
    defer { harness.remove() }
    try harness.build()
    let set = harness.catalog.appendingPathComponent("Photos/Wide.imageset")
    let names = try FileManager.default.contentsOfDirectory(atPath: set.path)
    // The dark master is sRGB: it has no P3 sibling.
    #expect(Set(names) == Set(Self.files + ["Contents.json"]))
    let built = try Self.files.map { try harness.catalogFile("Photos/Wide.imageset/\($0)") }

    // From the catalog, then (without it) rendered: the same bytes both times.
    let fromCatalog = try harness.server()
    try await Self.expectServed(zip(Self.files, built), by: fromCatalog.1)
    #expect(fromCatalog.0.renderCount == 0)
    try FileManager.default.removeItem(at: harness.catalog)
    let (fresh, app) = try harness.server()
    try await Self.expectServed(zip(Self.files, built), by: app)
    #expect(fresh.renderCount == 1)  // one job makes every file of the master
  }

  /// Requests each file of `Photos/Wide.imageset` and expects its bytes.
  static func expectServed(
    _ files: Zip2Sequence<[String], [[UInt8]]>, by app: some ApplicationProtocol
  ) async throws {
    try await app.test(.router) { client in
      for (file, bytes) in files {
        try await client.execute(uri: "/unsafe/variants/Photos/\(file)", method: .get) {
          #expect($0.status == .ok, "\(file)")
          #expect($0.bytes == bytes, "\(file)")
        }
      }
    }
  }

  @Test("outside the plan: a Display P3 file carries the P3 profile and keeps its colours")
  func outsideThePlan() async throws {
    let harness = try Self.harness()
    defer { harness.remove() }
    let (_, app) = try harness.server()
    let p3Profile = try #require(
      try Fixtures.displayP3(try Fixtures.photo(width: 8, height: 8, seed: 1)).iccProfile)
    // A box the plan does not have, in P3, in sRGB and for the dark appearance.
    let bytes = try await app.test(.router) { client in
      var bytes: [String: [UInt8]] = [:]
      for name in ["Wide~P3", "Wide", "Wide~dark"] {
        bytes[name] = try await client.execute(
          uri: "/unsafe/fill:60x40/Photos/\(name)@2x.png", method: .get
        ) {
          #expect($0.status == .ok, "\(name)")
          return $0.bytes
        }
      }
      return bytes
    }
    let wide = try VipsImage.load(bytes: try #require(bytes["Wide~P3"]))
    let narrow = try VipsImage.load(bytes: try #require(bytes["Wide"]))
    let dark = try VipsImage.load(bytes: try #require(bytes["Wide~dark"]))
    for image in [wide, narrow, dark] { #expect(image.width == 120 && image.height == 80) }
    #expect(wide.iccProfile == p3Profile)
    #expect(narrow.iccProfile == nil)
    // Shown in sRGB, the P3 file looks like the sRGB one; the dark one is another picture.
    let difference = try ImageComparison.compare(narrow, try wide.toSRGB8())
    #expect(difference.meanDifference < 2.5, "\(difference)")
    #expect(try ImageComparison.compare(dark, narrow).meanDifference > 10)
  }

  @Test("a file the asset cannot have is 404 with the reason; asset names are never split")
  func refusals() async throws {
    let harness = try Self.harness()
    defer { harness.remove() }
    // A master whose own name ends like a variant is that asset, whole.
    try Fixtures.photo(width: 80, height: 80, seed: 5).save(
      path: harness.folder.appendingPathComponent("Photos/Odd~P3@2x.png").path, as: .png,
      options: SaveOptions())
    let (_, app) = try harness.server()
    try await app.test(.router) { client in
      for (uri, reason) in [
        ("/unsafe/flag/Flags/Italy~dark@2x.png", "Flags/Italy has no dark appearance"),
        ("/unsafe/flag/Flags/Italy~P3@2x.png", "Flags/Italy has no Display P3 file"),
        ("/unsafe/variants/Photos/Nothing~P3@2x.png", "Photos/Nothing~P3"),
      ] {
        try await client.execute(uri: uri, method: .get) { response in
          #expect(response.status == .notFound, "\(uri)")
          #expect(response.text.contains(reason), "\(uri): \(response.text)")
        }
      }
      let odd = try await client.execute(
        uri: "/unsafe/variants/Photos/Odd~P3@2x.png", method: .get
      ) {
        #expect($0.status == .ok)
        return $0.bytes
      }
      #expect(try VipsImage.load(bytes: odd).iccProfile == nil)
    }
  }

  @Test("the preview page shows every file of the plan, dark and Display P3 ones too, each served")
  func previewPage() async throws {
    let harness = try Self.harness()
    defer { harness.remove() }
    let (_, app) = try harness.server()
    try await app.test(.router) { client in
      let page = try await client.execute(uri: "/", method: .get) { $0.text }
      let sources = page.components(separatedBy: "<img src=\"").dropFirst().map {
        String($0.prefix(while: { $0 != "\"" }))
      }
      let photos = sources.filter { $0.hasPrefix("/unsafe/variants/Photos/") }.map {
        String($0.dropFirst("/unsafe/variants/Photos/".count))
      }
      #expect(Set(photos) == Set(Self.files), "\(photos)")
      #expect(sources.contains("/unsafe/flag/Flags/Italy@2x.png"), "\(sources)")
      for source in sources {
        try await client.execute(uri: source, method: .get) {
          #expect($0.status == .ok, "\(source)")
        }
      }
    }
  }
}
