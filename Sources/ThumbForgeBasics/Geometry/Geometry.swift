/// Pure fit/fill arithmetic shared by the recipes (SwiftUI `scaledToFit` / `scaledToFill`).
package enum Geometry {
  /// The factor that fits `source` inside `box` keeping aspect ratio.
  package static func fitScale(_ source: PixelSize, into box: PixelSize) -> Double {
    min(Double(box.width) / Double(source.width), Double(box.height) / Double(source.height))
  }

  /// The factor that makes `source` cover `box` keeping aspect ratio.
  package static func fillScale(_ source: PixelSize, covering box: PixelSize) -> Double {
    max(Double(box.width) / Double(source.width), Double(box.height) / Double(source.height))
  }

  /// The size of `source` scaled to fit `box`: never larger than the box, touching it on
  /// at least one axis.
  package static func fitSize(_ source: PixelSize, into box: PixelSize) -> PixelSize {
    let scale = fitScale(source, into: box)
    let width = Double(source.width) * scale
    let height = Double(source.height) * scale
    let widthBound = width >= height * Double(box.width) / Double(box.height)
    return PixelSize(
      width: widthBound ? box.width : clamp(width.rounded(), box.width),
      height: widthBound ? clamp(height.rounded(), box.height) : box.height)
  }

  /// `value` rounded to an `Int`, saturating at ±2⁶² instead of trapping (NaN gives 0): a
  /// size that large is refused by ``RenderLimits`` before anything is made.
  package static func saturatingInt(_ value: Double) -> Int {
    guard !value.isNaN else { return 0 }
    let bound = Double(1 << 62)
    return Int(min(bound, max(-bound, value.rounded())))
  }

  /// The size of `source` scaled to cover `box`: at least the box on both axes, equal on
  /// at least one.
  package static func fillSize(_ source: PixelSize, covering box: PixelSize) -> PixelSize {
    let scale = fillScale(source, covering: box)
    return PixelSize(
      width: max(box.width, saturatingInt(Double(source.width) * scale)),
      height: max(box.height, saturatingInt(Double(source.height) * scale)))
  }

  /// The `box` of `scaled` whose centre is as near `focus` (fractions of `scaled`) as the
  /// edges allow.
  package static func cropRect(_ scaled: PixelSize, to box: PixelSize, around focus: FocusPoint)
    -> PixelRect
  {
    func start(_ centre: Double, _ length: Int, _ total: Int) -> Int {
      let spare = max(0, total - length)
      let wanted = saturatingInt(centre * Double(total) - Double(length) / 2)
      return min(spare, max(0, wanted))
    }
    return PixelRect(
      x: start(focus.x, box.width, scaled.width), y: start(focus.y, box.height, scaled.height),
      width: min(box.width, scaled.width), height: min(box.height, scaled.height))
  }

  /// The `box`-sized rectangle to keep from an image of size `scaled`, placed by `gravity`
  /// (smart gravities fall back to the centre here; libvips decides those from pixels).
  package static func cropRect(_ scaled: PixelSize, to box: PixelSize, gravity: Gravity)
    -> PixelRect
  {
    let spareX = max(0, scaled.width - box.width)
    let spareY = max(0, scaled.height - box.height)
    let x: Int
    let y: Int
    switch gravity {
    case .west, .northwest, .southwest: x = 0
    case .east, .northeast, .southeast: x = spareX
    default: x = spareX / 2
    }
    switch gravity {
    case .north, .northwest, .northeast: y = 0
    case .south, .southwest, .southeast: y = spareY
    default: y = spareY / 2
    }
    return PixelRect(
      x: x, y: y, width: min(box.width, scaled.width), height: min(box.height, scaled.height))
  }

  private static func clamp(_ value: Double, _ limit: Int) -> Int {
    min(limit, max(1, saturatingInt(value)))
  }
}
