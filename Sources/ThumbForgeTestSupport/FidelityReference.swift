package import Vips

/// The independent reference of the fidelity test, made from libvips primitives alone (not
/// ThumbForge's render path): the master file loaded, turned upright, its colour converted
/// to 8-bit sRGB through its embedded profile (libvips' `colourspace` when it has none),
/// its alpha separated and brought to 8 bits (16-bit alpha: value / 257, rounded), then
/// Lanczos-3 resized with alpha premultiplied around the resize, and shaped as each recipe
/// says (``expected(_:scale:resampler:)``).
package struct FidelityReference {
  /// The upright master in 8-bit sRGB (3 bands, or 4 with alpha), at master size.
  package private(set) var full: VipsImage
  /// The mistake made on purpose, if any (``FidelityBreak``).
  package let breaking: FidelityBreak?

  /// Which resampler resizes: libvips' (the reference; enlargements by
  /// ``LanczosResampler``), the Vips module's own (to tell a resampler's difference apart
  /// from an encoder's), or ``LanczosResampler`` throughout.
  package enum Resampler: Sendable { case libvips, vipsModule, textbook }

  /// Where the master is, and how it was read (to read it again shrunk on load).
  let masterPath: String
  let autoRotate: Bool

  package init(masterPath: String, autoRotate: Bool = true, breaking: FidelityBreak? = nil)
    throws
  {
    try self.init(masterPath: masterPath, autoRotate: autoRotate, breaking: breaking, shrink: 1)
  }

  /// The same reference from the JPEG master decoded with libjpeg's shrink-on-load by
  /// `shrink` (2, 4 or 8); throws for other formats.
  package func reloaded(shrink: Int) throws -> FidelityReference {
    try FidelityReference(
      masterPath: masterPath, autoRotate: autoRotate, breaking: breaking, shrink: shrink)
  }

  /// The same reference from the master box-halved `levels` times by the Vips module's
  /// `halved()` (an odd last row or column dropped), as ThumbForge's pyramid makes it.
  package func halved(_ levels: Int) throws -> FidelityReference {
    var copy = self
    for _ in 0..<levels { copy.full = try copy.full.halved() }
    return copy
  }

  init(masterPath: String, autoRotate: Bool, breaking: FidelityBreak?, shrink: Int) throws {
    self.breaking = breaking
    self.masterPath = masterPath
    self.autoRotate = autoRotate
    var master = try VipsImage.load(
      path: masterPath, options: LoadOptions(shrink: shrink > 1 ? shrink : nil))
    if shrink > 1, master.loader != "jpegload" {
      throw VipsError(context: masterPath, message: "shrink-on-load is for JPEG masters")
    }
    if autoRotate && breaking != .noRotation { master = try master.autoRotated() }
    var colour = master
    var alpha: VipsImage?
    if master.hasAlpha {
      colour = try master.extractBand(0, count: master.bands - 1)
      alpha = try Self.alpha8(try master.extractBand(master.bands - 1))
    }
    if breaking == .ignoreProfile { colour = try colour.removingField("icc-profile-data") }
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

  /// The reference at `width` × `height` (Lanczos 3; premultiplied when there is alpha):
  /// a reduction by the chosen resampler, an enlargement by ``LanczosResampler``.
  package func resized(width: Int, height: Int, resampler: Resampler = .libvips) throws
    -> VipsImage
  {
    func resize(_ image: VipsImage) throws -> VipsImage {
      switch resampler {
      case .libvips, .textbook: try image.resize(width: width, height: height, kernel: .lanczos3)
      case .vipsModule:
        try image.resize(width: width, height: height, kernel: .lanczos3, region: nil)
      }
    }
    if width == full.width && height == full.height { return full }
    if resampler == .textbook
      || (resampler == .libvips && (width > full.width || height > full.height))
    {
      return try LanczosResampler.resize(full, width: width, height: height)
    }
    guard full.hasAlpha else { return try resize(full).copiedToMemory() }
    let float = try resize(try full.premultiplied()).unpremultiplied()
    return try Self.rounded(float)
  }

  /// A float image as 8 bits, rounded to nearest (libvips' cast truncates).
  static func rounded(_ image: VipsImage) throws -> VipsImage {
    try image.rounded().cast(to: .uchar).copiedToMemory()
  }
}
