internal import Vips

/// What probing a file found: its header facts and hash.
package struct ProbeResult: Hashable, Sendable, Codable {
  var byteSize: Int
  var modified: Int64
  var hash: String
  var width: Int
  var height: Int
  var hasAlpha: Bool
  /// 8-bit sRGB, upright, without an ICC profile, and without metadata or with metadata its
  /// container can lose (a JPEG's or PNG's): a copy of it is what a render would promise.
  var isPlainSRGB: Bool
  /// The embedded profile reaches beyond sRGB by more than ``MasterProbe/wideGamutThreshold``.
  var isWideGamut = false
  /// The file carries metadata a build strips (EXIF, XMP, IPTC, comments, text chunks).
  var hasMetadata = false
  /// Frames (an animated GIF or WebP) or pages (TIFF, PDF, HEIF) in the file; a build uses
  /// the first.
  var frames = 1

  /// Whether this result still describes `file`: its size and modification time are the
  /// ones it was taken at.
  func describes(_ file: ScannedFile) -> Bool {
    byteSize == file.byteSize && modified == file.modified
  }
}
