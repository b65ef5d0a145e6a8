internal import ThumbForgeBasics
internal import ThumbForgePlanning
internal import Vips

/// Raster masters kept decoded in memory between renders, for a caller that renders many
/// outputs of the same masters over time (`serve`): the decode step of the one render path,
/// memoised. An entry is the image ``MasterImage`` decodes for a job — shrunk on load by the
/// job's factor, upright, 8-bit RGB in the job's colour space — so the outputs resized from
/// it are the bytes `build` makes; only the decoding is saved.
///
/// Keyed by the master's content hash, the shrink factor, the colour space and `fail-on`;
/// capped in bytes of pixels, least recently used first out.
package final class DecodedMasters: Sendable {
  private let images: LRUCache<VipsImage>

  /// A cache holding at most `capacity` bytes of pixels (one image at most half of it).
  package init(capacity: Int) {
    images = LRUCache(capacity: capacity, largestEntry: capacity / 2)
  }

  /// The images held: their bytes of pixels and their number.
  package var usage: (bytes: Int, images: Int) {
    let usage = images.usage
    return (usage.cost, usage.entries)
  }

  /// `opened` (a master opened for a job, nothing decoded yet) decoded: from memory when
  /// held, else decoded now and kept. Two threads may decode the same master at once; both
  /// get equal pixels.
  func decoded(_ opened: MasterImage, master: Master, profile: RGBProfile, failOn: FailOn)
    throws(VipsError) -> MasterImage
  {
    guard images.capacity > 0 else { return opened }
    let key = [master.hash, String(opened.shrink), profile.rawValue, failOn.rawValue]
      .joined(separator: "\n")
    if let held = images.value(for: key) {
      return opened.reusing(decoded: held)
    }
    let decoded = try opened.decodedToMemory()
    let image = decoded.image
    images.store(image, cost: image.width * image.height * image.bands, for: key)
    return decoded
  }
}
