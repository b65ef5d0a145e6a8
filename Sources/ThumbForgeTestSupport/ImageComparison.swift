package import Vips

/// The pixel difference between two images of the same size.
///
/// Both images are converted to 8-bit sRGB (``VipsImage/toSRGB8()``, so CMYK, 16-bit and
/// grey inputs compare fairly). Alpha is **compared as a band**: when either image has
/// alpha, an opaque alpha is added to the other, and colour is premultiplied by alpha
/// before it is compared. So a change in transparency always counts, while colour hidden
/// under fully transparent pixels (which encoders such as WebP are free to change) does not.
/// Differences are per sample on the 0–255 scale.
package struct ImageComparison: Sendable, Equatable, CustomStringConvertible {
  /// Width of both images.
  package let width: Int
  /// Height of both images.
  package let height: Int
  /// Bands compared: 3 (RGB) or 4 (RGB premultiplied, plus alpha).
  package let bands: Int
  /// Mean absolute difference over every sample of every band (0–255).
  package let meanDifference: Double
  /// Largest absolute difference of any one sample (0–255).
  package let maxDifference: Double
  /// Perceptual hash of the first (expected) image.
  package let expectedHash: PerceptualHash
  /// Perceptual hash of the second (actual) image.
  package let actualHash: PerceptualHash

  /// How many of the 64 perceptual-hash bits differ (0 = same look, > 10 = different).
  package var hashDistance: Int { expectedHash.distance(to: actualHash) }

  /// Whether every compared sample is equal.
  package var isIdentical: Bool { maxDifference == 0 }

  /// Compares `actual` against `expected`.
  /// - Throws: ``ImageComparisonError``: a size mismatch when the sizes differ, or the
  ///   libvips error when conversion fails.
  package init(_ expected: VipsImage, _ actual: VipsImage) throws(ImageComparisonError) {
    guard expected.width == actual.width, expected.height == actual.height else {
      throw .sizeMismatch(
        expectedWidth: expected.width, expectedHeight: expected.height,
        actualWidth: actual.width, actualHeight: actual.height)
    }
    let withAlpha = expected.hasAlpha || actual.hasAlpha
    let expectedRGB: VipsImage
    let actualRGB: VipsImage
    do throws(VipsError) {
      expectedRGB = try Self.normalized(expected, withAlpha: withAlpha)
      actualRGB = try Self.normalized(actual, withAlpha: withAlpha)
    } catch {
      throw .vips(error)
    }
    let bands = expectedRGB.bands
    guard bands == 3 || bands == 4 else { throw .unsupportedBands(bands) }
    guard actualRGB.bands == bands else { throw .unsupportedBands(actualRGB.bands) }
    let left: [UInt8]
    let right: [UInt8]
    do throws(VipsError) {
      left = try expectedRGB.pixelBytes()
      right = try actualRGB.pixelBytes()
      expectedHash = try PerceptualHash(expected)
      actualHash = try PerceptualHash(actual)
    } catch {
      throw .vips(error)
    }
    guard left.count == right.count, left.count == expected.width * expected.height * bands
    else {
      throw .unsupportedBands(bands)
    }
    let (sum, largest) = Self.differences(left, right, bands: bands)
    width = expected.width
    height = expected.height
    self.bands = bands
    meanDifference = left.isEmpty ? 0 : sum / Double(left.count)
    maxDifference = largest
  }

  /// Compares `actual` against `expected`; the same as ``init(_:_:)``.
  package static func compare(_ expected: VipsImage, _ actual: VipsImage)
    throws(ImageComparisonError) -> ImageComparison
  {
    try ImageComparison(expected, actual)
  }

  /// Whether the difference is within `tolerance`.
  package func isWithin(_ tolerance: ImageTolerance) -> Bool {
    tolerance.accepts(self)
  }

  /// The size and every difference, for failure messages.
  package var description: String {
    let mean = (meanDifference * 1000).rounded() / 1000
    let max = (maxDifference * 1000).rounded() / 1000
    return "\(width)×\(height)×\(bands): mean difference \(mean), max difference \(max), "
      + "hash distance \(hashDistance) (\(expectedHash) vs \(actualHash))"
  }

  // MARK: - Internals

  private static func normalized(_ image: VipsImage, withAlpha: Bool) throws(VipsError)
    -> VipsImage
  {
    let rgb = try image.toSRGB8()
    return withAlpha ? try rgb.addingAlpha() : rgb
  }

  /// Sum and maximum of absolute sample differences; with 4 bands colour is premultiplied.
  private static func differences(_ left: [UInt8], _ right: [UInt8], bands: Int) -> (
    Double, Double
  ) {
    var sum = 0.0
    var largest = 0.0
    left.withUnsafeBufferPointer { a in
      right.withUnsafeBufferPointer { b in
        var index = 0
        while index < a.count {
          if bands == 4 {
            let alphaA = Double(a[index + 3]) / 255
            let alphaB = Double(b[index + 3]) / 255
            for band in 0..<3 {
              let difference = abs(
                Double(a[index + band]) * alphaA - Double(b[index + band]) * alphaB)
              sum += difference
              largest = max(largest, difference)
            }
            let difference = abs(Double(a[index + 3]) - Double(b[index + 3]))
            sum += difference
            largest = max(largest, difference)
          } else {
            for band in 0..<bands {
              let difference = abs(Double(a[index + band]) - Double(b[index + band]))
              sum += difference
              largest = max(largest, difference)
            }
          }
          index += bands
        }
      }
    }
    return (sum, largest)
  }
}
