import Foundation
import Testing
import ThumbForgeTestSupport

@testable import ThumbForge
@testable import ThumbForgePlanning
@testable import Vips

/// What docs/recipes.md (*Colour, alpha, formats and metadata*, the paragraphs "For every recipe, EXIF orientation is
/// applied first …" and "Under libvips 8.14 two outputs still carry …") promises each kind
/// of input gets, one test per promise. Promises already tested elsewhere are listed with
/// their tests; the others are tested here.
///
/// - EXIF orientation is applied first: `InputVarietyTests.orientations` (variants, tile,
///   flag); fit and fill: ``orientationBeforeFitAndFill()``.
/// - Pixels become 8-bit sRGB: `InputVarietyTests.colourSpaces`.
/// - Embedded ICC profiles are honoured: `InputVarietyTests.colourSpaces` (CMYK),
///   `DisplayGamutTests.planAndRender` (a Display P3 master's sRGB file is converted).
/// - Perceptual intent: ``perceptualIntent()``.
/// - CMYK, 16-bit, greyscale and greyscale+alpha inputs work:
///   `InputVarietyTests.colourSpaces`; palette inputs: ``paletteInputs()``.
/// - 16-bit alpha is scaled to 8 bits with a profile: `DeepAlphaProfileTests.alphaKept`;
///   without one: ``deepAlphaWithoutProfile(layout:)``.
/// - Display P3 files beside them on request: `DisplayGamutTests` (all three tests).
/// - Alpha kept where the format has it, flattened onto `background` where it does not:
///   `InputVarietyTests.alphaHandling`.
/// - An animated GIF or WebP is built from its first frame, with a warning naming the file
///   and its frame count: `AnimatedMasterTests.firstFrameWarned`; a multi-page TIFF, PDF
///   or HEIF: ``firstPageOnly()``.
/// - Metadata is stripped unless `keep-metadata: true`: copied masters:
///   `OutputContractTests.metadataIsStripped` (CLI), `AdoptionRoundTripTests.strippedCopies`
///   (as-is copies); rendered outputs: ``metadataOfRenderedOutputs()``.
/// - Format `auto` is PNG when the output has alpha or the master is PNG/GIF/SVG/PDF,
///   otherwise JPEG at quality 82: ``automaticFormat()`` (plan-level cases in
///   `PlannerTests.variants`/`vectors`/`boxed`; the default 82 in
///   `RecipeTableTests.defaultsFromTheTable`).
/// - A centred stroke grows every boxed recipe's canvas by the line width, and the manifest
///   is told the grown size (an imageset's `Contents.json` records no size):
///   `OutputContractTests.centredStrokeSize` (CLI), `PlannerTests.centreStroke`,
///   `RecipeRenderTests.centreStroke`.
/// - `upscale: warn` renders and reports the factor: `PlannerTests.upscaleWarn`; `never`
///   skips and reports: `PlannerTests.boxed`; `allow`: ``upscaleAllow()``; `keep` (fit the
///   master at its own size, fill and tile its largest centred crop, the 300×200 px master
///   for a 200×200 pt tile at 2x giving its 200×200 px centre; each reported):
///   `PlannerTests.upscaleKeep`, `RecipeRenderTests.upscaleKeepRender`; `keep` for a
///   flag: ``upscaleKeepFlag()``.
/// - Under libvips 8.14 the Display P3 siblings in JPEG and HEIF carry a minimal EXIF block
///   and nothing of the master's (8.15: the profile alone): ``displayP3SiblingMetadata()``
///   (HEIF's block has the resolution but no orientation tag).
/// - WebP outputs are stripped: `LibvipsWorkaroundTests.webpIsStripped` (the encoder);
///   through a render: ``webpOutputsStripped()``.
/// - A WebP flag whose alpha is entirely opaque is stored without alpha:
///   ``opaqueWebPFlag()``.
/// - A HEIF output is decoded back before it is shipped; an unreadable one is an error
///   naming the master: ``unreadableHEIF()``.
@Suite("What the docs promise each input")
struct DocumentedInputTests {
  // MARK: - Helpers

