import Foundation
import Testing
import ThumbForgeTestSupport
import Vips

@testable import ThumbForge
@testable import ThumbForgePlanning
@testable import ThumbForgeRendering

@Suite("Orientation, colour spaces and bit depths")
struct InputVarietyTests {
  /// Stored pixels that EXIF orientation `o` turns back into `upright`.
  static func stored(_ upright: VipsImage, orientation: Int) throws -> VipsImage {
    switch orientation {
    case 2: try upright.flipped(horizontal: true)
    case 3: try upright.rotated(degrees: 180)
    case 4: try upright.flipped(horizontal: false)
    case 5: try upright.rotated(degrees: 90).flipped(horizontal: true)
    case 6: try upright.rotated(degrees: 270)
    case 7: try upright.rotated(degrees: 270).flipped(horizontal: true)
    case 8: try upright.rotated(degrees: 90)
    default: upright
    }
  }

  @Test("EXIF orientations 1–8 give visually identical outputs")
  func orientations() throws {
    let harness = try RenderHarness(
      config: "rules: [{ match: \"**\", recipes: [variants, tile, flag] }]\nscales: [1, 2]\n")
    defer { harness.remove() }
    let upright = try TestImages.photo(width: 600, height: 400)
    for orientation in 1...8 {
      let pixels = try Self.stored(upright, orientation: orientation)
      // The fixture is right: libvips' autorot turns it back into the upright picture.
      let check = try pixels.settingInt("orientation", orientation).autoRotated()
      #expect(check.width == 600 && check.height == 400)
      #expect(
        try TestImages.meanDifference(check, upright) == 0, "fixture for orientation \(orientation)"
      )
      try harness.add(
        pixels.settingInt("orientation", orientation), as: "O\(orientation)@2x.jpg", format: .jpeg,
        keepMetadata: true)
    }
    let (_, images, problems) = try harness.render()
    #expect(problems.isEmpty)
    for recipe in ["", "-tile", "-flag"] {
      let ext = recipe == "-flag" ? "png" : "jpg"
      let reference = try #require(images["O1\(recipe).imageset/O1@2x.\(ext)"])
      for orientation in 2...8 {
        let image = try #require(
          images["O\(orientation)\(recipe).imageset/O\(orientation)@2x.\(ext)"])
        #expect(image.width == reference.width && image.height == reference.height)
        #expect(
          try TestImages.meanDifference(image, reference) < 3,
          "orientation \(orientation) \(recipe)")
      }
    }
  }

  @Test(
    "CMYK JPEG, 16-bit PNG, greyscale and greyscale+alpha become 8-bit sRGB of the right colour")
  func colourSpaces() throws {
    let harness = try RenderHarness(config: "scales: [1]\nmaster-scale: 1\n")
    defer { harness.remove() }
    let photo = try TestImages.photo(width: 300, height: 200)
    try harness.add(photo.colourspace(.cmyk), as: "cmyk.jpg", format: .jpeg, keepMetadata: true)
    try harness.add(photo.colourspace(.rgb16), as: "deep.png", format: .png)
    let grey = try photo.colourspace(.bw)
    try harness.add(grey, as: "grey.png", format: .png)
    try harness.add(grey.addingAlpha(), as: "greyalpha.png", format: .png)
    let (_, images, problems) = try harness.render()
    #expect(problems.isEmpty, "\(problems)")
    // CMYK cannot hold the test picture's saturated primaries, so the reference is libvips'
    // own conversion of the CMYK file; the original is only roughly matched.
    let cmykFile = try VipsImage.load(path: harness.folder.appendingPathComponent("cmyk.jpg").path)
    #expect(cmykFile.interpretation == .cmyk && cmykFile.bands == 4)
    let cmykReference = try cmykFile.colourspace(.srgb)
    let cmykOutput = try #require(images["cmyk.imageset/cmyk@1x.jpg"])
    #expect(try TestImages.meanDifference(cmykOutput, photo) < 30)
    let red = try cmykOutput.pixel(x: 225, y: 150)
    #expect(red[0] > 180 && red[1] < 90 && red[2] < 90, "red block came out as \(red)")
    for (name, reference, bands, tolerance) in [
      // libvips' colourspace uses its built-in CMYK path, we use the embedded profile with a
      // perceptual intent: they differ by a few levels on average, plus JPEG q82's error.
      ("cmyk.imageset/cmyk@1x.jpg", cmykReference, 3, 8.0),
      ("deep.imageset/deep@1x.png", photo, 3, 1.0),
      ("grey.imageset/grey@1x.png", try grey.colourspace(.srgb), 3, 1.0),
      ("greyalpha.imageset/greyalpha@1x.png", try grey.colourspace(.srgb), 4, 1.0),
    ] {
      let image = try #require(images[name])
      #expect(
        image.format == .uchar && image.bands == bands,
        "\(name): \(image.bands) bands \(image.format)")
      #expect(image.interpretation == .srgb, "\(name)")
      let difference = try TestImages.meanDifference(image, reference)
      #expect(difference < tolerance, "\(name): mean difference \(difference)")
    }
  }

  @Test("alpha is flattened onto the background for JPEG outputs and kept for PNG")
  func alphaHandling() throws {
    let harness = try RenderHarness(
      config:
        "rules: [{ match: \"**\", recipes: [variants, tile] }]\nrecipes: { tile: { format: jpeg, background: \"#00FF00\", size: 50 } }\nscales: [1]\nmaster-scale: 1\n"
    )
    defer { harness.remove() }
    let square = try VipsImage.solid(width: 100, height: 100, color: [255, 0, 0, 0])
    try harness.add(square, as: "clear.png", format: .png)
    let (_, images, _) = try harness.render()
    let png = try #require(images["clear.imageset/clear@1x.png"])
    #expect(png.hasAlpha)
    #expect(try png.pixel(x: 5, y: 5)[3] == 0)
    let jpeg = try #require(images["clear-tile.imageset/clear@1x.jpg"])
    #expect(!jpeg.hasAlpha)
    let pixel = try jpeg.pixel(x: 25, y: 25)
    #expect(pixel[1] > 200 && pixel[0] < 60)
  }

  /// A second render in the same process, its caches warm, writes the bytes of the first.
  /// Byte-identical builds across processes and `--jobs` are DeterminismTests' (CLI).
  @Test("a second render in one process, its caches warm, gives the first one's bytes")
  func secondRenderInProcess() throws {
    let harness = try RenderHarness(
      config: "rules: [{ match: \"**\", recipes: [variants, flag, tile, fill] }]\n")
    defer { harness.remove() }
    try harness.add(TestImages.photo(width: 900, height: 600), as: "P@3x.jpg", format: .jpeg)
    let engine = try BuildEngine(options: BuildOptions(folder: harness.folder))
    let plan = engine.plan()
    let renderer = Renderer(folder: harness.folder)
    let work = plan.jobs[0].imageSets.flatMap { set in set.outputs.map { (set.recipe, $0) } }
    let first = renderer.render(work, masters: plan.jobs[0].source.masters).files.map(\.hash)
    let second = renderer.render(work, masters: plan.jobs[0].source.masters).files.map(\.hash)
    #expect(first.count == work.count && first == second)
  }
}

