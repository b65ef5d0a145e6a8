internal import Vips

/// Raster masters kept decoded (upright, 8-bit sRGB, in memory) between on-demand renders of
/// outputs outside the catalog's plan, by content hash: a new size of a photo costs a resize
/// and an encode, not a decode (progressive JPEGs decode in tens of milliseconds). Capped in
/// bytes; the least recently used images go first.
public final class DecodedMasters: Sendable {
  private let images: LRUCache<VipsImage>

  /// A cache holding at most `capacity` bytes of pixels (one image at most half of it).
  public init(capacity: Int) {
    images = LRUCache(capacity: capacity, largestEntry: capacity / 2)
  }

  /// The image of `key`, decoded by `decode` when not held (two threads may decode the same
  /// master at once; both get equal pixels).
  func image(for key: String, decode: () throws(VipsError) -> VipsImage) throws(VipsError)
    -> VipsImage
  {
    if let held = images.value(for: key) { return held }
    let image = try decode()
    images.store(image, cost: image.width * image.height * image.bands, for: key)
    return image
  }
}
