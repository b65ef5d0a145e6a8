/// An output file format ThumbForge can write.
public enum ImageFormat: String, Sendable, CaseIterable, Codable {
  case png, jpeg, webp, heif

  /// The libvips saver nickname (`pngsave`, …).
  var saverName: String {
    switch self {
    case .png: "pngsave"
    case .jpeg: "jpegsave"
    case .webp: "webpsave"
    case .heif: "heifsave"
    }
  }

  /// The file extension written for this format.
  public var fileExtension: String {
    switch self {
    case .png: "png"
    case .jpeg: "jpg"
    case .webp: "webp"
    case .heif: "heic"
    }
  }

  /// Whether the format stores an alpha channel.
  public var supportsAlpha: Bool { self != .jpeg }
}
