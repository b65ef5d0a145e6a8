/// One master of the differential fidelity test: a point in the space of master formats,
/// bit depths, band layouts, ICC profiles, EXIF orientations and interlacing, with its size
/// and the recipe it goes through.
package struct FidelityCase: Sendable, Hashable, CustomStringConvertible {
  package enum Format: String, Sendable, CaseIterable {
    case png, jpeg = "jpg", webp, heif = "heic", tiff = "tif", gif, avif
  }
  /// Bits per sample; `palette` is an 8-bit palette. Below 8 bits a grey master is grey at
  /// that depth and an RGB(A) one a palette of 2, 4 or 16 entries (PNG holds nothing else).
  package enum Depth: String, Sendable, CaseIterable {
    case one = "1", two = "2", four = "4", eight = "8", sixteen = "16", palette

    /// 1, 2 or 4; nil for 8-bit, 16-bit and 8-bit palette files.
    package var lowBits: Int? {
      switch self {
      case .one: 1
      case .two: 2
      case .four: 4
      default: nil
      }
    }
  }
  package enum Bands: String, Sendable, CaseIterable { case grey, greyAlpha, rgb, rgba, cmyk }
  package enum Profile: String, Sendable, CaseIterable {
    case none, sRGB, displayP3, adobeRGB, grey, cmyk
  }

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
  package var recipe = FidelityRecipe.variants

  package var hasAlpha: Bool { bands == .greyAlpha || bands == .rgba }

  /// Whether the file holds palette indices (8-bit palette, or RGB(A) below 8 bits).
  package var isPalette: Bool { depth == .palette || (depth.lowBits != nil && bands != .grey) }

  /// The file's name in the asset folder (`case07.png`).
  package func fileName(_ index: Int) -> String {
    "case\(index < 10 ? "0" : "")\(index).\(format.rawValue)"
  }

  package var description: String {
    var parts = [
      "\(format) \(depth.rawValue)-bit \(bands)\(isPalette && depth != .palette ? " palette" : "")",
      "icc \(profile)", "\(width)x\(height)", "recipe \(recipe.rawValue)",
    ]
    if orientation != 1 { parts.append("orientation \(orientation)") }
    if interlace { parts.append("interlaced") }
    return parts.joined(separator: ", ")
  }

  /// Whether ThumbForge may ship the master itself as its 3x variant (*Copied masters*: the
  /// output's format, 8-bit sRGB, upright, no profile), so that path is covered too.
  package var copyable: Bool {
    guard recipe == .variants else { return false }
    let png = format == .png && depth == .eight && (bands == .rgb || bands == .rgba)
    let jpeg = format == .jpeg && bands == .rgb && orientation == 1
    return (png || jpeg) && profile == .none
  }

  /// The (dimension, value) pairs the case covers.
  package var coverage: [String] {
    [
      "format \(format)", "depth \(depth.rawValue)", "bands \(bands)", "icc \(profile)",
      "orientation \(orientation)", "interlace \(interlace)", "recipe \(recipe.rawValue)",
    ] + (copyable ? ["copyable \(format)"] : [])
  }

  /// Every value of every dimension, which a case set must cover.
  package static func allCoverage(avif: Bool) -> [String] {
    let formats = Format.allCases.filter { avif || $0 != .avif }
    return formats.map { "format \($0)" } + Depth.allCases.map { "depth \($0.rawValue)" }
      + Bands.allCases.map { "bands \($0)" } + Profile.allCases.map { "icc \($0)" }
      + (1...8).map { "orientation \($0)" } + ["interlace false", "interlace true"]
      + FidelityRecipe.allCases.map { "recipe \($0.rawValue)" } + ["copyable png", "copyable jpeg"]
  }
}

