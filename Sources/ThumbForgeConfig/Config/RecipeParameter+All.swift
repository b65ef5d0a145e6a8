internal import ThumbForgeBasics
internal import Vips

extension RecipeParameter {
  /// The table of recipe keys, in the order the README lists them.
  package static let all: [RecipeParameter] = [
    RecipeParameter(
      "size", \.size, .size, kinds: boxed, effect: .pixels,
      "The box in points; an output at scale s is `round(points × s)` pixels."
    ) { kind in
      switch kind {
      case .variants: PointSize(width: 0, height: 0)
      case .fit: PointSize(width: 400, height: 400)
      case .fill: PointSize(width: 400, height: 200)
      case .flag: PointSize(width: 40, height: 25)
      case .tile: PointSize(width: 300, height: 300)
      case .appicon, .asIs: PointSize(width: 0, height: 0)
      }
    },
    RecipeParameter(
      "scales", \.scales, .scales, kinds: imageSets, topLevel: imageSets, effect: .pixels,
      "The display scales to write."
    ) { _ in [2, 3] },
    RecipeParameter(
      "gravity", \.gravity, .gravity, kinds: cropping, effect: .pixels,
      "Where the crop keeps the image: a compass point, the centre, or libvips' smart crop (`attention`, `entropy`)."
    ) { _ in .center },
    RecipeParameter(
      "pad", \.pad, .bool, kinds: [.fit], effect: .pixels,
      "Letterbox to exactly the box with `background` (sharp's `contain`)."
    ) { _ in false },
    RecipeParameter(
      "background", \.background, .color, effect: .pixels,
      "The padding colour, and the colour alpha is flattened onto for formats without alpha (and for iOS app icons, which the App Store takes only opaque)."
    ) { _ in .white },
    RecipeParameter(
      "radius", \.cornerRadius, .points, kinds: boxed, effect: .pixels,
      "Corner radius of the rounded-rectangle alpha mask (at most half the short side)."
    ) { kind in kind == .flag ? 5 : 0 },
    RecipeParameter(
      "corner-style", \.cornerStyle, .choice(CornerStyle.self), kinds: boxed, effect: .pixels,
      "A quarter circle (`circular`) or SwiftUI's smoother `.continuous` curve."
    ) { _ in .circular },
    RecipeParameter(
      "stroke-width", \.strokeWidth, .points, kinds: boxed, effect: .pixels,
      "Border width (0: none)."
    ) { kind in kind == .flag ? 1 : 0 },
    RecipeParameter(
      "stroke-color", \.strokeColor, .color, kinds: boxed, effect: .pixels,
      "Border colour."
    ) { _ in .black },
    RecipeParameter(
      "stroke-alignment", \.strokeAlignment, .choice(StrokeAlignment.self), kinds: boxed,
      effect: .pixels,
      "`inside` the shape (SwiftUI `strokeBorder`) or centred on its edge (`.stroke`; the canvas grows by the width)."
    ) { _ in .inside },
    RecipeParameter(
      "upscale", \.upscale, .choice(UpscalePolicy.self), kinds: boxed, effect: .pixels,
      "When the master is smaller than the output: render and report (`warn`), skip (`never`), render silently (`allow`), or keep the master's resolution (`keep`: `fit` at the master's size, the others as the largest centred crop of the box's aspect, reported)."
    ) { kind in kind == .variants ? .never : .warn },
    RecipeParameter(
      "kernel", \.kernel, .choice(Kernel.self), topLevel: every, effect: .pixels,
      "The resampling kernel."
    ) { _ in .lanczos3 },
    RecipeParameter(
      "keep-vector", \.keepVector, .bool, kinds: [.variants], effect: .pixels,
      "Ship a vector master (SVG, PDF) itself as a single-scale image instead of rendering each scale."
    ) { _ in false },
    RecipeParameter(
      "format", \.format, .choice(OutputFormat.self), kinds: imageSets,
      topLevel: imageSets.subtracting([.flag]), effect: .pixels,
      "`auto`: PNG when the output has alpha or the master is PNG/GIF/SVG/PDF, otherwise JPEG. Flags need alpha. `avif` (HEIF with AV1) needs a libheif with an AV1 encoder (libaom, rav1e or SVT-AV1); without one, each asset of the recipe is an error saying so."
    ) { kind in kind == .flag ? .png : .auto },
    RecipeParameter(
      "quality", \.quality, .integer(1...100), kinds: imageSets, topLevel: imageSets,
      effect: .encoding,
      "Lossy quality."
    ) { _ in 82 },
    RecipeParameter(
      "optimize-coding", \.optimizeCoding, .bool, kinds: imageSets, topLevel: imageSets,
      effect: .encoding,
      "JPEG: optimal Huffman tables (smaller files, a longer encode: see docs/performance.md)."
    ) { _ in true },
    RecipeParameter(
      "keep-metadata", \.keepMetadata, .bool, kinds: imageSets.union([.asIs]),
      effect: .encoding,
      "Keep EXIF and ICC metadata instead of stripping it. In `as-is` sets: copy JPEG and PNG files byte for byte instead of dropping their EXIF, XMP, IPTC, comments and text chunks from the container (pixels and ICC profile are kept either way)."
    ) { _ in false },
    RecipeParameter(
      "template-rendering-intent", \.templateRenderingIntent,
      .optionalChoice(["original", "template"]), kinds: imageSets, effect: .contents,
      "Xcode's Render As: `original` or `template` (unset: Default)."
    ) { _ in nil },
    RecipeParameter(
      "compression-type", \.compressionType, .optionalText, kinds: imageSets, effect: .contents,
      "Xcode's compression of each slot, e.g. `lossless`, `lossy`, `gpu-optimized-best` (unset: inherited)."
    ) { _ in nil },
    RecipeParameter(
      "preserves-vector-representation", \.preservesVectorRepresentation, .bool,
      kinds: imageSets, effect: .contents,
      "Xcode's Preserve Vector Data (always on for a kept vector master)."
    ) { _ in false },
    RecipeParameter(
      "display-gamut", \.displayGamut, .displayGamuts, kinds: imageSets, topLevel: imageSets,
      effect: .pixels,
      "Xcode's Gamut: `[sRGB]`, or `[sRGB, display-P3]` to add Display P3 files (with their profile) for masters whose ICC profile reaches beyond sRGB (Display P3, Adobe RGB, ProPhoto …); other masters keep a plain sRGB imageset."
    ) { _ in [.sRGB] },
    RecipeParameter(
      "icon-layout", \.iconLayout, .choice(IconLayout.self), kinds: [.appicon], effect: .pixels,
      "iOS slots of an app icon set: Xcode 15+'s one 1024×1024 icon with dark and tinted appearances (`single`), or every iPhone, iPad and App Store size (`per-size`, Xcode 13 and earlier)."
    ) { _ in .single },
    RecipeParameter(
      "icon-platforms", \.iconPlatforms, .choices(IconPlatform.self), kinds: [.appicon],
      effect: .pixels,
      "The platforms whose slots an app icon set fills: `ios` (opaque) and `macos` (16–512 pt at 1x and 2x, alpha kept)."
    ) { _ in [.ios] },
  ]
}
