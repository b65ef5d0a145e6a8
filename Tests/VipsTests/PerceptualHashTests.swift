import Testing
import ThumbForgeTestSupport
import Vips

@Suite struct PerceptualHashTests {
  @Test func hashIsStableAcrossSizeAndEncoding() throws {
    let large = try Fixtures.gradient(width: 160, height: 120)
    let small = try large.resize(width: 40, height: 30)
    let jpeg = try VipsImage.load(
      bytes: large.encoded(as: .jpeg, options: SaveOptions(quality: 60)))
    let reference = try PerceptualHash(large)
    #expect(reference.distance(to: try PerceptualHash(small)) <= 2)
    #expect(reference.distance(to: try PerceptualHash(jpeg)) <= 2)
    #expect(reference == (try PerceptualHash(Fixtures.gradient(width: 160, height: 120))))
  }

  @Test func quadrantsHashToTheirBrightness() throws {
    // Luma: red 76, green 150, blue 29, yellow 226; mean 120 → green and yellow are bright.
    let hash = try PerceptualHash(Fixtures.quadrants(width: 80, height: 80))
    #expect(hash.bits == 0x0F0F_0F0F_0F0F_0F0F)
    #expect(hash.description == "0f0f0f0f0f0f0f0f")
  }

  @Test func flatImageHashesToZero() throws {
    let flat = try VipsImage.solid(width: 20, height: 20, color: [90, 90, 90])
    #expect(try PerceptualHash(flat).bits == 0)
  }

  @Test func transparentAreasHashAsWhite() throws {
    let transparent = try VipsImage.solid(width: 16, height: 16, color: [0, 0, 0, 0])
    let white = try VipsImage.solid(width: 16, height: 16, color: [255, 255, 255])
    #expect(try PerceptualHash(transparent) == PerceptualHash(white))
  }

  @Test(arguments: [
    (UInt64(0), UInt64(0), 0), (0, UInt64.max, 64), (0b1011, 0b0110, 3),
    (0x8000_0000_0000_0001, 1, 1),
  ])
  func hammingDistance(left: UInt64, right: UInt64, expected: Int) {
    let a = PerceptualHash(bits: left)
    let b = PerceptualHash(bits: right)
    #expect(a.distance(to: b) == expected)
    #expect(b.distance(to: a) == expected)
  }
}
