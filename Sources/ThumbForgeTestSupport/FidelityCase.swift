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

