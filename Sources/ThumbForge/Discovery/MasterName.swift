/// What a master's file name says: asset name, scale suffix, dark or tinted appearance, type.
struct MasterName: Hashable, Sendable {
  /// Raster image extensions ThumbForge reads.
  static let rasterExtensions: Set<String> = [
    "png", "jpg", "jpeg", "webp", "heic", "heif", "avif", "tif", "tiff", "gif",
  ]
  /// Vector master extensions (rendered, never resampled).
  static let vectorExtensions: Set<String> = ["svg", "pdf"]

  var asset: String
  /// The `@Nx` suffix, if any.
  var scale: Int?
  var isDark: Bool
  /// `~tinted`: the tinted appearance of an app icon.
  var isTinted: Bool
  var isVector: Bool
  /// The lowercased extension.
  var fileExtension: String

  /// The suffix marking the tinted appearance of an app icon (`AppIcon~tinted.png`).
  static let tintedSuffix = "~tinted"

  /// The qualified asset name a master file belongs to (`Flags/Italy@2x.png` → `Flags/Italy`);
  /// nil for a file that is not a master.
  static func assetName(ofFile path: String, darkSuffix: String) -> String? {
    let slash = path.lastIndex(of: "/")
    let file = slash.map { String(path[path.index(after: $0)...]) } ?? path
    guard let name = MasterName(fileName: file, darkSuffix: darkSuffix) else { return nil }
    return slash.map { String(path[..<$0]) + "/" + name.asset } ?? name.asset
  }

  /// Parses `United States@3x.png`, `Logo~dark@2x.png`, `AppIcon~tinted.png`,
  /// `Mountain.svg`; nil for files that are not image masters by their extension.
  init?(fileName: String, darkSuffix: String = "~dark") {
    guard let dot = fileName.lastIndex(of: "."), dot != fileName.startIndex else { return nil }
    let ext = fileName[fileName.index(after: dot)...].lowercased()
    guard Self.rasterExtensions.contains(ext) || Self.vectorExtensions.contains(ext) else {
      return nil
    }
    var stem = String(fileName[..<dot])
    var scale: Int?
    if let at = stem.lastIndex(of: "@") {
      let suffix = stem[stem.index(after: at)...]
      if suffix.count == 2, suffix.last == "x", let value = Int(String(suffix.first!)),
        (1...3).contains(value)
      {
        scale = value
        stem = String(stem[..<at])
      }
    }
    var dark = false
    var tinted = false
    if stem.hasSuffix(darkSuffix), stem.count > darkSuffix.count {
      dark = true
      stem = String(stem.dropLast(darkSuffix.count))
    } else if stem.hasSuffix(Self.tintedSuffix), stem.count > Self.tintedSuffix.count {
      tinted = true
      stem = String(stem.dropLast(Self.tintedSuffix.count))
    }
    guard !stem.isEmpty else { return nil }
    asset = stem
    self.scale = scale
    isDark = dark
    isTinted = tinted
    isVector = Self.vectorExtensions.contains(ext)
    fileExtension = ext
  }
}

extension MasterName {
  /// Formats libvips reads that ThumbForge does not take as masters (an app ships none of
  /// them), named so that the note says so rather than "not an image".
  static let otherImageExtensions: Set<String> = [
    "jp2", "j2k", "jpx", "jxl", "v", "vips", "ppm", "pgm", "pbm", "pfm", "pnm", "fits", "fit",
    "exr", "hdr", "mat", "bmp", "ico", "raw", "dng", "cr2", "nef", "psd",
  ]

  /// Why a file is not a master, in words (for the note that names it).
  static func whyNot(fileName: String) -> String {
    guard let dot = fileName.lastIndex(of: "."), dot != fileName.startIndex else {
      return "not a master: no file extension"
    }
    let ext = fileName[fileName.index(after: dot)...].lowercased()
    if rasterExtensions.contains(ext) || vectorExtensions.contains(ext) {
      return "not a master: no asset name before the scale or appearance suffix"
    }
    let accepted = "masters are PNG, JPEG, WebP, HEIF, AVIF, TIFF, GIF, SVG or PDF"
    if otherImageExtensions.contains(ext) {
      return "not a master: .\(ext) images are not read (\(accepted))"
    }
    return "not a master: .\(ext) is not an image format (\(accepted))"
  }
}
