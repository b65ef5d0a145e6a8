import Testing

@testable import Vips

/// Sizes beyond 32 bits, or beyond libvips' largest side, are errors at the one place they
/// become C integers, never traps.
@Suite("Checked 32-bit sizes")
struct PixelCountTests {
  @Test("int32 narrows what fits and names what does not")
  func narrowing() throws {
    #expect(try PixelCount.int32(2_147_483_647, "w") == Int32.max)
    #expect(throws: VipsError.self) { try PixelCount.int32(2_147_483_648, "w") }
    #expect(throws: VipsError.self) { try PixelCount.int32(rounding: .infinity, "w") }
    #expect(throws: VipsError.self) { try PixelCount.int32(rounding: .nan, "w") }
    #expect(throws: VipsError.self) { try PixelCount.checkSides(1, 10_000_001, "x") }
  }

  @Test("a resize to a side past libvips' limit throws, in every resize path")
  func hugeResizes() throws {
    let opaque = try VipsImage.solid(width: 1, height: 4, color: [9, 9, 9])
    let withAlpha = try VipsImage.solid(width: 1, height: 4, color: [9, 9, 9, 255])
    let corner = VipsRect(x: 0, y: 0, width: 1, height: 1)
    for image in [opaque, withAlpha] {
      for height in [10_000_001, 2_400_000_000, Int(Int32.max) + 1, Int.max / 2] {
        #expect(throws: VipsError.self) {
          try image.resize(width: 1, height: height, region: corner)
        }
        #expect(throws: VipsError.self) {
          try image.resizedInOnePass(
            [ResizeRequest(width: 1, height: height, region: corner)], alsoHalve: false)
        }
      }
    }
    #expect(throws: VipsError.self) {
      try opaque.embed(x: 0, y: 0, width: 1, height: 3_000_000_000)
    }
  }
}
