internal import Foundation

/// Android resource names from imageset names: what `R.drawable.…` can hold, the rule of
/// `aapt2` (lower-case ASCII letters, digits and `_`, not starting with a digit, not a Java
/// keyword), which is stricter than the file names `aapt` accepts.
enum AndroidResourceName {
  /// `name` made valid: accents dropped (`Côte` → `cote`), lower-cased, every other
  /// character `_` (runs of them one), `_` at the ends trimmed, and `img_` in front of one
  /// that starts with a digit or is a Java keyword (`img` for nothing left).
  static func make(_ name: String) -> String {
    // ASCII needs only lower-casing (folding goes through ICU, and most names are ASCII).
    let folded =
      name.utf8.allSatisfy { $0 < 0x80 }
      ? name.lowercased()
      : name.folding(options: [.diacriticInsensitive, .caseInsensitive], locale: nil)
    var result = ""
    for scalar in folded.unicodeScalars {
      let valid = ("a"..."z").contains(scalar) || ("0"..."9").contains(scalar)
      if valid {
        result.unicodeScalars.append(scalar)
      } else if !result.hasSuffix("_") {
        result.append("_")
      }
    }
    while result.hasPrefix("_") { result.removeFirst() }
    while result.hasSuffix("_") { result.removeLast() }
    if result.isEmpty {
      result = "img"
    } else if result.first!.isNumber || javaKeywords.contains(result) {
      result = "img_" + result
    }
    return result
  }

  /// Whether `name` is a valid resource name as ``make(_:)`` makes them.
  static func isValid(_ name: String) -> Bool {
    guard let first = name.unicodeScalars.first, ("a"..."z").contains(first) || first == "_"
    else { return false }
    return !javaKeywords.contains(name)
      && name.unicodeScalars.allSatisfy {
        ("a"..."z").contains($0) || ("0"..."9").contains($0) || $0 == "_"
      }
  }

  /// Java's keywords and literals, which `R` cannot name a field.
  static let javaKeywords: Set<String> = [
    "abstract", "assert", "boolean", "break", "byte", "case", "catch", "char", "class", "const",
    "continue", "default", "do", "double", "else", "enum", "extends", "false", "final",
    "finally", "float", "for", "goto", "if", "implements", "import", "instanceof", "int",
    "interface", "long", "native", "new", "null", "package", "private", "protected", "public",
    "return", "short", "static", "strictfp", "super", "switch", "synchronized", "this", "throw",
    "throws", "transient", "true", "try", "void", "volatile", "while",
  ]
}
