internal import Foundation

/// Turns asset and group names into Swift identifiers for the generated accessors.
///
/// Names are NFC-normalised (macOS file names are often decomposed) and split into words at
/// every character that cannot appear in a Swift identifier, and at `_`. Unicode letters that
/// Swift accepts are kept (`"Zürich"` → `zürich`); combining marks with no letter before them
/// are dropped; a result that would start with a digit gets a `_` prefix; an empty result is `_`.
/// Names Swift treats specially as members (`self`, `Self`, `Type`, `Protocol`, `init`) get a
/// `_` suffix; other keywords are written in backticks by ``escaped(_:)``.
enum SwiftIdentifier {
  /// `"United States"` → `unitedStates`, `"USA-Flag"` → `usaFlag`.
  static func lowerCamel(_ name: String) -> String {
    let words = words(of: name)
    guard let first = words.first else { return "_" }
    return finish(lowerLeadingCapitals(first) + words.dropFirst().map(capitalized).joined())
  }

  /// `"flags of europe"` → `FlagsOfEurope`.
  static func upperCamel(_ name: String) -> String {
    let words = words(of: name)
    return words.isEmpty ? "_" : finish(words.map(capitalized).joined())
  }

  /// The identifier as it must be written in source: in backticks when it is a keyword.
  static func escaped(_ identifier: String) -> String {
    keywords.contains(identifier) ? "`\(identifier)`" : identifier
  }

  /// Keywords that are reserved as identifiers and must be written in backticks.
  static let keywords: Set<String> = [
    "_", "Any", "as", "associatedtype", "await", "break", "case", "catch", "class", "continue",
    "default", "defer", "deinit", "do", "else", "enum", "extension", "fallthrough", "false",
    "fileprivate", "for", "func", "guard", "if", "import", "in", "inout", "internal", "is", "let",
    "nil", "operator", "precedencegroup", "private", "protocol", "public", "repeat", "rethrows",
    "return", "static", "struct", "subscript", "super", "switch", "throw", "throws", "true", "try",
    "typealias", "var", "where", "while",
  ]

  /// Names that compile in backticks but do not work as members (`Asset.Type` is a metatype,
  /// `Asset.self` the type itself), or only on recent compilers; these get a `_` suffix.
  static let memberReserved: Set<String> = ["self", "Self", "Type", "Protocol", "init"]

  private static func finish(_ identifier: String) -> String {
    var result = identifier
    if let first = result.unicodeScalars.first, !isIdentifierHead(first) {
      result = "_" + result
    }
    return memberReserved.contains(result) ? result + "_" : result
  }

  /// Maximal runs of identifier characters other than `_`, after NFC normalisation.
  static func words(of name: String) -> [String] {
    var words: [String] = []
    var current = String.UnicodeScalarView()
    for scalar in name.precomposedStringWithCanonicalMapping.unicodeScalars {
      if scalar != "_", isIdentifierCharacter(scalar) {
        // A combining mark or variation selector with no letter before it carries nothing.
        if current.isEmpty, !isIdentifierHead(scalar), !isDigit(scalar) { continue }
        current.append(scalar)
      } else if !current.isEmpty {
        words.append(String(current))
        current = String.UnicodeScalarView()
      }
    }
    if !current.isEmpty { words.append(String(current)) }
    return words
  }

  /// Upper-cases the first character, unless that would turn it into several (`ß` → `SS`).
  private static func capitalized(_ word: String) -> String {
    guard let first = word.first else { return word }
    let upper = String(first).uppercased()
    return (upper.count == 1 ? upper : String(first)) + word.dropFirst()
  }

  /// Lower-cases a leading run of capitals: `URL` → `url`, `USAFlag` → `usaFlag`, `iPad` stays.
  private static func lowerLeadingCapitals(_ word: String) -> String {
    let characters = Array(word)
    var run = characters.prefix { $0.isUppercase }.count
    if run > 1, run < characters.count, characters[run].isLowercase { run -= 1 }
    let lowered = characters.prefix(max(run, 1)).map { character -> String in
      let lower = String(character).lowercased()
      return lower.count == 1 ? lower : String(character)
    }
    return lowered.joined() + String(characters.dropFirst(max(run, 1)))
  }

  /// Swift's `identifier-head` (The Swift Programming Language, Lexical Structure), without `_`
  /// handling and without the invisible formatting characters it technically allows.
  static func isIdentifierHead(_ scalar: Unicode.Scalar) -> Bool {
    let value = scalar.value
    if value < 0x80 {
      return scalar == "_" || (scalar >= "a" && scalar <= "z") || (scalar >= "A" && scalar <= "Z")
    }
    return headRanges.contains { $0.contains(value) }
  }

  /// Swift's `identifier-character`: a head, a decimal digit or a combining mark.
  static func isIdentifierCharacter(_ scalar: Unicode.Scalar) -> Bool {
    if isDigit(scalar) { return true }
    if isIdentifierHead(scalar) { return true }
    return continuationRanges.contains { $0.contains(scalar.value) }
  }

  private static func isDigit(_ scalar: Unicode.Scalar) -> Bool {
    scalar >= "0" && scalar <= "9"
  }

  private static let headRanges: [ClosedRange<UInt32>] = [
    0xA8...0xA8, 0xAA...0xAA, 0xAF...0xAF, 0xB2...0xB5, 0xB7...0xBA, 0xBC...0xBE, 0xC0...0xD6,
    0xD8...0xF6, 0xF8...0xFF, 0x100...0x2FF, 0x370...0x167F, 0x1681...0x180D, 0x180F...0x1DBF,
    0x1E00...0x1FFF, 0x203F...0x2040, 0x2054...0x2054, 0x2070...0x20CF, 0x2100...0x218F,
    0x2460...0x24FF, 0x2776...0x2793, 0x2C00...0x2DFF, 0x2E80...0x2FFF, 0x3004...0x3007,
    0x3021...0x302F, 0x3031...0x303F, 0x3040...0xD7FF, 0xF900...0xFD3D, 0xFD40...0xFDCF,
    0xFDF0...0xFDFF, 0xFE10...0xFE1F, 0xFE30...0xFE44, 0xFE47...0xFEFE, 0xFF00...0xFFFD,
    0x10000...0x1FFFD,
    0x20000...0x2FFFD, 0x30000...0x3FFFD, 0x40000...0x4FFFD, 0x50000...0x5FFFD,
    0x60000...0x6FFFD, 0x70000...0x7FFFD, 0x80000...0x8FFFD, 0x90000...0x9FFFD,
    0xA0000...0xAFFFD, 0xB0000...0xBFFFD, 0xC0000...0xCFFFD, 0xD0000...0xDFFFD,
  ]

  private static let continuationRanges: [ClosedRange<UInt32>] = [
    0x300...0x36F, 0xFE00...0xFE0F, 0x1DC0...0x1DFF, 0x20D0...0x20FF, 0xFE20...0xFE2F,
  ]
}
