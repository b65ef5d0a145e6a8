import Foundation
import Testing
import ThumbForgeTestSupport
import Vips

@testable import ThumbForge
@testable import ThumbForgeBasics
@testable import ThumbForgeConfig
@testable import ThumbForgePlanning
@testable import ThumbForgeRendering

/// Masters of every aspect ratio from 1×1 to 1×10⁶ and 10⁶×1, through every boxed recipe
/// (centre and smart gravity, a centred stroke) at every scale: each output is either
/// written at exactly its planned size, or refused with a problem naming its master; the
/// process never traps.
@Suite("Extreme shapes")
struct ExtremeShapeTests {
  static let shapes: [(Int, Int)] = [
    (1, 1), (1, 3), (2, 1), (1, 1000), (1000, 1), (1, 100_000), (100_000, 1), (1, 1_000_000),
    (1_000_000, 1), (7, 300_000),
  ]

  static let config = """
    scales: [1, 2, 3]
    rules: [{ match: "**", recipes: [variants, fit, fill, flag, tile, smart, framed, padded] }]
    recipes:
      smart: { kind: fill, size: [400, 200], gravity: attention }
      framed: { kind: tile, size: [50, 50], stroke-width: 2, stroke-alignment: center }
      padded: { kind: fit, size: [80, 40], pad: true, upscale: allow }

    """

  @Test("each output is its planned size or a named refusal", arguments: shapes)
  func shape(width: Int, height: Int) throws {
    let harness = try RenderHarness(config: Self.config)
    defer { harness.remove() }
    let name = "Shape\(width)x\(height)"
    try Data(Fixtures.blackPNG(width: width, height: height))
      .write(to: harness.folder.appendingPathComponent(name + ".png"))
    let (plan, images, problems) = try harness.render()
    for problem in problems {
      #expect(problem.path == name + ".png", "\(problem)")
    }
    let planned = plan.jobs.flatMap(\.imageSets).flatMap(\.outputs)
    #expect(!planned.isEmpty)
    for output in planned {
      guard let image = images[output.path] else {
        // Not written: only its own refusal may explain it (the limits refuse this very
        // output, and the master's problem says so), not another output's.
        #expect(
          RenderLimits().refusal(of: output) != nil,
          "\(output.path) missing though the limits accept it: \(problems)")
        #expect(
          problems.contains { $0.kind == .tooLarge && $0.path == name + ".png" },
          "\(output.path) missing without a refusal: \(problems)")
        continue
      }
      #expect(
        image.width == output.pixelSize.width && image.height == output.pixelSize.height,
        "\(output.path)")
    }
  }

  @Test("costs: a smart crop that enlarges works on the master; sides over libvips' limit")
  func plannedCosts() throws {
    let master = Master(
      path: "Pole.png", scale: 1, isVector: false, isDark: false, fileExtension: "png",
      pixelSize: PixelSize(width: 1, height: 5000), hasAlpha: false, isPlainSRGB: true,
      hash: "x")
    var recipe = Recipe.builtin(.fill)
    recipe.gravity = .attention
    recipe.size = PointSize(width: 400, height: 200)
    let planner = OutputPlanner(recipe: recipe, asset: "Pole", folder: "Pole-fill.imageset")
    guard case .output(let output, _) = planner.output(masters: [master], slot: Slot(scale: 2))
    else {
      Issue.record("not planned")
      return
    }
    #expect(output.resizeTo == PixelSize(width: 800, height: 4_000_000))
    #expect(output.cost.input == 5000)
    #expect(output.cost.working == 800 * 400)
    #expect(output.cost.largestSide == 4_000_000)
    #expect(RenderLimits().refusal(of: output) == nil)
    var tall = master
    tall.pixelSize = PixelSize(width: 1, height: 2_000_000)
    guard case .output(let far, _) = planner.output(masters: [tall], slot: Slot(scale: 3)) else {
      Issue.record("not planned")
      return
    }
    #expect(RenderLimits().refusal(of: far)?.contains("10000000 pixels a side") == true)
    #expect(
      RenderLimits(renderPixels: 100_000).refusal(of: output)?.contains("limit-render-pixels")
        == true)
  }
}
