/// What a master's file name says: asset name, scale suffix, dark or tinted appearance, type.
package struct MasterName: Hashable, Sendable {
  /// Raster image extensions ThumbForge reads.
  static let rasterExtensions: Set<String> = [
    "png", "jpg", "jpeg", "webp", "heic", "heif", "avif", "tif", "tiff", "gif",
  ]
  /// Vector master extensions (rendered, never resampled).
  static let vectorExtensions: Set<String> = ["svg", "pdf"]

  package var asset: String
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
  package static func assetName(ofFile path: String, darkSuffix: String) -> String? {
    let slash = path.lastIndex(of: "/")
    let file = slash.map { String(path[path.index(after: $0)...]) } ?? path
    guard let name = MasterName(fileName: file, darkSuffix: darkSuffix) else { return nil }
    return slash.map { String(path[..<$0]) + "/" + name.asset } ?? name.asset
  }

  /// A master whose name, scale and appearance are given (an image of an existing catalog,
  /// described by its imageset's `Contents.json`, not by its file name).
  init(asset: String, scale: Int?, isDark: Bool, fileExtension: String) {
    self.asset = asset
    self.scale = scale
    self.isDark = isDark
    isTinted = false
    isVector = Self.vectorExtensions.contains(fileExtension)
    self.fileExtension = fileExtension
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
    switch Self.scaleSuffix(of: stem) {
    case .known(let value, let length):
      scale = value
      stem.removeLast(length)
    case .unknown:
      return nil
    case nil:
      break
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
  /// The scales a master's `@Nx` suffix may name.
  static let knownScales = 1...3

  /// What the end of a file name's stem says about its scale.
  enum ScaleSuffix: Equatable {
    /// `@1x`, `@2x`, `@3x` (the `x` in either case), `length` characters long.
    case known(Int, length: Int)
    /// Something shaped like a scale suffix that ThumbForge does not read (`@4x`, `@1.5x`):
    /// the suffix as written.
    case unknown(String)
  }

  /// The scale suffix ending `stem`, if it has one. `@2X` is `@2x`: the suffix's meaning is
  /// not in doubt, and the catalog's files are named by ThumbForge, not after the master.
  static func scaleSuffix(of stem: String) -> ScaleSuffix? {
    guard let at = stem.lastIndex(of: "@") else { return nil }
    let suffix = stem[stem.index(after: at)...]
    guard suffix.count >= 2, suffix.last == "x" || suffix.last == "X" else { return nil }
    let number = suffix.dropLast()
    guard number.allSatisfy({ $0.isASCII && ($0.isNumber || $0 == ".") }),
      number.contains(where: \.isNumber)
    else { return nil }
    if number.count == 1, let value = Int(number), knownScales.contains(value) {
      return .known(value, length: suffix.count + 1)
    }
    return .unknown("@" + suffix)
  }

  /// The suffix of a file name whose scale suffix ThumbForge does not read (`Weird@4x.png` →
  /// `@4x`); nil for every other name. Such a file is no master: its suffix would otherwise
  /// become part of the asset's name.
  static func unknownScaleSuffix(fileName: String) -> String? {
    guard let dot = fileName.lastIndex(of: "."), dot != fileName.startIndex else { return nil }
    let ext = fileName[fileName.index(after: dot)...].lowercased()
    guard rasterExtensions.contains(ext) || vectorExtensions.contains(ext) else { return nil }
    if case .unknown(let suffix) = scaleSuffix(of: String(fileName[..<dot])) { return suffix }
    return nil
  }

  /// The problem of a file with an unknown scale suffix (see ``unknownScaleSuffix(fileName:)``),
  /// naming the file and why; nil for every other file.
  static func unknownScaleProblem(path: String) -> Problem? {
    let name = path.lastIndex(of: "/").map { String(path[path.index(after: $0)...]) } ?? path
    guard let suffix = unknownScaleSuffix(fileName: name) else { return nil }
    return Problem(path: path, reason: unknownScaleReason(suffix))
  }

  /// Why a file with `suffix` is no master.
  static func unknownScaleReason(_ suffix: String) -> String {
    "unknown scale suffix '\(suffix)': ThumbForge reads @1x, @2x and @3x (Xcode's scales); rename the file, e.g. to end in @3x, or drop the suffix to use master-scale; skipped"
  }

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
    if let suffix = unknownScaleSuffix(fileName: fileName) {
      return "not a master: " + unknownScaleReason(suffix)
    }
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
