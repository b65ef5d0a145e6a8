/// An output file format ThumbForge can write.
///
/// `avif` is HEIF with AV1 compression, written by the same libvips saver as `heif`; it needs
/// a libheif built with an AV1 encoder (``Vips/avifUnavailableReason``).
package enum ImageFormat: String, Sendable, CaseIterable, Codable {
  case png, jpeg, webp, heif, avif

  /// The libvips saver nickname (`pngsave`, …).
  var saverName: String {
    switch self {
    case .png: "pngsave"
    case .jpeg: "jpegsave"
    case .webp: "webpsave"
    case .heif, .avif: "heifsave"
    }
  }

  /// The file extension written for this format.
  package var fileExtension: String {
    switch self {
    case .png: "png"
    case .jpeg: "jpg"
    case .webp: "webp"
    case .heif: "heic"
    case .avif: "avif"
    }
  }

  /// Whether the format stores an alpha channel.
  package var supportsAlpha: Bool { self != .jpeg }
}
