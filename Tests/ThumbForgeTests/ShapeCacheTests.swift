import Testing
import Vips

@testable import ThumbForge
@testable import ThumbForgeRendering

/// Flag masks and borders are rendered once per shape and given out as pixels of their
/// own: the same pixels as rendering them each time.
@Suite struct ShapeCacheTests {
  static func svg(width: Int, height: Int, radius: Int) -> String {
    "<svg xmlns=\"http://www.w3.org/2000/svg\" width=\"\(width)\" height=\"\(height)\"><rect width=\"\(width)\" height=\"\(height)\" rx=\"\(radius)\" fill=\"#fff\"/></svg>"
  }

  @Test func aShapeIsRenderedOnceAndGivesLibrsvgsPixels() throws {
    let cache = ShapeCache(budget: 1 << 20)
    let text = Self.svg(width: 80, height: 50, radius: 10)
    let first = try cache.image(svg: text)
    let second = try cache.image(svg: text)
    #expect(cache.count == 1)
    let rendered = try VipsImage.svg(text).pixelBytes()
    #expect(try first.pixelBytes() == rendered)
    #expect(try second.pixelBytes() == rendered)
    // Each use has an image of its own.
    #expect(first !== second)
    #expect(second.width == 80 && second.height == 50 && second.bands == 4)
  }

  @Test func largeShapesAreNotKeptAndAFullCacheDropsTheLeastRecentlyUsed() throws {
    // 80 x 50 x 4 bytes = 16 000: an eighth of the budget at most, eight fit.
    let cache = ShapeCache(budget: 8 * 16_000)
    _ = try cache.image(svg: Self.svg(width: 81, height: 50, radius: 5))
    #expect(cache.count == 0)
    for radius in 1...8 {
      _ = try cache.image(svg: Self.svg(width: 80, height: 50, radius: radius))
    }
    #expect(cache.count == 8)
    // The first shape is used again; the ninth then evicts the second, the least recent.
    _ = try cache.image(svg: Self.svg(width: 80, height: 50, radius: 1))
    _ = try cache.image(svg: Self.svg(width: 80, height: 50, radius: 9))
    #expect(cache.count == 8)
    #expect(cache.holds(Self.svg(width: 80, height: 50, radius: 1)))
    #expect(!cache.holds(Self.svg(width: 80, height: 50, radius: 2)))
    #expect(cache.holds(Self.svg(width: 80, height: 50, radius: 9)))
  }
}