extension FidelityCase {
  /// Every combination a master file can really be (PNG/TIFF 8 or 16 bits, PNG grey and
  /// palette at 1, 2 and 4 bits, TIFF grey at 1, 2 and 4 bits, palette PNG and GIF, CMYK
  /// JPEG/TIFF, grey profiles on grey, orientations on JPEG, interlacing on 8- and 16-bit PNG
  /// and on JPEG), each with the `variants` recipe.
  package static func validCombinations(avif: Bool) -> [FidelityCase] {
    var all: [FidelityCase] = []
    for format in Format.allCases where avif || format != .avif {
      for depth in depths(format) {
        for bands in bands(format, depth) {
          for profile in profiles(format, depth, bands) {
            let orientations = format == .jpeg ? Array(1...8) : [1]
            let interlaces =
              format == .jpeg || (format == .png && (depth == .eight || depth == .sixteen))
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
    case .png: [.one, .two, .four, .eight, .sixteen, .palette]
    case .tiff: [.one, .two, .four, .eight, .sixteen]
    case .gif: [.palette]
    default: [.eight]
    }
  }

  static func bands(_ format: Format, _ depth: Depth) -> [Bands] {
    if depth == .palette { return [.rgb, .rgba] }
    if depth.lowBits != nil { return format == .png ? [.grey, .rgb, .rgba] : [.grey] }
    switch format {
    case .png: return [.grey, .greyAlpha, .rgb, .rgba]
    case .jpeg: return [.grey, .rgb, .cmyk]
    case .tiff: return depth == .eight ? Bands.allCases : [.grey, .greyAlpha, .rgb, .rgba]
    default: return [.rgb, .rgba]
    }
  }

  static func profiles(_ format: Format, _ depth: Depth, _ bands: Bands) -> [Profile] {
    if depth == .palette || (depth.lowBits != nil && bands != .grey) { return [.none] }
    switch bands {
    case .grey, .greyAlpha:
      // libheif, libwebp hold no grey; PNG, JPEG and TIFF carry a grey profile.
      return [.none, .grey]
    case .cmyk: return [.none, .cmyk]
    case .rgb, .rgba: return [.none, .sRGB, .displayP3, .adobeRGB]
    }
  }

  /// `count` cases (at least enough to cover every value of every dimension once), chosen
  /// deterministically from `seed`: first one case for each value not yet covered, then
  /// random valid combinations, each with a recipe at random (a copied master's case keeps
  /// `variants`, the only recipe that copies).
  package static func cases(seed: UInt64, count: Int, avif: Bool) -> [FidelityCase] {
    var random = PropertyRandom(seed: seed)
    let pool = validCombinations(avif: avif)
    let recipes = FidelityRecipe.allCases
    var chosen: [FidelityCase] = []
    var covered = Set<String>()
    for value in allCoverage(avif: avif) where !covered.contains(value) {
      var pick: FidelityCase
      if let recipe = recipes.first(where: { value == "recipe \($0.rawValue)" }) {
        pick = random.pick(pool)
        pick.recipe = recipe
      } else {
        pick = random.pick(pool.filter { $0.coverage.contains(value) })
        if !value.hasPrefix("copyable") { pick.recipe = random.pick(recipes) }
      }
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
      pick.recipe = random.pick(recipes)
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

extension FidelityCase {
  /// Cases whose expected pixels `breaking` changes, for the test that each break is seen:
  /// an Adobe RGB master in every format that holds one (its profile ignored); JPEG at
  /// orientations 2–8; flags, and `fill`s, of 8-bit PNGs with and without alpha.
  package static func probes(for breaking: FidelityBreak, avif: Bool) -> [FidelityCase] {
    var random = PropertyRandom(seed: 45)
    let pool = validCombinations(avif: avif).filter { !$0.interlace }
    var picks: [FidelityCase]
    switch breaking {
    case .ignoreProfile:
      picks = Format.allCases.compactMap { format in
        pool.first { $0.format == format && $0.profile == .adobeRGB }
      }
    case .noRotation:
      picks = (2...8).compactMap { orientation in
        pool.first {
          $0.format == .jpeg && $0.bands == .rgb && $0.profile == .none
            && $0.orientation == orientation
        }
      }
    case .noRoundedMask, .wrongGravity:
      picks = pool.filter {
        $0.format == .png && $0.depth == .eight && $0.profile == .none
          && ($0.bands == .rgb || $0.bands == .rgba)
      }
      for index in picks.indices { picks[index].recipe = breaking == .wrongGravity ? .fill : .flag }
    }
    for index in picks.indices { picks[index].sized(&random) }
    return picks
  }
}
