internal import Foundation
internal import Vips

extension FidelityCase {
  /// Sample `band` of pixel (x, y) on the scale of `maximum`: colour ramps with a wave
  /// texture (fine detail for the resampler), a radial alpha that is opaque in the middle
  /// and fades to transparent in the corners.
  func sample(x: Int, y: Int, band: Int, bands count: Int, maximum: Int) -> Int {
    let u = Double(x) / Double(max(1, width - 1))
    let v = Double(y) / Double(max(1, height - 1))
    let phase = Double(seed % 17)
    let wave = 0.5 + 0.45 * sin(Double(x) / 3.5 + phase) * cos(Double(y) / 5 - phase)
    let unit: Double
    if hasAlpha && band == count - 1 {
      let dx = u - 0.5
      let dy = v - 0.5
      unit = min(max((0.62 - (dx * dx + dy * dy).squareRoot()) / 0.4, 0), 1)
    } else if count <= 2 {
      unit = 0.35 * u + 0.35 * v + 0.3 * wave
    } else {
      unit = [u, v, wave][band]
    }
    return Int((unit * Double(maximum)).rounded())
  }

  /// The master's samples as a libvips image (8 or 16 bits; RGB for CMYK, converted later).
  func pixels() throws -> VipsImage {
    let layout: PixelLayout =
      switch bands {
      case .grey: .grey
      case .greyAlpha: .greyAlpha
      case .rgb, .cmyk: .rgb
      case .rgba: .rgba
      }
    let bits = depth == .sixteen ? 16 : 8
    return try Fixtures.image(width: width, height: height, layout: layout, bitDepth: bits) {
      x, y, band in
      sample(x: x, y: y, band: band, bands: layout.bands, maximum: bits == 16 ? 65535 : 255)
    }
  }

  /// The bytes of the profile the master carries, or nil.
  func profileBytes() throws -> [UInt8]? {
    let swatch = try VipsImage.solid(width: 2, height: 2, color: [128, 128, 128])
    switch profile {
    case .none: return nil
    case .grey: return Fixtures.greyProfile()
    case .sRGB: return try swatch.iccTransformed(to: "srgb").iccProfile
    case .displayP3: return try Fixtures.displayP3(swatch).iccProfile
    case .adobeRGB: return Fixtures.adobeRGBProfile()
    case .cmyk: return try swatch.iccTransformed(to: "cmyk").iccProfile
    }
  }
}

extension FidelityCase {
  /// The master file's bytes. The pixels are tagged with the profile (not converted into
  /// it): the file says its samples are in that space.
  package func masterBytes() throws -> [UInt8] {
    if let bits = depth.lowBits {
      if format == .tiff { return try tiff(try pixels(), icc: try profileBytes()) }
      return isPalette ? lowPalettePNG(bits: bits) : try lowGreyPNG(bits: bits)
    }
    if depth == .palette {
      var master = GeneratedMaster(
        path: "m", format: format == .gif ? .gif : .png, width: width, height: height,
        layout: bands == .rgba ? .paletteAlpha : .palette)
      var random = PropertyRandom(seed: UInt64(seed))
      try master.encode(seed: seed, random: &random)
      return master.bytes
    }
    var image = try pixels()
    if bands == .cmyk {
      image = try image.colourspace(.cmyk).removingField("icc-profile-data").copiedToMemory()
    }
    let icc = try profileBytes()
    if format == .tiff { return try tiff(image, icc: icc) }
    if let icc { image = try image.settingBlob("icc-profile-data", icc) }
    if orientation != 1 { image = try image.settingInt("orientation", orientation) }
    let saver: ImageFormat =
      switch format {
      case .jpeg: .jpeg
      case .webp: .webp
      case .heif: .heif
      case .avif: .avif
      default: .png
      }
    let options = SaveOptions(
      quality: 92, interlace: interlace, stripMetadata: orientation == 1, keepProfile: true)
    return try image.encoded(as: saver, options: options)
  }

  /// An uncompressed little-endian TIFF of `image` (8 or 16 bits, 1–4 bands or CMYK; grey
  /// at 1, 2 or 4 bits),
  /// alpha unassociated, with `icc` in tag 34675.
  func tiff(_ image: VipsImage, icc: [UInt8]?) throws -> [UInt8] {
    let count = image.bands
    let bits = depth == .sixteen ? 16 : depth.lowBits ?? 8
    var data: [UInt8] = []
    if bits < 8 {
      data = packedGreyRows(bits: bits)
    } else if bits == 8 {
      data = try image.pixelBytes()
    } else {
      let maximum = 65535
      for y in 0..<height {
        for x in 0..<width {
          for band in 0..<count {
            let value = sample(x: x, y: y, band: band, bands: count, maximum: maximum)
            data += [UInt8(value & 0xFF), UInt8(value >> 8)]
          }
        }
      }
    }
    let photometric = bands == .cmyk ? 5 : count >= 3 ? 2 : 1
    return TIFFWriter.file(
      width: width, height: height, bands: count, bits: bits, photometric: photometric,
      alpha: hasAlpha, icc: icc, pixels: data)
  }
}
