internal import Foundation

/// A path glob: `*` matches within one folder, `**` across folders, `?` one character,
/// `{a,b}` alternatives. Matching is against `/`-separated relative paths.
package struct Glob: Sendable {
  package struct Invalid: Error, Sendable {
    package var message: String
  }

  let pattern: String
  private let regex: NSRegularExpression

  package init(_ pattern: String) throws(Invalid) {
    self.pattern = pattern
    var out = "^"
    var braceDepth = 0
    var index = pattern.startIndex
    while index < pattern.endIndex {
      let char = pattern[index]
      let next = pattern.index(after: index)
      switch char {
      case "*":
        if next < pattern.endIndex && pattern[next] == "*" {
          let afterStars = pattern.index(after: next)
          if afterStars < pattern.endIndex && pattern[afterStars] == "/" {
            out += "(?:.*/)?"
            index = pattern.index(after: afterStars)
          } else {
            out += ".*"
            index = afterStars
          }
          continue
        }
        out += "[^/]*"
      case "?": out += "[^/]"
      case "{":
        braceDepth += 1
        out += "(?:"
      case "}":
        guard braceDepth > 0 else { throw Invalid(message: "unbalanced '}' in glob '\(pattern)'") }
        braceDepth -= 1
        out += ")"
      case "," where braceDepth > 0: out += "|"
      default: out += NSRegularExpression.escapedPattern(for: String(char))
      }
      index = next
    }
    guard braceDepth == 0 else { throw Invalid(message: "unbalanced '{' in glob '\(pattern)'") }
    out += "$"
    do {
      regex = try NSRegularExpression(pattern: out)
    } catch {
      throw Invalid(message: "invalid glob '\(pattern)'")
    }
  }

  /// Whether `path` (relative, `/`-separated) matches.
  package func matches(_ path: String) -> Bool {
    let range = NSRange(path.startIndex..<path.endIndex, in: path)
    return regex.firstMatch(in: path, range: range) != nil
  }
}
