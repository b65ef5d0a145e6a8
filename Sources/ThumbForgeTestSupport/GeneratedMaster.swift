internal import Foundation
internal import Vips

/// One master file of a generated asset folder: what it is meant to be, and its bytes.
package struct GeneratedMaster: Sendable, CustomStringConvertible {
  /// The formats the generator writes masters in (README: masters are PNG, JPEG, WebP,
  /// HEIF, AVIF, TIFF, GIF, SVG or PDF; AVIF is not written: this package's libvips
  /// wrapper has no AV1 encoder option).
  package enum Format: String, Sendable, CaseIterable {
    case png, jpeg = "jpg", webp, heif = "heic", gif, tiff = "tif", svg, pdf
  }

  /// The pixels' layout in the file.
  package enum Layout: String, Sendable, CaseIterable {
    case grey, greyAlpha, rgb, rgba, rgb16, grey16, palette, paletteAlpha
  }

  /// The colour profile embedded in the file.
  package enum Profile: String, Sendable, CaseIterable {
    case none, sRGB, displayP3, cmyk
  }

  /// How the file is damaged after encoding.
  package enum Damage: Sendable, Equatable {
    case none
    /// Cut to its first `n` bytes.
    case truncated(Int)
    /// `n` bytes changed at random places.
    case flipped(Int)
    /// Plain text under the image's name.
    case text
    /// Zero bytes.
    case empty
  }

  /// Path relative to the asset folder.
  package var path: String
  package var format: Format
  /// Pixels (raster) or points (vector), before EXIF orientation.
  package var width: Int
  package var height: Int
  package var layout: Layout
  package var profile: Profile
  /// EXIF orientation 1–8 (JPEG; 1 elsewhere).
  package var orientation: Int
  /// Whether the file carries EXIF GPS fields (JPEG, PNG) and a PNG text comment.
  package var gps: Bool
  package var damage: Damage
  /// The file as written (after damage); empty until ``encode(seed:random:)``.
  package var bytes: [UInt8] = []

  package var description: String {
    var parts = ["\(path): \(format.rawValue) \(width)x\(height) \(layout.rawValue)"]
    if profile != .none { parts.append("profile \(profile.rawValue)") }
    if orientation != 1 { parts.append("orientation \(orientation)") }
    if gps { parts.append("GPS EXIF") }
    if damage != .none { parts.append("damage \(damage)") }
    parts.append("\(bytes.count) bytes")
    return parts.joined(separator: ", ")
  }

  package init(
    path: String, format: Format, width: Int, height: Int, layout: Layout,
    profile: Profile = .none, orientation: Int = 1, gps: Bool = false, damage: Damage = .none
  ) {
    self.path = path
    self.format = format
    self.width = width
    self.height = height
    self.layout = layout
    self.profile = profile
    self.orientation = orientation
    self.gps = gps
    self.damage = damage
  }

  /// Whether the format is drawn from vector data (sizes in points).
  package var isVector: Bool { format == .svg || format == .pdf }

  /// The largest side each format stores (libjpeg 65500, WebP 16383, GIF 65535).
  static func maxSide(_ format: Format) -> Int {
    switch format {
    case .png, .tiff: 200_000
    case .jpeg: 65_000
    case .gif: 65_535
    case .webp: 16_383
    case .heif: 4_000
    case .svg, .pdf: 6_000
    }
  }

  /// The layouts a format can hold.
  static func layouts(_ format: Format) -> [Layout] {
    switch format {
    case .png: Layout.allCases
    case .jpeg: [.grey, .rgb]
    case .webp, .heif: [.rgb, .rgba]
    case .gif: [.palette, .paletteAlpha]
    case .tiff: [.grey, .rgb, .rgba]
    case .svg, .pdf: [.rgb]
    }
  }

  /// The profiles a format and layout can carry.
  static func profiles(_ format: Format, _ layout: Layout) -> [Profile] {
    guard [.rgb, .rgba].contains(layout) else { return [.none] }
    switch format {
    case .jpeg: return [.none, .sRGB, .displayP3, .cmyk]
    case .png, .webp, .heif: return [.none, .sRGB, .displayP3]
    default: return [.none]
    }
  }

  // MARK: - Encoding

  /// Makes the file's bytes (then damages them as asked).
  package mutating func encode(seed: Int, random: inout PropertyRandom) throws {
    var data = try encoded(seed: seed)
    switch damage {
    case .none: break
    case .truncated:
      let keep = data.isEmpty ? 0 : random.int(0...(data.count - 1))
      data = Array(data.prefix(keep))
      damage = .truncated(keep)
    case .flipped(let count):
      if !data.isEmpty {
        for _ in 0..<count {
          let index = random.int(0...(data.count - 1))
          data[index] ^= UInt8(random.int(1...255))
        }
      }
    case .text: data = Array("This is plain text, not an image.\n".utf8)
    case .empty: data = []
    }
    bytes = data
  }

  private func encoded(seed: Int) throws -> [UInt8] {
    switch format {
    case .svg:
      let colours = ["#c8102e", "#ffffff", "#002395", "#ffcc00"]
      return Array(
        Fixtures.svg(
          width: width, height: height,
          colors: Array(colours.prefix(1 + seed % colours.count))
        ).utf8)
    case .pdf:
      return MasterFileFormats.pdf(width: Double(width), height: Double(height), seed: seed)
    default: break
    }
    let image = try pixels(seed: seed)
    switch format {
    case .gif:
      return MasterFileFormats.gif(
        width: width, height: height, bands: image.bands, pixels: try image.pixelBytes())
    case .tiff:
      return MasterFileFormats.tiff(
        width: width, height: height, bands: image.bands, pixels: try image.pixelBytes())
    case .png where layout == .palette || layout == .paletteAlpha:
      let file = MasterFileFormats.palettePNG(
        width: width, height: height, bands: image.bands, pixels: try image.pixelBytes())
      return gps ? withMetadata(file) : file
    default: break
    }
    let saveFormat: ImageFormat =
      switch format {
      case .jpeg: .jpeg
      case .webp: .webp
      case .heif: .heif
      default: .png
      }
    var toSave = image
    switch profile {
    case .none: break
    case .sRGB: toSave = try image.iccTransformed(to: "srgb")
    case .displayP3: toSave = try Fixtures.displayP3(image)
    case .cmyk:
      toSave = try image.toSRGB8().flattened(background: [255, 255, 255]).colourspace(.cmyk)
    }
    let options = SaveOptions(
      quality: 90, stripMetadata: profile == .none, keepProfile: profile != .none)
    let file = try toSave.encoded(as: saveFormat, options: options)
    return withMetadata(file)
  }

  /// The JPEG or PNG with the EXIF block this master asks for (or none) in place of any
  /// libvips wrote.
  private func withMetadata(_ file: [UInt8]) -> [UInt8] {
    let wantsEXIF = orientation != 1 || gps
    let exif = wantsEXIF ? MasterFileFormats.exif(orientation: orientation, gps: gps) : nil
    switch format {
    case .jpeg: return MasterFileFormats.jpeg(file, replacingEXIFWith: exif)
    case .png:
      return MasterFileFormats.png(
        file, replacingEXIFWith: exif, comment: gps ? "taken at the summit" : nil)
    default: return file
    }
  }

  /// The master's pixels in its layout (8-bit unless 16-bit was asked for).
  private func pixels(seed: Int) throws -> VipsImage {
    let rgb = try Fixtures.photo(width: width, height: height, seed: seed)
    func alpha() throws -> VipsImage {
      let opaque = try VipsImage.solid(
        width: max(1, width / 2), height: max(1, height / 2), color: [255])
      return try opaque.embed(
        x: width / 4, y: height / 4, width: width, height: height,
        background: [Double((seed * 29) % 128)])
    }
    switch layout {
    case .rgb, .palette: return rgb
    case .rgba, .paletteAlpha: return try rgb.bandjoin([try alpha()])
    case .grey: return try rgb.colourspace(.bw)
    case .greyAlpha: return try rgb.colourspace(.bw).bandjoin([try alpha()])
    case .rgb16:
      return width * height <= 40_000
        ? try Fixtures.gradient(width: width, height: height, layout: .rgb, bitDepth: 16)
        : try rgb.colourspace(.rgb16)
    case .grey16:
      return width * height <= 40_000
        ? try Fixtures.gradient(width: width, height: height, layout: .grey, bitDepth: 16)
        : try rgb.colourspace(.grey16)
    }
  }
}
