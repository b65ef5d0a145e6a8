import Testing
import ThumbForgeTestSupport
import Vips

@Suite struct ImageComparisonTests {
  @Test func identicalImagesHaveNoDifference() throws {
    let image = try Fixtures.gradient(width: 64, height: 48)
    let copy = try Fixtures.gradient(width: 64, height: 48)
    let comparison = try ImageComparison(image, copy)
    #expect(comparison.isIdentical)
    #expect(comparison.meanDifference == 0)
    #expect(comparison.maxDifference == 0)
    #expect(comparison.hashDistance == 0)
    #expect(comparison.width == 64 && comparison.height == 48 && comparison.bands == 3)
  }

  @Test func uniformOffsetGivesThatDifference() throws {
    let dark = try VipsImage.solid(width: 10, height: 10, color: [100, 100, 100])
    let light = try VipsImage.solid(width: 10, height: 10, color: [110, 100, 90])
    let comparison = try ImageComparison.compare(dark, light)
    #expect(comparison.maxDifference == 10)
    #expect(abs(comparison.meanDifference - 20.0 / 3) < 1e-9)
  }

  @Test func singlePixelChangeIsFoundByMaxDifference() throws {
    let base = try Fixtures.gradient(width: 32, height: 32)
    let bytes = try base.pixelBytes()
    let changed = try Fixtures.image(width: 32, height: 32, layout: .rgb) { x, y, band in
      x == 5 && y == 7 && band == 1 ? 0 : Int(bytes[(y * 32 + x) * 3 + band])
    }
    let comparison = try ImageComparison(base, changed)
    let original = try base.pixel(x: 5, y: 7)[1]
    #expect(comparison.maxDifference == original)
    #expect(abs(comparison.meanDifference - original / Double(32 * 32 * 3)) < 1e-9)
  }

  @Test func differentSizesFailClearly() throws {
    let small = try VipsImage.solid(width: 10, height: 10, color: [0, 0, 0])
    let large = try VipsImage.solid(width: 12, height: 10, color: [0, 0, 0])
    let error = try #require(throws: ImageComparisonError.self) {
      try ImageComparison(small, large)
    }
    #expect(
      error
        == .sizeMismatch(expectedWidth: 10, expectedHeight: 10, actualWidth: 12, actualHeight: 10))
    #expect(error.description.contains("10×10"))
    #expect(error.description.contains("12×10"))
  }

  @Test func greyAndEquivalentRGBCompareEqual() throws {
    let grey = try VipsImage.solid(width: 8, height: 8, color: [77])
    let rgb = try VipsImage.solid(width: 8, height: 8, color: [77, 77, 77])
    #expect(try ImageComparison(grey, rgb).isIdentical)
  }

  @Test func sixteenBitComparesOnTheEightBitScale() throws {
    let eight = try Fixtures.gradient(width: 40, height: 30, layout: .rgb, bitDepth: 8)
    let sixteen = try Fixtures.gradient(width: 40, height: 30, layout: .rgb, bitDepth: 16)
    let comparison = try ImageComparison(eight, sixteen)
    #expect(comparison.maxDifference <= 1, "\(comparison)")
  }

  @Test func colourUnderFullTransparencyIsIgnored() throws {
    let red = try Fixtures.image(width: 4, height: 4, layout: .rgba) { _, _, band in
      band == 0 ? 255 : 0
    }
    let blue = try Fixtures.image(width: 4, height: 4, layout: .rgba) { _, _, band in
      band == 2 ? 255 : 0
    }
    #expect(try ImageComparison(red, blue).isIdentical)
  }

  @Test func alphaDifferencesCount() throws {
    let opaque = try VipsImage.solid(width: 4, height: 4, color: [200, 200, 200])
    let halfTransparent = try VipsImage.solid(width: 4, height: 4, color: [200, 200, 200, 127])
    let comparison = try ImageComparison(opaque, halfTransparent)
    #expect(comparison.bands == 4)
    // Alpha differs by 128; premultiplied colour by 200 × 128 / 255.
    #expect(comparison.maxDifference == 128)
    let colour = 200.0 * 128 / 255
    #expect(abs(comparison.meanDifference - (3 * colour + 128) / 4) < 1e-9)
  }

  @Test func lossyRoundTripIsWithinLossyTolerance() throws {
    let image = try Fixtures.gradient(width: 96, height: 64)
    let jpeg = try VipsImage.load(
      bytes: image.encoded(as: .jpeg, options: SaveOptions(quality: 90)))
    let comparison = try ImageComparison(image, jpeg)
    #expect(!comparison.isIdentical)
    #expect(comparison.isWithin(.lossy), "\(comparison)")
    #expect(!comparison.isWithin(.exact))
  }

  @Test func differentPicturesAreFarApart() throws {
    let gradient = try Fixtures.gradient(width: 64, height: 64)
    let quadrants = try Fixtures.quadrants(width: 64, height: 64)
    let comparison = try ImageComparison(gradient, quadrants)
    #expect(comparison.meanDifference > 30, "\(comparison)")
    #expect(comparison.hashDistance > 10, "\(comparison)")
    #expect(!comparison.isWithin(.perceptual))
  }

  @Test func descriptionNamesTheNumbers() throws {
    let a = try VipsImage.solid(width: 3, height: 2, color: [0, 0, 0])
    let b = try VipsImage.solid(width: 3, height: 2, color: [0, 0, 12])
    let text = "\(try ImageComparison(a, b))"
    #expect(text.contains("3×2×3"))
    #expect(text.contains("max difference 12"))
  }
}
