import CVips
import Foundation
import Testing
import ThumbForgeTestSupport

@testable import Vips

@Suite struct VipsImageColourTests {
  struct Source: Sendable, CustomStringConvertible {
    var layout: PixelLayout
    var bitDepth: Int
    var description: String { "\(layout) \(bitDepth)-bit" }
  }

  static let sources: [Source] = PixelLayout.allCases.flatMap { layout in
    [Source(layout: layout, bitDepth: 8), Source(layout: layout, bitDepth: 16)]
  }

  @Test("rounded() rounds float values to the nearest integer, where cast truncates")
  func roundedRoundsToNearest() throws {
    let float = try Fixtures.gradient(width: 16, height: 8, layout: .rgba).premultiplied()
    let rounded = try float.rounded().cast(to: .uchar)
    let truncated = try float.cast(to: .uchar)
    var truncatedAway = 0
    for y in 0..<8 {
      for x in 0..<16 {
        let values = try float.pixel(x: x, y: y)
        #expect(try rounded.pixel(x: x, y: y) == values.map { $0.rounded(.toNearestOrEven) })
        if try truncated.pixel(x: x, y: y) != values.map({ $0.rounded(.toNearestOrEven) }) {
          truncatedAway += 1
        }
      }
    }
    #expect(truncatedAway > 0, "the fixture has values that a cast truncates")
  }

  @Test(arguments: sources)
  func toSRGB8GivesUcharSRGB(source: Source) throws {
    let image = try Fixtures.gradient(
      width: 40, height: 30, layout: source.layout, bitDepth: source.bitDepth)
    let converted = try image.toSRGB8()
    #expect(converted.format == .uchar)
    #expect(converted.interpretation == .srgb)
    #expect(converted.bands == (source.layout.hasAlpha ? 4 : 3))
    #expect(converted.hasAlpha == source.layout.hasAlpha)
    // The 16-bit fixture holds the same picture at higher precision.
    let eightBit = try Fixtures.gradient(width: 40, height: 30, layout: source.layout)
    // 16→8 bit conversion may be one level off; premultiplying by alpha can double that.
    let comparison = try ImageComparison(eightBit, converted)
    #expect(comparison.maxDifference <= (source.layout.hasAlpha ? 2 : 1), "\(comparison)")
  }

  @Test func greyBecomesEqualRGB() throws {
    let grey = try VipsImage.solid(width: 4, height: 4, color: [90])
    #expect(try grey.toSRGB8().pixel(x: 1, y: 1) == [90, 90, 90])
    let greyAlpha = try VipsImage.solid(width: 4, height: 4, color: [90, 128])
    #expect(try greyAlpha.toSRGB8().pixel(x: 1, y: 1) == [90, 90, 90, 128])
  }

  @Test func eightBitSRGBIsReturnedUnchanged() throws {
    let image = try Fixtures.gradient(width: 10, height: 10, layout: .rgba)
    #expect(try image.toSRGB8() === image)
  }

  @Test func cmykBecomesSRGB() throws {
    try withTemporaryDirectory { directory in
      // Greys survive a trip through CMYK almost unchanged; the saturated gradient loses
      // gamut (mean difference around 17) but must stay the same picture.
      let grey = try Fixtures.gradient(width: 48, height: 32, layout: .grey).toSRGB8()
      let colourful = try Fixtures.gradient(width: 48, height: 32)
      for embed in [true, false] {
        for (name, original, meanLimit) in [("grey", grey, 4.0), ("colour", colourful, 25)] {
          let url = try Fixtures.cmykJPEG(
            from: original, named: "\(name)-\(embed).jpg", in: directory, embedProfile: embed)
          let cmyk = try VipsImage.load(path: url.path)
          #expect(cmyk.interpretation == .cmyk)
          #expect(cmyk.hasICCProfile == embed)
          let converted = try cmyk.toSRGB8()
          #expect(converted.interpretation == .srgb)
          #expect(converted.format == .uchar)
          #expect(converted.bands == 3)
          let comparison = try ImageComparison(original, converted)
          #expect(comparison.meanDifference < meanLimit, "\(name), profile \(embed): \(comparison)")
          #expect(comparison.hashDistance <= 4, "\(name), profile \(embed): \(comparison)")
        }
      }
    }
  }

