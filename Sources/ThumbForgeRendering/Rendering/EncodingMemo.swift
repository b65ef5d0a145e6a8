internal import ThumbForgeBasics
internal import Vips

/// The files one job has encoded, by image and settings, so two outputs of the same pixels
/// in the same format (a 1x variant and a fit into a box the 1x already fits) are encoded
/// once and written twice.
///
/// Images are held weakly: an output's pixels are let go once encoded (see ``Renderer``),
/// and a released image can never match a later one.
final class EncodingMemo {
  private struct Entry {
    weak var image: VipsImage?
    var format: ImageFormat
    var options: SaveOptions
    var bytes: [UInt8]
    var hash: String
  }

  private var entries: [Entry] = []

  /// `image` encoded as `format` with `options`, and the bytes' content hash.
  func encoded(_ image: VipsImage, as format: ImageFormat, options: SaveOptions)
    throws(VipsError) -> (bytes: [UInt8], hash: String)
  {
    entries.removeAll { $0.image == nil }
    if let entry = entries.first(where: {
      $0.image === image && $0.format == format && $0.options == options
    }) {
      return (entry.bytes, entry.hash)
    }
    let bytes = try image.encoded(as: format, options: options)
    let hash = ContentHash.of(bytes)
    entries.append(Entry(image: image, format: format, options: options, bytes: bytes, hash: hash))
    return (bytes, hash)
  }
}
