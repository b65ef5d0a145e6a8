import Testing
import ThumbForgeTestSupport
import Vips

/// An image with alpha is enlarged with the same kernel as an opaque one: libvips 8.14's
/// `resize` would enlarge it bicubically whatever the kernel, so ThumbForge's float
/// resampler does it instead.
@Suite struct AlphaEnlargementTests {
  @Test("an opaque-alpha image enlarges to the opaque image's pixels", arguments: [1.5, 2, 3])
  func enlargedLikeOpaque(factor: Double) throws {
    let opaque = try Fixtures.gradient(width: 37, height: 23, layout: .rgb).copiedToMemory()
    let withAlpha = try opaque.addingAlpha().copiedToMemory()
    let request = ResizeRequest(
      width: Int((37 * factor).rounded()), height: Int((23 * factor).rounded()))
    let plain = try resized(opaque, request)
    let enlarged = try resized(withAlpha, request)
    #expect(enlarged.hasAlpha && enlarged.width == plain.width && enlarged.height == plain.height)
    let colour = try enlarged.pixelBytes().enumerated().filter { $0.offset % 4 != 3 }.map(\.element)
    let alpha = try enlarged.pixelBytes().enumerated().filter { $0.offset % 4 == 3 }.map(\.element)
    let reference = try plain.pixelBytes()
    // The 8-bit resampler rounds between its passes; the float one does not.
    let worst = zip(colour, reference).map { abs(Int($0) - Int($1)) }.max() ?? 0
    #expect(worst <= 1, "colour differs from the opaque enlargement by up to \(worst)")
    #expect(alpha.allSatisfy { $0 == 255 })
  }

  /// The one resize a master of `image` makes for `request`.
  func resized(_ image: VipsImage, _ request: ResizeRequest) throws -> VipsImage {
    var made: VipsImage?
    try MasterImage(decoded: image).resize([request]) { _, image throws(VipsError) in
      made = try image.copiedToMemory()
    }
    return try #require(made)
  }
}
