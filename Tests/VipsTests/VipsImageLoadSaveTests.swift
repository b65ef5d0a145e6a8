import Foundation
import Testing
import ThumbForgeTestSupport
import Vips

/// Round trips through every output format, to files and to memory.
@Suite struct VipsImageLoadSaveTests {
  /// Formats every supported libvips build must write.
  static let coreFormats: [ImageFormat] = [.png, .jpeg, .webp]

  static func tolerance(for format: ImageFormat) -> ImageTolerance {
    format == .png ? .exact : .lossy
  }

  static func expectedLoader(for format: ImageFormat) -> String {
    switch format {
    case .png: "pngload"
    case .jpeg: "jpegload"
    case .webp: "webpload"
    case .heif, .avif: "heifload"
    }
  }

  static func checkRoundTrip(_ format: ImageFormat, layout: PixelLayout) throws {
    let original = try Fixtures.gradient(width: 96, height: 64, layout: layout)
    let expectedBands = format.supportsAlpha ? layout.bands : layout.colourBands
    let options = SaveOptions(quality: 90)

    let bytes = try original.encoded(as: format, options: options)
    let fromMemory = try VipsImage.load(bytes: bytes)
    #expect(fromMemory.width == 96 && fromMemory.height == 64)
    #expect(fromMemory.loader == expectedLoader(for: format) + "_buffer")

    try withTemporaryDirectory { directory in
      let url = directory.appendingPathComponent("round-trip.\(format.fileExtension)")
      try original.save(path: url.path, as: format, options: options)
      let fromFile = try VipsImage.load(path: url.path)
      #expect(fromFile.width == 96 && fromFile.height == 64)
      #expect(fromFile.loader == expectedLoader(for: format))
      // The file and buffer encoders produce the same pixels.
      #expect(try ImageComparison(fromMemory, fromFile).isIdentical)
    }

    // Grey stays grey in PNG and JPEG; WebP and HEIF always decode to RGB.
    if format == .png || format == .jpeg || layout.colourBands == 3 {
      #expect(fromMemory.bands == expectedBands)
    }
    #expect(fromMemory.hasAlpha == (layout.hasAlpha && format.supportsAlpha))
    // JPEG has no alpha: compare colour against the original flattened onto black, which
    // is what libvips' JPEG saver does with an alpha band.
    let reference =
      format.supportsAlpha ? original : try original.flattened(background: [0, 0, 0])
    let comparison = try ImageComparison(reference, fromMemory)
    #expect(comparison.isWithin(tolerance(for: format)), "\(format) \(layout): \(comparison)")
  }

  @Test(arguments: coreFormats, PixelLayout.allCases)
  func roundTrip(format: ImageFormat, layout: PixelLayout) throws {
    try Self.checkRoundTrip(format, layout: layout)
  }

  @Test(.enabled(if: Vips.canSave(.heif), "this libvips build cannot write HEIF"))
  func heifRoundTrip() throws {
    try Self.checkRoundTrip(.heif, layout: .rgb)
    try Self.checkRoundTrip(.heif, layout: .rgba)
  }

  @Test func losslessWebPIsExact() throws {
    let original = try Fixtures.gradient(width: 64, height: 48, layout: .rgba)
    let bytes = try original.encoded(as: .webp, options: SaveOptions(lossless: true))
    #expect(try ImageComparison(original, VipsImage.load(bytes: bytes)).isIdentical)
  }

  @Test func sixteenBitPNGKeepsSixteenBits() throws {
    let original = try Fixtures.gradient(width: 40, height: 30, layout: .rgba, bitDepth: 16)
    let loaded = try VipsImage.load(bytes: original.encoded(as: .png))
    #expect(loaded.format == .ushort)
    #expect(loaded.interpretation == .rgb16)
    #expect(try loaded.pixelBytes().count == 40 * 30 * 4)
    #expect(try loaded.pixel(x: 20, y: 15) == original.pixel(x: 20, y: 15))
  }

  @Test func qualityChangesJPEGSize() throws {
    let image = try Fixtures.gradient(width: 128, height: 96)
    let low = try image.encoded(as: .jpeg, options: SaveOptions(quality: 20))
    let high = try image.encoded(as: .jpeg, options: SaveOptions(quality: 95))
    #expect(low.count < high.count)
  }

  @Test func metadataIsStrippedUnlessAskedToKeep() throws {
    let tagged = try Fixtures.gradient(width: 40, height: 20).settingInt("orientation", 6)
    let stripped = try VipsImage.load(bytes: tagged.encoded(as: .jpeg))
    #expect(stripped.orientation == 1)
    let kept = try VipsImage.load(
      bytes: tagged.encoded(as: .jpeg, options: SaveOptions(stripMetadata: false)))
    #expect(kept.orientation == 6)
  }

  @Test func interlacedOutputsStillDecode() throws {
    let image = try Fixtures.gradient(width: 64, height: 48)
    for format in [ImageFormat.png, .jpeg] {
      let bytes = try image.encoded(as: format, options: SaveOptions(interlace: true))
      let loaded = try VipsImage.load(bytes: bytes)
      #expect(try ImageComparison(image, loaded).isWithin(.lossy), "\(format)")
    }
  }

  @Test func thumbnailShrinksOnLoadAndCrops() throws {
    try withTemporaryDirectory { directory in
      let url = try Fixtures.write(
        Fixtures.gradient(width: 200, height: 100), as: .jpeg, named: "wide", in: directory)
      let fitted = try VipsImage.thumbnail(path: url.path, width: 50)
      #expect(fitted.width == 50 && fitted.height == 25)
      let cropped = try VipsImage.thumbnail(path: url.path, width: 40, height: 40, crop: .centre)
      #expect(cropped.width == 40 && cropped.height == 40)
      let notEnlarged = try VipsImage.thumbnail(path: url.path, width: 400, size: .down)
      #expect(notEnlarged.width == 200)
    }
  }

  @Test func thumbnailAppliesEXIFOrientation() throws {
    try withTemporaryDirectory { directory in
      let tagged = try Fixtures.quadrants(width: 80, height: 40).settingInt("orientation", 6)
      let url = try Fixtures.write(
        tagged, as: .jpeg, named: "rotated", in: directory,
        options: SaveOptions(quality: 95, stripMetadata: false))
      let upright = try VipsImage.thumbnail(path: url.path, width: 20, height: 40)
      #expect(upright.width == 20 && upright.height == 40)
      let asStored = try VipsImage.thumbnail(
        path: url.path, width: 40, height: 40, autoRotate: false)
      #expect(asStored.width == 40 && asStored.height == 20)
    }
  }

  @Test(.enabled(if: Vips.hasOperation("svgload_buffer"), "libvips was built without SVG"))
  func svgRendersAtScale() throws {
    let svg = """
      <svg xmlns="http://www.w3.org/2000/svg" width="20" height="10">\
      <rect width="20" height="10" fill="#ff0000"/></svg>
      """
    let image = try VipsImage.svg(svg, scale: 2)
    #expect(image.width == 40 && image.height == 20)
    #expect(approximately(try image.pixel(x: 20, y: 10), [255, 0, 0, 255]))
  }
}
