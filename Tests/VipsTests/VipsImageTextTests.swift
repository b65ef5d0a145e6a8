import Testing
import ThumbForgeTestSupport
import Vips

@Suite struct VipsImageTextTests {
  @Test(.enabled(if: Vips.hasOperation("text"), "libvips was built without Pango text"))
  func textRendersAOneBandMask() throws {
    let label = try VipsImage.text("ThumbForge", dpi: 144)
    #expect(label.bands == 1)
    #expect(label.format == .uchar)
    #expect(label.width > 0 && label.height > 0)
    #expect(try label.average() > 0, "some ink")
    let larger = try VipsImage.text("ThumbForge", dpi: 288)
    #expect(larger.width > label.width)
  }

  @Test(.enabled(if: Vips.hasOperation("text"), "libvips was built without Pango text"))
  func textWrapsToWidth() throws {
    let words = "one two three four five six seven eight nine ten"
    let wide = try VipsImage.text(words)
    let narrow = try VipsImage.text(words, width: 60)
    #expect(narrow.width <= 60)
    #expect(narrow.height > wide.height)
  }

  @Test func gridLaysImagesOutInRows() throws {
    let tiles = try (0..<5).map { index in
      try VipsImage.solid(width: 10, height: 8, color: [Double(index * 50), 0, 0])
    }
    let grid = try VipsImage.grid(tiles, across: 3, shim: 2, background: [0, 0, 255])
    #expect(grid.width == 3 * 10 + 2 * 2)
    #expect(grid.height == 2 * 8 + 2)
    #expect(try grid.pixel(x: 12, y: 0) == [50, 0, 0])
    #expect(try grid.pixel(x: 0, y: 10) == [150, 0, 0])
    #expect(try grid.pixel(x: 14, y: 10) == [200, 0, 0])
    #expect(try grid.pixel(x: 10, y: 0) == [0, 0, 255], "the shim is background")
    #expect(try grid.pixel(x: 30, y: 15) == [0, 0, 255], "the empty cell is background")
  }
}
