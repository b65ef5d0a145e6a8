internal import Foundation
package import Vips

/// One master of the differential fidelity test: a point in the space of master formats,
/// bit depths, band layouts, ICC profiles, EXIF orientations and interlacing, with its size.
package struct FidelityCase: Sendable, Hashable, CustomStringConvertible {
  package enum Format: String, Sendable, CaseIterable {
    case png, jpeg = "jpg", webp, heif = "heic", tiff = "tif", gif, avif
  }
  package enum Depth: String, Sendable, CaseIterable { case eight = "8", sixteen = "16", palette }
  package enum Bands: String, Sendable, CaseIterable { case grey, greyAlpha, rgb, rgba, cmyk }
  package enum Profile: String, Sendable, CaseIterable { case none, sRGB, displayP3, grey, cmyk }

  package var format: Format
  package var depth: Depth
  package var bands: Bands
  package var profile: Profile
  package var orientation: Int
  package var interlace: Bool
  /// Stored pixel size (before EXIF orientation).
  package var width = 0
  package var height = 0
  /// Varies the picture.
  package var seed = 0

  package var hasAlpha: Bool { bands == .greyAlpha || bands == .rgba }

  /// The file's name in the asset folder (`case07.png`).
  package func fileName(_ index: Int) -> String {
    "case\(index < 10 ? "0" : "")\(index).\(format.rawValue)"
  }

  package var description: String {
    var parts = [
      "\(format) \(depth.rawValue)-bit \(bands)", "icc \(profile)", "\(width)x\(height)",
    ]
    if orientation != 1 { parts.append("orientation \(orientation)") }
    if interlace { parts.append("interlaced") }
    return parts.joined(separator: ", ")
  }

  /// Whether ThumbForge may ship the master itself as its 3x output (*Copied masters*: the
  /// output's format, 8-bit sRGB, upright, no profile), so that path is covered too.
  package var copyable: Bool {
    let png = format == .png && depth == .eight && (bands == .rgb || bands == .rgba)
    let jpeg = format == .jpeg && bands == .rgb && orientation == 1
    return (png || jpeg) && profile == .none
  }

  /// The (dimension, value) pairs the case covers.
  package var coverage: [String] {
    [
      "format \(format)", "depth \(depth.rawValue)", "bands \(bands)", "icc \(profile)",
      "orientation \(orientation)", "interlace \(interlace)",
    ] + (copyable ? ["copyable \(format)"] : [])
  }

  /// Every value of every dimension, which a case set must cover.
  package static func allCoverage(avif: Bool) -> [String] {
    let formats = Format.allCases.filter { avif || $0 != .avif }
    return formats.map { "format \($0)" } + Depth.allCases.map { "depth \($0.rawValue)" }
      + Bands.allCases.map { "bands \($0)" } + Profile.allCases.map { "icc \($0)" }
      + (1...8).map { "orientation \($0)" } + ["interlace false", "interlace true"]
      + ["copyable png", "copyable jpeg"]
  }
}

extension FidelityCase {
  /// Every combination a master file can really be (PNG/TIFF 8 or 16 bits, palette PNG and
  /// GIF, CMYK JPEG/TIFF, grey profiles on grey, orientations on JPEG, interlacing on PNG
  /// and JPEG).
  package static func validCombinations(avif: Bool) -> [FidelityCase] {
    var all: [FidelityCase] = []
    for format in Format.allCases where avif || format != .avif {
      for depth in depths(format) {
        for bands in bands(format, depth) {
          for profile in profiles(format, depth, bands) {
            let orientations = format == .jpeg ? Array(1...8) : [1]
            let interlaces = format == .jpeg || (format == .png && depth != .palette)
            for orientation in orientations {
              for interlace in interlaces ? [false, true] : [false] {
                all.append(
                  FidelityCase(
                    format: format, depth: depth, bands: bands, profile: profile,
                    orientation: orientation, interlace: interlace))
              }
            }
          }
        }
      }
    }
    return all
  }

  static func depths(_ format: Format) -> [Depth] {
    switch format {
    case .png: [.eight, .sixteen, .palette]
    case .tiff: [.eight, .sixteen]
    case .gif: [.palette]
    default: [.eight]
    }
  }

  static func bands(_ format: Format, _ depth: Depth) -> [Bands] {
    if depth == .palette { return [.rgb, .rgba] }
    switch format {
    case .png: return [.grey, .greyAlpha, .rgb, .rgba]
    case .jpeg: return [.grey, .rgb, .cmyk]
    case .tiff: return depth == .eight ? Bands.allCases : [.grey, .greyAlpha, .rgb, .rgba]
    default: return [.rgb, .rgba]
    }
  }