  @Test func addingAlphaIsOpaqueAtEveryDepth() throws {
    let rgb = try Fixtures.gradient(width: 10, height: 10)
    let rgba = try rgb.addingAlpha()
    #expect(rgba.bands == 4 && rgba.hasAlpha)
    #expect(try rgba.pixel(x: 3, y: 3) == rgb.pixel(x: 3, y: 3) + [255])
    #expect(try rgba.addingAlpha() === rgba)

    let grey = try VipsImage.solid(width: 3, height: 3, color: [40])
    #expect(try grey.addingAlpha().pixel(x: 0, y: 0) == [40, 255])

    let deep = try Fixtures.gradient(width: 10, height: 10, layout: .rgb, bitDepth: 16)
    let deepAlpha = try deep.addingAlpha()
    #expect(deepAlpha.format == .ushort)
    #expect(try deepAlpha.pixel(x: 3, y: 3).last == 65535)
    #expect(try deepAlpha.toSRGB8().pixel(x: 3, y: 3).last == 255, "still opaque in 8-bit")

    let deepGrey = try Fixtures.gradient(width: 10, height: 10, layout: .grey, bitDepth: 16)
    #expect(try deepGrey.addingAlpha().pixel(x: 0, y: 0).last == 65535)
  }

  /// An 8-bit memory image gets its alpha without libvips' `bandjoin_const`: the same
  /// pixels, header and metadata as that operation gives.
  @Test(arguments: [PixelLayout.grey, .rgb])
  func addingAlphaInMemoryMatchesBandjoinConst(layout: PixelLayout) throws {
    let lazy = try Fixtures.gradient(width: 37, height: 11, layout: layout)
      .settingBlob("xmp-data", Array("<x:xmpmeta/>".utf8))
    let memory = try lazy.copiedToMemory()
    let reference = try VipsOperation.image(
      "bandjoin_const", ["in": .image(memory), "c": .doubles([255])])
    let added = try memory.addingAlpha()
    #expect(cvips_image_is_memory(added.pointer) != 0, "made without the operation")
    #expect(added.bands == reference.bands && added.interpretation == reference.interpretation)
    #expect(try added.pixelBytes() == reference.pixelBytes())
    #expect(added.hasMetadata && reference.hasMetadata, "the metadata kept")
  }

  @Test func flattenedBlendsOntoTheBackground() throws {
    let half = try VipsImage.solid(width: 4, height: 4, color: [200, 0, 0, 128])
    let onWhite = try half.flattened(background: [255, 255, 255])
    #expect(onWhite.bands == 3 && !onWhite.hasAlpha)
    #expect(approximately(try onWhite.pixel(x: 0, y: 0), [227, 127, 127]))
    let onBlack = try half.flattened(background: [0, 0, 0])
    #expect(approximately(try onBlack.pixel(x: 0, y: 0), [100, 0, 0]))
    let opaque = try VipsImage.solid(width: 4, height: 4, color: [1, 2, 3])
    #expect(try opaque.flattened(background: [255, 255, 255]) === opaque)
  }

  @Test(arguments: [PixelLayout.greyAlpha, .rgba], [8, 16])
  func flattenedTransparentCornersTakeTheBackground(layout: PixelLayout, bitDepth: Int) throws {
    // The fixture's corners are fully transparent, its centre opaque.
    let image = try Fixtures.gradient(width: 30, height: 20, layout: layout, bitDepth: bitDepth)
    let flat = try image.flattened(background: [255, 255, 255]).toSRGB8()
    #expect(flat.bands == 3)
    #expect(try flat.pixel(x: 0, y: 0) == [255, 255, 255], "\(layout) \(bitDepth)-bit")
    let centre = try image.toSRGB8().pixel(x: 15, y: 10)
    #expect(try flat.pixel(x: 15, y: 10) == Array(centre.prefix(3)))
  }

