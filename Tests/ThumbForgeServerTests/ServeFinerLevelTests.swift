import Foundation
import Testing
import ThumbForge
import ThumbForgeTestSupport
import Vips

@testable import ThumbForgeServer

/// `serve` renders a large master's outputs as `build` does: those resized from its 2x
/// variant (``MasterImage/finerLevels(_:base:)``, masters of 4 MP or more) come out with
/// the catalog's bytes too.
@Suite("serve: a large master's outputs", .timeLimit(.minutes(10)))
struct ServeFinerLevelTests {
  @Test("outputs made from a larger output are served with the catalog's bytes")
  func sameBytesAsBuildForALargeMaster() async throws {
    let harness = try ServerHarness(files: ["Flags/Italy.svg"])
    defer { harness.remove() }
    // A 4.7 MP photo without a scale suffix: a 3x master, so its 2x variant (2048×1024) is
    // the level its fills (780×390 and 1170×585 before the crop) and its 2x tile (1200×600)
    // are resized from.
    let sample = try VipsImage.load(
      path: Fixtures.packageRoot.appendingPathComponent("Assets/Resorts/les-arcs@2x.jpg").path)
    let resorts = harness.folder.appendingPathComponent("Resorts")
    try FileManager.default.createDirectory(at: resorts, withIntermediateDirectories: true)
    try Fixtures.write(
      try sample.resize(width: 3072, height: 1536, region: nil), as: .jpeg, named: "big.jpg",
      in: resorts)
    #expect(3072 * 1536 >= MasterImage.finerLevelMinimumPixels)
    try harness.build()
    let expected = [
      ("/unsafe/fill/Resorts/big@2x.jpg", "Resorts/big-fill.imageset/big@2x.jpg"),
      ("/unsafe/fill/Resorts/big@3x.jpg", "Resorts/big-fill.imageset/big@3x.jpg"),
      ("/unsafe/tile/Resorts/big@2x.jpg", "Resorts/big-tile.imageset/big@2x.jpg"),
      ("/unsafe/variants/Resorts/big@2x.jpg", "Resorts/big.imageset/big@2x.jpg"),
    ]
    let built = try expected.map { try harness.catalogFile($0.1) }
    try FileManager.default.removeItem(at: harness.catalog)
    let (server, app) = try harness.server()
    try await ServerHarness.expectServed(expected.map(\.0), bytes: built, by: app)
    #expect(server.renderCount == 1)  // one job for the master's every output
  }
}
