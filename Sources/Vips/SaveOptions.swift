/// Encoder settings. Metadata is stripped by default so the same pixels always give the
/// same bytes.
package struct SaveOptions: Sendable, Equatable, Hashable {
  /// Lossy quality 1–100 (JPEG, WebP, HEIF).
  package var quality: Int
  /// zlib compression level 0–9 (PNG).
  package var compression: Int
  /// Progressive JPEG / interlaced PNG.
  package var interlace: Bool
  /// Drop EXIF, XMP, ICC and other metadata.
  package var stripMetadata: Bool
  /// With ``stripMetadata``: keep the image's ICC profile all the same (a Display P3 output
  /// must carry its profile, or it is shown as sRGB).
  package var keepProfile: Bool
  /// Lossless WebP.
  package var lossless: Bool
  /// JPEG: compute optimal Huffman tables: smaller files for a longer encode (the encoders
  /// table of docs/performance.md has both).
  package var optimizeCoding: Bool
  /// JPEG: a restart marker every this many MCUs (0: none). Restart markers let a damaged
  /// file resynchronise; files from cameras and some editors carry them.
  package var restartInterval: Int

  package init(
    quality: Int = 82, compression: Int = 6, interlace: Bool = false,
    stripMetadata: Bool = true, lossless: Bool = false, optimizeCoding: Bool = true,
    restartInterval: Int = 0, keepProfile: Bool = false
  ) {
    self.keepProfile = keepProfile
    self.quality = quality
    self.compression = compression
    self.interlace = interlace
    self.stripMetadata = stripMetadata
    self.lossless = lossless
    self.optimizeCoding = optimizeCoding
    self.restartInterval = restartInterval
  }
}
