import Foundation
import Testing
import Vips

@testable import ThumbForge
@testable import ThumbForgeBasics
@testable import ThumbForgeConfig
@testable import ThumbForgePlanning

@Suite("Recipes on real images")
struct RecipeRenderTests {
  @Test("flag: exact sizes, transparent corners, opaque interior, dark anti-aliased border")
  func flag() throws {
    let harness = try RenderHarness(config: "rules: [{ match: \"**\", recipes: [flag] }]\n")
    defer { harness.remove() }
    try harness.add(
      TestImages.photo(width: 600, height: 300), as: "Flags/Testland@3x.png", format: .png)
    let (_, images, problems) = try harness.render()
    #expect(problems.isEmpty)
    for (scale, size) in [(2, (80, 50)), (3, (120, 75))] {
      let image = try #require(images["Flags/Testland-flag.imageset/Testland@\(scale)x.png"])
      #expect(image.width == size.0 && image.height == size.1)
      #expect(image.bands == 4 && image.hasAlpha)
      for (x, y) in [(0, 0), (size.0 - 1, 0), (0, size.1 - 1), (size.0 - 1, size.1 - 1)] {
        #expect(try image.pixel(x: x, y: y)[3] == 0, "corner \(x),\(y) at @\(scale)x")
      }
      let centre = try image.pixel(x: size.0 / 2, y: size.1 / 2)
      #expect(centre[3] == 255)
      // The 1 pt border: the top edge's middle is opaque and black.
      let border = try image.pixel(x: size.0 / 2, y: 0)
      #expect(border[3] == 255 && border[0] < 40 && border[1] < 40 && border[2] < 40)
      // Just inside the border the picture shows (not black).
      let inside = try image.pixel(x: size.0 / 4, y: scale + 1)
      #expect(inside[0] + inside[1] + inside[2] > 120)
      // Anti-aliasing: alpha takes intermediate values along the corner curve.
      let radius = 5 * scale
      var partial = 0
      for y in 0..<radius {
        for x in 0..<radius {
          let alpha = try image.pixel(x: x, y: y)[3]
          if alpha > 0 && alpha < 255 { partial += 1 }
        }
      }
      #expect(
        partial >= radius / 2, "only \(partial) partially transparent corner pixels at @\(scale)x")
    }
  }

  @Test("flag: continuous corners differ from circular and stay transparent at the corner")
  func continuousCorners() throws {
    let circular = try RenderHarness(config: "rules: [{ match: \"**\", recipes: [flag] }]\n")
    let continuous = try RenderHarness(
      config:
        "rules: [{ match: \"**\", recipes: [flag] }]\nrecipes: { flag: { corner-style: continuous, stroke-width: 0 } }\n"
    )
    defer {
      circular.remove()
      continuous.remove()
    }
    let photo = try TestImages.photo(width: 600, height: 300)
    try circular.add(photo, as: "A@3x.png", format: .png)
    try continuous.add(photo, as: "A@3x.png", format: .png)
    let a = try #require(try circular.render().images["A-flag.imageset/A@3x.png"])
    let b = try #require(try continuous.render().images["A-flag.imageset/A@3x.png"])
    #expect(try b.pixel(x: 0, y: 0)[3] == 0)
    #expect(try b.pixel(x: 60, y: 37)[3] == 255)
    #expect(try TestImages.meanDifference(a, b) > 0.5)
  }

  @Test("flag: centre-aligned stroke grows the canvas and keeps the corners clear")
  func centreStroke() throws {
    let harness = try RenderHarness(
      config:
        "rules: [{ match: \"**\", recipes: [flag] }]\nrecipes: { flag: { stroke-alignment: center, scales: [2] } }\n"
    )
    defer { harness.remove() }
    try harness.add(TestImages.photo(width: 600, height: 300), as: "A@3x.png", format: .png)
    let image = try #require(try harness.render().images["A-flag.imageset/A@2x.png"])
    #expect(image.width == 82 && image.height == 52)
    #expect(try image.pixel(x: 0, y: 0)[3] == 0)
    let top = try image.pixel(x: 41, y: 1)
    #expect(top[3] == 255 && top[0] < 40)
  }

  @Test("fill equals the matching region of a plain resize")
  func fillMatchesResize() throws {
    let harness = try RenderHarness(
      config:
        "rules: [{ match: \"**\", recipes: [fill, tile] }]\nrecipes: { fill: { size: [200, 100], gravity: east } }\n"
    )
    defer { harness.remove() }
    let photo = try TestImages.photo(width: 1200, height: 900)
    try harness.add(photo, as: "P@3x.png", format: .png)
    let (plan, images, _) = try harness.render()
    for set in try #require(plan.jobs.first?.imageSets) {
      for output in set.outputs {
        let image = try #require(images[output.path])
        #expect(image.width == output.pixelSize.width && image.height == output.pixelSize.height)
        let crop = try #require(output.crop)
        let reference = try photo.resize(
          width: output.resizeTo.width, height: output.resizeTo.height
        )
        .crop(x: crop.x, y: crop.y, width: crop.width, height: crop.height)
        #expect(try TestImages.meanDifference(image, reference) < 1.5, "\(output.path)")
      }
    }
    // gravity east keeps the right edge.
    let east = try #require(plan.jobs.first?.imageSets.first?.outputs.first?.crop)
    #expect(east.x + east.width == plan.jobs[0].imageSets[0].outputs[0].resizeTo.width)
  }

  @Test("fill with attention gravity gives the exact box")
  func smartFill() throws {
    let harness = try RenderHarness(
      config:
        "rules: [{ match: \"**\", recipes: [fill] }]\nrecipes: { fill: { size: [100, 100], gravity: attention } }\n"
    )
    defer { harness.remove() }
    try harness.add(TestImages.photo(width: 900, height: 450), as: "P@3x.jpg", format: .jpeg)
    let (_, images, problems) = try harness.render()
    #expect(problems.isEmpty)
    #expect(
      images["P-fill.imageset/P@2x.jpg"]?.width == 200
        && images["P-fill.imageset/P@3x.jpg"]?.height == 300)
  }

  @Test("fit never exceeds the box and touches it; pad gives the exact box")
  func fit() throws {
    let harness = try RenderHarness(
      config: """
        rules: [{ match: "**", recipes: [fit, boxed] }]
        recipes:
          fit: { size: [100, 100] }
          boxed: { kind: fit, size: [100, 100], pad: true, background: "#FF0000" }
        """)
    defer { harness.remove() }
    try harness.add(TestImages.photo(width: 1000, height: 600), as: "P@3x.jpg", format: .jpeg)
    let (_, images, _) = try harness.render()
    let fit = try #require(images["P-fit.imageset/P@3x.jpg"])
    #expect(fit.width == 300 && fit.height == 180)
    let boxed = try #require(images["P-boxed.imageset/P@3x.jpg"])
    #expect(boxed.width == 300 && boxed.height == 300)
    let padding = try boxed.pixel(x: 150, y: 2)
    #expect(padding[0] > 200 && padding[1] < 50)
  }

  @Test(
    "focus: a rule's focal point, or an asset's own (which wins), moves fill and tile crops to keep a marked spot inside"
  )
  func focusPoint() throws {
    // A grey 600×200 master with a red 20×20 mark near its right edge, at (0.9, 0.5).
    let red = try VipsImage.solid(width: 20, height: 20, color: [255, 0, 0])
    let master = try red.embed(
      x: 530, y: 90, width: 600, height: 200, extend: .background, background: [128, 128, 128])
    func reds(_ image: VipsImage) throws -> Int {
      var count = 0
      for y in stride(from: 0, to: image.height, by: 2) {
        for x in stride(from: 0, to: image.width, by: 2) {
          let pixel = try image.pixel(x: x, y: y)
          if pixel[0] > 200 && pixel[1] < 60 { count += 1 }
        }
      }
      return count
    }
    // The rule's focus alone; then a rule pointing away from the mark, overridden by the
    // asset's own focus.
    let cases: [(rule: String?, asset: String?)] = [
      (nil, nil), ("[0.9, 0.5]", nil), ("[0.1, 0.5]", "[0.9, 0.5]"),
    ]
    for (focus, assetFocus) in cases {
      let harness = try RenderHarness(
        config: """
          rules: [{ match: "**", recipes: [fill, tile]\(focus.map { ", focus: \($0)" } ?? "") }]
          recipes:
            fill: { size: [50, 50], scales: [2] }
            tile: { size: [100, 100], scales: [2] }
          \(assetFocus.map { "assets: { Mark: { focus: \($0) } }" } ?? "")

          """)
      defer { harness.remove() }
      try harness.add(master, as: "Mark@3x.png", format: .png)
      let (plan, images, problems) = try harness.render()
      #expect(problems.isEmpty)
      let fill = try #require(images["Mark-fill.imageset/Mark@2x.png"])
      let tile = try #require(images["Mark-tile.imageset/Mark@2x.png"])
      #expect(fill.width == 100 && fill.height == 100 && tile.width == 200 && tile.height == 200)
      if focus == nil {
        // Centred crops (gravity: center) leave the mark out.
        #expect(try reds(fill) == 0 && reds(tile) == 0)
      } else {
        #expect(try reds(fill) > 10 && reds(tile) > 10, "the mark is inside both crops")
        let set = try #require(plan.jobs.first?.imageSets.first { $0.recipe.name == "fill" })
        #expect(set.focus == FocusPoint(x: 0.9, y: 0.5))
        // At the right edge: the crop goes as far as the master allows.
        #expect(set.outputs[0].crop?.x == set.outputs[0].resizeTo.width - 100)
      }
    }
  }

  @Test("upscale: keep renders a small master at its own resolution, the centre of it for tiles")
  func upscaleKeepRender() throws {
    let harness = try RenderHarness(
      config: """
        rules: [{ match: "**", recipes: [tile, fit] }]
        recipes:
          tile: { size: [200, 200], scales: [2], upscale: keep }
          fit: { size: [400, 400], scales: [2], upscale: keep }

        """)
    defer { harness.remove() }
    let photo = try TestImages.photo(width: 300, height: 200)
    try harness.add(photo, as: "Small@3x.png", format: .png)
    let (_, images, problems) = try harness.render()
    #expect(problems.isEmpty)
    let tile = try #require(images["Small-tile.imageset/Small@2x.png"])
    #expect(tile.width == 200 && tile.height == 200)
    // The kept crop is the master's centre, pixel for pixel.
    let centre = try photo.crop(x: 50, y: 0, width: 200, height: 200)
    #expect(try TestImages.meanDifference(tile, centre) < 0.5)
    let fit = try #require(images["Small-fit.imageset/Small@2x.png"])
    #expect(fit.width == 300 && fit.height == 200)
    #expect(try TestImages.meanDifference(fit, photo) < 0.5)
  }

  @Test("vector masters render crisp at each scale, not upscaled from 1x")
  func vectorSharpness() throws {
    let harness = try RenderHarness(config: "scales: [1, 3]\n")
    defer { harness.remove() }
    let svg = """
      <svg xmlns="http://www.w3.org/2000/svg" width="40" height="40" viewBox="0 0 40 40">
      <rect width="40" height="40" fill="#fff"/><path d="M2 38 L20 3 L38 38 Z" fill="#123"/>
      <circle cx="20" cy="26" r="5" fill="#e33"/></svg>
      """
    try harness.add(text: svg, as: "Icon.svg")
    let (_, images, _) = try harness.render()
    let one = try #require(images["Icon.imageset/Icon@1x.png"])
    let three = try #require(images["Icon.imageset/Icon@3x.png"])
    #expect(one.width == 40 && three.width == 120)
    let direct = try VipsImage.svg(svg, scale: 3)
    let upscaled = try one.resize(width: 120, height: 120)
    let directDifference = try TestImages.meanDifference(three, direct)
    let upscaledDifference = try TestImages.meanDifference(three, upscaled)
    #expect(directDifference < 0.5)
    #expect(upscaledDifference > directDifference + 0.5)
  }
}