  /// One render of a harness's folder, as ``RenderHarness/render()`` makes it, with each
  /// file's bytes.
  struct Rendered {
    var plan: BuildPlan
    var files: [String: [UInt8]]
    var problems: [Problem]

    /// The file at catalog path `path`, decoded.
    func image(_ path: String) throws -> VipsImage {
      try VipsImage.load(bytes: try #require(files[path], "no \(path) in \(files.keys.sorted())"))
    }

    /// Every warning of the plan.
    var notices: [BuildWarning] { plan.jobs.flatMap { $0.imageSets.flatMap(\.notices) } }
  }

  static func render(_ harness: RenderHarness) throws -> Rendered {
    let (plan, files, problems) = try harness.renderFiles()
    return Rendered(plan: plan, files: files, problems: problems)
  }

  /// Whether every band of `pixel` is within `tolerance` of `expected`.
  static func near(_ pixel: [Double], _ expected: [Int], within tolerance: Double) -> Bool {
    pixel.count >= expected.count
      && zip(pixel, expected).allSatisfy { abs($0 - Double($1)) <= tolerance }
  }

  /// A camera's JPEG: a photo with EXIF (camera make, GPS position).
  static func cameraJPEG(_ path: String, width: Int = 200, height: Int = 100) throws
    -> GeneratedMaster
  {
    var random = PropertyRandom(seed: 11)
    var master = GeneratedMaster(
      path: path, format: .jpeg, width: width, height: height, layout: .rgb, gps: true)
    try master.encode(seed: 5, random: &random)
    return master
  }

  // MARK: - For every recipe

  @Test(
    "“EXIF orientation is applied first”, for fit and fill too: every orientation gives the upright picture's box"
  )
  func orientationBeforeFitAndFill() throws {
    let harness = try RenderHarness(
      config: """
        scales: [1]
        rules: [{ match: "**", recipes: [fit, fill] }]
        recipes:
          fit: { size: [150, 150], format: png }
          fill: { size: [100, 100], format: png }

        """)
    defer { harness.remove() }
    // Red, green, blue and yellow quadrants, 300×200 upright.
    let upright = try Fixtures.quadrants(width: 300, height: 200)
    for orientation in 1...8 {
      try harness.add(
        InputVarietyTests.stored(upright, orientation: orientation).settingInt(
          "orientation", orientation),
        as: "O\(orientation)@1x.jpg", format: .jpeg, keepMetadata: true)
    }
    let rendered = try Self.render(harness)
    #expect(rendered.problems.isEmpty, "\(rendered.problems)")
    // Points inside each quadrant: top-left, top-right, bottom-left, bottom-right. The fill
    // is the centre 100×100 of the 150×100 resize.
    let fitPoints = [(20, 20), (130, 20), (20, 80), (130, 80)]
    let fillPoints = [(15, 15), (85, 15), (15, 85), (85, 85)]
    for orientation in 1...8 {
      let fit = try rendered.image("O\(orientation)-fit.imageset/O\(orientation)@1x.png")
      let fill = try rendered.image("O\(orientation)-fill.imageset/O\(orientation)@1x.png")
      #expect((fit.width, fit.height) == (150, 100), "orientation \(orientation)")
      #expect((fill.width, fill.height) == (100, 100), "orientation \(orientation)")
      for (image, points, name) in [(fit, fitPoints, "fit"), (fill, fillPoints, "fill")] {
        for (quadrant, (x, y)) in points.enumerated() {
          let pixel = try image.pixel(x: x, y: y)
          #expect(
            Self.near(pixel, Fixtures.quadrantColours[quadrant], within: 24),
            "orientation \(orientation) \(name) (\(x), \(y)): \(pixel)")
        }
      }
    }
  }

