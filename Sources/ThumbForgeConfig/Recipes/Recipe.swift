package import ThumbForgeBasics
package import Vips

/// A named, fully resolved recipe: every parameter has a value. Recipes are plain values;
/// the cache key of an imageset is derived from the whole recipe and everything it plans to
/// write (see ``Planner``). The keys that set each field are in ``RecipeParameter/all``.
package struct Recipe: Hashable, Sendable, Codable {
  /// The name rules and imagesets use (`variants`, `flag`, or a preset's name).
  package var name: String
  package var kind: RecipeKind
  /// Box size in points (unused by `variants`).
  package var size: PointSize
  /// Display scales to produce, e.g. `[2, 3]`.
  package var scales: [Int]
  package var gravity: Gravity
  /// `fit` only: pad to exactly the box with `background`.
  package var pad: Bool
  /// Padding colour, and the colour alpha is flattened onto for formats without alpha.
  package var background: RGBAColor
  /// Corner radius in points (`flag`; 0 elsewhere by default).
  package var cornerRadius: Double
  package var cornerStyle: CornerStyle
  /// Border width in points (0 for none).
  package var strokeWidth: Double
  package var strokeColor: RGBAColor
  package var strokeAlignment: StrokeAlignment
  package var format: OutputFormat
  /// Lossy quality 1–100.
  package var quality: Int
  /// JPEG outputs: optimal Huffman tables (smaller files, slower encoding).
  package var optimizeCoding: Bool
  package var upscale: UpscalePolicy
  /// Resampling kernel for resizes.
  package var kernel: Kernel
  /// Keep metadata (EXIF, ICC) instead of stripping it.
  package var keepMetadata: Bool
  /// Catalog property `template-rendering-intent` (`original` or `template`).
  package var templateRenderingIntent: String?
  /// Catalog `compression-type` of each image slot.
  package var compressionType: String?
  /// Catalog `preserves-vector-representation`.
  package var preservesVectorRepresentation: Bool
  /// `variants` of a vector master: ship the SVG/PDF itself as a single-scale image
  /// (with `preserves-vector-representation`) instead of rendering each scale.
  package var keepVector: Bool
  /// The display gamuts the imageset has slots for, sorted: `[sRGB]`, or `[sRGB, display-P3]`
  /// for Display P3 files beside the sRGB ones (of wide-gamut masters only).
  package var displayGamut: [DisplayGamut]
  /// `appicon`: the single universal iOS icon or every per-size slot.
  package var iconLayout: IconLayout
  /// `appicon`: the platforms whose slots the icon set fills, sorted.
  package var iconPlatforms: [IconPlatform]

  /// A recipe whose fields are all overwritten by ``builtin(_:name:)`` (a test checks that
  /// every field has its row in ``RecipeParameter/all``).
  init(unset name: String, kind: RecipeKind) {
    self.name = name
    self.kind = kind
    size = PointSize(width: 0, height: 0)
    scales = []
    gravity = .center
    pad = false
    background = .clear
    cornerRadius = 0
    cornerStyle = .circular
    strokeWidth = 0
    strokeColor = .clear
    strokeAlignment = .inside
    format = .auto
    quality = 0
    optimizeCoding = false
    upscale = .never
    kernel = .nearest
    keepMetadata = false
    templateRenderingIntent = nil
    compressionType = nil
    preservesVectorRepresentation = false
    keepVector = false
    displayGamut = []
    iconLayout = .single
    iconPlatforms = []
  }

  /// Whether outputs get the rounded-corner mask and border of ``OutputShape``: a flag, or a
  /// boxed recipe with a radius or a stroke.
  package var isShaped: Bool {
    kind == .flag
      || ([.fit, .fill, .tile].contains(kind) && (cornerRadius > 0 || strokeWidth > 0))
  }

  /// How many pixels a centred stroke adds to each axis of the canvas at `scale` (half the
  /// line width per side, rounded as a whole), 0 when there is none. The planner adds it to
  /// every output's size; ``OutputShape`` draws on exactly that canvas.
  package func canvasGrowth(scale: Double) -> Int {
    guard isShaped, strokeAlignment == .center, strokeWidth > 0 else { return 0 }
    return Geometry.saturatingInt(strokeWidth * scale)
  }

  /// Whether every output of this recipe carries alpha regardless of the master: a shape's
  /// rounded corners cut it out (a flag's always), and a translucent pad shows through. The
  /// planner picks the format from it; the shape itself is ``isShaped``.
  package var alwaysHasAlpha: Bool {
    (isShaped && (kind == .flag || cornerRadius > 0)) || (pad && background.alpha < 255)
  }
}
