internal import CVips
internal import CVipsHelpers

extension VipsImage {
  /// Converts to 8-bit sRGB (with alpha kept when present), honouring an embedded
  /// ICC profile; CMYK, 16-bit, greyscale and Lab inputs all end up as sRGB.
  package func toSRGB8() throws(VipsError) -> VipsImage {
    var image = self
    if hasICCProfile {
      do {
        image = try image.iccTransformed(to: "srgb", inputProfile: nil)
      } catch {
        // A broken profile should not lose the image: fall back to a plain conversion.
        image = try image.removingField("icc-profile-data")
      }
    }
    if image.interpretation != .srgb || image.format != .uchar {
      image = try VipsOperation.image(
        "colourspace", ["in": .image(image), "space": .string("srgb")])
    }
    if image.format != .uchar {
      image = try image.cast(to: .uchar)
    }
    return image
  }

  /// Casts band values to another number format (values are clipped, not scaled).
  package func cast(to format: BandFormat) throws(VipsError) -> VipsImage {
    try VipsOperation.image("cast", ["in": .image(self), "format": .string(format.rawValue)])
  }

  /// Removes alpha by blending onto a background colour (RGB values 0–255, scaled to the
  /// image's range for 16-bit images).
  package func flattened(background: [Double]) throws(VipsError) -> VipsImage {
    guard hasAlpha else { return self }
    let scale = maxAlpha / 255
    return try VipsOperation.image(
      "flatten",
      [
        "in": .image(self), "background": .doubles(background.map { $0 * scale }),
        "max-alpha": .double(maxAlpha),
      ])
  }

  /// Adds an opaque alpha band when there is none (255, or 65535 for 16-bit images).
  /// An 8-bit memory image of 1 or 3 bands gets it without a libvips operation (the same
  /// pixels and header as `bandjoin_const`, which runs two threaded sinks even for a tiny
  /// image).
  package func addingAlpha() throws(VipsError) -> VipsImage {
    if hasAlpha { return self }
    if format == .uchar, bands == 1 || bands == 3, cvips_image_is_memory(pointer) != 0 {
      guard let out = cvips_image_with_opaque_alpha(pointer) else {
        throw VipsError.fromBuffer(context: "addalpha")
      }
      return VipsImage(owning: out)
    }
    return try VipsOperation.image(
      "bandjoin_const", ["in": .image(self), "c": .doubles([maxAlpha])])
  }

  /// The alpha value that means opaque, as libvips' `vips_interpretation_max_alpha`.
  var maxAlpha: Double {
    switch interpretation {
    case .rgb16, .grey16: 65535
    case .scrgb: 1
    default: 255
    }
  }

  /// Multiplies colour by alpha (for correct resampling of transparent edges).
  package func premultiplied() throws(VipsError) -> VipsImage {
    try VipsOperation.image("premultiply", ["in": .image(self)])
  }

  /// Divides colour by alpha, undoing ``premultiplied()``.
  package func unpremultiplied() throws(VipsError) -> VipsImage {
    try VipsOperation.image("unpremultiply", ["in": .image(self)])
  }

  /// Takes `count` bands starting at `band`.
  package func extractBand(_ band: Int, count: Int = 1) throws(VipsError) -> VipsImage {
    try VipsOperation.image(
      "extract_band", ["in": .image(self), "band": .int(band), "n": .int(count)])
  }

  /// Appends the bands of other images to this one.
  package func bandjoin(_ others: [VipsImage]) throws(VipsError) -> VipsImage {
    try VipsOperation.image("bandjoin", ["in": .images([self] + others)])
  }

  /// Draws `overlay` onto this image at (`x`, `y`) with a Porter–Duff blend mode.
  package func composite(_ overlay: VipsImage, mode: BlendMode = .over, x: Int = 0, y: Int = 0)
    throws(VipsError) -> VipsImage
  {
    try VipsOperation.image(
      "composite2",
      [
        "base": .image(self), "overlay": .image(overlay), "mode": .string(mode.rawValue),
        "x": .int(x), "y": .int(y),
      ])
  }

  /// The mean of every band value over the whole image.
  package func average() throws(VipsError) -> Double {
    try VipsOperation.double("avg", ["in": .image(self)])
  }
}

extension VipsImage {
  /// Converts to another colour space (for example `.cmyk`, `.rgb16`, `.bw`, `.grey16`),
  /// using libvips' built-in profiles where a profile is needed.
  package func colourspace(_ space: Interpretation) throws(VipsError) -> VipsImage {
    let nick: String
    switch space {
    case .bw: nick = "b-w"
    default: nick = space.rawValue
    }
    return try VipsOperation.image("colourspace", ["in": .image(self), "space": .string(nick)])
  }
}
