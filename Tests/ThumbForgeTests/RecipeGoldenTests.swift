import Foundation
import Testing
import ThumbForgeTestSupport
import Vips

@testable import ThumbForge
@testable import ThumbForgePlanning

/// Every recipe rendered by the real pipeline (configuration → planner → `Renderer`) from
/// small committed inputs, compared with reference PNGs in `Goldens/` next to this file.
///
/// Inputs are files of the repository's `Assets/` folder (a resort photo, the Canada flag and
/// the mountain icon, all SVG or JPEG as committed) or images generated in code by
/// `Fixtures`. Outputs are small (one or two scales of boxes of a few dozen points).
///
/// To re-record after an intended change of pixels, run
/// `THUMBFORGE_RECORD_GOLDENS=1 swift test --filter RecipeGoldenTests` (every case then fails,
/// saying it recorded), look at the new PNGs, and run again without the variable.
@Suite("Recipe goldens")
struct RecipeGoldenTests {
  /// A master for one case.
  enum Master: Sendable {
    /// A file of the repository's `Assets/` folder, copied byte for byte.
    case asset(String)
    /// `Fixtures.gradient` with alpha (ramps, a wave and a radial alpha).
    case gradient(width: Int, height: Int)
    /// `Fixtures.quadrants`: four flat colours with sharp edges.
    case quadrants(width: Int, height: Int)
  }

  struct Case: Sendable, CustomTestStringConvertible {
    /// The case's name, and the prefix of its goldens (`<name>@<scale>x.png`).
    var name: String
    var master: Master
    /// The master's file name in the asset folder (it sets the asset name and scale).
    var file: String
    /// `thumbforge.yml` after the `output:` line.
    var config: String
    /// Every catalog path the case must produce, with its scale.
    var outputs: [(path: String, scale: Int)]

    var testDescription: String { name }
  }

  /// How far an output may be from its golden. Rendering is deterministic, so on the libvips,
  /// libjpeg-turbo and librsvg that recorded the goldens the difference is 0; the tolerance
  /// leaves a little room for other versions to round edge pixels differently, and no more.
  /// Measured when choosing it: continuous instead of circular corners change the Canada flag
  /// by a mean of 0.17 (max 24 at @2x, 48 at @3x), its leaf scaled by 0.5 % by a mean of
  /// 0.22; on the resort photos, another resampling kernel or JPEG quality changes `fit` by
  /// a mean of 2.9 or more, and another gravity a crop by 20 or more. If a libvips upgrade moves pixels on purpose, look at
  /// the failures' `.actual.png` files and re-record.
  static let tolerance = ImageTolerance(meanDifference: 0.1, maxDifference: 24, hashDistance: 1)

  /// A skier left of centre: `attention` crops it in between the compass gravities.
  static let photo = Master.asset("Resorts/snowbird@2x.jpg")
  static let flag = Master.asset("Flags/Canada.svg")

  /// Expected outputs of the recipe `recipe` for `asset` at `scales`.
  static func outputs(_ asset: String, _ recipe: String?, _ ext: String, scales: [Int])
    -> [(path: String, scale: Int)]
  {
    let set = recipe.map { "\(asset)-\($0)" } ?? asset
    return scales.map { ("\(set).imageset/\(asset)@\($0)x.\(ext)", $0) }
  }