  @Test(
    "“embedded ICC profiles honoured, perceptual intent”: a profile's perceptual table is used, not its colorimetric one"
  )
  func perceptualIntent() throws {
    let harness = try RenderHarness(
      config: "scales: [1]\nmaster-scale: 1\nrecipes: { variants: { format: png } }\n")
    defer { harness.remove() }
    let profile = DocumentedInputs.twoIntentProfile()
    try harness.add(
      Fixtures.gradient(width: 64, height: 48).settingBlob("icc-profile-data", profile),
      as: "Tagged.png", format: .png, keepMetadata: true)
    let file = try VipsImage.load(path: harness.folder.appendingPathComponent("Tagged.png").path)
    #expect(file.iccProfile == profile)
    let rendered = try Self.render(harness)
    #expect(rendered.problems.isEmpty, "\(rendered.problems)")
    let output = try rendered.image("Tagged.imageset/Tagged@1x.png")
    #expect(output.format == .uchar && output.bands == 3 && !output.hasICCProfile)
    // The references: libvips' transform of the file with each intent.
    func reference(_ intent: String) throws -> VipsImage {
      try VipsOperation.image(
        "icc_transform",
        [
          "in": .image(file), "output-profile": .string("srgb"), "embedded": .bool(true),
          "intent": .string(intent), "depth": .int(8),
        ]
      ).removingField("icc-profile-data")
    }
    let perceptual = try TestImages.meanDifference(output, try reference("perceptual"))
    let relative = try TestImages.meanDifference(output, try reference("relative"))
    #expect(perceptual < 0.5, "\(perceptual) from the perceptual reference")
    #expect(relative > 10, "\(relative) from the colorimetric reference")
  }

  @Test(
    "“palette inputs all work”: palette PNGs and GIFs, with and without transparency, become 8-bit sRGB of their colours"
  )
  func paletteInputs() throws {
    let harness = try RenderHarness(
      config: """
        scales: [1]
        rules: [{ match: "**", recipes: [fit] }]
        recipes: { fit: { size: [120, 80], format: png } }

        """)
    defer { harness.remove() }
    var random = PropertyRandom(seed: 7)
    var masters: [GeneratedMaster] = []
    for (index, (format, layout)) in [
      (GeneratedMaster.Format.png, GeneratedMaster.Layout.palette), (.png, .paletteAlpha),
      (.gif, .palette), (.gif, .paletteAlpha),
    ].enumerated() {
      var master = GeneratedMaster(
        path: "P\(index)@1x.\(format.rawValue)", format: format, width: 120, height: 80,
        layout: layout)
      try master.encode(seed: index + 1, random: &random)
      try harness.add(bytes: master.bytes, as: master.path)
      masters.append(master)
    }
    let rendered = try Self.render(harness)
    #expect(rendered.problems.isEmpty, "\(rendered.problems)")
    for (index, master) in masters.enumerated() {
      let file = try VipsImage.load(bytes: master.bytes)
      if master.format == .png { #expect(file.intField("palette-bit-depth") == 8, "\(master)") }
      let output = try rendered.image("P\(index)-fit.imageset/P\(index)@1x.png")
      let alpha = master.layout == .paletteAlpha
      #expect(output.format == .uchar && output.interpretation == .srgb, "\(master)")
      #expect(output.bands == (alpha ? 4 : 3) && output.hasAlpha == alpha, "\(master)")
      // The box is the master's size: the output is its colours, pixel for pixel.
      let expected = try file.toSRGB8()
      let difference = try TestImages.meanDifference(output, expected)
      #expect(difference < 0.01, "\(master): \(difference)")
      if alpha {
        #expect(
          try output.extractBand(3).pixelBytes() == expected.extractBand(3).pixelBytes(),
          "\(master)")
      }
    }
  }

