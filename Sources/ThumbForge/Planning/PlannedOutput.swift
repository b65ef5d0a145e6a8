public import Vips

/// One image file a plan will produce.
public struct PlannedOutput: Hashable, Sendable, Codable {
  /// Display scale (1–3), or 0 for a single-scale vector file.
  public var scale: Int
  public var isDark: Bool
  /// Final pixel size of the file.
  public var pixelSize: PixelSize
  /// For `fill`-type recipes: the size the master is resized to before the crop.
  public var resizeTo: PixelSize
  /// The crop in resized pixels (nil when not cropping or when libvips chooses it).
  public var crop: PixelRect?
  /// The master path it is made from.
  public var master: String
  public var mode: OutputMode
  /// Encoder (unused for a single-scale vector copy, which keeps the master's format).
  public var format: ImageFormat
  /// File name inside the imageset.
  public var fileName: String
  /// Path relative to the catalog root.
  public var path: String
  /// The resampling factor from the master, when it enlarges (> 1).
  public var upscale: Double?
  /// An app icon's tinted appearance: made greyscale (the system applies the tint).
  public var isTinted = false
  /// The gamut the file is made in: sRGB, or Display P3 (with its profile) beside the sRGB
  /// file of a wide-gamut master.
  public var displayGamut: DisplayGamut = .sRGB
  /// Flattened onto the recipe's background whatever the format (iOS app icons, which the
  /// App Store takes only without alpha).
  public var isOpaque = false
  /// What rendering it costs, in pixels, checked against the limits before decoding.
  public var cost = RenderCost(input: 0, working: 0, output: 0, largestSide: 0)
}