  static let cases: [Case] = [
    Case(
      name: "variants-raster", master: .gradient(width: 90, height: 60), file: "Ramp@3x.png",
      config: "scales: [1, 2, 3]\n",
      outputs: outputs("Ramp", nil, "png", scales: [1, 2, 3])),
    Case(
      name: "variants-vector", master: .asset("Icons/Mountain.svg"), file: "Mountain.svg",
      config: "scales: [1, 2, 3]\n",
      outputs: outputs("Mountain", nil, "png", scales: [1, 2, 3])),
    Case(
      name: "fit", master: photo, file: "Resort@2x.jpg",
      config: """
        rules: [{ match: "**", recipes: [fit] }]
        recipes: { fit: { size: [60, 40], scales: [2] } }

        """,
      outputs: outputs("Resort", "fit", "jpg", scales: [2])),
    Case(
      name: "fit-pad", master: photo, file: "Resort@2x.jpg",
      config: """
        rules: [{ match: "**", recipes: [padded] }]
        recipes:
          padded: { kind: fit, size: [60, 40], pad: true, background: "#3366CC", scales: [2] }

        """,
      outputs: outputs("Resort", "padded", "jpg", scales: [2])),
    Case(
      name: "fill-west", master: photo, file: "Resort@2x.jpg",
      config: """
        rules: [{ match: "**", recipes: [fill] }]
        recipes: { fill: { size: [60, 40], gravity: west, scales: [2] } }

        """,
      outputs: outputs("Resort", "fill", "jpg", scales: [2])),
    Case(
      name: "fill-attention", master: photo, file: "Resort@2x.jpg",
      config: """
        rules: [{ match: "**", recipes: [fill] }]
        recipes: { fill: { size: [60, 40], gravity: attention, scales: [2] } }

        """,
      outputs: outputs("Resort", "fill", "jpg", scales: [2])),
    Case(
      name: "tile", master: photo, file: "Resort@2x.jpg",
      config: """
        rules: [{ match: "**", recipes: [tile] }]
        recipes: { tile: { size: [40, 40], scales: [2] } }

        """,
      outputs: outputs("Resort", "tile", "jpg", scales: [2])),
    Case(
      name: "flag-circular", master: flag, file: "Canada.svg",
      config: "rules: [{ match: \"**\", recipes: [flag] }]\n",
      outputs: outputs("Canada", "flag", "png", scales: [2, 3])),
    Case(
      name: "flag-continuous", master: flag, file: "Canada.svg",
      config: """
        rules: [{ match: "**", recipes: [flag] }]
        recipes: { flag: { corner-style: continuous } }

        """,
      outputs: outputs("Canada", "flag", "png", scales: [2, 3])),
    Case(
      name: "flag-centre-stroke", master: flag, file: "Canada.svg",
      config: """
        rules: [{ match: "**", recipes: [flag] }]
        recipes: { flag: { stroke-alignment: center } }

        """,
      outputs: outputs("Canada", "flag", "png", scales: [2, 3])),
    Case(
      name: "flag-raster", master: .quadrants(width: 600, height: 300), file: "Quarters@3x.png",
      config: "rules: [{ match: \"**\", recipes: [flag] }]\n",
      outputs: outputs("Quarters", "flag", "png", scales: [2, 3])),
  ]

  @Test(arguments: cases)
  func matchesItsGoldens(_ goldenCase: Case) throws {
    let harness = try RenderHarness(config: goldenCase.config)
    defer { harness.remove() }
    try harness.add(goldenCase.master, as: goldenCase.file)
    let (_, images, problems) = try harness.render()
    #expect(problems.isEmpty, "\(problems)")
    #expect(images.keys.sorted() == goldenCase.outputs.map(\.path).sorted())

    // Every output is checked (and, when recording, written) even after one fails.
    let golden = Golden(tolerance: Self.tolerance)
    for (path, scale) in goldenCase.outputs {
      guard let image = images[path] else { continue }
      do {
        try golden.verify(image, named: "\(goldenCase.name)@\(scale)x")
      } catch {
        Issue.record(error, "\(path)")
      }
    }
  }
}

extension RenderHarness {
  /// Puts a golden case's master into the asset folder as `file`.
  fileprivate func add(_ master: RecipeGoldenTests.Master, as file: String) throws {
    switch master {
    case .asset(let path):
      let source = Fixtures.packageRoot.appendingPathComponent("Assets/\(path)")
      try FileManager.default.copyItem(at: source, to: folder.appendingPathComponent(file))
    case .gradient(let width, let height):
      try add(
        Fixtures.gradient(width: width, height: height, layout: .rgba), as: file, format: .png)
    case .quadrants(let width, let height):
      try add(Fixtures.quadrants(width: width, height: height), as: file, format: .png)
    }
  }
}
