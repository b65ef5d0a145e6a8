import Foundation
import Testing
import ThumbForgeTestSupport
import Vips

/// Header properties read back from real files.
@Suite struct VipsImagePropertiesTests {
  struct Expected: Sendable, CustomStringConvertible {
    var layout: PixelLayout
    var bitDepth: Int
    var format: BandFormat
    var interpretation: Interpretation

    var description: String { "\(layout) \(bitDepth)-bit" }
  }

  static let pngCases: [Expected] = [
    Expected(layout: .rgb, bitDepth: 8, format: .uchar, interpretation: .srgb),
    Expected(layout: .rgba, bitDepth: 8, format: .uchar, interpretation: .srgb),
    Expected(layout: .grey, bitDepth: 8, format: .uchar, interpretation: .bw),
    Expected(layout: .greyAlpha, bitDepth: 8, format: .uchar, interpretation: .bw),
    Expected(layout: .rgb, bitDepth: 16, format: .ushort, interpretation: .rgb16),
    Expected(layout: .rgba, bitDepth: 16, format: .ushort, interpretation: .rgb16),
    Expected(layout: .grey, bitDepth: 16, format: .ushort, interpretation: .grey16),
  ]

  @Test(arguments: pngCases)
  func pngPropertiesAreReadCorrectly(expected: Expected) throws {
    try withTemporaryDirectory { directory in
      let source = try Fixtures.gradient(
        width: 37, height: 23, layout: expected.layout, bitDepth: expected.bitDepth)
      let url = try Fixtures.write(source, as: .png, named: "image", in: directory)
      let image = try VipsImage.load(path: url.path)
      #expect(image.width == 37)
      #expect(image.height == 23)
      #expect(image.bands == expected.layout.bands)
      #expect(image.hasAlpha == expected.layout.hasAlpha)
      #expect(image.format == expected.format)
      #expect(image.format.bits == expected.bitDepth)
      #expect(image.interpretation == expected.interpretation)
      #expect(image.orientation == 1)
      #expect(!image.hasICCProfile)
      #expect(image.loader == "pngload")
      #expect(image.pageCount == 1)
    }
  }

  @Test func jpegPropertiesIncludeOrientation() throws {
    try withTemporaryDirectory { directory in
      let source = try Fixtures.gradient(width: 64, height: 32).settingInt("orientation", 8)
      let url = try Fixtures.write(
        source, as: .jpeg, named: "tagged", in: directory,
        options: SaveOptions(stripMetadata: false))
      let image = try VipsImage.load(path: url.path)
      #expect(image.width == 64 && image.height == 32)
      #expect(image.bands == 3)
      #expect(!image.hasAlpha)
      #expect(image.format == .uchar)
      #expect(image.interpretation == .srgb)
      #expect(image.orientation == 8)
      #expect(image.intField("orientation") == 8)
      #expect(image.loader == "jpegload")
    }
  }

  @Test func cmykJPEGPropertiesAreReadCorrectly() throws {
    try withTemporaryDirectory { directory in
      let source = try Fixtures.gradient(width: 48, height: 40)
      let withProfile = try Fixtures.cmykJPEG(from: source, in: directory)
      let image = try VipsImage.load(path: withProfile.path)
      #expect(image.width == 48 && image.height == 40)
      #expect(image.bands == 4)
      #expect(!image.hasAlpha, "the fourth CMYK band is K, not alpha")
      #expect(image.format == .uchar)
      #expect(image.interpretation == .cmyk)
      #expect(image.orientation == 1)
      #expect(image.hasICCProfile)
      #expect(image.loader == "jpegload")

      let bare = try Fixtures.cmykJPEG(
        from: source, named: "bare.jpg", in: directory, embedProfile: false)
      let bareImage = try VipsImage.load(path: bare.path)
      #expect(bareImage.interpretation == .cmyk)
      #expect(!bareImage.hasICCProfile)
    }
  }

  @Test func webpPropertiesAreReadCorrectly() throws {
    let source = try Fixtures.gradient(width: 30, height: 20, layout: .rgba)
    let image = try VipsImage.load(bytes: source.encoded(as: .webp))
    #expect(image.width == 30 && image.height == 20)
    #expect(image.bands == 4 && image.hasAlpha)
    #expect(image.interpretation == .srgb)
    #expect(image.loader == "webpload_buffer")
  }

  @Test func headerFieldsCanBeReadSetAndRemoved() throws {
    try withTemporaryDirectory { directory in
      let url = try Fixtures.write(
        Fixtures.gradient(width: 8, height: 8), as: .png, named: "fields", in: directory)
      let image = try VipsImage.load(path: url.path)
      // "filename" is a built-in string property, not a metadata entry.
      #expect(image.stringField("filename") == url.path)
      #expect(image.stringField("vips-loader") == "pngload")
      #expect(image.stringField("no-such-field") == nil)
      #expect(image.stringField("width") == nil, "an int field is not a string")
      #expect(image.intField("width") == 8)
      #expect(image.intField("no-such-field") == nil)

      let tagged = try image.settingInt("orientation", 3)
      #expect(tagged.orientation == 3)
      #expect(image.orientation == 1, "setting a field must not change the original")
      let untagged = try tagged.removingField("orientation")
      #expect(untagged.orientation == 1)
      #expect(untagged.intField("orientation") == nil)
      #expect(tagged.orientation == 3, "removing a field must not change the original")
    }
  }
}