  @Test(
    "“16-bit alpha scaled to 8 bits … without a profile”: a faint 16-bit alpha comes out as value / 257",
    arguments: [PixelLayout.greyAlpha, .rgba])
  func deepAlphaWithoutProfile(layout: PixelLayout) throws {
    let harness = try RenderHarness(config: "scales: [1]\nmaster-scale: 1\n")
    defer { harness.remove() }
    // Alpha 0–16 × 257 (at most 16/255 opaque), colour ramps, 16 bits, no profile.
    let master = try Fixtures.image(width: 120, height: 80, layout: layout, bitDepth: 16) {
      x, y, band in
      band == layout.bands - 1 ? ((x * 7 + y * 3) % 17) * 257 : (x * 541 + y * 311) % 65536
    }
    try harness.add(master, as: "faint.png", format: .png)
    let file = try VipsImage.load(path: harness.folder.appendingPathComponent("faint.png").path)
    #expect(file.format == .ushort && file.bands == layout.bands && !file.hasICCProfile)
    let rendered = try Self.render(harness)
    #expect(rendered.problems.isEmpty, "\(rendered.problems)")
    let output = try rendered.image("faint.imageset/faint@1x.png")
    #expect(output.bands == 4 && output.format == .uchar)
    let expected = (0..<80).flatMap { y in (0..<120).map { x in (x * 7 + y * 3) % 17 } }
    let got = try output.extractBand(3).pixelBytes().map { Int($0) }
    #expect(got.count == expected.count)
    let worst = zip(got, expected).map { abs($0 - $1) }.max() ?? 255
    #expect(worst <= 1, "alpha differs by up to \(worst); its largest value is \(got.max() ?? 0)")
  }

