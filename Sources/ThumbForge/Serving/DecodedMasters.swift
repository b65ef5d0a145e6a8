internal import Synchronization
internal import Vips

/// Raster masters kept decoded (upright, 8-bit sRGB, in memory) between on-demand renders of
/// outputs outside the catalog's plan, by content hash: a new size of a photo costs a resize
/// and an encode, not a decode (progressive JPEGs decode in tens of milliseconds). Capped in
/// bytes; the least recently used images go first.
public final class DecodedMasters: Sendable {
  private let capacity: Int
  private let state = Mutex(State())

  private struct State {
    var images: [String: (image: VipsImage, bytes: Int, lastUse: UInt64)] = [:]
    var bytes = 0
    var clock: UInt64 = 0
  }

  /// A cache holding at most `capacity` bytes of pixels.
  public init(capacity: Int) {
    self.capacity = capacity
  }

  /// The image of `key`, decoded by `decode` when not held (two threads may decode the same
  /// master at once; both get equal pixels).
  func image(for key: String, decode: () throws(VipsError) -> VipsImage) throws(VipsError)
    -> VipsImage
  {
    if let held = state.withLock({ state -> VipsImage? in
      guard let found = state.images[key] else { return nil }
      state.clock += 1
      state.images[key]!.lastUse = state.clock
      return found.image
    }) {
      return held
    }
    let image = try decode()
    let bytes = image.width * image.height * image.bands
    guard bytes <= capacity / 2 else { return image }
    state.withLock { state in
      state.clock += 1
      if let old = state.images[key] { state.bytes -= old.bytes }
      state.images[key] = (image, bytes, state.clock)
      state.bytes += bytes
      while state.bytes > capacity,
        let oldest = state.images.min(by: { $0.value.lastUse < $1.value.lastUse })
      {
        state.images[oldest.key] = nil
        state.bytes -= oldest.value.bytes
      }
    }
    return image
  }
}
