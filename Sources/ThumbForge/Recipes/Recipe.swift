public import Vips

/// A named, fully resolved recipe: every parameter has a value. Recipes are plain values;
/// their ``identifier`` is the cache key recorded in the manifest.
public struct Recipe: Hashable, Sendable, Codable {
  /// The name rules and imagesets use (`variants`, `flag`, or a preset's name).
  public var name: String
  public var kind: RecipeKind
  /// Box size in points (unused by `variants`).
  public var size: PointSize
  /// Display scales to produce, e.g. `[2, 3]`.
  public var scales: [Int]
  public var gravity: Gravity
  /// `fit` only: pad to exactly the box with `background`.
  public var pad: Bool
  /// Padding colour, and the colour alpha is flattened onto for formats without alpha.
  public var background: RGBAColor
  /// Corner radius in points (`flag`; 0 elsewhere by default).
  public var cornerRadius: Double
  public var cornerStyle: CornerStyle
  /// Border width in points (0 for none).
  public var strokeWidth: Double
  public var strokeColor: RGBAColor
  public var strokeAlignment: StrokeAlignment
  public var format: OutputFormat
  /// Lossy quality 1–100.
  public var quality: Int
  /// JPEG outputs: optimal Huffman tables (smaller files, slower encoding).
  public var optimizeCoding: Bool = true
  public var upscale: UpscalePolicy
  /// Resampling kernel for resizes.
  public var kernel: Kernel
  /// Keep metadata (EXIF, ICC) instead of stripping it.
  public var keepMetadata: Bool
  /// Catalog property `template-rendering-intent` (`original` or `template`).
  public var templateRenderingIntent: String?
  /// Catalog `compression-type` of each image slot.
  public var compressionType: String?
  /// Catalog `preserves-vector-representation`.
  public var preservesVectorRepresentation: Bool
  /// `variants` of a vector master: ship the SVG/PDF itself as a single-scale image
  /// (with `preserves-vector-representation`) instead of rendering each scale.
  public var keepVector: Bool = false

  /// The defaults of a built-in kind, which reproduce the reference apps.
  public static func builtin(_ kind: RecipeKind, name: String? = nil) -> Recipe {
    var recipe = Recipe(
      name: name ?? kind.rawValue, kind: kind, size: PointSize(width: 0, height: 0),
      scales: [2, 3], gravity: .center, pad: false, background: .white, cornerRadius: 0,
      cornerStyle: .circular, strokeWidth: 0, strokeColor: .black, strokeAlignment: .inside,
      format: .auto, quality: 82, upscale: kind == .variants ? .never : .warn, kernel: .lanczos3,
      keepMetadata: false, templateRenderingIntent: nil, compressionType: nil,
      preservesVectorRepresentation: false)
    switch kind {
    case .variants: break
    case .fit: recipe.size = PointSize(width: 400, height: 400)
    case .fill: recipe.size = PointSize(width: 400, height: 200)
    case .flag:
      recipe.size = PointSize(width: 40, height: 25)
      recipe.cornerRadius = 5
      recipe.strokeWidth = 1
      recipe.format = .png
    case .tile: recipe.size = PointSize(width: 300, height: 300)
    }
    return recipe
  }

  /// Whether every output of this recipe carries alpha regardless of the master.
  public var alwaysHasAlpha: Bool {
    kind == .flag || (cornerRadius > 0 && kind != .variants)
      || (pad && background.alpha < 255)
  }

  /// A canonical description of everything that affects pixels or bytes: equal
  /// identifiers render equal outputs.
  public var identifier: String {
    var parts = [
      "kind=\(kind.rawValue)", "scales=\(scales.map(String.init).joined(separator: ","))",
      "format=\(format.rawValue)", "quality=\(quality)", "upscale=\(upscale.rawValue)",
      "keep-metadata=\(keepMetadata)", "keep-vector=\(keepVector)", "background=\(background)",
      "kernel=\(kernel.rawValue)",
    ]
    // Only when off, so identifiers recorded before the setting existed stay valid.
    if !optimizeCoding { parts.append("optimize-coding=false") }
    if kind != .variants {
      parts += [
        "size=\(size.width)x\(size.height)", "gravity=\(gravity.rawValue)", "pad=\(pad)",
        "radius=\(cornerRadius)", "corner-style=\(cornerStyle.rawValue)",
        "stroke=\(strokeWidth),\(strokeColor),\(strokeAlignment.rawValue)",
      ]
    }
    return parts.joined(separator: ";")
  }
}
