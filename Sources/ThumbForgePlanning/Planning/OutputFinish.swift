package import ThumbForgeBasics
package import ThumbForgeConfig
package import Vips

/// Everything the renderer does to one output after its resize, in order — cut, shape, tint,
/// flatten — decided once when the output is planned (``plan(recipe:output:master:)``), so
/// the renderer executes it and decides nothing. It follows from the recipe and the planned
/// output, so it adds nothing to an imageset's key.
package struct OutputFinish: Hashable, Sendable {
  /// How the resized image is brought to the output's box.
  package enum Cut: Hashable, Sendable {
    /// Nothing to cut: the resize is the box already (variants, unpadded fits, and crops at
    /// a compass point or focus, or an app icon's, which are made with the resize).
    case none
    /// Letterboxed, centred, onto `canvas` filled with `background` (a padded `fit`).
    case pad(canvas: PixelSize, background: RGBAColor)
    /// libvips' smart crop of `box`, by `interesting`: decided on the master at its own size
    /// before the resize when the output enlarges it (`beforeResize`; enlarging adds
    /// nothing to look at), else on the resized image.
    case smart(interesting: Interesting, box: PixelSize, beforeResize: Bool)
  }

  package var cut: Cut
  /// The rounded-rectangle mask and border (nil: none): every output of a shaped recipe.
  package var shape: OutputShape?
  /// Turned to greyscale (a tinted app icon).
  package var greyscale: Bool
  /// What an image with alpha is flattened onto (nil: its alpha is kept): for formats
  /// without alpha, and for outputs that must be opaque.
  package var flatten: RGBAColor?

  /// Nothing after the resize.
  static let none = OutputFinish(cut: .none, shape: nil, greyscale: false, flatten: nil)

  /// The finish of `output`, planned for `recipe` from `master` at `scale` (nil: the output's
  /// slot's; an Android density's otherwise).
  static func plan(recipe: Recipe, output: PlannedOutput, master: Master, scale: Double? = nil)
    -> OutputFinish
  {
    let scale = scale ?? Double(output.scale)
    var finish = OutputFinish.none
    switch recipe.kind {
    case .fit:
      // The padded canvas: the planned size, before a centred stroke grows it.
      let grow = recipe.canvasGrowth(scale: scale)
      let canvas = PixelSize(
        width: output.pixelSize.width - grow, height: output.pixelSize.height - grow)
      if recipe.pad && canvas != output.resizeTo {
        finish.cut = .pad(canvas: canvas, background: recipe.background)
      }
    case .fill, .tile, .flag:
      if output.crop == nil, let interesting = recipe.gravity.interesting {
        finish.cut = .smart(
          interesting: interesting, box: recipe.size.pixels(scale: scale),
          beforeResize: output.resizeTo.checkedArea > master.smartCropReference.checkedArea)
      }
    case .variants, .appicon, .asIs:
      break
    }
    if recipe.isShaped { finish.shape = OutputShape(recipe: recipe, scale: scale) }
    finish.greyscale = output.slot.appearance == .tinted
    if !output.format.supportsAlpha || output.isOpaque { finish.flatten = recipe.background }
    return finish
  }

  /// The smart crop decided before the resize, if this output has one.
  package var smartCropBeforeResize: (interesting: Interesting, box: PixelSize)? {
    guard case .smart(let interesting, let box, true) = cut else { return nil }
    return (interesting, box)
  }
}

/// The rounded-rectangle mask and border of a shaped output, in its pixels (drawn by
/// ``apply(to:)``): SwiftUI's `.clipShape(.rect(cornerRadius:))` and `strokeBorder`, baked.
package struct OutputShape: Hashable, Sendable {
  package var radius: Double
  package var cornerStyle: CornerStyle
  package var strokeWidth: Double
  package var strokeColor: RGBAColor
  package var strokeAlignment: StrokeAlignment
  /// Pixels a centred stroke adds to each axis of the canvas (0: none).
  package var canvasGrowth: Int

  /// A circle of diameter `side` pixels, without a border (a round launcher icon's mask).
  init(circleOf side: Int) {
    radius = Double(side) / 2
    cornerStyle = .circular
    strokeWidth = 0
    strokeColor = RGBAColor(red: 0, green: 0, blue: 0, alpha: 0)
    strokeAlignment = .inside
    canvasGrowth = 0
  }

  init(recipe: Recipe, scale: Double) {
    radius = recipe.cornerRadius * scale
    cornerStyle = recipe.cornerStyle
    strokeWidth = recipe.strokeWidth * scale
    strokeColor = recipe.strokeColor
    strokeAlignment = recipe.strokeAlignment
    canvasGrowth = recipe.canvasGrowth(scale: scale)
  }
}

extension Gravity {
  /// libvips' strategy for a smart gravity (nil for a compass point or the centre).
  var interesting: Interesting? {
    switch self {
    case .attention: .attention
    case .entropy: .entropy
    default: nil
    }
  }
}
