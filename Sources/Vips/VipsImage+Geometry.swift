internal import CVips

extension VipsImage {
  /// Resizes by a factor (and optionally a separate vertical factor).
  package func resize(scale: Double, verticalScale: Double? = nil, kernel: Kernel = .lanczos3)
    throws(VipsError) -> VipsImage
  {
    var arguments: VipsArguments = [
      "in": .image(self), "scale": .double(scale), "kernel": .string(kernel.rawValue),
    ]
    if let verticalScale { arguments.append("vscale", .double(verticalScale)) }
    return try VipsOperation.image("resize", arguments)
  }

  /// Resizes to exactly `width` × `height` pixels.
  package func resize(width: Int, height: Int, kernel: Kernel = .lanczos3) throws(VipsError)
    -> VipsImage
  {
    if width == self.width && height == self.height { return self }
    var image = try resize(
      scale: Double(width) / Double(self.width),
      verticalScale: Double(height) / Double(self.height), kernel: kernel)
    // Floating-point rounding can leave one pixel too many or too few.
    if image.width != width || image.height != height {
      image = try image.embed(
        x: 0, y: 0, width: width, height: height, extend: .copy)
    }
    return image
  }

  /// Cuts out a rectangle.
  package func crop(x: Int, y: Int, width: Int, height: Int) throws(VipsError) -> VipsImage {
    if x == 0 && y == 0 && width == self.width && height == self.height { return self }
    return try VipsOperation.image(
      "extract_area",
      [
        "input": .image(self), "left": .int(x), "top": .int(y), "width": .int(width),
        "height": .int(height),
      ])
  }

  /// Crops to `width` × `height` around the most interesting region (libvips smartcrop).
  package func smartCrop(width: Int, height: Int, interesting: Interesting) throws(VipsError)
    -> VipsImage
  {
    try VipsOperation.image(
      "smartcrop",
      [
        "input": .image(self), "width": .int(width), "height": .int(height),
        "interesting": .string(interesting.rawValue),
      ])
  }

  /// Where ``smartCrop(width:height:interesting:)`` would cut: the `width` × `height`
  /// rectangle of this image that libvips finds most interesting.
  package func smartCropRect(width: Int, height: Int, interesting: Interesting) throws(VipsError)
    -> VipsRect
  {
    try smartCropped(width: width, height: height, interesting: interesting).rect
  }

  /// ``smartCrop(width:height:interesting:)``'s image, and the rectangle of this image it is.
  package func smartCropped(width: Int, height: Int, interesting: Interesting) throws(VipsError)
    -> (image: VipsImage, rect: VipsRect)
  {
    let cropped = try smartCrop(width: width, height: height, interesting: interesting)
    // extract_area records where it cut as the negated offsets of its result.
    let rect = VipsRect(
      x: -Int(vips_image_get_xoffset(cropped.pointer)),
      y: -Int(vips_image_get_yoffset(cropped.pointer)), width: cropped.width,
      height: cropped.height)
    return (cropped, rect)
  }

  /// How `embed` fills the new area.
  package enum Extend: String, Sendable {
    case black, copy, background, white
  }

  /// Places the image on a larger (or smaller) canvas at (`x`, `y`).
  package func embed(
    x: Int, y: Int, width: Int, height: Int, extend: Extend = .background,
    background: [Double] = []
  ) throws(VipsError) -> VipsImage {
    var arguments: VipsArguments = [
      "in": .image(self), "x": .int(x), "y": .int(y), "width": .int(width),
      "height": .int(height), "extend": .string(extend.rawValue),
    ]
    if !background.isEmpty { arguments.append("background", .doubles(background)) }
    return try VipsOperation.image("embed", arguments)
  }

  /// Applies the EXIF orientation tag to the pixels and removes the tag.
  package func autoRotated() throws(VipsError) -> VipsImage {
    if orientation == 1 { return self }
    return try VipsOperation.image("autorot", ["in": .image(self)])
  }

  /// Rotates by a multiple of 90 degrees clockwise.
  package func rotated(degrees: Int) throws(VipsError) -> VipsImage {
    let angle: String
    switch ((degrees % 360) + 360) % 360 {
    case 90: angle = "d90"
    case 180: angle = "d180"
    case 270: angle = "d270"
    default: return self
    }
    return try VipsOperation.image("rot", ["in": .image(self), "angle": .string(angle)])
  }

  /// Mirrors left–right (`horizontal`) or top–bottom.
  package func flipped(horizontal: Bool) throws(VipsError) -> VipsImage {
    try VipsOperation.image(
      "flip",
      ["in": .image(self), "direction": .string(horizontal ? "horizontal" : "vertical")])
  }
}

extension VipsImage {
  /// Shrinks by an integer factor with a box filter (fast; each output pixel is the mean of
  /// `factor` × `factor` input pixels). Edge pixels that do not fill a whole box are dropped.
  package func shrink(by factor: Int) throws(VipsError) -> VipsImage {
    if factor <= 1 { return self }
    return try VipsOperation.image(
      "shrink",
      ["in": .image(self), "hshrink": .double(Double(factor)), "vshrink": .double(Double(factor))])
  }
}
