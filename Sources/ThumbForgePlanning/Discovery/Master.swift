package import ThumbForgeBasics

/// One master file of an asset, with what a plan needs to know about it.
package struct Master: Hashable, Sendable, Codable {
  /// Path relative to the asset folder, `/`-separated.
  package var path: String
  /// Display scale of a raster master (its suffix, or `master-scale`); nil for vectors.
  package var scale: Int?
  package var isVector: Bool
  package var isDark: Bool
  /// The tinted appearance of an app icon (`Name~tinted.png`).
  package var isTinted: Bool
  /// Lowercased file extension.
  package var fileExtension: String
  /// Raster: pixels after EXIF orientation. Vector: intrinsic size (points at 1x).
  package var pixelSize: PixelSize
  /// Whether the master has an alpha channel (vectors always do).
  package var hasAlpha: Bool
  /// Whether the master can be copied as-is: 8-bit sRGB, upright, no ICC profile, and no
  /// metadata (EXIF, XMP, IPTC, comments) or metadata its JPEG or PNG container can lose,
  /// so a copy is what a render would promise.
  package var isPlainSRGB: Bool
  /// Whether the file carries metadata, which a copy drops from the container unless
  /// `keep-metadata`.
  package var hasMetadata: Bool
  /// Whether the master's ICC profile reaches well beyond sRGB (Display P3, Adobe RGB,
  /// ProPhoto …): only such masters get Display P3 files (`display-gamut`).
  package var isWideGamut: Bool
  /// SHA-256 of the file's bytes.
  package var hash: String
  /// Frames or pages in the file (1 for most); only the first is used.
  package var frames: Int

  package init(
    path: String, scale: Int?, isVector: Bool, isDark: Bool, fileExtension: String,
    pixelSize: PixelSize, hasAlpha: Bool, isPlainSRGB: Bool, hash: String,
    isTinted: Bool = false, isWideGamut: Bool = false, hasMetadata: Bool = false,
    frames: Int = 1
  ) {
    self.frames = frames
    self.hasMetadata = hasMetadata
    self.isWideGamut = isWideGamut
    self.path = path
    self.scale = scale
    self.isVector = isVector
    self.isDark = isDark
    self.isTinted = isTinted
    self.fileExtension = fileExtension
    self.pixelSize = pixelSize
    self.hasAlpha = hasAlpha
    self.isPlainSRGB = isPlainSRGB
    self.hash = hash
  }

  /// The size in points this master stands for.
  package var pointSize: PointSize {
    let divisor = Double(scale ?? 1)
    return PointSize(
      width: Double(pixelSize.width) / divisor, height: Double(pixelSize.height) / divisor)
  }
}
