/// A rough reader of Swift source text for the structure tests: enough lexing to tell code
/// from comments and string literals, so that braces and names are counted only in code.
enum SwiftText {
  /// A function, initializer, deinitializer or subscript with a body.
  struct Function: Equatable {
    /// The 1-based line of its declaration.
    var line: Int
    /// Lines from the declaration to the closing brace, both included.
    var lines: Int
  }

  /// `text` with every comment and string literal replaced by spaces (newlines kept), so that
  /// line numbers and columns stay where they were.
  static func code(_ text: String) -> [UInt8] {
    let chars = Array(text.utf8)
    var out = chars
    var i = 0
    let (newline, space, quote, hash) = (Self.newline, Self.space, Self.quote, Self.hash)
    func blank(_ range: Range<Int>) {
      for k in range where out[k] != newline { out[k] = space }
    }
    func starts(_ s: StaticString, at k: Int) -> Bool {
      let p = UnsafeBufferPointer(start: s.utf8Start, count: s.utf8CodeUnitCount)
      guard k + p.count <= chars.count else { return false }
      for j in 0..<p.count where chars[k + j] != p[j] { return false }
      return true
    }
    while i < chars.count {
      if starts("//", at: i) {
        var j = i
        while j < chars.count && chars[j] != newline { j += 1 }
        blank(i..<j)
        i = j
      } else if starts("/*", at: i) {
        var depth = 0
        var j = i
        repeat {
          if starts("/*", at: j) {
            depth += 1
            j += 2
          } else if starts("*/", at: j) {
            depth -= 1
            j += 2
          } else {
            j += 1
          }
        } while depth > 0 && j < chars.count
        blank(i..<j)
        i = j
      } else if chars[i] == quote || (chars[i] == hash && starts("#\"", at: i)) {
        let end = stringEnd(chars, from: i)
        blank(i..<end)
        i = end
      } else {
        i += 1
      }
    }
    return out
  }

  /// The index just past the string literal starting at `start` (`"…"`, `"""…"""`, with any
  /// number of `#` around it).
  private static func stringEnd(_ chars: [UInt8], from start: Int) -> Int {
    let (newline, quote, hash, backslash) = (Self.newline, Self.quote, Self.hash, Self.backslash)
    var i = start
    var hashes = 0
    while i < chars.count && chars[i] == hash {
      hashes += 1
      i += 1
    }
    let multiline = i + 2 < chars.count && chars[i + 1] == quote && chars[i + 2] == quote
    let quotes = multiline ? 3 : 1
    i += quotes
    while i < chars.count {
      if chars[i] == backslash && hashes == 0 {
        i += 2
        continue
      }
      if !multiline && chars[i] == newline { return i }
      var closes = true
      for q in 0..<quotes where i + q >= chars.count || chars[i + q] != quote { closes = false }
      if closes {
        var j = i + quotes
        var count = 0
        while count < hashes && j < chars.count && chars[j] == hash {
          count += 1
          j += 1
        }
        if count == hashes { return j }
      }
      i += 1
    }
    return chars.count
  }

  /// Every function-like declaration with a body, with its length in lines.
  static func functions(in text: String) -> [Function] {
    let code = code(text)
    var lineOf: [Int] = []
    lineOf.reserveCapacity(code.count)
    var line = 1
    for c in code {
      lineOf.append(line)
      if c == newline { line += 1 }
    }
    var found: [Function] = []
    var i = 0
    while i < code.count {
      guard let keywordEnd = declarationKeyword(code, at: i) else {
        i += 1
        continue
      }
      if let close = bodyEnd(code, from: keywordEnd) {
        found.append(Function(line: lineOf[i], lines: lineOf[close] - lineOf[i] + 1))
      }
      i = keywordEnd
    }
    return found
  }

  private static let newline = UInt8(ascii: "\n")
  private static let space = UInt8(ascii: " ")
  private static let quote = UInt8(ascii: "\"")
  private static let hash = UInt8(ascii: "#")
  private static let backslash = UInt8(ascii: "\\")

  /// Whether `c` can be part of an identifier (ASCII letters, digits, `_`; any non-ASCII
  /// byte, as Swift identifiers may hold Unicode letters).
  private static func isIdentifier(_ c: UInt8) -> Bool {
    c >= 0x80 || c == UInt8(ascii: "_") || (c >= 0x30 && c <= 0x39)
      || (c | 0x20 >= 0x61 && c | 0x20 <= 0x7A)
  }

