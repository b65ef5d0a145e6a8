package import Vips

/// The independent reference of the fidelity test, made from libvips primitives alone (not
/// ThumbForge's render path): the master file loaded, turned upright, its colour converted
/// to 8-bit sRGB through its embedded profile (libvips' `colourspace` when it has none),
/// its alpha separated and brought to 8 bits (16-bit alpha: value / 257, rounded), then
/// Lanczos-3 resized with alpha premultiplied around the resize.
package struct FidelityReference {
  /// The upright master in 8-bit sRGB (3 bands, or 4 with alpha), at master size.
  package let full: VipsImage

  package init(masterPath: String, autoRotate: Bool = true) throws {
    var master = try VipsImage.load(path: masterPath)
    if autoRotate { master = try master.autoRotated() }
    var colour = master
    var alpha: VipsImage?
    if master.hasAlpha {
      colour = try master.extractBand(0, count: master.bands - 1)
      alpha = try Self.alpha8(try master.extractBand(master.bands - 1))
    }
    if colour.hasICCProfile {
      colour = try colour.iccTransformed(to: "srgb")
    } else if colour.interpretation != .srgb || colour.format != .uchar {
      colour = try colour.colourspace(.srgb)
    }
    if colour.format != .uchar { colour = try colour.cast(to: .uchar) }
    colour = try colour.removingField("icc-profile-data")
    full = try (alpha.map { try colour.bandjoin([$0]) } ?? colour).copiedToMemory()
  }

  /// An alpha band at 8 bits: 16-bit values divided by 257 and rounded.
  static func alpha8(_ band: VipsImage) throws -> VipsImage {
    guard band.format == .ushort else { return try band.cast(to: .uchar) }
    let memory = try band.copiedToMemory()
    var bytes: [UInt8] = []
    bytes.reserveCapacity(band.width * band.height)
    for y in 0..<band.height {
      for x in 0..<band.width {
        let value = try memory.pixel(x: x, y: y)[0]
        bytes.append(UInt8(min(255, max(0, (value / 257).rounded()))))
      }
    }
    return try VipsImage.pixels(bytes, width: band.width, height: band.height, bands: 1)
  }

  /// The reference at `width` × `height` (Lanczos 3; premultiplied when there is alpha).
  package func resized(width: Int, height: Int) throws -> VipsImage {
    guard full.hasAlpha else {
      return try full.resize(width: width, height: height, kernel: .lanczos3).copiedToMemory()
    }
    if width == full.width && height == full.height { return full }
    let float = try full.premultiplied().resize(width: width, height: height, kernel: .lanczos3)
      .unpremultiplied()
    return try Self.rounded(float)
  }

  /// A float image as 8 bits, rounded to nearest (libvips' cast truncates).
  static func rounded(_ image: VipsImage) throws -> VipsImage {
    let memory = try image.cast(to: .float).copiedToMemory()
    var bytes: [UInt8] = []
    bytes.reserveCapacity(image.width * image.height * image.bands)
    for y in 0..<image.height {
      for x in 0..<image.width {
        for value in try memory.pixel(x: x, y: y) {
          bytes.append(UInt8(min(255, max(0, value.rounded()))))
        }
      }
    }
    return try VipsImage.pixels(bytes, width: image.width, height: image.height, bands: image.bands)
  }
}