@Suite("16-bit masters with alpha and an embedded profile")
struct DeepAlphaProfileTests {
  /// A faint pattern: alpha up to 16/255, colour ramps, at 16 bits.
  static func faint(layout: PixelLayout) throws -> VipsImage {
    try Fixtures.image(width: 120, height: 80, layout: layout, bitDepth: 16) { x, y, band in
      if band == layout.bands - 1 { return ((x * 7 + y * 3) % 17) * 257 }
      return (x * 541 + y * 311 + band * 9000) % 65536
    }
  }

  @Test(
    "grey+alpha and RGBA keep their alpha (scaled to 8 bits) through the profile conversion",
    arguments: [PixelLayout.greyAlpha, .rgba])
  func alphaKept(layout: PixelLayout) throws {
    let harness = try RenderHarness(config: "scales: [1]\nmaster-scale: 1\n")
    defer { harness.remove() }
    let profile = layout == .rgba ? Fixtures.proPhotoProfile() : Fixtures.greyProfile()
    let master = try Self.faint(layout: layout).settingBlob("icc-profile-data", profile)
    try harness.add(master, as: "faint.png", format: .png, keepMetadata: true)
    let stored = try VipsImage.load(path: harness.folder.appendingPathComponent("faint.png").path)
    #expect(stored.format == .ushort && stored.bands == layout.bands && stored.iccProfile != nil)
    let (_, images, problems) = try harness.render()
    #expect(problems.isEmpty, "\(problems)")
    let output = try #require(images["faint.imageset/faint@1x.png"])
    #expect(output.bands == 4 && output.format == .uchar)
    // The reference: the master's alpha as written, divided by 257 (the 8-bit value).
    let alpha = (0..<80).flatMap { y in (0..<120).map { x in (x * 7 + y * 3) % 17 } }
    let got = try output.extractBand(3).pixelBytes().map { Int($0) }
    #expect(got.count == alpha.count)
    let worst = zip(got, alpha).map { abs($0 - $1) }.max() ?? 0
    #expect(worst <= 2, "alpha differs by up to \(worst); output alpha max \(got.max() ?? 0)")
    #expect((got.max() ?? 0) <= 17)
  }
}

@Suite("Animated masters")
struct AnimatedMasterTests {
  @Test(
    "an animated GIF or WebP master is built from its first frame, with a warning naming it and its frame count"
  )
  func firstFrameWarned() throws {
    let harness = try RenderHarness(config: "scales: [1]\nmaster-scale: 1\n")
    defer { harness.remove() }
    try Data(Fixtures.animatedGIF(width: 40, height: 30, frames: 12)).write(
      to: harness.folder.appendingPathComponent("spinner.gif"))
    let still = try VipsImage.solid(width: 40, height: 30, color: [200, 30, 30])
      .encoded(as: .webp, options: SaveOptions(lossless: true))
    try Data(Fixtures.animatedWebP(still: still, width: 40, height: 30, frames: 3)).write(
      to: harness.folder.appendingPathComponent("blink.webp"))
    try harness.add(
      try VipsImage.solid(width: 40, height: 30, color: [9, 9, 9]), as: "still.png", format: .png)
    let blink = try VipsImage.load(path: harness.folder.appendingPathComponent("blink.webp").path)
    #expect(blink.pageCount == 3, "the fixture is not animated")
    let (plan, images, problems) = try harness.render()
    #expect(problems.isEmpty, "\(problems)")
    let warnings = plan.jobs.flatMap { $0.imageSets.flatMap(\.notices) }.map(\.message).sorted()
    #expect(
      warnings == [
        "blink.webp is animated (3 frames); only its first frame is used",
        "spinner.gif is animated (12 frames); only its first frame is used",
      ])
    let first = try #require(images["spinner.imageset/spinner@1x.png"])
    #expect(first.width == 40 && first.height == 30)
    let blinkOut = try #require(images["blink.imageset/blink@1x.png"])
    #expect(blinkOut.width == 40 && blinkOut.height == 30)
  }
}
