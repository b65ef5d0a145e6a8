package import Vips

/// Each recipe's output computed from the reference's upright sRGB master, following
/// DESIGN.md's definitions with libvips primitives and arithmetic written out here (never
/// ThumbForge's planner, geometry or renderer). The master is at scale 3; an output at scale
/// s of a box of W × H points is round(W × s) × round(H × s) pixels.
extension FidelityReference {
  /// `recipe`'s output at `scale`: `variants` the master resized to s/3; `fit` scaled by
  /// min(W/w, H/h) (`fit-pad` then letterboxed, centred, onto the pad colour); `fill`,
  /// `tile` and `flag` scaled by max(W/w, H/h), each side rounded, then cropped to W × H at
  /// the gravity (the spare pixels' floor half at the centre, libvips' own convention) or by
  /// libvips' attention smart crop; `flag` then masked and bordered (``flagShaped``).
  package func expected(_ recipe: FidelityRecipe, scale: Int, resampler: Resampler = .libvips)
    throws -> VipsImage
  {
    let width = Double(full.width)
    let height = Double(full.height)
    func rounded(_ value: Double) -> Int { max(1, Int(value.rounded())) }
    guard let points = recipe.box else {
      let factor = Double(scale) / 3
      return try resized(
        width: rounded(width * factor), height: rounded(height * factor), resampler: resampler)
    }
    let box = (width: points.width * scale, height: points.height * scale)
    let fitFactor = min(Double(box.width) / width, Double(box.height) / height)
    switch recipe {
    case .fit, .fitPad:
      let fitted = try resized(
        width: rounded(width * fitFactor), height: rounded(height * fitFactor),
        resampler: resampler)
      return recipe == .fit ? fitted : try padded(fitted, to: box)
    default:
      let scaled = try fillScaled(recipe, scale: scale, resampler: resampler)
      let filled = try cropped(scaled, to: box, recipe: recipe)
      guard recipe == .flag else { return filled }
      return try Self.flagShaped(filled, scale: scale, masked: breaking != .noRoundedMask)
    }
  }

  /// The master scaled by max(W/w, H/h) for a cropping recipe at `scale`, each side
  /// rounded and at least the box's, before the crop.
  package func fillScaled(_ recipe: FidelityRecipe, scale: Int, resampler: Resampler = .libvips)
    throws -> VipsImage
  {
    let points = recipe.box ?? (0, 0)
    let box = (width: points.width * scale, height: points.height * scale)
    let width = Double(full.width)
    let height = Double(full.height)
    let factor = max(Double(box.width) / width, Double(box.height) / height)
    return try resized(
      width: max(box.width, Int((width * factor).rounded())),
      height: max(box.height, Int((height * factor).rounded())), resampler: resampler)
  }

  /// `image` (the fill-scaled master) cut to `box` where `recipe`'s gravity says.
  func cropped(_ image: VipsImage, to box: (width: Int, height: Int), recipe: FidelityRecipe)
    throws -> VipsImage
  {
    if recipe == .smartFill {
      return try image.smartCrop(width: box.width, height: box.height, interesting: .attention)
        .copiedToMemory()
    }
    let gravity = breaking == .wrongGravity ? (x: 1, y: 1) : recipe.gravity
    return try image.crop(
      x: (image.width - box.width) * gravity.x / 2, y: (image.height - box.height) * gravity.y / 2,
      width: box.width, height: box.height
    ).copiedToMemory()
  }

  /// `image` centred on a `box` canvas of the pad colour (opaque, also under alpha).
  func padded(_ image: VipsImage, to box: (width: Int, height: Int)) throws -> VipsImage {
    let colour = FidelityRecipe.padColour + (image.hasAlpha ? [255] : [])
    return try image.embed(
      x: (box.width - image.width) / 2, y: (box.height - image.height) / 2, width: box.width,
      height: box.height, extend: .background, background: colour
    ).copiedToMemory()
  }

  /// DESIGN.md's flag shape on a filled `image` at `scale`: an anti-aliased rounded
  /// rectangle of radius 5 pt (circular corners) as alpha mask (Porter–Duff *destination
  /// in*), then a 1 pt black border inside it, its centre line inset half the width with the
  /// radius reduced by as much (SwiftUI's `strokeBorder`), drawn *over*. The two shapes are
  /// rasterised by libvips' SVG loader from `<rect rx>` elements; the compositing is
  /// written out here.
  static func flagShaped(_ image: VipsImage, scale: Int, masked: Bool) throws -> VipsImage {
    let width = image.width
    let height = image.height
    let line = Double(scale)
    let radius = 5 * line
    let count = width * height
    let mask =
      masked
      ? try coverage(
        width: width, height: height,
        "<rect width=\"\(width)\" height=\"\(height)\" rx=\"\(radius)\" fill=\"#fff\"/>")
      : [UInt8](repeating: 255, count: count)
    let border = try coverage(
      width: width, height: height,
      "<rect x=\"\(line / 2)\" y=\"\(line / 2)\" width=\"\(Double(width) - line)\" "
        + "height=\"\(Double(height) - line)\" rx=\"\(radius - line / 2)\" fill=\"none\" "
        + "stroke=\"#000\" stroke-width=\"\(line)\"/>")
    let pixels = try image.addingAlpha().copiedToMemory().pixelBytes()
    var out = [UInt8](repeating: 0, count: count * 4)
    for index in 0..<count {
      let alpha = Double(pixels[index * 4 + 3]) / 255 * Double(mask[index]) / 255
      let stroke = Double(border[index]) / 255
      let total = stroke + alpha * (1 - stroke)
      for band in 0..<3 where total > 0 {
        // Black border: only the image's share of the colour is left.
        let value = Double(pixels[index * 4 + band]) * alpha * (1 - stroke) / total
        out[index * 4 + band] = UInt8(min(255, value.rounded()))
      }
      out[index * 4 + 3] = UInt8(min(255, (total * 255).rounded()))
    }
    return try VipsImage.pixels(out, width: width, height: height, bands: 4)
  }

  /// The alpha (coverage) of an SVG `shape` on a `width` × `height` canvas.
  static func coverage(width: Int, height: Int, _ shape: String) throws -> [UInt8] {
    let svg =
      "<svg xmlns=\"http://www.w3.org/2000/svg\" width=\"\(width)\" height=\"\(height)\">"
      + shape + "</svg>"
    return try VipsImage.svg(svg).extractBand(3).copiedToMemory().pixelBytes()
  }
}