  static func profiles(_ format: Format, _ depth: Depth, _ bands: Bands) -> [Profile] {
    if depth == .palette { return [.none] }
    switch bands {
    case .grey, .greyAlpha:
      // libheif, libwebp hold no grey; PNG, JPEG and TIFF carry a grey profile.
      return [.none, .grey]
    case .cmyk: return [.none, .cmyk]
    case .rgb, .rgba: return [.none, .sRGB, .displayP3]
    }
  }

  /// `count` cases (at least enough to cover every value of every dimension once), chosen
  /// deterministically from `seed`: first one case for each value not yet covered, then
  /// random valid combinations.
  package static func cases(seed: UInt64, count: Int, avif: Bool) -> [FidelityCase] {
    var random = PropertyRandom(seed: seed)
    let pool = validCombinations(avif: avif)
    var chosen: [FidelityCase] = []
    var covered = Set<String>()
    for value in allCoverage(avif: avif) where !covered.contains(value) {
      var pick = random.pick(pool.filter { $0.coverage.contains(value) })
      pick.sized(&random)
      chosen.append(pick)
      covered.formUnion(pick.coverage)
    }
    // Then a format at random, and a combination of it (JPEG's orientations and interlacing
    // would otherwise make most picks JPEG).
    let formats = Array(Set(pool.map(\.format))).sorted { $0.rawValue < $1.rawValue }
    while chosen.count < count {
      let format = random.pick(formats)
      var pick = random.pick(pool.filter { $0.format == format })
      pick.sized(&random)
      chosen.append(pick)
    }
    return chosen
  }

  private mutating func sized(_ random: inout PropertyRandom) {
    width = random.int(40...120)
    height = random.int(40...120)
    seed = random.int(0...1000)
  }
}

// MARK: - Master files

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
    case .cmyk: return try swatch.iccTransformed(to: "cmyk").iccProfile
    }
  }
}

extension FidelityCase {
  /// The master file's bytes. The pixels are tagged with the profile (not converted into
  /// it): the file says its samples are in that space.
  package func masterBytes() throws -> [UInt8] {
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

  /// An uncompressed little-endian TIFF of `image` (8 or 16 bits, 1–4 bands or CMYK),
  /// alpha unassociated, with `icc` in tag 34675.
  func tiff(_ image: VipsImage, icc: [UInt8]?) throws -> [UInt8] {
    let count = image.bands
    let bits = depth == .sixteen ? 16 : 8
    var data: [UInt8] = []
    if bits == 8 {
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

/// A minimal baseline TIFF writer: one uncompressed strip, chunky samples, little-endian.
enum TIFFWriter {
  static func file(
    width: Int, height: Int, bands: Int, bits: Int, photometric: Int, alpha: Bool,
    icc: [UInt8]?, pixels: [UInt8]
  ) -> [UInt8] {
    func u16(_ value: Int) -> [UInt8] { [UInt8(value & 0xFF), UInt8((value >> 8) & 0xFF)] }
    func u32(_ value: Int) -> [UInt8] { u16(value & 0xFFFF) + u16(value >> 16) }
    let bitsArray = (0..<bands).flatMap { _ in u16(bits) }
    var entries: [(tag: Int, type: Int, count: Int, data: [UInt8])] = [
      (256, 4, 1, u32(width)), (257, 4, 1, u32(height)), (258, 3, bands, bitsArray),
      (259, 3, 1, u16(1)), (262, 3, 1, u16(photometric)), (273, 4, 1, u32(0)),
      (277, 3, 1, u16(bands)), (278, 4, 1, u32(height)), (279, 4, 1, u32(pixels.count)),
      (284, 3, 1, u16(1)),
    ]
    if photometric == 5 { entries.append((332, 3, 1, u16(1))) }  // InkSet CMYK
    if alpha { entries.append((338, 3, 1, u16(2))) }  // unassociated alpha
    if let icc { entries.append((34675, 7, icc.count, icc)) }
    let ifdSize = 2 + 12 * entries.count + 4
    var extra: [UInt8] = []
    let extraStart = 8 + ifdSize
    var offsets: [Int: Int] = [:]
    for (index, entry) in entries.enumerated() where entry.data.count > 4 {
      offsets[index] = extraStart + extra.count
      extra += entry.data
      if extra.count % 2 == 1 { extra.append(0) }
    }
    let dataOffset = extraStart + extra.count
    var ifd = u16(entries.count)
    for (index, entry) in entries.enumerated() {
      ifd += u16(entry.tag) + u16(entry.type) + u32(entry.count)
      if entry.tag == 273 {
        ifd += u32(dataOffset)
      } else if let offset = offsets[index] {
        ifd += u32(offset)
      } else {
        ifd += entry.data + [UInt8](repeating: 0, count: 4 - entry.data.count)
      }
    }
    ifd += u32(0)
    return Array("II".utf8) + u16(42) + u32(8) + ifd + extra + pixels
  }
}

// MARK: - The reference

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
