internal import ThumbForgeBasics
internal import ThumbForgeConfig
internal import ThumbForgePlanning
internal import Vips

extension OutputShape {
  /// Applies the mask and border to a box-sized image; the result is RGBA on a canvas grown
  /// by the stroke width when the stroke is centred on the edge.
  func apply(to image: VipsImage) throws(VipsError) -> VipsImage {
    let radius = self.radius
    let stroke = strokeWidth
    let grow = canvasGrowth
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
      radius: radius, style: cornerStyle)
    var maskShapes = "<path d=\"\(body)\" fill=\"#fff\"/>"
    var strokeShape = ""
    if stroke > 0 {
      let path: String
      switch strokeAlignment {
      case .inside:
        path = RoundedRectPath.svg(
          x: stroke / 2, y: stroke / 2, width: Double(image.width) - stroke,
          height: Double(image.height) - stroke, radius: max(0, radius - stroke / 2),
          style: cornerStyle)
      case .center:
        path = body
        maskShapes +=
          "<path d=\"\(body)\" fill=\"none\" stroke=\"#fff\" stroke-width=\"\(RoundedRectPath.n(stroke))\"/>"
      }
      strokeShape =
        "<path d=\"\(path)\" fill=\"none\" stroke=\"\(strokeColor.svgFill)\" stroke-opacity=\"\(strokeColor.svgOpacity)\" stroke-width=\"\(RoundedRectPath.n(stroke))\"/>"
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
