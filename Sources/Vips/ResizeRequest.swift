/// One resize of ``VipsImage/resizedInOnePass(_:alsoHalve:)``: the image resized to exactly
/// `width` × `height`, of which only `region` is kept (all of it when nil).
package struct ResizeRequest: Sendable, Hashable {
  package var width: Int
  package var height: Int
  package var kernel: Kernel
  package var region: VipsRect?

  package init(width: Int, height: Int, kernel: Kernel = .lanczos3, region: VipsRect? = nil) {
    self.width = width
    self.height = height
    self.kernel = kernel
    self.region = region
  }

  /// The pixels the request produces: `region`, or the whole resized image.
  package var area: VipsRect { region ?? VipsRect(x: 0, y: 0, width: width, height: height) }

  /// ``area``, after checking that it lies inside the resized image, and that libvips can
  /// describe that image (``PixelCount/maxSide``), even when only the area is computed.
  func checkedArea() throws(VipsError) -> VipsRect {
    try PixelCount.checkSides(width, height, "resize")
    let area = self.area
    guard width > 0, height > 0, area.x >= 0, area.y >= 0, area.width > 0, area.height > 0,
      area.x + area.width <= width, area.y + area.height <= height
    else {
      throw VipsError(
        context: "resize", message: "region \(area) is not inside a \(width)x\(height) result")
    }
    return area
  }
}
