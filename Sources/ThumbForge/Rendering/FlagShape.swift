internal import Vips

/// The rounded-corner mask and border of a `flag` (or any recipe with a radius or stroke).
struct FlagShape {
  let recipe: Recipe
  let scale: Int

  /// Applies mask and border to a `box`-sized image; the result is RGBA on a canvas grown
  /// by the stroke width when the stroke is centred on the edge.
  func apply(to image: VipsImage) throws(VipsError) -> VipsImage {
    let s = Double(scale)
    let radius = recipe.cornerRadius * s
    let stroke = recipe.strokeWidth * s
    let grow = recipe.canvasGrowth(scale: scale)
    let inset = Double(grow) / 2
    let width = image.width + grow
    let height = image.height + grow
    var base = try image.addingAlpha()
    if grow > 0 {
      base = try base.embed(
        x: grow / 2, y: grow / 2, width: width, height: height, extend: .background,
        background: [0, 0, 0, 0])
    }
    let body = RoundedRectPath.svg(
      x: inset, y: inset, width: Double(image.width), height: Double(image.height),
      radius: radius, style: recipe.cornerStyle)
    var maskShapes = "<path d=\"\(body)\" fill=\"#fff\"/>"
    var strokeShape = ""
    if stroke > 0 {
      let path: String
      switch recipe.strokeAlignment {
      case .inside:
        path = RoundedRectPath.svg(
          x: stroke / 2, y: stroke / 2, width: Double(image.width) - stroke,
          height: Double(image.height) - stroke, radius: max(0, radius - stroke / 2),
          style: recipe.cornerStyle)
      case .center:
        path = body
        maskShapes +=
          "<path d=\"\(body)\" fill=\"none\" stroke=\"#fff\" stroke-width=\"\(RoundedRectPath.n(stroke))\"/>"
      }
      strokeShape =
        "<path d=\"\(path)\" fill=\"none\" stroke=\"\(recipe.strokeColor.svgFill)\" stroke-opacity=\"\(recipe.strokeColor.svgOpacity)\" stroke-width=\"\(RoundedRectPath.n(stroke))\"/>"
    }
    let mask = try ShapeCache.shared.image(
      svg: svgDocument(width: width, height: height, maskShapes))
    var result = try base.composite(mask, mode: .destIn)
    if !strokeShape.isEmpty {
      let border = try ShapeCache.shared.image(
        svg: svgDocument(width: width, height: height, strokeShape))
      result = try result.composite(border, mode: .over)
    }
    return result.format == .uchar ? result : try result.cast(to: .uchar)
  }

  private func svgDocument(width: Int, height: Int, _ content: String) -> String {
    "<svg xmlns=\"http://www.w3.org/2000/svg\" width=\"\(width)\" height=\"\(height)\" viewBox=\"0 0 \(width) \(height)\">\(content)</svg>"
  }
}