  @Test(
    "“a multi-page TIFF, PDF or HEIF is built from its first page, with a warning naming the file and its frame count”"
  )
  func firstPageOnly() throws {
    let harness = try RenderHarness(
      config: "scales: [1]\nmaster-scale: 1\nrecipes: { variants: { format: png } }\n")
    defer { harness.remove() }
    // Two 60×40 pages: red, then blue.
    let blue = try VipsImage.solid(width: 60, height: 40, color: [20, 40, 220])
    let pages = try VipsImage.solid(width: 60, height: 80, color: [220, 30, 30])
      .composite(blue.addingAlpha(), x: 0, y: 40).extractBand(0, count: 3)
      .copiedToMemory().settingInt("page-height", 40)
    var names = ["Scan.tif", "Sheet.pdf"]
    try harness.add(
      bytes:
        VipsOperation.bytes("tiffsave_buffer", ["in": .image(pages)]), as: "Scan.tif")
    try harness.add(
      bytes:
        DocumentedInputs.twoPagePDF(
          width: 60, height: 40, first: "0.86 0.12 0.12", second: "0 0 1"),
      as: "Sheet.pdf")
    if Vips.canSave(.heif) {
      try harness.add(
        bytes:
          pages.encoded(as: .heif, options: SaveOptions(quality: 90)), as: "Burst.heic")
      names.append("Burst.heic")
    }
    for name in names {
      let file = try VipsImage.load(path: harness.folder.appendingPathComponent(name).path)
      #expect(file.pageCount == 2 && file.height == 40, "\(name) is not a file of two pages")
    }
    let rendered = try Self.render(harness)
    #expect(rendered.problems.isEmpty, "\(rendered.problems)")
    #expect(
      rendered.notices.map(\.message).sorted()
        == names.sorted().map { "\($0) has 2 pages; only its first page is used" })
    #expect(rendered.notices.map(\.file).sorted() == names.sorted())
    for name in names {
      let asset = String(name.split(separator: ".")[0])
      let output = try rendered.image("\(asset).imageset/\(asset)@1x.png")
      #expect((output.width, output.height) == (60, 40), "\(name)")
      let pixel = try output.pixel(x: 30, y: 30)
      #expect(Self.near(pixel, [220, 30, 30], within: 12), "\(name): \(pixel)")
    }
  }

  @Test(
    "“metadata is stripped unless keep-metadata: true”: a resized camera JPEG loses its EXIF, or keeps it when asked"
  )
  func metadataOfRenderedOutputs() throws {
    for keep in [false, true] {
      let harness = try RenderHarness(
        config: """
          scales: [1]
          rules: [{ match: "**", recipes: [fit] }]
          recipes: { fit: { size: [50, 50], keep-metadata: \(keep) } }

          """)
      defer { harness.remove() }
      let master = try Self.cameraJPEG("Camera@1x.jpg")
      try harness.add(bytes: master.bytes, as: master.path)
      let file = try VipsImage.load(bytes: master.bytes)
      #expect(
        file.stringField("exif-ifd0-Make") != nil
          && file.stringField("exif-ifd3-GPSLatitude") != nil)
      let rendered = try Self.render(harness)
      #expect(rendered.problems.isEmpty, "\(rendered.problems)")
      let output = try rendered.image("Camera-fit.imageset/Camera@1x.jpg")
      #expect((output.width, output.height) == (50, 25))
      #expect(output.hasMetadata == keep, "keep-metadata: \(keep)")
      #expect((output.stringField("exif-ifd0-Make") != nil) == keep, "keep-metadata: \(keep)")
      #expect(
        (output.stringField("exif-ifd3-GPSLatitude") != nil) == keep, "keep-metadata: \(keep)")
    }
  }

  /// The values of each quantisation table of a JPEG file (by table number), in file order.
  static func quantisationTables(_ jpeg: [UInt8]) -> [Int: [Int]] {
    var tables: [Int: [Int]] = [:]
    var index = 2
    while index + 4 <= jpeg.count, jpeg[index] == 0xFF, jpeg[index + 1] != 0xDA {
      let length = Int(jpeg[index + 2]) << 8 | Int(jpeg[index + 3])
      if jpeg[index + 1] == 0xDB {
        var at = index + 4
        while at < index + 2 + length {
          let wide = jpeg[at] >> 4 == 1
          let count = wide ? 128 : 64
          let bytes = Array(jpeg[(at + 1)..<(at + 1 + count)])
          tables[Int(jpeg[at] & 0x0F)] =
            wide
            ? stride(from: 0, to: 128, by: 2).map { Int(bytes[$0]) << 8 | Int(bytes[$0 + 1]) }
            : bytes.map { Int($0) }
          at += 1 + count
        }
      }
      index += 2 + length
    }
    return tables
  }

  /// libjpeg's tables at `quality` (`jpeg_set_quality`, baseline), sorted: the standard
  /// luminance and chrominance tables of the JPEG specification (Annex K), scaled.
  static func libjpegTables(quality: Int) -> [[Int]] {
    let luminance = [
      16, 11, 10, 16, 24, 40, 51, 61, 12, 12, 14, 19, 26, 58, 60, 55, 14, 13, 16, 24, 40, 57,
      69, 56, 14, 17, 22, 29, 51, 87, 80, 62, 18, 22, 37, 56, 68, 109, 103, 77, 24, 35, 55, 64,
      81, 104, 113, 92, 49, 64, 78, 87, 103, 121, 120, 101, 72, 92, 95, 98, 112, 100, 103, 99,
    ]
    let chrominance =
      [17, 18, 24, 47, 99, 99, 99, 99, 18, 21, 26, 66, 99, 99, 99, 99, 24, 26, 56, 99]
      + [99, 99, 99, 99, 47, 66, 99, 99, 99, 99, 99, 99]
      + [Int](repeating: 99, count: 32)
    let scale = quality < 50 ? 5000 / quality : 200 - quality * 2
    return [luminance, chrominance].map { table in
      table.map { min(255, max(1, ($0 * scale + 50) / 100)) }.sorted()
    }
  }

  @Test(
    "“format auto means PNG when the output has alpha or the master is PNG/GIF/SVG/PDF, otherwise JPEG (quality 82)”"
  )
  func automaticFormat() throws {
    let harness = try RenderHarness(
      config:
        "scales: [1]\nrules: [{ match: \"**\", recipes: [fit] }]\nrecipes: { fit: { size: [50, 50] } }\n"
    )
    defer { harness.remove() }
    let photo = try Fixtures.photo(width: 120, height: 80, seed: 4)
    try harness.add(photo, as: "Photo@1x.jpg", format: .jpeg)
    try harness.add(photo, as: "Shot@1x.png", format: .png)
    try harness.add(
      bytes:
        VipsOperation.bytes("tiffsave_buffer", ["in": .image(photo)]), as: "Scan@1x.tif")
    try harness.add(text: Fixtures.svg(width: 60, height: 40, colors: ["#c8102e"]), as: "Logo.svg")
    try harness.add(text: Fixtures.pdf(width: 60, height: 40), as: "Sheet.pdf")
    var cases = [
      ("Photo", "jpg"), ("Scan", "jpg"), ("Shot", "png"), ("Logo", "png"), ("Sheet", "png"),
    ]
    // (asset, its output's extension: jpg must be read by jpegload, png by pngload)
    var random = PropertyRandom(seed: 3)
    var poster = GeneratedMaster(
      path: "Poster@1x.gif", format: .gif, width: 120, height: 80, layout: .palette)
    try poster.encode(seed: 5, random: &random)
    try harness.add(bytes: poster.bytes, as: poster.path)
    cases.append(("Poster", "png"))  // an opaque GIF: PNG all the same
    if Vips.canSave(.webp) {
      try harness.add(photo, as: "Opaque@1x.webp", format: .webp)
      try harness.add(
        Fixtures.icon(width: 120, height: 80, seed: 2), as: "Clear@1x.webp", format: .webp)
      cases += [("Opaque", "jpg"), ("Clear", "png")]
    }
    let rendered = try Self.render(harness)
    #expect(rendered.problems.isEmpty, "\(rendered.problems)")
    let expectedTables = Self.libjpegTables(quality: 82)
    for (name, ext) in cases {
      let path = "\(name)-fit.imageset/\(name)@1x.\(ext)"
      let bytes = try #require(
        rendered.files[path], "\(path) not in \(rendered.files.keys.sorted())")
      let loader = try VipsImage.load(bytes: bytes).loader ?? ""
      #expect(loader.hasPrefix(ext == "jpg" ? "jpegload" : "pngload"), "\(path): \(loader)")
      if ext == "jpg" {
        let tables = Self.quantisationTables(bytes)
        #expect(
          [tables[0], tables[1]].map { ($0 ?? []).sorted() } == expectedTables,
          "\(path): not libjpeg's quality 82 tables: \(tables)")
      }
    }
  }

  @Test("“upscale: allow” renders the enlargement at the box's size and reports nothing")
  func upscaleAllow() throws {
    let harness = try RenderHarness(
      config: """
        rules: [{ match: "**", recipes: [tile] }]
        recipes: { tile: { size: [100, 100], scales: [1, 2], upscale: allow, format: png } }

        """)
    defer { harness.remove() }
    // 90×60 px at 1x: a 100×100 box needs it enlarged 1.67 times at 1x, 3.33 times at 2x.
    try harness.add(Fixtures.quadrants(width: 90, height: 60), as: "Small@1x.png", format: .png)
    let rendered = try Self.render(harness)
    #expect(rendered.problems.isEmpty, "\(rendered.problems)")
    #expect(rendered.notices.isEmpty, "\(rendered.notices)")
    let set = try #require(rendered.plan.jobs.first?.imageSets.first)
    #expect(set.skipped.isEmpty && set.warnings.isEmpty)
    for (scale, side) in [(1, 100), (2, 200)] {
      let output = try rendered.image("Small-tile.imageset/Small@\(scale)x.png")
      #expect((output.width, output.height) == (side, side), "\(scale)x")
      // Enlarged and cropped at the centre: the quadrants meet in the middle.
      let quarter = side / 4
      for (quadrant, (x, y)) in [
        (quarter, quarter), (side - quarter, quarter), (quarter, side - quarter),
        (side - quarter, side - quarter),
      ].enumerated() {
        let pixel = try output.pixel(x: x, y: y)
        #expect(
          Self.near(pixel, Fixtures.quadrantColours[quadrant], within: 8), "\(scale)x \(pixel)")
      }
    }
  }

  @Test(
    "“upscale: keep”: a flag too small for its box is the largest centred crop of the box's aspect, reported"
  )
  func upscaleKeepFlag() throws {
    let harness = try RenderHarness(
      config:
        "rules: [{ match: \"**\", recipes: [flag] }]\nrecipes: { flag: { scales: [2], upscale: keep } }\n"
    )
    defer { harness.remove() }
    // 60×30 px at 1x; the flag's 40×25 pt box is 80×50 px at 2x. The largest 8:5 crop is
    // 48×30, 6 px in from each side: the two 6 px green edges must be gone.
    let green = try VipsImage.solid(width: 6, height: 30, color: [0, 255, 0]).addingAlpha()
    let master = try VipsImage.solid(width: 60, height: 30, color: [0, 0, 255])
      .composite(green, x: 0, y: 0).composite(green, x: 54, y: 0).extractBand(0, count: 3)
    try harness.add(master, as: "Tiny@1x.png", format: .png)
    let rendered = try Self.render(harness)
    #expect(rendered.problems.isEmpty, "\(rendered.problems)")
    let output = try rendered.image("Tiny-flag.imageset/Tiny@2x.png")
    #expect((output.width, output.height) == (48, 30))
    let corner = try output.pixel(x: 0, y: 0)
    #expect(output.hasAlpha && corner[3] == 0, "\(corner)")
    for x in [3, 24, 44] {
      let pixel = try output.pixel(x: x, y: 15)
      #expect(Self.near(pixel, [0, 0, 255, 255], within: 2), "x \(x): \(pixel)")
    }
    let kept = rendered.notices.filter { $0.kind == .keptSmall }
    #expect(kept.count == 1 && kept.first?.message.contains("kept at 48x30") == true, "\(kept)")
  }

  // MARK: - Under libvips 8.14

  @Test(
    "“the Display P3 siblings in JPEG and HEIF carry a minimal EXIF block, nothing of the master's” (8.15: the profile alone)"
  )
  func displayP3SiblingMetadata() throws {
    let heif = Vips.canSave(.heif)
    let harness = try RenderHarness(
      config: """
        display-gamut: [sRGB, display-P3]
        scales: [1]
        rules: [{ match: "**", recipes: [fill\(heif ? ", deep" : "")] }]
        recipes:
          fill: { size: [40, 30], format: jpeg }
          deep: { kind: fill, size: [40, 30], format: heif }

        """)
    defer { harness.remove() }
    var random = PropertyRandom(seed: 13)
    var master = GeneratedMaster(
      path: "Wide@1x.jpg", format: .jpeg, width: 160, height: 120, layout: .rgb,
      profile: .displayP3, gps: true)
    try master.encode(seed: 3, random: &random)
    try harness.add(bytes: master.bytes, as: master.path)
    let file = try VipsImage.load(bytes: master.bytes)
    #expect(file.hasICCProfile && file.stringField("exif-ifd0-Make") != nil)
    let p3 = try Fixtures.displayP3(try VipsImage.solid(width: 1, height: 1, color: [1, 2, 3]))
    let rendered = try Self.render(harness)
    #expect(rendered.problems.isEmpty, "\(rendered.problems)")
    for (set, ext) in [("Wide-fill", "jpg")] + (heif ? [("Wide-deep", "heic")] : []) {
      let sibling = try rendered.image("\(set).imageset/Wide~P3@1x.\(ext)")
      let plain = try rendered.image("\(set).imageset/Wide@1x.\(ext)")
      #expect(!plain.hasMetadata && !plain.hasICCProfile, "\(set) sRGB file")
      #expect(sibling.iccProfile == p3.iccProfile, "\(set): not the Display P3 profile")
      // Nothing of the master's: no camera make, no GPS position.
      #expect(sibling.stringField("exif-ifd0-Make") == nil, "\(set)")
      #expect(sibling.stringField("exif-ifd3-GPSLatitude") == nil, "\(set)")
      if Vips.canKeepOnlyProfile {
        #expect(!sibling.hasMetadata, "\(set): libvips 8.15 keeps the profile alone")
      } else {
        #expect(sibling.hasMetadata, "\(set): 8.14's minimal block")
        // Resolution, and orientation 1: written as such in JPEG; HEIF's block has no
        // orientation tag (heifsave leaves it out: the picture is upright).
        let orientation = sibling.stringField("exif-ifd0-Orientation")
        #expect(
          ext == "jpg" ? orientation?.hasPrefix("1 ") == true : orientation == nil,
          "\(set): orientation \(orientation ?? "none")")
        #expect(sibling.orientation == 1, "\(set)")
        #expect(sibling.stringField("exif-ifd0-XResolution")?.hasPrefix("72/1") == true, "\(set)")
      }
    }
  }

  @Test(
    "“WebP outputs are stripped”: a camera JPEG's WebP output carries no EXIF or XMP",
    .enabled(if: Vips.canSave(.webp), "this libvips cannot write WebP"))
  func webpOutputsStripped() throws {
    let harness = try RenderHarness(
      config:
        "scales: [1]\nrules: [{ match: \"**\", recipes: [fit] }]\nrecipes: { fit: { size: [50, 50], format: webp } }\n"
    )
    defer { harness.remove() }
    let master = try Self.cameraJPEG("Camera@1x.jpg")
    try harness.add(bytes: master.bytes, as: master.path)
    let rendered = try Self.render(harness)
    #expect(rendered.problems.isEmpty, "\(rendered.problems)")
    let path = "Camera-fit.imageset/Camera@1x.webp"
    let bytes = try #require(rendered.files[path])
    // The file's chunks, after RIFF, its size and WEBP.
    var chunks: [String] = []
    var index = 12
    while index + 8 <= bytes.count {
      chunks.append(String(decoding: bytes[index..<(index + 4)], as: UTF8.self))
      let size = (0..<4).reduce(0) { $0 | Int(bytes[index + 4 + $1]) << (8 * $1) }
      index += 8 + size + size % 2
    }
    #expect(!chunks.contains("EXIF") && !chunks.contains("XMP "), "\(chunks)")
    let output = try VipsImage.load(bytes: bytes)
    #expect(!output.hasMetadata && (output.width, output.height) == (50, 25))
  }

  @Test(
    "“a WebP flag whose alpha is entirely opaque is stored by libwebp without alpha”; a rounded one keeps it",
    .enabled(if: Vips.canSave(.webp), "this libvips cannot write WebP"))
  func opaqueWebPFlag() throws {
    let harness = try RenderHarness(
      config: """
        rules: [{ match: "**", recipes: [flag, square] }]
        recipes:
          flag: { format: webp, scales: [2] }
          square: { kind: flag, format: webp, radius: 0, scales: [2] }

        """)
    defer { harness.remove() }
    try harness.add(
      Fixtures.photo(width: 160, height: 100, seed: 6), as: "Flag@2x.png", format: .png)
    let rendered = try Self.render(harness)
    #expect(rendered.problems.isEmpty, "\(rendered.problems)")
    let square = try rendered.image("Flag-square.imageset/Flag@2x.webp")
    #expect((square.width, square.height) == (80, 50))
    #expect(square.bands == 3 && !square.hasAlpha, "an opaque flag: \(square.bands) bands")
    let rounded = try rendered.image("Flag-flag.imageset/Flag@2x.webp")
    let corner = try rounded.pixel(x: 0, y: 0)
    #expect(rounded.bands == 4 && corner[3] == 0, "a rounded flag: \(corner)")
  }

  @Test(
    "“a HEIF output is decoded back before it is shipped”: one libheif cannot read is an error naming the master",
    .enabled(if: Vips.canSave(.heif), "this libvips cannot write HEIF"))
  func unreadableHEIF() throws {
    let harness = try RenderHarness(
      config: "scales: [1]\nmaster-scale: 1\nrecipes: { variants: { format: heif } }\n")
    defer { harness.remove() }
    // libheif 1.15 writes a 17 000 px wide image it then refuses to read (over 16 384).
    try harness.add(bytes: Array(Fixtures.blackPNG(width: 17_000, height: 64)), as: "Wire.png")
    try harness.add(Fixtures.photo(width: 64, height: 48, seed: 1), as: "Small.png", format: .png)
    let rendered = try Self.render(harness)
    #expect(rendered.problems.count == 1, "\(rendered.problems)")
    let problem = try #require(rendered.problems.first)
    #expect(problem.path == "Wire.png")
    #expect(problem.reason.contains("cannot read back"), "\(problem.reason)")
    #expect(rendered.files["Wire.imageset/Wire@1x.heic"] == nil)
    let small = try rendered.image("Small.imageset/Small@1x.heic")
    #expect(small.loader?.hasPrefix("heifload") == true && (small.width, small.height) == (64, 48))
  }
}