  @Test func bandjoinAndExtractBand() throws {
    let red = try VipsImage.solid(width: 5, height: 5, color: [10])
    let green = try VipsImage.solid(width: 5, height: 5, color: [20])
    let blue = try VipsImage.solid(width: 5, height: 5, color: [30])
    let joined = try red.bandjoin([green, blue])
    #expect(joined.bands == 3)
    #expect(try joined.pixel(x: 2, y: 2) == [10, 20, 30])
    #expect(try joined.extractBand(1).pixel(x: 0, y: 0) == [20])
    #expect(try joined.extractBand(1, count: 2).pixel(x: 0, y: 0) == [20, 30])
  }

  @Test func compositeOverBlendsByAlpha() throws {
    let base = try VipsImage.solid(width: 20, height: 20, color: [255, 255, 255])
    let overlay = try VipsImage.solid(width: 10, height: 10, color: [255, 0, 0, 128])
    let result = try base.composite(overlay, mode: .over, x: 5, y: 5)
    #expect(result.width == 20 && result.height == 20)
    #expect(approximately(try result.pixel(x: 0, y: 0), [255, 255, 255, 255]))
    #expect(approximately(try result.pixel(x: 10, y: 10), [255, 127, 127, 255]))
    #expect(approximately(try result.pixel(x: 15, y: 15), [255, 255, 255, 255]))
  }

  @Test func compositeDestInMasksTheBase() throws {
    let base = try VipsImage.solid(width: 8, height: 8, color: [0, 0, 255, 255])
    let mask = try VipsImage.solid(width: 8, height: 8, color: [0, 0, 0, 0])
    let masked = try base.composite(mask, mode: .destIn)
    #expect(try masked.pixel(x: 4, y: 4).last == 0)
  }

  @Test func premultiplyRoundTrips() throws {
    let image = try VipsImage.solid(width: 4, height: 4, color: [200, 100, 50, 128])
    let premultiplied = try image.premultiplied()
    #expect(
      approximately(try premultiplied.pixel(x: 0, y: 0), [100.4, 50.2, 25.1, 128], tolerance: 0.1))
    let restored = try premultiplied.unpremultiplied().cast(to: .uchar)
    #expect(approximately(try restored.pixel(x: 0, y: 0), [200, 100, 50, 128]))
  }

  @Test func castClipsRatherThanScales() throws {
    let deep = try Fixtures.image(width: 2, height: 1, layout: .grey, bitDepth: 16) { x, _, _ in
      x == 0 ? 100 : 60000
    }
    let narrowed = try deep.cast(to: .uchar)
    #expect(narrowed.format == .uchar)
    #expect(try narrowed.pixelBytes() == [100, 255])
    #expect(try deep.cast(to: .float).format == .float)
  }

  @Test func averageAndPixelBytes() throws {
    let image = try VipsImage.solid(width: 3, height: 2, color: [10, 20, 30])
    #expect(try image.average() == 20)
    #expect(try image.pixelBytes() == Array(repeating: [10, 20, 30], count: 6).flatMap { $0 })
    #expect(try image.copiedToMemory().pixelBytes() == image.pixelBytes())
  }

  @Test(arguments: [
    (Interpretation.bw, 1, BandFormat.uchar), (.grey16, 1, .ushort), (.rgb16, 3, .ushort),
    (.cmyk, 4, .uchar), (.lab, 3, .float), (.srgb, 3, .uchar),
  ])
  func colourspaceConverts(space: Interpretation, bands: Int, format: BandFormat) throws {
    let image = try Fixtures.gradient(width: 24, height: 16)
    let converted = try image.colourspace(space)
    #expect(converted.interpretation == space)
    #expect(converted.bands == bands)
    #expect(converted.format == format)
    // And back: every one of these spaces returns to (nearly) the same sRGB picture.
    let back = try converted.toSRGB8()
    #expect(try ImageComparison(image, back).hashDistance <= 4)
  }

  @Test func colourspaceKeepsAlpha() throws {
    let image = try Fixtures.gradient(width: 24, height: 16, layout: .rgba)
    let grey = try image.colourspace(.bw)
    #expect(grey.bands == 2 && grey.hasAlpha)
    #expect(try grey.pixel(x: 0, y: 0).last == 0)
    let deep = try image.colourspace(.rgb16)
    #expect(deep.bands == 4)
    #expect(try deep.pixel(x: 12, y: 8).last == 65535)
  }
}