  /// Whether `code` holds `word` at `i`.
  private static func has(_ word: String, in code: [UInt8], at i: Int) -> Bool {
    let w = Array(word.utf8)
    guard i >= 0, i + w.count <= code.count else { return false }
    for j in 0..<w.count where code[i + j] != w[j] { return false }
    return true
  }

  /// Where a `func`, `init`, `deinit` or `subscript` keyword starting at `i` ends, if one does.
  private static func declarationKeyword(_ code: [UInt8], at i: Int) -> Int? {
    if i > 0
      && (isIdentifier(code[i - 1]) || code[i - 1] == UInt8(ascii: ".")
        || code[i - 1] == UInt8(ascii: "`"))
    {
      return nil
    }
    for keyword in ["func", "init", "deinit", "subscript"] where has(keyword, in: code, at: i) {
      let end = i + keyword.utf8.count
      let next = end < code.count ? code[end] : space
      let follows = keyword == "func" || keyword == "deinit" ? " \n{" : "(<?!"
      if follows.utf8.contains(next) { return end }
    }
    return nil
  }

  /// The index of the closing brace of the body that follows a declaration's signature, or
  /// nil when the declaration has none (a protocol requirement).
  private static func bodyEnd(_ code: [UInt8], from start: Int) -> Int? {
    var parens = 0
    var i = start
    while i < code.count {
      switch code[i] {
      case UInt8(ascii: "("), UInt8(ascii: "["): parens += 1
      case UInt8(ascii: ")"), UInt8(ascii: "]"): parens -= 1
      case UInt8(ascii: "{") where parens > 0:
        i = matching(code, open: i) ?? code.count
      case UInt8(ascii: "{"):
        return matching(code, open: i)
      case UInt8(ascii: "}") where parens == 0:
        return nil
      case newline where parens == 0:
        if !signatureContinues(code, at: i, start: start) { return nil }
      default: break
      }
      i += 1
    }
    return nil
  }

  /// Whether a signature goes on past the line break at `i`: only while the next line starts
  /// with what continues one, or this line ends with what needs more.
  private static func signatureContinues(_ code: [UInt8], at i: Int, start: Int) -> Bool {
    var next = i + 1
    while next < code.count && code[next] == space { next += 1 }
    for word in ["throws", "async", "rethrows", "->", "where", "{"]
    where has(word, in: code, at: next) {
      return true
    }
    var back = i - 1
    while back > start && (code[back] == space || code[back] == newline) { back -= 1 }
    return ",(:&=".utf8.contains(code[back]) || has("->", in: code, at: back - 1)
  }

  /// The index of the brace closing the one at `open`.
  private static func matching(_ code: [UInt8], open: Int) -> Int? {
    var depth = 0
    for i in open..<code.count {
      if code[i] == UInt8(ascii: "{") { depth += 1 }
      if code[i] == UInt8(ascii: "}") {
        depth -= 1
        if depth == 0 { return i }
      }
    }
    return nil
  }

  /// Names of the public types a file declares, at any depth.
  static func publicTypes(in text: String) -> [String] {
    publicDeclarations(in: text)
  }

  private static func publicDeclarations(in text: String) -> [String] {
    let kinds: Set<Substring> = ["struct", "enum", "class", "actor", "protocol", "typealias"]
    let modifiers: Set<Substring> = [
      "public", "package", "internal", "fileprivate", "private", "final", "indirect", "open",
    ]
    var names: [String] = []
    let stripped = String(decoding: code(text), as: UTF8.self)
    for line in stripped.split(separator: "\n", omittingEmptySubsequences: false) {
      var words = line.split(separator: " ")[...]
      while let first = words.first, first.hasPrefix("@") { words.removeFirst() }
      var isPublic = false
      while let first = words.first, modifiers.contains(first) {
        if first == "public" || first == "open" { isPublic = true }
        words.removeFirst()
      }
      guard words.count >= 2, kinds.contains(words[words.startIndex]), isPublic
      else { continue }
      let name = words[words.startIndex + 1].prefix { $0.isLetter || $0.isNumber || $0 == "_" }
      if let first = name.first, first.isUppercase { names.append(String(name)) }
    }
    return names
  }
}
