internal import ThumbForgeBasics
internal import Vips

/// Rendered masks and borders (``OutputShape``), by their SVG text.
///
/// Every flag of one size has the same mask and border, and rendering them (librsvg through
/// libvips' `svgload`) cost about as much as the rest of a flag output, a visible part of
/// the end of a build such as SnowSeeker's. The pixels are kept, never an image:
/// each use gets a memory image of its own, linked to no other, so that no pipeline shares
/// an image with another thread's. The pixels are the ones `svgload` gives, so the outputs
/// are the same bytes as without the cache. The least recently used shapes go first when
/// the budget is full (``LRUCache``).
final class ShapeCache: Sendable {
  /// The process's cache (a build's jobs and `serve`'s renders share it).
  static let shared = ShapeCache(budget: 8 << 20)

  private struct Pixels: Sendable {
    let bytes: [UInt8]
    let width: Int
    let height: Int
    let bands: Int
  }

  private let entries: LRUCache<Pixels>

  /// A cache of at most `budget` pixel bytes; a shape over an eighth of it is never kept.
  init(budget: Int) {
    entries = LRUCache(capacity: budget, largestEntry: budget / 8)
  }

  /// The image `svg` renders to: from the cache, or rendered now (and kept when small).
  func image(svg: String) throws(VipsError) -> VipsImage {
    if let kept = entries.value(for: svg) {
      return try VipsImage.pixels(
        kept.bytes, width: kept.width, height: kept.height, bands: kept.bands)
    }
    let rendered = try VipsImage.svg(svg)
    let size = rendered.width * rendered.height * rendered.bands
    guard rendered.format == .uchar, size <= entries.largestEntry else { return rendered }
    let pixels = Pixels(
      bytes: try rendered.pixelBytes(), width: rendered.width, height: rendered.height,
      bands: rendered.bands)
    entries.store(pixels, cost: size, for: svg)
    return try VipsImage.pixels(
      pixels.bytes, width: pixels.width, height: pixels.height, bands: pixels.bands)
  }

  /// How many shapes are kept (for tests).
  var count: Int { entries.usage.entries }

  /// Whether the shape of `svg` is kept (for tests; a lookup, so it counts as a use).
  func holds(_ svg: String) -> Bool { entries.value(for: svg) != nil }
}
